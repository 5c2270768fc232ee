//! The midgame search: iterative deepening, principal-variation search (negascout)
//! with a transposition table, aspiration windows at the root, and move ordering by
//! the table move, then a shallow search (deep nodes), the evaluation (middle nodes)
//! or fastest-first mobility (near the leaves).
//!
//! Scores are in evaluation units ([`DISC`] per disc). A node whose remaining depth
//! reaches the end of the game is handed to the exact [`Solver`], so exact results
//! (a whole number of discs times [`DISC`]) mix with estimates on one scale. At the
//! root, with `endgame_empties` or fewer empties, a short midgame search first finds a
//! move, then the solver runs to the end; an interrupted solve keeps the midgame move.
//!
//! The clock and the stop flag are looked at every 1,024 nodes. After an
//! interrupt the root answers the best move of the last finished iteration, or a
//! move of the unfinished one that already proved better. With more than one
//! thread the principal line is split (the `parallel` submodule).
//!
//! The recursion (`pvs`, `ordered`) is compiled once per instruction set
//! (`search_functions!`, see [`crate::cpu`]); the searcher runs the copy for the
//! detected one. The copies search the same tree.

use std::sync::Arc;

use super::endgame::Solver;
use super::eval::{DISC, Evaluation};
use super::ordering::{Candidate, MoveList, insert, list_at};
use super::tt::{Access, Hit, NO_MOVE, Table};
use crate::ai::Limits;
use crate::cpu::{Isa, dispatch, isa_copies};
use crate::games::othello::Board;
use crate::games::othello::properties::final_score;

mod parallel;

/// Above every score.
pub const INFINITY: i32 = 100 * DISC;
const CHECK_EVERY: u32 = 1024;
/// Aspiration half-width at the root.
const WINDOW: i32 = 3 * DISC;
/// The deepest midgame prelude before an exact solve.
pub const PRELUDE: u32 = 8;
const CORNERS: u64 = 0x8100_0000_0000_0081;
/// Shallower root iterations stay on one thread (starting threads would cost more
/// than they save).
const PARALLEL_DEPTH: u32 = 5;
/// Exact nodes with fewer empties stay on one thread.
const SPLIT_EMPTIES: u32 = 12;

/// Square values for cheap ordering near the leaves (a1..h8).
const SQUARE_VALUE: [i32; 64] = {
    let quarter = [
        [20, -6, 4, 2],
        [-6, -12, -1, -1],
        [4, -1, 1, 0],
        [2, -1, 0, 0],
    ];
    let mut table = [0; 64];
    let mut square = 0;
    while square < 64 {
        let (row, column) = (square / 8, square % 8);
        let r = if row < 4 { row } else { 7 - row };
        let c = if column < 4 { column } else { 7 - column };
        table[square] = quarter[r][c];
        square += 1;
    }
    table
};

/// How the player searches, beyond the limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Transposition table size in MiB (the midgame table; the solver gets a quarter
    /// more).
    pub hash_mib: u32,
    /// At this many empties or fewer the root solves exactly.
    pub endgame_empties: u32,
    /// Search threads (1: the sequential search).
    pub threads: u32,
    /// The evaluation of the midgame search (the solver's move ordering always uses
    /// the learned patterns).
    pub evaluation: Evaluation,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mib: 16,
            endgame_empties: 20,
            threads: 1,
            evaluation: Evaluation::Pattern,
        }
    }
}

/// A score and how much it is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// The exact final disc difference with best play (O4).
    Exact(i32),
    /// An estimate of the final disc difference, in hundredths of a disc.
    Estimate(i32),
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Score::Exact(discs) => write!(f, "{discs:+}"),
            Score::Estimate(units) => {
                let sign = if units < 0 { '-' } else { '+' };
                let abs = units.unsigned_abs();
                write!(f, "~{sign}{}.{:02}", abs / 100, abs % 100)
            }
        }
    }
}

/// The outcome of one pass over the root moves.
struct Pass {
    /// The best score (fail-soft: a bound when it lies outside the window).
    score: i32,
    /// The move now first is not the incumbent (the best move before the pass) and
    /// is proven better than it: it scored above the window, or inside it after
    /// the incumbent's own search finished (a pass that failed low moves an
    /// upper bound first, which proves nothing).
    beats: bool,
}

