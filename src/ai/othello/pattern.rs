//! The pattern evaluation: a sum of learned weights, one per configuration of each
//! board pattern, per game phase.
//!
//! The patterns are the classic Othello set: the second, third and fourth rows and
//! columns (8 squares), the diagonals of 4 to 8 squares, each edge with its two
//! X-squares (10), each 3×3 corner (9) and each 2×5 corner block (10, both ways),
//! 46 instances in all; plus the mobility of each side, the parity of the empties and
//! a bias. Every instance is read from one of the eight symmetric images of the board
//! at a fixed place, so the instances of one pattern share one table, and tables of
//! patterns that are their own mirror image are folded (a configuration and its
//! mirror share a weight). The evaluation is therefore the same for all eight
//! symmetries of a position (a test checks it with random weights).
//!
//! A configuration is a base-3 number over the pattern's squares in a fixed order
//! (0 empty, 1 side to move, 2 opponent). [`Features::of`] lists the weight index of
//! every feature of a position; [`Weights::evaluate`] sums them for its phase.
//!
//! Weights are stored in hundredths of a disc ([`super::eval::DISC`]) as `i16`; the
//! file format ([`Weights::to_bytes`]) is a small header and run-length-coded zeros.

use std::sync::OnceLock;

use crate::games::othello::Board;

/// Game phases, by the number of empties: phase `p` holds 5p+1 ..= 5p+5 empties.
pub const PHASES: usize = 12;

/// The phase of a position with `empties` empty squares.
#[inline]
#[must_use]
pub fn phase(empties: u32) -> usize {
    ((empties.max(1) - 1) as usize / 5).min(PHASES - 1)
}

/// Mobility tables hold 0 ..= `MOBILITY_MAX` moves (more are counted as the maximum).
const MOBILITY_MAX: u32 = 31;

/// One kind of pattern: its number of squares and how its squares map under the
/// symmetry that keeps it in place (None: no fold).
struct Kind {
    squares: u32,
    /// `fold[i]` is the position that square `i` goes to under the mirror.
    fold: Option<&'static [usize]>,
    /// How many instances one position has.
    instances: usize,
}

const REVERSE_8: [usize; 8] = [7, 6, 5, 4, 3, 2, 1, 0];
const REVERSE_7: [usize; 7] = [6, 5, 4, 3, 2, 1, 0];
const REVERSE_6: [usize; 6] = [5, 4, 3, 2, 1, 0];
const REVERSE_5: [usize; 5] = [4, 3, 2, 1, 0];
const REVERSE_4: [usize; 4] = [3, 2, 1, 0];
/// The edge a1..h1 with b2 and g2: mirrored left to right.
const EDGE_FOLD: [usize; 10] = [7, 6, 5, 4, 3, 2, 1, 0, 9, 8];
/// The 3×3 corner a1 b1 c1 / a2 b2 c2 / a3 b3 c3: mirrored on its diagonal.
const CORNER_FOLD: [usize; 9] = [0, 3, 6, 1, 4, 7, 2, 5, 8];

/// The pattern kinds, in the order their indices appear in [`Features`].
const KINDS: [Kind; 11] = [
    // Rows/columns 2, 3, 4 (and 7, 6, 5).
    Kind {
        squares: 8,
        fold: Some(&REVERSE_8),
        instances: 4,
    },
    Kind {
        squares: 8,
        fold: Some(&REVERSE_8),
        instances: 4,
    },
    Kind {
        squares: 8,
        fold: Some(&REVERSE_8),
        instances: 4,
    },
    // Diagonals of 8, 7, 6, 5, 4 squares.
    Kind {
        squares: 8,
        fold: Some(&REVERSE_8),
        instances: 2,
    },
    Kind {
        squares: 7,
        fold: Some(&REVERSE_7),
        instances: 4,
    },
    Kind {
        squares: 6,
        fold: Some(&REVERSE_6),
        instances: 4,
    },
    Kind {
        squares: 5,
        fold: Some(&REVERSE_5),
        instances: 4,
    },
    Kind {
        squares: 4,
        fold: Some(&REVERSE_4),
        instances: 4,
    },
    // Edge + 2X, 3×3 corner, 2×5 corner.
    Kind {
        squares: 10,
        fold: Some(&EDGE_FOLD),
        instances: 4,
    },
    Kind {
        squares: 9,
        fold: Some(&CORNER_FOLD),
        instances: 4,
    },
    Kind {
        squares: 10,
        fold: None,
        instances: 8,
    },
];

