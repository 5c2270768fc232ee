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
//! - [`quick`]: the rollout hunter with a simulated hunter on bit sets, cheap enough
//!   for hundreds of rollouts a shot.
//! - [`learned`]: one step of look-ahead over a fitted value of the misses to come,
//!   the rollouts' cheap stand-in.
//! - [`styles`]: the adaptive placement prior, a posterior over placement styles
//!   learnt from the fleets seen at one table.
//! - [`placer`]: uniform fleets and the `genfleet` mixture.
//! - [`parity`]: the simple parity hunter, kept as the `greedy` baseline.
//!
//! All are deterministic per seed (they draw only from the given [`Rng`]) and read
//! only what their side may know: the placer nothing, the hunter a [`View`] of the
//! target sea, which never holds an unhit ship cell.

pub mod boats;
pub mod count;
pub mod exact;
pub mod finish;
pub mod hunter;
pub mod learned;
pub mod parity;
pub mod placer;
pub mod quick;
pub mod rollout;
pub mod sample;
pub mod styles;

pub use hunter::hunt;
pub use parity::parity_hunt;
pub use placer::{place, random_fleet};

use crate::ai::Limits;
use crate::games::battleship::{Cell, ShipType, View};
use crate::rng::Rng;

/// Which hunter fires (`set_option hunter`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HunterKind {
    /// [`hunter::hunt`]: the open cell of highest worth.
    Greedy,
    /// [`rollout::hunt`]: Monte Carlo rollouts of the greedy hunter (slow: 100 ms
    /// and more a shot; the limits cut it short).
    Rollout,
    /// [`learned::hunt`]: one step of look-ahead over the built-in value.
    Learned,
    /// [`quick::hunt`]: rollouts of a simulated hunter on bit sets (tens of ms a
    /// shot).
    Quick,
}

impl HunterKind {
    /// Every hunter, in the order of the option's values.
    pub const ALL: [HunterKind; 4] = [
        HunterKind::Greedy,
        HunterKind::Rollout,
        HunterKind::Learned,
        HunterKind::Quick,
    ];

    /// The hunter's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            HunterKind::Greedy => "greedy",
            HunterKind::Rollout => "rollout",
            HunterKind::Learned => "learned",
            HunterKind::Quick => "quick",
        }
    }

    /// The hunter named `name` (any case).
    #[must_use]
    pub fn from_name(name: &str) -> Option<HunterKind> {
        HunterKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }
}

/// The shot of hunter `kind` at the sea seen in `view`, its belief tilted by `tilt`
/// (the adaptive placement prior) where the hunter uses one (not the rollouts).
pub fn hunt_as(
    kind: HunterKind,
    view: &View,
    rng: &mut Rng,
    limits: &Limits<'_>,
    tilt: Option<&styles::Tilt>,
) -> Option<Cell> {
    match (kind, tilt) {
        (HunterKind::Greedy, None) => hunt(view, rng, limits),
        (HunterKind::Greedy, Some(tilt)) => styles::hunt(view, rng, limits, tilt),
        (HunterKind::Rollout, _) => rollout::hunt(view, rng, limits, &rollout::Settings::default()),
        (HunterKind::Quick, _) => quick::hunt(view, rng, limits, &quick::Settings::default()),
        (HunterKind::Learned, tilt) => learned::hunt(
            view,
            rng,
            limits,
            learned::Value::builtin(),
            &learned::Settings::default(),
            tilt,
        ),
    }
}

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
