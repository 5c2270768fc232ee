//! The adaptive placement prior: opponents do not place fleets uniformly, and at one
//! table the same opponent places game after game. After each game its whole fleet
//! is known; a [`Posterior`] over a few placement [`Style`]s (each a sampler of legal
//! fleets) is updated with it, and the hunter's belief is tilted towards the
//! mixture's placements ([`Tilt`]).
//!
//! - **Tables** ([`StyleTables`], built in from `hunter.weights`, written by `tabula
//!   train battleship`): per style, sampled fleets give the share of each ship
//!   length's cells on each cell (averaged over the eight symmetries of the sea) and
//!   the distribution of the fleet's footprint (its ships and their rings, in
//!   buckets of [`BUCKET`] cells, which tells compact fleets from spread ones).
//! - **Likelihood** of a fleet under a style: per ship, the mean log share of its
//!   cells for its length, plus the log share of its footprint's bucket. A
//!   pseudo-likelihood (the cells of one fleet are not independent), so the
//!   posterior is kept off 0 and 1 by mixing in a little of the uniform split after
//!   each update ([`FLOOR`]), so it can move back when the opponent changes style.
//! - **Tilt**: the hunter's belief (uniform prior, exact or sampled) per ship length
//!   and cell is multiplied by the mixture's share over the uniform style's share,
//!   then rescaled so each length keeps its expected number of open cells. This
//!   weighs the posterior fleets by the mixture's marginals rather than drawing them
//!   from the mixture itself: it moves the hunter to the border against a
//!   border-hugging opponent, but does not model how ships cluster beyond their
//!   footprint's cells.

use std::sync::OnceLock;

use crate::games::battleship::{Cell, Fleet, View};
use crate::rng::Rng;

use super::hunter::{Belief, HIT_VALUE};
use super::placer::{border_fleet, compact_fleet, footprint, random_fleet};

/// A way of placing fleets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Uniform over all legal fleets.
    Uniform,
    /// The longer ships along the border, the boats inside.
    Border,
    /// The most compact of several uniform fleets.
    Compact,
}

/// The number of styles.
pub const STYLES: usize = 3;

impl Style {
    /// Every style, in table order.
    pub const ALL: [Style; STYLES] = [Style::Uniform, Style::Border, Style::Compact];

    /// The style's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Style::Uniform => "uniform",
            Style::Border => "border",
            Style::Compact => "compact",
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
        }
    }

    fn index(self) -> usize {
        match self {
            Style::Uniform => 0,
            Style::Border => 1,
            Style::Compact => 2,
        }
    }
}

/// Footprint cells per bucket.
pub const BUCKET: usize = 4;
/// Footprint buckets (footprints of 0 to 100 cells).
pub const BUCKETS: usize = 100 / BUCKET + 1;

/// The posterior's share given back to the uniform split after each update.
pub const FLOOR: f64 = 0.03;

