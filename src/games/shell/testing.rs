//! Helpers shared by the unit tests of the game and of its players.

use super::Cell;

/// The cell named `name` (`a1`…`i9`).
pub fn cell(name: &str) -> Cell {
    Cell::parse(name).expect("a cell name")
}
