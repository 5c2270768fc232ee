//! The hunter: from the shooter's [`View`] alone, the probability that each open cell
//! holds a ship of each length, and a shot at the cell of highest worth: the chance
//! of a hit, a hit on a boat counting [`HIT_VALUE`] times a hit on a longer ship.
//! Wounded ships are finished by the same rule (their neighbours carry the highest
//! probabilities, and no boat may lie beside a wound).
//!
//! Probabilities come from one of three sources, chosen by the view alone:
//!
//! - exact: the counting tables of [`super::count`] give, for each cell and ship
//!   length, the number of legal fleets consistent with the view that put a ship of
//!   that length there. Used once few ships are afloat or few cells are open, and
//!   only while every layer of the tables stays under [`MAX_STATES`] (deterministic)
//!   and the deadline is not reached;
//! - sampled: otherwise the Markov chain of [`super::sample`] (uniform over the
//!   consistent fleets), [`SWEEPS`] gathering sweeps after a short burn-in, with
//!   Rao–Blackwellised cell probabilities by ship length; the deadline cuts the
//!   sweeps short;
//! - estimate: only if the chain finds no starting fleet, each afloat ship is laid in
//!   every placement still possible on its own (its cells open or hit, not all hit,
//!   no hit in its ring; while a ship is wounded, only placements covering a wound),
//!   each placement weighting its open cells by the number of such ships afloat
//!   (worth is then the weight itself).
//!
//! The chain and the ties draw only from the seeded generator, so a shot is
//! deterministic for a seed when no deadline interrupts the count or the sweeps.

use crate::ai::Limits;
use crate::games::battleship::{Cell, CellSet, Mark, Ship, ShipType, View};
use crate::rng::Rng;

use super::count::{Board, Tables};
use super::sample::{Chain, Problem};

/// The largest layer the exact count may build before giving up on a shot.
pub const MAX_STATES: usize = 20_000;

/// The exact count is tried when at most this many ships are afloat…
const EXACT_SHIPS: usize = 5;
/// …or at most this many cells are open.
const EXACT_OPEN: usize = 45;

/// The source of a shot's probabilities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The counting tables: exact posteriors.
    Exact,
    /// The Markov chain of consistent fleets.
    Sampled,
    /// Placement counting, each ship on its own (when the chain finds no start).
    Estimate,
}

/// Per cell (by index), a weight proportional to the probability of a ship there
/// (zero on spent cells), and where it came from.
#[must_use]
pub fn weights(view: &View, rng: &mut Rng, limits: &Limits<'_>) -> ([f64; 100], Source) {
    let belief = belief(view, rng, limits, 0);
    (belief.p, belief.source)
}

/// What the hunter believes of the sea: per open cell the probability of a ship, the
/// worth of a shot there ([`HIT_VALUE`]), and consistent fleets (ship cells) drawn
/// from the same distribution, for look-ahead.
#[derive(Clone, Debug)]
pub struct Belief {
    pub p: [f64; 100],
    pub worth: [f64; 100],
    /// Per ship length (index `len - 1`), the probability of a ship of that length
    /// on each open cell (the estimate counts every ship as longer than a boat).
    pub by_length: [[f64; 100]; 4],
    pub samples: Vec<u128>,
    pub source: Source,
}

impl Belief {
    /// A belief from per-length cell probabilities (index `len - 1`), kept on the
    /// open cells of `view` only.
    pub(crate) fn from_lengths(
        view: &View,
        by_length: &[[f64; 100]; 4],
        samples: Vec<u128>,
        source: Source,
    ) -> Belief {
        let mut p = [0.0; 100];
        let mut worth = [0.0; 100];
        let mut kept = [[0.0; 100]; 4];
        for cell in view.open_cells() {
            let i = cell.index();
            for ((row, v), out) in by_length.iter().zip(HIT_VALUE).zip(kept.iter_mut()) {
                let x = row.get(i).copied().unwrap_or(0.0);
                if let (Some(a), Some(b), Some(k)) =
                    (p.get_mut(i), worth.get_mut(i), out.get_mut(i))
                {
                    *a += x;
                    *b += v * x;
                    *k = x;
                }
            }
        }
        Belief {
            p,
            worth,
            by_length: kept,
            samples,
            source,
        }
    }
}

/// The worth of a hit by the length of the ship struck (index `len - 1`), relative to
/// a hit on a longer ship: a boat found early is one the costly last search need not
/// find. The hunter fires at the open cell of highest worth, the sum over lengths of
/// worth times probability.
pub const HIT_VALUE: [f64; 4] = [1.3, 1.0, 1.0, 1.0];