/// Pattern instances per position.
pub const INSTANCES: usize = 46;
const _: () = {
    let mut sum = 0;
    let mut i = 0;
    while i < KINDS.len() {
        sum += KINDS[i].instances;
        i += 1;
    }
    assert!(sum == INSTANCES);
};

/// Features per position: the instances, two mobilities, two potential mobilities,
/// parity and the bias.
pub const FEATURES: usize = INSTANCES + 6;

/// Potential mobility tables hold 0 ..= `POTENTIAL_MAX` squares.
const POTENTIAL_MAX: u32 = 39;

const fn pow3(n: u32) -> usize {
    let mut p = 1;
    let mut i = 0;
    while i < n {
        p *= 3;
        i += 1;
    }
    p
}

/// The base-3 value of each 10-bit pattern of one side (bit i → 3^i).
static TERNARY: [u16; 1024] = {
    let mut table = [0u16; 1024];
    let mut bits = 0;
    while bits < 1024 {
        let mut value = 0usize;
        let mut i = 0;
        while i < 10 {
            if bits & (1 << i) != 0 {
                value += pow3(i);
            }
            i += 1;
        }
        table[bits] = value as u16;
        bits += 1;
    }
    table
};

/// For each kind, the weight index (within one phase) of every raw configuration;
/// after the kinds, the offsets of the scalar features.
struct Layout {
    maps: Vec<Vec<u32>>,
    mobility_me: u32,
    mobility_them: u32,
    potential_me: u32,
    potential_them: u32,
    parity: u32,
    bias: u32,
    /// Weights per phase.
    size: usize,
}

impl Layout {
    /// Where the tables of the values of [`scalars`] start, in its order.
    fn scalar_starts(&self) -> [u32; 5] {
        [
            self.mobility_me,
            self.mobility_them,
            self.potential_me,
            self.potential_them,
            self.parity,
        ]
    }
}

fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let mut next = 0u32;
        let mut maps = Vec::with_capacity(KINDS.len());
        for kind in &KINDS {
            let count = pow3(kind.squares);
            let mut map = vec![u32::MAX; count];
            for raw in 0..count {
                if map[raw] != u32::MAX {
                    continue;
                }
                map[raw] = next;
                if let Some(fold) = kind.fold {
                    map[mirror(raw, fold)] = next;
                }
                next += 1;
            }
            maps.push(map);
        }
        let mobility_me = next;
        let mobility_them = mobility_me + MOBILITY_MAX + 1;
        let potential_me = mobility_them + MOBILITY_MAX + 1;
        let potential_them = potential_me + POTENTIAL_MAX + 1;
        let parity = potential_them + POTENTIAL_MAX + 1;
        let bias = parity + 2;
        Layout {
            maps,
            mobility_me,
            mobility_them,
            potential_me,
            potential_them,
            parity,
            bias,
            size: bias as usize + 1,
        }
    })
}

/// The configuration `raw` with its squares moved by `fold`.
fn mirror(raw: usize, fold: &[usize]) -> usize {
    let mut digits = [0usize; 10];
    let mut rest = raw;
    for digit in digits.iter_mut().take(fold.len()) {
        *digit = rest % 3;
        rest /= 3;
    }
    let mut out = 0;
    for (i, &to) in fold.iter().enumerate() {
        out += digits[i] * pow3(to as u32);
    }
    out
}

