//! The exact endgame solver: the final disc difference (O4, empties to the winner)
//! under perfect play, for the side to move.
//!
//! Scores here are in discs, from −64 to 64, side-relative. The search is fail-soft
//! alpha-beta in three layers, chosen by the number of empty squares `n`:
//!
//! - `n > SHALLOW`: principal-variation search at the root and along the principal
//!   line (`pvs`), null-window search elsewhere (`nws`); moves sorted by the table
//!   move, then fastest-first (fewest replies for the opponent,
//!   corners counted twice), potential mobility and parity (up to
//!   `MOBILITY_KEY_EMPTIES`: the replies, parity and corners only), plus the evaluation
//!   (the learned patterns, [`evaluate_with`]; from `ORDER_EVAL_EMPTIES`) or a 2–4 ply
//!   search of it (`ORDER_SEARCH_EMPTIES`) far from the end; a stability cut-off
//!   that bounds the score by the opponent's stable discs; a transposition table
//!   from `TT_EMPTIES` empties on, with enhanced transposition cut-offs (children
//!   looked up first) from `ETC_EMPTIES`.
//! - `3 ≤ n ≤ SHALLOW`: no sorting, empties in odd quadrants first (parity); the
//!   stability cut-off from 4 empties; 5 and 4 empties have functions of their own
//!   (`last5`, `last4`), each compiled for a null window and for any window.
//! - the last two empties unrolled, and the very last one counted without making the
//!   move (`last1!`).
//!
//! The recursion is compiled once per instruction set from one source
//! (`search_functions!`, see [`crate::cpu`]); [`Solver`] runs the copy for the
//! detected one. The copies search the same tree.
//!
//! Every function counts one node per call. A raised stop flag or a passed deadline
//! (checked every few thousand interior nodes) sets `aborted`; the scores returned
//! after that are meaningless and callers must check it.

use super::eval::{DISC, evaluate_with};
use super::ordering::{Candidate, EMPTY_LIST, MoveList, insert, list_at};
use super::tt::{NO_MOVE, Table};
use crate::ai::Limits;
use crate::cpu::{Isa, dispatch, isa_copies};
use crate::games::othello::Board;
use crate::games::othello::properties::{EdgeStability, final_score, frontier};

/// Below every score.
pub const LOSS: i32 = -65;
/// Above every evaluation.
const INFINITY: i32 = 100 * DISC;
/// At most this many empties: parity-ordered search without sorting, one function
/// per number of empties (`last5`, `last4`, the last three, two and one).
const SHALLOW: u32 = 5;
const _: () = assert!(
    SHALLOW == 5,
    "the unsorted search is written for five empties"
);
/// From this many empties the transposition table is read and written.
const TT_EMPTIES: u32 = 8;
/// From this many empties the children are looked up before any is searched.
const ETC_EMPTIES: u32 = 9;
/// Nodes with at most this many empties keep their bounds in the near table (see
/// [`near_table`]), the others in the main one.
const NEAR_EMPTIES: u32 = 10;
/// The buckets of a near table: 768 KiB, which stays in the caches.
const NEAR_BUCKETS: usize = 1 << 14;
/// Up to this many empties the ordering key is the opponent's mobility, parity and
/// corners only (`mobility_key`): potential mobility saves no nodes this close to
/// the end, and corners counted twice among the replies lose some.
const MOBILITY_KEY_EMPTIES: u32 = 7;
/// In the null-window search near the end (`nws_near`, 6 and 7 empties), a child
/// whose [`mobility_key`] is at most this is searched as soon as it is made: one that
/// leaves the opponent two replies or fewer.
const EARLY_KEY: i32 = 2 * 64;
const _: () = assert!(
    MOBILITY_KEY_EMPTIES < TT_EMPTIES,
    "the null-window search near the end reads no table"
);
/// From this many empties the evaluation joins the ordering key.
const ORDER_EVAL_EMPTIES: u32 = 14;
/// From this many empties a shallow search of the evaluation orders the moves.
const ORDER_SEARCH_EMPTIES: u32 = 17;
/// How far above the best child's ordering-search value (the opponent's, so the
/// least) another child's search still looks for a true value.
const ORDER_SEARCH_MARGIN: i32 = 8 * DISC;
/// Interior nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u32 = 4096;

const CORNERS: u64 = 0x8100_0000_0000_0081;
const COLUMN_A: u64 = 0x0101_0101_0101_0101;
const COLUMN_H: u64 = 0x8080_8080_8080_8080;

/// The four quadrants of the board, for parity.
#[cfg(test)]
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// For each square, its up to eight neighbours.
const NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        let bit = 1u64 << square;
        let not_a = bit & !COLUMN_A;
        let not_h = bit & !COLUMN_H;
        table[square] = (bit << 8)
            | (bit >> 8)
            | (not_h << 1)
            | (not_a >> 1)
            | (not_h << 9)
            | (not_a << 7)
            | (not_h >> 7)
            | (not_a >> 9);
        square += 1;
    }
    table
};

/// The empty squares that lie in a quadrant with an odd number of empties. The
/// parities are folded by shifts rather than counted: after the two column folds
/// bit 0 and bit 4 of each row hold the parity of that row's half, after the two row
/// folds bits 0, 4, 32 and 36 hold the parity of the four quadrants, and one
/// multiplication spreads each over its quadrant (the four copies cannot overlap).
#[inline(always)]
fn odd_quadrants(empty: u64) -> u64 {
    let mut fold = empty ^ (empty >> 1);
    fold ^= fold >> 2;
    fold ^= fold >> 8;
    fold ^= fold >> 16;
    ((fold & 0x0000_0011_0000_0011) * 0x0f0f_0f0f) & empty
}

