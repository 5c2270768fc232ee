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
//! move of the unfinished one that already proved better.
//!
//! With `threads` > 1 the nodes of the principal line are split (young brothers
//! wait, on the principal line only): a node's first move is searched alone with
//! the full window (splitting its own first move in turn), then the threads take
//! the other moves one at a time from a shared counter and search them with a null
//! window on the best score so far, all through the same transposition tables. A
//! move that fails high calls the others off and is searched again with the full
//! window as the new principal line (split in turn); then the rest is shared out
//! again. One thread runs exactly the sequential search.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::endgame::{self, Solver};
use super::eval::{DISC, Evaluation};
use super::tt::{Access, Hit, NO_MOVE, Table};
use crate::ai::Limits;
use crate::games::othello::Board;
use crate::games::othello::bitboard::flips;

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
    pub nodes: u64,
    pub aborted: bool,
    /// Nodes searched beside a longer share of another thread at split nodes (0 on
    /// one thread): `nodes − overlap` is the span, the nodes of the longest chain of
    /// work, which idle cores would take the time of at one thread's speed.
    pub overlap: u64,
    limits: Limits<'a>,
    countdown: u32,
    tt: Arc<Table>,
    end_tt: Arc<Table>,
    /// One move list (key, square, board after) per remaining depth, reused by every
    /// node at that depth.
    lists: Vec<[(i32, u32, Board); 32]>,
    /// Threads at the root.
    threads: u32,
    evaluation: Evaluation,
}

/// What the threads of a round of a split node share: the children, the next one
/// to take, the null window and the flag that calls them off after a fail-high.
struct Split<'m> {
    children: &'m [Board],
    /// The indices of the children to search.
    pending: &'m [usize],
    depth: u32,
    alpha: i32,
    /// The next entry of `pending` to take.
    next: AtomicUsize,
    /// Raised when a child failed high.
    high: AtomicBool,
    /// Per thread: its stop flag (raised for all by a fail-high, for a helper when
    /// the search it helps ends), the child it searches and the thread it helps
    /// ([`IDLE`] when none).
    stops: Vec<AtomicBool>,
    working: Vec<AtomicUsize>,
    helping: Vec<AtomicUsize>,
}

/// No child, no thread: an entry of [`Split::working`] or [`Split::helping`].
const IDLE: usize = usize::MAX;

impl Split<'_> {
    /// Calls every thread off.
    fn stop_all(&self) {
        for stop in &self.stops {
            stop.store(true, Ordering::SeqCst);
        }
    }
}

