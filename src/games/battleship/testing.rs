//! Helpers shared by the unit tests of the game and of its players.

use super::Cell;

/// The cell named `text` (`A1`…`J10`).
pub fn cell(text: &str) -> Cell {
    Cell::parse(text).expect("a cell name")
}
