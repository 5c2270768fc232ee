//! The finisher: the hunter's shot, except while a ship is wounded, when the shot is
//! planned over the wounded ship's possible placements to the sinking.
//!
//! Greedy finishes a wound at the cell most likely to hold the ship, a side of the
//! wound. A miss there is always a cell of the ship's ring, which the sinking would
//! have revealed for nothing. A shot two cells along the line is less likely to hit,
//! but a hit there also fixes the cell between (a hit for certain), and a miss there
//! often falls outside the ring: a probe of open water the hunt would have paid for
//! later. On tiny seas solved exactly (`exact.rs`) this is where most of greedy's loss
//! lies, and planning the finish with misses outside the ring counted at a discount
//! recovers about as much as a full rollout step over greedy.
//!
//! The plan: the wounded ship's placements with their weights (the components through
//! the wound of fleets drawn from the hunter's belief), then the shot that minimises
//! the expected cost to the sinking by exact recursion over the placements still
//! consistent, where a miss costs 1 less `probe` for each placement it leaves in which
//! the cell lies outside the ship's ring. The probe credit is the chance that the hunt
//! would have shot that cell anyway: the misses still to come (the learned value of
//! the view) per open water cell, times [`Settings::probe`], at most 1.

use std::collections::HashMap;

use crate::ai::Limits;
use crate::games::battleship::{Cell, Mark, Ship, View};
use crate::rng::Rng;

use super::boats::{Cells, LastBoats, bits, spread};
use super::hunter::{self, Effort};
use super::learned;

/// How the finisher plans.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The probe credit's scale: a miss outside the ring is credited `probe` × the
    /// misses to come per open water cell (at most 1).
    pub probe: f64,
    /// Fleets drawn from the belief to weigh the wounded ship's placements.
    pub draws: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            probe: 2.0,
            draws: 500,
        }
    }
}

/// The finisher's shot at the sea seen in `view`: the hunter's while no ship is
/// wounded, the planned finish (module documentation) while one is.
pub fn hunt(view: &View, rng: &mut Rng, limits: &Limits<'_>, settings: &Settings) -> Option<Cell> {
    let wounds = view.wounded();
    let Some(wound) = wounds.iter().max_by_key(|g| g.len()) else {
        return hunter::hunt(view, rng, limits);
    };
    let belief = hunter::belief_with(view, rng, limits, settings.draws, &Effort::FULL);
    let placements = placements_of(bits(wound.iter().copied()), &belief.samples);
    if placements.is_empty() {
        return hunter::best(view, &belief.worth, rng);
    }
    let credit = probe_credit(view, settings.probe);
    let hits = bits(view.cells_marked(Mark::Hit).iter());
    let cell = planned_shot(&placements, hits, credit);
    Cell::from_index(cell.trailing_zeros() as usize)
        .filter(|&c| view.is_open(c))
        .or_else(|| hunter::best(view, &belief.worth, rng))
}

/// The credit for a miss outside the wounded ship's ring: `probe` × the misses to
/// come per open water cell, within 0..=1.
fn probe_credit(view: &View, probe: f64) -> f64 {
    let rest = learned::Value::builtin().of(view, &mut LastBoats::new());
    let open = view.open_cells().count() as f64;
    let ship_cells_left = (20 - view.hits().min(20)) as f64;
    let water = (open - ship_cells_left).max(1.0);
    (probe * rest.max(0.0) / water).clamp(0.0, 1.0)
}

/// The distinct placements of the ship through `wound` in `samples` (ship cells of
/// whole fleets), each with its count and ring.
fn placements_of(wound: Cells, samples: &[Cells]) -> Vec<Placement> {
    let mut out: Vec<Placement> = Vec::new();
    for &fleet in samples {
        if fleet & wound != wound {
            continue;
        }
        let ship = component(fleet, wound);
        tally(&mut out, ship, || ring(ship));
        if out.len() == 64 {
            break;
        }
    }
    out
}

/// Counts one more fleet holding the placement `cells` in `placements`, adding it
/// (with its ring) when it is new.
pub(crate) fn tally(placements: &mut Vec<Placement>, cells: u128, ring: impl FnOnce() -> u128) {
    match placements.iter_mut().find(|p| p.cells == cells) {
        Some(p) => p.weight += 1.0,
        None => placements.push(Placement {
            cells,
            weight: 1.0,
            ring: ring(),
        }),
    }
}

