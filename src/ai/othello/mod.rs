//! The Othello player: iterative-deepening principal-variation search with a
//! transposition table over a learned pattern evaluation (or a hand-tuned one), and
//! an exact endgame solver that takes over at a configurable number of empties.
//!
//! - [`mod@search`]: the midgame tree search and the root loop;
//! - [`endgame`]: the exact solver (fastest-first, parity, stability, last empties);
//! - [`eval`]: the evaluations (hundredths of a disc, side-relative);
//! - [`pattern`]: the pattern evaluation and its weights file, [`train`] what learns
//!   them;
//! - `ordering`: the sorted move lists the search and the solver share;
//! - [`tt`]: the transposition table;
//! - [`signature`]: the node-count signature of the midgame search.
//!
//! The entry points here take a [`Position`] and [`Limits`] and return moves with a
//! [`Score`]: [`fn@search`] for `genmove`, [`solve`] for the exact result, [`hint`] for
//! the N best moves. Each always answers a legal move when one exists, also when the
//! limits cut it short.

pub mod analysis;
pub mod endgame;
pub mod eval;
mod ordering;
pub mod pattern;
pub mod search;
pub mod signature;
pub mod train;
pub mod tt;

pub use search::{Score, Settings};

use std::sync::Arc;

use crate::ai::Limits;
use crate::games::othello::{Move, Position, Square};
use eval::{DISC, Evaluation};
use search::{PRELUDE, RootMove, Searcher, root_moves};
use tt::Table;

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move found (`Pass` when passing is forced).
    pub best: Move,
    /// Its score for the side to move.
    pub score: Score,
    /// The deepest iteration that finished (the number of empties when exact).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The nodes of the longest chain of work across threads (`nodes` on one
    /// thread): what the search takes the time of on idle cores.
    pub span: u64,
}

fn place(square: u32) -> Move {
    Square::new(square).map_or(Move::Pass, Move::Place)
}

fn score_at(score: i32, depth: u32, empties: u32) -> Score {
    if depth >= empties {
        Score::Exact(score / DISC)
    } else {
        Score::Estimate(score)
    }
}

/// The iterations a search runs: midgame depths up to the limit, and with
/// `endgame_empties` or fewer empties a short prelude, then the exact solve.
fn depths(empties: u32, limits: &Limits<'_>, settings: &Settings) -> Vec<u32> {
    if empties <= settings.endgame_empties {
        let prelude = limits.depth.min(PRELUDE).min(empties.saturating_sub(1));
        (1..=prelude).chain(std::iter::once(empties)).collect()
    } else {
        (1..=limits.depth.clamp(1, empties)).collect()
    }
}

/// The transposition tables of the player, kept from search to search so that no
/// move pays for building them: made when the engine starts or its options change
/// ([`Memory::new`]), aged by each new search (entries of older searches are
/// replaced first, and stay usable until then: a bound on a board holds whatever
/// the root it was found under).
pub struct Memory {
    tt: Arc<Table>,
    end_tt: Arc<Table>,
    /// The settings the tables were made for: size, sharing and evaluation.
    made_for: (u32, bool, Evaluation),
}

impl Memory {
    /// Tables for `settings`: `hash_mib` for the midgame, a quarter more for the
    /// solver, shared between threads when there are several.
    #[must_use]
    pub fn new(settings: &Settings) -> Memory {
        let (mib, end_mib) = (settings.hash_mib, settings.hash_mib.div_ceil(4));
        let (tt, end_tt) = if settings.threads > 1 {
            (Table::shared_with_mib(mib), Table::shared_with_mib(end_mib))
        } else {
            (Table::with_mib(mib), Table::with_mib(end_mib))
        };
        Memory {
            tt: Arc::new(tt),
            end_tt: Arc::new(end_tt),
            made_for: Memory::key(settings),
        }
    }

    /// The bytes the tables of `settings` take.
    #[must_use]
    pub fn bytes_for(settings: &Settings) -> u64 {
        let (mib, end_mib) = (settings.hash_mib, settings.hash_mib.div_ceil(4));
        Table::bytes_for_mib(mib) + Table::bytes_for_mib(end_mib)
    }

    fn key(settings: &Settings) -> (u32, bool, Evaluation) {
        (settings.hash_mib, settings.threads > 1, settings.evaluation)
    }

    /// True when the tables serve `settings` as they are (another evaluation's
    /// scores, another size or sharing need new tables).
    #[must_use]
    pub fn suits(&self, settings: &Settings) -> bool {
        self.made_for == Memory::key(settings)
    }

    /// A searcher on these tables for a new search (tables that do not suit
    /// `settings` are made anew first, which only happens when the caller did not
    /// prepare them).
    fn searcher<'a>(&mut self, limits: Limits<'a>, settings: &Settings) -> Searcher<'a> {
        if !self.suits(settings) {
            *self = Memory::new(settings);
        }
        for table in [&mut self.tt, &mut self.end_tt] {
            if let Some(table) = Arc::get_mut(table) {
                table.new_search();
            }
        }
        Searcher::on_memory(
            limits,
            Arc::clone(&self.tt),
            Arc::clone(&self.end_tt),
            settings,
        )
    }
}