/// One move of the root list with the score of its last search.
#[derive(Clone, Copy, Debug)]
pub struct RootMove {
    pub square: u32,
    pub next: Board,
    pub score: i32,
}

/// The search state of one `search` call.
pub struct Searcher<'a> {
    nodes: u64,
    aborted: bool,
    /// Nodes searched beside a longer share of another thread at split nodes (0 on
    /// one thread): `nodes − overlap` is the span, the nodes of the longest chain of
    /// work, which idle cores would take the time of at one thread's speed.
    overlap: u64,
    limits: Limits<'a>,
    countdown: u32,
    tt: Arc<Table>,
    end_tt: Arc<Table>,
    /// The solver's table of nodes near the leaves, made at its first exact solve.
    near: Option<Table>,
    /// One move list per remaining depth, reused by every node at that depth.
    lists: Vec<MoveList>,
    /// Threads at the root.
    threads: u32,
    evaluation: Evaluation,
    /// The compiled copy of the recursion that runs (see [`crate::cpu`]).
    isa: Isa,
}

/// What a node learns before it searches, from `hit` (its table entry, in search
/// units): the table's cut-off or the game's end, a forced pass, or its moves with
/// the table's move to try first.
#[inline]
fn enter(board: &Board, hit: Option<Hit>, depth: u32, alpha: i32, beta: i32) -> Entered {
    enter_with(board, hit, depth, alpha, beta, |b| b.moves())
}

/// [`enter`] with the move generator `moves_of` (a compiled copy passes its own).
#[inline(always)]
fn enter_with(
    board: &Board,
    hit: Option<Hit>,
    depth: u32,
    alpha: i32,
    beta: i32,
    moves_of: impl Fn(&Board) -> u64,
) -> Entered {
    let mut first = None;
    if let Some(hit) = hit {
        if hit.depth >= depth
            && let Some(score) = hit.cutoff(alpha, beta)
        {
            return Entered::Done(score);
        }
        first = hit.best;
    }
    let moves = moves_of(board);
    if moves != 0 {
        return Entered::Moves(moves, first);
    }
    let passed = board.passed();
    if moves_of(&passed) == 0 {
        Entered::Done(final_score(board) * DISC)
    } else {
        Entered::Pass(passed)
    }
}

/// See [`enter`].
enum Entered {
    /// The node's score (a table cut-off or the end of the game).
    Done(i32),
    /// The side to move must pass: the board after the pass.
    Pass(Board),
    /// The legal moves and the table's move.
    Moves(u64, Option<u32>),
}

impl<'a> Searcher<'a> {
    #[must_use]
    pub fn new(limits: Limits<'a>, settings: &Settings) -> Searcher<'a> {
        let memory = super::Memory::new(settings);
        Searcher::on_memory(limits, memory.tt, memory.end_tt, settings)
    }

    /// A searcher on tables kept across searches (see [`super::Memory`]): more than
    /// one thread only when they were made shared.
    #[must_use]
    pub fn on_memory(
        limits: Limits<'a>,
        tt: Arc<Table>,
        end_tt: Arc<Table>,
        settings: &Settings,
    ) -> Searcher<'a> {
        let mut searcher = Searcher::on_tables(limits, tt, end_tt, settings.threads);
        searcher.evaluation = settings.evaluation;
        searcher
    }

    /// A searcher on given tables (tests force collisions with tiny ones).
    #[must_use]
    pub fn with_tables(limits: Limits<'a>, tt: Table, end_tt: Table) -> Searcher<'a> {
        Searcher::on_tables(limits, Arc::new(tt), Arc::new(end_tt), 1)
    }

    /// The same fresh searcher with `threads` threads (at least 1); its tables
    /// are made shared for more than one.
    #[must_use]
    pub fn with_threads(self, threads: u32) -> Searcher<'a> {
        let evaluation = self.evaluation;
        let mut searcher = Searcher::on_tables(self.limits, self.tt, self.end_tt, threads);
        searcher.evaluation = evaluation;
        searcher
    }

