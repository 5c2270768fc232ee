//! What the Shell: the rules of RULES.md S1–S10 and the contract's position notation.
//!
//! - [`cell`]: cells (`e5`), cell sets in canonical order, board geometry;
//! - [`position`]: the position (three disjoint bitboards, the egg queue oldest first,
//!   the status the board implies), the S9 count and the picture for people;
//! - [`turn`]: simultaneous turn resolution (placement or collision, capture steps
//!   with hatching, win check) and the one-line [`TurnReport`];
//! - [`notation`]: reading and writing the contract's notation.
//!
//! No search and no protocol text live here; every entry point is total (typed errors,
//! no panics) and turn resolution never allocates.

pub mod cell;
pub mod notation;
pub mod position;
#[cfg(test)]
pub(crate) mod testing;
pub mod turn;

pub use cell::{Cell, CellIter, CellSet};
pub use notation::NotationError;
pub use position::{Position, Stone};
pub use turn::{MAX_STEPS, Step, TurnError, TurnReport};

#[cfg(test)]
mod tests;
