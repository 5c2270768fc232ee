//! Tabula: a game engine for Othello, Battleship and What the Shell that speaks a
//! GTP 2 style text protocol.
//!
//! The architecture, in the direction data flows:
//!
//! ```text
//! line → protocol::parse → Command → protocol::Session → games / ai → Response → line
//! ```
//!
//! - [`games`] owns the rules of each game: positions, moves, notation, outcome. Pure
//!   and deterministic; a game never sees protocol text.
//! - [`ai`] owns the players. It reads the rules; the rules never read it.
//! - [`protocol`] owns the text: parsing a line into a `Command`, framing a `Response`,
//!   and the `Session` that holds one game and dispatches commands to it.
//! - [`arena`] owns the tournament manager: child engines, a referee per game that
//!   judges every move with [`games`], schedules, statistics and records.
//! - [`conformance`] runs the conformance suite (`.tst` files) against any engine
//!   command; it talks to engines only through their pipes.
//! - [`cpu`] detects the CPU's features once and picks the compiled copy of a hot
//!   kernel (perft, the endgame solver) that uses them, and reads the CPU time the
//!   process has used (for the benchmarks' nodes per CPU-second).
//! - [`rng`] is the one seeded random number generator every player uses.

pub mod ai;
pub mod arena;
pub mod conformance;
pub mod cpu;
pub mod games;
pub mod machine;
pub mod protocol;
pub mod rng;
