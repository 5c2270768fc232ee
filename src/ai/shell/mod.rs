//! The What the Shell players.
//!
//! - [`mcts`]: the strong player, a simultaneous-move Monte Carlo tree search with
//!   decoupled selection (regret matching by default, UCT as an option) whose pick is
//!   sampled from its final mixed strategy;
//! - [`exploit`]: an approximate best response that estimates a player's mixed
//!   strategy (the search's, from several seeds) and answers it, to measure how much
//!   the player's mixing can be exploited;
//! - [`candidates`]: the game knowledge it searches with (tactical cells, line
//!   windows, cells near the stones);
//! - [`playout`]: guided and uniform playouts;
//! - [`exact`]: an exact endgame solver (double oracle inside serialized alpha-beta
//!   bounds, transpositions over the board's symmetries) for the search's
//!   exploitability on positions from real games (a few empty cells within budget);
//! - [`lp`]: zero-sum matrix games solved exactly by linear programming;
//! - [`matrix`]: zero-sum matrix games solved by regret matching⁺;
//! - [`solver`]: an exact solver for small endgames (a matrix game per node), to
//!   measure the search's exploitability;
//! - [`greedy`]: the simple one-turn-lookahead player (win > block > capture > near
//!   stones), the baseline the search is measured against;
//! - [`tactician`]: the sequential tactician, a deterministic alpha-beta over
//!   serialised turns with threat-space search, a stronger predictable opponent;
//! - [`threats`]: threat-space search for the simultaneous game (forcing lines of
//!   fours and open fours, the defender's cells that break them, the guess when
//!   none does), used at the search's root;
//! - [`windows`]: the threat-builder, a deterministic one-ply player (win > block >
//!   steeply weighted line windows and captures), a predictable opponent to punish.

pub mod candidates;
pub mod endgame;
pub mod exact;
pub mod exploit;
pub mod greedy;
pub(crate) mod last_turn;
pub mod lp;
pub mod matrix;
pub mod mcts;
pub mod model;
pub mod playout;
pub mod solver;
pub mod tactician;
#[cfg(test)]
mod testing;
pub mod threats;
pub mod value;
pub mod windows;

pub use mcts::{Eval, Memory, Outcome, Selection, Settings, search, search_in};

use crate::games::Color;
use crate::games::shell::{Cell, Position};

/// The position after a turn where `color` picks `mine` and its opponent `theirs`;
/// `None` when the turn is refused.
pub(crate) fn after_turn(
    position: &Position,
    color: Color,
    mine: Cell,
    theirs: Cell,
) -> Option<Position> {
    let (black, white) = match color {
        Color::Black => (mine, theirs),
        Color::White => (theirs, mine),
    };
    let mut next = *position;
    next.resolve_turn_quiet(black, white).ok()?;
    Some(next)
}