/// Weights per phase.
#[must_use]
pub fn weights_per_phase() -> usize {
    layout().size
}

// ---- The eight images of a board ----

#[inline(always)]
fn flip_horizontal(x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let x = ((x >> 1) & K1) | ((x & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

#[inline(always)]
fn flip_vertical(x: u64) -> u64 {
    x.swap_bytes()
}

/// The mirror on the a1–h8 diagonal: square (column c, row r) goes to (r, c).
#[inline(always)]
fn transpose(x: u64) -> u64 {
    let t = 0x00aa_00aa_00aa_00aa & (x ^ (x >> 7));
    let x = x ^ t ^ (t << 7);
    let t = 0x0000_cccc_0000_cccc & (x ^ (x >> 14));
    let x = x ^ t ^ (t << 14);
    let t = 0x0000_0000_f0f0_f0f0 & (x ^ (x >> 28));
    x ^ t ^ (t << 28)
}

/// The eight symmetric images of one bitboard: identity, mirrored left-right,
/// upside down, both; then the same four of the transposed board.
#[inline(always)]
fn images(x: u64) -> [u64; 8] {
    let h = flip_horizontal(x);
    let t = transpose(x);
    let th = flip_horizontal(t);
    [
        x,
        h,
        flip_vertical(x),
        flip_vertical(h),
        t,
        th,
        flip_vertical(t),
        flip_vertical(th),
    ]
}

/// The weight indices of every feature of one position (within its phase).
pub struct Features {
    pub phase: usize,
    pub index: [u32; FEATURES],
}

/// Bits of a diagonal gathered into one byte, ordered by column: every row holds at
/// most one square of a diagonal, so the multiplication adds without carries.
#[inline(always)]
fn diagonal(x: u64, mask: u64, first_column: u32) -> usize {
    (((x & mask).wrapping_mul(0x0101_0101_0101_0101) >> 56) >> first_column) as usize
}

/// The squares (c, r) with c − r = `d` (`anti` false) or c + r = `d` (`anti` true).
const fn diagonal_mask(d: i32, anti: bool) -> u64 {
    let mut mask = 0u64;
    let mut r = 0;
    while r < 8 {
        let c = if anti { d - r } else { r + d };
        if c >= 0 && c < 8 {
            mask |= 1 << (r * 8 + c);
        }
        r += 1;
    }
    mask
}

/// Each diagonal instance: mask and first column, grouped by length 8, 7, 6, 5, 4
/// (the two long diagonals, then four of each shorter length).
const DIAGONALS: [(u64, u32); 18] = {
    let mut list = [(0u64, 0u32); 18];
    list[0] = (diagonal_mask(0, false), 0);
    list[1] = (diagonal_mask(7, true), 0);
    let mut offset = 1;
    while offset <= 4 {
        let at = 2 + 4 * (offset as usize - 1);
        list[at] = (diagonal_mask(offset, false), offset as u32);
        list[at + 1] = (diagonal_mask(-offset, false), 0);
        list[at + 2] = (diagonal_mask(7 - offset, true), 0);
        list[at + 3] = (diagonal_mask(7 + offset, true), offset as u32);
        offset += 1;
    }
    list
};

#[inline(always)]
fn edge(x: u64) -> usize {
    ((x & 0xff) | (((x >> 9) & 1) << 8) | (((x >> 14) & 1) << 9)) as usize
}

#[inline(always)]
fn corner(x: u64) -> usize {
    ((x & 7) | ((x >> 5) & 0x38) | ((x >> 10) & 0x1c0)) as usize
}

#[inline(always)]
fn block(x: u64) -> usize {
    ((x & 0x1f) | ((x >> 3) & 0x3e0)) as usize
}

/// Calls `put(kind, my bits, their bits)` for the 18 diagonals of [`DIAGONALS`],
/// in its order: one call per diagonal with a constant index, so that each inlines
/// with its mask and column as constants (a loop over the table kept them in
/// memory).
#[inline(always)]
fn diagonals(me: u64, them: u64, put: &mut impl FnMut(usize, usize, usize)) {
    let mut diagonal_at = |i: usize| {
        let (mask, first) = DIAGONALS[i];
        let kind = if i < 2 { 3 } else { 4 + (i - 2) / 4 };
        put(kind, diagonal(me, mask, first), diagonal(them, mask, first));
    };
    diagonal_at(0);
    diagonal_at(1);
    diagonal_at(2);
    diagonal_at(3);
    diagonal_at(4);
    diagonal_at(5);
    diagonal_at(6);
    diagonal_at(7);
    diagonal_at(8);
    diagonal_at(9);
    diagonal_at(10);
    diagonal_at(11);
    diagonal_at(12);
    diagonal_at(13);
    diagonal_at(14);
    diagonal_at(15);
    diagonal_at(16);
    diagonal_at(17);
}

/// Calls `put(kind, configuration)` for each of the 46 pattern instances of
/// `board`, in the order of [`Features::index`].
#[inline(always)]
fn visit(board: &Board, mut put: impl FnMut(usize, usize)) {
    let me = images(board.player);
    let them = images(board.opponent);
    let mut put = |kind: usize, my: usize, their: usize| {
        put(kind, TERNARY[my] as usize + 2 * TERNARY[their] as usize);
    };
    // Rows 2..4 and 7..5 of the board and of its transpose.
    for (kind, row) in [(0usize, 1u32), (1, 2), (2, 3)] {
        for image in [0, 4] {
            for r in [row, 7 - row] {
                put(
                    kind,
                    ((me[image] >> (8 * r)) & 0xff) as usize,
                    ((them[image] >> (8 * r)) & 0xff) as usize,
                );
            }
        }
    }
    diagonals(me[0], them[0], &mut put);
    for image in [0, 2, 4, 6] {
        put(8, edge(me[image]), edge(them[image]));
    }
    for image in [0, 1, 2, 3] {
        put(9, corner(me[image]), corner(them[image]));
    }
    for image in 0..8 {
        put(10, block(me[image]), block(them[image]));
    }
}

/// The same `(kind, configuration)` pairs as [`visit`], in another order: image by
/// image, each image of the two sides made when its patterns are read and dropped
/// after, so that the evaluation keeps two bitboards live instead of sixteen (with
/// all sixteen, most of its instructions were register spills). For sums only:
/// [`Features::of`] needs [`visit`]'s order.
#[inline(always)]
fn visit_by_image(board: &Board, mut put: impl FnMut(usize, usize)) {
    let mut put = |kind: usize, my: usize, their: usize| {
        put(kind, TERNARY[my] as usize + 2 * TERNARY[their] as usize);
    };
    let mut rows = |me: u64, them: u64| {
        for (kind, row) in [(0usize, 1u32), (1, 2), (2, 3)] {
            for r in [row, 7 - row] {
                put(
                    kind,
                    ((me >> (8 * r)) & 0xff) as usize,
                    ((them >> (8 * r)) & 0xff) as usize,
                );
            }
        }
    };
    let (me, them) = (board.player, board.opponent);
    let (me_t, them_t) = (transpose(me), transpose(them));
    rows(me, them);
    rows(me_t, them_t);
    diagonals(me, them, &mut put);
    // Images 0 to 3 (identity, mirrored, upside down, both), then 4 to 7 (the
    // same of the transposed board); as in `visit`, the edges read the images 0,
    // 2, 4 and 6, the corners 0 to 3 and the blocks all eight.
    for (x, y, transposed) in [(me, them, false), (me_t, them_t, true)] {
        let (xv, yv) = (flip_vertical(x), flip_vertical(y));
        put(8, edge(x), edge(y));
        put(8, edge(xv), edge(yv));
        put(10, block(x), block(y));
        put(10, block(xv), block(yv));
        if !transposed {
            put(9, corner(x), corner(y));
            put(9, corner(xv), corner(yv));
        }
        let (xh, yh) = (flip_horizontal(x), flip_horizontal(y));
        let (xvh, yvh) = (flip_vertical(xh), flip_vertical(yh));
        put(10, block(xh), block(yh));
        put(10, block(xvh), block(yvh));
        if !transposed {
            put(9, corner(xh), corner(yh));
            put(9, corner(xvh), corner(yvh));
        }
    }
}

/// The scalar features of `board`: the offsets within their tables of the
/// mobilities, the potential mobilities (empties next to the other side's discs:
/// room to move later) and the parity, in the order of [`Features::index`].
#[inline(always)]
fn scalars(board: &Board) -> [u32; 5] {
    scalars_with(board, board.moves(), board.passed().moves())
}

/// [`scalars`] with the legal moves of the side to move (`mine`) and of its
/// opponent (`theirs`) given.
#[inline(always)]
fn scalars_with(board: &Board, mine: u64, theirs: u64) -> [u32; 5] {
    let empty = board.empty();
    [
        mine.count_ones().min(MOBILITY_MAX),
        theirs.count_ones().min(MOBILITY_MAX),
        crate::games::othello::properties::frontier(board.opponent, empty)
            .count_ones()
            .min(POTENTIAL_MAX),
        crate::games::othello::properties::frontier(board.player, empty)
            .count_ones()
            .min(POTENTIAL_MAX),
        empty.count_ones() & 1,
    ]
}

impl Features {
    /// The features of `board` (the side to move's point of view).
    #[must_use]
    pub fn of(board: &Board) -> Features {
        let layout = layout();
        let mut index = [0u32; FEATURES];
        let mut slot = 0;
        visit(board, |kind, raw| {
            index[slot] = layout.maps[kind][raw];
            slot += 1;
        });
        debug_assert_eq!(slot, INSTANCES);
        let starts = layout.scalar_starts();
        for (i, (start, value)) in starts.into_iter().zip(scalars(board)).enumerate() {
            index[INSTANCES + i] = start + value;
        }
        index[INSTANCES + 5] = layout.bias;
        Features {
            phase: phase(board.empty().count_ones()),
            index,
        }
    }
}

/// The weights unfolded for speed: per phase, every pattern kind's table indexed by
/// the raw configuration (no folding map to go through), then the scalar tables as
/// in [`Weights`]. Gives exactly [`Weights::evaluate`].
pub struct Evaluator {
    /// [`PHASES`] tables of [`PHASE_STRIDE`] entries, each padded with zeros past
    /// its weights.
    table: Vec<[i16; PHASE_STRIDE]>,
    /// Where the tables of the values of [`scalars`] start within a phase, in its
    /// order, then the bias.
    scalar_starts: [usize; 6],
}

/// Where each kind's unfolded table starts within a phase, and the phase's size.
const UNFOLDED: ([usize; 11], usize) = {
    let mut starts = [0usize; 11];
    let mut at = 0;
    let mut k = 0;
    while k < KINDS.len() {
        starts[k] = at;
        at += pow3(KINDS[k].squares);
        k += 1;
    }
    (starts, at)
};

/// The entries of one phase of an [`Evaluator`]: a power of two above its weights,
/// so that an index masked by `PHASE_STRIDE - 1` needs no bounds check.
const PHASE_STRIDE: usize = 1 << 18;

impl Evaluator {
    /// The unfolded form of `weights`.
    #[must_use]
    pub fn new(weights: &Weights) -> Evaluator {
        let layout = layout();
        let folded = weights_per_phase();
        let scalars = folded - layout.mobility_me as usize;
        let size = UNFOLDED.1 + scalars;
        assert!(size <= PHASE_STRIDE, "the unfolded weights fit a phase");
        let mut table = vec![[0i16; PHASE_STRIDE]; PHASES];
        for (p, out) in table.iter_mut().enumerate() {
            let phase_weights = &weights.table[p * folded..(p + 1) * folded];
            for (k, map) in layout.maps.iter().enumerate() {
                for (raw, &id) in map.iter().enumerate() {
                    out[UNFOLDED.0[k] + raw] = phase_weights[id as usize];
                }
            }
            out[UNFOLDED.1..size].copy_from_slice(&phase_weights[layout.mobility_me as usize..]);
        }
        let first = layout.mobility_me as usize;
        let starts = layout
            .scalar_starts()
            .map(|start| UNFOLDED.1 + start as usize - first);
        let mut scalar_starts = [0; 6];
        scalar_starts[..5].copy_from_slice(&starts);
        scalar_starts[5] = UNFOLDED.1 + layout.bias as usize - first;
        Evaluator {
            table,
            scalar_starts,
        }
    }

    /// The evaluation of `board` for the side to move, in hundredths of a disc
    /// (always inlined: the solver's per-instruction-set copies compile their own).
    #[inline(always)]
    #[must_use]
    pub fn evaluate(&self, board: &Board) -> i32 {
        self.evaluate_with(board, board.moves(), board.passed().moves())
    }

    /// [`Evaluator::evaluate`] with the legal moves of the side to move (`mine`)
    /// and of its opponent (`theirs`) given: a caller that has them, or that
    /// computes them faster (the solver's vector copies), passes them in.
    #[inline(always)]
    #[must_use]
    pub fn evaluate_with(&self, board: &Board, mine: u64, theirs: u64) -> i32 {
        // `phase` is below PHASES; the masks keep every index inside the phase
        // (a valid one is inside it already), so no access is checked.
        let table = &self.table[phase(board.empty().count_ones()) % PHASES];
        let at = |index: usize| i32::from(table[index & (PHASE_STRIDE - 1)]);
        let mut sum = 0i32;
        visit_by_image(board, |kind, raw| sum += at(UNFOLDED.0[kind] + raw));
        for (start, value) in self
            .scalar_starts
            .into_iter()
            .zip(scalars_with(board, mine, theirs))
        {
            sum += at(start + value as usize);
        }
        sum + at(self.scalar_starts[5])
    }
}

/// Learned weights: `PHASES` tables of [`weights_per_phase`] entries, in hundredths
/// of a disc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    table: Vec<i16>,
}

/// Why a weights file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeightsError {
    /// Not a weights file of this layout (magic, phases or size differ).
    Layout,
    /// The data ends early or runs past the table.
    Truncated,
}

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WeightsError::Layout => f.write_str("not a weights file of this pattern layout"),
            WeightsError::Truncated => f.write_str("weights file truncated or overlong"),
        }
    }
}

