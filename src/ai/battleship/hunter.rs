//! The hunter: from the shooter's [`View`] alone, the probability that each open cell
//! holds a ship, and a shot at the most likely one. Wounded ships are finished by the
//! same rule (their neighbours carry the highest probabilities).
//!
//! Probabilities come from one of two sources, chosen by the view alone:
//!
//! - exact: the counting tables of [`super::count`] give, for each cell, the number of
//!   legal fleets consistent with the view that put a ship there. Used once few ships
//!   are afloat or few cells are open, and only while every layer of the tables stays
//!   under [`MAX_STATES`] (deterministic) and the deadline is not reached;
//! - estimate: otherwise each afloat ship is laid in every placement still possible
//!   on its own (its cells open or hit, not all hit, no hit in its ring; while a ship
//!   is wounded, only placements covering a wound), each placement weighting its open
//!   cells by the number of such ships afloat.
//!
//! Ties break by the seeded generator, so a shot is deterministic for a seed when no
//! deadline interrupts the exact count.

use crate::ai::Limits;
use crate::games::battleship::{Cell, CellSet, Mark, Ship, ShipType, View};
use crate::rng::Rng;

use super::count::{Board, Tables};

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
    /// Placement counting, each ship on its own.
    Estimate,
}

/// Per cell (by index), a weight proportional to the probability of a ship there
/// (zero on spent cells), and where it came from.
#[must_use]
pub fn weights(view: &View, limits: &Limits<'_>) -> ([f64; 100], Source) {
    let afloat: usize = ShipType::ALL.into_iter().map(|k| view.afloat(k)).sum();
    let open = view.open_cells().count();
    if afloat <= EXACT_SHIPS || open <= EXACT_OPEN {
        let board = Board::from_view(view);
        let tables = Tables::build(&board, MAX_STATES, || limits.expired());
        if let Some(tables) = tables.filter(|t| t.total() > 0) {
            let mut w = [0.0; 100];
            for cell in view.open_cells() {
                let n = tables.occupied().get(cell.index()).copied().unwrap_or(0);
                if let Some(slot) = w.get_mut(cell.index()) {
                    *slot = n as f64;
                }
            }
            return (w, Source::Exact);
        }
    }
    (estimate(view), Source::Estimate)
}

/// Every placement of a ship of `len` cells on the board.
fn placements(len: usize) -> impl Iterator<Item = Ship> {
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
/// the open cell most likely to hold a ship; among equals one beside a hit, then
/// by `rng`.
pub fn hunt(view: &View, rng: &mut Rng, limits: &Limits<'_>) -> Option<Cell> {
    let (w, _) = weights(view, limits);
    best(view, &w, rng)
}

/// The open cell of highest weight (ties by `rng`); any open cell if all weigh zero.
fn best(view: &View, w: &[f64; 100], rng: &mut Rng) -> Option<Cell> {
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

    fn c(text: &str) -> Cell {
        Cell::parse(text).unwrap()
    }

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
        let (w, source) = weights(&view, &free());
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
    fn returns_none_when_all_spent() {
        let mut full = View::new();
        for cell in Cell::all() {
            full.record(cell, ShotResult::Miss).unwrap();
        }
        assert_eq!(hunt(&full, &mut Rng::new(2), &free()), None);
    }

    #[test]
    fn an_expired_deadline_still_answers() {
        let stop = std::sync::atomic::AtomicBool::new(true);
        let limits = Limits {
            depth: 1,
            deadline: None,
            stop: Some(&stop),
        };
        let mut view = View::new();
        for cell in Cell::all().skip(60) {
            view.record(cell, ShotResult::Miss).unwrap();
        }
        let (_, source) = weights(&view, &limits);
        assert_eq!(source, Source::Estimate);
        assert!(hunt(&view, &mut Rng::new(1), &limits).is_some());
    }
}
