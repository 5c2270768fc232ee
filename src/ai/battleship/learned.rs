//! The learned hunter: one step of look-ahead over a fitted value of the misses still
//! to come, the cheap stand-in for the rollouts of [`super::rollout`].
//!
//! The rollout hunter scores a candidate shot by the chance it misses plus the misses
//! the hunter is expected to make after it, estimated by playing games out; a shot
//! costs 100 ms and more. Here the misses to come are a linear function [`Value`] of a
//! few features of the view ([`features`]: open cells, ships afloat, how many places
//! each afloat length still has, the cells only a boat can use, wounds), fitted by
//! least squares on the hunter's own games ([`training_data`], [`fit`]) with the
//! same label the bench's control variate uses: the misses until only unwounded boats
//! are afloat plus the exact expected misses of the last boats ([`LastBoats`]). Once
//! only boats remain the value is that exact figure, not the fit.
//!
//! While a longer ship is afloat and none is wounded, the hunter scores the base
//! hunter's shot and the next cells by worth ([`Settings::candidates`] in all):
//!
//! ```text
//! score(c) = P(miss)·(1 + V(view + miss at c))
//!          + P(boat at c)·V(view + boat sunk at c)
//!          + P(longer ship at c)·V(view + hit at c)
//! ```
//!
//! with the probabilities of the hunter's own belief, and fires the lowest score
//! unless it beats the base shot's by less than [`Settings::margin`] misses.
//! Elsewhere (a wound to finish, the last boats) it is the base hunter. A shot costs
//! the base hunter's belief plus a few dozen feature evaluations (microseconds each).
//!
//! The weights are built in ([`Value::builtin`], from `hunter.weights`, written by
//! `tabula train battleship`).

use std::sync::OnceLock;

use crate::ai::Limits;
use crate::games::battleship::{Cell, Mark, ShipType, ShotResult, View};
use crate::rng::Rng;

use super::boats::{LastBoats, bits, last_boats};
use super::hunter::{self, Belief, Effort};
use super::rollout;
use super::styles::Tilt;

/// The number of features of a view.
pub const FEATURES: usize = 17;

/// The features' names, in order (for the weights file and the training report).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "bias",
    "open",
    "ship_cells_left",
    "boats",
    "destroyers",
    "cruisers",
    "battleships",
    "boat_places",
    "destroyer_places",
    "cruiser_places",
    "battleship_places",
    "long_cover",
    "boat_only",
    "boat_search",
    "wounds",
    "wound_sides",
    "spare_cover",
];

/// Every placement of a ship of each length (index `len - 1`): its cells and its
/// ring as bit sets.
fn placements() -> &'static [Vec<(u128, u128)>; 4] {
    static PLACEMENTS: OnceLock<[Vec<(u128, u128)>; 4]> = OnceLock::new();
    PLACEMENTS.get_or_init(|| {
        std::array::from_fn(|l| {
            hunter::placements(l + 1)
                .map(|ship| (bits(ship.cells()), bits(ship.ring().iter())))
                .collect()
        })
    })
}

/// Afloat ships by length (index `len - 1`).
fn afloat_by_length(view: &View) -> [usize; 4] {
    let mut out = [0; 4];
    for kind in ShipType::ALL {
        if let Some(slot) = out.get_mut(kind.len() - 1) {
            *slot += view.afloat(kind);
        }
    }
    out
}