impl std::error::Error for WeightsError {}

const MAGIC: &[u8; 8] = b"TABPAT01";

impl Weights {
    /// All zero.
    #[must_use]
    pub fn zero() -> Weights {
        Weights {
            table: vec![0; PHASES * weights_per_phase()],
        }
    }

    /// From one `f32` per weight (discs), rounded to hundredths and clamped.
    #[must_use]
    pub fn from_discs(values: &[f32]) -> Weights {
        let mut weights = Weights::zero();
        for (w, v) in weights.table.iter_mut().zip(values) {
            *w = (v * 100.0).round().clamp(-32000.0, 32000.0) as i16;
        }
        weights
    }

    /// The weight at `index` of `phase`.
    #[must_use]
    pub fn get(&self, phase: usize, index: u32) -> i16 {
        self.table[phase * weights_per_phase() + index as usize]
    }

    /// The evaluation of `features`, in hundredths of a disc.
    #[inline]
    #[must_use]
    pub fn score(&self, features: &Features) -> i32 {
        let base = features.phase * weights_per_phase();
        let table = &self.table[base..base + weights_per_phase()];
        features
            .index
            .iter()
            .map(|&i| i32::from(table[i as usize]))
            .sum()
    }

    /// The evaluation of `board` for the side to move, in hundredths of a disc.
    #[inline]
    #[must_use]
    pub fn evaluate(&self, board: &Board) -> i32 {
        self.score(&Features::of(board))
    }

