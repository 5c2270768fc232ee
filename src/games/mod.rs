//! The rules of the three games, each usable alone as a library.
//!
//! This module holds what every game shares: the two colours, the status of a game and
//! how a finished game ended.
//! Each submodule owns one game's positions, moves, notation and outcome, and nothing
//! else: no search, no protocol text.

pub mod battleship;
pub mod othello;
pub mod shell;

/// One of the two sides. In Battleship, black is the table's host and white its guest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other side.
    #[must_use]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: an index into per-colour arrays.
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    /// The colour's name in lowercase (`black`, `white`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

/// How a finished game ended: one side won, or it was drawn. The rules, the arena's
/// records and the benches' tallies all speak of results in this one type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Won(Color),
    Draw,
}

impl Outcome {
    /// The win of the side ahead by `margin` for black (black's discs less white's, or
    /// any signed count for black); a draw at zero.
    #[must_use]
    pub fn by_margin(margin: i32) -> Outcome {
        match margin.signum() {
            1 => Outcome::Won(Color::Black),
            -1 => Outcome::Won(Color::White),
            _ => Outcome::Draw,
        }
    }

    /// The winner, if any.
    #[must_use]
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Won(color) => Some(color),
            Outcome::Draw => None,
        }
    }

    /// The points `color` scores: 1 for a win, ½ for a draw, 0 for a loss.
    #[must_use]
    pub fn score(self, color: Color) -> f64 {
        match self {
            Outcome::Won(winner) if winner == color => 1.0,
            Outcome::Won(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

/// Where a game stands. `SuddenDeath` exists only in What the Shell (S9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Ongoing,
    SuddenDeath,
    BlackWins,
    WhiteWins,
    Draw,
}

impl Status {
    /// True when no further move exists.
    #[must_use]
    pub fn is_over(self) -> bool {
        matches!(self, Status::BlackWins | Status::WhiteWins | Status::Draw)
    }

    /// How the game ended, once it is over.
    #[must_use]
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            Status::BlackWins => Some(Outcome::Won(Color::Black)),
            Status::WhiteWins => Some(Outcome::Won(Color::White)),
            Status::Draw => Some(Outcome::Draw),
            Status::Ongoing | Status::SuddenDeath => None,
        }
    }

    /// The status of a game that ended with `outcome`.
    #[must_use]
    pub fn over(outcome: Outcome) -> Status {
        match outcome {
            Outcome::Won(color) => Status::win_for(color),
            Outcome::Draw => Status::Draw,
        }
    }

    /// The winner, if the game is won.
    #[must_use]
    pub fn winner(self) -> Option<Color> {
        match self {
            Status::BlackWins => Some(Color::Black),
            Status::WhiteWins => Some(Color::White),
            _ => None,
        }
    }

    /// The win of `color`.
    #[must_use]
    pub fn win_for(color: Color) -> Status {
        match color {
            Color::Black => Status::BlackWins,
            Color::White => Status::WhiteWins,
        }
    }

    /// The protocol's word for this status (`ongoing`, `sudden_death`, …).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::SuddenDeath => "sudden_death",
            Status::BlackWins => "black_wins",
            Status::WhiteWins => "white_wins",
            Status::Draw => "draw",
        }
    }
}

/// The games Tabula plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Othello,
    Battleship,
    Shell,
}

impl GameKind {
    /// Every game, in the order `list_games` names them.
    pub const ALL: [GameKind; 3] = [GameKind::Othello, GameKind::Battleship, GameKind::Shell];

    /// The game's name in the protocol (`othello`, `battleship`, `shell`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Othello => "othello",
            GameKind::Battleship => "battleship",
            GameKind::Shell => "shell",
        }
    }

    /// The game named `name` (any case).
    #[must_use]
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(name))
    }

    /// The side of the board: 8 for Othello, 10 for Battleship's seas, 9 for Shell.
    #[must_use]
    pub fn board_size(self) -> u32 {
        match self {
            GameKind::Othello => 8,
            GameKind::Battleship => 10,
            GameKind::Shell => 9,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_outcome_scores_each_side_and_matches_the_status() {
        let black = Outcome::by_margin(3);
        assert_eq!(black, Outcome::Won(Color::Black));
        assert_eq!(Outcome::by_margin(-64), Outcome::Won(Color::White));
        assert_eq!(Outcome::by_margin(0), Outcome::Draw);
        assert_eq!(
            (black.score(Color::Black), black.score(Color::White)),
            (1.0, 0.0)
        );
        assert_eq!(Outcome::Draw.score(Color::White), 0.5);
        for outcome in [black, Outcome::Won(Color::White), Outcome::Draw] {
            let status = Status::over(outcome);
            assert!(status.is_over());
            assert_eq!(status.outcome(), Some(outcome));
            assert_eq!(status.winner(), outcome.winner());
        }
        assert_eq!(Status::Ongoing.outcome(), None);
        assert_eq!(Status::SuddenDeath.outcome(), None);
    }
}