/// The quadrant of `square` (for parity): the quadrant of a1, four columns to the
/// right when the square's column is e–h (bit 2 of its index), four rows up when
/// its row is 5–8 (bit 5).
#[inline(always)]
fn quadrant_of(square: u32) -> u64 {
    0x0000_0000_0f0f_0f0f << (square & 36)
}

/// The odd quadrants once `square` (one of `empty`) is filled, from `odd`, those
/// of `empty`: only the parity of the square's own quadrant changes.
#[inline(always)]
fn odd_quadrants_after(odd: u64, empty: u64, square: u32) -> u64 {
    (odd ^ quadrant_of(square)) & empty & !(1u64 << square)
}

/// The lowest square of `rest`, taken from it, then once `rest` is spent those of
/// `later` (moved into it): two groups of squares visited in order, without a loop
/// over the groups.
#[inline(always)]
fn pop_in_order(rest: &mut u64, later: &mut u64) -> Option<u32> {
    if *rest == 0 {
        if *later == 0 {
            return None;
        }
        (*rest, *later) = (*later, 0);
    }
    let square = rest.trailing_zeros();
    *rest &= *rest - 1;
    Some(square)
}

/// The depth of the ordering search with `n` empties (from [`ORDER_SEARCH_EMPTIES`]).
fn order_depth(n: u32) -> u32 {
    match n {
        22.. => 4,
        _ => 2,
    }
}

/// A table for the nodes of the solver near the leaves ([`Solver::with_near`]).
/// They are most of the nodes that probe a table and their bounds matter only
/// briefly: kept apart in a table small enough to stay in the caches, their probes
/// do not wait on memory, and they do not evict the bounds of larger subtrees from
/// the main table. One per thread: nothing in it is worth sharing.
#[must_use]
pub fn near_table() -> Table {
    Table::with_buckets(NEAR_BUCKETS)
}

/// The exact solver, with its node count, tables and limits.
pub struct Solver<'a> {
    /// Nodes visited so far.
    pub nodes: u64,
    /// Set once the limits stopped the search.
    pub aborted: bool,
    tt: &'a Table,
    /// The table of the nodes of at most [`NEAR_EMPTIES`] empties.
    near: &'a Table,
    limits: Limits<'a>,
    countdown: u32,
    /// One move list per number of empties, reused by every node at that depth
    /// (a node's children have fewer empties, a pass keeps the count but comes
    /// before its list).
    lists: Vec<MoveList>,
    /// The compiled copy of the search that runs.
    isa: Isa,
    /// The edges' stable discs, for the stability cut-off.
    edges: &'static EdgeStability,
}

impl<'a> Solver<'a> {
    /// A solver using (and filling) `tt` for every node, stopping when `limits`
    /// expire (the depth is ignored: the solver always plays to the end).
    pub fn new(tt: &'a Table, limits: Limits<'a>) -> Solver<'a> {
        Solver::with_near(tt, tt, limits)
    }

    /// A solver keeping the bounds of nodes near the leaves in `near` (a
    /// [`near_table`]) and the others in `tt`.
    pub fn with_near(tt: &'a Table, near: &'a Table, limits: Limits<'a>) -> Solver<'a> {
        Solver {
            nodes: 0,
            aborted: false,
            tt,
            near,
            limits,
            countdown: CHECK_EVERY,
            lists: Vec::new(),
            isa: Isa::detected(),
            edges: EdgeStability::get(),
        }
    }

    /// The same solver running the copy of the search for `isa` (for tests: it must
    /// be [`Isa::Portable`] or what [`Isa::detected`] returned).
    #[cfg(test)]
    fn on(self, isa: Isa) -> Solver<'a> {
        Solver { isa, ..self }
    }

    /// The exact score of `board` if it lies inside (`alpha`, `beta`); otherwise a
    /// bound on the failing side (fail-soft).
    pub fn solve(&mut self, board: &Board, alpha: i32, beta: i32) -> i32 {
        let n = board.empty().count_ones();
        let legal = board.moves();
        dispatch!(self.isa, solve_child(self, board, legal, alpha, beta, n))
    }

    /// The best move of `board` (None when the side to move must pass) and its exact
    /// score, or the score when passing is forced. The game must not be over.
    pub fn best_move(&mut self, board: &Board) -> (Option<u32>, i32) {
        dispatch!(self.isa, best_move(self, board))
    }

    /// Counts an interior node; true once the search must stop.
    #[inline(always)]
    fn tick(&mut self) -> bool {
        if self
            .limits
            .due_after(&mut self.countdown, CHECK_EVERY, self.nodes)
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The table for nodes with `n` empties.
    #[inline(always)]
    fn table(&self, n: u32) -> &'a Table {
        if n <= NEAR_EMPTIES {
            self.near
        } else {
            self.tt
        }
    }

    /// The move list for nodes with `n` empties.
    #[inline]
    fn list(&mut self, n: u32) -> &mut MoveList {
        list_at(&mut self.lists, n as usize)
    }
}

/// Fail-soft bookkeeping of a child's `score`: raises `best` and `alpha` where it
/// beats them; true when it reaches `beta` (the node is cut). With `NULL` (a null
/// window: `beta` is `alpha + 1`) a score above `alpha` cuts at once, so `alpha`
/// never moves and `beta` is not read: the same results with fewer values kept
/// live in the leaves' loops.
#[inline(always)]
fn raise<const NULL: bool>(best: &mut i32, alpha: &mut i32, score: i32, beta: i32) -> bool {
    if NULL {
        *best = (*best).max(score);
        return score > *alpha;
    }
    if score > *best {
        *best = score;
        if score > *alpha {
            *alpha = score;
            return score >= beta;
        }
    }
    false
}

