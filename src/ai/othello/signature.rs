//! A fixed workload for benchmarks and the node-count signature: positions reached by
//! seeded random play, searched to a fixed depth with fixed settings. The total node
//! count changes only when the search changes (Stockfish's `bench` signature idea), so
//! a test pins it; see `tests/integration/othello_ai.rs` for how to update it.

use super::eval::Evaluation;
use super::search::{Searcher, Settings, root_moves};
use crate::ai::Limits;
use crate::games::othello::{Board, Position};
use crate::rng::Rng;

/// How many seeds the benchmark and the signature use.
pub const POSITIONS: u64 = 24;

/// The midgame positions of the workload: for seeds 1..=`count`, random play from the
/// start for 14 + 2·(seed mod 8) plies (skipping finished games).
#[must_use]
pub fn positions(count: u64) -> Vec<Position> {
    let mut list = Vec::new();
    for seed in 1..=count {
        let mut rng = Rng::new(seed);
        let mut position = Position::start();
        for _ in 0..14 + 2 * (seed % 8) {
            let moves = position.legal_moves();
            let Some(&mv) = rng.choose(&moves) else { break };
            let side = position.side_to_move();
            if position.play(side, mv).is_err() {
                break;
            }
        }
        if !position.is_over() && position.board().moves() != 0 {
            list.push(position);
        }
    }
    list
}

/// Endgame positions with `empties` empty squares, reached by seeded random play
/// (seeds 1..=`count`; games that end or must pass earlier are skipped).
#[must_use]
pub fn endgames(count: u64, empties: u32) -> Vec<Position> {
    let mut list = Vec::new();
    for seed in 1..=count {
        let mut rng = Rng::new(1000 + seed);
        let mut position = Position::start();
        while position.board().empty().count_ones() > empties && !position.is_over() {
            let moves = position.legal_moves();
            let Some(&mv) = rng.choose(&moves) else { break };
            let side = position.side_to_move();
            if position.play(side, mv).is_err() {
                break;
            }
        }
        if position.board().empty().count_ones() == empties && position.board().moves() != 0 {
            list.push(position);
        }
    }
    list
}

/// Nodes spent searching `board` to `depth` with a fresh 1 MiB table, one thread.
#[must_use]
pub fn nodes_at(board: &Board, depth: u32) -> u64 {
    work_with(board, depth, 1, Evaluation::Hand).0
}

/// Nodes spent searching `board` to `depth` with a fresh 1 MiB table on `threads`
/// threads, and the span (the nodes of the longest chain of work across threads):
/// counts that vary from run to run with more than one thread. The search uses
/// `evaluation`.
#[must_use]
pub fn work_with(board: &Board, depth: u32, threads: u32, evaluation: Evaluation) -> (u64, u64) {
    let settings = Settings {
        hash_mib: 1,
        endgame_empties: 0,
        threads,
        evaluation,
    };
    let mut searcher = Searcher::new(Limits::depth(depth), &settings);
    let mut moves = root_moves(board);
    if moves.is_empty() {
        return (0, 0);
    }
    let _ = searcher.iterate(&mut moves, 1..=depth);
    (searcher.nodes(), searcher.span())
}

/// The signature: total nodes over [`positions`]`(count)` at `depth`.
#[must_use]
pub fn signature(count: u64, depth: u32) -> u64 {
    positions(count)
        .iter()
        .map(|p| nodes_at(&p.board(), depth))
        .sum()
}
