//! Baseline players: fixed, simple anchors to measure stronger players against.
//!
//! - [`Baseline::Random`]: a uniformly random legal move (Othello), empty cell (Shell)
//!   or open cell (Battleship);
//! - [`Baseline::Greedy`]: the most discs flipped (Othello, ties at random), the simple
//!   one-turn player [`crate::ai::shell::greedy::pick`] (Shell), the parity hunter
//!   [`crate::ai::battleship::parity_hunt`] (Battleship);
//! - [`Baseline::Simple`]: Othello's first search player, a fixed-depth alpha-beta
//!   ([`SIMPLE_DEPTH`] plies) over mobility, corners and X-squares, exact in the last
//!   [`SIMPLE_EXACT`] empties; the greedy player in the other games;
//! - [`Baseline::Windows`]: the threat-builders, a family of one-ply players
//!   [`crate::ai::shell::windows::FAMILY`] (Shell: `windows`, `windows1` …
//!   `windows7`); the greedy player in the other games;
//! - [`Baseline::Tactician`]: the sequential tactician
//!   [`crate::ai::shell::tactician::pick`] (Shell); the greedy player in the other games.
//!
//! Fleets are uniformly random for every player ([`crate::ai::battleship::random_fleet`]).
//! Each function answers `None` only when no move exists. Every choice draws only from
//! the given [`Rng`], so a baseline is reproducible from the `seed` option.

use std::fmt;

use crate::ai::Limits;
use crate::games::Color;
use crate::games::battleship::{Cell as SeaCell, View};
use crate::games::othello::bitboard::flips;
use crate::games::othello::properties::final_score;
use crate::games::othello::{Board, Move, Position as OthelloPosition, Square};
use crate::games::shell::{Cell as ShellCell, Position as ShellPosition};
use crate::rng::Rng;

/// Which player answers `genmove`: the engine's own search, or a named baseline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Player {
    /// The engine's own search (the option's `default`).
    #[default]
    Search,
    /// A fixed, simple player.
    Baseline(Baseline),
}

/// The baseline players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Baseline {
    /// Uniformly random legal moves.
    Random,
    /// One-move greed.
    Greedy,
    /// A plain fixed-depth search (Othello; greedy elsewhere).
    Simple,
    /// A threat-builder, by its index in [`crate::ai::shell::windows::FAMILY`]
    /// (Shell; greedy elsewhere).
    Windows(u8),
    /// The sequential tactician (Shell; greedy elsewhere).
    Tactician,
}

impl Baseline {
    /// The option's word for this baseline.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Baseline::Random => "random",
            Baseline::Greedy => "greedy",
            Baseline::Simple => "simple",
            Baseline::Windows(member) => crate::ai::shell::windows::FAMILY
                .get(usize::from(member))
                .map_or("windows", |style| style.name),
            Baseline::Tactician => "tactician",
        }
    }
}

impl Player {
    /// Every player, in the order the option lists them.
    pub const ALL: [Player; 13] = [
        Player::Search,
        Player::Baseline(Baseline::Random),
        Player::Baseline(Baseline::Greedy),
        Player::Baseline(Baseline::Simple),
        Player::Baseline(Baseline::Windows(0)),
        Player::Baseline(Baseline::Windows(1)),
        Player::Baseline(Baseline::Windows(2)),
        Player::Baseline(Baseline::Windows(3)),
        Player::Baseline(Baseline::Windows(4)),
        Player::Baseline(Baseline::Windows(5)),
        Player::Baseline(Baseline::Windows(6)),
        Player::Baseline(Baseline::Windows(7)),
        Player::Baseline(Baseline::Tactician),
    ];

