//! The What the Shell position (S10): the cells and the age order of the eggs, plus
//! the status, which is always the one the board implies (S9).
//!
//! Invariants every `Position` keeps:
//! - `black`, `white` and `eggs` are disjoint masks of board cells (bits `0..81`);
//! - the egg queue holds exactly the cells of `eggs`, each once, oldest first;
//! - `status` equals [`Position::status_from_board`]: counts differ → that side has
//!   won; equal and positive → sudden death unless the board is full; board full →
//!   draw; else ongoing. Sudden death needs no memory: it is "counts equal and > 0".
//!
//! Equality and hashing look at the board and the live part of the queue only.

use std::fmt;
use std::hash::{Hash, Hasher};

use super::cell::{BOARD, CELL_COUNT, Cell, CellSet, Dir};
use crate::games::{Color, Status};

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stone {
    Empty,
    Black,
    White,
    Egg,
}

impl Stone {
    /// The turtle of `color`.
    #[must_use]
    pub fn turtle(color: Color) -> Stone {
        match color {
            Color::Black => Stone::Black,
            Color::White => Stone::White,
        }
    }

    /// The notation character: `X`, `O`, `E` or `-`.
    #[must_use]
    pub fn symbol(self) -> char {
        match self {
            Stone::Empty => '-',
            Stone::Black => 'X',
            Stone::White => 'O',
            Stone::Egg => 'E',
        }
    }

    /// The lowercase word for it: `empty`, `black`, `white`, `egg`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Stone::Empty => "empty",
            Stone::Black => "black",
            Stone::White => "white",
            Stone::Egg => "egg",
        }
    }
}

impl fmt::Display for Stone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stone::Empty => "nothing",
            Stone::Black => "a black turtle",
            Stone::White => "a white turtle",
            Stone::Egg => "an egg",
        })
    }
}

/// A position: three disjoint masks, the egg queue (oldest first) and the status.
/// `Copy`, no heap, about 150 bytes.
#[derive(Clone, Copy)]
pub struct Position {
    pub(crate) black: u128,
    pub(crate) white: u128,
    pub(crate) eggs: u128,
    /// `queue[..queue_len]` are the eggs, oldest first; the rest is unused.
    pub(crate) queue: [Cell; CELL_COUNT],
    pub(crate) queue_len: u8,
    pub(crate) status: Status,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.black == other.black
            && self.white == other.white
            && self.eggs == other.eggs
            && self.eggs() == other.eggs()
            && self.status == other.status
    }
}

impl Eq for Position {}

impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.black.hash(state);
        self.white.hash(state);
        self.eggs().hash(state);
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.to_notation(), self.status.name())
    }
}

/// The cells of `mask` that lie in some line of five or more of `mask` (S9): each
/// direction's five starts spread four steps along it, skipped where there is none
/// (most boards have no five in most directions).
#[inline]
pub(crate) fn cells_in_fives(mask: u128) -> u128 {
    #[inline(always)]
    fn along(mask: u128, back: Dir) -> u128 {
        let starts = five_starts(mask, back);
        if starts == 0 {
            return 0;
        }
        let dir = back.opposite();
        // n and n+d, then n…n+3d, then n…n+4d.
        let two = starts | dir.shift(starts);
        let four = two | dir.shift(dir.shift(two));
        four | dir.shift(four)
    }
    along(mask, Dir::West)
        | along(mask, Dir::North)
        | along(mask, Dir::NorthWest)
        | along(mask, Dir::NorthEast)
}

/// The cells n of `mask` with n, n+d, …, n+4d all in `mask`, `back` being −d: the
/// starts of its fives along d. Inlined with a constant `back`, so every shift is a
/// plain one.
#[inline(always)]
fn five_starts(mask: u128, back: Dir) -> u128 {
    // n and n+d in the mask, then n…n+3d, then n…n+4d.
    let two = mask & back.shift(mask);
    let four = two & back.shift(back.shift(two));
    four & back.shift(four)
}