/// Stability cut-off: an upper bound from the opponent's stable discs of `$board`,
/// when it already fails low against `$alpha` (`$n` empties). Only tried when
/// `alpha` is at least [`stability_threshold`] (below that a cut-off needs more
/// stable discs than a position has, or is too rare to pay for the stable discs).
/// A macro, so that each copy gets it inlined with its own
/// `stable_discs_with_edges` (the x86-64-v3 one gathers the edge columns with
/// `pext`).
macro_rules! stability_cut {
    ($board:expr, $alpha:expr, $n:expr, $edges:expr) => {
        stability_cut!($board, $alpha, $n, $edges, stable_discs_with_edges)
    };
    ($board:expr, $alpha:expr, $n:expr, $edges:expr, $stable:ident) => {{
        let (board, alpha, n, edges): (&Board, i32, u32, &EdgeStability) =
            ($board, $alpha, $n, $edges);
        if alpha < stability_threshold(n) {
            None
        } else {
            // SAFETY: the x86-64-v3 and v4 copies run only where their features
            // (`bmi2` among them) were detected; the portable function is safe.
            #[allow(unused_unsafe)]
            let stable = unsafe { $stable(board.opponent, board.player, edges) };
            let bound = 64 - 2 * stable.count_ones() as i32;
            (bound <= alpha).then_some(bound)
        }
    }};
}

/// The lowest `alpha` at which [`stability_cut!`] is tried with `n` empties: 4 at 4
/// empties, half the empties plus 2 above. Against half the empties everywhere, on
/// FFO #42: 1.2 % more nodes, 5 % fewer instructions (the stable discs of nodes
/// that seldom cut are no longer computed).
#[inline(always)]
fn stability_threshold(n: u32) -> i32 {
    if n <= 4 { 4 } else { n as i32 / 2 + 2 }
}

/// The score when the side to move, holding `$player` on a board whose one empty
/// square is `$square`, plays it, or passes and the opponent plays it, or neither
/// can. Only the mover's discs are read: the opponent holds every other square,
/// `!$player` (the flip count never reads the square itself), so the caller keeps
/// no opponent board. A macro for the same reason as [`last2!`]: as an `#[inline]`
/// function of a copy the compiler stops inlining it into [`last2!`] once its flip
/// count changes shape, and each call then pays for the call.
macro_rules! last1 {
    ($player:expr, $square:expr) => {{
        let (player, square): (u64, u32) = ($player, $square);
        let mine = player.count_ones() as i32;
        let flipped = last_flip_count(player, square) as i32;
        if flipped > 0 {
            2 * (mine + flipped + 1) - 64
        } else {
            let flipped = last_flip_count(!player, square) as i32;
            if flipped > 0 {
                2 * (mine - flipped) - 64
            } else if 2 * mine > 63 {
                2 * mine - 62
            } else {
                2 * mine - 64
            }
        }
    }};
}

/// The score of the last two empties `$first` and `$second` (lower first) of
/// `$board`, window (`$alpha`, `$beta`): a macro, so that [`last3`] gets it inlined
/// (a function of a compiled copy cannot be forced inline) and uses the `flips` of
/// the copy it is expanded in.
macro_rules! last2 {
    ($solver:expr, $board:expr, $alpha:expr, $beta:expr, $first:expr, $second:expr) => {{
        let (solver, board, alpha, beta): (&mut Solver<'_>, &Board, i32, i32) =
            ($solver, $board, $alpha, $beta);
        let (first, second): (u32, u32) = ($first, $second);
        'last2: {
            solver.nodes += 1;
            let (player, opponent) = (board.player, board.opponent);
            let mut best = LOSS;
            let flipped = flips(player, opponent, first);
            if flipped != 0 {
                solver.nodes += 1;
                best = -last1!(opponent & !flipped, second);
                if best >= beta {
                    break 'last2 best;
                }
            }
            let flipped = flips(player, opponent, second);
            if flipped != 0 {
                solver.nodes += 1;
                best = best.max(-last1!(opponent & !flipped, first));
            }
            if best > LOSS {
                break 'last2 best;
            }
            // The side to move passes; the opponent may still play.
            let mut theirs = LOSS;
            let flipped = flips(opponent, player, first);
            if flipped != 0 {
                solver.nodes += 1;
                theirs = -last1!(player & !flipped, second);
                if theirs >= -alpha {
                    break 'last2 -theirs;
                }
            }
            let flipped = flips(opponent, player, second);
            if flipped != 0 {
                solver.nodes += 1;
                theirs = theirs.max(-last1!(player & !flipped, first));
            }
            if theirs > LOSS {
                -theirs
            } else {
                final_score(board)
            }
        }
    }};
}

/// The score of the last three empties of `$board`, those of `$odd` (the empties
/// in odd quadrants, see [`odd_quadrants`]) first, then the others, lowest first
/// within each group (three empties lie in one or three odd quadrants: with one,
/// its square goes first); the two left after a move go to [`last2!`] lower square
/// first. The order comes from the two masks ([`pop_in_order`]), not from an array
/// of squares. A pass loops once with the sides swapped. A macro for the same
/// reason as [`last2!`]: `last4` gets it inlined (it uses the `play`, `moves` and
/// `flips` of the copy it is expanded in).
macro_rules! last3 {
    ($solver:expr, $board:expr, $alpha:expr, $beta:expr, $odd:expr, $null:expr) => {{
        let (solver, board, alpha, beta): (&mut Solver<'_>, &Board, i32, i32) =
            ($solver, $board, $alpha, $beta);
        let odd: u64 = $odd;
        let (mut board, mut alpha, mut beta, mut sign) = (*board, alpha, beta, 1);
        let empty = board.empty();
        'last3: loop {
            solver.nodes += 1;
            let mut best = LOSS;
            let (mut rest, mut later) = (odd, empty & !odd);
            while let Some(square) = pop_in_order(&mut rest, &mut later) {
                let Some(next) = play(&board, square) else {
                    continue;
                };
                let left = empty & !(1u64 << square);
                let (first, second) = (left.trailing_zeros(), (left & (left - 1)).trailing_zeros());
                let score = -last2!(solver, &next, -beta, -alpha, first, second);
                if raise::<{ $null }>(&mut best, &mut alpha, score, beta) {
                    break 'last3 sign * best;
                }
            }
            if best > LOSS {
                break 'last3 sign * best;
            }
            let passed = board.passed();
            if moves(passed.player, passed.opponent) == 0 {
                break 'last3 sign * final_score(&board);
            }
            (board, alpha, beta, sign) = (passed, -beta, -alpha, -sign);
        }
    }};
}