    /// The option's word for this player: `default` for the search, else the
    /// baseline's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Player::Search => "default",
            Player::Baseline(baseline) => baseline.name(),
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

/// The baseline's Othello move for the side to move (a pass when it must pass);
/// `None` for a finished game.
pub fn othello(position: &OthelloPosition, baseline: Baseline, rng: &mut Rng) -> Option<Move> {
    let moves = position.legal_moves();
    match baseline {
        Baseline::Random => rng.choose(&moves).copied(),
        Baseline::Greedy | Baseline::Windows(_) | Baseline::Tactician => {
            let flips = |mv: &Move| position.check(*mv).map_or(0, u64::count_ones);
            let most = moves.iter().map(flips).max()?;
            let best: Vec<Move> = moves.into_iter().filter(|mv| flips(mv) == most).collect();
            rng.choose(&best).copied()
        }
        Baseline::Simple => simple(&position.board()).or_else(|| moves.first().copied()),
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

/// The baseline's secret Shell pick for `color`; `None` for a finished game or a full
/// board. Only the tactician searches long enough to need `limits` (the move's clock).
pub fn shell(
    position: &ShellPosition,
    color: Color,
    baseline: Baseline,
    rng: &mut Rng,
    limits: &Limits<'_>,
) -> Option<ShellCell> {
    if position.status().is_over() {
        return None;
    }
    match baseline {
        Baseline::Random => {
            let empty: Vec<ShellCell> = position.empty_cells().iter().collect();
            rng.choose(&empty).copied()
        }
        Baseline::Greedy | Baseline::Simple => crate::ai::shell::greedy::pick(position, color, rng),
        Baseline::Windows(member) => {
            let family = &crate::ai::shell::windows::FAMILY;
            let style = family.get(usize::from(member)).unwrap_or(&family[0]);
            crate::ai::shell::windows::pick_styled(position, color, style, rng)
        }
        Baseline::Tactician => crate::ai::shell::tactician::pick_within(position, color, limits),
    }
}

/// The baseline's Battleship shot at the sea seen in `view`; `None` when no cell is
/// open.
pub fn battleship(view: &View, baseline: Baseline, rng: &mut Rng) -> Option<SeaCell> {
    match baseline {
        Baseline::Random => {
            let open: Vec<SeaCell> = view.open_cells().collect();
            rng.choose(&open).copied()
        }
        Baseline::Greedy | Baseline::Simple | Baseline::Windows(_) | Baseline::Tactician => {
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
        assert_eq!(
            Player::from_name("GREEDY"),
            Some(Player::Baseline(Baseline::Greedy))
        );
        assert_eq!(Player::from_name("default"), Some(Player::Search));
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
            let mv = othello(&position, Baseline::Greedy, &mut rng);
            let flips = mv
                .and_then(|mv| position.check(mv).ok())
                .map(u64::count_ones);
            assert_eq!(flips, Some(1));
        }
    }

    /// The exact score for the side to move, by the engine's solver (itself checked
    /// against a plain minimax).
    fn exact(board: &Board) -> i32 {
        let table = crate::ai::othello::tt::Table::with_buckets(1 << 10);
        crate::ai::othello::endgame::Solver::new(&table, crate::ai::Limits::depth(0))
            .solve(board, -64, 64)
    }

    /// Plays a uniformly random legal move for the side to move.
    fn play_random(position: &mut OthelloPosition, rng: &mut Rng) {
        let moves = position.legal_moves();
        let side = position.side_to_move();
        let mv = *rng.choose(&moves).unwrap_or(&Move::Pass);
        assert!(position.play(side, mv).is_ok());
    }

    #[test]
    fn simple_othello_plays_perfectly_in_the_last_empties() {
        let mut rng = Rng::new(3);
        let mut checked = 0;
        while checked < 20 {
            let mut position = OthelloPosition::start();
            while position.board().empty().count_ones() > 7 && !position.is_over() {
                play_random(&mut position, &mut rng);
            }
            let board = position.board();
            if position.is_over() || board.moves() == 0 {
                continue;
            }
            let Some(Move::Place(square)) = othello(&position, Baseline::Simple, &mut rng) else {
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
    fn every_othello_baseline_passes_when_it_must() {
        let mut rng = Rng::new(11);
        let mut found = 0;
        while found < 3 {
            let mut position = OthelloPosition::start();
            while !position.is_over() {
                if position.legal_moves() == [Move::Pass] {
                    for baseline in [Baseline::Random, Baseline::Greedy, Baseline::Simple] {
                        let mv = othello(&position, baseline, &mut rng);
                        assert_eq!(mv, Some(Move::Pass), "{}", position.to_notation());
                    }
                    found += 1;
                }
                play_random(&mut position, &mut rng);
            }
            assert_eq!(othello(&position, Baseline::Random, &mut rng), None);
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
        let mv = othello(&position, Baseline::Simple, &mut Rng::new(1));
        assert_eq!(mv.map(|m| m.to_string()), Some("a1".to_string()));
    }

    #[test]
    fn every_threat_builder_has_its_name() {
        let family = &crate::ai::shell::windows::FAMILY;
        for (member, style) in family.iter().enumerate() {
            let player = Player::from_name(&style.name.to_uppercase());
            assert_eq!(
                player,
                Some(Player::Baseline(Baseline::Windows(member as u8)))
            );
            assert_eq!(player.map(Player::name), Some(style.name));
        }
        let listed = Player::ALL
            .iter()
            .filter(|p| matches!(p, Player::Baseline(Baseline::Windows(_))))
            .count();
        assert_eq!(listed, family.len());
    }

    #[test]
    fn windows_is_the_shell_threat_builder() {
        let position = ShellPosition::from_notation(
            "------------------------------------XX-O-------O--------------------------------- -",
        )
        .expect("valid");
        let mut rng = Rng::new(2);
        for color in Color::ALL {
            let cell = shell(
                &position,
                color,
                Baseline::Windows(0),
                &mut rng,
                &Limits::depth(0),
            );
            assert_eq!(cell, crate::ai::shell::windows::pick(&position, color));
            assert!(cell.is_some_and(|c| position.is_empty(c)));
        }
        assert_eq!(
            Player::from_name("Windows"),
            Some(Player::Baseline(Baseline::Windows(0)))
        );
    }

    #[test]
    fn random_players_pick_legal_moves() {
        let mut rng = Rng::new(5);
        let position = OthelloPosition::start();
        for _ in 0..20 {
            let mv = othello(&position, Baseline::Random, &mut rng);
            assert!(mv.is_some_and(|mv| position.check(mv).is_ok()));
        }
        let shell_position = ShellPosition::new();
        let cell = shell(
            &shell_position,
            Color::Black,
            Baseline::Random,
            &mut rng,
            &Limits::depth(0),
        );
        assert!(cell.is_some_and(|c| shell_position.is_empty(c)));
        let view = View::new();
        let shot = battleship(&view, Baseline::Random, &mut rng);
        assert!(shot.is_some_and(|c| view.is_open(c)));
    }
}
