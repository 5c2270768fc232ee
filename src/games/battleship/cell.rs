//! Cells of a 10×10 sea (B1) and sets of them.
//!
//! A [`Cell`] is always on the board: it is stored as its index `row * 10 + col`
//! (both 0-based, row 0 is row `1` at the top, col 0 is column `A`), and the only ways
//! to make one check the range. Cells order row by row from `A1`, left to right, which
//! is the canonical order of every list of cells. A [`CellSet`] is a 100-bit set of
//! cells in one `u128`; bits above 99 are never set.

use std::fmt;

/// Side length of the sea.
pub const SIZE: u8 = 10;

/// One cell of a sea, `A1` … `J10`. Always on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell at 0-based `col` (0 = `A`) and `row` (0 = `1`), if on the board.
    #[must_use]
    pub fn at(col: i32, row: i32) -> Option<Cell> {
        let size = i32::from(SIZE);
        if (0..size).contains(&col) && (0..size).contains(&row) {
            u8::try_from(row * size + col).ok().map(Cell)
        } else {
            None
        }
    }

    /// The cell with index `row * 10 + col`, if below 100.
    #[must_use]
    pub fn from_index(index: usize) -> Option<Cell> {
        u8::try_from(index)
            .ok()
            .filter(|&i| i < SIZE * SIZE)
            .map(Cell)
    }

    /// Every cell, in canonical order (row 1 first, left to right).
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..SIZE * SIZE).map(Cell)
    }

    /// 0-based column (0 = `A`).
    #[must_use]
    pub fn col(self) -> i32 {
        i32::from(self.0 % SIZE)
    }

    /// 0-based row (0 = row `1`, the top).
    #[must_use]
    pub fn row(self) -> i32 {
        i32::from(self.0 / SIZE)
    }

    /// `row * 10 + col`, in `0..100`.
    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The cell `dc` columns right and `dr` rows down, if on the board.
    #[must_use]
    pub fn offset(self, dc: i32, dr: i32) -> Option<Cell> {
        Cell::at(self.col() + dc, self.row() + dr)
    }

    /// The up to four cells sharing a side with this one.
    pub fn sides(self) -> impl Iterator<Item = Cell> {
        [(0, -1), (-1, 0), (1, 0), (0, 1)]
            .into_iter()
            .filter_map(move |(dc, dr)| self.offset(dc, dr))
    }

    /// The up to four cells sharing only a corner with this one.
    pub fn corners(self) -> impl Iterator<Item = Cell> {
        [(-1, -1), (1, -1), (-1, 1), (1, 1)]
            .into_iter()
            .filter_map(move |(dc, dr)| self.offset(dc, dr))
    }

    /// The up to eight cells touching this one by a side or a corner.
    pub fn neighbours(self) -> impl Iterator<Item = Cell> {
        self.sides().chain(self.corners())
    }

    /// Reads a cell in any case (`a1`, `J10`). Refuses anything else — off the board
    /// (`K1`, `A11`, `A0`), leading zeros, signs, spaces, non-ASCII — with `None`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Cell> {
        let bytes = text.as_bytes();
        let (&letter, digits) = bytes.split_first()?;
        let col = match letter.to_ascii_uppercase() {
            c @ b'A'..=b'J' => i32::from(c - b'A'),
            _ => return None,
        };
        let row = match digits {
            [d @ b'1'..=b'9'] => i32::from(d - b'0'),
            [b'1', b'0'] => 10,
            _ => return None,
        };
        Cell::at(col, row - 1)
    }

    /// Whether `text` has the shape of a cell (a letter and one to three digits),
    /// whether or not it lies on the board. Lets callers tell "off board" from garbage.
    #[must_use]
    pub fn looks_like_cell(text: &str) -> bool {
        let bytes = text.as_bytes();
        match bytes.split_first() {
            Some((letter, digits)) => {
                letter.is_ascii_alphabetic()
                    && (1..=3).contains(&digits.len())
                    && digits.iter().all(u8::is_ascii_digit)
            }
            None => false,
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = char::from(b'A' + self.0 % SIZE);
        write!(f, "{letter}{}", self.row() + 1)
    }
}

/// A set of cells, one bit per cell index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CellSet(u128);

impl CellSet {
    /// The empty set.
    #[must_use]
    pub fn new() -> CellSet {
        CellSet(0)
    }

    /// Adds `cell`.
    pub fn insert(&mut self, cell: Cell) {
        self.0 |= 1u128 << cell.index();
    }

    /// Whether `cell` is in the set.
    #[must_use]
    pub fn contains(self, cell: Cell) -> bool {
        self.0 & (1u128 << cell.index()) != 0
    }

    /// Whether the two sets share a cell.
    #[must_use]
    pub fn intersects(self, other: CellSet) -> bool {
        self.0 & other.0 != 0
    }

    /// The cells of both sets.
    #[must_use]
    pub fn union(self, other: CellSet) -> CellSet {
        CellSet(self.0 | other.0)
    }

    /// The cells of `self` not in `other`.
    #[must_use]
    pub fn minus(self, other: CellSet) -> CellSet {
        CellSet(self.0 & !other.0)
    }

    /// The cells in both sets.
    #[must_use]
    pub fn intersection(self, other: CellSet) -> CellSet {
        CellSet(self.0 & other.0)
    }

    /// The number of cells.
    #[must_use]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cells in canonical order.
    pub fn iter(self) -> impl Iterator<Item = Cell> {
        Cell::all().filter(move |&c| self.contains(c))
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> CellSet {
        let mut set = CellSet::new();
        for cell in iter {
            set.insert(cell);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b1_parse_any_case_and_print_uppercase() {
        assert_eq!(Cell::parse("a1").map(|c| c.to_string()), Some("A1".into()));
        assert_eq!(
            Cell::parse("J10").map(|c| c.to_string()),
            Some("J10".into())
        );
        assert_eq!(Cell::parse("c4").map(|c| (c.col(), c.row())), Some((2, 3)));
    }

    #[test]
    fn b1_parse_refuses_off_board_and_garbage() {
        for bad in [
            "K1", "A11", "A0", "", "A", "1A", "A01", "A+1", " A1", "A1 ", "É1", "A١", "AA", "J100",
            "a-1", "\u{0}",
        ] {
            assert_eq!(Cell::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn b1_the_letter_i_is_a_column() {
        assert_eq!(Cell::parse("i5").map(|c| c.col()), Some(8));
    }

    #[test]
    fn corner_cell_has_three_neighbours() {
        let a1 = Cell::parse("A1").into_iter().next();
        assert_eq!(a1.map(|c| c.neighbours().count()), Some(3));
        let e5 = Cell::parse("E5");
        assert_eq!(e5.map(|c| c.neighbours().count()), Some(8));
    }

    #[test]
    fn every_index_round_trips_through_display_and_parse() {
        for cell in Cell::all() {
            assert_eq!(Cell::parse(&cell.to_string()), Some(cell));
            assert_eq!(Cell::from_index(cell.index()), Some(cell));
        }
        assert_eq!(Cell::from_index(100), None);
    }
}