/// The features of `view` (module documentation; names in [`FEATURE_NAMES`]).
#[must_use]
pub fn features(view: &View) -> [f64; FEATURES] {
    let open = bits(view.open_cells());
    let hits = bits(view.cells_marked(Mark::Hit).iter());
    let afloat = afloat_by_length(view);
    let wounds: Vec<u128> = view
        .wounded()
        .into_iter()
        .map(|g| bits(g.into_iter()))
        .collect();
    let mut places = [0usize; 4];
    let mut long_cover = 0u128;
    let mut any_cover = 0u128;
    for (l, list) in placements().iter().enumerate() {
        if afloat.get(l).copied().unwrap_or(0) == 0 {
            continue;
        }
        for &(cells, ring) in list {
            let free = cells & !open == 0 && ring & hits == 0;
            let wounded = !free
                && cells & !(open | hits) == 0
                && wounds
                    .iter()
                    .any(|&g| cells & g == g && ring & (hits & !g) == 0 && cells & !g != 0);
            if free {
                if let Some(n) = places.get_mut(l) {
                    *n += 1;
                }
                if l > 0 {
                    long_cover |= cells;
                }
            }
            if free || wounded {
                any_cover |= cells & open;
            }
        }
    }
    let boats = afloat.first().copied().unwrap_or(0) as f64;
    let boat_cells = if boats > 0.0 {
        // Open cells with no hit beside them: where a boat may lie.
        let mut near_hit = 0u128;
        for c in view.cells_marked(Mark::Hit).iter() {
            near_hit |= bits(c.neighbours());
        }
        open & !near_hit
    } else {
        0
    };
    let boat_only = (boat_cells & !long_cover).count_ones() as f64;
    let n_boat = boat_cells.count_ones() as f64;
    let left = 20usize.saturating_sub(view.hits()) as f64;
    let wound_sides: usize = view
        .wounded()
        .iter()
        .flat_map(|g| g.iter().flat_map(|c| c.sides()))
        .filter(|&s| view.is_open(s))
        .count();
    let mut f = [0.0; FEATURES];
    let values = [
        1.0,
        open.count_ones() as f64 / 100.0,
        left / 20.0,
        boats,
        afloat.get(1).copied().unwrap_or(0) as f64,
        afloat.get(2).copied().unwrap_or(0) as f64,
        afloat.get(3).copied().unwrap_or(0) as f64,
        place_term(afloat[0], places[0]),
        place_term(afloat[1], places[1]),
        place_term(afloat[2], places[2]),
        place_term(afloat[3], places[3]),
        long_cover.count_ones() as f64 / 100.0,
        boat_only / 100.0,
        (n_boat - boats).max(0.0) * boats / (boats + 1.0) / 10.0,
        wounds.len() as f64,
        wound_sides as f64 / 4.0,
        ((any_cover.count_ones() as f64) - left).max(0.0) / 100.0,
    ];
    for (slot, v) in f.iter_mut().zip(values) {
        *slot = v;
    }
    f
}

/// `afloat` ships of a length with `places` free placements: afloat × ln(1 + places).
fn place_term(afloat: usize, places: usize) -> f64 {
    afloat as f64 * (1.0 + places as f64).ln()
}

/// The fitted value of a view: expected misses to come, linear in [`features`].
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    pub weights: [f64; FEATURES],
}

/// The built-in weights file: the value's weights and the placement styles' tables.
pub const WEIGHTS_FILE: &str = include_str!("hunter.weights");

impl Value {
    /// The weights built into the engine (`hunter.weights`).
    #[must_use]
    pub fn builtin() -> &'static Value {
        static VALUE: OnceLock<Value> = OnceLock::new();
        VALUE.get_or_init(|| {
            Value::parse(WEIGHTS_FILE).unwrap_or(Value {
                weights: [0.0; FEATURES],
            })
        })
    }

    /// The `value` line of a weights file: `value W0 W1 …` ([`FEATURES`] numbers).
    #[must_use]
    pub fn parse(text: &str) -> Option<Value> {
        let line = text.lines().find_map(|l| l.trim().strip_prefix("value "))?;
        let numbers: Vec<f64> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        let weights: [f64; FEATURES] = numbers.try_into().ok()?;
        Some(Value { weights })
    }

    /// The weights as a `value` line.
    #[must_use]
    pub fn line(&self) -> String {
        let numbers: Vec<String> = self.weights.iter().map(|w| format!("{w:.6}")).collect();
        format!("value {}", numbers.join(" "))
    }

    /// The fitted misses to come from `features`.
    #[must_use]
    pub fn of_features(&self, f: &[f64; FEATURES]) -> f64 {
        self.weights.iter().zip(f).map(|(w, x)| w * x).sum()
    }

    /// The misses to come from `view`: exact once only unwounded boats are afloat,
    /// the fit before.
    pub fn of(&self, view: &View, boats: &mut LastBoats) -> f64 {
        match last_boats(view) {
            Some((open, afloat)) => boats.greedy_misses(open, afloat),
            None => self.of_features(&features(view)).max(0.0),
        }
    }
}

/// How the learned hunter looks ahead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Candidate shots scored, the base hunter's first.
    pub candidates: usize,
    /// Misses by which another candidate must beat the base shot's score.
    pub margin: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            candidates: 4,
            margin: 0.2,
        }
    }
}