/// True when `mask` holds some line of five or more (S9).
#[inline]
pub(crate) fn has_five(mask: u128) -> bool {
    five_starts(mask, Dir::West)
        | five_starts(mask, Dir::North)
        | five_starts(mask, Dir::NorthWest)
        | five_starts(mask, Dir::NorthEast)
        != 0
}

impl Position {
    /// The empty board, ongoing.
    #[must_use]
    pub const fn new() -> Position {
        Position {
            black: 0,
            white: 0,
            eggs: 0,
            queue: [Cell::ALL[0]; CELL_COUNT],
            queue_len: 0,
            status: Status::Ongoing,
        }
    }

    /// What `cell` holds.
    #[must_use]
    pub fn cell(&self, cell: Cell) -> Stone {
        let bit = cell.bit();
        if self.black & bit != 0 {
            Stone::Black
        } else if self.white & bit != 0 {
            Stone::White
        } else if self.eggs & bit != 0 {
            Stone::Egg
        } else {
            Stone::Empty
        }
    }

    /// True when `cell` holds no turtle and no egg.
    #[must_use]
    pub fn is_empty(&self, cell: Cell) -> bool {
        self.occupied() & cell.bit() == 0
    }

    /// The eggs, oldest first.
    #[must_use]
    pub fn eggs(&self) -> &[Cell] {
        self.queue.get(..usize::from(self.queue_len)).unwrap_or(&[])
    }

    /// The cells holding an egg.
    #[must_use]
    pub fn egg_cells(&self) -> CellSet {
        CellSet::from_bits(self.eggs)
    }

    /// The cells holding a turtle of `color`.
    #[must_use]
    pub fn turtles(&self, color: Color) -> CellSet {
        CellSet::from_bits(self.turtle_mask(color))
    }

    /// The empty cells, iterated in canonical order (row 1 first, `a` to `i`).
    #[must_use]
    pub fn empty_cells(&self) -> CellSet {
        CellSet::from_bits(BOARD & !self.occupied())
    }

