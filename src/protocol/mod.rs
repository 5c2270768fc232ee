//! The protocol layer: text in, text out.
//!
//! - [`parse`]: GTP 2 preprocessing and nom parsers from a line to `(id, Command)`.
//! - [`command`]: the [`Command`] enum, the whole vocabulary.
//! - [`response`]: a [`Response`] and its GTP 2 framing.
//! - [`session`]: the [`Session`] that holds one game and dispatches commands to it.
//! - [`engine`]: the input/output loop, with interrupts of a thinking `genmove`.
//! - [`nboard`]: NBoard mode, the Othello GUI protocol, with its own loop.

pub mod command;
pub mod engine;
pub mod nboard;
pub mod parse;
pub mod response;
pub mod session;

pub use command::Command;
pub use response::Response;
pub use session::Session;
