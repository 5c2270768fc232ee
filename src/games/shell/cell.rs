//! Cells of the 9×9 board (S1), sets of cells, and the board's geometry.
//!
//! A [`Cell`] is an index `0..81`, `row * 9 + col`, row 0 being row "1" at the top and
//! col 0 being column `a`. The invariant `index < 81` holds for every `Cell` value: the
//! only constructors check it. A [`CellSet`] is a 128-bit mask whose bits 81..128 are
//! always zero; iterating it yields cells in canonical order (row 1 first, `a` to `i`).
//! The direction shifts here never let a stone wrap around an edge.

use std::fmt;

/// Cells per side.
pub const SIZE: u8 = 9;
/// Cells on the board.
pub const CELL_COUNT: usize = 81;

/// One cell of the board, `a1` (top left) to `i9` (bottom right).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Cell(u8);

impl Cell {
    /// Every cell in canonical order: row 1 first, `a` to `i` within a row.
    pub const ALL: [Cell; CELL_COUNT] = {
        let mut all = [Cell(0); CELL_COUNT];
        let mut i = 0;
        while i < CELL_COUNT {
            all[i] = Cell(i as u8);
            i += 1;
        }
        all
    };

    /// The cell in column `col` (0 = `a`) and row `row` (0 = row "1"), if on the board.
    #[must_use]
    pub const fn new(col: u8, row: u8) -> Option<Cell> {
        if col < SIZE && row < SIZE {
            Some(Cell(row * SIZE + col))
        } else {
            None
        }
    }

    /// The cell with index `index` (`row * 9 + col`), if below 81.
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Cell> {
        if index < CELL_COUNT {
            Some(Cell(index as u8))
        } else {
            None
        }
    }

    /// `row * 9 + col`, in `0..81`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The column, 0 (`a`) to 8 (`i`).
    #[must_use]
    pub const fn col(self) -> u8 {
        self.0 % SIZE
    }

    /// The row, 0 (row "1", top) to 8 (row "9", bottom).
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 / SIZE
    }

    /// Reads `e5` or `E5`: a column letter `a`–`i` in any case, then a row digit
    /// `1`–`9`, nothing else (no spaces). Any other string, non-ASCII included, is `None`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Cell> {
        let [letter, digit] = text.as_bytes() else {
            return None;
        };
        let col = match letter.to_ascii_lowercase() {
            c @ b'a'..=b'i' => c - b'a',
            _ => return None,
        };
        let row = match digit {
            d @ b'1'..=b'9' => d - b'1',
            _ => return None,
        };
        Cell::new(col, row)
    }

    /// The one-bit mask of this cell.
    #[must_use]
    pub(crate) const fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// The mask of the up to eight cells next to this one (rows, columns, diagonals).
    #[must_use]
    pub(crate) fn neighbours(self) -> u128 {
        NEIGHBOURS.get(self.index()).copied().unwrap_or(0)
    }
}

/// Per cell index, [`Cell::neighbours`].
const NEIGHBOURS: [u128; CELL_COUNT] = {
    let mut table = [0u128; CELL_COUNT];
    let mut index = 0;
    while index < CELL_COUNT {
        table[index] = adjacent(1u128 << index);
        index += 1;
    }
    table
};

/// The cells next to some cell of `mask` (rows, columns, diagonals); a cell of
/// `mask` is among them only when it is next to another.
#[inline]
#[must_use]
pub(crate) const fn adjacent(mask: u128) -> u128 {
    let mut around = 0;
    let mut d = 0;
    while d < Dir::ALL.len() {
        around |= Dir::ALL[d].shift(mask);
        d += 1;
    }
    around
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = char::from(b'a' + self.col());
        let digit = char::from(b'1' + self.row());
        write!(f, "{letter}{digit}")
    }
}

/// The mask of all 81 cells.
pub(crate) const BOARD: u128 = (1u128 << CELL_COUNT) - 1;

const fn column_mask(col: u8) -> u128 {
    let mut mask = 0u128;
    let mut row = 0;
    while row < SIZE {
        mask |= 1u128 << (row * SIZE + col);
        row += 1;
    }
    mask
}

const COL_A: u128 = column_mask(0);
const COL_I: u128 = column_mask(SIZE - 1);

/// A set of cells, iterated in canonical order (row 1 first, `a` to `i`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CellSet(u128);

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet(0);

    /// The set of the mask's bits that are cells (bits 81 and up are dropped).
    #[must_use]
    pub const fn from_bits(bits: u128) -> CellSet {
        CellSet(bits & BOARD)
    }

    /// The mask: bit `i` set when the cell with index `i` is in the set.
    #[must_use]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// True when `cell` is in the set.
    #[must_use]
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 & cell.bit() != 0
    }

    /// The number of cells in the set.
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set has no cell.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cells in canonical order.
    #[must_use]
    pub fn iter(self) -> CellIter {
        CellIter(self.0)
    }
}