/// The styles' tables (module documentation): per style, per length (index
/// `len - 1`) the share of that length's cells on each cell (summing to 1), and the
/// share of each footprint bucket.
#[derive(Clone, Debug, PartialEq)]
pub struct StyleTables {
    pub cells: [[[f64; 100]; 4]; STYLES],
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
        let mut cells = [[[0.0; 100]; 4]; STYLES];
        let mut footprint = [[0.0; BUCKETS]; STYLES];
        for style in Style::ALL {
            let s = style.index();
            let mut rng = Rng::new(seed ^ (s as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut counts = [[0.0; 100]; 4];
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
        let mut cells = [[[0.0; 100]; 4]; STYLES];
        let mut footprint = [[0.0; BUCKETS]; STYLES];
        let mut seen = 0usize;
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["cells", style, len, rest @ ..] => {
                    let s = Style::from_name(style)?.index();
                    let l = len.parse::<usize>().ok()?.checked_sub(1)?;
                    let row: [f64; 100] = numbers(rest)?.try_into().ok()?;
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
        (seen == STYLES * 5).then_some(StyleTables { cells, footprint })
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

/// Belief over the styles of the fleets placed at one table.
#[derive(Clone, Debug, PartialEq)]
pub struct Posterior {
    /// Per style (in [`Style::ALL`] order), its probability.
    pub p: [f64; STYLES],
}

impl Default for Posterior {
    fn default() -> Self {
        Posterior::new()
    }
}

impl Posterior {
    /// The even split.
    #[must_use]
    pub fn new() -> Posterior {
        Posterior {
            p: [1.0 / STYLES as f64; STYLES],
        }
    }

    /// The probability of `style`.
    #[must_use]
    pub fn of(&self, style: Style) -> f64 {
        self.p.get(style.index()).copied().unwrap_or(0.0)
    }

    /// Bayes' rule with the fleet the opponent placed, then the [`FLOOR`].
    pub fn update(&mut self, fleet: &Fleet, tables: &StyleTables) {
        let logs: Vec<f64> = Style::ALL
            .into_iter()
            .zip(self.p)
            .map(|(style, p)| p.max(1e-300).ln() + tables.log_likelihood(style, fleet))
            .collect();
        let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let weights: Vec<f64> = logs.iter().map(|l| (l - top).exp()).collect();
        let total: f64 = weights.iter().sum();
        for (p, w) in self.p.iter_mut().zip(&weights) {
            *p = (1.0 - FLOOR) * w / total + FLOOR / STYLES as f64;
        }
    }

    /// The tilt of the hunter's belief towards the mixture (module documentation).
    #[must_use]
    pub fn tilt(&self, tables: &StyleTables) -> Tilt {
        let mut ratio = [[1.0; 100]; 4];
        let uniform = tables.cells.first();
        for (l, row) in ratio.iter_mut().enumerate() {
            for (i, r) in row.iter_mut().enumerate() {
                let base = uniform
                    .and_then(|u| u.get(l))
                    .and_then(|u| u.get(i))
                    .copied()
                    .unwrap_or(0.01);
                let mix: f64 = self
                    .p
                    .iter()
                    .zip(&tables.cells)
                    .map(|(p, maps)| p * maps.get(l).and_then(|m| m.get(i)).copied().unwrap_or(0.0))
                    .sum();
                *r = mix / base.max(1e-12);
            }
        }
        Tilt { ratio }
    }
}

/// Per ship length and cell, the factor by which the adaptive prior weighs the
/// uniform prior's belief.
#[derive(Clone, Debug, PartialEq)]
pub struct Tilt {
    pub ratio: [[f64; 100]; 4],
}

impl Tilt {
    /// Tilts `belief` (of `view`): each length's probabilities times the ratio,
    /// rescaled to the same sum over the open cells; then the cell probabilities
    /// (capped at 1) and worths again.
    pub fn apply(&self, view: &View, belief: &mut Belief) {
        let open: Vec<usize> = view.open_cells().map(Cell::index).collect();
        for (row, ratio) in belief.by_length.iter_mut().zip(&self.ratio) {
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

    #[test]
    fn the_posterior_moves_to_the_style_that_placed_a_run_of_fleets() {
        for style in [Style::Border, Style::Compact, Style::Uniform] {
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
    fn the_floor_lets_the_posterior_come_back() {
        let mut rng = Rng::new(9);
        let mut posterior = Posterior::new();
        for _ in 0..6 {
            posterior.update(&Style::Border.sample(&mut rng), tables());
        }
        assert!(
            posterior
                .p
                .iter()
                .all(|&p| p >= FLOOR / STYLES as f64 - 1e-12)
        );
        for _ in 0..12 {
            posterior.update(&Style::Uniform.sample(&mut rng), tables());
        }
        assert!(posterior.of(Style::Border) < 0.5, "{posterior:?}");
    }

    #[test]
    fn a_border_tilt_moves_the_belief_to_the_border() {
        let mut posterior = Posterior::new();
        posterior.p = [0.0, 1.0, 0.0];
        let tilt = posterior.tilt(tables());
        let view = View::new();
        let mut by_length = [[0.0; 100]; 4];
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
