//! The quick rollout hunter: the rollouts of [`super::rollout`] with a simulated
//! hunter that costs microseconds a shot instead of a tenth of a millisecond.
//!
//! The rollout hunter scores each candidate shot by the misses still to come when
//! the base hunter plays on from it, over fleets drawn from the belief; its
//! simulated hunter runs the Markov chain at every shot, so a rollout costs about
//! 6 ms and a shot within 20 ms can afford three. Here the simulated hunter works
//! on bit sets alone ([`Sea`]): each afloat ship is laid, on its own, in every
//! placement the known water and hits allow (while a ship is wounded, only
//! placements covering the wound), and a cell's worth is the expected number of
//! ships on it, `Σ_len afloat(len) · placements(len, cell) / placements(len)`, a boat
//! counting [`HIT_VALUE`] times a longer ship as in the hunter. It fires at the open
//! cell of highest worth (lowest index among equals, no generator), about 600 mask
//! tests a shot. The rollout ends, as the rollout hunter's does, once only unwounded
//! boats are afloat, with the exact expected misses of their greedy search
//! ([`LastBoats`]); if more than [`EXACT_BOATS_OPEN`] cells are then open (the exact
//! count grows fast with them), the simulated hunter first fires at the last boats
//! itself ([`boat_shot`]) until few enough are.
//!
//! Everything else is the rollout hunter's: it plans only while a longer ship is
//! afloat and none is wounded, scores the base hunter's shot and the next cells by
//! worth on the same fleets (common random numbers; the simulation is deterministic
//! given the fleet), and keeps the base hunter's shot unless another beats it by
//! [`Settings::margin`] standard errors of the paired difference.

use std::sync::OnceLock;

use crate::ai::Limits;
use crate::games::battleship::{Cell, Fleet, Mark, ShipType, View};
use crate::rng::Rng;

use super::boats::{Cells, LastBoats};
use super::hunter::{self, HIT_VALUE};
use super::rollout::{self, evaluate, pick};

/// How hard the quick rollout hunter looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Candidate shots scored, the base hunter's first.
    pub candidates: usize,
    /// Fleets drawn from the belief; every candidate is rolled out on each.
    pub fleets: usize,
    /// Standard errors of the paired difference by which another candidate must beat
    /// the base hunter's shot.
    pub margin: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            candidates: 4,
            fleets: 60,
            margin: 1.0,
        }
    }
}

/// A ship's placement: its length, cells and ring.
pub type Placement = (usize, Cells, Cells);

/// Every placement of every length.
struct Placements {
    all: Vec<Placement>,
}

fn bits(cells: impl Iterator<Item = Cell>) -> Cells {
    cells.fold(0, |acc, c| acc | 1u128 << c.index())
}

fn every_placement() -> &'static Placements {
    static TABLE: OnceLock<Placements> = OnceLock::new();
    TABLE.get_or_init(|| Placements {
        all: (1..=4)
            .flat_map(|len| {
                hunter::placements(len)
                    .map(move |ship| (len, bits(ship.cells()), bits(ship.ring().iter())))
            })
            .collect(),
    })
}

/// The board's cells.
const BOARD: Cells = (1u128 << 100) - 1;

/// The cells of the first column.
const LEFT: Cells = {
    let mut m = 0;
    let mut row = 0;
    while row < 10 {
        m |= 1u128 << (row * 10);
        row += 1;
    }
    m
};

/// The cells beside (not diagonally) any cell of `m`.
fn spread(m: Cells) -> Cells {
    ((m << 1) & !LEFT | (m >> 1) & !(LEFT << 9) | m << 10 | m >> 10) & BOARD
}

/// A rollout reaching the last boats with at most this many open cells ends with
/// their exact expectation; with more (the exact count grows quickly with them) the
/// simulated hunter plays on with [`boat_shot`].
const EXACT_BOATS_OPEN: u32 = 30;

/// The quick hunter's memo of last-boats values, kept across shots on its thread,
/// cleared when it holds more states than this.
const MEMO_STATES: usize = 400_000;