/// The cells of `cells` joined to `seed` by sides (ships touch no other ship, so
/// this is the ship holding `seed`).
fn component(cells: Cells, seed: Cells) -> Cells {
    let mut group = seed & cells;
    loop {
        let grown = (group | spread(group)) & cells;
        if grown == group {
            return group;
        }
        group = grown;
    }
}

/// The ring of the straight ship `ship` (B6): the cells around it by a side or a
/// corner; none if the cells are no ship.
fn ring(ship: Cells) -> Cells {
    let end = |bit: u32| Cell::from_index(bit as usize);
    match (end(ship.trailing_zeros()), end(127 - ship.leading_zeros())) {
        (Some(from), Some(to)) => Ship::new(from, to).map_or(0, |s| bits(s.ring().iter())),
        _ => 0,
    }
}

/// One placement of the wounded ship: its cells, its weight (any scale) and its ring,
/// as bit sets over the cells of any sea.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placement {
    pub cells: u128,
    pub weight: f64,
    pub ring: u128,
}

/// The planned shot (one bit) at a wounded ship whose placements are `placements`
/// (at most 64, each covering `hits`' wound), a miss outside the ship's ring credited
/// `credit`; 0 when every placement's cells are hit.
pub(crate) fn planned_shot(placements: &[Placement], hits: u128, credit: f64) -> u128 {
    let placements = placements.get(..64).unwrap_or(placements);
    let all = if placements.len() == 64 {
        u64::MAX
    } else {
        (1u64 << placements.len()) - 1
    };
    Plan::new(placements, credit).value(all, hits).1
}

/// The finishing plan: expected cost to the sinking by exact recursion over the
/// placements still consistent (a bit set over `placements`) and the hits.
struct Plan<'a> {
    placements: &'a [Placement],
    credit: f64,
    memo: HashMap<(u64, u128), (f64, u128)>,
}

impl<'a> Plan<'a> {
    fn new(placements: &'a [Placement], credit: f64) -> Plan<'a> {
        Plan {
            placements,
            credit,
            memo: HashMap::new(),
        }
    }

    fn members(&self, set: u64) -> impl Iterator<Item = &Placement> + '_ {
        self.placements
            .iter()
            .enumerate()
            .filter(move |(i, _)| set >> i & 1 == 1)
            .map(|(_, p)| p)
    }

