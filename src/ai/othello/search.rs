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
//! The clock and the stop flag are looked at every [`CHECK_EVERY`] nodes. After an
//! interrupt the root answers the best move of the last finished iteration, or a
//! move of the unfinished one that already proved better.

use super::endgame::{self, Solver};
use super::eval::{DISC, Evaluation};
use super::tt::{NO_MOVE, Table};
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
    /// The evaluation of the midgame search (the solver's move ordering always uses
    /// the hand-tuned one, which needs fewer nodes there).
    pub evaluation: Evaluation,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mib: 16,
            endgame_empties: 20,
            evaluation: Evaluation::Hand,
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
    limits: Limits<'a>,
    countdown: u32,
    tt: Table,
    end_tt: Table,
    evaluation: Evaluation,
    /// One move list (key, square, board after) per remaining depth, reused by every
    /// node at that depth.
    lists: Vec<[(i32, u32, Board); 32]>,
}

impl<'a> Searcher<'a> {
    #[must_use]
    pub fn new(limits: Limits<'a>, settings: &Settings) -> Searcher<'a> {
        Searcher {
            nodes: 0,
            aborted: false,
            limits,
            countdown: CHECK_EVERY,
            tt: Table::with_mib(settings.hash_mib),
            end_tt: Table::with_mib(settings.hash_mib.div_ceil(4)),
            evaluation: settings.evaluation,
            lists: Vec::new(),
        }
    }

    /// A searcher on given tables (tests force collisions with tiny ones).
    #[must_use]
    pub fn with_tables(limits: Limits<'a>, tt: Table, end_tt: Table) -> Searcher<'a> {
        Searcher {
            nodes: 0,
            aborted: false,
            limits,
            countdown: CHECK_EVERY,
            tt,
            end_tt,
            evaluation: Evaluation::Hand,
            lists: Vec::new(),
        }
    }

    #[inline]
    fn tick(&mut self) -> bool {
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = CHECK_EVERY;
            if self.limits.expired() {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The exact score of `board` in evaluation units, within (`alpha`, `beta`).
    fn exact(&mut self, board: &Board, alpha: i32, beta: i32) -> i32 {
        let low = alpha.div_euclid(DISC).clamp(-65, 64);
        let high = (beta + DISC - 1).div_euclid(DISC).clamp(-64, 65);
        let mut solver = Solver::new(&mut self.end_tt, self.limits);
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
        let mut first = None;
        if let Some(hit) = self.tt.probe(board) {
            if hit.depth >= depth
                && let Some(score) = hit.cutoff(alpha, beta)
            {
                return score;
            }
            first = hit.best;
        }
        let moves = board.moves();
        if moves == 0 {
            let passed = board.passed();
            if passed.moves() == 0 {
                return endgame::final_score(board) * DISC;
            }
            return -self.pvs(&passed, depth, -beta, -alpha);
        }
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

    /// One iteration at the root: every move searched to `depth` with window
    /// (`alpha`, `beta`); the list is re-sorted best first. Returns the best score
    /// and the index of the move that proved best before any interrupt.
    fn root(&mut self, moves: &mut [RootMove], depth: u32, mut alpha: i32, beta: i32) -> i32 {
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
        best
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
            let previous_best = moves[0].square;
            loop {
                let score = self.root(moves, depth, alpha, beta);
                if self.aborted {
                    // A move that beat the previous best in this iteration stands.
                    if moves[0].square != previous_best && result.is_some() {
                        result = Some((moves[0].square, moves[0].score, depth - 1));
                    }
                    return result;
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