/// The cell and its eight neighbours, per cell.
fn around() -> &'static [Cells; 100] {
    static AROUND: OnceLock<[Cells; 100]> = OnceLock::new();
    AROUND.get_or_init(|| {
        std::array::from_fn(|i| {
            Cell::from_index(i).map_or(0, |c| bits(c.neighbours()) | 1u128 << i)
        })
    })
}

/// The simulated hunter's shot at the last boats: the open cell with the fewest
/// open neighbours (lowest index among equals), the cell in most sets of boats that
/// do not touch.
fn boat_shot(open: Cells) -> usize {
    let table = around();
    let mut best = open.trailing_zeros() as usize;
    let mut fewest = u32::MAX;
    let mut m = open;
    while m != 0 {
        let c = m.trailing_zeros() as usize;
        m &= m - 1;
        let n = (table.get(c).copied().unwrap_or(0) & open).count_ones();
        if n < fewest {
            best = c;
            fewest = n;
        }
    }
    best
}

/// A simulated hunt on bit sets: what the shooter knows, and the fleet it meets.
#[derive(Clone, Debug)]
pub struct Sea {
    /// Cells known to hold no afloat ship: misses, sunk ships and their rings.
    spent: Cells,
    /// Hits on ships still afloat.
    hits: Cells,
    /// Ships afloat by length (index `len - 1`).
    afloat: [u8; 4],
    /// The fleet's ships: cells, ring and length.
    ships: Vec<(Cells, Cells, usize)>,
    /// Every ship cell of the fleet.
    occupied: Cells,
}

impl Sea {
    /// The sea seen in `view`, holding `fleet` (which must agree with the view).
    #[must_use]
    pub fn new(view: &View, fleet: &Fleet) -> Sea {
        let mut spent = 0;
        let mut hits = 0;
        for cell in Cell::all() {
            match view.mark(cell) {
                Mark::Unknown => {}
                Mark::Hit => hits |= 1u128 << cell.index(),
                Mark::Miss | Mark::Sunk | Mark::Ring => spent |= 1u128 << cell.index(),
            }
        }
        let afloat = std::array::from_fn(|l| {
            ShipType::from_len(l + 1).map_or(0, |k| u8::try_from(view.afloat(k)).unwrap_or(0))
        });
        let ships: Vec<(Cells, Cells, usize)> = fleet
            .ships()
            .iter()
            .map(|s| (bits(s.cells()), bits(s.ring().iter()), s.len()))
            .collect();
        let occupied = ships.iter().fold(0, |acc, s| acc | s.0);
        Sea {
            spent,
            hits,
            afloat,
            ships,
            occupied,
        }
    }

    fn open(&self) -> Cells {
        BOARD & !self.spent & !self.hits
    }

    /// Whether only unwounded boats are afloat (or nothing).
    fn last_boats(&self) -> bool {
        self.hits == 0 && self.afloat.iter().skip(1).all(|&n| n == 0)
    }

    /// Fires at cell `i`; whether it missed.
    fn fire(&mut self, i: usize) -> bool {
        let bit = 1u128 << i;
        if self.occupied & bit == 0 {
            self.spent |= bit;
            return true;
        }
        self.hits |= bit;
        if let Some(&(cells, ring, len)) = self.ships.iter().find(|s| s.0 & bit != 0)
            && cells & !self.hits == 0
        {
            self.hits &= !cells;
            self.spent |= cells | ring;
            if let Some(n) = self.afloat.get_mut(len - 1) {
                *n = n.saturating_sub(1);
            }
        }
        false
    }

    /// The placements still possible at this sea (cells clear of spent water, ring
    /// clear of hits): the only ones a later shot of a rollout from here can use.
    #[must_use]
    pub fn placements(&self) -> Vec<Placement> {
        every_placement()
            .all
            .iter()
            .copied()
            .filter(|&(len, cells, ring)| {
                self.afloat.get(len - 1).is_some_and(|&n| n > 0)
                    && cells & self.spent == 0
                    && ring & self.hits == 0
            })
            .collect()
    }

