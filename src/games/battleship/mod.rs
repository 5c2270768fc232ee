//! Battleship, 10-ship no-touch variant (RULES.md B1–B11): cells, fleets, shots,
//! rings, the table with its phases, score and clocks, and the one-line notation.
//!
//! - [`cell`]: `Cell` (always on the board) and `CellSet`.
//! - [`fleet`]: `ShipType`, `Ship`, `Fleet` (only legal fleets exist), fleet notation.
//! - [`sea`]: `ShotResult`, `Mark`, `View` — the record of shots at one sea, which is
//!   all a shooter may see; player-mode consistency checks.
//! - [`table`]: `Table` — both seas, phase, turn, draw offers, score, clocks; each
//!   protocol command is one method returning `Result`, and a refused call changes
//!   nothing.
//! - `explain`: whether a view can still be explained by a legal fleet (player mode).
//! - [`notation`]: `Table::to_notation` / `Table::from_notation`.
//!
//! Nothing here reads a clock, prints, or panics on any input.

pub mod cell;
mod explain;
pub mod fleet;
pub mod notation;
pub mod sea;
pub mod table;
#[cfg(test)]
pub(crate) mod testing;

pub use cell::{Cell, CellSet};
pub use fleet::{Fleet, FleetError, Ship, ShipType};
pub use notation::NotationError;
pub use sea::{Mark, Shot, ShotError, ShotResult, View};
pub use table::{Clock, Offer, Phase, Score, Sea, Table, TableError, TimeControl};
