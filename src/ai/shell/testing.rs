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

/// Black's four a1-d1 (e1 completes five, S2) and open three e5-g5, white's lone
/// turtle on i9: black wins by force (the four's block is a tempo for the open four).
pub fn four_and_open_three() -> Position {
    position(
        &[
            ("a1", 'X'),
            ("b1", 'X'),
            ("c1", 'X'),
            ("d1", 'X'),
            ("e5", 'X'),
            ("f5", 'X'),
            ("g5", 'X'),
            ("i9", 'O'),
        ],
        "-",
    )
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

/// A crowded board: the first `filled` cells in board order taken by turtles in
/// pairs of columns alternating by row (no five), every fifth cell an egg; then
/// `overrides` (`X`, `O`, `E` or `-` per cell) on top. The eggs are listed in board
/// order.
pub fn crowded(filled: usize, overrides: &[(&str, char)]) -> Position {
    let mut cells = ['-'; 81];
    for (i, ch) in cells.iter_mut().enumerate().take(filled) {
        *ch = if i % 5 == 0 {
            'E'
        } else if (i / 9 + i % 9 / 2) % 2 == 0 {
            'X'
        } else {
            'O'
        };
    }
    for (name, ch) in overrides {
        cells[Cell::parse(name).expect("a cell").index()] = *ch;
    }
    let eggs: Vec<String> = (0..81)
        .filter(|&i| cells[i] == 'E')
        .map(|i| Cell::ALL[i].to_string())
        .collect();
    let eggs = if eggs.is_empty() {
        "-".to_string()
    } else {
        eggs.join(",")
    };
    let board: String = cells.iter().collect();
    Position::from_notation(&format!("{board} {eggs}")).expect("test position")
}
