//! The adaptive placement prior: opponents do not place fleets uniformly, and at one
//! table the same opponent places game after game, perhaps drawing a style afresh
//! for every fleet. After each game its whole fleet is known; a [`Posterior`] over
//! the weights of a mixture of a few placement [`Style`]s (each a sampler of legal
//! fleets) is updated with it. In the next game the hunter's belief is tilted
//! towards the styles ([`Tilt`]), their chances updated by the game's shots.
//!
//! - **Tables** ([`StyleTables`], built in from `hunter.weights`, written by `tabula
//!   train battleship`): per style, sampled fleets give the share of each ship
//!   length's cells on each cell (averaged over the eight symmetries of the sea) and
//!   the distribution of the fleet's footprint (its ships and their rings, in
//!   buckets of [`BUCKET`] cells, which tells compact fleets from spread ones).
//! - **Likelihood** of a fleet under a style: per ship, the mean log share of its
//!   cells for its length, plus the log share of its footprint's bucket. A
//!   pseudo-likelihood (the cells of one fleet are not independent).
//! - **Mixture weights** ([`Posterior`]): a Dirichlet prior over the styles'
//!   weights, each fleet drawn from one style picked by them; the posterior is fitted
//!   by mean-field variational Bayes over the fleets seen, each weighing [`DECAY`]
//!   times the next one's, so it can follow an opponent that changes.
//! - **In the game** ([`Tilt::game_posterior`]): the chance of each style having
//!   placed this fleet starts at the expected weights and takes Bayes' rule with a
//!   pseudo-likelihood of the view: per sunk ship the mean log share of its cells,
//!   per miss the log chance of water there, per wounded ship the mean log chance of
//!   a ship cell on its hits.
//! - **Tilt**: the hunter's belief (uniform prior, exact or sampled) per ship length
//!   and cell is multiplied by the game's style mixture's share over the uniform
//!   style's share, then rescaled so each length keeps its expected number of open
//!   cells. This weighs the posterior fleets by the mixture's marginals rather than
//!   drawing them from the mixture itself: it moves the hunter to the border against a
//!   border-hugging opponent, but does not model how ships cluster beyond their
//!   footprint's cells.

use std::sync::OnceLock;

use crate::games::battleship::cell::SIZE;
use crate::games::battleship::{Cell, Fleet, ShipType, ShotResult, View};
use crate::rng::Rng;

use super::hunter::{Belief, HIT_VALUE};
use super::placer::{border_fleet, compact_fleet, footprint, packed_fleet, random_fleet};

/// A way of placing fleets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Uniform over all legal fleets.
    Uniform,
    /// The longer ships along the border, the boats inside.
    Border,
    /// The most compact of several uniform fleets.
    Compact,
    /// The longer ships packed together, the boats alone in the open water they
    /// leave (the placer's packed fleets).
    Packed,
}

/// The number of styles.
pub const STYLES: usize = Style::ALL.len();
/// Cells of the sea.
const CELLS: usize = SIZE as usize * SIZE as usize;
/// Ship lengths of the fleet (one table row each).
const LENGTHS: usize = ShipType::ALL.len();
/// One value per cell for each ship length.
type PerLength = [[f64; CELLS]; LENGTHS];

impl Style {
    /// Every style, in table order.
    pub const ALL: [Style; 4] = [Style::Uniform, Style::Border, Style::Compact, Style::Packed];

    /// The style's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Style::Uniform => "uniform",
            Style::Border => "border",
            Style::Compact => "compact",
            Style::Packed => "packed",
        }
    }

    /// The style named `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Style> {
        Style::ALL.into_iter().find(|s| s.name() == name)
    }

    /// A fleet placed in this style.
    pub fn sample(self, rng: &mut Rng) -> Fleet {
        match self {
            Style::Uniform => random_fleet(rng),
            Style::Border => border_fleet(rng),
            Style::Compact => compact_fleet(rng),
            Style::Packed => packed_fleet(rng),
        }
    }

    fn index(self) -> usize {
        match self {
            Style::Uniform => 0,
            Style::Border => 1,
            Style::Compact => 2,
            Style::Packed => 3,
        }
    }
}

/// Footprint cells per bucket.
pub const BUCKET: usize = 4;
/// Footprint buckets (footprints of 0 to 100 cells).
pub const BUCKETS: usize = CELLS / BUCKET + 1;