/// The belief for `view`, with up to `draws` sample fleets (exact draws from the
/// counting tables, or the chain's states, one per gathering sweep).
#[must_use]
pub fn belief(view: &View, rng: &mut Rng, limits: &Limits<'_>, draws: usize) -> Belief {
    belief_with(view, rng, limits, draws, &Effort::FULL)
}

/// How much work a belief may take: the hunter's own, or less for the simulated
/// hunters of rollouts, which call it thousands of times per shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Whether the exact count is tried (when few ships are afloat or few cells open).
    pub exact: bool,
    /// Chain sweeps before gathering.
    pub burn_in: usize,
    /// Chain sweeps gathered.
    pub sweeps: usize,
}

impl Effort {
    /// The hunter's own effort.
    pub const FULL: Effort = Effort {
        exact: true,
        burn_in: BURN_IN,
        sweeps: SWEEPS,
    };
}

/// [`belief`] with the given effort.
#[must_use]
pub fn belief_with(
    view: &View,
    rng: &mut Rng,
    limits: &Limits<'_>,
    draws: usize,
    effort: &Effort,
) -> Belief {
    let afloat: usize = ShipType::ALL.into_iter().map(|k| view.afloat(k)).sum();
    let open = view.open_cells().count();
    if effort.exact && (afloat <= EXACT_SHIPS || open <= EXACT_OPEN) {
        let board = Board::from_view(view);
        let tables = Tables::build(&board, MAX_STATES, || limits.expired());
        if let Some(tables) = tables.filter(|t| t.total() > 0) {
            let total = tables.total() as f64;
            let by_length: [[f64; 100]; 4] = std::array::from_fn(|l| {
                let counts = tables.occupied_by(l + 1);
                std::array::from_fn(|i| counts.get(i).map_or(0.0, |&n| n as f64 / total))
            });
            let mut samples = Vec::with_capacity(draws);
            for k in 0..draws {
                if k % 8 == 7 && limits.expired() {
                    break;
                }
                match tables.sample_cells(rng) {
                    Some(cells) => samples.push(cells),
                    None => break,
                }
            }
            return Belief::from_lengths(view, &by_length, samples, Source::Exact);
        }
    }
    if let Some((by_length, samples)) = sampled(view, rng, limits, draws, effort) {
        return Belief::from_lengths(view, &by_length, samples, Source::Sampled);
    }
    let p = estimate(view);
    Belief {
        p,
        worth: p,
        by_length: [[0.0; 100], p, [0.0; 100], [0.0; 100]],
        samples: Vec::new(),
        source: Source::Estimate,
    }
}

/// Sweeps of the chain before gathering.
const BURN_IN: usize = 100;
/// Gathering sweeps per shot.
pub const SWEEPS: usize = 1000;

/// Per-length cell probabilities from the Markov chain of [`super::sample`] after the
/// effort's sweeps, and up to `draws` of its states (spread evenly over the gathering
/// sweeps), or `None` when no starting placement is found.
fn sampled(
    view: &View,
    rng: &mut Rng,
    limits: &Limits<'_>,
    draws: usize,
    effort: &Effort,
) -> Option<([[f64; 100]; 4], Vec<u128>)> {
    let (burn_in, sweeps) = (effort.burn_in, effort.sweeps.max(1));
    let problem = Problem::from_view(view);
    let mut chain = Chain::start(&problem, rng)?;
    let mut samples = Vec::with_capacity(draws.min(sweeps));
    let every = sweeps.div_ceil(draws.max(1)).max(1);
    for k in 0..burn_in + sweeps {
        // Every 8 sweeps (a fraction of a millisecond): on a loaded machine a
        // coarser check let a shot overrun a 50 ms move time by tens of ms.
        if k % 8 == 7 && limits.expired() {
            break;
        }
        let gather = k >= burn_in;
        chain.sweep(rng, gather);
        if gather && draws > 0 && (k - burn_in).is_multiple_of(every) {
            samples.push(chain.cells());
        }
    }
    let by_length = match chain.probabilities_by_length() {
        Some(p) => p,
        None => {
            chain.sweep(rng, true);
            samples.push(chain.cells());
            chain.probabilities_by_length()?
        }
    };
    Some((by_length, samples))
}

/// Every placement of a ship of `len` cells on the board.
pub(crate) fn placements(len: usize) -> impl Iterator<Item = Ship> {
    let len = i32::try_from(len).unwrap_or(1);
    let dirs: &[(i32, i32)] = if len == 1 {
        &[(1, 0)]
    } else {
        &[(1, 0), (0, 1)]
    };
    Cell::all().flat_map(move |from| {
        dirs.iter().filter_map(move |&(dc, dr)| {
            let to = from.offset(dc * (len - 1), dr * (len - 1))?;
            Ship::new(from, to).ok()
        })
    })
}

