//! The move-generation and flip kernel: side-relative bitboards and shifts over the
//! eight directions.
//!
//! A [`Board`] holds `player` (the discs of the side to move) and `opponent`; the two
//! never overlap. Bit `i` is the square `row * 8 + column` (a1 = bit 0, h8 = bit 63).
//! Playing a move or passing swaps the two sets, so every function here is written
//! for "the side to move" and knows no colours.
//!
//! The hot recursions (perft, the endgame solver) are compiled once per instruction
//! set ([`crate::cpu`]) and take [`moves`] and [`flips`] from the submodule named
//! after their copy: [`portable`] (these), [`x86_64_v3`] (the same results from
//! AVX2 lanes) or [`x86_64_v4`] (AVX-512 on the same lanes). [`last_flip_count`] counts the flips of a game's last move from
//! table lookups (the x86-64-v3 copy gathers each line into its byte with `pext`).

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

/// For each position in a line of eight squares and each set of the mover's discs on
/// that line (bit `i`: square `i` of the line), the discs flipped by a move at that
/// position when every other square of the line is held by the opponent. A square
/// beyond the board's edge reads as an opponent disc with nothing after it, so it
/// never closes a run. A static, so that [`LAST_LINES`] can point into it.
static LINE_FLIPS: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut position = 0;
    while position < 8 {
        let mut mine = 0;
        while mine < 256 {
            let mut count = 0;
            // Towards higher positions, then towards lower ones.
            let mut i = position + 1;
            while i < 8 && mine >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                count += i - position - 1;
            }
            let mut i = position;
            while i > 0 && mine >> (i - 1) & 1 == 0 {
                i -= 1;
            }
            if i > 0 {
                count += position - i;
            }
            table[position][mine] = count as u8;
            mine += 1;
        }
        position += 1;
    }
    table
};

/// For each square, its diagonal (towards h8) and anti-diagonal (towards a8).
const DIAGONALS: [[u64; 2]; 64] = {
    let mut table = [[0u64; 2]; 64];
    let mut square = 0;
    while square < 64 {
        let (row, column) = ((square / 8) as i32, (square % 8) as i32);
        let mut other = 0usize;
        while other < 64 {
            let (r, c) = ((other / 8) as i32, (other % 8) as i32);
            if r - row == c - column {
                table[square][0] |= 1u64 << other;
            }
            if r - row == column - c {
                table[square][1] |= 1u64 << other;
            }
            other += 1;
        }
        square += 1;
    }
    table
};

const COLUMN_A: u64 = 0x0101_0101_0101_0101;