/// The styles' tables (module documentation): per style, per length (index
/// `len - 1`) the share of that length's cells on each cell (summing to 1), and the
/// share of each footprint bucket.
#[derive(Clone, Debug, PartialEq)]
pub struct StyleTables {
    pub cells: [PerLength; STYLES],
    pub footprint: [[f64; BUCKETS]; STYLES],
}

fn bucket(fleet: &Fleet) -> usize {
    (footprint(fleet) / BUCKET).min(BUCKETS - 1)
}

/// The eight images of `cell` under the symmetries of the sea.
fn images(cell: Cell) -> [usize; 8] {
    let (c, r) = (cell.col(), cell.row());
    let pairs = [
        (c, r),
        (9 - c, r),
        (c, 9 - r),
        (9 - c, 9 - r),
        (r, c),
        (9 - r, c),
        (r, 9 - c),
        (9 - r, 9 - c),
    ];
    pairs.map(|(c, r)| Cell::at(c, r).map_or(0, Cell::index))
}

impl StyleTables {
    /// Tables from `fleets` fleets of each style, drawn from `seed`.
    #[must_use]
    pub fn sample(fleets: usize, seed: u64) -> StyleTables {
        let mut cells = [[[0.0; CELLS]; LENGTHS]; STYLES];
        let mut footprint = [[0.0; BUCKETS]; STYLES];
        for style in Style::ALL {
            let s = style.index();
            let mut rng = Rng::new(seed ^ (s as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut counts: PerLength = [[0.0; CELLS]; LENGTHS];
            let mut buckets = [0.5; BUCKETS]; // half a fleet in each: none is impossible
            for _ in 0..fleets {
                let fleet = style.sample(&mut rng);
                for ship in fleet.ships() {
                    for cell in ship.cells() {
                        for i in images(cell) {
                            if let Some(x) =
                                counts.get_mut(ship.len() - 1).and_then(|r| r.get_mut(i))
                            {
                                *x += 1.0;
                            }
                        }
                    }
                }
                if let Some(b) = buckets.get_mut(bucket(&fleet)) {
                    *b += 1.0;
                }
            }
            if let Some(out) = cells.get_mut(s) {
                for (row, count) in out.iter_mut().zip(&counts) {
                    // Half a ship cell on every cell: no cell is impossible.
                    let total: f64 = count.iter().map(|x| x + 0.5).sum();
                    for (x, n) in row.iter_mut().zip(count) {
                        *x = (n + 0.5) / total;
                    }
                }
            }
            if let Some(out) = footprint.get_mut(s) {
                let total: f64 = buckets.iter().sum();
                for (x, n) in out.iter_mut().zip(&buckets) {
                    *x = n / total;
                }
            }
        }
        StyleTables { cells, footprint }
    }

    /// The tables as lines of a weights file: `cells STYLE LEN` and `footprint STYLE`,
    /// each followed by its numbers.
    #[must_use]
    pub fn lines(&self) -> String {
        let mut out = String::new();
        for style in Style::ALL {
            let s = style.index();
            for (l, row) in self.cells.get(s).into_iter().flatten().enumerate() {
                let numbers: Vec<String> = row.iter().map(|x| format!("{x:.6}")).collect();
                out.push_str(&format!(
                    "cells {} {} {}\n",
                    style.name(),
                    l + 1,
                    numbers.join(" ")
                ));
            }
            if let Some(row) = self.footprint.get(s) {
                let numbers: Vec<String> = row.iter().map(|x| format!("{x:.6}")).collect();
                out.push_str(&format!(
                    "footprint {} {}\n",
                    style.name(),
                    numbers.join(" ")
                ));
            }
        }
        out
    }

    /// The tables of a weights file; `None` when one is missing or malformed.
    #[must_use]
    pub fn parse(text: &str) -> Option<StyleTables> {
        let mut cells = [[[0.0; CELLS]; LENGTHS]; STYLES];
        let mut footprint = [[0.0; BUCKETS]; STYLES];
        let mut seen = 0usize;
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["cells", style, len, rest @ ..] => {
                    let s = Style::from_name(style)?.index();
                    let l = len.parse::<usize>().ok()?.checked_sub(1)?;
                    let row: [f64; CELLS] = numbers(rest)?.try_into().ok()?;
                    *cells.get_mut(s)?.get_mut(l)? = row;
                    seen += 1;
                }
                ["footprint", style, rest @ ..] => {
                    let s = Style::from_name(style)?.index();
                    let row: [f64; BUCKETS] = numbers(rest)?.try_into().ok()?;
                    *footprint.get_mut(s)? = row;
                    seen += 1;
                }
                _ => {}
            }
        }
        // Per style a cells line per ship length and a footprint line.
        let lines = STYLES * (ShipType::ALL.len() + 1);
        (seen == lines).then_some(StyleTables { cells, footprint })
    }

