//! The move-generation and flip kernel: side-relative bitboards and shifts over the
//! eight directions.
//!
//! A [`Board`] holds `player` (the discs of the side to move) and `opponent`; the two
//! never overlap. Bit `i` is the square `row * 8 + column` (a1 = bit 0, h8 = bit 63).
//! Playing a move or passing swaps the two sets, so every function here is written
//! for "the side to move" and knows no colours.

/// Opponent discs that may lie inside a horizontal or diagonal run: not on column a
/// or h, so a shift can never carry a run across the board's edge.
const INNER: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// The moves along one line direction pair (`+step` and `-step`): squares reached by a
/// run of `run_mask` discs that starts next to a `player` disc. The run is grown
/// by doubling (1, 2, 4 squares at a time) so six steps cost four shifts a side.
#[inline(always)]
fn moves_along(player: u64, run_mask: u64, step: u32) -> u64 {
    let mut up = run_mask & (player << step);
    let mut down = run_mask & (player >> step);
    up |= run_mask & (up << step);
    down |= run_mask & (down >> step);
    let pair_up = run_mask & (run_mask << step);
    let pair_down = pair_up >> step;
    up |= pair_up & (up << (2 * step));
    down |= pair_down & (down >> (2 * step));
    up |= pair_up & (up << (2 * step));
    down |= pair_down & (down >> (2 * step));
    (up << step) | (down >> step)
}

/// The squares that are legal moves for the side holding `player` (O2): empty squares
/// from which, in some direction, a run of one or more `opponent` discs ends on a
/// `player` disc. Always inlined, so that each compiled copy of a hot recursion
/// (see [`crate::cpu`]) gets it with its own instruction set.
#[inline(always)]
#[must_use]
pub fn moves(player: u64, opponent: u64) -> u64 {
    let inner = opponent & INNER;
    let reach = moves_along(player, inner, 1)
        | moves_along(player, opponent, 8)
        | moves_along(player, inner, 7)
        | moves_along(player, inner, 9);
    reach & !(player | opponent)
}

/// For each square, the eight rays leaving it (the squares in one direction up to the
/// edge, the square itself excluded): first the four that go to higher indices
/// (east, south-west, south, south-east), then the four that go to lower ones.
const RAYS: [[u64; 8]; 64] = {
    let steps: [(i32, i32); 8] = [
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, -1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ];
    let mut table = [[0u64; 8]; 64];
    let mut square = 0;
    while square < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = steps[d];
            let (mut r, mut c) = ((square / 8) as i32 + dr, (square % 8) as i32 + dc);
            let mut ray = 0u64;
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                ray |= 1u64 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            table[square][d] = ray;
            d += 1;
        }
        square += 1;
    }
    table
};

/// The discs flipped along a ray that goes to higher indices: the opponent discs
/// before the first square that is not an opponent disc, if that square is a player
/// disc.
#[inline(always)]
fn flips_up(ray: u64, player: u64, opponent: u64) -> u64 {
    let stop = ray & !opponent;
    let first = stop & stop.wrapping_neg();
    let closed = 0u64.wrapping_sub(u64::from(first & player != 0));
    first.wrapping_sub(1) & ray & closed
}

/// The same along a ray that goes to lower indices: the first stop is the highest bit.
#[inline(always)]
fn flips_down(ray: u64, player: u64, opponent: u64) -> u64 {
    let stop = ray & !opponent;
    // The highest bit of `stop` (zero when `stop` is empty: `| 1` keeps the shift
    // in range and `& stop` clears the stand-in).
    let first = (1u64 << (63 - (stop | 1).leading_zeros())) & stop;
    let closed = 0u64.wrapping_sub(u64::from(first & player != 0));
    ray & !(first << 1).wrapping_sub(1) & closed
}

/// The opponent discs that flip when the side holding `player` plays on `square`
/// (O2): in every direction, the contiguous opponent discs that end on a player disc.
/// Only discs bracketed by the new disc flip: no chain reaction. Zero means `square`
/// is no legal move (or is occupied: the caller checks emptiness). Always inlined,
/// like [`moves`].
#[inline(always)]
#[must_use]
pub fn flips(player: u64, opponent: u64, square: u32) -> u64 {
    let rays = &RAYS[square as usize & 63];
    flips_up(rays[0], player, opponent)
        | flips_up(rays[1], player, opponent)
        | flips_up(rays[2], player, opponent)
        | flips_up(rays[3], player, opponent)
        | flips_down(rays[4], player, opponent)
        | flips_down(rays[5], player, opponent)
        | flips_down(rays[6], player, opponent)
        | flips_down(rays[7], player, opponent)
}

/// A side-relative board: the discs of the side to move and of its opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub player: u64,
    pub opponent: u64,
}

impl Board {
    /// The legal moves of the side to move, as a set of squares.
    #[inline(always)]
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
