//! Baseline players: fixed, simple anchors to measure stronger players against.
//!
//! - [`Player::Random`]: a uniformly random legal move (Othello), empty cell (Shell)
//!   or open cell (Battleship);
//! - [`Player::Greedy`]: the most discs flipped (Othello, ties at random), the simple
//!   one-turn player [`crate::ai::shell::pick`] (Shell), the hunter
//!   [`crate::ai::battleship::hunt`] (Battleship).
//!
//! Fleets are uniformly random for every player ([`crate::ai::battleship::random_fleet`]).
//! Each function answers `None` for [`Player::Default`] (the session's own player then
//! thinks) and when no move exists. Every choice draws only from the given [`Rng`], so
//! a baseline is reproducible from the `seed` option.

use std::fmt;

use crate::games::Color;
use crate::games::battleship::{Cell as SeaCell, View};
use crate::games::othello::{Move, Position as OthelloPosition};
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
}

impl Player {
    /// Every player, in the order the option lists them.
    pub const ALL: [Player; 3] = [Player::Default, Player::Random, Player::Greedy];

    /// The option's word for this player.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Player::Default => "default",
            Player::Random => "random",
            Player::Greedy => "greedy",
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
        Player::Greedy => {
            let flips = |mv: &Move| position.check(*mv).map_or(0, u64::count_ones);
            let most = moves.iter().map(flips).max()?;
            let best: Vec<Move> = moves.into_iter().filter(|mv| flips(mv) == most).collect();
            rng.choose(&best).copied()
        }
    }
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
        Player::Greedy => crate::ai::shell::greedy::pick(position, color, rng),
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
        Player::Greedy => crate::ai::battleship::parity_hunt(view, rng),
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
