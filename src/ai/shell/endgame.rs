//! The search player's endgame: the exact solver ([`super::exact`]) at the root of a
//! board with few empty cells, deepened one turn at a time within a share of the
//! move's budget, its tables kept from move to move (a value is a position's with so
//! many turns left, true whatever came before).
//!
//! Each solve is of the game cut `turns` turns ahead, an unfinished line counting as
//! a draw. Once three turns or more are solved and the root is not lost, the player
//! deepens on to the end of the move and plays the deepest equilibrium as it is: a
//! simultaneous root's mix (no share is cut: a dropped share is what an exploiter
//! punishes), or a settled root's serialized first pick, which holds the value even
//! against an opponent who knew it ([`super::mcts`]).

use std::time::Instant;

use super::exact::{Equilibrium, Exact};
use crate::games::Color;
use crate::games::shell::{Cell, Position};

/// The memory of one remembered position, about (a key of three cell sets, its
/// value, and the hash table's slack).
pub const ENTRY_BYTES: usize = 160;
/// The deepest cut tried.
const MAX_TURNS: u32 = 24;

/// The solver and its tables, kept by the player from move to move.
pub struct Endgame {
    exact: Exact,
    /// Remembered positions beyond which the tables are forgotten.
    max_remembered: usize,
}

impl Default for Endgame {
    fn default() -> Endgame {
        let mut exact = Exact::new(u64::MAX);
        exact.symmetric = false;
        Endgame {
            exact,
            max_remembered: (1 << 26) / ENTRY_BYTES,
        }
    }
}

/// What the endgame solve found at a root.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The turns of the deepest finished solve.
    pub turns: u32,
    /// Its equilibrium.
    pub equilibrium: Equilibrium,
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
    /// What the solver did so far, over every solve.
    #[must_use]
    pub fn stats(&self) -> super::exact::Stats {
        self.exact.stats
    }

    /// Bounds the tables to about `bytes` (they are forgotten at a solve's start
    /// once they hold more).
    pub fn bound_memory(&mut self, bytes: usize) {
        self.max_remembered = (bytes / ENTRY_BYTES).max(1);
    }

    /// Solves `position` one turn deeper at a time, from one turn more than
    /// `previous` (the plan found so far), up to `max_turns`, until a decided value
    /// (a forced win or loss holds at every depth beyond), `deadline`, or `nodes`
    /// solver nodes in all. The deepest finished solve.
    pub fn deepen(
        &mut self,
        position: &Position,
        deadline: Option<Instant>,
        nodes: u64,
        max_turns: u32,
        previous: Option<Plan>,
    ) -> Option<Plan> {
        if self.exact.remembered() > self.max_remembered {
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
            log::trace!(
                "endgame: {turns} turns solved, value {:.3}, {} nodes",
                equilibrium.value,
                self.exact.stats.nodes() - start
            );
            let decided =
                equilibrium.bounds.0 == equilibrium.bounds.1 && equilibrium.bounds.0.abs() == 1.0;
            plan = Some(Plan { turns, equilibrium });
            if decided {
                break;
            }
        }
        self.exact.deadline = None;
        plan
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
}
