//! The position notation of CONTRACT.md: 81 characters row by row from `a1` (`X`
//! black, `O` white, `-` empty, `E` egg), a space, then the eggs' cells oldest first
//! joined by `,` (or `-` when there is none).
//!
//! Reading is total: any string gives a `Position` or a typed [`NotationError`], never a
//! panic. Board characters are exact (`X`, `O`, `E`, `-`); cell names in the egg list
//! are read in any case; whitespace around the whole text and between the two fields
//! is tolerated. The status of a read position is computed from its board (S9).

use std::fmt;

use super::cell::{CELL_COUNT, Cell};
use super::position::{Position, Stone};

/// Why a position text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text has no egg list after the board.
    MissingEggList,
    /// There is more text after the egg list.
    TrailingText,
    /// The board field does not have 81 characters.
    WrongLength { found: usize },
    /// A board character is not `X`, `O`, `E` or `-` (`position` counts from 1).
    BadCharacter { position: usize, found: char },
    /// An item of the egg list is not a cell name (shown shortened).
    BadEggCell { item: String },
    /// A cell marked `E` on the board is not in the egg list.
    EggNotListed(Cell),
    /// A listed egg cell is not marked `E` on the board.
    ListedNotEgg { cell: Cell, holds: Stone },
    /// A cell appears twice in the egg list.
    ListedTwice(Cell),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::MissingEggList => {
                f.write_str("missing egg list after the board (use - for no eggs)")
            }
            NotationError::TrailingText => f.write_str("unexpected text after the egg list"),
            NotationError::WrongLength { found } => {
                write!(f, "the board must have 81 characters, found {found}")
            }
            NotationError::BadCharacter { position, found } => write!(
                f,
                "bad board character {found:?} at position {position} (expected X, O, E or -)"
            ),
            NotationError::BadEggCell { item } => {
                write!(f, "{item:?} in the egg list is not a cell")
            }
            NotationError::EggNotListed(cell) => {
                write!(f, "the egg on {cell} is missing from the egg list")
            }
            NotationError::ListedNotEgg { cell, holds } => {
                write!(f, "{cell} is in the egg list but holds {holds}")
            }
            NotationError::ListedTwice(cell) => write!(f, "{cell} is listed twice as an egg"),
        }
    }
}

impl std::error::Error for NotationError {}

impl Position {
    /// The position in the contract's notation, e.g. `-----…---- e9,i9`.
    #[must_use]
    pub fn to_notation(&self) -> String {
        let mut text: String = Cell::ALL.iter().map(|&c| self.cell(c).symbol()).collect();
        text.push(' ');
        if self.eggs().is_empty() {
            text.push('-');
        }
        for (i, cell) in self.eggs().iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&cell.to_string());
        }
        text
    }

    /// Reads the contract's notation; see the module doc for what is tolerated.
    ///
    /// # Errors
    /// A [`NotationError`] naming the first problem found.
    pub fn from_notation(text: &str) -> Result<Position, NotationError> {
        let mut fields = text.split_whitespace();
        let board = fields.next().unwrap_or("");
        let list = fields.next();
        let mut position = Position::new();
        let mut found = 0;
        for (i, ch) in board.chars().enumerate() {
            found = i + 1;
            let Some(cell) = Cell::from_index(i) else {
                continue;
            };
            let bit = cell.bit();
            match ch {
                'X' => position.black |= bit,
                'O' => position.white |= bit,
                'E' => position.eggs |= bit,
                '-' => {}
                _ => {
                    return Err(NotationError::BadCharacter {
                        position: i + 1,
                        found: ch,
                    });
                }
            }
        }
        if found != CELL_COUNT {
            return Err(NotationError::WrongLength { found });
        }
        let Some(list) = list else {
            return Err(NotationError::MissingEggList);
        };
        if fields.next().is_some() {
            return Err(NotationError::TrailingText);
        }
        let board_eggs = position.eggs;
        position.eggs = 0;
        if list != "-" {
            for item in list.split(',') {
                let Some(cell) = Cell::parse(item) else {
                    return Err(NotationError::BadEggCell {
                        item: item.chars().take(16).collect(),
                    });
                };
                if position.eggs & cell.bit() != 0 {
                    return Err(NotationError::ListedTwice(cell));
                }
                if board_eggs & cell.bit() == 0 {
                    return Err(NotationError::ListedNotEgg {
                        cell,
                        holds: position.cell(cell),
                    });
                }
                position.lay_egg(cell);
            }
        }
        if let Some(cell) = Cell::ALL
            .iter()
            .copied()
            .find(|c| board_eggs & !position.eggs & c.bit() != 0)
        {
            return Err(NotationError::EggNotListed(cell));
        }
        position.settle_status();
        Ok(position)
    }
}