    /// True when every cell holds a turtle or an egg.
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.occupied() == BOARD
    }

    /// Where the game stands.
    #[must_use]
    pub fn status(&self) -> Status {
        self.status
    }

    /// S9's count: the distinct turtles of `color` lying in some line of five or more
    /// of their colour (a six counts 6, two fives crossing on one turtle count 9).
    #[must_use]
    pub fn winning_turtles(&self, color: Color) -> u32 {
        cells_in_fives(self.turtle_mask(color)).count_ones()
    }

    /// The status the board implies (S9 with its draw RULING).
    #[must_use]
    pub fn status_from_board(&self) -> Status {
        // The counts skip a direction without a five at once, so they cost little
        // more than telling whether there is one.
        self.status_from(
            self.winning_turtles(Color::Black),
            self.winning_turtles(Color::White),
        )
    }

    /// The status S9 gives these counts of winning turtles on this board.
    pub(super) fn status_from(&self, black: u32, white: u32) -> Status {
        if black > white {
            Status::BlackWins
        } else if white > black {
            Status::WhiteWins
        } else if self.is_full() {
            Status::Draw
        } else if black > 0 {
            Status::SuddenDeath
        } else {
            Status::Ongoing
        }
    }

    pub(crate) fn occupied(&self) -> u128 {
        self.black | self.white | self.eggs
    }

    pub(crate) fn turtle_mask(&self, color: Color) -> u128 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    pub(crate) fn turtle_mask_mut(&mut self, color: Color) -> &mut u128 {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }

    /// Appends a new egg on the empty cell `cell` (the newest in the queue).
    /// Precondition: `cell` is empty, so the queue has room (at most 81 eggs).
    pub(crate) fn lay_egg(&mut self, cell: Cell) {
        if let Some(slot) = self.queue.get_mut(usize::from(self.queue_len)) {
            *slot = cell;
            self.queue_len += 1;
            self.eggs |= cell.bit();
        }
    }

    /// S8's claims on the queue in one pass: drops the eggs in `captured`, then of the
    /// others, oldest first, the next `vanish` vanish and the `hatch` after them hatch
    /// (fewer when the queue runs out). The kept eggs keep their order; the vanished
    /// and the hatched leave the egg mask and are returned as masks, in that order.
    pub(crate) fn claim_eggs(&mut self, captured: u128, vanish: usize, hatch: usize) -> [u128; 2] {
        let mut taken = [0u128; 2];
        let len = usize::from(self.queue_len);
        let claims_wanted = vanish + hatch;
        let mut claims = 0;
        let mut kept = 0;
        // The captured eggs not reached yet: once they are passed and the claims are
        // made, the rest of the queue only moves up.
        let mut left = captured & self.eggs;
        let mut i = 0;
        while i < len && (left != 0 || claims < claims_wanted) {
            let cell = self.queue[i];
            let bit = cell.bit();
            i += 1;
            if captured & bit != 0 {
                left &= !bit;
                continue;
            }
            if claims < claims_wanted {
                taken[usize::from(claims >= vanish)] |= bit;
                claims += 1;
            } else {
                self.queue[kept] = cell;
                kept += 1;
            }
        }
        self.queue.copy_within(i..len, kept);
        self.queue_len = (kept + len - i) as u8;
        self.eggs &= !(captured | taken[0] | taken[1]);
        taken
    }

    /// Drops from the queue the eggs whose cells are in `gone`, keeping the others'
    /// order, and clears them from the egg mask: with [`Position::oldest_eggs`], the
    /// plain reading of S8 that [`Position::claim_eggs`] is checked against.
    #[cfg(test)]
    fn forget_eggs(&mut self, gone: u128) {
        let kept: Vec<Cell> = self
            .eggs()
            .iter()
            .copied()
            .filter(|cell| gone & cell.bit() == 0)
            .collect();
        self.queue[..kept.len()].copy_from_slice(&kept);
        self.queue_len = kept.len() as u8;
        self.eggs &= !gone;
    }

    /// The mask of the `n` oldest eggs after skipping the `skip` oldest (fewer when the
    /// queue runs out).
    #[cfg(test)]
    fn oldest_eggs(&self, skip: usize, n: usize) -> u128 {
        self.eggs()
            .iter()
            .skip(skip)
            .take(n)
            .fold(0, |mask, cell| mask | cell.bit())
    }

    /// Recomputes the status from the board (after a turn has settled).
    pub(crate) fn settle_status(&mut self) {
        self.status = self.status_from_board();
    }

    /// A picture for people (`showboard`): column letters on top, row numbers on the
    /// left; `X` black, `O` white, `.` empty, and each egg shown as its age rank
    /// (1 = oldest). Then a legend line with the eggs oldest first and a status line
    /// with both counts. No empty line inside.
    #[must_use]
    pub fn picture(&self) -> String {
        let mut out = String::from("     a  b  c  d  e  f  g  h  i\n");
        for row in 0..9u8 {
            out.push_str(&format!("{:>2} ", row + 1));
            for col in 0..9u8 {
                let Some(cell) = Cell::new(col, row) else {
                    continue;
                };
                let shown = match self.cell(cell) {
                    Stone::Egg => {
                        let rank = self.eggs().iter().position(|&e| e == cell).unwrap_or(0) + 1;
                        format!("{rank:>3}")
                    }
                    Stone::Empty => "  .".to_string(),
                    stone => format!("  {}", stone.symbol()),
                };
                out.push_str(&shown);
            }
            out.push('\n');
        }
        out.push_str("eggs oldest first:");
        if self.eggs().is_empty() {
            out.push_str(" none");
        }
        for (rank, cell) in self.eggs().iter().enumerate() {
            out.push_str(&format!(" {}={cell}", rank + 1));
        }
        out.push_str(&format!(
            "\nstatus {} (winning turtles: black {}, white {})",
            self.status.name(),
            self.winning_turtles(Color::Black),
            self.winning_turtles(Color::White)
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::games::shell::testing::played_positions;

    proptest! {
        #[test]
        fn claims_in_one_pass_agree_with_forgetting_then_taking_the_oldest(
            seed in any::<u64>(),
            gone in any::<u128>(),
            vanish in 0usize..6,
            hatch in 0usize..6,
        ) {
            for position in played_positions(seed, 80) {
                // Some eggs captured (and other cells, as a flank mask has them).
                let captured = gone & (position.eggs | position.black);
                let mut fast = position;
                let taken = fast.claim_eggs(captured, vanish, hatch);
                let mut plain = position;
                plain.forget_eggs(captured);
                let vanished = plain.oldest_eggs(0, vanish);
                let hatched = plain.oldest_eggs(vanish, hatch);
                plain.forget_eggs(vanished | hatched);
                prop_assert_eq!(taken, [vanished, hatched]);
                prop_assert_eq!(fast.eggs(), plain.eggs());
                prop_assert_eq!(fast.eggs, plain.eggs);
            }
        }

        #[test]
        fn has_five_says_whether_some_cell_is_in_a_five(
            a in any::<u128>(),
            b in any::<u128>(),
            c in any::<u128>(),
        ) {
            // Half, a quarter and an eighth of the cells.
            for mask in [a, a & b, a & b & c] {
                let mask = mask & BOARD;
                prop_assert_eq!(has_five(mask), cells_in_fives(mask) != 0);
            }
        }

        #[test]
        fn cells_in_fives_are_the_cells_of_some_five_read_cell_by_cell(
            a in any::<u128>(),
            b in any::<u128>(),
        ) {
            for mask in [a & BOARD, a & b & BOARD, (a | b) & BOARD] {
                // A cell is in a five when, along some line, the run of the mask
                // through it is five long or more.
                let run = |cell: Cell, dir: Dir| {
                    let mut count = 0;
                    let mut at = dir.shift(cell.bit());
                    while at & mask != 0 {
                        count += 1;
                        at = dir.shift(at);
                    }
                    count
                };
                let plain = Cell::ALL
                    .iter()
                    .filter(|c| {
                        mask & c.bit() != 0
                            && Dir::FORWARD
                                .iter()
                                .any(|&d| 1 + run(**c, d) + run(**c, d.opposite()) >= 5)
                    })
                    .fold(0u128, |m, c| m | c.bit());
                prop_assert_eq!(cells_in_fives(mask), plain);
            }
        }
    }

    #[test]
    fn s9_line_masks_need_five_in_a_row() {
        let cells = |names: &[&str]| -> u128 {
            names
                .iter()
                .filter_map(|n| Cell::parse(n))
                .fold(0, |m, c| m | c.bit())
        };
        assert_eq!(cells_in_fives(cells(&["a1", "b1", "c1", "d1"])), 0);
        let five = cells(&["e1", "f1", "g1", "h1", "i1"]);
        assert_eq!(cells_in_fives(five), five);
        // No wrap from i1 to a2.
        assert_eq!(cells_in_fives(cells(&["g1", "h1", "i1", "a2", "b2"])), 0);
        let diagonal = cells(&["a5", "b4", "c3", "d2", "e1"]);
        assert_eq!(cells_in_fives(diagonal), diagonal);
        let column = cells(&["c5", "c6", "c7", "c8", "c9"]);
        assert_eq!(cells_in_fives(column | cells(&["d1"])), column);
    }

    #[test]
    fn picture_has_no_empty_line() {
        let mut p = Position::new();
        if let Some(c) = Cell::parse("e5") {
            p.lay_egg(c);
        }
        let pic = p.picture();
        assert!(pic.lines().all(|l| !l.trim().is_empty()), "{pic}");
        assert!(pic.contains("1=e5"));
        assert!(pic.ends_with("status ongoing (winning turtles: black 0, white 0)"));
    }
}