    /// The expected cost from `set` and `hits`, and the cell (one bit) to shoot.
    fn value(&mut self, set: u64, hits: u128) -> (f64, u128) {
        if let Some(&v) = self.memo.get(&(set, hits)) {
            return v;
        }
        let total: f64 = self.members(set).map(|p| p.weight).sum();
        let cells = self.members(set).fold(0u128, |m, p| m | p.cells) & !hits;
        let mut best = (f64::INFINITY, 0u128);
        let mut rest = cells;
        while rest != 0 {
            let cell = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let (mut miss_set, mut hit_set) = (0u64, 0u64);
            let (mut miss, mut hit, mut outside) = (0.0, 0.0, 0.0);
            for (i, p) in self.placements.iter().enumerate() {
                if set >> i & 1 == 0 {
                    continue;
                }
                if p.cells & cell == 0 {
                    miss_set |= 1 << i;
                    miss += p.weight;
                    if p.ring & cell == 0 {
                        outside += p.weight;
                    }
                } else if p.cells & !(hits | cell) != 0 {
                    hit_set |= 1 << i;
                    hit += p.weight;
                }
            }
            let mut v = 0.0;
            if miss > 0.0 {
                v += (miss * (1.0 + self.value(miss_set, hits).0) - self.credit * outside) / total;
            }
            if hit > 0.0 {
                v += hit * self.value(hit_set, hits | cell).0 / total;
            }
            if v < best.0 - 1e-12 {
                best = (v, cell);
            }
        }
        if cells == 0 {
            best = (0.0, 0);
        }
        self.memo.insert((set, hits), best);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::battleship::random_fleet;
    use crate::games::battleship::testing::cell as c;
    use crate::games::battleship::{Fleet, ShotResult};

    fn bit(name: &str) -> u128 {
        1u128 << c(name).index()
    }

    #[test]
    fn rings_and_components_on_the_bit_board() {
        // A destroyer on A1-B1: its ring is C1, A2, B2, C2 (the board's edge cuts it).
        let ship = bit("A1") | bit("B1");
        assert_eq!(ring(ship), bit("C1") | bit("A2") | bit("B2") | bit("C2"));
        // J1 and A2 are consecutive indices: no wrap from one row to the next.
        assert_eq!(ring(bit("J1")), bit("I1") | bit("I2") | bit("J2"));
        assert_eq!(ring(bit("A2")) & bit("J1"), 0);
        // The component through E5 of a fleet with a cruiser E5-G5 and a boat I5.
        let fleet = bit("E5") | bit("F5") | bit("G5") | bit("I5") | bit("A1");
        assert_eq!(
            component(fleet, bit("E5")),
            bit("E5") | bit("F5") | bit("G5")
        );
    }

    #[test]
    fn the_plan_probes_two_cells_along_when_misses_outside_the_ring_are_credited() {
        // A wound at E5, the ship a cruiser placed in any of its six lines through E5,
        // equally likely. Without credit every side of the wound is as good as any
        // other cell; with full credit, a cell two along (C5, G5, E3, E7) beats a side:
        // a hit there fixes the ship, a miss there is usually outside its ring.
        let e5 = bit("E5");
        let lines = [
            ["C5", "D5", "E5"],
            ["D5", "E5", "F5"],
            ["E5", "F5", "G5"],
            ["E3", "E4", "E5"],
            ["E4", "E5", "E6"],
            ["E5", "E6", "E7"],
        ];
        let placements: Vec<Placement> = lines
            .iter()
            .map(|cells| {
                let ship = cells.iter().fold(0, |m, n| m | bit(n));
                Placement {
                    cells: ship,
                    weight: 1.0,
                    ring: ring(ship),
                }
            })
            .collect();
        let mut plan = Plan::new(&placements, 1.0);
        let (credited, cell) = plan.value(0b11_1111, e5);
        let two_along = bit("C5") | bit("G5") | bit("E3") | bit("E7");
        assert!(cell & two_along != 0, "{}", cell.trailing_zeros());
        let mut plain = Plan::new(&placements, 0.0);
        let (misses, _) = plain.value(0b11_1111, e5);
        // By hand, without credit: D5 hits in 2 of 6 lines, then C5 or F5 misses half
        // the time (0.5); on a miss at D5 (1) four lines are left and E4 splits them
        // in halves, each half a miss (1.0): 1/3 × 0.5 + 2/3 × (1 + 1.0) = 1.5.
        assert!((misses - 1.5).abs() < 1e-9, "{misses}");
        assert!(credited < misses, "{credited} {misses}");
    }

    /// The finisher's game against `fleet` with generator seed `seed`: its shots, and
    /// the hits when every ship is sunk; no shot at a spent cell, at most 100 shots.
    fn play(fleet: &Fleet, seed: u64) -> (Vec<Cell>, usize) {
        let mut rng = Rng::new(seed);
        let mut view = View::new();
        let mut cells = Vec::new();
        while !view.all_sunk() {
            let cell = hunt(&view, &mut rng, &Limits::depth(1), &Settings::default())
                .expect("an open cell");
            assert!(view.is_open(cell), "{cell} is spent");
            view.record(cell, fleet.judge(&view, cell)).unwrap();
            cells.push(cell);
            assert!(cells.len() <= 100);
        }
        (cells, view.hits())
    }

    #[test]
    fn finishes_every_fleet_without_firing_at_a_spent_cell() {
        for seed in 0..12 {
            let fleet = random_fleet(&mut Rng::new(500 + seed));
            assert_eq!(play(&fleet, seed).1, 20);
        }
    }

    #[test]
    fn deterministic_per_seed() {
        let fleet = random_fleet(&mut Rng::new(77));
        assert_eq!(play(&fleet, 5), play(&fleet, 5));
    }

    #[test]
    fn a_wounded_ship_is_shot_on_its_line() {
        // Two hits E5, F5: the ship lies along row 5, so the plan shoots in row 5.
        let mut view = View::new();
        for cell in ["E5", "F5"] {
            view.record(c(cell), ShotResult::Hit).unwrap();
        }
        let free = Limits::depth(1);
        for seed in 0..5 {
            let shot = hunt(&view, &mut Rng::new(seed), &free, &Settings::default()).unwrap();
            assert_eq!(shot.row(), c("E5").row(), "{shot}");
        }
    }
}