    /// The file form: magic, phases and weights per phase (u32 LE), then the weights
    /// as i16 LE, where a 0 is followed by a u16 LE count of further zeros.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(PHASES as u32).to_le_bytes());
        out.extend_from_slice(&(weights_per_phase() as u32).to_le_bytes());
        let mut i = 0;
        while i < self.table.len() {
            let w = self.table[i];
            out.extend_from_slice(&w.to_le_bytes());
            i += 1;
            if w == 0 {
                let mut run = 0u16;
                while i < self.table.len() && self.table[i] == 0 && run < u16::MAX {
                    run += 1;
                    i += 1;
                }
                out.extend_from_slice(&run.to_le_bytes());
            }
        }
        out
    }

    /// Reads the file form of [`Weights::to_bytes`].
    ///
    /// # Errors
    /// [`WeightsError`] when the header does not match this layout or the data does
    /// not fill the table exactly.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        let header = MAGIC.len() + 8;
        if bytes.len() < header || &bytes[..MAGIC.len()] != MAGIC {
            return Err(WeightsError::Layout);
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        if word(8) as usize != PHASES || word(12) as usize != weights_per_phase() {
            return Err(WeightsError::Layout);
        }
        let mut table = Vec::with_capacity(PHASES * weights_per_phase());
        let mut rest = &bytes[header..];
        let total = PHASES * weights_per_phase();
        while !rest.is_empty() {
            let [a, b, tail @ ..] = rest else {
                return Err(WeightsError::Truncated);
            };
            let w = i16::from_le_bytes([*a, *b]);
            table.push(w);
            rest = tail;
            if w == 0 {
                let [a, b, tail @ ..] = rest else {
                    return Err(WeightsError::Truncated);
                };
                let run = usize::from(u16::from_le_bytes([*a, *b]));
                if table.len() + run > total {
                    return Err(WeightsError::Truncated);
                }
                table.resize(table.len() + run, 0);
                rest = tail;
            }
            if table.len() > total {
                return Err(WeightsError::Truncated);
            }
        }
        if table.len() != total {
            return Err(WeightsError::Truncated);
        }
        Ok(Weights { table })
    }
}