    /// A searcher on `tt` and `end_tt` with `threads` threads: more than one only
    /// on tables that are shared or can be made so (not lent to another searcher).
    fn on_tables(
        limits: Limits<'a>,
        mut tt: Arc<Table>,
        mut end_tt: Arc<Table>,
        threads: u32,
    ) -> Searcher<'a> {
        let mut threads = threads.max(1);
        for table in [&mut tt, &mut end_tt] {
            if threads > 1 && table.access() == Access::Exclusive {
                match Arc::get_mut(table) {
                    Some(table) => table.share(),
                    None => threads = 1,
                }
            }
        }
        Searcher {
            nodes: 0,
            aborted: false,
            overlap: 0,
            limits,
            countdown: CHECK_EVERY,
            tt,
            end_tt,
            near: None,
            lists: Vec::new(),
            threads,
            evaluation: Evaluation::Hand,
            isa: Isa::detected(),
        }
    }

    /// The same searcher running the copy of the recursion for `isa` (for tests:
    /// it must be [`Isa::Portable`] or what [`Isa::detected`] returned).
    #[cfg(test)]
    fn on(self, isa: Isa) -> Searcher<'a> {
        Searcher { isa, ..self }
    }

    /// Positions visited so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The nodes of the longest chain of work across threads (`nodes` on one
    /// thread).
    #[must_use]
    pub fn span(&self) -> u64 {
        self.nodes - self.overlap
    }

    /// True once the limits stopped the search.
    #[must_use]
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// A one-thread searcher on the same tables, within `limits`.
    fn worker<'b>(&self, limits: Limits<'b>) -> Searcher<'b> {
        let mut worker =
            Searcher::on_tables(limits, Arc::clone(&self.tt), Arc::clone(&self.end_tt), 1);
        worker.evaluation = self.evaluation;
        worker
    }

    #[inline]
    fn tick(&mut self) -> bool {
        if self
            .limits
            .due_after(&mut self.countdown, CHECK_EVERY, self.nodes)
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The exact score of `board` in evaluation units, within (`alpha`, `beta`).
    fn exact(&mut self, board: &Board, alpha: i32, beta: i32) -> i32 {
        let low = alpha.div_euclid(DISC).clamp(-65, 64);
        let high = (beta + DISC - 1).div_euclid(DISC).clamp(-64, 65);
        let near = self.near.get_or_insert_with(super::endgame::near_table);
        let limits = self.limits.after_spending(self.nodes);
        let mut solver = Solver::with_near(&self.end_tt, near, limits);
        let score = solver.solve(board, low, high.max(low + 1));
        self.nodes += solver.nodes;
        if solver.aborted {
            self.aborted = true;
        }
        score * DISC
    }

    /// Principal-variation search of `board` to `depth` plies, fail-soft (the
    /// copy of the recursion for the detected instruction set).
    fn pvs(&mut self, board: &Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        dispatch!(self.isa, pvs(self, board, depth, alpha, beta))
    }

    /// Sorts the moves of `board` into the list of `depth`, best first, and returns
    /// their count (see the copies' `ordered`).
    fn ordered(&mut self, board: &Board, moves: u64, depth: u32, first: Option<u32>) -> usize {
        dispatch!(self.isa, ordered(self, board, moves, depth, first))
    }

    /// One pass at the root: every move searched to `depth` with window (`alpha`,
    /// `beta`); the list is re-sorted best first. Returns the best score and whether
    /// the move now first is proven better than `incumbent`, the best move so far
    /// (see [`Pass`]).
    fn root(
        &mut self,
        moves: &mut [RootMove],
        depth: u32,
        mut alpha: i32,
        beta: i32,
        incumbent: u32,
    ) -> Pass {
        if self.threads > 1 && depth >= PARALLEL_DEPTH && moves.len() > 1 {
            return self.split_root(moves, depth, alpha, beta, incumbent);
        }
        let window_alpha = alpha;
        let mut incumbent_searched = false;
        let mut best = -INFINITY;
        let mut best_index = 0;
        for (i, root_move) in moves.iter_mut().enumerate() {
            let next = root_move.next;
            let mut score = if i == 0 {
                -self.pvs(&next, depth - 1, -beta, -alpha)
            } else {
                -self.pvs(&next, depth - 1, -alpha - 1, -alpha)
            };
            if i > 0 && score > alpha && score < beta && !self.aborted {
                score = -self.pvs(&next, depth - 1, -beta, -score);
            }
            if self.aborted {
                break;
            }
            incumbent_searched |= root_move.square == incumbent;
            root_move.score = score;
            if score > best {
                best = score;
                best_index = i;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            } else {
                root_move.score = score.min(alpha) - 1;
            }
        }
        // Best first; the rest keep their order (a stable sort on the move's score
        // would trust null-window bounds too much).
        let chosen = moves[best_index];
        moves.copy_within(0..best_index, 1);
        moves[0] = chosen;
        Pass {
            score: best,
            beats: chosen.square != incumbent
                && best > window_alpha
                && (incumbent_searched || best >= beta),
        }
    }

    /// Iterative deepening over `depths`, with aspiration windows. Returns the best
    /// root move, its score and the last finished depth (None if none finished).
    pub fn iterate(
        &mut self,
        moves: &mut [RootMove],
        depths: impl Iterator<Item = u32>,
    ) -> Option<(u32, i32, u32)> {
        let mut result: Option<(u32, i32, u32)> = None;
        for depth in depths {
            let guess = result.map(|(_, score, _)| score);
            let (mut alpha, mut beta) = match guess {
                Some(score) if depth >= 4 => (score - WINDOW, score + WINDOW),
                _ => (-INFINITY, INFINITY),
            };
            // The best move so far, and the score that proved a new one better
            // in this iteration (a pass that failed high on it).
            let mut incumbent = moves[0].square;
            let mut proven: Option<i32> = None;
            loop {
                let Pass { score, beats } = self.root(moves, depth, alpha, beta, incumbent);
                if self.aborted {
                    // Only a move proven better than the best so far replaces it: a
                    // pass that failed low sorts its moves by upper bounds, which
                    // prove nothing.
                    if result.is_some() {
                        if beats {
                            result = Some((moves[0].square, moves[0].score, depth - 1));
                        } else if let Some(score) = proven {
                            result = Some((incumbent, score, depth - 1));
                        }
                    }
                    return result;
                }
                if score >= beta && beats {
                    incumbent = moves[0].square;
                    proven = Some(score);
                }
                if score <= alpha && alpha > -INFINITY {
                    alpha = (alpha - 4 * WINDOW).max(-INFINITY);
                    if score <= -INFINITY + 1 {
                        alpha = -INFINITY;
                    }
                } else if score >= beta && beta < INFINITY {
                    beta = (beta + 4 * WINDOW).min(INFINITY);
                } else {
                    result = Some((moves[0].square, score, depth));
                    break;
                }
            }
        }
        result
    }

    /// Scores of the `count` best root moves at `depth` (exact when `depth` reaches
    /// the end), best first; the others are skipped with a null-window test.
    pub fn best_moves(&mut self, moves: &[RootMove], depth: u32, count: usize) -> Vec<(u32, i32)> {
        let mut top: Vec<(u32, i32)> = Vec::new();
        for root_move in moves {
            let next = root_move.next;
            if top.len() >= count {
                let floor = top[count - 1].1;
                let score = -self.pvs(&next, depth - 1, -floor - 1, -floor);
                if self.aborted {
                    break;
                }
                if score <= floor {
                    continue;
                }
            }
            let score = -self.pvs(&next, depth - 1, -INFINITY, INFINITY);
            if self.aborted {
                break;
            }
            let at = top
                .iter()
                .position(|&(_, s)| s < score)
                .unwrap_or(top.len());
            top.insert(at, (root_move.square, score));
            top.truncate(count);
        }
        top
    }
}

