//! Helpers shared by the unit tests of the game and of its players.

use super::{Cell, Position};
use crate::rng::Rng;

/// The cell named `name` (`a1`…`i9`).
pub fn cell(name: &str) -> Cell {
    Cell::parse(name).expect("a cell name")
}

/// The positions of a game played from `seed`, the start first: each side picks an
/// empty cell next to a stone (any empty cell on an empty board), and about one turn in
/// six is a collision, so eggs, captures and hatching all happen. At most `turns`
/// turns; the game's last position is included even when it is over.
pub fn played_positions(seed: u64, turns: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut position = Position::new();
    let mut seen = vec![position];
    for _ in 0..turns {
        if position.status().is_over() {
            break;
        }
        let empty = position.empty_cells().bits();
        let near = super::cell::adjacent(position.occupied()) & empty;
        let pool: Vec<Cell> = super::CellSet::from_bits(if near == 0 { empty } else { near })
            .iter()
            .collect();
        let (Some(&black), Some(&white)) = (rng.choose(&pool), rng.choose(&pool)) else {
            break;
        };
        let white = if rng.below(6) == 0 { black } else { white };
        if position.resolve_turn_quiet(black, white).is_err() {
            break;
        }
        seen.push(position);
    }
    seen
}