/// A finished search: the searcher (with its tables), the root moves best first and
/// the result of the last finished iteration.
struct Run<'a> {
    searcher: Searcher<'a>,
    moves: Vec<RootMove>,
    found: Option<(u32, i32, u32)>,
}

fn run<'a>(
    position: &Position,
    limits: Limits<'a>,
    settings: &Settings,
    memory: &mut Memory,
) -> Run<'a> {
    let board = position.board();
    let empties = board.empty().count_ones();
    let mut searcher = memory.searcher(limits, settings);
    let mut moves = root_moves(&board);
    let found = searcher.iterate(&mut moves, depths(empties, &limits, settings).into_iter());
    Run {
        searcher,
        moves,
        found,
    }
}

/// The forced answer when the side to move has no move: `Pass`, or `None` when the
/// game is over.
fn forced(position: &Position) -> Option<Option<SearchResult>> {
    let board = position.board();
    if board.moves() != 0 {
        return None;
    }
    Some((board.passed().moves() != 0).then_some(SearchResult {
        best: Move::Pass,
        score: Score::Estimate(0),
        depth: 0,
        nodes: 1,
        span: 1,
    }))
}

/// When the side to move must pass (and the game goes on): the pass, scored by a
/// search of the position after it.
fn after_pass(
    position: &Position,
    limits: Limits<'_>,
    settings: &Settings,
    memory: &mut Memory,
) -> Option<SearchResult> {
    let board = position.board();
    if board.moves() != 0 || board.passed().moves() == 0 {
        return None;
    }
    let passed = Position::from_board(board.passed(), position.side_to_move().opponent());
    let after = search_in(&passed, limits, settings, memory)?;
    let score = match after.score {
        Score::Exact(s) => Score::Exact(-s),
        Score::Estimate(s) => Score::Estimate(-s),
    };
    Some(SearchResult {
        best: Move::Pass,
        score,
        ..after
    })
}

/// Searches `position` within `limits` with default settings.
#[must_use]
pub fn search(position: &Position, limits: Limits<'_>) -> Option<SearchResult> {
    search_with(position, limits, &Settings::default())
}

/// Searches `position` within `limits` on fresh tables (see [`search_in`]).
#[must_use]
pub fn search_with(
    position: &Position,
    limits: Limits<'_>,
    settings: &Settings,
) -> Option<SearchResult> {
    search_in(position, limits, settings, &mut Memory::new(settings))
}

/// Searches `position` within `limits` on the tables of `memory` and returns the
/// best move found. Always a legal move; `Pass` only when passing is forced; `None`
/// only when the game is over.
#[must_use]
pub fn search_in(
    position: &Position,
    limits: Limits<'_>,
    settings: &Settings,
    memory: &mut Memory,
) -> Option<SearchResult> {
    if let Some(answer) = forced(position) {
        return answer;
    }
    let empties = position.board().empty().count_ones();
    let Run {
        searcher,
        moves,
        found,
    } = run(position, limits, settings, memory);
    let (square, score, depth) = found.unwrap_or((moves[0].square, moves[0].score, 0));
    Some(SearchResult {
        best: place(square),
        score: score_at(score, depth, empties),
        depth,
        nodes: searcher.nodes(),
        span: searcher.span(),
    })
}

/// The exact best move and final disc difference of `position` (a pass is answered
/// with the score after it). Cut short by `limits`, it answers the best move so far
/// with an estimated score. `None` when the game is over.
#[must_use]
pub fn solve(position: &Position, limits: Limits<'_>, settings: &Settings) -> Option<SearchResult> {
    solve_in(position, limits, settings, &mut Memory::new(settings))
}

/// [`solve`] on the tables of `memory`.
#[must_use]
pub fn solve_in(
    position: &Position,
    limits: Limits<'_>,
    settings: &Settings,
    memory: &mut Memory,
) -> Option<SearchResult> {
    let exact = Settings {
        endgame_empties: 64,
        ..*settings
    };
    if let Some(answer) = after_pass(position, limits, &exact, memory) {
        return Some(answer);
    }
    search_in(position, limits, &exact, memory)
}

/// The `count` best moves of `position` with their scores, best first: searched to
/// the depth limit, or exactly with `endgame_empties` or fewer empties. Cut short by
/// `limits`, it answers what it has (at least the best move so far). Empty when the
/// game is over; only `pass` (scored after it) when passing is forced.
#[must_use]
pub fn hint(
    position: &Position,
    limits: Limits<'_>,
    settings: &Settings,
    count: usize,
) -> Vec<(Move, Score)> {
    hint_in(
        position,
        limits,
        settings,
        count,
        &mut Memory::new(settings),
    )
}

