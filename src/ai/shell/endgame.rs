//! The search player's endgame: the exact solver ([`super::exact`]) at the root of a
//! board with few empty cells, deepened one turn at a time within a share of the
//! move's budget, its tables kept from move to move (a value is a position's with so
//! many turns left, true whatever came before).
//!
//! Each solve is of the game cut `turns` turns ahead, an unfinished line counting as
//! a draw. What the deepest finished solve says decides the move:
//!
//! - **a simultaneous root** (the serialized bounds differ: what either colour gets
//!   depends on guessing the other's pick): the solve goes on deepening to the end of
//!   the move's budget and the player plays the deepest equilibrium's mix as it is
//!   (no share is cut: a dropped share is what an exploiter punishes);
//! - **a settled root** (the bounds meet at a value `v`): some pick holds `v` even
//!   when the opponent answers knowing it; the tree search plays as usual, but only
//!   among the picks shown to hold `v` ([`Plan::safe`]), so a line lost within the
//!   horizon is never drawn.

use std::time::Instant;

use super::exact::{Equilibrium, Exact};
use crate::games::Color;
use crate::games::shell::{Cell, Position};

/// Remembered positions beyond which the tables are forgotten (some 100–200 bytes
/// each).
const MAX_REMEMBERED: usize = 2_000_000;
/// The deepest cut tried.
const MAX_TURNS: u32 = 24;

/// The solver and its tables, kept by the player from move to move.
pub struct Endgame {
    exact: Exact,
}

impl Default for Endgame {
    fn default() -> Endgame {
        let mut exact = Exact::new(u64::MAX);
        exact.symmetric = false;
        Endgame { exact }
    }
}

/// What the endgame solve found at a root.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The turns of the deepest finished solve.
    pub turns: u32,
    /// Its equilibrium.
    pub equilibrium: Equilibrium,
    /// The searching colour's picks shown to hold the value when the bounds meet
    /// (empty when they differ, or when no pick could be checked in time).
    pub safe: u128,
}

impl Plan {
    /// True when the root is a simultaneous game at the solved depth.
    #[must_use]
    pub fn simultaneous(&self) -> bool {
        let (lo, hi) = self.equilibrium.bounds;
        hi > lo
    }

    /// The searching colour's equilibrium mix.
    #[must_use]
    pub fn strategy(&self, color: Color) -> &[(Cell, f64)] {
        match color {
            Color::Black => &self.equilibrium.black,
            Color::White => &self.equilibrium.white,
        }
    }
}

impl Endgame {
    /// Solves `position` one turn deeper at a time, from one turn more than
    /// `previous` (the plan found so far), up to `max_turns`, until a decided value
    /// (a forced win or loss holds at every depth beyond), `deadline`, or `nodes`
    /// solver nodes in all. The deepest finished solve (with no safe picks yet).
    pub fn deepen(
        &mut self,
        position: &Position,
        deadline: Option<Instant>,
        nodes: u64,
        max_turns: u32,
        previous: Option<Plan>,
    ) -> Option<Plan> {
        if self.exact.remembered() > MAX_REMEMBERED {
            self.exact.forget();
        }
        let start = self.exact.stats.nodes();
        let from = previous.as_ref().map_or(1, |p| p.turns + 1);
        let mut plan = previous;
        self.exact.deadline = deadline;
        for turns in from..=max_turns.min(MAX_TURNS) {
            let spent = self.exact.stats.nodes() - start;
            if spent >= nodes || deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            self.exact.set_budget(nodes - spent);
            let Some(equilibrium) = self.exact.equilibrium(position, turns) else {
                break;
            };
            let decided = equilibrium.bounds.0 == equilibrium.bounds.1
                && equilibrium.bounds.0.abs() == 1.0;
            plan = Some(Plan {
                turns,
                equilibrium,
                safe: 0,
            });
            if decided {
                break;
            }
        }
        self.exact.deadline = None;
        plan
    }

    /// The picks of `color` that hold the settled value of `plan` (its bounds meet),
    /// within `deadline` and `nodes`; none when they run out before every pick is
    /// checked (a partial list would favour the cells checked first).
    pub fn safe(
        &mut self,
        position: &Position,
        color: Color,
        plan: &Plan,
        deadline: Option<Instant>,
        nodes: u64,
    ) -> u128 {
        if plan.simultaneous() {
            return 0;
        }
        let start = self.exact.stats.nodes();
        let target = plan.equilibrium.value.round() as i8;
        let mut safe = 0u128;
        self.exact.deadline = deadline;
        for pick in position.empty_cells() {
            let spent = self.exact.stats.nodes() - start;
            if spent >= nodes {
                safe = 0;
                break;
            }
            self.exact.set_budget(nodes - spent);
            match self.exact.holds(position, plan.turns, color, pick, target) {
                Some(true) => safe |= 1u128 << pick.index(),
                Some(false) => {}
                None => {
                    safe = 0;
                    break;
                }
            }
        }
        self.exact.deadline = None;
        safe
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::shell::exact::{self, Exact};
    use crate::ai::shell::solver::Solved;

    /// The exploitability of `strategy` for `color` in the solved root `solved`.
    fn gap(solved: &Solved, color: Color, strategy: &[(Cell, f64)]) -> f64 {
        exact::exploitability(solved, color, strategy)
    }

    #[test]
    fn a_simultaneous_root_is_played_at_its_equilibrium() {
        // Tactician games reach 10-14 empty cells with threats on the board; the
        // first whose root is simultaneous within three turns.
        let mut checked = 0;
        for seed in 0..60 {
            let Some(p) = exact::tactician_position(seed, 10, 14) else {
                continue;
            };
            let mut endgame = Endgame::default();
            let Some(plan) = endgame.deepen(&p, None, 3_000_000, 4, None) else {
                continue;
            };
            if !plan.simultaneous() || plan.turns < 3 {
                continue;
            }
            let mut reference = Exact::new(u64::MAX);
            reference.horizon = Some(plan.turns);
            let solved = reference.root(&p).expect("solves");
            assert!((solved.solution.value - plan.equilibrium.value).abs() < 1e-9);
            for color in Color::ALL {
                assert!(gap(&solved, color, plan.strategy(color)) < 1e-7);
            }
            checked += 1;
            if checked == 2 {
                break;
            }
        }
        assert_eq!(checked, 2);
    }

    #[test]
    fn safe_picks_hold_the_settled_value() {
        let mut checked = 0;
        for seed in 0..40 {
            let Some(p) = exact::tactician_position(seed, 10, 14) else {
                continue;
            };
            let mut endgame = Endgame::default();
            let Some(mut plan) = endgame.deepen(&p, None, 300_000, 4, None) else {
                continue;
            };
            plan.safe = endgame.safe(&p, Color::White, &plan, None, 300_000);
            if plan.simultaneous() || plan.safe == 0 {
                continue;
            }
            let mut reference = Exact::new(u64::MAX);
            reference.horizon = Some(plan.turns);
            let solved = reference.root(&p).expect("solves");
            let v = solved.solution.value;
            let n = solved.cells.len();
            for (j, cell) in solved.cells.iter().enumerate() {
                if plan.safe & (1u128 << cell.index()) != 0 {
                    // Every black answer leaves white at least the value.
                    let worst = (0..n).map(|i| solved.matrix[i * n + j]).fold(-2.0, f64::max);
                    assert!(worst <= v + 1e-9, "seed {seed} {cell}: {worst} > {v}");
                }
            }
            checked += 1;
        }
        assert!(checked >= 3, "{checked}");
    }
}
