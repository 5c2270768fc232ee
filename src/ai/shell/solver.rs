//! An exact solver for small What the Shell endgames: backward induction with a matrix
//! game per node. Every empty cell is a choice of each colour; a node's value is the
//! value of the matrix of its children's values, solved exactly when it has a saddle
//! point and by regret matching⁺ ([`super::matrix`]) otherwise. Positions are
//! remembered, so each is solved once.
//!
//! Captures can empty cells again, which could make the game tree grow without end.
//! The solver therefore only claims exact values for endgames that stay small: a line
//! of play that reaches more empty cells than the root had, or runs longer than the
//! root's empty cells plus [`EXTRA_DEPTH`] turns, marks the solve as *escaped*
//! ([`Solver::root`] then answers `None`). Meant for ≤ 10 empty cells (the tests
//! measure the search's exploitability with it).
//!
//! Values are black's: +1 a black win, −1 a white win, 0 a draw.

use std::collections::HashMap;

use super::matrix;
use super::playout::{self, random_cell};
use crate::games::shell::cell::BOARD;
use crate::games::shell::{Cell, Position};
use crate::rng::Rng;

/// Turns allowed beyond the empty cells before a line of play counts as a draw.
pub const EXTRA_DEPTH: u32 = 4;
/// Regret-matching⁺ rounds for a node without a saddle point.
const ROUNDS: u32 = 3000;
/// The exploitability at which a node's matrix game counts as solved.
const TOLERANCE: f64 = 1e-3;

/// The root of a solved endgame: the empty cells (choices of both colours), the
/// matrix of exact child values (black's, row-major black × white) and its solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    pub cells: Vec<Cell>,
    pub matrix: Vec<f64>,
    pub solution: matrix::Solution,
}

/// Solves positions, remembering every position it has valued.
#[derive(Default)]
pub struct Solver {
    memo: HashMap<Position, f64>,
    /// The most empty cells a position of the endgame may have.
    max_empty: u32,
    /// Set when a line of play left the endgame (see the module doc).
    escaped: bool,
}