/// [`hint`] on the tables of `memory`.
#[must_use]
pub fn hint_in(
    position: &Position,
    limits: Limits<'_>,
    settings: &Settings,
    count: usize,
    memory: &mut Memory,
) -> Vec<(Move, Score)> {
    if let Some(answer) = after_pass(position, limits, settings, memory) {
        return vec![(answer.best, answer.score)];
    }
    if let Some(answer) = forced(position) {
        return answer.map(|r| (r.best, r.score)).into_iter().collect();
    }
    let empties = position.board().empty().count_ones();
    let Run {
        mut searcher,
        moves,
        found,
    } = run(position, limits, settings, memory);
    let Some((best, score, depth)) = found else {
        return vec![(place(moves[0].square), Score::Estimate(moves[0].score))];
    };
    let top = searcher.best_moves(&moves, depth, count.max(1));
    if top.is_empty() || top[0].0 != best && searcher.aborted() {
        return vec![(place(best), score_at(score, depth, empties))];
    }
    top.into_iter()
        .map(|(square, score)| (place(square), score_at(score, depth, empties)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Color;

    #[test]
    fn plays_only_legal_moves_through_a_whole_game() {
        let mut position = Position::start();
        let settings = Settings {
            hash_mib: 1,
            endgame_empties: 12,
            threads: 1,
            ..Settings::default()
        };
        while let Some(result) = search_with(&position, Limits::depth(3), &settings) {
            let legal = position.legal_moves();
            assert!(
                legal.contains(&result.best),
                "{} not in {legal:?}",
                result.best
            );
            let side = position.side_to_move();
            position.play(side, result.best).expect("legal");
        }
        assert!(position.is_over());
    }

    #[test]
    fn finds_the_only_wipe_out() {
        // Black e4 d5 e5, white c4 d4: b4 flips both white discs and ends the game
        // 5:0 with 59 empties (O4: 64:0); every other move leaves white a disc.
        let mut cells = vec!['-'; 64];
        for (index, ch) in [(26, 'O'), (27, 'O'), (28, 'X'), (35, 'X'), (36, 'X')] {
            cells[index] = ch;
        }
        let text: String = cells.into_iter().collect::<String>() + " X";
        let position = Position::from_notation(&text).expect("valid");
        let result = search(&position, Limits::depth(3)).expect("a move");
        assert_eq!(result.best.to_string(), "b4");
        assert_eq!(result.score, Score::Estimate(64 * DISC));
    }

    #[test]
    fn exact_near_the_end_finds_the_winning_margin() {
        let position = Position::from_notation(
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOOOOOX-- X",
        )
        .expect("valid");
        let result = search(&position, Limits::depth(1)).expect("a move");
        let mut best = -64;
        for mv in position.legal_moves() {
            let mut after = position;
            after.play(Color::Black, mv).expect("legal");
            best = best.max(brute(&after, Color::Black));
        }
        assert_eq!(result.score, Score::Exact(best));
        let hints = hint(&position, Limits::depth(1), &Settings::default(), 5);
        assert_eq!(hints[0].1, Score::Exact(best));
    }

    /// Plain minimax over the rules, from `me`'s point of view, in discs.
    fn brute(position: &Position, me: Color) -> i32 {
        if position.is_over() {
            let margin = position.final_margin();
            return if me == Color::Black { margin } else { -margin };
        }
        let side = position.side_to_move();
        let scores = position.legal_moves().into_iter().map(|mv| {
            let mut after = *position;
            after.play(side, mv).expect("legal");
            brute(&after, me)
        });
        if side == me {
            scores.max().unwrap_or(0)
        } else {
            scores.min().unwrap_or(0)
        }
    }

    #[test]
    fn hint_scores_every_move_exactly_in_a_small_endgame() {
        let mut rng = crate::rng::Rng::new(9);
        for _ in 0..10 {
            let mut position = Position::start();
            while position.board().empty().count_ones() > 9 && !position.is_over() {
                let moves = position.legal_moves();
                let mv = *rng.choose(&moves).expect("a move");
                let side = position.side_to_move();
                position.play(side, mv).expect("legal");
            }
            if position.is_over() || position.board().moves() == 0 {
                continue;
            }
            let me = position.side_to_move();
            let mut expected: Vec<i32> = position
                .legal_moves()
                .into_iter()
                .map(|mv| {
                    let mut after = position;
                    after.play(me, mv).expect("legal");
                    brute(&after, me)
                })
                .collect();
            expected.sort_unstable_by(|a, b| b.cmp(a));
            let hints = hint(&position, Limits::depth(4), &Settings::default(), 64);
            let got: Vec<i32> = hints
                .iter()
                .map(|(_, s)| match s {
                    Score::Exact(d) => *d,
                    Score::Estimate(_) => panic!("not exact"),
                })
                .collect();
            assert_eq!(got, expected);
            for (mv, score) in hints {
                let mut after = position;
                after.play(me, mv).expect("legal");
                assert_eq!(Score::Exact(brute(&after, me)), score);
            }
        }
    }
}