    /// The tables built into the engine (`hunter.weights`), or `None` if it has none.
    #[must_use]
    pub fn builtin() -> Option<&'static StyleTables> {
        static TABLES: OnceLock<Option<StyleTables>> = OnceLock::new();
        TABLES
            .get_or_init(|| StyleTables::parse(super::learned::WEIGHTS_FILE))
            .as_ref()
    }

    /// The log pseudo-likelihood of `fleet` under `style` (module documentation).
    #[must_use]
    pub fn log_likelihood(&self, style: Style, fleet: &Fleet) -> f64 {
        let s = style.index();
        let Some(maps) = self.cells.get(s) else {
            return 0.0;
        };
        let mut total = 0.0;
        for ship in fleet.ships() {
            let row = maps.get(ship.len() - 1);
            let sum: f64 = ship
                .cells()
                .map(|c| {
                    row.and_then(|r| r.get(c.index()))
                        .copied()
                        .unwrap_or(1e-9)
                        .ln()
                })
                .sum();
            total += sum / ship.len() as f64;
        }
        let b = self
            .footprint
            .get(s)
            .and_then(|r| r.get(bucket(fleet)))
            .copied()
            .unwrap_or(1e-9);
        total + b.ln()
    }
}

fn numbers(words: &[&str]) -> Option<Vec<f64>> {
    words.iter().map(|w| w.parse().ok()).collect()
}

/// Each earlier game's weight in the mixture's posterior is this times the next
/// one's: the posterior forgets, so it can follow an opponent that changes.
pub const DECAY: f64 = 0.97;
/// The Dirichlet prior's pseudo-count per style.
pub const PRIOR: f64 = 1.0;
/// The games the posterior keeps (older ones weigh under `DECAY^MEMORY`).
pub const MEMORY: usize = 200;

/// Belief over the mixture of styles an opponent places its fleets by at one table:
/// the mixture weights `w` (a share per style) have a Dirichlet prior ([`PRIOR`]
/// each), and each fleet it placed was drawn from one style, picked with `w`. The
/// posterior `p(w | fleets)` is fitted by mean-field variational Bayes: `q(w)` a
/// Dirichlet (`alpha`), each fleet's style a categorical (its responsibilities),
/// each fleet weighing [`DECAY`] times the next one's.
#[derive(Clone, Debug, PartialEq)]
pub struct Posterior {
    /// The Dirichlet parameters of the weights' posterior, in [`Style::ALL`] order.
    pub alpha: [f64; STYLES],
    /// Each earlier game's weight relative to the next one's.
    pub decay: f64,
    /// Per game kept (oldest first), its fleet's log pseudo-likelihood per style.
    games: Vec<[f64; STYLES]>,
}

impl Default for Posterior {
    fn default() -> Self {
        Posterior::new()
    }
}

/// The digamma function, for `x > 0` (recurrence to `x >= 6`, then the asymptotic
/// series).
fn digamma(mut x: f64) -> f64 {
    let mut r = 0.0;
    while x < 6.0 {
        r -= 1.0 / x;
        x += 1.0;
    }
    let f = 1.0 / (x * x);
    r + x.ln()
        - 0.5 / x
        - f * (1.0 / 12.0 - f * (1.0 / 120.0 - f * (1.0 / 252.0 - f * (1.0 / 240.0 - f / 132.0))))
}

/// `weights` (logs, up to a constant) normalised to probabilities.
fn normalised(logs: [f64; STYLES]) -> [f64; STYLES] {
    let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !top.is_finite() {
        return [1.0 / STYLES as f64; STYLES];
    }
    let w = logs.map(|l| (l - top).exp());
    let total: f64 = w.iter().sum();
    w.map(|x| x / total)
}