/// The value of a matrix with a saddle point (max of row minima equals min of column
/// maxima), if it has one.
fn saddle(values: &[f64], n: usize) -> Option<f64> {
    let maximin = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| values.get(i * n + j).copied().unwrap_or(0.0))
                .fold(f64::INFINITY, f64::min)
        })
        .fold(f64::NEG_INFINITY, f64::max);
    let minimax = (0..n)
        .map(|j| {
            (0..n)
                .map(|i| values.get(i * n + j).copied().unwrap_or(0.0))
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .fold(f64::INFINITY, f64::min);
    ((minimax - maximin).abs() < 1e-12).then_some(maximin)
}

impl Solver {
    /// A solver with nothing remembered.
    #[must_use]
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Positions valued so far.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// The children values of `position` (black × white over the empty cells).
    fn children(&mut self, position: &Position, cells: &[Cell], depth: u32) -> Vec<f64> {
        let mut values = Vec::with_capacity(cells.len() * cells.len());
        for &black in cells {
            for &white in cells {
                let mut child = *position;
                let value = match child.resolve_turn_quiet(black, white) {
                    Ok(_) => self.value_at(&child, depth.saturating_sub(1)),
                    Err(_) => 0.0,
                };
                values.push(value);
            }
        }
        values
    }

    fn value_at(&mut self, position: &Position, depth: u32) -> f64 {
        if self.escaped {
            // The answer will be `None` anyway: stop at once.
            return 0.0;
        }
        if position.status().is_over() {
            return playout::value(position.status());
        }
        if depth == 0 || position.empty_cells().len() > self.max_empty {
            self.escaped = true;
            return 0.0;
        }
        if let Some(&value) = self.memo.get(position) {
            return value;
        }
        let cells: Vec<Cell> = position.empty_cells().iter().collect();
        let values = self.children(position, &cells, depth);
        let n = cells.len();
        let value = saddle(&values, n)
            .unwrap_or_else(|| matrix::solve_within(&values, n, n, ROUNDS, TOLERANCE).value);
        self.memo.insert(*position, value);
        value
    }

    /// Black's exact value of `position`, `None` when the endgame does not stay small.
    pub fn value(&mut self, position: &Position) -> Option<f64> {
        let depth = position.empty_cells().len() + EXTRA_DEPTH;
        self.max_empty = self.max_empty.max(position.empty_cells().len());
        self.escaped = false;
        let value = self.value_at(position, depth);
        if self.escaped {
            // Values remembered under an escaped line are not exact: forget them all.
            self.memo.clear();
            return None;
        }
        Some(value)
    }

    /// The root matrix of `position` with exact child values, solved. `None` when the
    /// game is over or the endgame does not stay small.
    pub fn root(&mut self, position: &Position) -> Option<Solved> {
        if position.status().is_over() {
            return None;
        }
        let cells: Vec<Cell> = position.empty_cells().iter().collect();
        let depth = cells.len() as u32 + EXTRA_DEPTH;
        self.max_empty = self.max_empty.max(cells.len() as u32);
        self.escaped = false;
        let values = self.children(position, &cells, depth);
        let n = cells.len();
        if self.escaped {
            self.memo.clear();
            return None;
        }
        let solution = matrix::solve_within(&values, n, n, ROUNDS * 4, TOLERANCE / 4.0);
        Some(Solved {
            cells,
            matrix: values,
            solution,
        })
    }
}

impl Solved {
    /// The solved equilibrium strategy of `side` (0 black, 1 white), cells with their
    /// shares.
    #[must_use]
    pub fn strategy(&self, side: usize) -> Vec<(Cell, f64)> {
        let mix = if side == 0 {
            &self.solution.rows
        } else {
            &self.solution.cols
        };
        self.cells
            .iter()
            .copied()
            .zip(mix.iter().copied())
            .collect()
    }

    /// How much a best-responding opponent gains against `strategy` (cells with their
    /// shares) played by `side` (0 black, 1 white), relative to the game's value; 0
    /// for an equilibrium strategy, at most 2 (values lie in −1..1).
    #[must_use]
    pub fn exploitability(&self, side: usize, strategy: &[(Cell, f64)]) -> f64 {
        let n = self.cells.len();
        let mix: Vec<f64> = self
            .cells
            .iter()
            .map(|c| {
                strategy
                    .iter()
                    .filter(|s| s.0 == *c)
                    .map(|s| s.1)
                    .sum::<f64>()
            })
            .collect();
        let value = self.solution.value;
        if side == 0 {
            matrix::row_exploitability(&self.matrix, &mix, n, value)
        } else {
            // The column player's payoff is the negation: transpose and negate.
            let transposed: Vec<f64> = (0..n * n)
                .map(|k| -self.matrix.get((k % n) * n + k / n).copied().unwrap_or(0.0))
                .collect();
            matrix::row_exploitability(&transposed, &mix, n, -value)
        }
    }
}

/// Ongoing positions with `empty` empty cells whose solved root is not a foregone
/// conclusion: uniformly random games stopped at 24 empty cells or fewer, the
/// rest filled with eggs (newest last) at random; at most `count`, from the first
/// 3000 seeds, in seed order (the same list every time).
#[must_use]
pub fn endgames(empty: u32, count: usize) -> Vec<Position> {
    let mut found = Vec::new();
    for seed in 0..3000u64 {
        let mut rng = Rng::new(seed);
        let mut p = Position::new();
        while !p.status().is_over() && p.empty_cells().len() > 24 {
            let free = BOARD & !p.occupied();
            let (Some(b), Some(w)) = (random_cell(free, &mut rng), random_cell(free, &mut rng))
            else {
                break;
            };
            if p.resolve_turn_quiet(b, w).is_err() {
                break;
            }
        }
        while !p.status().is_over() && p.empty_cells().len() > empty {
            let Some(cell) = random_cell(BOARD & !p.occupied(), &mut rng) else {
                break;
            };
            // A collision lays the egg (S4) and changes nothing else.
            if p.resolve_turn_quiet(cell, cell).is_err() {
                break;
            }
        }
        if p.status().is_over() || p.empty_cells().len() < 3 {
            continue;
        }
        let solved = Solver::new().root(&p);
        let spread = solved.map_or(0.0, |s| {
            let hi = s.matrix.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let lo = s.matrix.iter().copied().fold(f64::INFINITY, f64::min);
            hi - lo
        });
        if spread >= 1.0 {
            found.push(p);
            if found.len() == count {
                break;
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Limits;
    use crate::ai::shell::mcts::{Selection, Settings, search};
    use crate::games::Color;
    use crate::rng::Rng;

    /// The target: on solved endgames (here ≤ 6 empty cells) the search's
    /// mixed strategy is exploitable by less than 5 % of the value range.
    #[test]
    fn search_is_hard_to_exploit_in_solved_endgames() {
        let positions = endgames(6, 6);
        assert!(positions.len() >= 3, "only {} endgames", positions.len());
        let settings = Settings {
            selection: Selection::RegretMatching,
            iterations: 4000,
            ..Settings::default()
        };
        for p in &positions {
            let solved = Solver::new().root(p).expect("ongoing");
            for (side, color) in [(0, Color::Black), (1, Color::White)] {
                let outcome = search(p, color, &settings, &Limits::depth(1), &mut Rng::new(3))
                    .expect("a pick");
                // As a share of the value range (−1..1, width 2), as the target says.
                let gap = solved.exploitability(side, &outcome.strategy) / 2.0;
                assert!(gap < 0.05, "{p:?} {color:?} exploitability {gap:.3}");
            }
        }
    }

    #[test]
    fn a_lone_empty_cell_is_a_collision_and_a_draw() {
        // Every cell but e5 is full and nobody has a line: both must pick e5 (S9).
        let mut board: Vec<char> = (0..81)
            .map(|i| {
                if (i / 9 + (i % 9) / 2) % 2 == 0 {
                    'X'
                } else {
                    'O'
                }
            })
            .collect();
        board[40] = '-';
        let text: String = board.into_iter().collect();
        let p = Position::from_notation(&format!("{text} -")).expect("position");
        assert_eq!(p.empty_cells().len(), 1);
        let mut solver = Solver::new();
        let solved = solver.root(&p).expect("ongoing");
        assert_eq!(solved.cells.len(), 1);
        let mut after = p;
        after
            .resolve_turn_quiet(solved.cells[0], solved.cells[0])
            .expect("a legal collision");
        assert_eq!(solver.value(&p), Some(playout::value(after.status())));
    }

    #[test]
    fn transposed_exploitability_matches_the_white_view() {
        // Matching pennies as a 2-cell game: each side's even mix is unexploitable, a
        // pure one loses 1.
        let solved = Solved {
            cells: vec![Cell::ALL[0], Cell::ALL[1]],
            matrix: vec![1.0, -1.0, -1.0, 1.0],
            solution: matrix::Solution {
                rows: vec![0.5, 0.5],
                cols: vec![0.5, 0.5],
                value: 0.0,
            },
        };
        let even = [(Cell::ALL[0], 0.5), (Cell::ALL[1], 0.5)];
        let pure = [(Cell::ALL[0], 1.0)];
        for side in 0..2 {
            assert!(solved.exploitability(side, &even).abs() < 1e-12);
            assert!((solved.exploitability(side, &pure) - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn sampled_endgames_solve_to_proper_matrix_games() {
        // Crowded boards with captures about: the sampled ones stay within the solver's
        // bounds, and their roots are proper matrix games with values in −1..1.
        for p in endgames(6, 3) {
            let solved = Solver::new().root(&p).expect("a solvable endgame");
            let n = solved.cells.len();
            assert_eq!(solved.matrix.len(), n * n);
            assert!(solved.matrix.iter().all(|v| (-1.0..=1.0).contains(v)));
            assert!((solved.solution.rows.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }
}
