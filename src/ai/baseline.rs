//! Baseline players: fixed, simple anchors to measure stronger players against.
//!
//! - [`Player::Random`]: a uniformly random legal move (Othello), empty cell (Shell)
//!   or open cell (Battleship);
//! - [`Player::Greedy`]: the most discs flipped (Othello, ties at random), the simple
//!   one-turn player [`crate::ai::shell::greedy::pick`] (Shell), the hunter
//!   [`crate::ai::battleship::hunt`] (Battleship);
//! - [`Player::Simple`]: Othello's first search player, a fixed-depth alpha-beta
//!   ([`SIMPLE_DEPTH`] plies) over mobility, corners and X-squares, exact in the last
//!   [`SIMPLE_EXACT`] empties; the greedy player in the other games;
//! - [`Player::Windows`]: the deterministic threat-builder
//!   [`crate::ai::shell::windows::pick`] (Shell); the greedy player in the other games.
//!
//! Fleets are uniformly random for every player ([`crate::ai::battleship::random_fleet`]).
//! Each function answers `None` for [`Player::Default`] (the session's own player then
//! thinks) and when no move exists. Every choice draws only from the given [`Rng`], so
//! a baseline is reproducible from the `seed` option.

use std::fmt;

use crate::ai::othello::endgame::final_score;
use crate::games::Color;
use crate::games::battleship::{Cell as SeaCell, View};
use crate::games::othello::bitboard::flips;
use crate::games::othello::{Board, Move, Position as OthelloPosition, Square};
use crate::games::shell::{Cell as ShellCell, Position as ShellPosition};
use crate::rng::Rng;

/// Which player answers `genmove`: the engine's own, or a baseline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Player {
    /// The engine's own search.
    #[default]
    Default,
    /// Uniformly random legal moves.
    Random,
    /// One-move greed.
    Greedy,
    /// A plain fixed-depth search (Othello; greedy elsewhere).
    Simple,
    /// The deterministic threat-builder (Shell; greedy elsewhere).
    Windows,
}

impl Player {
    /// Every player, in the order the option lists them.
    pub const ALL: [Player; 5] = [
        Player::Default,
        Player::Random,
        Player::Greedy,
        Player::Simple,
        Player::Windows,
    ];

    /// The option's word for this player.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Player::Default => "default",
            Player::Random => "random",
            Player::Greedy => "greedy",
            Player::Simple => "simple",
            Player::Windows => "windows",
        }
    }

    /// The player named `name` (any case).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Player> {
        Player::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The baseline's Othello move for the side to move; `None` for the default player
/// or a finished game.
pub fn othello(position: &OthelloPosition, player: Player, rng: &mut Rng) -> Option<Move> {
    let moves = position.legal_moves();
    match player {
        Player::Default => None,
        Player::Random => rng.choose(&moves).copied(),
        Player::Greedy | Player::Windows => {
            let flips = |mv: &Move| position.check(*mv).map_or(0, u64::count_ones);
            let most = moves.iter().map(flips).max()?;
            let best: Vec<Move> = moves.into_iter().filter(|mv| flips(mv) == most).collect();
            rng.choose(&best).copied()
        }
        Player::Simple => simple(&position.board()),
    }
}

/// The simple player's search depth in plies.
pub const SIMPLE_DEPTH: u32 = 4;
/// With this many empties or fewer the simple player searches to the end.
pub const SIMPLE_EXACT: u32 = 10;
/// A disc of final margin outweighs any evaluation.
const SIMPLE_DISC: i32 = 10_000;
const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The X-squares (b2, g2, b7, g7), each with its corner.
const X_SQUARES: [(u64, u64); 4] = [
    (1 << 9, 1),
    (1 << 14, 1 << 7),
    (1 << 49, 1 << 56),
    (1 << 54, 1 << 63),
];

/// The simple player's evaluation for the side to move: mobility, corners, and
/// X-squares next to an empty corner as a liability.
fn simple_eval(board: &Board) -> i32 {
    let count = |set: u64| set.count_ones() as i32;
    let mobility = count(board.moves()) - count(board.passed().moves());
    let corners = count(board.player & CORNERS) - count(board.opponent & CORNERS);
    let empty = board.empty();
    let x_squares: i32 = X_SQUARES
        .iter()
        .filter(|(_, corner)| empty & corner != 0)
        .map(|(x, _)| count(board.player & x) - count(board.opponent & x))
        .sum();
    10 * mobility + 100 * corners - 50 * x_squares
}

/// Negamax alpha-beta to `depth` plies (a pass costs none), fail-hard; finished
/// games score their final margin.
fn simple_search(board: &Board, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let moves = board.moves();
    if moves == 0 {
        let passed = board.passed();
        if passed.moves() == 0 {
            return final_score(board) * SIMPLE_DISC;
        }
        return -simple_search(&passed, depth, -beta, -alpha);
    }
    if depth == 0 {
        return simple_eval(board);
    }
    for square in Square::all_in(moves) {
        let square = square.index();
        let next = board.after(square, flips(board.player, board.opponent, square));
        let score = -simple_search(&next, depth - 1, -beta, -alpha);
        if score >= beta {
            return beta;
        }
        alpha = alpha.max(score);
    }
    alpha
}

/// The simple player's move: the first of the best by [`simple_search`] to
/// [`SIMPLE_DEPTH`], or to the end with [`SIMPLE_EXACT`] empties or fewer.
fn simple(board: &Board) -> Option<Move> {
    let empties = board.empty().count_ones();
    let depth = if empties <= SIMPLE_EXACT {
        empties
    } else {
        SIMPLE_DEPTH
    };
    let mut best = None;
    let mut alpha = -65 * SIMPLE_DISC;
    for square in Square::all_in(board.moves()) {
        let index = square.index();
        let next = board.after(index, flips(board.player, board.opponent, index));
        let score = -simple_search(&next, depth - 1, -65 * SIMPLE_DISC, -alpha);
        if best.is_none() || score > alpha {
            alpha = score;
            best = Some(Move::Place(square));
        }
    }
    best
}

