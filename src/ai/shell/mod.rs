//! The What the Shell players.
//!
//! - [`greedy`]: the simple one-turn-lookahead player (win > block > capture > near
//!   stones), the baseline the search is measured against.
pub mod greedy;
