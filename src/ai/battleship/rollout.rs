//! The rollout hunter: one step of policy improvement over the hunter of
//! [`super::hunter`], scored by Monte Carlo over the misses still to come.
//!
//! The hunter fires at the cell most likely to hold a ship; it scores a shot by the
//! next hit alone. On tiny seas, where everything can be computed exactly
//! ([`super::exact`]), scoring each candidate shot instead by the chance it misses
//! plus the expected misses of the greedy hunter *after* it recovers most of greedy's
//! gap to the optimum, and the best first shots are often not the likeliest cells.
//! This module estimates that score on the real sea:
//!
//! - while a ship of two or more cells is afloat and none is wounded (finishing a
//!   wound and the last boats are left to the base hunter, which is already
//!   near-optimal there), take the base hunter's shot and the next open cells by
//!   worth, [`Settings::candidates`] in all;
//! - draw [`Settings::fleets`] fleets from the belief (exact draws from the counting
//!   tables where they fit, chain states spread over the sweeps otherwise);
//! - for every candidate and every fleet, fire the candidate at that fleet, let the
//!   base hunter (with the cheaper [`Settings::effort`] per shot) play until only
//!   unwounded boats are afloat, and add the exact expected misses of the greedy
//!   search for those boats ([`LastBoats`]). Every candidate meets the same fleets
//!   and the same generator seeds (common random numbers), so the differences
//!   between candidates are estimated with far less noise than the values;
//! - fire the candidate of fewest mean misses, but keep the base hunter's shot unless
//!   the other is better by [`Settings::margin`] standard errors of the paired
//!   difference: the rollout then only departs from the base hunter where the
//!   sample supports it.
//!
//! The rollouts stop between fleets when the limits expire; what was gathered
//! decides. Deterministic per seed when no deadline interrupts.

use crate::ai::Limits;
use crate::games::battleship::{Cell, Fleet, Mark, ShipType, ShotResult, View};
use crate::rng::Rng;

use super::boats::{LastBoats, last_boats};
use super::count::fleet_from_cells;
use super::hunter::{self, Effort};

/// How hard the rollout hunter looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Candidate shots scored, the base hunter's first.
    pub candidates: usize,
    /// Fleets drawn from the belief; every candidate is rolled out on each.
    pub fleets: usize,
    /// The simulated base hunter's effort per shot (the chain only, short).
    pub effort: Effort,
    /// Standard errors of the paired difference by which another candidate must beat
    /// the base hunter's shot.
    pub margin: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            candidates: 4,
            fleets: 48,
            effort: ROLLOUT_EFFORT,
            margin: 1.0,
        }
    }
}

/// The simulated base hunter's default effort: the chain alone, 10 sweeps of burn-in
/// and 20 gathered (about 0.1 ms a shot), against the hunter's exact counts and
/// 1,100 sweeps (about 5 ms): a rollout plays some 35 shots, and a shot is scored by
/// hundreds of rollouts.
pub const ROLLOUT_EFFORT: Effort = Effort {
    exact: false,
    burn_in: 10,
    sweeps: 20,
};

/// A candidate's Monte Carlo score: its mean misses over the fleets rolled out, and
/// its paired difference with candidate 0 and that difference's standard error
/// (infinite with fewer than two fleets).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    pub difference: f64,
    pub se: f64,
    pub fleets: usize,
}

/// Scores `candidates` candidates on `fleets` fleets: `misses(c, j)` is candidate
/// `c`'s outcome on fleet `j`. Fleets are taken in order, every candidate on each,
/// and `stop` is asked between fleets (after the first), so every estimate rests on
/// the same fleets.
pub fn evaluate(
    candidates: usize,
    fleets: usize,
    mut misses: impl FnMut(usize, usize) -> f64,
    mut stop: impl FnMut() -> bool,
) -> Vec<Estimate> {
    let mut sum = vec![0.0; candidates];
    let mut diff = vec![0.0; candidates];
    let mut diff2 = vec![0.0; candidates];
    let mut done = 0usize;
    for j in 0..fleets {
        if j > 0 && stop() {
            break;
        }
        let row: Vec<f64> = (0..candidates).map(|c| misses(c, j)).collect();
        let base = row.first().copied().unwrap_or(0.0);
        for (c, &x) in row.iter().enumerate() {
            let d = x - base;
            if let (Some(s), Some(a), Some(b)) = (sum.get_mut(c), diff.get_mut(c), diff2.get_mut(c))
            {
                *s += x;
                *a += d;
                *b += d * d;
            }
        }
        done += 1;
    }
    let n = done as f64;
    (0..candidates)
        .map(|c| {
            let s = sum.get(c).copied().unwrap_or(0.0);
            let a = diff.get(c).copied().unwrap_or(0.0);
            let b = diff2.get(c).copied().unwrap_or(0.0);
            let (mean, difference) = if done == 0 {
                (0.0, 0.0)
            } else {
                (s / n, a / n)
            };
            let se = if done < 2 {
                f64::INFINITY
            } else {
                ((b - n * difference * difference).max(0.0) / (n - 1.0) / n).sqrt()
            };
            Estimate {
                mean,
                difference,
                se,
                fleets: done,
            }
        })
        .collect()
}