/// The recursion of the midgame search, once per instruction set (`$feature`: the
/// attributes of the copy; see [`crate::cpu`]): the evaluation, move generation
/// and flips inline into each copy with its features. The copies search the same
/// tree.
macro_rules! search_functions {
    ($isa:ident $(#[$feature:meta])*) => {
        use crate::games::othello::bitboard::$isa::{flips, moves};

        /// The legal moves of `board` by this copy's generator.
        $(#[$feature])*
        #[inline]
        fn moves_of(board: &Board) -> u64 {
            moves(board.player, board.opponent)
        }

        /// Principal-variation search of `board` to `depth` plies, fail-soft.
        $(#[$feature])*
        pub(super) fn pvs(
            s: &mut Searcher<'_>,
            board: &Board,
            depth: u32,
            mut alpha: i32,
            beta: i32,
        ) -> i32 {
            let empties = board.empty().count_ones();
            if depth >= empties {
                return s.exact(board, alpha, beta);
            }
            s.nodes += 1;
            if s.tick() {
                return 0;
            }
            if depth == 0 {
                let (mine, theirs) = (moves_of(board), moves_of(&board.passed()));
                return s.evaluation.score_with(board, mine, theirs);
            }
            let hit = s.tt.probe(board);
            let (moves, first) = match enter_with(board, hit, depth, alpha, beta, |b| moves_of(b)) {
                Entered::Done(score) => return score,
                Entered::Pass(passed) => return -pvs(s, &passed, depth, -beta, -alpha),
                Entered::Moves(moves, first) => (moves, first),
            };
            let original_alpha = alpha;
            let count = ordered(s, board, moves, depth, first);
            let slot = depth as usize;
            let mut best = -INFINITY;
            let mut best_square = NO_MOVE;
            for i in 0..count {
                let Candidate { square, next, .. } = s.lists[slot][i];
                let mut score = if i == 0 {
                    -pvs(s, &next, depth - 1, -beta, -alpha)
                } else {
                    -pvs(s, &next, depth - 1, -alpha - 1, -alpha)
                };
                if i > 0 && score > alpha && score < beta {
                    score = -pvs(s, &next, depth - 1, -beta, -score);
                }
                if s.aborted {
                    return 0;
                }
                if score > best {
                    best = score;
                    best_square = square as u8;
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
            s.tt.store(board, depth, original_alpha, beta, best, best_square);
            best
        }

        /// Sorts the moves of `board` into the list of `depth`, best first, and
        /// returns their count: the table move, then by a shallow search (depth ≥ 6),
        /// the evaluation (depth ≥ 3) or fastest-first with square values.
        $(#[$feature])*
        pub(super) fn ordered(
            s: &mut Searcher<'_>,
            board: &Board,
            moves: u64,
            depth: u32,
            first: Option<u32>,
        ) -> usize {
            let slot = depth as usize;
            let mut count = 0;
            let mut rest = moves;
            while rest != 0 && count < 32 {
                let square = rest.trailing_zeros();
                rest &= rest - 1;
                let next = board.after(square, flips(board.player, board.opponent, square));
                // Lower keys first: keys are the opponent's view. The shallow
                // search uses the lists of smaller depths only.
                let key = if Some(square) == first {
                    i32::MIN
                } else if depth >= 6 {
                    pvs(s, &next, depth / 4, -INFINITY, INFINITY)
                } else if depth >= 3 {
                    let (mine, theirs) = (moves_of(&next), moves_of(&next.passed()));
                    evaluate_or_end_with(&next, s.evaluation, mine, theirs)
                } else {
                    let replies = moves_of(&next);
                    let mobility =
                    (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                    mobility * 16 - SQUARE_VALUE[square as usize]
                };
                // Equal keys keep the square order.
                insert(
                    list_at(&mut s.lists, slot),
                    count,
                    Candidate {
                        square,
                        next,
                        key,
                        replies: 0,
                    },
                );
                count += 1;
            }
            count
        }
    };
}
isa_copies!(search_functions);

/// The evaluation, or the exact score of a finished game.
fn evaluate_or_end(board: &Board, evaluation: Evaluation) -> i32 {
    evaluate_or_end_with(board, evaluation, board.moves(), board.passed().moves())
}

/// [`evaluate_or_end`] with the legal moves of the side to move (`mine`) and of
/// its opponent (`theirs`) given.
#[inline(always)]
fn evaluate_or_end_with(board: &Board, evaluation: Evaluation, mine: u64, theirs: u64) -> i32 {
    if mine == 0 && theirs == 0 {
        final_score(board) * DISC
    } else {
        evaluation.score_with(board, mine, theirs)
    }
}

/// The root moves of `board`, in the cheap order.
#[must_use]
pub fn root_moves(board: &Board) -> Vec<RootMove> {
    let mut rest = board.moves();
    let mut list = Vec::new();
    while rest != 0 {
        let square = rest.trailing_zeros();
        rest &= rest - 1;
        let next = board.after(
            square,
            crate::games::othello::bitboard::flips(board.player, board.opponent, square),
        );
        list.push(RootMove {
            square,
            next,
            score: -evaluate_or_end(&next, Evaluation::Hand),
        });
    }
    list.sort_by_key(|m| -m.score);
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::othello::signature;
    use crate::games::othello::bitboard::flips;

    /// A searcher whose tables keep almost nothing, so that what it finds at a depth
    /// is the same whatever it searched before.
    fn bare(limits: Limits<'_>) -> Searcher<'_> {
        Searcher::with_tables(limits, Table::with_buckets(1), Table::with_buckets(1))
    }

    /// The full-window score of the move to `square` searched to `depth` plies.
    fn score_of(board: &Board, square: u32, depth: u32) -> i32 {
        let next = board.after(square, flips(board.player, board.opponent, square));
        -bare(Limits::depth(depth)).pvs(&next, depth - 1, -INFINITY, INFINITY)
    }

    #[test]
    fn every_instruction_set_searches_the_same_tree() {
        // Midgame positions, and endgames the search hands to the solver part way.
        let boards = signature::positions(6)
            .iter()
            .chain(&signature::endgames(4, 11))
            .map(crate::games::othello::Position::board)
            .collect::<Vec<_>>();
        for board in boards {
            let mut results = Vec::new();
            for isa in Isa::available() {
                let (tt, end_tt) = (Table::with_buckets(1 << 12), Table::with_buckets(1 << 12));
                let mut searcher = Searcher::with_tables(Limits::depth(7), tt, end_tt).on(isa);
                searcher.evaluation = Evaluation::Pattern;
                let mut moves = root_moves(&board);
                let best = searcher.iterate(&mut moves, 1..=7);
                results.push((isa, (best, searcher.nodes)));
            }
            for (isa, result) in &results[1..] {
                assert_eq!(*result, results[0].1, "{isa:?} on {board:?}");
            }
        }
    }

    #[test]
    fn a_stopped_iteration_changes_the_move_only_for_one_proven_better() {
        // Node budgets stop iterations at many points, in first passes, in passes
        // that failed low or high and in their re-searches. The answer must be the
        // last finished iteration's move, or one at least as good at the depth
        // that was stopped.
        let mut changed = 0;
        for position in signature::positions(8) {
            let board = position.board();
            for budget in (1..=30).map(|k| 1500 * k) {
                let limits = Limits {
                    nodes: Some(budget),
                    ..Limits::depth(40)
                };
                let mut searcher = bare(limits);
                let mut moves = root_moves(&board);
                let Some((square, _, depth)) = searcher.iterate(&mut moves, 1..=40) else {
                    continue;
                };
                assert!(searcher.aborted, "the budget stops the search");
                let mut finished = root_moves(&board);
                let (kept, _, _) = bare(Limits::depth(depth))
                    .iterate(&mut finished, 1..=depth)
                    .expect("an unlimited search finishes");
                if square != kept {
                    changed += 1;
                    let (new, old) = (
                        score_of(&board, square, depth + 1),
                        score_of(&board, kept, depth + 1),
                    );
                    assert!(
                        new >= old,
                        "{position:?} budget {budget}: {square} ({new}) replaced {kept} ({old}) at depth {}",
                        depth + 1
                    );
                }
            }
        }
        assert!(changed > 0, "some stopped iteration found a better move");
    }
}
