//! Helpers shared by the players' unit tests: positions drawn from a few marks.

pub use crate::games::shell::testing::cell;
use crate::games::shell::{Cell, Position};

/// A position with `marks` (`X`, `O`, `E` per cell, the rest empty) and the egg list
/// `eggs` in the notation's form (`-` for none).
pub fn position(marks: &[(&str, char)], eggs: &str) -> Position {
    let mut cells = ['-'; 81];
    for (name, ch) in marks {
        if let Some(c) = Cell::parse(name) {
            cells[c.index()] = *ch;
        }
    }
    let board: String = cells.iter().collect();
    Position::from_notation(&format!("{board} {eggs}")).expect("test position")
}

/// A finished game: black's five a1–e1 (S2).
pub fn won_by_black() -> Position {
    position(
        &[
            ("a1", 'X'),
            ("b1", 'X'),
            ("c1", 'X'),
            ("d1", 'X'),
            ("e1", 'X'),
        ],
        "-",
    )
}