/// The placement-counting estimate (module documentation).
fn estimate(view: &View) -> [f64; 100] {
    let hits = view.cells_marked(Mark::Hit);
    let wounds: Vec<CellSet> = view
        .wounded()
        .into_iter()
        .map(|g| g.into_iter().collect())
        .collect();
    let mut w = [0.0; 100];
    for kind in ShipType::ALL {
        let many = view.afloat(kind) as f64;
        if many == 0.0 {
            continue;
        }
        for ship in placements(kind.len()) {
            let cells = ship.cell_set();
            let possible = cells
                .iter()
                .all(|c| matches!(view.mark(c), Mark::Unknown | Mark::Hit))
                && !ship.ring().intersects(hits)
                && !cells.minus(hits).is_empty();
            if !possible {
                continue;
            }
            let covers = wounds.iter().any(|g| cells.intersection(*g) == *g);
            if !wounds.is_empty() && !covers {
                continue;
            }
            for c in cells.iter().filter(|&c| view.is_open(c)) {
                if let Some(slot) = w.get_mut(c.index()) {
                    *slot += many;
                }
            }
        }
    }
    w
}

/// The hunter's next shot at the sea seen in `view`, or `None` when no cell is open:
/// the open cell of highest worth (a likely ship, boats counting [`HIT_VALUE`]);
/// among equals one beside a hit, then by `rng`.
pub fn hunt(view: &View, rng: &mut Rng, limits: &Limits<'_>) -> Option<Cell> {
    hunt_with(view, rng, limits, &Effort::FULL)
}

/// [`hunt`] with the given effort.
pub fn hunt_with(view: &View, rng: &mut Rng, limits: &Limits<'_>, effort: &Effort) -> Option<Cell> {
    let belief = belief_with(view, rng, limits, 0, effort);
    best(view, &belief.worth, rng)
}