/// The candidate to fire: the lowest mean among those that beat candidate 0 by more
/// than `margin` standard errors of the paired difference; 0 when none does.
#[must_use]
pub fn pick(estimates: &[Estimate], margin: f64) -> usize {
    let mut best = 0;
    let mut best_difference = 0.0;
    for (c, e) in estimates.iter().enumerate().skip(1) {
        let supported = e.se.is_finite() && e.difference < -margin * e.se;
        if supported && e.difference < best_difference {
            best = c;
            best_difference = e.difference;
        }
    }
    best
}

/// Whether the rollout hunter plans at `view`: a ship of two or more cells afloat and
/// no ship wounded.
#[must_use]
pub fn plans(view: &View) -> bool {
    let longer = ShipType::ALL
        .into_iter()
        .any(|kind| kind.len() > 1 && view.afloat(kind) > 0);
    longer && view.wounded().is_empty()
}

/// The rollout hunter's shot at the sea seen in `view` (module documentation); the
/// base hunter's where it does not plan.
pub fn hunt(view: &View, rng: &mut Rng, limits: &Limits<'_>, settings: &Settings) -> Option<Cell> {
    let (first, candidates, fleets) =
        match planned(view, rng, limits, settings.candidates, settings.fleets) {
            Ok(plan) => plan,
            Err(shot) => return shot,
        };
    let seed = rng.next_u64();
    let mut boats = LastBoats::new();
    let estimates = evaluate(
        candidates.len(),
        fleets.len(),
        |c, j| match (candidates.get(c), fleets.get(j)) {
            (Some(&cell), Some(fleet)) => {
                let seed = seed ^ (j as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                rollout(view, fleet, cell, seed, &settings.effort, &mut boats)
            }
            _ => 0.0,
        },
        || limits.expired(),
    );
    let chosen = pick(&estimates, settings.margin);
    log_scores("rollout", &candidates, &estimates, chosen);
    candidates.get(chosen).copied().or(Some(first))
}

/// Logs (at debug level) each candidate's estimate and the one fired.
pub(crate) fn log_scores(what: &str, candidates: &[Cell], estimates: &[Estimate], chosen: usize) {
    if log::log_enabled!(log::Level::Debug) {
        let scores: Vec<String> = candidates
            .iter()
            .zip(estimates)
            .map(|(cell, e)| format!("{cell} {:.2} {:+.2}±{:.2}", e.mean, e.difference, e.se))
            .collect();
        log::debug!(
            "{what} on {} fleets: {}; fired {}",
            estimates.first().map_or(0, |e| e.fleets),
            scores.join(", "),
            candidates
                .get(chosen)
                .map_or(String::new(), ToString::to_string)
        );
    }
}

/// What a rollout hunter scores at `view`: the base hunter's shot, `k` candidates
/// (that shot first) and up to `draws` fleets from the belief; or, where it does not
/// plan (or has fewer than two candidates or fleets), the shot to fire instead.
pub(crate) fn planned(
    view: &View,
    rng: &mut Rng,
    limits: &Limits<'_>,
    k: usize,
    draws: usize,
) -> Result<(Cell, Vec<Cell>, Vec<Fleet>), Option<Cell>> {
    if !plans(view) || k < 2 || draws < 2 {
        return Err(hunter::hunt(view, rng, limits));
    }
    let belief = hunter::belief(view, rng, limits, draws);
    let first = hunter::best(view, &belief.worth, rng).ok_or(None)?;
    let candidates = candidates(view, &belief.worth, first, k);
    let fleets = belief_fleets(view, &belief);
    if candidates.len() < 2 || fleets.len() < 2 {
        return Err(Some(first));
    }
    Ok((first, candidates, fleets))
}

/// The belief's sample fleets, each with the sunk ships of `view` added.
fn belief_fleets(view: &View, belief: &hunter::Belief) -> Vec<Fleet> {
    let sunk = view
        .cells_marked(Mark::Sunk)
        .iter()
        .fold(0u128, |acc, c| acc | 1 << c.index());
    belief
        .samples
        .iter()
        .filter_map(|&cells| fleet_from_cells(cells | sunk))
        .collect()
}

/// `first`, then the open cells of highest worth (ties by index), `k` in all.
pub(crate) fn candidates(view: &View, worth: &[f64; 100], first: Cell, k: usize) -> Vec<Cell> {
    let mut rest: Vec<Cell> = view.open_cells().filter(|&c| c != first).collect();
    let w = |c: &Cell| worth.get(c.index()).copied().unwrap_or(0.0);
    rest.sort_by(|a, b| w(b).total_cmp(&w(a)).then(a.index().cmp(&b.index())));
    std::iter::once(first)
        .chain(rest.into_iter().take(k.saturating_sub(1)))
        .collect()
}

/// The misses of firing `first` at `fleet` from `view`, then the base hunter (with
/// `effort`, generator seeded by `seed`) until only unwounded boats are
/// afloat, plus the exact expected misses of the greedy search for those boats.
pub fn rollout(
    view: &View,
    fleet: &Fleet,
    first: Cell,
    seed: u64,
    effort: &Effort,
    boats: &mut LastBoats,
) -> f64 {
    let mut view = view.clone();
    let mut rng = Rng::new(seed);
    let free = Limits::depth(1);
    let mut misses = 0u32;
    let mut cell = Some(first);
    while let Some(shot) = cell {
        match view.record_judged(fleet, shot) {
            Ok(ShotResult::Miss) => misses += 1,
            Ok(_) => {}
            Err(_) => break,
        }
        if let Some((open, afloat)) = last_boats(&view) {
            return f64::from(misses) + boats.greedy_misses(open, afloat);
        }
        cell = hunter::hunt_with(&view, &mut rng, &free, effort);
    }
    f64::from(misses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::battleship::random_fleet;

    #[test]
    fn estimates_pair_the_candidates_on_the_same_fleets() {
        // Candidate 1 is candidate 0 less one on every fleet, candidate 2 noisy around
        // candidate 0: the paired difference of 1 has no spread.
        let values = |c: usize, j: usize| -> f64 {
            let base = (j % 7) as f64 * 3.0;
            match c {
                0 => base,
                1 => base - 1.0,
                _ => base + if j.is_multiple_of(2) { 2.0 } else { -2.0 },
            }
        };
        let e = evaluate(3, 10, values, || false);
        assert_eq!(e.len(), 3);
        assert!(e.iter().all(|x| x.fleets == 10));
        assert!((e[1].difference + 1.0).abs() < 1e-12);
        assert!(e[1].se < 1e-9);
        assert!(e[2].difference.abs() < 1e-12);
        // sd of ±2 alternating over 10 fleets: sqrt(40 / 9) / sqrt(10).
        assert!((e[2].se - (40.0f64 / 9.0 / 10.0).sqrt()).abs() < 1e-9);
        assert_eq!(pick(&e, 2.0), 1);
    }

    #[test]
    fn the_base_shot_stays_unless_the_gain_is_supported() {
        let e = |difference: f64, se: f64| Estimate {
            mean: 10.0 + difference,
            difference,
            se,
            fleets: 20,
        };
        let base = e(0.0, 0.0);
        // Better by 0.5 with se 0.4: not 2 standard errors.
        assert_eq!(pick(&[base, e(-0.5, 0.4)], 2.0), 0);
        assert_eq!(pick(&[base, e(-0.5, 0.4)], 1.0), 1);
        // Of two supported candidates, the lower.
        assert_eq!(pick(&[base, e(-0.5, 0.1), e(-0.9, 0.2)], 2.0), 2);
        // Worse, or an infinite se: stay.
        assert_eq!(pick(&[base, e(0.5, 0.1)], 0.0), 0);
        assert_eq!(pick(&[base, e(-3.0, f64::INFINITY)], 0.0), 0);
    }

    #[test]
    fn a_stop_after_the_first_fleet_keeps_every_candidate_on_it() {
        let mut calls = 0;
        let e = evaluate(
            3,
            50,
            |_, _| {
                calls += 1;
                1.0
            },
            || true,
        );
        assert_eq!(calls, 3);
        assert!(e.iter().all(|x| x.fleets == 1 && x.se.is_infinite()));
        assert_eq!(pick(&e, 0.0), 0);
    }

    #[test]
    fn plans_only_while_hunting_a_longer_ship_with_no_wound() {
        let fleet = random_fleet(&mut Rng::new(8));
        let mut view = View::new();
        assert!(plans(&view));
        let battleship = fleet.ships()[0];
        let first = battleship.cells().next().unwrap();
        view.record_judged(&fleet, first).unwrap();
        assert!(!plans(&view), "a wound is finished by the base hunter");
        for cell in battleship.cells().skip(1) {
            view.record_judged(&fleet, cell).unwrap();
        }
        assert!(plans(&view));
        for ship in fleet.ships().iter().filter(|s| s.len() > 1) {
            for cell in ship.cells() {
                if view.is_open(cell) {
                    view.record_judged(&fleet, cell).unwrap();
                }
            }
        }
        assert!(!plans(&view), "only boats afloat");
    }

    #[test]
    fn rollout_hunter_sinks_fleets_and_is_deterministic_per_seed() {
        let settings = Settings {
            candidates: 3,
            fleets: 4,
            effort: ROLLOUT_EFFORT,
            margin: 0.0,
        };
        let free = Limits::depth(1);
        let fleet = random_fleet(&mut Rng::new(31));
        let play = |seed| {
            let mut rng = Rng::new(seed);
            let mut view = View::new();
            let mut cells = Vec::new();
            while !view.all_sunk() {
                let cell = hunt(&view, &mut rng, &free, &settings).unwrap();
                assert!(view.is_open(cell), "{cell} is spent");
                view.record_judged(&fleet, cell).unwrap();
                cells.push(cell);
                assert!(cells.len() <= 100);
            }
            cells
        };
        let a = play(2);
        assert_eq!(view_hits(&fleet, &a), 20);
        assert_eq!(a, play(2));
    }

    fn view_hits(fleet: &Fleet, cells: &[Cell]) -> usize {
        cells
            .iter()
            .filter(|&&c| fleet.ship_at(c).is_some())
            .count()
    }

    #[test]
    fn a_rollout_counts_its_first_miss_and_ends_at_the_last_boats() {
        let fleet = random_fleet(&mut Rng::new(12));
        let water = Cell::all().find(|&c| fleet.ship_at(c).is_none()).unwrap();
        let ship = fleet.ships()[0].cells().next().unwrap();
        let mut boats = LastBoats::new();
        let view = View::new();
        let after_miss = rollout(&view, &fleet, water, 1, &ROLLOUT_EFFORT, &mut boats);
        let after_hit = rollout(&view, &fleet, ship, 1, &ROLLOUT_EFFORT, &mut boats);
        assert!(after_miss >= 1.0, "{after_miss}");
        // At most every open cell but the twenty ship cells.
        assert!(after_miss <= 80.0 && after_hit <= 80.0);
        // Sinking the last longer ship leaves boats: the rest is their expectation.
        let mut view = View::new();
        for s in fleet.ships().iter().filter(|s| s.len() > 1) {
            for c in s.cells() {
                view.record_judged(&fleet, c).unwrap();
            }
        }
        let (open, afloat) = last_boats(&view).unwrap();
        let expected = boats.greedy_misses(open, afloat);
        let boat = fleet.ships().iter().find(|s| s.len() == 1).unwrap().from();
        // Undo the last shot's effect by replaying all but the last cell.
        let longer: Vec<Cell> = fleet
            .ships()
            .iter()
            .filter(|s| s.len() > 1)
            .flat_map(|s| s.cells())
            .collect();
        let mut before = View::new();
        for &c in &longer[..longer.len() - 1] {
            before.record_judged(&fleet, c).unwrap();
        }
        let last = longer[longer.len() - 1];
        let value = rollout(&before, &fleet, last, 3, &ROLLOUT_EFFORT, &mut boats);
        assert!((value - expected).abs() < 1e-12, "{value} vs {expected}");
        assert!(view.is_open(boat));
    }
}