/// The weights the engine plays with, made by `tabula train` (see docs/training.md).
static TRAINED: &[u8] = include_bytes!("weights.bin");

/// The engine's weights, read once; `None` if the committed file does not match the
/// layout (the evaluation then falls back to the hand-tuned features).
#[must_use]
pub fn trained() -> Option<&'static Evaluator> {
    static WEIGHTS: OnceLock<Option<Evaluator>> = OnceLock::new();
    WEIGHTS
        .get_or_init(|| match Weights::from_bytes(TRAINED) {
            Ok(weights) => Some(Evaluator::new(&weights)),
            Err(error) => {
                log::warn!("othello weights: {error}; using the hand-tuned evaluation");
                None
            }
        })
        .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::Position;
    use crate::rng::Rng;

    fn random_board(rng: &mut Rng, plies: u32) -> Board {
        let mut position = Position::start();
        for _ in 0..plies {
            let moves = position.legal_moves();
            let Some(&mv) = rng.choose(&moves) else { break };
            let side = position.side_to_move();
            position.play(side, mv).expect("legal");
        }
        position.board()
    }

    fn random_weights(rng: &mut Rng) -> Weights {
        let mut weights = Weights::zero();
        for w in &mut weights.table {
            *w = (rng.below(2001) as i32 - 1000) as i16;
        }
        weights
    }

    #[test]
    fn the_unfolded_evaluator_agrees_with_the_weights() {
        let mut rng = Rng::new(17);
        let weights = random_weights(&mut rng);
        let fast = Evaluator::new(&weights);
        for plies in [0, 9, 23, 37, 52, 59] {
            for _ in 0..10 {
                let board = random_board(&mut rng, plies);
                assert_eq!(fast.evaluate(&board), weights.evaluate(&board));
            }
        }
    }

    #[test]
    fn transpose_moves_each_square_to_its_mirror() {
        for square in 0..64u32 {
            let (c, r) = (square % 8, square / 8);
            assert_eq!(transpose(1 << square), 1 << (c * 8 + r));
            assert_eq!(flip_horizontal(1 << square), 1 << (r * 8 + 7 - c));
            assert_eq!(flip_vertical(1 << square), 1 << ((7 - r) * 8 + c));
        }
    }

    #[test]
    fn diagonal_masks_have_the_right_lengths() {
        let lengths: Vec<u32> = DIAGONALS.iter().map(|(m, _)| m.count_ones()).collect();
        assert_eq!(
            lengths,
            [8, 8, 7, 7, 7, 7, 6, 6, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4]
        );
        for (mask, first) in DIAGONALS {
            let got = diagonal(mask, mask, first);
            assert_eq!(got, (1 << mask.count_ones()) - 1);
        }
    }

    #[test]
    fn folded_tables_share_mirror_configurations() {
        let layout = layout();
        // Row pattern: black on a2 only vs black on h2 only share a weight.
        assert_eq!(layout.maps[0][1], layout.maps[0][pow3(7)]);
        assert_ne!(layout.maps[0][1], layout.maps[0][pow3(6)]);
        // 2x5 blocks are not folded.
        assert_ne!(layout.maps[10][1], layout.maps[10][pow3(5)]);
        assert!(weights_per_phase() < 120_000);
    }

    /// The whole feature set is closed under the board's symmetries: any weights give
    /// the same score to a position and to its eight images.
    #[test]
    fn the_evaluation_is_the_same_for_all_symmetries() {
        let mut rng = Rng::new(11);
        let weights = random_weights(&mut rng);
        for plies in [0, 5, 12, 20, 30, 41, 50, 57] {
            for _ in 0..6 {
                let board = random_board(&mut rng, plies);
                let expected = weights.evaluate(&board);
                let me = images(board.player);
                let them = images(board.opponent);
                for i in 1..8 {
                    let image = Board {
                        player: me[i],
                        opponent: them[i],
                    };
                    assert_eq!(
                        weights.evaluate(&image),
                        expected,
                        "image {i}, plies {plies}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_square_is_read_by_some_pattern() {
        let empty = Board {
            player: 0,
            opponent: 0,
        };
        let base = Features::of(&empty).index;
        for square in 0..64 {
            for one in [
                Board {
                    player: 1 << square,
                    opponent: 0,
                },
                Board {
                    player: 0,
                    opponent: 1 << square,
                },
            ] {
                let changed = Features::of(&one)
                    .index
                    .iter()
                    .zip(&base)
                    .take(INSTANCES)
                    .filter(|(a, b)| a != b)
                    .count();
                assert!(changed > 0, "square {square}");
            }
        }
    }

    #[test]
    fn the_file_form_round_trips_and_refuses_damage() {
        let mut rng = Rng::new(5);
        let mut weights = Weights::zero();
        for w in weights.table.iter_mut().step_by(7) {
            *w = (rng.below(200) as i32 - 100) as i16;
        }
        let bytes = weights.to_bytes();
        assert_eq!(Weights::from_bytes(&bytes), Ok(weights.clone()));
        assert_eq!(
            Weights::from_bytes(&bytes[..bytes.len() - 1]),
            Err(WeightsError::Truncated)
        );
        let mut longer = bytes.clone();
        longer.extend_from_slice(&[1, 0]);
        assert_eq!(Weights::from_bytes(&longer), Err(WeightsError::Truncated));
        let mut wrong = bytes;
        wrong[0] = b'X';
        assert_eq!(Weights::from_bytes(&wrong), Err(WeightsError::Layout));
        assert_eq!(Weights::from_bytes(&[]), Err(WeightsError::Layout));
        // All zero compresses to almost nothing.
        assert!(Weights::zero().to_bytes().len() < 200);
    }
}