/// The baseline's secret Shell pick for `color`; `None` for the default player, a
/// finished game or a full board.
pub fn shell(
    position: &ShellPosition,
    color: Color,
    player: Player,
    rng: &mut Rng,
) -> Option<ShellCell> {
    if position.status().is_over() {
        return None;
    }
    match player {
        Player::Default => None,
        Player::Random => {
            let empty: Vec<ShellCell> = position.empty_cells().iter().collect();
            rng.choose(&empty).copied()
        }
        Player::Greedy | Player::Simple => crate::ai::shell::greedy::pick(position, color, rng),
        Player::Windows => crate::ai::shell::windows::pick(position, color),
    }
}

/// The baseline's Battleship shot at the sea seen in `view`; `None` for the default
/// player or when no cell is open.
pub fn battleship(view: &View, player: Player, rng: &mut Rng) -> Option<SeaCell> {
    match player {
        Player::Default => None,
        Player::Random => {
            let open: Vec<SeaCell> = view.open_cells().collect();
            rng.choose(&open).copied()
        }
        Player::Greedy | Player::Simple | Player::Windows => {
            crate::ai::battleship::parity_hunt(view, rng)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for player in Player::ALL {
            assert_eq!(Player::from_name(player.name()), Some(player));
        }
        assert_eq!(Player::from_name("GREEDY"), Some(Player::Greedy));
        assert_eq!(Player::from_name("best"), None);
    }

    #[test]
    fn greedy_othello_takes_the_most_flips() {
        // After d3 (black), white's moves c3, e3, c5 each flip one disc: all tie.
        let mut position = OthelloPosition::start();
        let d3 = Move::parse("d3").unwrap_or(Move::Pass);
        assert!(position.play(Color::Black, d3).is_ok());
        let mut rng = Rng::new(1);
        for _ in 0..20 {
            let mv = othello(&position, Player::Greedy, &mut rng);
            let flips = mv
                .and_then(|mv| position.check(mv).ok())
                .map(u64::count_ones);
            assert_eq!(flips, Some(1));
        }
        assert_eq!(othello(&position, Player::Default, &mut rng), None);
    }

    /// The exact score for the side to move, by the engine's solver (itself checked
    /// against a plain minimax).
    fn exact(board: &Board) -> i32 {
        let table = crate::ai::othello::tt::Table::with_buckets(1 << 10);
        crate::ai::othello::endgame::Solver::new(&table, crate::ai::Limits::depth(0))
            .solve(board, -64, 64)
    }

    #[test]
    fn simple_othello_plays_perfectly_in_the_last_empties() {
        let mut rng = Rng::new(3);
        let mut checked = 0;
        while checked < 20 {
            let mut position = OthelloPosition::start();
            while position.board().empty().count_ones() > 7 && !position.is_over() {
                let moves = position.legal_moves();
                let side = position.side_to_move();
                let mv = *rng.choose(&moves).unwrap_or(&Move::Pass);
                assert!(position.play(side, mv).is_ok());
            }
            let board = position.board();
            if position.is_over() || board.moves() == 0 {
                continue;
            }
            let Some(Move::Place(square)) = othello(&position, Player::Simple, &mut rng) else {
                panic!("a move for {}", position.to_notation());
            };
            let next = board.after(
                square.index(),
                flips(board.player, board.opponent, square.index()),
            );
            assert_eq!(-exact(&next), exact(&board), "{square} is a best move");
            checked += 1;
        }
    }

    #[test]
    fn simple_othello_takes_the_corner() {
        // Black to move: a1 flips b2, c3 and d4 (e5 is black); the corner outweighs
        // the mobility of every other move.
        let position = OthelloPosition::from_notation(
            "--------\
             -O------\
             --O-----\
             ---OO---\
             ---XX---\
             --------\
             --------\
             -------- X",
        )
        .expect("valid");
        let mv = othello(&position, Player::Simple, &mut Rng::new(1));
        assert_eq!(mv.map(|m| m.to_string()), Some("a1".to_string()));
    }

    #[test]
    fn windows_is_the_shell_threat_builder() {
        let position = ShellPosition::from_notation(
            "------------------------------------XX-O-------O--------------------------------- -",
        )
        .expect("valid");
        let mut rng = Rng::new(2);
        for color in Color::ALL {
            let cell = shell(&position, color, Player::Windows, &mut rng);
            assert_eq!(cell, crate::ai::shell::windows::pick(&position, color));
            assert!(cell.is_some_and(|c| position.is_empty(c)));
        }
        assert_eq!(Player::from_name("Windows"), Some(Player::Windows));
    }

    #[test]
    fn random_players_pick_legal_moves() {
        let mut rng = Rng::new(5);
        let position = OthelloPosition::start();
        for _ in 0..20 {
            let mv = othello(&position, Player::Random, &mut rng);
            assert!(mv.is_some_and(|mv| position.check(mv).is_ok()));
        }
        let shell_position = ShellPosition::new();
        let cell = shell(&shell_position, Color::Black, Player::Random, &mut rng);
        assert!(cell.is_some_and(|c| shell_position.is_empty(c)));
        let view = View::new();
        let shot = battleship(&view, Player::Random, &mut rng);
        assert!(shot.is_some_and(|c| view.is_open(c)));
    }
}