/// The number of discs the side holding `player` flips by playing on `square` when
/// every other square is filled (the last move of a game): each of the four lines
/// through the square is read as one byte (a diagonal folded onto a row by one
/// multiplication) and looked up in `LINE_FLIPS`. Equal to
/// `flips(player, !player & !(1 << square), square).count_ones()`, without the flips.
#[inline(always)]
#[must_use]
pub fn last_flip_count(player: u64, square: u32) -> u32 {
    let square = square as usize & 63;
    let (row, column) = (square / 8, square % 8);
    let row_line = (player >> (square & 56)) as u8 as usize;
    // Column `column` moved to column a, then row `i` folded to bit `i`.
    let column_line =
        (((player >> column) & COLUMN_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    // A diagonal has one square per column: square (r, c) folds to bit c.
    let [down, up] = DIAGONALS[square];
    let down_line = ((player & down).wrapping_mul(COLUMN_A) >> 56) as usize;
    let up_line = ((player & up).wrapping_mul(COLUMN_A) >> 56) as usize;
    u32::from(LINE_FLIPS[column][row_line])
        + u32::from(LINE_FLIPS[row][column_line])
        + u32::from(LINE_FLIPS[column][down_line])
        + u32::from(LINE_FLIPS[column][up_line])
}

/// For each square, the four lines through it as `pext` masks (its row, column,
/// diagonal and anti-diagonal) and, for each, the row of [`LINE_FLIPS`] for the
/// square's position on that line once the line's squares are gathered lowest
/// first (a reference, so that a look-up is one load and one indexed read). A line
/// shorter than eight squares gathers to zeros beyond its end: opponent discs that
/// close no run, as [`LINE_FLIPS`] reads squares beyond the edge.
#[cfg(target_arch = "x86_64")]
static LAST_LINES: [LastLines; 64] = {
    let mut table = [LastLines {
        masks: [0; 4],
        flips: [&LINE_FLIPS[0]; 4],
    }; 64];
    let mut square = 0;
    while square < 64 {
        let (row, column) = (square / 8, square % 8);
        let bit = 1u64 << square;
        let masks = [
            0xffu64 << (row * 8),
            COLUMN_A << column,
            DIAGONALS[square][0],
            DIAGONALS[square][1],
        ];
        let mut line = 0;
        while line < 4 {
            let position = (masks[line] & (bit - 1)).count_ones() as usize;
            table[square].flips[line] = &LINE_FLIPS[position];
            line += 1;
        }
        table[square].masks = masks;
        square += 1;
    }
    table
};

/// One square's entry of [`LAST_LINES`].
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct LastLines {
    masks: [u64; 4],
    flips: [&'static [u8; 256]; 4],
}

/// The kernels of the portable copy of a hot recursion (see [`crate::cpu`]): the
/// plain ones.
pub mod portable {
    pub use super::{flips, last_flip_count, moves};
}

/// The kernels of the x86-64-v3 copy of a hot recursion: [`moves`] and [`flips`]
/// with the four directions of a side in the four lanes of one AVX2 register.
/// They return exactly what the plain ones do; they may only be called from code
/// compiled with these features, after [`crate::cpu::Isa::detected`] found them.
#[cfg(target_arch = "x86_64")]
pub mod x86_64_v3 {
    use std::arch::x86_64::{
        __m256i, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_and_si256,
        _mm256_andnot_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi64, _mm256_extracti128_si256,
        _mm256_loadu_si256, _mm256_or_si256, _mm256_set_epi64x, _mm256_set1_epi64x,
        _mm256_setzero_si256, _mm256_sllv_epi64, _mm256_srlv_epi64, _mm256_sub_epi64, _pext_u64,
    };

    use super::{INNER, LAST_LINES, RAYS};

    /// The OR of the four lanes.
    #[inline]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    pub(super) fn or_lanes(v: __m256i) -> u64 {
        let half = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
    }

    /// [`super::moves`]: the four line directions (steps 1, 8, 7, 9) side by side.
    ///
    /// # Safety
    ///
    /// Outside code compiled with the same features, the CPU must have them.
    #[inline]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    #[must_use]
    pub fn moves(player: u64, opponent: u64) -> u64 {
        let p = _mm256_set1_epi64x(player as i64);
        // Lanes from the lowest: steps 1, 8, 7, 9 (one broadcast and one mask, not
        // four lanes put together).
        let inner = INNER as i64;
        let run = _mm256_and_si256(
            _mm256_set1_epi64x(opponent as i64),
            _mm256_set_epi64x(inner, inner, -1, inner),
        );
        let step = _mm256_set_epi64x(9, 7, 8, 1);
        let double = _mm256_set_epi64x(18, 14, 16, 2);
        let mut up = _mm256_and_si256(run, _mm256_sllv_epi64(p, step));
        let mut down = _mm256_and_si256(run, _mm256_srlv_epi64(p, step));
        up = _mm256_or_si256(up, _mm256_and_si256(run, _mm256_sllv_epi64(up, step)));
        down = _mm256_or_si256(down, _mm256_and_si256(run, _mm256_srlv_epi64(down, step)));
        let pair_up = _mm256_and_si256(run, _mm256_sllv_epi64(run, step));
        let pair_down = _mm256_srlv_epi64(pair_up, step);
        up = _mm256_or_si256(up, _mm256_and_si256(pair_up, _mm256_sllv_epi64(up, double)));
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(pair_down, _mm256_srlv_epi64(down, double)),
        );
        up = _mm256_or_si256(up, _mm256_and_si256(pair_up, _mm256_sllv_epi64(up, double)));
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(pair_down, _mm256_srlv_epi64(down, double)),
        );
        let reach = _mm256_or_si256(_mm256_sllv_epi64(up, step), _mm256_srlv_epi64(down, step));
        or_lanes(reach) & !(player | opponent)
    }

    /// The rays of `square` ([`RAYS`]): the four towards higher squares, the four
    /// towards lower ones.
    #[inline]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    pub(super) fn rays_of(square: u32) -> (__m256i, __m256i) {
        let rays = &RAYS[square as usize & 63];
        // SAFETY: each half of `rays` is four `u64`s, the 32 bytes an unaligned
        // load reads.
        unsafe {
            (
                _mm256_loadu_si256(rays.as_ptr().cast()),
                _mm256_loadu_si256(rays[4..].as_ptr().cast()),
            )
        }
    }

    /// [`super::flips`]: the four rays towards higher squares in one register, the
    /// four towards lower squares in another.
    ///
    /// # Safety
    ///
    /// As [`moves`].
    #[inline]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    #[must_use]
    pub fn flips(player: u64, opponent: u64, square: u32) -> u64 {
        let (rays_up, rays_down) = rays_of(square);
        let p = _mm256_set1_epi64x(player as i64);
        let o = _mm256_set1_epi64x(opponent as i64);
        let zero = _mm256_setzero_si256();
        // Upwards: the first square that is no opponent disc is the lowest bit.
        let stop = _mm256_andnot_si256(o, rays_up);
        let first = _mm256_and_si256(stop, _mm256_sub_epi64(zero, stop));
        let before = _mm256_and_si256(_mm256_sub_epi64(first, _mm256_set1_epi64x(1)), rays_up);
        let open = _mm256_cmpeq_epi64(_mm256_and_si256(first, p), zero);
        let flipped_up = _mm256_andnot_si256(open, before);
        // Downwards (steps 1, 7, 8, 9 down, as the rays): every stop smeared along
        // the ray away from the square; the first stop is the one no other stop
        // smears onto, and the squares before it are those left unsmeared.
        let stop = _mm256_andnot_si256(o, rays_down);
        let step = _mm256_set_epi64x(9, 8, 7, 1);
        let mut smear = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, step));
        smear = _mm256_or_si256(
            smear,
            _mm256_srlv_epi64(smear, _mm256_set_epi64x(18, 16, 14, 2)),
        );
        smear = _mm256_or_si256(
            smear,
            _mm256_srlv_epi64(smear, _mm256_set_epi64x(36, 32, 28, 4)),
        );
        let first = _mm256_andnot_si256(_mm256_srlv_epi64(smear, step), stop);
        let open = _mm256_cmpeq_epi64(_mm256_and_si256(first, p), zero);
        let flipped_down = _mm256_andnot_si256(open, _mm256_andnot_si256(smear, rays_down));
        or_lanes(_mm256_or_si256(flipped_up, flipped_down))
    }
    /// [`super::last_flip_count`]: each of the four lines through `square`
    /// gathered into one byte by `pext` (no shifts or multiplications to fold it),
    /// then looked up in `LINE_FLIPS` at the square's position on that line;
    /// where `pext` is microcoded ([`crate::cpu::fast_bit_gather`]), the portable
    /// count.
    ///
    /// # Safety
    ///
    /// As [`moves`].
    #[inline]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    #[must_use]
    pub fn last_flip_count(player: u64, square: u32) -> u32 {
        if !crate::cpu::fast_bit_gather() {
            return super::last_flip_count(player, square);
        }
        gathered_flip_count(player, square)
    }

    /// [`last_flip_count`] with `pext` whatever the processor.
    ///
    /// # Safety
    ///
    /// As [`moves`].
    #[inline]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    #[must_use]
    pub(super) fn gathered_flip_count(player: u64, square: u32) -> u32 {
        let lines = &LAST_LINES[square as usize & 63];
        // No closure per line: it would not be inlined with these features.
        let row = _pext_u64(player, lines.masks[0]) as u8 as usize;
        let column = _pext_u64(player, lines.masks[1]) as u8 as usize;
        let down = _pext_u64(player, lines.masks[2]) as u8 as usize;
        let up = _pext_u64(player, lines.masks[3]) as u8 as usize;
        u32::from(lines.flips[0][row])
            + u32::from(lines.flips[1][column])
            + u32::from(lines.flips[2][down])
            + u32::from(lines.flips[3][up])
    }
}

