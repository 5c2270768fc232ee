//! The move-generation and flip kernel: side-relative bitboards and shifts over the
//! eight directions.
//!
//! A [`Board`] holds `player` (the discs of the side to move) and `opponent`; the two
//! never overlap. Bit `i` is the square `row * 8 + column` (a1 = bit 0, h8 = bit 63).
//! Playing a move or passing swaps the two sets, so every function here is written
//! for "the side to move" and knows no colours.

/// Every square but column a: what may be left after a shift towards column h.
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
/// Every square but column h: what may be left after a shift towards column a.
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// Moves every disc one step in direction `dir` (0..8), dropping what leaves the board.
/// Directions: 0 east, 1 west, 2 south (towards row 8), 3 north, 4 south-east,
/// 5 south-west, 6 north-east, 7 north-west.
#[inline(always)]
fn shift(bits: u64, dir: usize) -> u64 {
    match dir {
        0 => (bits << 1) & NOT_A,
        1 => (bits >> 1) & NOT_H,
        2 => bits << 8,
        3 => bits >> 8,
        4 => (bits << 9) & NOT_A,
        5 => (bits << 7) & NOT_H,
        6 => (bits >> 7) & NOT_A,
        _ => (bits >> 9) & NOT_H,
    }
}

/// The squares that are legal moves for the side holding `player` (O2): empty squares
/// from which, in some direction, a run of one or more `opponent` discs ends on a
/// `player` disc.
#[inline]
#[must_use]
pub fn moves(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    let mut result = 0;
    for dir in 0..8 {
        // A run of opponent discs is at most six long on an 8-wide board.
        let mut run = shift(player, dir) & opponent;
        run |= shift(run, dir) & opponent;
        run |= shift(run, dir) & opponent;
        run |= shift(run, dir) & opponent;
        run |= shift(run, dir) & opponent;
        run |= shift(run, dir) & opponent;
        result |= shift(run, dir) & empty;
    }
    result
}

/// The opponent discs that flip when the side holding `player` plays on `square`
/// (O2): in every direction, the contiguous opponent discs that end on a player disc.
/// Only discs bracketed by the new disc flip: no chain reaction. Zero means `square`
/// is no legal move (or is occupied: the caller checks emptiness).
#[inline]
#[must_use]
pub fn flips(player: u64, opponent: u64, square: u32) -> u64 {
    let origin = 1u64 << square;
    let mut result = 0;
    for dir in 0..8 {
        let mut run = 0;
        let mut x = shift(origin, dir);
        while x & opponent != 0 {
            run |= x;
            x = shift(x, dir);
        }
        if x & player != 0 {
            result |= run;
        }
    }
    result
}

/// A side-relative board: the discs of the side to move and of its opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub player: u64,
    pub opponent: u64,
}

impl Board {
    /// The legal moves of the side to move, as a set of squares.
    #[inline]
    #[must_use]
    pub fn moves(&self) -> u64 {
        moves(self.player, self.opponent)
    }

    /// The board after the side to move plays on `square`, which flips `flipped`
    /// (as returned by [`flips`]); the sides are swapped.
    #[inline]
    #[must_use]
    pub fn after(&self, square: u32, flipped: u64) -> Board {
        Board {
            player: self.opponent & !flipped,
            opponent: self.player | flipped | (1u64 << square),
        }
    }

    /// The board after a pass: the sides are swapped.
    #[inline]
    #[must_use]
    pub fn passed(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// The empty squares.
    #[inline]
    #[must_use]
    pub fn empty(&self) -> u64 {
        !(self.player | self.opponent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slow reference: walk each direction square by square with coordinates.
    fn flips_reference(player: u64, opponent: u64, square: u32) -> u64 {
        let (r0, c0) = ((square / 8) as i32, (square % 8) as i32);
        let mut result = 0;
        for (dr, dc) in [
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut r, mut c, mut run) = (r0 + dr, c0 + dc, 0u64);
            while (0..8).contains(&r) && (0..8).contains(&c) {
                let bit = 1u64 << (r * 8 + c);
                if opponent & bit != 0 {
                    run |= bit;
                } else {
                    if player & bit != 0 {
                        result |= run;
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        result
    }

    #[test]
    fn kernel_agrees_with_a_coordinate_walk_on_random_boards() {
        let mut rng = crate::rng::Rng::new(11);
        for _ in 0..2000 {
            let a = rng.next_u64();
            let b = rng.next_u64() & !a;
            let (player, opponent) = (a & rng.next_u64(), b);
            let empty = !(player | opponent);
            let mut expected_moves = 0;
            for sq in 0..64 {
                let reference = flips_reference(player, opponent, sq);
                if empty & (1 << sq) != 0 {
                    assert_eq!(flips(player, opponent, sq), reference, "square {sq}");
                    if reference != 0 {
                        expected_moves |= 1 << sq;
                    }
                }
            }
            assert_eq!(moves(player, opponent), expected_moves);
        }
    }
}