/// A candidate's score (module documentation) under `value`, from `belief`.
fn score(view: &View, cell: Cell, belief: &Belief, value: &Value, boats: &mut LastBoats) -> f64 {
    let i = cell.index();
    let p = belief.p.get(i).copied().unwrap_or(0.0).clamp(0.0, 1.0);
    let boat = belief
        .by_length
        .first()
        .and_then(|row| row.get(i))
        .copied()
        .unwrap_or(0.0)
        .clamp(0.0, p);
    let mut after = |result: ShotResult| -> Option<f64> {
        let mut next = view.clone();
        next.record(cell, result).ok()?;
        Some(value.of(&next, boats))
    };
    let mut total = 0.0;
    let mut weight = 0.0;
    for (chance, result, cost) in [
        (1.0 - p, ShotResult::Miss, 1.0),
        (boat, ShotResult::Sunk(ShipType::Boat), 0.0),
        (p - boat, ShotResult::Hit, 0.0),
    ] {
        if chance <= 1e-12 {
            continue;
        }
        if let Some(v) = after(result) {
            total += chance * (cost + v);
            weight += chance;
        }
    }
    if weight > 0.0 {
        total / weight
    } else {
        f64::INFINITY
    }
}

/// The learned hunter's shot at the sea seen in `view` (module documentation), its
/// belief tilted by `tilt` when given (the adaptive placement prior).
pub fn hunt(
    view: &View,
    rng: &mut Rng,
    limits: &Limits<'_>,
    value: &Value,
    settings: &Settings,
    tilt: Option<&Tilt>,
) -> Option<Cell> {
    let mut belief = hunter::belief(view, rng, limits, 0);
    if let Some(tilt) = tilt {
        tilt.apply(view, &mut belief);
    }
    let first = hunter::best(view, &belief.worth, rng)?;
    if !rollout::plans(view) || settings.candidates < 2 {
        return Some(first);
    }
    let mut boats = LastBoats::new();
    let candidates = rollout::candidates(view, &belief.worth, first, settings.candidates);
    let base = score(view, first, &belief, value, &mut boats);
    let mut chosen = first;
    let mut best = base - settings.margin;
    for &cell in candidates.iter().skip(1) {
        let s = score(view, cell, &belief, value, &mut boats);
        if s < best {
            best = s;
            chosen = cell;
        }
    }
    Some(chosen)
}

/// One training sample: a view's features and the misses that followed it.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub features: [f64; FEATURES],
    pub misses: f64,
}

/// The samples of one game of the base hunter (with `effort`) against a uniform
/// fleet drawn from `seed`: every view before only unwounded boats remain, labelled
/// with the misses from there to that point plus the last boats' exact expectation.
#[must_use]
pub fn game_samples(seed: u64, effort: &Effort) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    let fleet = super::random_fleet(&mut rng);
    let free = Limits::depth(1);
    let mut view = View::new();
    let mut boats = LastBoats::new();
    let mut seen: Vec<([f64; FEATURES], u32)> = Vec::new();
    let mut misses = 0u32;
    let total = loop {
        if let Some((open, afloat)) = last_boats(&view) {
            break f64::from(misses) + boats.greedy_misses(open, afloat);
        }
        seen.push((features(&view), misses));
        let Some(cell) = hunter::hunt_with(&view, &mut rng, &free, effort) else {
            break f64::from(misses);
        };
        match view.record_judged(&fleet, cell) {
            Ok(ShotResult::Miss) => misses += 1,
            Ok(_) => {}
            Err(_) => break f64::from(misses),
        }
    };
    seen.into_iter()
        .map(|(features, before)| Sample {
            features,
            misses: total - f64::from(before),
        })
        .collect()
}

/// The samples of `games` games (game `i` from seed `seed + i`), played on `threads`
/// threads, in game order: the same for a seed whatever the threads.
#[must_use]
pub fn training_data(games: u64, seed: u64, effort: &Effort, threads: usize) -> Vec<Sample> {
    let threads = threads.clamp(1, 64) as u64;
    let parts: Vec<Vec<Vec<Sample>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (0..games)
                        .filter(|i| i % threads == t)
                        .map(|i| game_samples(seed.wrapping_add(i), effort))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut out = Vec::new();
    for i in 0..games {
        let t = (i % threads) as usize;
        let k = (i / threads) as usize;
        if let Some(game) = parts.get(t).and_then(|p| p.get(k)) {
            out.extend(game.iter().cloned());
        }
    }
    out
}