/// What a node learns before it searches, from `hit` (its table entry, in search
/// units): the table's cut-off or the game's end, a forced pass, or its moves with
/// the table's move to try first.
#[inline]
fn enter(board: &Board, hit: Option<Hit>, depth: u32, alpha: i32, beta: i32) -> Entered {
    let mut first = None;
    if let Some(hit) = hit {
        if hit.depth >= depth
            && let Some(score) = hit.cutoff(alpha, beta)
        {
            return Entered::Done(score);
        }
        first = hit.best;
    }
    let moves = board.moves();
    if moves != 0 {
        return Entered::Moves(moves, first);
    }
    let passed = board.passed();
    if passed.moves() == 0 {
        Entered::Done(endgame::final_score(board) * DISC)
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

/// A child searched by a thread of a split node: its index, score and the alpha of
/// its null window.
#[derive(Clone, Copy)]
struct Searched {
    index: usize,
    score: i32,
    alpha: i32,
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
            lists: Vec::new(),
            threads,
            evaluation: Evaluation::Hand,
        }
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
        let mut solver = Solver::new(&self.end_tt, self.limits.after_spending(self.nodes));
        let score = solver.solve(board, low, high.max(low + 1));
        self.nodes += solver.nodes;
        if solver.aborted {
            self.aborted = true;
        }
        score * DISC
    }

    /// Principal-variation search of `board` to `depth` plies, fail-soft.
    pub fn pvs(&mut self, board: &Board, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        let empties = board.empty().count_ones();
        if depth >= empties {
            return self.exact(board, alpha, beta);
        }
        self.nodes += 1;
        if self.tick() {
            return 0;
        }
        if depth == 0 {
            return self.evaluation.score(board);
        }
        let (moves, first) = match enter(board, self.tt.probe(board), depth, alpha, beta) {
            Entered::Done(score) => return score,
            Entered::Pass(passed) => return -self.pvs(&passed, depth, -beta, -alpha),
            Entered::Moves(moves, first) => (moves, first),
        };
        let original_alpha = alpha;
        let count = self.ordered(board, moves, depth, first);
        let slot = depth as usize;
        let mut best = -INFINITY;
        let mut best_square = NO_MOVE;
        for i in 0..count {
            let (_, square, next) = self.lists[slot][i];
            let mut score = if i == 0 {
                -self.pvs(&next, depth - 1, -beta, -alpha)
            } else {
                -self.pvs(&next, depth - 1, -alpha - 1, -alpha)
            };
            if i > 0 && score > alpha && score < beta {
                score = -self.pvs(&next, depth - 1, -beta, -score);
            }
            if self.aborted {
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
        self.tt
            .store(board, depth, original_alpha, beta, best, best_square);
        best
    }

    /// Sorts the moves of `board` into the list of `depth`, best first, and returns
    /// their count: the table move, then by a shallow search (depth ≥ 6), the
    /// evaluation (depth ≥ 3) or fastest-first with square values.
    fn ordered(&mut self, board: &Board, moves: u64, depth: u32, first: Option<u32>) -> usize {
        let slot = depth as usize;
        if self.lists.len() <= slot {
            self.lists.resize(slot + 1, [(0, 0, *board); 32]);
        }
        let mut count = 0;
        let mut rest = moves;
        while rest != 0 && count < 32 {
            let square = rest.trailing_zeros();
            rest &= rest - 1;
            let next = board.after(square, flips(board.player, board.opponent, square));
            // Lower keys first: keys are the opponent's view. The shallow search
            // uses the lists of smaller depths only.
            let key = if Some(square) == first {
                i32::MIN
            } else if depth >= 6 {
                self.pvs(&next, depth / 4, -INFINITY, INFINITY)
            } else if depth >= 3 {
                evaluate_or_end(&next, self.evaluation)
            } else {
                let replies = next.moves();
                let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                mobility * 16 - SQUARE_VALUE[square as usize]
            };
            // Stable insertion sort: equal keys keep the square order.
            let list = &mut self.lists[slot];
            let mut i = count;
            while i > 0 && list[i - 1].0 > key {
                list[i] = list[i - 1];
                i -= 1;
            }
            list[i] = (key, square, next);
            count += 1;
        }
        count
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

    /// [`Searcher::root`] on `threads` threads: the first move by [`Self::split_pvs`],
    /// then the others shared out (see the module notes). The same contract: the
    /// best score, the list re-sorted best first, and after an interrupt only moves
    /// whose search finished count.
    fn split_root(
        &mut self,
        moves: &mut [RootMove],
        depth: u32,
        alpha: i32,
        beta: i32,
        incumbent: u32,
    ) -> Pass {
        let first = -self.split_pvs(&moves[0].next, depth - 1, -beta, -alpha);
        if self.aborted {
            return Pass {
                score: -INFINITY,
                beats: false,
            };
        }
        moves[0].score = first;
        if first >= beta {
            return Pass {
                score: first,
                beats: moves[0].square != incumbent,
            };
        }
        let children: Vec<Board> = moves.iter().map(|m| m.next).collect();
        let mut searched = self.search_rest(&children, depth - 1, alpha.max(first), beta);
        searched.push(Searched {
            index: 0,
            score: first,
            alpha,
        });
        // Moves that proved better than their window first, then the higher score,
        // then the earlier move.
        searched.sort_by_key(|s| s.index);
        let proven = |s: &Searched| s.index == 0 || s.score > s.alpha;
        let best = searched
            .iter()
            .copied()
            .reduce(|best, s| {
                if (proven(&s), s.score) > (proven(&best), best.score) {
                    s
                } else {
                    best
                }
            })
            .unwrap_or(searched[0]);
        for s in &searched {
            moves[s.index].score = if s.index == best.index {
                s.score
            } else {
                s.score.min(s.alpha) - 1
            };
        }
        let chosen = moves[best.index];
        let first_square = moves[0].square;
        moves.copy_within(0..best.index, 1);
        moves[0] = chosen;
        // Only a move that beat the first one's window moves ahead of it, so a
        // change of the first move is a proof when the first was the incumbent.
        Pass {
            score: best.score,
            beats: chosen.square != incumbent
                && proven(&best)
                && best.score > alpha
                && (first_square == incumbent || best.score >= beta),
        }
    }

    /// A node on the principal line of a parallel search (window wider than null):
    /// the first move searched alone (by this same function, so the split follows
    /// the line down), the others shared out. Shallow nodes and small endgames are
    /// left to [`Self::pvs`].
    fn split_pvs(&mut self, board: &Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        let empties = board.empty().count_ones();
        let exact = depth >= empties;
        let small = if exact {
            empties < SPLIT_EMPTIES
        } else {
            depth < PARALLEL_DEPTH
        };
        if small || beta - alpha <= 1 {
            return self.pvs(board, depth, alpha, beta);
        }
        self.nodes += 1;
        if self.tick() {
            return 0;
        }
        // Exact nodes read and write the solver's table (in discs).
        let hit = if exact {
            self.end_tt.probe(board).map(|hit| Hit {
                lower: hit.lower * DISC,
                upper: hit.upper * DISC,
                ..hit
            })
        } else {
            self.tt.probe(board)
        };
        let (moves, first) = match enter(board, hit, depth, alpha, beta) {
            Entered::Done(score) => return score,
            Entered::Pass(passed) => return -self.split_pvs(&passed, depth, -beta, -alpha),
            Entered::Moves(moves, first) => (moves, first),
        };
        let count = self.ordered(board, moves, depth, first);
        let (squares, children): (Vec<u32>, Vec<Board>) = self.lists[depth as usize][..count]
            .iter()
            .map(|&(_, square, next)| (square, next))
            .unzip();
        let mut best = -self.split_pvs(&children[0], depth - 1, -beta, -alpha);
        let mut best_square = squares[0];
        if self.aborted {
            return 0;
        }
        if best < beta && count > 1 {
            let mut searched = self.search_rest(&children, depth - 1, alpha.max(best), beta);
            if self.aborted {
                return 0;
            }
            searched.sort_by_key(|s| s.index);
            for s in searched {
                if s.score > best {
                    best = s.score;
                    best_square = squares[s.index];
                }
            }
        }
        if exact {
            let (low, high) = (alpha.div_euclid(DISC), (beta + DISC - 1).div_euclid(DISC));
            self.end_tt
                .store(board, empties, low, high, best / DISC, best_square as u8);
        } else {
            self.tt
                .store(board, depth, alpha, beta, best, best_square as u8);
        }
        best
    }

    /// The moves after the first of a split node: `children[1..]` searched to
    /// `depth` with null windows on `alpha` by every thread ([`Self::share_out`]).
    /// A move that fails high stops the round: this thread searches it again with
    /// the window (its bound, `beta`) by [`Self::split_pvs`], so the split follows
    /// the new principal line, raises `alpha` and shares out what is left. Returns
    /// every finished search (re-searched moves with their new score); stops at a
    /// score at or above `beta`, or when `aborted` is set.
    fn search_rest(
        &mut self,
        children: &[Board],
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> Vec<Searched> {
        let mut pending: Vec<usize> = (1..children.len()).collect();
        let mut results = Vec::new();
        while !pending.is_empty() {
            let done = self.share_out(children, &pending, depth, alpha);
            if self.aborted {
                break;
            }
            // The highest fail-high is searched again; other fail-highs wait for
            // the next round, with the raised alpha.
            let high = done
                .iter()
                .copied()
                .filter(|s| s.score > s.alpha && s.score < beta)
                .reduce(|a, b| if b.score > a.score { b } else { a });
            for s in done {
                if s.score <= s.alpha || s.score >= beta {
                    pending.retain(|&i| i != s.index);
                    results.push(s);
                }
            }
            if results.iter().any(|s| s.score >= beta) {
                break;
            }
            // Without a fail-high every pending move has finished.
            let Some(high) = high else { break };
            let score = -self.split_pvs(&children[high.index], depth, -beta, -high.score);
            if self.aborted {
                break;
            }
            pending.retain(|&i| i != high.index);
            results.push(Searched { score, ..high });
            alpha = alpha.max(score);
            if score >= beta {
                break;
            }
        }
        results
    }

    /// One round of [`Self::search_rest`]: the `pending` children taken one at a
    /// time by every thread, each searched to `depth` with a null window on `alpha`,
    /// until none is left or one fails high. Returns what finished; sets `aborted`
    /// when the limits ended the search (a fail-high only calls the threads off).
    fn share_out(
        &mut self,
        children: &[Board],
        pending: &[usize],
        depth: u32,
        alpha: i32,
    ) -> Vec<Searched> {
        let threads = self.threads as usize;
        let split = Split {
            children,
            pending,
            depth,
            alpha,
            next: AtomicUsize::new(0),
            high: AtomicBool::new(false),
            stops: (0..threads).map(|_| AtomicBool::new(false)).collect(),
            working: (0..threads).map(|_| AtomicUsize::new(IDLE)).collect(),
            helping: (0..threads).map(|_| AtomicUsize::new(IDLE)).collect(),
        };
        let base = self.limits;
        let limits = |me: usize| Limits {
            cancel: split.stops.get(me),
            ..base
        };
        let mut searched = Vec::new();
        let mut aborted = false;
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|me| {
                    let mut helper = self.worker(limits(me));
                    let split = &split;
                    scope.spawn(move || {
                        let done = helper.take_moves(split, me);
                        (done, helper.nodes, helper.aborted)
                    })
                })
                .collect();
            let mut main = self.worker(limits(0));
            searched.extend(main.take_moves(&split, 0));
            let (mut total, mut longest) = (main.nodes, main.nodes);
            aborted |= main.aborted;
            for helper in helpers {
                // A helper that panicked searched nothing that counts.
                let (done, nodes, stopped) = helper.join().unwrap_or_default();
                searched.extend(done);
                total += nodes;
                longest = longest.max(nodes);
                aborted |= stopped;
            }
            self.nodes += total;
            self.overlap += total - longest;
        });
        if aborted && !split.high.load(Ordering::SeqCst) {
            self.aborted = true;
        }
        searched
    }

    /// Thread `me`'s share of [`Self::share_out`]: children taken one at a time
    /// until none is left, one fails high (which calls everyone off), or the limits
    /// end the search; then it helps a thread still at work ([`Self::help`]).
    fn take_moves(&mut self, split: &Split<'_>, me: usize) -> Vec<Searched> {
        let mut done = Vec::new();
        let alpha = split.alpha;
        loop {
            let next = split.next.fetch_add(1, Ordering::Relaxed);
            let Some(&index) = split.pending.get(next) else {
                break;
            };
            split.working[me].store(index, Ordering::SeqCst);
            let score = -self.pvs(&split.children[index], split.depth, -alpha - 1, -alpha);
            split.working[me].store(IDLE, Ordering::SeqCst);
            for (helper, helped) in split.helping.iter().enumerate() {
                if helped.load(Ordering::SeqCst) == me {
                    split.stops[helper].store(true, Ordering::SeqCst);
                }
            }
            if self.aborted {
                return done;
            }
            done.push(Searched {
                index,
                score,
                alpha,
            });
            if score > alpha {
                split.high.store(true, Ordering::SeqCst);
                split.stop_all();
                return done;
            }
        }
        for owner in (0..split.working.len()).filter(|&o| o != me) {
            let index = split.working[owner].load(Ordering::SeqCst);
            if index == IDLE {
                continue;
            }
            // Registered first, then checked again: either this thread sees the
            // owner done, or the owner sees this thread and stops it when done.
            split.helping[me].store(owner, Ordering::SeqCst);
            if split.working[owner].load(Ordering::SeqCst) == index {
                self.help(&split.children[index], split.depth, -alpha - 1, -alpha);
            }
            split.helping[me].store(IDLE, Ordering::SeqCst);
            // Called off because the owner finished: only the limits count.
            self.aborted = self.limits.ended();
            break;
        }
        done
    }

    /// Helps another thread that searches `board` to `depth` with the window
    /// (`alpha`, `beta`). The owner most often refutes `board` with its first moves,
    /// each of whose replies must then all be searched: so this thread takes the
    /// moves of `board` first to last like the owner, and for each searches its
    /// replies last to first with the owner's windows, then the move itself, which
    /// the table then mostly answers. The owner, going first to last, finds what this
    /// thread finished in the shared tables. Its scores are not used; the owner's
    /// stop ends it.
    fn help(&mut self, board: &Board, depth: u32, alpha: i32, beta: i32) {
        let moves = board.moves();
        if depth < 2 || moves == 0 {
            return;
        }
        let count = self.ordered(board, moves, depth, None);
        let children: Vec<Board> = self.lists[depth as usize][..count]
            .iter()
            .map(|&(_, _, next)| next)
            .collect();
        for child in &children {
            // The child's window is (-beta, -alpha), its replies' (alpha, beta).
            let replies = child.moves();
            if replies != 0 {
                let count = self.ordered(child, replies, depth - 1, None);
                let replies: Vec<Board> = self.lists[depth as usize - 1][..count]
                    .iter()
                    .rev()
                    .map(|&(_, _, next)| next)
                    .collect();
                for reply in &replies {
                    let _ = self.pvs(reply, depth - 2, alpha, beta);
                    if self.aborted {
                        return;
                    }
                }
            }
            let _ = self.pvs(child, depth - 1, -beta, -alpha);
            if self.aborted {
                return;
            }
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

/// The evaluation, or the exact score of a finished game.
fn evaluate_or_end(board: &Board, evaluation: Evaluation) -> i32 {
    if board.moves() == 0 && board.passed().moves() == 0 {
        endgame::final_score(board) * DISC
    } else {
        evaluation.score(board)
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
        let next = board.after(square, flips(board.player, board.opponent, square));
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
