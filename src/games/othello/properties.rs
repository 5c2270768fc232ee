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

/// The empty squares next to a disc of `discs`: with the opponent's discs, the
/// potential mobility of the side to move.
#[inline(always)]
#[must_use]
pub fn frontier(discs: u64, empty: u64) -> u64 {
    ((discs << 8)
        | (discs >> 8)
        | ((discs & !COLUMN_H) << 1)
        | ((discs & !COLUMN_A) >> 1)
        | ((discs & !COLUMN_H) << 9)
        | ((discs & !COLUMN_A) << 7)
        | ((discs & !COLUMN_H) >> 7)
        | ((discs & !COLUMN_A) >> 9))
        & empty
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
}
