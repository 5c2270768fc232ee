//! The rules of the three games, each usable alone as a library.
//!
//! This module holds what every game shares: the two colours and the status of a game.
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