/// The recursive search, once per instruction set (`$feature`: the attributes of
/// the copy; see [`crate::cpu`]). Every function that is part of a recursion, or
/// too big to be inlined, is here so that it is compiled with the copy's features.
macro_rules! search_functions {
    ($isa:ident $(#[$feature:meta])*) => {
        use crate::games::othello::bitboard::$isa::{flips, last_flip_count, moves};
        use crate::games::othello::properties::$isa::{
            stable_discs_with_edges, stable_discs_with_four_empties,
        };

        /// The fastest-first key of the move to `square` leading to `next` (the
        /// opponent to move, with the legal moves `replies`): lower is searched
        /// first.
        $(#[$feature])*
        #[inline]
        fn order_key(next: &Board, replies: u64, square: u32, odd: u64) -> i32 {
            let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
            let empty = next.empty();
            // Empties next to the discs of the side that just moved: room for the
            // opponent.
            let potential = frontier(next.opponent, empty).count_ones() as i32;
            let parity = i32::from(odd & (1u64 << square) != 0);
            let corner = i32::from(CORNERS & (1u64 << square) != 0);
            mobility * 64 + potential * 16 - parity * 8 - corner * 16
        }

        /// The key of [`order_key`] near the end (to [`MOBILITY_KEY_EMPTIES`]):
        /// the opponent's replies, then parity and corners.
        $(#[$feature])*
        #[inline]
        fn mobility_key(replies: u64, square: u32, odd: u64) -> i32 {
            let parity = i32::from(odd & (1u64 << square) != 0);
            let corner = i32::from(CORNERS & (1u64 << square) != 0);
            replies.count_ones() as i32 * 64 - parity * 8 - corner * 16
        }

        /// A small negamax over the evaluation, `depth` plies, for ordering only.
        $(#[$feature])*
        fn eval_search(
            board: &Board,
            depth: u32,
            mut alpha: i32,
            beta: i32,
            nodes: &mut u64,
        ) -> i32 {
            *nodes += 1;
            let legal = moves(board.player, board.opponent);
            if depth == 0 {
                return evaluate_with(board, legal, moves(board.opponent, board.player));
            }
            if legal == 0 {
                let passed = board.passed();
                if moves(passed.player, passed.opponent) == 0 {
                    return final_score(board) * DISC;
                }
                return -eval_search(&passed, depth - 1, -beta, -alpha, nodes);
            }
            let mut best = -INFINITY;
            let mut rest = legal;
            while rest != 0 {
                let square = rest.trailing_zeros();
                rest &= rest - 1;
                let next = board.after(square, flips(board.player, board.opponent, square));
                let score = -eval_search(&next, depth - 1, -beta, -alpha, nodes);
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
            best
        }

        /// The legal moves of `board` (given as `legal`), sorted: `first` (the table
        /// move) at the head, then by [`order_key`] (or [`mobility_key`]), with the evaluation (or a shallow
        /// search of it) added far from the end; each with the child's legal moves.
        /// They are written to the head of `list`; the count is returned. The nodes of
        /// the shallow searches are added to `nodes`. From [`ETC_EMPTIES`] on, the
        /// children's table buckets are prefetched for the look-ups that follow.
        $(#[$feature])*
        fn sort_into(
            list: &mut MoveList,
            tt: &Table,
            board: &Board,
            legal: u64,
            first: Option<u32>,
            nodes: &mut u64,
        ) -> usize {
            let n = board.empty().count_ones();
            let odd = odd_quadrants(board.empty());
            let mut count = 0;
            let mut rest = legal;
            if n <= MOBILITY_KEY_EMPTIES {
                // The principal-variation nodes near the end (the null-window ones
                // make their children in `nws_near`): the replies, parity and
                // corners, in a loop of its own (no table to prefetch from, no
                // potential mobility).
                while rest != 0 && count < 32 {
                    let square = rest.trailing_zeros();
                    rest &= rest - 1;
                    let next = board.after(square, flips(board.player, board.opponent, square));
                    let replies = moves(next.player, next.opponent);
                    let key = if Some(square) == first {
                        i32::MIN
                    } else {
                        mobility_key(replies, square, odd)
                    };
                    insert(list, count, Candidate { square, next, key, replies });
                    count += 1;
                }
                return count;
            }
            if n < ORDER_EVAL_EMPTIES {
                // The key alone, in a loop of its own (no evaluation to keep
                // registers for).
                while rest != 0 && count < 32 {
                    let square = rest.trailing_zeros();
                    rest &= rest - 1;
                    let next = board.after(square, flips(board.player, board.opponent, square));
                    if n >= ETC_EMPTIES {
                        tt.prefetch(&next);
                    }
                    let replies = moves(next.player, next.opponent);
                    let key = if Some(square) == first {
                        i32::MIN
                    } else {
                        order_key(&next, replies, square, odd)
                    };
                    insert(list, count, Candidate { square, next, key, replies });
                    count += 1;
                }
                return count;
            }
            let mut least = INFINITY;
            while rest != 0 && count < 32 {
                let square = rest.trailing_zeros();
                rest &= rest - 1;
                let next = board.after(square, flips(board.player, board.opponent, square));
                tt.prefetch(&next);
                let replies = moves(next.player, next.opponent);
                let key = if Some(square) == first {
                    i32::MIN
                } else if n >= ORDER_SEARCH_EMPTIES {
                    // Only the children near the best so far need a true value: the
                    // others' searches stop at a bound above it, which sorts them
                    // after it all the same.
                    let beta = least.saturating_add(ORDER_SEARCH_MARGIN);
                    let value = eval_search(&next, order_depth(n), -INFINITY, beta, nodes);
                    least = least.min(value);
                    order_key(&next, replies, square, odd) + value / 2
                } else {
                    let theirs = moves(next.opponent, next.player);
                    order_key(&next, replies, square, odd) + evaluate_with(&next, replies, theirs) / 2
                };
                insert(list, count, Candidate { square, next, key, replies });
                count += 1;
            }
            count
        }

        /// [`Solver::best_move`].
        $(#[$feature])*
        pub(super) fn best_move(solver: &mut Solver<'_>, board: &Board) -> (Option<u32>, i32) {
            let legal = moves(board.player, board.opponent);
            if legal == 0 {
                let n = board.empty().count_ones();
                let passed = board.passed();
                let replies = moves(passed.player, passed.opponent);
                return (None, -solve_child(solver, &passed, replies, -64, 64, n));
            }
            let n = board.empty().count_ones();
            let first = solver.table(n).probe(board).and_then(|hit| hit.best);
            let mut list = EMPTY_LIST;
            let count = sort_into(&mut list, solver.table(n - 1), board, legal, first, &mut solver.nodes);
            let (mut alpha, beta) = (-64, 64);
            let mut best = (list[0].square, LOSS);
            for (i, candidate) in list[..count].iter().enumerate() {
                let score = search_move(solver, candidate, i, alpha, beta, n - 1);
                if solver.aborted {
                    break;
                }
                if score > best.1 {
                    best = (candidate.square, score);
                    alpha = alpha.max(score);
                }
            }
            if !solver.aborted {
                solver.table(n).store(board, n, -64, 64, best.1, best.0 as u8);
            }
            (Some(best.0), best.1)
        }

        /// Null-window search: is the score above `alpha`? (`n` > [`SHALLOW`]
        /// empties; `legal`: the moves of `board`.)
        $(#[$feature])*
        fn nws(solver: &mut Solver<'_>, board: &Board, legal: u64, alpha: i32, n: u32) -> i32 {
            solver.nodes += 1;
            if solver.tick() {
                return 0;
            }
            let beta = alpha + 1;
            if let Some(bound) = stability_cut!(board, alpha, n, solver.edges) {
                return bound;
            }
            let mut first = None;
            if n >= TT_EMPTIES
                && let Some(hit) = solver.table(n).probe(board)
            {
                if let Some(score) = hit.cutoff(alpha, beta) {
                    return score;
                }
                first = hit.best;
            }
            if legal == 0 {
                let passed = board.passed();
                let replies = moves(passed.player, passed.opponent);
                if replies == 0 {
                    return final_score(board);
                }
                return -nws(solver, &passed, replies, -beta, n);
            }
            if n <= MOBILITY_KEY_EMPTIES {
                return nws_near(solver, board, legal, alpha, n);
            }
            let (mut nodes, tt) = (solver.nodes, solver.table(n - 1));
            let count = sort_into(solver.list(n), tt, board, legal, first, &mut nodes);
            solver.nodes = nodes;
            if n >= ETC_EMPTIES {
                // Enhanced transposition cut-off: a child already known to fail low
                // for the opponent cuts here without a search.
                for candidate in &solver.lists[n as usize][..count] {
                    if let Some(hit) = solver.table(n - 1).probe(&candidate.next)
                        && -hit.upper >= beta
                    {
                        solver
                            .table(n)
                            .store(board, n, alpha, beta, -hit.upper, candidate.square as u8);
                        return -hit.upper;
                    }
                }
            }
            let mut best = LOSS;
            let mut best_square = NO_MOVE;
            for i in 0..count {
                let candidate = solver.lists[n as usize][i];
                let score = -null_child(solver, &candidate.next, candidate.replies, alpha, n - 1);
                if solver.aborted {
                    return 0;
                }
                if score > best {
                    best = score;
                    best_square = candidate.square as u8;
                    if score > alpha {
                        break;
                    }
                }
            }
            if n >= TT_EMPTIES {
                solver.table(n).store(board, n, alpha, beta, best, best_square);
            }
            best
        }

        /// [`nws`] near the end (at most [`MOBILITY_KEY_EMPTIES`] empties, so no
        /// table). The children are made in parity order, odd quadrants first, and
        /// one whose [`mobility_key`] is at most [`EARLY_KEY`] (it leaves the
        /// opponent at most two replies) is searched at once, before its siblings
        /// are made: most of these nodes are cut by their first child, and then
        /// the siblings never are. The others are sorted by the key and searched
        /// after. (Made in parity order, the siblings sort as [`sort_into`] sorts
        /// them: equal keys have the same parity.)
        $(#[$feature])*
        fn nws_near(solver: &mut Solver<'_>, board: &Board, legal: u64, alpha: i32, n: u32) -> i32 {
            // Makes the list on first use; the loop then indexes it directly.
            solver.list(n);
            let odd = odd_quadrants(board.empty());
            let (mut rest, mut later) = (legal & odd, legal & !odd);
            let mut best = LOSS;
            let mut count = 0;
            while let Some(square) = pop_in_order(&mut rest, &mut later) {
                let next = board.after(square, flips(board.player, board.opponent, square));
                let replies = moves(next.player, next.opponent);
                let key = mobility_key(replies, square, odd);
                if key > EARLY_KEY {
                    let list = &mut solver.lists[n as usize];
                    insert(list, count, Candidate { square, next, key, replies });
                    count += 1;
                    continue;
                }
                let score = -null_child(solver, &next, replies, alpha, n - 1);
                if solver.aborted {
                    return 0;
                }
                if score > best {
                    best = score;
                    if score > alpha {
                        return best;
                    }
                }
            }
            for i in 0..count {
                let candidate = solver.lists[n as usize][i];
                let score = -null_child(solver, &candidate.next, candidate.replies, alpha, n - 1);
                if solver.aborted {
                    return 0;
                }
                if score > best {
                    best = score;
                    if score > alpha {
                        break;
                    }
                }
            }
            best
        }

        /// The null-window search of a child with `n` empties of a null-window
        /// node ([`nws`], [`nws_near`]) whose window is (`alpha`, `alpha + 1`).
        $(#[$feature])*
        #[inline]
        fn null_child(solver: &mut Solver<'_>, next: &Board, replies: u64, alpha: i32, n: u32) -> i32 {
            if n <= SHALLOW {
                shallow(solver, next, replies, -alpha - 1, -alpha, n)
            } else {
                nws(solver, next, replies, -alpha - 1, n)
            }
        }

        /// Principal-variation search with window (`alpha`, `beta`) (`n` >
        /// [`SHALLOW`]).
        $(#[$feature])*
        fn pvs(
            solver: &mut Solver<'_>,
            board: &Board,
            legal: u64,
            mut alpha: i32,
            beta: i32,
            n: u32,
        ) -> i32 {
            solver.nodes += 1;
            if solver.tick() {
                return 0;
            }
            let mut first = None;
            if let Some(hit) = solver.table(n).probe(board) {
                if let Some(score) = hit.cutoff(alpha, beta) {
                    return score;
                }
                first = hit.best;
            }
            if legal == 0 {
                let passed = board.passed();
                let replies = moves(passed.player, passed.opponent);
                if replies == 0 {
                    return final_score(board);
                }
                return -pvs(solver, &passed, replies, -beta, -alpha, n);
            }
            let original_alpha = alpha;
            let (mut nodes, tt) = (solver.nodes, solver.table(n - 1));
            let count = sort_into(solver.list(n), tt, board, legal, first, &mut nodes);
            solver.nodes = nodes;
            let mut best = LOSS;
            let mut best_square = NO_MOVE;
            for i in 0..count {
                let candidate = solver.lists[n as usize][i];
                let score = search_move(solver, &candidate, i, alpha, beta, n - 1);
                if solver.aborted {
                    return 0;
                }
                if score > best {
                    best = score;
                    best_square = candidate.square as u8;
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
            solver
                .table(n)
                .store(board, n, original_alpha, beta, best, best_square);
            best
        }

        /// The score of the `i`-th move (from 0) of a principal-variation node with
        /// window (`alpha`, `beta`), `candidate` leading to a board with `n` empties:
        /// the first with the full window, the others with a null window and a
        /// re-search when they land inside.
        $(#[$feature])*
        #[inline]
        fn search_move(
            solver: &mut Solver<'_>,
            candidate: &Candidate,
            i: usize,
            alpha: i32,
            beta: i32,
            n: u32,
        ) -> i32 {
            let (next, replies) = (&candidate.next, candidate.replies);
            if i == 0 {
                return -solve_child(solver, next, replies, -beta, -alpha, n);
            }
            let score = -solve_child(solver, next, replies, -alpha - 1, -alpha, n);
            if score > alpha && score < beta {
                -solve_child(solver, next, replies, -beta, -score, n)
            } else {
                score
            }
        }

        /// The search that fits `n` empties and the window: [`shallow`] for at
        /// most [`SHALLOW`], [`nws`] for a null window, [`pvs`] otherwise
        /// (`legal`: the moves of `board`).
        $(#[$feature])*
        pub(super) fn solve_child(
            solver: &mut Solver<'_>,
            board: &Board,
            legal: u64,
            alpha: i32,
            beta: i32,
            n: u32,
        ) -> i32 {
            if n <= SHALLOW {
                shallow(solver, board, legal, alpha, beta, n)
            } else if beta == alpha + 1 {
                nws(solver, board, legal, alpha, n)
            } else {
                pvs(solver, board, legal, alpha, beta, n)
            }
        }

        /// The unsorted search for at most [`SHALLOW`] empties (`legal`: the moves
        /// of `board`): the last empties' own functions.
        $(#[$feature])*
        fn shallow(
            solver: &mut Solver<'_>,
            board: &Board,
            legal: u64,
            alpha: i32,
            beta: i32,
            n: u32,
        ) -> i32 {
            let empty = board.empty();
            match n {
                0 => {
                    solver.nodes += 1;
                    final_score(board)
                }
                1 => {
                    solver.nodes += 1;
                    last1!(board.player, empty.trailing_zeros())
                }
                2 => {
                    let first = empty.trailing_zeros();
                    let second = (empty & (empty - 1)).trailing_zeros();
                    last2(solver, board, alpha, beta, first, second)
                }
                3 => last3(solver, board, alpha, beta, odd_quadrants(empty)),
                // Its own search: only legal moves flip discs, so trying every
                // empty square visits the same nodes as trying `legal`.
                4 if beta == alpha + 1 => {
                    last4::<true>(solver, board, alpha, beta, odd_quadrants(empty))
                }
                4 => last4::<false>(solver, board, alpha, beta, odd_quadrants(empty)),
                _ if beta == alpha + 1 => last5::<true>(solver, board, legal, alpha, beta),
                _ => last5::<false>(solver, board, legal, alpha, beta),
            }
        }

        /// Five empties (`legal`: the moves of `board`), unsorted: the stability
        /// cut-off, then the legal squares of odd quadrants first, lowest first,
        /// each child's four to [`last4`]. A pass searches the opponent's moves.
        $(#[$feature])*
        fn last5<const NULL: bool>(
            solver: &mut Solver<'_>,
            board: &Board,
            legal: u64,
            mut alpha: i32,
            beta: i32,
        ) -> i32 {
            solver.nodes += 1;
            if let Some(bound) = stability_cut!(board, alpha, 5, solver.edges) {
                return bound;
            }
            let empty = board.empty();
            let odd = odd_quadrants(empty);
            let mut best = LOSS;
            let (mut rest, mut later) = (legal & odd, legal & !odd);
            while let Some(square) = pop_in_order(&mut rest, &mut later) {
                let next = board.after(square, flips(board.player, board.opponent, square));
                let score =
                    -last4::<NULL>(solver, &next, -beta, -alpha, odd_quadrants_after(odd, empty, square));
                if raise::<NULL>(&mut best, &mut alpha, score, beta) {
                    return best;
                }
            }
            if best == LOSS {
                let passed = board.passed();
                let replies = moves(passed.player, passed.opponent);
                if replies == 0 {
                    return final_score(board);
                }
                return -last5::<NULL>(solver, &passed, replies, -beta, -alpha);
            }
            best
        }

        /// The last four empties (`odd`: those in odd quadrants, from the caller):
        /// the stability cut-off, then the empties of odd quadrants first, lowest first (the order [`shallow`] gives them), each
        /// child's three odd ones first (see [`last3!`]). A pass searches the
        /// same four for the opponent.
        $(#[$feature])*
        fn last4<const NULL: bool>(
            solver: &mut Solver<'_>,
            board: &Board,
            mut alpha: i32,
            beta: i32,
            odd: u64,
        ) -> i32 {
            solver.nodes += 1;
            if let Some(bound) =
                stability_cut!(board, alpha, 4, solver.edges, stable_discs_with_four_empties)
            {
                return bound;
            }
            let empty = board.empty();
            let mut best = LOSS;
            let (mut rest, mut later) = (odd, empty & !odd);
            while let Some(square) = pop_in_order(&mut rest, &mut later) {
                let Some(next) = play(board, square) else {
                    continue;
                };
                let after = odd_quadrants_after(odd, empty, square);
                let score = -last3!(solver, &next, -beta, -alpha, after, NULL);
                if raise::<NULL>(&mut best, &mut alpha, score, beta) {
                    return best;
                }
            }
            if best == LOSS {
                let passed = board.passed();
                if moves(passed.player, passed.opponent) == 0 {
                    return final_score(board);
                }
                return -last4::<NULL>(solver, &passed, -beta, -alpha, odd);
            }
            best
        }

        /// The board after the side to move plays on `square`, if that is a legal
        /// move (a square with no opponent neighbour is turned down before its
        /// flips are computed).
        $(#[$feature])*
        #[inline]
        fn play(board: &Board, square: u32) -> Option<Board> {
            if NEIGHBOURS[square as usize & 63] & board.opponent == 0 {
                return None;
            }
            let flipped = flips(board.player, board.opponent, square);
            // No `bool::then` here: its closure would not be inlined into a copy
            // compiled with other features.
            if flipped == 0 {
                None
            } else {
                Some(board.after(square, flipped))
            }
        }

        /// The last three empties (see [`last3!`]).
        $(#[$feature])*
        fn last3(
            solver: &mut Solver<'_>,
            board: &Board,
            alpha: i32,
            beta: i32,
            odd: u64,
        ) -> i32 {
            last3!(solver, board, alpha, beta, odd, false)
        }

        /// The last two empties, `first` and `second` (see [`last2!`]).
        $(#[$feature])*
        fn last2(
            solver: &mut Solver<'_>,
            board: &Board,
            alpha: i32,
            beta: i32,
            first: u32,
            second: u32,
        ) -> i32 {
            last2!(solver, board, alpha, beta, first, second)
        }
    };
}
isa_copies!(search_functions);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::Position;
    use crate::games::othello::bitboard::flips;
    use crate::games::othello::properties::stable_discs_with_edges;

    /// Plain negamax over every move, in discs.
    fn minimax(board: &Board) -> i32 {
        let moves = board.moves();
        if moves == 0 {
            let passed = board.passed();
            if passed.moves() == 0 {
                return final_score(board);
            }
            return -minimax(&passed);
        }
        let mut best = LOSS;
        let mut rest = moves;
        while rest != 0 {
            let square = rest.trailing_zeros();
            rest &= rest - 1;
            let next = board.after(square, flips(board.player, board.opponent, square));
            best = best.max(-minimax(&next));
        }
        best
    }

    /// A position reached by random play, with `empties` empty squares left (or the
    /// end of the game, whichever comes first).
    fn random_endgame(rng: &mut crate::rng::Rng, empties: u32) -> Board {
        let mut board = Position::start().board();
        while board.empty().count_ones() > empties {
            let moves = board.moves();
            if moves == 0 {
                if board.passed().moves() == 0 {
                    break;
                }
                board = board.passed();
                continue;
            }
            let squares: Vec<u32> = (0..64).filter(|s| moves & (1u64 << s) != 0).collect();
            let square = squares[rng.below(squares.len() as u64) as usize];
            board = board.after(square, flips(board.player, board.opponent, square));
        }
        board
    }

    #[test]
    fn random_small_endgames_agree_with_minimax() {
        let mut rng = crate::rng::Rng::new(2024);
        let table = Table::with_buckets(1 << 10);
        for round in 0..300 {
            let empties = 1 + round % 10;
            let board = random_endgame(&mut rng, empties);
            let exact = minimax(&board);
            let mut solver = Solver::new(&table, Limits::depth(0));
            assert_eq!(solver.solve(&board, -64, 64), exact, "{board:?}");
            // Null windows around the exact score fail on the right side.
            assert!(solver.solve(&board, exact - 1, exact) >= exact);
            assert!(solver.solve(&board, exact, exact + 1) <= exact);
            if board.moves() != 0 {
                let (best, score) = solver.best_move(&board);
                assert_eq!(score, exact);
                let square = best.expect("a move");
                let next = board.after(square, flips(board.player, board.opponent, square));
                assert_eq!(
                    -minimax(&next),
                    exact,
                    "the best move scores the best score"
                );
            }
        }
    }

    #[test]
    fn every_instruction_set_solves_with_the_same_scores_moves_and_nodes() {
        let mut rng = crate::rng::Rng::new(909);
        for round in 0..72 {
            let board = random_endgame(&mut rng, 1 + round % 18);
            let mut results = Vec::new();
            for isa in Isa::available() {
                let (table, near) = (Table::with_buckets(1 << 12), Table::with_buckets(1 << 8));
                let mut solver = Solver::with_near(&table, &near, Limits::depth(0)).on(isa);
                let exact = solver.solve(&board, -64, 64);
                let bounds = (
                    solver.solve(&board, exact - 1, exact),
                    solver.solve(&board, exact, exact + 1),
                );
                let best = (board.moves() != 0).then(|| solver.best_move(&board));
                results.push((isa, (exact, bounds, best, solver.nodes)));
            }
            for (isa, result) in &results[1..] {
                assert_eq!(*result, results[0].1, "{isa:?} on {board:?}");
            }
        }
    }

    /// The total nodes of the exact solves of a fixed set of endgames (8 to 18
    /// empties, so every layer and ordering band of the solver runs). It changes only
    /// when the search tree does: a faster node must visit the same nodes.
    const SOLVER_NODES: u64 = 10_681_598;

    #[test]
    fn the_solver_node_count_is_unchanged() {
        let mut rng = crate::rng::Rng::new(4242);
        let mut nodes = 0;
        for round in 0..33 {
            let board = random_endgame(&mut rng, 8 + round % 11);
            let (table, near) = (Table::with_buckets(1 << 14), near_table());
            let mut solver = Solver::with_near(&table, &near, Limits::depth(0));
            solver.solve(&board, -64, 64);
            nodes += solver.nodes;
        }
        assert_eq!(nodes, SOLVER_NODES, "the solver visits {nodes} nodes");
    }

    #[test]
    fn odd_quadrants_are_those_with_an_odd_count_of_empties() {
        let mut rng = crate::rng::Rng::new(8);
        for round in 0..20_000 {
            let empty = match round % 3 {
                0 => rng.next_u64(),
                1 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
                _ => rng.next_u64() | rng.next_u64(),
            };
            let mut expected = 0;
            for quadrant in QUADRANTS {
                if (empty & quadrant).count_ones() % 2 == 1 {
                    expected |= quadrant & empty;
                }
            }
            assert_eq!(odd_quadrants(empty), expected, "{empty:#018x}");
        }
    }

    #[test]
    fn odd_quadrants_after_a_move_are_those_of_the_empties_left() {
        let mut rng = crate::rng::Rng::new(9);
        for _ in 0..20_000 {
            let empty = rng.next_u64() & rng.next_u64();
            if empty == 0 {
                continue;
            }
            // Any of the empties, not only the lowest.
            let mut rest = empty;
            for _ in 0..rng.below(u64::from(empty.count_ones())) {
                rest &= rest - 1;
            }
            let square = rest.trailing_zeros();
            assert_eq!(
                odd_quadrants_after(odd_quadrants(empty), empty, square),
                odd_quadrants(empty & !(1u64 << square)),
                "{empty:#018x} {square}"
            );
        }
    }

    #[test]
    fn a_one_bucket_table_still_solves_exactly() {
        let mut rng = crate::rng::Rng::new(77);
        let table = Table::with_buckets(1);
        for _ in 0..40 {
            let board = random_endgame(&mut rng, 12);
            let reference_table = Table::with_buckets(1 << 12);
            let expected = Solver::new(&reference_table, Limits::depth(0)).solve(&board, -64, 64);
            let mut solver = Solver::new(&table, Limits::depth(0));
            assert_eq!(solver.solve(&board, -64, 64), expected);
            // One bucket for the nodes near the leaves, or for the others.
            let (large, near) = (Table::with_buckets(1 << 12), near_table());
            let mut solver = Solver::with_near(&large, &table, Limits::depth(0));
            assert_eq!(solver.solve(&board, -64, 64), expected);
            let mut solver = Solver::with_near(&table, &near, Limits::depth(0));
            assert_eq!(solver.solve(&board, -64, 64), expected);
        }
    }

    #[test]
    fn stable_discs_are_never_flipped_in_random_play() {
        let mut rng = crate::rng::Rng::new(5);
        for _ in 0..200 {
            let board = random_endgame(&mut rng, 20);
            let stable =
                stable_discs_with_edges(board.player, board.opponent, EdgeStability::get());
            assert_eq!(stable & !board.player, 0);
            let mut rest = board.moves();
            while rest != 0 {
                let square = rest.trailing_zeros();
                rest &= rest - 1;
                let next = board.after(square, flips(board.player, board.opponent, square));
                // The player's stable discs are still the opponent-of-next's discs.
                assert_eq!(stable & !next.opponent, 0);
                let reply = next.moves();
                let mut replies = reply;
                while replies != 0 {
                    let answer = replies.trailing_zeros();
                    replies &= replies - 1;
                    let flipped = flips(next.player, next.opponent, answer);
                    assert_eq!(flipped & stable, 0, "a stable disc flipped");
                }
            }
        }
    }
}
