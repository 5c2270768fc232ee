//! Properties of a side-relative board that players and scorers look at: the final
//! score with the empties rule (O4), full lines, stable discs and the frontier.
//!
//! Every function here is always inlined, so that each compiled copy of a hot
//! recursion (see [`crate::cpu`]) gets its own with the copy's instruction set.

use super::Board;

const COLUMN_A: u64 = 0x0101_0101_0101_0101;
const COLUMN_H: u64 = 0x8080_8080_8080_8080;
const ROW_1: u64 = 0xff;
const ROW_8: u64 = 0xff00_0000_0000_0000;
const BORDER: u64 = COLUMN_A | COLUMN_H | ROW_1 | ROW_8;

/// The score of a finished game for the side to move (O4: empties to the winner).
#[inline(always)]
#[must_use]
pub fn final_score(board: &Board) -> i32 {
    let mine = board.player.count_ones() as i32;
    let theirs = board.opponent.count_ones() as i32;
    let empty = 64 - mine - theirs;
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => mine - theirs + empty,
        std::cmp::Ordering::Less => mine - theirs - empty,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The squares of every full line along each axis.
#[inline(always)]
pub fn full_lines(filled: u64) -> [u64; 4] {
    let mut row = filled & (filled >> 1);
    row &= row >> 2;
    row &= row >> 4;
    let rows = (row & COLUMN_A) * 0xff;
    let mut column = filled & (filled >> 32);
    column &= column >> 16;
    column &= column >> 8;
    let columns = (column & ROW_1) * COLUMN_A;
    [
        rows,
        columns,
        diagonal_run(filled, 9, DOWN_RIGHT_BORDER) & diagonal_run_back(filled, 9, UP_LEFT_BORDER),
        diagonal_run(filled, 7, DOWN_LEFT_BORDER) & diagonal_run_back(filled, 7, UP_RIGHT_BORDER),
    ]
}

/// Row 8 and column H, rows 7–8 and columns G–H, rows 5–8 and columns E–H: the
/// squares within 1, 2 and 4 steps of the border towards h8.
const DOWN_RIGHT_BORDER: [u64; 3] = [
    ROW_8 | COLUMN_H,
    0xffff_0000_0000_0000 | 0xc0c0_c0c0_c0c0_c0c0,
    0xffff_ffff_0000_0000 | 0xf0f0_f0f0_f0f0_f0f0,
];
/// The same towards a8 (rows up, columns left).
const DOWN_LEFT_BORDER: [u64; 3] = [
    ROW_8 | COLUMN_A,
    0xffff_0000_0000_0000 | 0x0303_0303_0303_0303,
    0xffff_ffff_0000_0000 | 0x0f0f_0f0f_0f0f_0f0f,
];
/// The same towards a1.
const UP_LEFT_BORDER: [u64; 3] = [
    ROW_1 | COLUMN_A,
    0x0000_0000_0000_ffff | 0x0303_0303_0303_0303,
    0x0000_0000_ffff_ffff | 0x0f0f_0f0f_0f0f_0f0f,
];
/// The same towards h1.
const UP_RIGHT_BORDER: [u64; 3] = [
    ROW_1 | COLUMN_H,
    0x0000_0000_0000_ffff | 0xc0c0_c0c0_c0c0_c0c0,
    0x0000_0000_ffff_ffff | 0xf0f0_f0f0_f0f0_f0f0,
];

/// The filled squares from which every square up to the border, stepping `step`
/// bits up, is filled (`border[k]`: the squares within 2^k steps of the border,
/// whose run ends there; a shift that wraps round a side lands only on them).
#[inline(always)]
fn diagonal_run(filled: u64, step: u32, border: [u64; 3]) -> u64 {
    let mut run = filled & ((filled >> step) | border[0]);
    run &= (run >> (2 * step)) | border[1];
    run & ((run >> (4 * step)) | border[2])
}

/// [`diagonal_run`] stepping down.
#[inline(always)]
fn diagonal_run_back(filled: u64, step: u32, border: [u64; 3]) -> u64 {
    let mut run = filled & ((filled << step) | border[0]);
    run &= (run << (2 * step)) | border[1];
    run & ((run << (4 * step)) | border[2])
}

/// A subset of the discs of `player` that can never flip: along each of the four
/// axes the line is full, or the disc touches the border, or a neighbour on that
/// axis is itself stable.
#[inline(always)]
#[must_use]
pub fn stable_discs(player: u64, opponent: u64) -> u64 {
    let [rows, columns, down, up] = full_lines(player | opponent);
    let mut stable = 0u64;
    loop {
        let horizontal =
            rows | COLUMN_A | COLUMN_H | ((stable << 1) & !COLUMN_A) | ((stable >> 1) & !COLUMN_H);
        let vertical = columns | ROW_1 | ROW_8 | (stable << 8) | (stable >> 8);
        let diagonal = down | BORDER | ((stable << 9) & !COLUMN_A) | ((stable >> 9) & !COLUMN_H);
        let anti = up | BORDER | ((stable << 7) & !COLUMN_H) | ((stable >> 7) & !COLUMN_A);
        let next = player & horizontal & vertical & diagonal & anti;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The squares off the border.
const CENTRAL: u64 = 0x007e_7e7e_7e7e_7e00;

/// For each 8-square line, indexed by `player << 8 | opponent` (the two never
/// overlap), the discs of `player` that no sequence of moves on the line can flip:
/// every empty square may be filled by either side, in any order, flipping what it
/// brackets on the line. The other entries are 0.
pub struct EdgeStability(Box<[u8; 1 << 16]>);

impl EdgeStability {
    /// The table, made on first use.
    pub fn get() -> &'static EdgeStability {
        static TABLE: std::sync::OnceLock<EdgeStability> = std::sync::OnceLock::new();
        TABLE.get_or_init(EdgeStability::make)
    }

    /// Fills lines from full to empty: a line's stable discs are those stable in
    /// every line one move further on.
    fn make() -> EdgeStability {
        let mut table = Box::new([0u8; 1 << 16]);
        for filled_count in (0..=8u32).rev() {
            for filled in 0..=255u32 {
                if filled.count_ones() != filled_count {
                    continue;
                }
                // Every split of `filled` between the two sides.
                let mut player = filled;
                loop {
                    let opponent = filled & !player;
                    let mut stable = player;
                    for square in (0..8).filter(|&s| filled & (1 << s) == 0) {
                        let bit = 1 << square;
                        let mine = line_flips(player, opponent, square);
                        let theirs = line_flips(opponent, player, square);
                        let after_mine = (player | mine | bit) << 8 | (opponent & !mine);
                        let after_theirs = (player & !theirs) << 8 | (opponent | theirs | bit);
                        stable &= u32::from(table[after_mine as usize])
                            & u32::from(table[after_theirs as usize]);
                    }
                    table[(player << 8 | opponent) as usize] = stable as u8;
                    if player == 0 {
                        break;
                    }
                    player = (player - 1) & filled;
                }
            }
        }
        EdgeStability(table)
    }

    /// The entry of a line (`player` and `opponent`: bytes).
    #[inline(always)]
    fn line(&self, player: u64, opponent: u64) -> u64 {
        u64::from(self.0[((player << 8 | opponent) & 0xffff) as usize])
    }

    /// The stable discs of `player` on the four edges of the board.
    #[inline(always)]
    fn edges(&self, player: u64, opponent: u64) -> u64 {
        let bottom = self.line(player & ROW_1, opponent & ROW_1);
        let top = self.line(player >> 56, opponent >> 56);
        let left = self.line(column_to_row(player), column_to_row(opponent));
        let right = self.line(column_to_row(player >> 7), column_to_row(opponent >> 7));
        bottom | top << 56 | row_to_column(left) | row_to_column(right) << 7
    }
}

/// Column a of `discs` as a byte: row `i` to bit `i`.
#[inline(always)]
fn column_to_row(discs: u64) -> u64 {
    (discs & COLUMN_A).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// A byte spread over column a: bit `i` to row `i`. The multiplication copies the
/// byte to every row and the mask keeps bit `i` of row `i`; adding 0x7f to each
/// byte then carries a kept bit to its top without reaching the next byte.
#[inline(always)]
fn row_to_column(byte: u64) -> u64 {
    let diagonal = byte.wrapping_mul(COLUMN_A) & 0x8040_2010_0804_0201;
    (diagonal.wrapping_add(0x7f7f_7f7f_7f7f_7f7f) >> 7) & COLUMN_A
}

/// The discs of `other` that a disc of `mover` put on `square` brackets on an
/// 8-square line.
fn line_flips(mover: u32, other: u32, square: u32) -> u32 {
    let mut flipped = 0;
    for step in [1i32, -1] {
        let mut run = 0;
        let mut at = square as i32 + step;
        while (0..8).contains(&at) && other & (1 << at) != 0 {
            run |= 1 << at;
            at += step;
        }
        if (0..8).contains(&at) && mover & (1 << at) != 0 {
            flipped |= run;
        }
    }
    flipped
}

/// A subset of the discs of `player` that can never flip, larger than
/// [`stable_discs`]: the edges' stable discs are exact for their lines (from
/// `edges`), and a disc off the border is stable when along each axis its line is
/// full or a neighbour on that axis is stable. On the border the other three axes
/// end at the disc, so its line along the edge alone decides.
#[inline(always)]
#[must_use]
pub fn stable_discs_with_edges(player: u64, opponent: u64, edges: &EdgeStability) -> u64 {
    let lines = full_lines(player | opponent);
    stable_discs_from_edges(player, edges.edges(player, opponent), lines)
}

/// [`stable_discs_with_edges`] on a board with exactly four empty squares, whose
/// full lines are those through none of the four ([`LINES_THROUGH`]): four
/// look-ups instead of the shifts of [`full_lines`].
#[inline(always)]
#[must_use]
pub fn stable_discs_with_four_empties(player: u64, opponent: u64, edges: &EdgeStability) -> u64 {
    let lines = full_lines_of_four(!(player | opponent));
    stable_discs_from_edges(player, edges.edges(player, opponent), lines)
}

/// For each square, its row, column, diagonal and anti-diagonal (the square
/// included), in the order of [`full_lines`].
static LINES_THROUGH: [[u64; 4]; 64] = {
    let mut table = [[0u64; 4]; 64];
    let mut square = 0;
    while square < 64 {
        let (row, column) = ((square / 8) as i32, (square % 8) as i32);
        let mut other: i32 = 0;
        while other < 64 {
            let (r, c) = (other / 8, other % 8);
            let bit = 1u64 << other;
            if r == row {
                table[square][0] |= bit;
            }
            if c == column {
                table[square][1] |= bit;
            }
            if r - row == c - column {
                table[square][2] |= bit;
            }
            if r - row == column - c {
                table[square][3] |= bit;
            }
            other += 1;
        }
        square += 1;
    }
    table
};

/// [`full_lines`] of a board whose four empty squares are `empty` (exactly four):
/// a square's line along an axis is full when no empty square lies on it.
#[inline(always)]
#[must_use]
pub fn full_lines_of_four(empty: u64) -> [u64; 4] {
    let first = empty.trailing_zeros() as usize & 63;
    let rest = empty & empty.wrapping_sub(1);
    let second = rest.trailing_zeros() as usize & 63;
    let rest = rest & rest.wrapping_sub(1);
    let third = rest.trailing_zeros() as usize & 63;
    let rest = rest & rest.wrapping_sub(1);
    let fourth = rest.trailing_zeros() as usize & 63;
    let [a, b, c, d] = [
        &LINES_THROUGH[first],
        &LINES_THROUGH[second],
        &LINES_THROUGH[third],
        &LINES_THROUGH[fourth],
    ];
    [
        !(a[0] | b[0] | c[0] | d[0]),
        !(a[1] | b[1] | c[1] | d[1]),
        !(a[2] | b[2] | c[2] | d[2]),
        !(a[3] | b[3] | c[3] | d[3]),
    ]
}

/// [`stable_discs_with_edges`] from the edges' stable discs `edge_stable` and the
/// full lines `lines` (as [`full_lines`] gives them).
#[inline(always)]
fn stable_discs_from_edges(player: u64, edge_stable: u64, lines: [u64; 4]) -> u64 {
    let [rows, columns, down, up] = lines;
    let central = player & CENTRAL;
    // Shifts off the central squares land on the border (or off the board) and are
    // masked away.
    let mut stable = edge_stable | (central & rows & columns & down & up);
    loop {
        let horizontal = rows | (stable << 1) | (stable >> 1);
        let vertical = columns | (stable << 8) | (stable >> 8);
        let diagonal = down | (stable << 9) | (stable >> 9);
        let anti = up | (stable << 7) | (stable >> 7);
        let next = stable | (central & horizontal & vertical & diagonal & anti);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The stable-disc count of the portable copy of a hot recursion (see
/// [`crate::cpu`]).
pub mod portable {
    pub use super::{stable_discs_with_edges, stable_discs_with_four_empties};
}

/// The stable-disc count of the x86-64-v3 copy: the same discs, the edge columns
/// gathered into bytes with `pext` and spread back with `pdep` instead of
/// multiplications (the portable count where those are microcoded:
/// [`crate::cpu::fast_bit_gather`]).
#[cfg(target_arch = "x86_64")]
pub mod x86_64_v3 {
    use std::arch::x86_64::{_pdep_u64, _pext_u64};

    use super::{
        COLUMN_A, COLUMN_H, EdgeStability, ROW_1, full_lines, full_lines_of_four,
        stable_discs_from_edges,
    };

    /// [`super::stable_discs_with_edges`]. Always inlined (a function with its
    /// own target features could not be), and the intrinsics then inline into the
    /// caller's copy.
    ///
    /// # Safety
    ///
    /// The CPU must have `bmi2`: call it only from the x86-64-v3 copy.
    #[inline(always)]
    #[must_use]
    pub unsafe fn stable_discs_with_edges(
        player: u64,
        opponent: u64,
        edges: &EdgeStability,
    ) -> u64 {
        if !crate::cpu::fast_bit_gather() {
            return super::stable_discs_with_edges(player, opponent, edges);
        }
        // SAFETY: as this function.
        unsafe { gathered_stable_discs(player, opponent, edges, full_lines(player | opponent)) }
    }

    /// [`super::stable_discs_with_four_empties`], as [`stable_discs_with_edges`].
    ///
    /// # Safety
    ///
    /// As [`stable_discs_with_edges`].
    #[inline(always)]
    #[must_use]
    pub unsafe fn stable_discs_with_four_empties(
        player: u64,
        opponent: u64,
        edges: &EdgeStability,
    ) -> u64 {
        if !crate::cpu::fast_bit_gather() {
            return super::stable_discs_with_four_empties(player, opponent, edges);
        }
        let lines = full_lines_of_four(!(player | opponent));
        // SAFETY: as this function.
        unsafe { gathered_stable_discs(player, opponent, edges, lines) }
    }

    /// [`stable_discs_with_edges`] with `pext` and `pdep` whatever the processor.
    ///
    /// # Safety
    ///
    /// As [`stable_discs_with_edges`].
    #[inline(always)]
    #[must_use]
    pub(super) unsafe fn gathered_stable_discs(
        player: u64,
        opponent: u64,
        edges: &EdgeStability,
        lines: [u64; 4],
    ) -> u64 {
        // SAFETY: the caller's CPU has `bmi2`.
        let (left, right, left_of, right_of) = unsafe {
            (
                _pext_u64(player, COLUMN_A),
                _pext_u64(player, COLUMN_H),
                _pext_u64(opponent, COLUMN_A),
                _pext_u64(opponent, COLUMN_H),
            )
        };
        let bottom = edges.line(player & ROW_1, opponent & ROW_1);
        let top = edges.line(player >> 56, opponent >> 56);
        let (left, right) = (edges.line(left, left_of), edges.line(right, right_of));
        // SAFETY: as above.
        let columns = unsafe { _pdep_u64(left, COLUMN_A) | _pdep_u64(right, COLUMN_H) };
        stable_discs_from_edges(player, bottom | top << 56 | columns, lines)
    }
}

/// The stable-disc count of the x86-64-v4 copy: that of the x86-64-v3 copy, always
/// with `pext` and `pdep` (no processor with AVX-512 runs them in microcode).
#[cfg(target_arch = "x86_64")]
pub mod x86_64_v4 {
    use super::{EdgeStability, full_lines, full_lines_of_four};

    /// [`super::stable_discs_with_edges`].
    ///
    /// # Safety
    ///
    /// The CPU must have `bmi2`: call it only from the x86-64-v4 copy.
    #[inline(always)]
    #[must_use]
    pub unsafe fn stable_discs_with_edges(
        player: u64,
        opponent: u64,
        edges: &EdgeStability,
    ) -> u64 {
        let lines = full_lines(player | opponent);
        // SAFETY: as this function.
        unsafe { super::x86_64_v3::gathered_stable_discs(player, opponent, edges, lines) }
    }

    /// [`super::stable_discs_with_four_empties`].
    ///
    /// # Safety
    ///
    /// As [`stable_discs_with_edges`].
    #[inline(always)]
    #[must_use]
    pub unsafe fn stable_discs_with_four_empties(
        player: u64,
        opponent: u64,
        edges: &EdgeStability,
    ) -> u64 {
        let lines = full_lines_of_four(!(player | opponent));
        // SAFETY: as this function.
        unsafe { super::x86_64_v3::gathered_stable_discs(player, opponent, edges, lines) }
    }
}

/// The empty squares next to a disc of `discs` (`empty` holds none of them): with
/// the opponent's discs, the potential mobility of the side to move. The discs are
/// grown by one square along the rows, then that by one square along the columns
/// (which adds the diagonal neighbours too): four shifts instead of eight. The
/// growth keeps the discs themselves, which `empty` leaves out.
#[inline(always)]
#[must_use]
pub fn frontier(discs: u64, empty: u64) -> u64 {
    let row = discs | ((discs & !COLUMN_H) << 1) | ((discs & !COLUMN_A) >> 1);
    (row | (row << 8) | (row >> 8)) & empty
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The full lines of `filled` square by square: a line is full when all its
    /// squares are.
    fn full_lines_slowly(filled: u64) -> [u64; 4] {
        let mut lines = [0u64; 4];
        for square in 0..64i32 {
            if filled >> square & 1 == 0 {
                continue;
            }
            let (row, column) = (square / 8, square % 8);
            for (axis, (dr, dc)) in [(0, 1), (1, 0), (1, 1), (1, -1)].into_iter().enumerate() {
                let mut full = true;
                for sign in [1, -1] {
                    let (mut r, mut c) = (row, column);
                    while (0..8).contains(&r) && (0..8).contains(&c) {
                        full &= filled >> (r * 8 + c) & 1 == 1;
                        r += sign * dr;
                        c += sign * dc;
                    }
                }
                if full {
                    lines[axis] |= 1 << square;
                }
            }
        }
        lines
    }

    #[test]
    fn full_lines_agree_with_a_square_by_square_check() {
        let mut rng = crate::rng::Rng::new(11);
        for round in 0..4000 {
            // Dense boards: most lines are full or nearly so.
            let holes = rng.next_u64() & rng.next_u64() & rng.next_u64() & rng.next_u64();
            let filled = if round % 2 == 0 {
                !holes
            } else {
                !(holes & rng.next_u64())
            };
            assert_eq!(
                full_lines(filled),
                full_lines_slowly(filled),
                "{filled:#018x}"
            );
        }
        assert_eq!(full_lines(!0), [!0; 4]);
        assert_eq!(full_lines(0), [0; 4]);
    }

    #[test]
    fn the_final_score_gives_the_empties_to_the_winner() {
        let board = |player: u64, opponent: u64| Board { player, opponent };
        // 3 against 1 with 60 empties: +2 and the 60 empties.
        assert_eq!(final_score(&board(0b111, 0b1000)), 62);
        assert_eq!(final_score(&board(0b1000, 0b111)), -62);
        assert_eq!(final_score(&board(0b11, 0b1100)), 0);
        assert_eq!(final_score(&board(!0 >> 1, 1 << 63)), 62);
    }

    #[test]
    fn the_frontier_is_the_empty_neighbours() {
        // A disc on a1: b1, a2 and b2; on h8: g8, h7 and g7; wrapped squares
        // (h1 from a2, a8 from h7) are not neighbours.
        let empty = !((1u64 << 0) | (1 << 63));
        assert_eq!(frontier(1, empty), (1 << 1) | (1 << 8) | (1 << 9));
        assert_eq!(frontier(1 << 63, empty), (1 << 62) | (1 << 55) | (1 << 54));
        assert_eq!(frontier(1 << 8, !(1u64 << 8)).count_ones(), 5);
        assert_eq!(frontier(!0, 0), 0);
    }

    #[test]
    fn the_frontier_is_the_union_of_the_eight_neighbour_shifts() {
        let mut rng = crate::rng::Rng::new(31);
        for round in 0..20_000 {
            let occupied = match round % 3 {
                0 => rng.next_u64(),
                1 => rng.next_u64() | rng.next_u64(),
                _ => rng.next_u64() & rng.next_u64(),
            };
            let discs = occupied & rng.next_u64();
            let empty = !occupied;
            let expected = ((discs << 8)
                | (discs >> 8)
                | ((discs & !COLUMN_H) << 1)
                | ((discs & !COLUMN_A) >> 1)
                | ((discs & !COLUMN_H) << 9)
                | ((discs & !COLUMN_A) << 7)
                | ((discs & !COLUMN_H) >> 7)
                | ((discs & !COLUMN_A) >> 9))
                & empty;
            assert_eq!(
                frontier(discs, empty),
                expected,
                "{discs:#018x} {empty:#018x}"
            );
        }
    }

    #[test]
    fn edge_lines_hold_the_textbook_cases() {
        let edges = EdgeStability::get();
        // A full line: every disc.
        assert_eq!(edges.line(0b1010_0101, 0b0101_1010), 0b1010_0101);
        // A corner and the run from it.
        assert_eq!(edges.line(0b0000_0111, 0b0001_0000), 0b0000_0111);
        // No corner of the player's: with a1 empty, b1 and h1 the opponent's, the
        // opponent's a1 brackets nothing and the player's a1 fills the line.
        assert_eq!(edges.line(0b0111_1100, 0b1000_0010), 0b0111_1100);
        // With b1 empty instead the opponent's a1 then b1 would bracket them.
        assert_eq!(edges.line(0b0111_1100, 0b1000_0001), 0);
        // Two empty ends: the opponent fills one and then the other.
        assert_eq!(edges.line(0b0111_1110, 0), 0);
        assert_eq!(edges.line(0, 0), 0);
    }

    #[test]
    fn four_empties_give_the_full_lines_and_stable_discs_of_the_board() {
        let mut rng = crate::rng::Rng::new(41);
        let edges = EdgeStability::get();
        for _ in 0..20_000 {
            let mut empty = 0u64;
            while empty.count_ones() < 4 {
                empty |= 1 << rng.below(64);
            }
            assert_eq!(full_lines_of_four(empty), full_lines(!empty), "{empty:#x}");
            let player = !empty & rng.next_u64();
            let opponent = !empty & !player;
            let plain = stable_discs_with_edges(player, opponent, edges);
            let four = stable_discs_with_four_empties(player, opponent, edges);
            assert_eq!(four, plain, "{player:#x} {opponent:#x}");
            #[cfg(target_arch = "x86_64")]
            if crate::cpu::Isa::detected() != crate::cpu::Isa::Portable {
                // SAFETY: the features of the copies (`bmi2` among them) were
                // detected.
                let copies = unsafe {
                    [
                        x86_64_v3::stable_discs_with_four_empties(player, opponent, edges),
                        x86_64_v4::stable_discs_with_four_empties(player, opponent, edges),
                    ]
                };
                assert_eq!(copies, [plain; 2], "{player:#x} {opponent:#x}");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_x86_64_v3_stable_discs_agree_with_the_plain_ones() {
        if crate::cpu::Isa::detected() == crate::cpu::Isa::Portable {
            return;
        }
        let mut rng = crate::rng::Rng::new(31);
        let edges = EdgeStability::get();
        for round in 0..20_000 {
            // Dense boards, as near the end of a game.
            let holes = rng.next_u64() & rng.next_u64() & rng.next_u64();
            let filled = if round % 2 == 0 {
                !holes
            } else {
                !(holes & rng.next_u64())
            };
            let player = filled & rng.next_u64();
            let opponent = filled & !player;
            // SAFETY: the features of the copy (`bmi2` among them) were detected above.
            let fast = unsafe { x86_64_v3::stable_discs_with_edges(player, opponent, edges) };
            let plain = stable_discs_with_edges(player, opponent, edges);
            assert_eq!(fast, plain, "{player:#x} {opponent:#x}");
            // SAFETY: as above (every copy from x86-64-v3 up has `bmi2`).
            let gathered = unsafe { x86_64_v4::stable_discs_with_edges(player, opponent, edges) };
            assert_eq!(gathered, plain, "{player:#x} {opponent:#x}");
        }
    }

    #[test]
    fn stable_discs_with_edges_keep_their_colour_to_the_end() {
        let mut rng = crate::rng::Rng::new(21);
        let edges = EdgeStability::get();
        let mut stable_seen = 0u32;
        for _ in 0..400 {
            // A random game, each position with black's and white's discs.
            let mut board = super::super::Position::start().board();
            let mut black_to_move = true;
            let mut game = Vec::new();
            loop {
                let (black, white) = if black_to_move {
                    (board.player, board.opponent)
                } else {
                    (board.opponent, board.player)
                };
                game.push((black, white));
                let moves = board.moves();
                if moves == 0 {
                    if board.passed().moves() == 0 {
                        break;
                    }
                    board = board.passed();
                    black_to_move = !black_to_move;
                    continue;
                }
                let squares: Vec<u32> = (0..64).filter(|s| moves & (1u64 << s) != 0).collect();
                let square = squares[rng.below(squares.len() as u64) as usize];
                let flipped = super::super::bitboard::flips(board.player, board.opponent, square);
                board = board.after(square, flipped);
                black_to_move = !black_to_move;
            }
            for (i, &(black, white)) in game.iter().enumerate() {
                for (mine, theirs, side) in [(black, white, 0), (white, black, 1)] {
                    let stable = stable_discs_with_edges(mine, theirs, edges);
                    let plain = stable_discs(mine, theirs);
                    assert_eq!(plain & !stable, 0, "the edges lose discs");
                    assert_eq!(stable & !mine, 0);
                    stable_seen += stable.count_ones();
                    for later in &game[i..] {
                        let still = if side == 0 { later.0 } else { later.1 };
                        assert_eq!(stable & !still, 0, "a stable disc flipped");
                    }
                }
            }
        }
        assert!(stable_seen > 100_000, "{stable_seen} stable discs seen");
    }
}
