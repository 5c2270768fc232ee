//! Othello (O1–O4): bitboard rules, moves, notation, perft.
//!
//! - [`bitboard`] is the one portable move-generation and flip kernel over the eight
//!   directions, on side-relative boards (`player`, `opponent`).
//! - [`position`] is a position with its side to move: legal moves, playing, passing,
//!   game end and scoring with the empties rule (O4), the 64-character notation and a
//!   picture for people.
//! - [`properties`] holds what players and scorers read off a board: the final score
//!   (O4), full lines, stable discs, the frontier.
//! - [`mod@perft`] counts move sequences (a forced pass is a move; a finished game is a leaf).
//! - [`random`] plays random legal moves from the start (random openings, tests).
//!
//! Squares are numbered 0..64 from a1 (row 1 at the top, column a at the left):
//! `index = row * 8 + column`, so a1 = 0, h1 = 7, a2 = 8, h8 = 63.

pub mod bitboard;
pub mod ggf;
pub mod perft;
pub mod position;
pub mod properties;
pub mod random;

pub use bitboard::Board;
pub use perft::{perft, perft_until};
pub use position::{Move, NotationError, OthelloError, Position, Square};
pub use random::random_play;