impl std::str::FromStr for Position {
    type Err = NotationError;
    fn from_str(text: &str) -> Result<Position, NotationError> {
        Position::from_notation(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Status;

    fn board_with(marks: &[(&str, char)]) -> String {
        let mut cells = ['-'; CELL_COUNT];
        for (name, ch) in marks {
            if let Some(c) = Cell::parse(name) {
                cells[c.index()] = *ch;
            }
        }
        cells.iter().collect()
    }

    #[test]
    fn s10_notation_round_trips_with_egg_order() {
        let text = format!(
            "{} i9,e9",
            board_with(&[("a1", 'X'), ("e9", 'E'), ("i9", 'E')])
        );
        let p = Position::from_notation(&text);
        assert_eq!(p.as_ref().map(Position::to_notation), Ok(text.clone()));
        let eggs: Vec<String> = p
            .map(|p| p.eggs().iter().map(Cell::to_string).collect())
            .unwrap_or_default();
        assert_eq!(eggs, ["i9", "e9"]);
        assert_eq!(
            Position::new().to_notation(),
            format!("{} -", "-".repeat(81))
        );
    }

    #[test]
    fn s10_notation_tolerates_case_and_whitespace() {
        let text = format!("  {}   I9,E9 \n", board_with(&[("e9", 'E'), ("i9", 'E')]));
        let p = Position::from_notation(&text);
        assert_eq!(
            p.map(|p| p.to_notation()),
            Ok(format!("{} i9,e9", board_with(&[("e9", 'E'), ("i9", 'E')])))
        );
    }

    #[test]
    fn s10_notation_refuses_with_reasons() {
        let empty = "-".repeat(81);
        let one_egg = board_with(&[("c3", 'E'), ("a1", 'X')]);
        let cases: Vec<(String, NotationError)> = vec![
            (String::new(), NotationError::WrongLength { found: 0 }),
            (
                format!("{empty}- -"),
                NotationError::WrongLength { found: 82 },
            ),
            (
                empty[1..].to_string() + " -",
                NotationError::WrongLength { found: 80 },
            ),
            (
                format!("x{} -", &empty[1..]),
                NotationError::BadCharacter {
                    position: 1,
                    found: 'x',
                },
            ),
            (
                format!("{}é -", &empty[1..]),
                NotationError::BadCharacter {
                    position: 81,
                    found: 'é',
                },
            ),
            (empty.clone(), NotationError::MissingEggList),
            (format!("{empty} - x"), NotationError::TrailingText),
            (
                format!("{empty} z9"),
                NotationError::BadEggCell { item: "z9".into() },
            ),
            (
                format!("{one_egg} c3,"),
                NotationError::BadEggCell {
                    item: String::new(),
                },
            ),
            (
                format!("{one_egg} -"),
                NotationError::EggNotListed(Cell::parse("c3").unwrap_or(Cell::ALL[0])),
            ),
            (
                format!("{one_egg} c3,a1"),
                NotationError::ListedNotEgg {
                    cell: Cell::ALL[0],
                    holds: Stone::Black,
                },
            ),
            (
                format!("{one_egg} c3,C3"),
                NotationError::ListedTwice(Cell::parse("c3").unwrap_or(Cell::ALL[0])),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(Position::from_notation(&text), Err(expected), "{text:?}");
        }
    }

    #[test]
    fn s9_status_of_a_read_position_comes_from_the_board() {
        let five_black: Vec<(&str, char)> = ["a1", "b1", "c1", "d1", "e1"]
            .iter()
            .map(|&c| (c, 'X'))
            .collect();
        let p = Position::from_notation(&format!("{} -", board_with(&five_black)));
        assert_eq!(p.map(|p| p.status()), Ok(Status::BlackWins));
        let mut both = five_black.clone();
        both.extend(["a9", "b9", "c9", "d9", "e9"].iter().map(|&c| (c, 'O')));
        let p = Position::from_notation(&format!("{} -", board_with(&both)));
        assert_eq!(p.map(|p| p.status()), Ok(Status::SuddenDeath));
        let full = "E".repeat(81);
        let full_eggs: Vec<String> = Cell::ALL.iter().map(|c| c.to_string()).collect();
        let p = Position::from_notation(&format!("{full} {}", full_eggs.join(",")));
        assert_eq!(p.map(|p| p.status()), Ok(Status::Draw));
    }
}