    /// The simulated hunter's shot (module documentation), or `None` with no open cell.
    #[must_use]
    pub fn shot(&self) -> Option<usize> {
        self.shot_among(&every_placement().all)
    }

    /// [`Sea::shot`] laying ships only in `table` (which must hold every placement
    /// still possible).
    fn shot_among(&self, table: &[Placement]) -> Option<usize> {
        let open = self.open();
        if open == 0 {
            return None;
        }
        if self.last_boats() {
            return Some(boat_shot(open));
        }
        // The wound to finish: the hits joined to the lowest one.
        let wound = if self.hits == 0 {
            0
        } else {
            let mut w = self.hits & self.hits.wrapping_neg();
            loop {
                let grown = (w | spread(w)) & self.hits;
                if grown == w {
                    break w;
                }
                w = grown;
            }
        };
        let size = wound.count_ones() as usize;
        let mut counts = [[0u16; 100]; 4];
        let mut totals = [0u32; 4];
        for &(len, cells, ring) in table {
            let n = self.afloat.get(len - 1).copied().unwrap_or(0);
            if n == 0 || cells & self.spent != 0 || ring & self.hits != 0 {
                continue;
            }
            let inside = cells & self.hits;
            if inside != 0 && (inside != wound || len <= size) {
                continue;
            }
            if let Some(t) = totals.get_mut(len - 1) {
                *t += 1;
            }
            if wound != 0 && inside != wound {
                continue;
            }
            if let Some(row) = counts.get_mut(len - 1) {
                let mut m = cells & !self.hits;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    if let Some(x) = row.get_mut(c) {
                        *x += 1;
                    }
                    m &= m - 1;
                }
            }
        }
        let scale: [f64; 4] = std::array::from_fn(|l| {
            let n = f64::from(self.afloat.get(l).copied().unwrap_or(0));
            let t = f64::from(totals.get(l).copied().unwrap_or(0));
            let v = HIT_VALUE.get(l).copied().unwrap_or(1.0);
            if t > 0.0 { v * n / t } else { 0.0 }
        });
        let mut best = None;
        let mut top = 0.0;
        let mut m = open;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            let w: f64 = (0..4)
                .map(|l| {
                    let k = counts.get(l).and_then(|r| r.get(c)).copied().unwrap_or(0);
                    f64::from(k) * scale.get(l).copied().unwrap_or(0.0)
                })
                .sum();
            if best.is_none() || w > top {
                best = Some(c);
                top = w;
            }
        }
        best
    }

    /// The misses of firing at `first`, then the simulated hunter until only
    /// unwounded boats are afloat, plus the exact expected misses of the greedy
    /// search for those boats.
    /// `table` holds the placements still possible at this sea ([`Sea::placements`]).
    pub fn rollout(mut self, first: usize, table: &[Placement], boats: &mut LastBoats) -> f64 {
        let mut misses = 0u32;
        let mut cell = Some(first);
        for _ in 0..100 {
            let Some(i) = cell else { break };
            if self.open() & (1u128 << i) == 0 {
                break;
            }
            if self.fire(i) {
                misses += 1;
            }
            if self.last_boats() {
                let left = self.afloat.first().copied().unwrap_or(0);
                if left == 0 || self.open().count_ones() <= EXACT_BOATS_OPEN {
                    return f64::from(misses) + boats.greedy_misses(self.open(), left);
                }
            }
            cell = self.shot_among(table);
        }
        f64::from(misses)
    }
}

/// The quick rollout hunter's shot at the sea seen in `view` (module
/// documentation); the base hunter's where it does not plan.
pub fn hunt(view: &View, rng: &mut Rng, limits: &Limits<'_>, settings: &Settings) -> Option<Cell> {
    let (first, candidates, fleets) =
        match rollout::planned(view, rng, limits, settings.candidates, settings.fleets) {
            Ok(plan) => plan,
            Err(shot) => return shot,
        };
    let seas: Vec<Sea> = fleets.iter().map(|fleet| Sea::new(view, fleet)).collect();
    let table = seas.first().map(Sea::placements).unwrap_or_default();
    MEMO.with_borrow_mut(|boats| {
        if boats.len() > MEMO_STATES {
            *boats = LastBoats::new();
        }
        choose(&candidates, &seas, &table, limits, settings, boats)
    })
    .or(Some(first))
}