impl Posterior {
    /// No game seen: the prior, even weights.
    #[must_use]
    pub fn new() -> Posterior {
        Posterior::with_decay(DECAY)
    }

    /// No game seen, each earlier game weighing `decay` times the next (1: no
    /// forgetting).
    #[must_use]
    pub fn with_decay(decay: f64) -> Posterior {
        Posterior {
            alpha: [PRIOR; STYLES],
            decay: decay.clamp(0.0, 1.0),
            games: Vec::new(),
        }
    }

    /// The expected mixture weights.
    #[must_use]
    pub fn weights(&self) -> [f64; STYLES] {
        let total: f64 = self.alpha.iter().sum();
        self.alpha.map(|a| a / total)
    }

    /// The expected weight of `style`.
    #[must_use]
    pub fn of(&self, style: Style) -> f64 {
        self.weights().get(style.index()).copied().unwrap_or(0.0)
    }

    /// The games the posterior has kept.
    #[must_use]
    pub fn games(&self) -> usize {
        self.games.len()
    }

    /// Learns the fleet the opponent placed in the game that ended.
    pub fn update(&mut self, fleet: &Fleet, tables: &StyleTables) {
        let logs = Style::ALL.map(|style| tables.log_likelihood(style, fleet));
        self.games.push(logs);
        if self.games.len() > MEMORY {
            let extra = self.games.len() - MEMORY;
            self.games.drain(..extra);
        }
        self.fit();
    }

    /// Variational Bayes to a fixed point: responsibilities from `E[ln w]` under the
    /// current Dirichlet, then the Dirichlet from the prior plus the weighted
    /// responsibilities.
    fn fit(&mut self) {
        for _ in 0..200 {
            let total = digamma(self.alpha.iter().sum());
            let elog = self.alpha.map(|a| digamma(a) - total);
            let mut next = [PRIOR; STYLES];
            let mut weight = 1.0;
            for logs in self.games.iter().rev() {
                let mut joint = [0.0; STYLES];
                for ((j, e), l) in joint.iter_mut().zip(elog).zip(logs) {
                    *j = e + l;
                }
                for (a, r) in next.iter_mut().zip(normalised(joint)) {
                    *a += weight * r;
                }
                weight *= self.decay;
            }
            let change = next
                .iter()
                .zip(&self.alpha)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            self.alpha = next;
            if change < 1e-9 {
                break;
            }
        }
    }

    /// The tilt of the hunter's belief for the next game (module documentation): its
    /// prior over the style that placed it is the expected weights, updated within
    /// the game by what the hunter sees.
    #[must_use]
    pub fn tilt(&self, tables: &StyleTables) -> Tilt {
        Tilt::new(self.weights(), tables)
    }
}

/// The adaptive prior of one game: a prior over the style that placed the fleet
/// hunted, the styles' tables it needs to update that prior with the view, and per
/// style the factor by which its cell shares weigh the uniform prior's belief.
#[derive(Clone, Debug, PartialEq)]
pub struct Tilt {
    /// The game's prior over the styles (the mixture's expected weights).
    pub prior: [f64; STYLES],
    /// Whether the styles' probabilities are updated with the game's shots; without,
    /// the prior weighs the styles all game.
    pub in_game: bool,
    /// Per style, length and cell: the style's share over the uniform style's.
    ratio: Vec<PerLength>,
    /// Per style, length and cell: the log share.
    log_share: Vec<PerLength>,
    /// Per style and cell: the log chance of a ship cell there, and of water.
    log_ship: Vec<[f64; CELLS]>,
    log_water: Vec<[f64; CELLS]>,
}