/// The least-squares fit of misses on features with a small ridge `lambda` (per
/// sample), and its root-mean-square error on the samples.
#[must_use]
pub fn fit(samples: &[Sample], lambda: f64) -> (Value, f64) {
    let mut a = [[0.0; FEATURES]; FEATURES];
    let mut b = [0.0; FEATURES];
    for s in samples {
        for (i, &xi) in s.features.iter().enumerate() {
            for (slot, &xj) in a[i].iter_mut().zip(&s.features) {
                *slot += xi * xj;
            }
            b[i] += xi * s.misses;
        }
    }
    let ridge = lambda * samples.len().max(1) as f64;
    for (i, row) in a.iter_mut().enumerate().skip(1) {
        row[i] += ridge;
    }
    let weights = crate::ai::linear::solve(a, b).unwrap_or([0.0; FEATURES]);
    let value = Value { weights };
    let sse: f64 = samples
        .iter()
        .map(|s| (value.of_features(&s.features) - s.misses).powi(2))
        .sum();
    let rmse = (sse / samples.len().max(1) as f64).sqrt();
    (value, rmse)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::battleship::random_fleet;
    use crate::ai::battleship::rollout::ROLLOUT_EFFORT;

    #[test]
    fn the_fit_recovers_a_linear_law() {
        let mut rng = Rng::new(3);
        let samples: Vec<Sample> = (0..400)
            .map(|_| {
                let mut f = [0.0; FEATURES];
                f[0] = 1.0;
                for x in f.iter_mut().skip(1) {
                    *x = rng.unit();
                }
                Sample {
                    features: f,
                    misses: 2.0 + 3.0 * f[1] - 1.5 * f[5],
                }
            })
            .collect();
        let (value, rmse) = fit(&samples, 0.0);
        assert!(rmse < 1e-6, "{rmse}");
        assert!((value.weights[0] - 2.0).abs() < 1e-6);
        assert!((value.weights[1] - 3.0).abs() < 1e-6);
        assert!((value.weights[5] + 1.5).abs() < 1e-6);
    }

    #[test]
    fn training_reproduces_from_a_seed() {
        let a = training_data(3, 11, &ROLLOUT_EFFORT, 2);
        let b = training_data(3, 11, &ROLLOUT_EFFORT, 1);
        assert!(a.len() > 30, "{}", a.len());
        assert_eq!(a, b);
        let (va, _) = fit(&a, 1e-3);
        let (vb, _) = fit(&b, 1e-3);
        assert_eq!(va, vb);
        let c = training_data(3, 12, &ROLLOUT_EFFORT, 2);
        assert_ne!(a, c);
    }

    #[test]
    fn labels_count_down_to_the_last_boats() {
        let samples = game_samples(5, &ROLLOUT_EFFORT);
        let first = samples.first().unwrap();
        // From the empty sea: every open cell, all twenty ship cells left.
        assert!((first.features[1] - 1.0).abs() < 1e-12);
        assert!((first.features[2] - 1.0).abs() < 1e-12);
        // Misses to come never grow from one shot to the next, and fall by at most one.
        for pair in samples.windows(2) {
            let drop = pair[0].misses - pair[1].misses;
            assert!(drop > -1e-9 && drop < 1.0 + 1e-9, "{drop}");
        }
    }

    #[test]
    fn the_builtin_weights_load() {
        let value = Value::builtin();
        assert!(value.weights.iter().any(|&w| w != 0.0));
        // From the empty sea the value is near the hunter's measured 35 misses.
        let v = value.of(&View::new(), &mut LastBoats::new());
        assert!((25.0..45.0).contains(&v), "{v}");
        assert_eq!(Value::parse(&value.line()).as_ref(), Some(value));
    }

    /// Plays the learned hunter against the fleet of `fleet_seed` with `seed`.
    fn play(fleet_seed: u64, seed: u64) -> (Vec<Cell>, usize) {
        let fleet = random_fleet(&mut Rng::new(fleet_seed));
        let mut rng = Rng::new(seed);
        let mut view = View::new();
        let mut cells = Vec::new();
        let mut hits = 0;
        let free = Limits::depth(1);
        while !view.all_sunk() {
            let cell = hunt(
                &view,
                &mut rng,
                &free,
                Value::builtin(),
                &Settings::default(),
                None,
            )
            .unwrap();
            assert!(view.is_open(cell), "{cell} is known");
            if view.record_judged(&fleet, cell).unwrap() != ShotResult::Miss {
                hits += 1;
            }
            cells.push(cell);
            assert!(cells.len() <= 100);
        }
        (cells, hits)
    }

    #[test]
    fn the_learned_hunter_fires_at_open_cells_and_sinks_with_twenty_hits() {
        for k in 0..3 {
            let (_, hits) = play(100 + k, k);
            assert_eq!(hits, 20);
        }
    }

    #[test]
    fn the_learned_hunter_is_deterministic_per_seed() {
        assert_eq!(play(7, 9), play(7, 9));
    }
}