thread_local! {
    static MEMO: std::cell::RefCell<LastBoats> = std::cell::RefCell::new(LastBoats::new());
}

/// The candidate to fire, scored by quick rollouts on `seas`.
fn choose(
    candidates: &[Cell],
    seas: &[Sea],
    table: &[Placement],
    limits: &Limits<'_>,
    settings: &Settings,
    boats: &mut LastBoats,
) -> Option<Cell> {
    let estimates = evaluate(
        candidates.len(),
        seas.len(),
        |c, j| match (candidates.get(c), seas.get(j)) {
            (Some(&cell), Some(sea)) => sea.clone().rollout(cell.index(), table, boats),
            _ => 0.0,
        },
        || limits.expired(),
    );
    let chosen = pick(&estimates, settings.margin);
    rollout::log_scores("quick rollout", candidates, &estimates, chosen);
    candidates.get(chosen).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::battleship::random_fleet;

    #[test]
    fn the_simulated_hunter_sinks_every_fleet_without_firing_twice() {
        let mut rng = Rng::new(5);
        for _ in 0..20 {
            let fleet = random_fleet(&mut rng);
            let mut sea = Sea::new(&View::new(), &fleet);
            let mut fired = 0u128;
            let mut shots = 0;
            while let Some(i) = sea.shot() {
                assert_eq!(fired & (1u128 << i), 0, "cell {i} fired twice");
                fired |= 1u128 << i;
                sea.fire(i);
                shots += 1;
                if sea.afloat.iter().all(|&n| n == 0) {
                    break;
                }
            }
            assert!(sea.afloat.iter().all(|&n| n == 0), "fleet left afloat");
            assert_eq!(sea.hits, 0);
            assert!(shots <= 100);
            assert_eq!(fired & sea.occupied, sea.occupied);
        }
    }

    #[test]
    fn a_quick_rollout_counts_the_first_miss_and_the_last_boats() {
        let mut rng = Rng::new(9);
        let fleet = random_fleet(&mut rng);
        let view = View::new();
        let water = Cell::all()
            .find(|c| !fleet.cells().contains(*c))
            .map(|c| c.index());
        let mut boats = LastBoats::new();
        let sea = Sea::new(&view, &fleet);
        let water = water.unwrap_or(0);
        let table = sea.placements();
        let from_water = sea.clone().rollout(water, &table, &mut boats);
        // Firing at water first costs that miss; what follows is the rollout from
        // the sea with the miss recorded.
        let mut after = sea.clone();
        after.fire(water);
        let next = after.shot().unwrap_or(0);
        let rest = after.rollout(next, &table, &mut boats);
        assert!(
            (from_water - (1.0 + rest)).abs() < 1e-9,
            "{from_water} {rest}"
        );
    }

    #[test]
    fn quick_hunter_sinks_fleets_and_is_deterministic_per_seed() {
        let settings = Settings {
            candidates: 3,
            fleets: 16,
            margin: 1.0,
        };
        let play = |seed: u64| {
            let mut rng = Rng::new(seed);
            let fleet = random_fleet(&mut rng);
            let mut view = View::new();
            let mut cells = Vec::new();
            let free = Limits::depth(1);
            while !view.all_sunk() && cells.len() < 100 {
                let Some(cell) = hunt(&view, &mut rng, &free, &settings) else {
                    break;
                };
                assert!(view.is_open(cell), "fired at a known cell {cell}");
                assert!(view.record_judged(&fleet, cell).is_ok());
                cells.push(cell);
            }
            assert!(view.all_sunk());
            assert_eq!(view.hits(), 20);
            cells
        };
        assert_eq!(play(3), play(3));
        assert_ne!(play(3), play(4));
    }
}
