//! The players: search, evaluation, targeting and placement, one submodule per game.
//! A player reads the rules in [`crate::games`]; it never prints and never parses text.

pub mod baseline;
pub mod battleship;
pub(crate) mod key_hash;
pub mod limits;
pub mod linear;
pub mod othello;
pub mod shell;

pub use limits::Limits;