impl IntoIterator for CellSet {
    type Item = Cell;
    type IntoIter = CellIter;
    fn into_iter(self) -> CellIter {
        CellIter(self.0)
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> CellSet {
        CellSet(iter.into_iter().fold(0, |mask, cell| mask | cell.bit()))
    }
}

/// The cells of a [`CellSet`], lowest index first.
#[derive(Clone, Debug)]
pub struct CellIter(u128);

impl Iterator for CellIter {
    type Item = Cell;
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Cell::from_index(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

/// One of the eight directions, named as on a map with row 1 to the north.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    East,
    South,
    SouthEast,
    SouthWest,
    West,
    North,
    NorthWest,
    NorthEast,
}

impl Dir {
    /// All eight; the first four are the "forward" ones (index increases along them).
    pub(crate) const ALL: [Dir; 8] = [
        Dir::East,
        Dir::South,
        Dir::SouthEast,
        Dir::SouthWest,
        Dir::West,
        Dir::North,
        Dir::NorthWest,
        Dir::NorthEast,
    ];

    /// The four forward directions: one per line through a cell.
    pub(crate) const FORWARD: [Dir; 4] = [Dir::East, Dir::South, Dir::SouthEast, Dir::SouthWest];

    /// True for the four directions along which the index increases.
    pub(crate) const fn is_forward(self) -> bool {
        matches!(
            self,
            Dir::East | Dir::South | Dir::SouthEast | Dir::SouthWest
        )
    }

    /// The opposite direction.
    pub(crate) const fn opposite(self) -> Dir {
        match self {
            Dir::East => Dir::West,
            Dir::West => Dir::East,
            Dir::South => Dir::North,
            Dir::North => Dir::South,
            Dir::SouthEast => Dir::NorthWest,
            Dir::NorthWest => Dir::SouthEast,
            Dir::SouthWest => Dir::NorthEast,
            Dir::NorthEast => Dir::SouthWest,
        }
    }

    /// Moves every cell of `mask` one cell in this direction; cells that would leave
    /// the board (or wrap to the other edge) are dropped.
    #[inline]
    pub(crate) const fn shift(self, mask: u128) -> u128 {
        match self {
            Dir::East => (mask << 1) & !COL_A & BOARD,
            Dir::West => (mask >> 1) & !COL_I,
            Dir::South => (mask << 9) & BOARD,
            Dir::North => mask >> 9,
            Dir::SouthEast => (mask << 10) & !COL_A & BOARD,
            Dir::NorthWest => (mask >> 10) & !COL_I,
            Dir::SouthWest => (mask << 8) & !COL_I & BOARD,
            Dir::NorthEast => (mask >> 8) & !COL_A,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s1_parse_accepts_any_case_and_prints_lowercase() {
        assert_eq!(Cell::parse("e5"), Cell::new(4, 4));
        assert_eq!(Cell::parse("E5"), Cell::new(4, 4));
        assert_eq!(Cell::parse("a1").map(Cell::index), Some(0));
        assert_eq!(Cell::parse("I9").map(Cell::index), Some(80));
        assert_eq!(Cell::parse("i9").map(|c| c.to_string()), Some("i9".into()));
        for bad in [
            "", "e", "e0", "j1", "a10", " e5", "e5 ", "5e", "é5", "e٥", "ee", "\u{0}5",
        ] {
            assert_eq!(Cell::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn s1_every_cell_round_trips_through_text() {
        for cell in Cell::ALL {
            assert_eq!(Cell::parse(&cell.to_string()), Some(cell));
            assert_eq!(Cell::new(cell.col(), cell.row()), Some(cell));
        }
        assert_eq!(Cell::new(9, 0), None);
        assert_eq!(Cell::from_index(81), None);
    }

    #[test]
    fn neighbours_are_the_cells_one_step_away() {
        for cell in Cell::ALL {
            let expected: CellSet = Cell::ALL
                .into_iter()
                .filter(|other| {
                    other != &cell
                        && other.col().abs_diff(cell.col()) <= 1
                        && other.row().abs_diff(cell.row()) <= 1
                })
                .collect();
            assert_eq!(CellSet::from_bits(cell.neighbours()), expected, "{cell}");
        }
    }

    #[test]
    fn shifts_never_wrap() {
        for cell in Cell::ALL {
            for dir in Dir::ALL {
                let moved = CellSet::from_bits(dir.shift(cell.bit()));
                let (dc, dr): (i8, i8) = match dir {
                    Dir::East => (1, 0),
                    Dir::West => (-1, 0),
                    Dir::South => (0, 1),
                    Dir::North => (0, -1),
                    Dir::SouthEast => (1, 1),
                    Dir::NorthWest => (-1, -1),
                    Dir::SouthWest => (-1, 1),
                    Dir::NorthEast => (1, -1),
                };
                let col = cell.col() as i8 + dc;
                let row = cell.row() as i8 + dr;
                let expected = if (0..9).contains(&col) && (0..9).contains(&row) {
                    Cell::new(col as u8, row as u8).into_iter().collect()
                } else {
                    CellSet::EMPTY
                };
                assert_eq!(moved, expected, "{cell} {dir:?}");
                assert_eq!(
                    dir.opposite().shift(dir.shift(cell.bit())) & cell.bit(),
                    if expected.is_empty() { 0 } else { cell.bit() }
                );
            }
        }
    }
}