/// The open cell of highest weight (ties by `rng`); any open cell if all weigh zero.
pub(crate) fn best(view: &View, w: &[f64; 100], rng: &mut Rng) -> Option<Cell> {
    let open: Vec<Cell> = view.open_cells().collect();
    let top = open
        .iter()
        .map(|c| w.get(c.index()).copied().unwrap_or(0.0))
        .fold(0.0, f64::max);
    let ties: Vec<Cell> = open
        .iter()
        .copied()
        .filter(|c| w.get(c.index()).copied().unwrap_or(0.0) >= top * (1.0 - 1e-9))
        .collect();
    // Among equals, a cell beside a hit keeps a wounded ship's hits in one line.
    let beside: Vec<Cell> = ties
        .iter()
        .copied()
        .filter(|c| c.sides().any(|s| view.mark(s) == Mark::Hit))
        .collect();
    let pool = if beside.is_empty() { ties } else { beside };
    rng.choose(&pool).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::battleship::random_fleet;
    use crate::games::battleship::ShotResult;
    use crate::games::battleship::testing::cell as c;

    fn free() -> Limits<'static> {
        Limits::depth(1)
    }

    #[test]
    fn finishes_a_wounded_ship_along_its_line() {
        let mut view = View::new();
        for cell in ["E5", "F5"] {
            view.record(c(cell), ShotResult::Hit).unwrap();
        }
        let mut rng = Rng::new(1);
        for _ in 0..10 {
            let shot = hunt(&view, &mut rng, &free()).unwrap().to_string();
            assert!(shot == "D5" || shot == "G5", "{shot}");
        }
    }

    #[test]
    fn finishes_a_wounded_ship_with_the_exact_count() {
        // Sink six ships so few are afloat, then wound one: the exact tables decide.
        let fleet = random_fleet(&mut Rng::new(21));
        let mut view = View::new();
        let mut sunk = 0;
        for ship in fleet.ships().iter().rev().take(6).copied() {
            for cell in ship.cells() {
                view.record(cell, fleet.judge(&view, cell)).unwrap();
            }
            sunk += 1;
        }
        assert_eq!(sunk, 6);
        let target = fleet.ships()[0]; // the battleship
        let first = target.cells().nth(1).unwrap();
        view.record(first, ShotResult::Hit).unwrap();
        let (w, source) = weights(&view, &mut Rng::new(1), &free());
        assert_eq!(source, Source::Exact);
        let mut rng = Rng::new(3);
        let shot = best(&view, &w, &mut rng).unwrap();
        assert!(first.sides().any(|s| s == shot), "{shot} next to {first}");
    }

    #[test]
    fn never_fires_at_a_spent_cell_and_sinks_every_fleet() {
        for seed in 0..30 {
            let fleet = random_fleet(&mut Rng::new(1000 + seed));
            let mut rng = Rng::new(seed);
            let mut view = View::new();
            let mut shots = 0;
            while !view.all_sunk() {
                let cell = hunt(&view, &mut rng, &free()).unwrap();
                assert!(view.is_open(cell), "{cell} is spent");
                view.record(cell, fleet.judge(&view, cell)).unwrap();
                shots += 1;
                assert!(shots <= 100);
            }
        }
    }

    #[test]
    fn deterministic_per_seed() {
        let fleet = random_fleet(&mut Rng::new(77));
        let play = |seed| {
            let mut rng = Rng::new(seed);
            let mut view = View::new();
            let mut cells = Vec::new();
            while !view.all_sunk() {
                let cell = hunt(&view, &mut rng, &free()).unwrap();
                view.record(cell, fleet.judge(&view, cell)).unwrap();
                cells.push(cell);
            }
            cells
        };
        assert_eq!(play(5), play(5));
    }

    #[test]
    fn the_chain_gives_probabilities_early() {
        let view = View::new();
        let (w, source) = weights(&view, &mut Rng::new(4), &free());
        assert_eq!(source, Source::Sampled);
        let total: f64 = w.iter().sum();
        assert!((total - 20.0).abs() < 1e-6, "{total}");
        // The four corners of an empty sea are alike (up to sampling noise).
        for corner in [9, 90, 99] {
            assert!((w[0] - w[corner]).abs() < 0.03, "{} {}", w[0], w[corner]);
        }
    }

    #[test]
    fn sample_fleets_cover_every_hit() {
        let mut view = View::new();
        for cell in ["A1", "C3", "E5", "G7", "B9", "J2", "H4", "D8"] {
            view.record(c(cell), ShotResult::Miss).unwrap();
        }
        view.record(c("F2"), ShotResult::Hit).unwrap();
        let mut rng = Rng::new(6);
        let belief = belief(&view, &mut rng, &free(), 500);
        assert!(belief.samples.len() >= 100);
        let hits = view.cells_marked(Mark::Hit);
        for &s in &belief.samples {
            assert!(hits.iter().all(|c| s >> c.index() & 1 == 1));
            // Twenty ship cells, none on a miss.
            assert_eq!(s.count_ones(), 20);
            assert!(
                view.cells_marked(Mark::Miss)
                    .iter()
                    .all(|c| s >> c.index() & 1 == 0)
            );
        }
    }

    #[test]
    fn a_likely_boat_is_worth_more_than_a_slightly_likelier_destroyer() {
        let view = View::new();
        let mut by_length = [[0.0; 100]; 4];
        by_length[0][c("B2").index()] = 0.30; // a boat only
        by_length[1][c("G7").index()] = 0.31; // a destroyer only
        let belief = Belief::from_lengths(&view, &by_length, Vec::new(), Source::Exact);
        assert!(belief.p[c("G7").index()] > belief.p[c("B2").index()]);
        let shot = best(&view, &belief.worth, &mut Rng::new(1)).unwrap();
        assert_eq!(shot, c("B2"));
    }

    #[test]
    fn worth_counts_only_open_cells() {
        let mut view = View::new();
        view.record(c("A1"), ShotResult::Miss).unwrap();
        let by_length = [[0.5; 100]; 4];
        let belief = Belief::from_lengths(&view, &by_length, Vec::new(), Source::Sampled);
        assert_eq!(belief.p[0], 0.0);
        assert_eq!(belief.worth[0], 0.0);
        assert!((belief.p[1] - 2.0).abs() < 1e-12);
    }

    #[test]
    fn returns_none_when_all_spent() {
        // A whole fleet sunk, then every cell left open missed: nothing is open.
        let fleet = random_fleet(&mut Rng::new(3));
        let mut full = View::new();
        for cell in fleet.cells().iter().chain(Cell::all()) {
            if full.is_open(cell) {
                let result = fleet.judge(&full, cell);
                full.record(cell, result).unwrap();
            }
        }
        assert_eq!(full.open_cells().count(), 0);
        assert_eq!(hunt(&full, &mut Rng::new(2), &free()), None);
    }

    #[test]
    fn an_expired_deadline_still_answers() {
        let stop = std::sync::atomic::AtomicBool::new(true);
        let limits = Limits {
            depth: 1,
            deadline: None,
            stop: Some(&stop),
            cancel: None,
            nodes: None,
        };
        let mut view = View::new();
        for cell in Cell::all().skip(60) {
            view.record(cell, ShotResult::Miss).unwrap();
        }
        let (_, source) = weights(&view, &mut Rng::new(1), &limits);
        assert_ne!(source, Source::Exact);
        assert!(hunt(&view, &mut Rng::new(1), &limits).is_some());
    }
}