/// The kernels of the x86-64-v4 copy of a hot recursion: [`flips`](x86_64_v4::flips)
/// with AVX-512 on 256-bit registers (the first stop of each ray towards lower
/// squares from a per-lane leading-zero count, the closed rays as a mask), the
/// x86-64-v3 [`moves`](x86_64_v3::moves) (compiled into this copy, where the
/// compiler merges its logic into three-input operations), and the `pext` flip
/// count without the check for a microcoded `pext` (no processor with AVX-512 has
/// one). Same results and the same safety conditions as [`x86_64_v3`].
#[cfg(target_arch = "x86_64")]
pub mod x86_64_v4 {
    use std::arch::x86_64::{
        _mm256_add_epi64, _mm256_and_si256, _mm256_andnot_si256, _mm256_lzcnt_epi64,
        _mm256_maskz_and_epi64, _mm256_or_si256, _mm256_set1_epi64x, _mm256_setzero_si256,
        _mm256_srlv_epi64, _mm256_sub_epi64, _mm256_test_epi64_mask,
    };

    pub use super::x86_64_v3::moves;
    use super::x86_64_v3::{gathered_flip_count, or_lanes, rays_of};

    /// [`super::flips`]: the four rays towards higher squares in one register, the
    /// four towards lower squares in another.
    ///
    /// # Safety
    ///
    /// Outside code compiled with the same features, the CPU must have them.
    #[inline]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2,avx512f,avx512vl,avx512cd")]
    #[must_use]
    pub fn flips(player: u64, opponent: u64, square: u32) -> u64 {
        let (rays_up, rays_down) = rays_of(square);
        let p = _mm256_set1_epi64x(player as i64);
        let o = _mm256_set1_epi64x(opponent as i64);
        let zero = _mm256_setzero_si256();
        // Upwards: the first square that is no opponent disc is the lowest bit, the
        // squares before it are below it.
        let stop = _mm256_andnot_si256(o, rays_up);
        let first = _mm256_and_si256(stop, _mm256_sub_epi64(zero, stop));
        let closed = _mm256_test_epi64_mask(first, p);
        let before = _mm256_sub_epi64(first, _mm256_set1_epi64x(1));
        let flipped_up = _mm256_maskz_and_epi64(closed, before, rays_up);
        // Downwards: the first stop is the highest bit (none when the count is 64,
        // which shifts the top bit out), the squares before it are above it.
        let stop = _mm256_andnot_si256(o, rays_down);
        let top = _mm256_set1_epi64x(i64::MIN);
        let first = _mm256_srlv_epi64(top, _mm256_lzcnt_epi64(stop));
        let closed = _mm256_test_epi64_mask(first, p);
        let above = _mm256_sub_epi64(zero, _mm256_add_epi64(first, first));
        let flipped_down = _mm256_maskz_and_epi64(closed, above, rays_down);
        or_lanes(_mm256_or_si256(flipped_up, flipped_down))
    }

