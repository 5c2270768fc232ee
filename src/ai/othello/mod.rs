//! The Othello player: iterative-deepening alpha-beta over a small evaluation of
//! mobility, corners and dangerous squares, solving exactly near the end.
//!
//! Scores are side-relative (positive is good for the side to move). Finished games
//! score the final disc margin times [`WIN_SCALE`], so any real result outweighs every
//! heuristic value.

use crate::ai::Limits;
use crate::games::othello::{Board, Move, Position, Square, bitboard};

/// Multiplier that puts final results above every heuristic score.
const WIN_SCALE: i32 = 1000;
/// Above every reachable score.
const INFINITY: i32 = 1_000_000;
const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The X-squares (diagonal neighbours of the corners), each with its corner.
const X_SQUARES: [(u64, u64); 4] = [
    (1 << 9, 1 << 0),
    (1 << 14, 1 << 7),
    (1 << 49, 1 << 56),
    (1 << 54, 1 << 63),
];
/// With this many empty squares or fewer the search plays to the end.
const EXACT_EMPTIES: u32 = 10;

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move found (`Pass` when passing is forced).
    pub best: Move,
    /// Its side-relative score.
    pub score: i32,
    /// The deepest iteration that finished.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
}

/// The score of a finished game for the side to move, with O4's empties rule.
fn final_score(board: &Board) -> i32 {
    let mine = board.player.count_ones() as i32;
    let theirs = board.opponent.count_ones() as i32;
    let empty = 64 - mine - theirs;
    let diff = match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => mine - theirs + empty,
        std::cmp::Ordering::Less => mine - theirs - empty,
        std::cmp::Ordering::Equal => 0,
    };
    diff * WIN_SCALE
}

/// A heuristic value of `board` for the side to move.
fn evaluate(board: &Board) -> i32 {
    let my_moves = board.moves().count_ones() as i32;
    let their_moves = board.passed().moves().count_ones() as i32;
    let corners = (board.player & CORNERS).count_ones() as i32
        - (board.opponent & CORNERS).count_ones() as i32;
    let empty = board.empty();
    let mut x_squares = 0;
    for (x, corner) in X_SQUARES {
        if empty & corner != 0 {
            x_squares += i32::from(board.player & x != 0) - i32::from(board.opponent & x != 0);
        }
    }
    30 * corners - 12 * x_squares + 10 * (my_moves - their_moves)
}

struct Searcher<'a> {
    limits: Limits<'a>,
    nodes: u64,
    aborted: bool,
}

impl Searcher<'_> {
    fn out_of_time(&mut self) -> bool {
        if !self.aborted && self.nodes.is_multiple_of(1024) && self.limits.expired() {
            self.aborted = true;
        }
        self.aborted
    }

    /// Negamax alpha-beta to `depth` plies (to the end when `depth` reaches the
    /// number of empties).
    fn alphabeta(
        &mut self,
        board: Board,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let moves = board.moves();
        if moves == 0 {
            if passed {
                return final_score(&board);
            }
            return -self.alphabeta(board.passed(), depth, -beta, -alpha, true);
        }
        if depth == 0 {
            return evaluate(&board);
        }
        let mut best = -INFINITY;
        for square in ordered(moves) {
            let square = square.index();
            let flipped = bitboard::flips(board.player, board.opponent, square);
            let score = -self.alphabeta(
                board.after(square, flipped),
                depth - 1,
                -beta,
                -alpha,
                false,
            );
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
}

/// The moves of a set, corners first, X-squares last.
fn ordered(moves: u64) -> impl Iterator<Item = Square> {
    let x_squares = X_SQUARES.iter().fold(0, |acc, (x, _)| acc | x);
    let corners = moves & CORNERS;
    let bad = moves & x_squares;
    let rest = moves & !CORNERS & !x_squares;
    [corners, rest, bad].into_iter().flat_map(Square::all_in)
}

/// Searches `position` within `limits` and returns the best move found. Always a legal
/// move; `Pass` only when passing is forced; `None` only when the game is over.
#[must_use]
pub fn search(position: &Position, limits: Limits<'_>) -> Option<SearchResult> {
    let board = position.board();
    let moves = board.moves();
    if moves == 0 {
        return (board.passed().moves() != 0).then_some(SearchResult {
            best: Move::Pass,
            score: 0,
            depth: 0,
            nodes: 1,
        });
    }
    let empties = board.empty().count_ones();
    let max_depth = if empties <= EXACT_EMPTIES {
        empties
    } else {
        limits.depth.clamp(1, empties)
    };
    let mut searcher = Searcher {
        limits,
        nodes: 0,
        aborted: false,
    };
    let mut order: Vec<Square> = ordered(moves).collect();
    let mut result = SearchResult {
        best: Move::Place(order[0]),
        score: 0,
        depth: 0,
        nodes: 0,
    };
    for depth in 1..=max_depth {
        let (mut alpha, beta) = (-INFINITY, INFINITY);
        let mut best_this_depth: Option<(Square, i32)> = None;
        for &square in &order {
            let index = square.index();
            let flipped = bitboard::flips(board.player, board.opponent, index);
            let child = board.after(index, flipped);
            let score = -searcher.alphabeta(child, depth - 1, -beta, -alpha, false);
            if searcher.aborted {
                break;
            }
            if best_this_depth.is_none_or(|(_, best)| score > best) {
                best_this_depth = Some((square, score));
                alpha = alpha.max(score);
            }
        }
        if searcher.aborted {
            break;
        }
        if let Some((square, score)) = best_this_depth {
            result.best = Move::Place(square);
            result.score = score;
            result.depth = depth;
            // Search the best move first in the next iteration.
            order.retain(|&s| s != square);
            order.insert(0, square);
        }
    }
    result.nodes = searcher.nodes;
    Some(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Color;

    #[test]
    fn plays_only_legal_moves_through_a_whole_game() {
        let mut position = Position::start();
        while let Some(result) = search(&position, Limits::depth(3)) {
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
        assert_eq!(result.score, 64 * WIN_SCALE);
    }

    #[test]
    fn exact_near_the_end_finds_the_winning_margin() {
        // Two empties: the solver must return the exact final margin.
        let position = Position::from_notation(
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOOOOOX-- X",
        )
        .expect("valid");
        let result = search(&position, Limits::depth(1)).expect("a move");
        // Black plays g8 (flipping a line of O's back to X's) or h8; check against a
        // brute force over both orders.
        let mut best = -INFINITY;
        for mv in position.legal_moves() {
            let mut after = position;
            after.play(Color::Black, mv).expect("legal");
            best = best.max(brute(&after, Color::Black));
        }
        assert_eq!(result.score, best * WIN_SCALE);
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
}
