//! Battleship players: the placer ([`random_fleet`], [`place`]) and the hunter
//! ([`hunt`]).
//!
//! - [`boats`]: the last boats (every longer ship sunk): exact counts and the greedy
//!   hunter's exact expected misses, the bench's control variate.
//! - [`count`]: exact counting of the legal fleets consistent with a view, by a
//!   dynamic program over the cells in row order; exact cell probabilities and exact
//!   uniform sampling from the same tables.
//! - [`sample`]: a Markov chain (Gibbs moves) over the fleets consistent with a view,
//!   for cell probabilities while exact counting is too costly.
//! - [`hunter`]: the shot at the open cell most likely to hold a ship.
//! - [`rollout`]: the shot of fewest expected misses to come, by Monte Carlo rollouts
//!   of the hunter over fleets drawn from its belief.
//! - [`placer`]: uniform fleets and the `genfleet` mixture.
//! - [`parity`]: the simple parity hunter, kept as the `greedy` baseline.
//!
//! All are deterministic per seed (they draw only from the given [`Rng`]) and read
//! only what their side may know: the placer nothing, the hunter a [`View`] of the
//! target sea, which never holds an unhit ship cell.

pub mod boats;
pub mod count;
pub mod exact;
pub mod hunter;
pub mod parity;
pub mod placer;
pub mod rollout;
pub mod sample;

pub use hunter::hunt;
pub use parity::parity_hunt;
pub use placer::{place, random_fleet};

use crate::games::battleship::{ShipType, View};
#[cfg(doc)]
use crate::rng::Rng;

/// The number of ships afloat, for callers that want to report progress.
#[must_use]
pub fn ships_afloat(view: &View) -> usize {
    ShipType::ALL.into_iter().map(|k| view.afloat(k)).sum()
}

/// Pearson's chi-square of `counts` against a uniform split, and its degrees of
/// freedom: the uniformity check shared by the samplers' tests.
#[cfg(test)]
fn chi_square_uniform(counts: &[u32]) -> (f64, f64) {
    let total: f64 = counts.iter().map(|&c| f64::from(c)).sum();
    let expected = total / counts.len() as f64;
    let chi2 = counts
        .iter()
        .map(|&o| (f64::from(o) - expected).powi(2) / expected)
        .sum();
    (chi2, (counts.len() - 1) as f64)
}