    /// [`super::last_flip_count`] with `pext` (see [`super::x86_64_v3`]).
    ///
    /// # Safety
    ///
    /// As [`flips`].
    #[inline]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2,avx512f,avx512vl,avx512cd")]
    #[must_use]
    pub fn last_flip_count(player: u64, square: u32) -> u32 {
        gathered_flip_count(player, square)
    }
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
    fn last_flip_counts_agree_with_the_flips_on_full_boards() {
        let mut rng = crate::rng::Rng::new(12);
        for round in 0..20_000 {
            let square = (round % 64) as u32;
            let bit = 1u64 << square;
            // Sparse, dense and even boards for the mover.
            let player = match round % 3 {
                0 => rng.next_u64(),
                1 => rng.next_u64() & rng.next_u64(),
                _ => rng.next_u64() | rng.next_u64(),
            } & !bit;
            for mover in [player, !player & !bit] {
                let other = !mover & !bit;
                assert_eq!(
                    last_flip_count(mover, square),
                    flips(mover, other, square).count_ones(),
                    "{mover:#018x} on {square}"
                );
            }
        }
    }

    /// The kernels of a compiled copy (`last`, `moves_of`, `flips_of`) against the
    /// plain ones on random boards, sparse and dense.
    #[cfg(target_arch = "x86_64")]
    fn kernels_agree(
        seed: u64,
        last: impl Fn(u64, u32) -> u32,
        moves_of: impl Fn(u64, u64) -> u64,
        flips_of: impl Fn(u64, u64, u32) -> u64,
    ) {
        let mut rng = crate::rng::Rng::new(seed);
        for round in 0..20_000 {
            let a = rng.next_u64();
            let b = if round % 2 == 0 {
                rng.next_u64() & !a
            } else {
                !a & (rng.next_u64() | rng.next_u64())
            };
            let (player, opponent) = if round % 4 < 2 { (a, b) } else { (b, a) };
            // The last move's flip count, on the full board of `player`'s discs.
            let square = (round % 64) as u32;
            let mover = player & !(1u64 << square);
            assert_eq!(
                last(mover, square),
                last_flip_count(mover, square),
                "{mover:#x} on {square}"
            );
            let fast = moves_of(player, opponent);
            assert_eq!(fast, moves(player, opponent), "{player:#x} {opponent:#x}");
            for square in 0..64 {
                if (player | opponent) >> square & 1 == 0 {
                    let fast = flips_of(player, opponent, square);
                    assert_eq!(fast, flips(player, opponent, square), "square {square}");
                }
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_x86_64_v3_kernels_agree_with_the_plain_ones() {
        if crate::cpu::Isa::detected() == crate::cpu::Isa::Portable {
            eprintln!("skipped: this CPU (or TABULA_ISA) has no x86-64-v3 copy");
            return;
        }
        // SAFETY (each call): the features of the copy were detected above.
        kernels_agree(
            13,
            |mover, square| unsafe { x86_64_v3::last_flip_count(mover, square) },
            |player, opponent| unsafe { x86_64_v3::moves(player, opponent) },
            |player, opponent, square| unsafe { x86_64_v3::flips(player, opponent, square) },
        );
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_x86_64_v4_kernels_agree_with_the_plain_ones() {
        if !crate::cpu::Isa::available().contains(&crate::cpu::Isa::X86_64V4) {
            eprintln!("skipped: this CPU (or TABULA_ISA) has no x86-64-v4 copy");
            return;
        }
        // SAFETY (each call): the features of the copy were detected above.
        kernels_agree(
            14,
            |mover, square| unsafe { x86_64_v4::last_flip_count(mover, square) },
            |player, opponent| unsafe { x86_64_v4::moves(player, opponent) },
            |player, opponent, square| unsafe { x86_64_v4::flips(player, opponent, square) },
        );
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