impl Tilt {
    /// The tilt with prior `prior` over the styles.
    #[must_use]
    pub fn new(prior: [f64; STYLES], tables: &StyleTables) -> Tilt {
        let uniform = tables.cells.first();
        let mut ratio = Vec::with_capacity(STYLES);
        let mut log_share = Vec::with_capacity(STYLES);
        let mut log_ship = Vec::with_capacity(STYLES);
        let mut log_water = Vec::with_capacity(STYLES);
        for maps in &tables.cells {
            let mut r = [[1.0; CELLS]; LENGTHS];
            let mut l = [[0.0; CELLS]; LENGTHS];
            let mut occupied = [0.0; CELLS];
            for (len, ((rr, ll), shares)) in r.iter_mut().zip(l.iter_mut()).zip(maps).enumerate() {
                // A fleet's ship cells of this length (B2).
                let cells =
                    ShipType::from_len(len + 1).map_or(0.0, |k| (k.len() * k.count()) as f64);
                for (i, ((x, y), &share)) in
                    rr.iter_mut().zip(ll.iter_mut()).zip(shares).enumerate()
                {
                    let base = uniform
                        .and_then(|u| u.get(len))
                        .and_then(|u| u.get(i))
                        .copied()
                        .unwrap_or(0.01);
                    *x = share / base.max(1e-12);
                    *y = share.max(1e-12).ln();
                    if let Some(o) = occupied.get_mut(i) {
                        *o += cells * share;
                    }
                }
            }
            ratio.push(r);
            log_share.push(l);
            log_ship.push(occupied.map(|o: f64| o.clamp(1e-6, 0.95).ln()));
            log_water.push(occupied.map(|o: f64| (1.0 - o.clamp(1e-6, 0.95)).ln()));
        }
        Tilt {
            prior,
            in_game: true,
            ratio,
            log_share,
            log_ship,
            log_water,
        }
    }

    /// The same tilt without the in-game update: the prior weighs the styles all game.
    #[must_use]
    pub fn fixed(&self) -> Tilt {
        Tilt {
            in_game: false,
            ..self.clone()
        }
    }

    /// The probability of each style having placed the fleet seen in `view`: the
    /// prior times a pseudo-likelihood of the view, per sunk ship the mean log share
    /// of its cells for its length, per miss the log chance of water there, per
    /// wounded ship the mean log chance of a ship cell on its hits.
    #[must_use]
    pub fn game_posterior(&self, view: &View) -> [f64; STYLES] {
        if !self.in_game {
            return self.prior;
        }
        let mut logs = self.prior.map(|p| p.max(1e-300).ln());
        let wounded = view.wounded();
        let misses = || {
            view.shots()
                .iter()
                .filter(|s| s.result == ShotResult::Miss)
                .map(|s| s.cell.index())
        };
        for (s, log) in logs.iter_mut().enumerate() {
            let (Some(shares), Some(ship), Some(water)) = (
                self.log_share.get(s),
                self.log_ship.get(s),
                self.log_water.get(s),
            ) else {
                continue;
            };
            for sunk in view.sunk() {
                let row = shares.get(sunk.len() - 1);
                let sum: f64 = sunk
                    .cells()
                    .filter_map(|c| row.and_then(|r| r.get(c.index())))
                    .sum();
                *log += sum / sunk.len() as f64;
            }
            for i in misses() {
                *log += water.get(i).copied().unwrap_or(0.0);
            }
            for group in &wounded {
                let sum: f64 = group.iter().filter_map(|c| ship.get(c.index())).sum();
                *log += sum / group.len().max(1) as f64;
            }
        }
        normalised(logs)
    }

    /// Tilts `belief` (of `view`): each length's probabilities times the ratio of the
    /// game's style mixture, rescaled to the same sum over the open cells; then the
    /// cell probabilities (capped at 1) and worths again.
    pub fn apply(&self, view: &View, belief: &mut Belief) {
        let q = self.game_posterior(view);
        let mut mix = [[0.0; CELLS]; LENGTHS];
        for (w, ratio) in q.iter().zip(&self.ratio) {
            for (m, r) in mix.iter_mut().zip(ratio) {
                for (x, y) in m.iter_mut().zip(r) {
                    *x += w * y;
                }
            }
        }
        let open: Vec<usize> = view.open_cells().map(Cell::index).collect();
        for (row, ratio) in belief.by_length.iter_mut().zip(&mix) {
            let before: f64 = open.iter().filter_map(|&i| row.get(i)).sum();
            let mut after = 0.0;
            for &i in &open {
                if let (Some(x), Some(r)) = (row.get_mut(i), ratio.get(i)) {
                    *x *= r;
                    after += *x;
                }
            }
            if after > 0.0 {
                let scale = before / after;
                for &i in &open {
                    if let Some(x) = row.get_mut(i) {
                        *x *= scale;
                    }
                }
            }
        }
        for &i in &open {
            let lengths: Vec<f64> = belief
                .by_length
                .iter()
                .map(|row| row.get(i).copied().unwrap_or(0.0))
                .collect();
            let p: f64 = lengths.iter().sum();
            let cap = if p > 1.0 { 1.0 / p } else { 1.0 };
            let worth: f64 = lengths.iter().zip(HIT_VALUE).map(|(x, v)| x * v).sum();
            if let (Some(a), Some(b)) = (belief.p.get_mut(i), belief.worth.get_mut(i)) {
                *a = p * cap;
                *b = worth * cap;
            }
        }
    }
}

/// The base hunter's shot with its belief tilted by `tilt`: the open cell of highest
/// worth under the adaptive prior.
pub fn hunt(
    view: &View,
    rng: &mut Rng,
    limits: &crate::ai::Limits<'_>,
    tilt: &Tilt,
) -> Option<Cell> {
    let mut belief = super::hunter::belief(view, rng, limits, 0);
    tilt.apply(view, &mut belief);
    super::hunter::best(view, &belief.worth, rng)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables() -> &'static StyleTables {
        StyleTables::builtin().expect("the built-in weights hold the style tables")
    }

    /// A prior certain of `style`.
    fn only(style: Style) -> [f64; STYLES] {
        Style::ALL.map(|s| if s == style { 1.0 } else { 0.0 })
    }

    #[test]
    fn the_posterior_moves_to_the_style_that_placed_a_run_of_fleets() {
        for style in Style::ALL {
            let mut rng = Rng::new(40 + style.index() as u64);
            let mut posterior = Posterior::new();
            let mut history = vec![posterior.of(style)];
            for _ in 0..8 {
                posterior.update(&style.sample(&mut rng), tables());
                history.push(posterior.of(style));
            }
            let last = history.last().copied().unwrap();
            assert!(last > 0.6, "{}: {history:?}", style.name());
            for other in Style::ALL.into_iter().filter(|&o| o != style) {
                assert!(
                    posterior.of(other) < last,
                    "{}: {:?}",
                    style.name(),
                    posterior
                );
            }
        }
    }

    #[test]
    fn forgetting_lets_the_posterior_come_back() {
        let mut rng = Rng::new(9);
        let mut posterior = Posterior::new();
        for _ in 0..6 {
            posterior.update(&Style::Border.sample(&mut rng), tables());
        }
        assert!(posterior.of(Style::Border) > 0.5, "{posterior:?}");
        for _ in 0..12 {
            posterior.update(&Style::Uniform.sample(&mut rng), tables());
        }
        assert!(posterior.of(Style::Border) < 0.5, "{posterior:?}");
        assert!(posterior.of(Style::Uniform) > posterior.of(Style::Border));
    }

    /// Per true style (rows), the mean responsibility the tables' pseudo-likelihood
    /// gives each style (columns) under even weights, over `n` fleets of `seed`.
    fn confusion(n: usize, seed: u64) -> [[f64; STYLES]; STYLES] {
        let mut rng = Rng::new(seed);
        Style::ALL.map(|truth| {
            let mut mean = [0.0; STYLES];
            for _ in 0..n {
                let fleet = truth.sample(&mut rng);
                let r = normalised(Style::ALL.map(|s| tables().log_likelihood(s, &fleet)));
                for (m, x) in mean.iter_mut().zip(r) {
                    *m += x / n as f64;
                }
            }
            mean
        })
    }

    #[test]
    fn the_mixture_weights_recover_a_known_mixture() {
        // Fleets drawn from a known mixture, the posterior without forgetting.
        let truth = [0.2, 0.4, 0.15, 0.25];
        let n = MEMORY;
        let mut rng = Rng::new(123);
        let mut posterior = Posterior::with_decay(1.0);
        let mut counts = [0.0; STYLES];
        for _ in 0..n {
            // The first style whose cumulative share passes the roll.
            let roll = rng.below(1000) as f64 / 1000.0;
            let mut below = 0.0;
            let k = (0..STYLES)
                .find(|&k| {
                    below += truth[k];
                    roll < below
                })
                .unwrap_or(STYLES - 1);
            counts[k] += 1.0;
            posterior.update(&Style::ALL[k].sample(&mut rng), tables());
        }
        assert_eq!(posterior.games(), n);
        // The tolerance: the pseudo-likelihood confuses styles (uniform fleets can be
        // compact ones). With the confusion measured on other fleets (each fleet's
        // responsibilities under even weights), averaging the responsibilities would
        // give style j the share sum_k truth_k confusion[k][j]; the fit, which weighs
        // them by the weights it finds, should stray from the truth no more than that,
        // plus four standard errors of the drawn shares (a multinomial of n).
        let confusion = confusion(100, 321);
        let weights = posterior.weights();
        for k in 0..STYLES {
            let se = (truth[k] * (1.0 - truth[k]) / n as f64).sqrt();
            let averaged: f64 = (0..STYLES).map(|j| truth[j] * confusion[j][k]).sum();
            let tolerance = (averaged - truth[k]).abs() + 4.0 * se;
            assert!(
                (weights[k] - truth[k]).abs() < tolerance,
                "style {k}: weights {weights:?}, truth {truth:?}, drawn {counts:?}, \
                 tolerance {tolerance:.3} (confusion {confusion:?})"
            );
        }
        // And the mixture, not one style: the posterior of single styles would sit
        // near the last fleet's style.
        assert!(weights.iter().all(|&w| w > 0.1 && w < 0.7), "{weights:?}");
    }

    /// The battleship of `fleet`.
    fn battleship_of(fleet: &Fleet) -> crate::games::battleship::Ship {
        fleet
            .ships()
            .iter()
            .copied()
            .find(|s| s.len() == 4)
            .unwrap()
    }

    /// Fires at the cells of `ship` in `fleet` (it must be one of the fleet's).
    fn sink(view: &mut View, fleet: &Fleet, ship: crate::games::battleship::Ship) {
        for cell in ship.cells() {
            view.record_judged(fleet, cell).unwrap();
        }
    }

    #[test]
    fn the_game_posterior_moves_to_border_when_a_border_ship_sinks() {
        let even = 1.0 / STYLES as f64;
        let tilt = Tilt::new([even; STYLES], tables());
        assert_eq!(tilt.game_posterior(&View::new()), [even; STYLES]);
        let border = Style::Border.index();
        let mut rng = Rng::new(5);
        let fleet = Style::Border.sample(&mut rng);
        let battleship = battleship_of(&fleet);
        let on_border = |c: Cell| c.col() == 0 || c.col() == 9 || c.row() == 0 || c.row() == 9;
        assert!(battleship.cells().all(on_border), "{battleship:?}");
        let mut view = View::new();
        sink(&mut view, &fleet, battleship);
        let q = tilt.game_posterior(&view);
        let leads = |q: [f64; STYLES]| (0..STYLES).all(|s| s == border || q[border] > q[s]);
        assert!(q[border] > even && leads(q), "{q:?}");
        // Every big ship of the border fleet sunk: border is nearly certain.
        for ship in fleet.ships().iter().filter(|s| s.len() > 1 && s.len() < 4) {
            sink(&mut view, &fleet, *ship);
        }
        let q = tilt.game_posterior(&view);
        let far_ahead = (0..STYLES).all(|s| s == border || q[border] > 3.0 * q[s]);
        assert!(q[border] > 0.75 && far_ahead, "{q:?}");
        // A battleship sunk in the middle moves it away from border.
        let inner = Fleet::parse("D4-G4 A1-A3 J1-J3 A6-A7 J6-J7 C9-D9 F10 H10 J10 H8");
        let inner = inner.unwrap();
        let big = battleship_of(&inner);
        let mut view = View::new();
        sink(&mut view, &inner, big);
        let q = tilt.game_posterior(&view);
        assert!(q[border] < even, "{q:?}");
        // Misses on the border move it away from border too.
        let mut empty = View::new();
        for cell in Cell::all().filter(|c| c.row() == 0 && inner.ship_at(*c).is_none()) {
            empty.record_judged(&inner, cell).unwrap();
        }
        let q = tilt.game_posterior(&empty);
        assert!(q[border] < even, "{q:?}");
        // Without the in-game update, the prior.
        assert_eq!(tilt.fixed().game_posterior(&empty), tilt.prior);
    }

    #[test]
    fn the_game_posterior_moves_to_packed_when_a_packed_fleet_sinks() {
        // Every ship of a packed fleet sunk, from even chances: packed fleets keep
        // their longer ships by the edges, as border fleets do, but their boats in
        // the second ring and some longer ships inside, which border fleets never do.
        let packed = Style::Packed.index();
        let tilt = Tilt::new([1.0 / STYLES as f64; STYLES], tables());
        let (mut leads, mut total, n) = (0, 0.0, 12);
        for seed in 0..n {
            let fleet = Style::Packed.sample(&mut Rng::new(seed));
            let mut view = View::new();
            for ship in fleet.ships() {
                sink(&mut view, &fleet, *ship);
            }
            let q = tilt.game_posterior(&view);
            if (0..STYLES).all(|s| s == packed || q[packed] > q[s]) {
                leads += 1;
            }
            total += q[packed];
        }
        let mean = total / n as f64;
        assert!(
            leads >= 10 && mean > 0.75,
            "packed leads {leads} of {n}, mean {mean}"
        );
    }

    #[test]
    fn adaptive_hunters_fire_at_open_cells_and_end_at_twenty_hits() {
        let mut posterior = Posterior::new();
        let mut rng = Rng::new(11);
        for style in [Style::Border, Style::Packed, Style::Compact, Style::Uniform] {
            let fleet = style.sample(&mut rng);
            for tilt in [posterior.tilt(tables()), posterior.tilt(tables()).fixed()] {
                let mut view = View::new();
                let mut shots = 0;
                while !view.all_sunk() {
                    let limits = crate::ai::Limits::depth(1);
                    let cell = hunt(&view, &mut rng, &limits, &tilt).unwrap();
                    assert!(view.is_open(cell), "{} fired at known {cell}", style.name());
                    view.record_judged(&fleet, cell).unwrap();
                    shots += 1;
                    assert!(shots <= 100);
                }
                assert_eq!(view.hits(), 20, "{}", style.name());
            }
            posterior.update(&fleet, tables());
        }
    }

    #[test]
    fn a_border_tilt_moves_the_belief_to_the_border() {
        let tilt = Tilt::new(only(Style::Border), tables());
        let view = View::new();
        let mut by_length = [[0.0; CELLS]; LENGTHS];
        for row in &mut by_length {
            row.fill(0.05);
        }
        let mut belief = Belief::from_lengths(
            &view,
            &by_length,
            Vec::new(),
            super::super::hunter::Source::Exact,
        );
        let before: f64 = belief.p.iter().sum();
        tilt.apply(&view, &mut belief);
        let after: f64 = belief.p.iter().sum();
        assert!((before - after).abs() < 1e-9, "{before} {after}");
        let corner_row = Cell::at(4, 0).unwrap().index(); // E1, on the border
        let centre = Cell::at(4, 4).unwrap().index();
        assert!(belief.by_length[3][corner_row] > 3.0 * belief.by_length[3][centre]);
        assert!(belief.by_length[0][centre] > belief.by_length[0][corner_row]);
    }

    #[test]
    fn a_packed_tilt_moves_the_boats_off_the_border() {
        let tilt = Tilt::new(only(Style::Packed), tables());
        let view = View::new();
        let by_length = [[0.05; CELLS]; LENGTHS];
        let source = super::super::hunter::Source::Exact;
        let mut belief = Belief::from_lengths(&view, &by_length, Vec::new(), source);
        tilt.apply(&view, &mut belief);
        let edge = Cell::at(4, 0).unwrap().index(); // E1
        let second_ring = Cell::at(4, 1).unwrap().index(); // E2
        let boats = &belief.by_length[0];
        assert!(boats[second_ring] > 10.0 * boats[edge], "{boats:?}");
    }

    #[test]
    fn tables_round_trip_through_their_lines() {
        let t = tables();
        let again = StyleTables::parse(&t.lines()).unwrap();
        for (a, b) in t
            .cells
            .iter()
            .flatten()
            .flatten()
            .zip(again.cells.iter().flatten().flatten())
        {
            assert!((a - b).abs() < 1e-6);
        }
        assert_eq!(StyleTables::parse("cells uniform 1 0.5"), None);
    }
}
