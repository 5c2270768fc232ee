//! The quick rollout hunter: the rollouts of [`super::rollout`] with a simulated
//! hunter that costs microseconds a shot instead of a tenth of a millisecond.
//!
//! The rollout hunter scores each candidate shot by the misses still to come when
//! the base hunter plays on from it, over fleets drawn from the belief; its
//! simulated hunter runs the Markov chain at every shot, so a rollout costs about
//! 6 ms and a shot within 20 ms can afford three. Here the simulated hunter works
//! on bit sets alone ([`Sea`]): each afloat ship may lie in every placement the
//! known water and hits allow (while a ship is wounded, only placements covering the
//! wound count towards the shot), each placement weighted by its [`Model`]: with
//! [`Model::Room`] by the room it leaves the other afloat ships, the
//! product of their placements that neither overlap nor touch it, to the power
//! [`ROOM_POWER`] (each placement's clashes are bit sets over the placements of
//! each length); with [`Model::Alone`] (the default: its rollouts measured no
//! worse, docs/battleship-hunter.md) all alike. A cell's worth is the expected
//! number of ships on it, `Σ_len afloat(len) · weight(len, cell) / weight(len)`, a
//! boat counting [`HIT_VALUE`] times a longer ship as in the hunter. It fires at the
//! open cell of highest worth (lowest index among equals, no generator), a few
//! microseconds a shot; the rollout loop has a copy compiled for x86-64-v3
//! (`popcnt`, `tzcnt`), chosen at run time. The rollout ends, as the rollout
//! hunter's does, once only unwounded boats are afloat, with the exact expected
//! misses of their greedy search ([`LastBoats`]); if more than [`EXACT_BOATS_OPEN`] cells are then open (the exact
//! count grows fast with them), the simulated hunter first fires at the last boats
//! itself ([`boat_shot`]) until few enough are.
//!
//! With [`Settings::particles`] above zero, further fleets drawn from the real
//! belief ride along: the ones that disagree with what a rollout has seen are dropped,
//! and while [`PARTICLES_MIN`] remain the simulated hunter fires at the open cell
//! most of them cover ([`particle_shot`]), greedy on the real posterior for the
//! shots right after the candidates part.
//!
//! Everything else is the rollout hunter's: it plans only while a longer ship is
//! afloat and none is wounded, scores the base hunter's shot and the next cells by
//! worth on the same fleets (common random numbers; the simulation is deterministic
//! given the fleet), and keeps the base hunter's shot unless another beats it by
//! [`Settings::margin`] standard errors of the paired difference.

use std::sync::OnceLock;

use crate::ai::Limits;
use crate::cpu::{Isa, dispatch, isa_copies};
use crate::games::battleship::{Cell, Fleet, Mark, ShipType, View};
use crate::rng::Rng;

use super::boats::{BOARD, Cells, LastBoats, bits, spread};
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
    /// How the simulated hunter weighs the placements of a ship (`Alone` by default:
    /// `Room` plays better games on its own, but its rollouts measured no better).
    pub model: Model,
    /// Further fleets drawn from the belief as particles: while at least
    /// [`PARTICLES_MIN`] of them agree with what a rollout has seen, its simulated
    /// hunter fires at the cell of highest worth over them ([`particle_shot`]), then
    /// by `model`. Zero: `model` throughout.
    pub particles: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            candidates: 4,
            fleets: 60,
            margin: 1.0,
            model: Model::Alone,
            particles: 0,
        }
    }
}

/// The fewest particles agreeing with a rollout's sea by which its simulated hunter
/// still fires ([`Settings::particles`]).
pub const PARTICLES_MIN: usize = 16;

/// A particle: a fleet drawn from the belief at the root, as the cells of its afloat
/// ships and the cells of its afloat boats.
pub type Particle = (Cells, Cells);

/// The open cell of highest worth over `particles` (each ship cell 1, a boat's
/// [`HIT_VALUE`]; lowest index among equals), `None` if none covers an open cell.
#[inline(always)]
fn particle_shot(open: Cells, particles: &[Particle]) -> Option<usize> {
    let mut ships = [0u32; 100];
    let mut boats = [0u32; 100];
    for &(cells, boat) in particles {
        let mut m = cells & open;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            if let Some(x) = ships.get_mut(c) {
                *x += 1;
            }
        }
        let mut m = boat & open;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            if let Some(x) = boats.get_mut(c) {
                *x += 1;
            }
        }
    }
    let extra = HIT_VALUE[0] - 1.0;
    let mut best = None;
    let mut top = 0.0;
    let mut m = open;
    while m != 0 {
        let c = m.trailing_zeros() as usize;
        m &= m - 1;
        let w = f64::from(ships.get(c).copied().unwrap_or(0))
            + extra * f64::from(boats.get(c).copied().unwrap_or(0));
        if w > top {
            best = Some(c);
            top = w;
        }
    }
    best
}

/// How the simulated hunter weighs the placements of an afloat ship.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Each ship on its own: every placement the known water and hits allow counts
    /// the same.
    Alone,
    /// Each placement weighted by the room it leaves the rest of the fleet:
    /// `(Π_len placements(len) ^ others(len)) ^ ROOM_POWER`, counting the placements
    /// of each other afloat ship that neither overlap nor touch it.
    Room,
}

impl Model {
    /// The model's name (`alone`, `room`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Model::Alone => "alone",
            Model::Room => "room",
        }
    }

    /// The model named `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Model> {
        [Model::Alone, Model::Room]
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name))
    }
}

/// The power of the room a placement leaves the other ships in its weight
/// ([`Model::Room`]): on the simulated hunter's own games (3,000 uniform fleets of
/// seed 1, misses to the last boats plus their exact expectation) 1.0 measured
/// 36.34, 1.3 36.10, 1.5 36.18, 1.6 36.23 (each ship alone: 37.29).
pub const ROOM_POWER: f64 = 1.5;

/// The placements of one length as bits (bit `slot`): at most 180 of them.
type Slots = [u128; 2];

/// A ship's placement: its length, cells and ring, its slot among the placements of
/// its length, and per length the placements that overlap or touch it.
#[derive(Clone, Debug)]
pub struct Placement {
    len: usize,
    cells: Cells,
    ring: Cells,
    slot: usize,
    clash: [Slots; 4],
}

/// The placements a simulated hunt may still use.
pub type Table = Vec<&'static Placement>;

/// Every placement of every length.
struct Placements {
    all: Vec<Placement>,
}

fn set_slot(slots: &mut Slots, slot: usize) {
    if let Some(word) = slots.get_mut(slot / 128) {
        *word |= 1u128 << (slot % 128);
    }
}

fn every_placement() -> &'static Placements {
    static TABLE: OnceLock<Placements> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut all: Vec<Placement> = (1..=4)
            .flat_map(|len| {
                hunter::placements(len)
                    .enumerate()
                    .map(move |(slot, ship)| Placement {
                        len,
                        cells: bits(ship.cells()),
                        ring: bits(ship.ring().iter()),
                        slot,
                        clash: [[0; 2]; 4],
                    })
            })
            .collect();
        let shapes: Vec<(usize, Cells, Cells, usize)> = all
            .iter()
            .map(|p| (p.len, p.cells, p.ring, p.slot))
            .collect();
        for p in &mut all {
            for &(len, cells, _, slot) in &shapes {
                if cells & (p.cells | p.ring) != 0
                    && let Some(slots) = p.clash.get_mut(len - 1)
                {
                    set_slot(slots, slot);
                }
            }
        }
        Placements { all }
    })
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
#[inline(always)]
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

/// The worth of cell `c`: per length its weighted placements times that length's
/// scale (afloat ships times the boat worth over the length's total weight).
#[inline(always)]
fn cell_worth(counts: &[[f64; 100]; 4], scale: &[f64; 4], c: usize) -> f64 {
    counts
        .iter()
        .zip(scale)
        .map(|(row, s)| row.get(c).copied().unwrap_or(0.0) * s)
        .sum()
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
        let ships = fleet
            .ships()
            .iter()
            .map(|s| (bits(s.cells()), bits(s.ring().iter()), s.len()))
            .collect();
        Sea::holding(view, ships)
    }

    /// The sea seen in `view`, holding `ships` (cells, ring, length).
    fn holding(view: &View, ships: Vec<(Cells, Cells, usize)>) -> Sea {
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
        let occupied = ships.iter().fold(0, |acc, s| acc | s.0);
        Sea {
            spent,
            hits,
            afloat,
            ships,
            occupied,
        }
    }

    /// The sea seen in `view`, with no fleet behind it: for the simulated hunter's
    /// shot alone (firing at it always misses).
    #[must_use]
    pub fn seen(view: &View) -> Sea {
        Sea::holding(view, Vec::new())
    }

    #[inline(always)]
    fn open(&self) -> Cells {
        BOARD & !self.spent & !self.hits
    }

    /// Whether only unwounded boats are afloat (or nothing).
    #[inline(always)]
    fn last_boats(&self) -> bool {
        self.hits == 0 && self.afloat.iter().skip(1).all(|&n| n == 0)
    }

    /// Fires at cell `i`; whether it missed.
    #[inline(always)]
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
    pub fn placements(&self) -> Table {
        every_placement()
            .all
            .iter()
            .filter(|p| self.possible(p))
            .collect()
    }

    /// Whether a ship afloat may still lie at `p`: its cells clear of spent water,
    /// its ring clear of hits.
    #[inline(always)]
    fn possible(&self, p: &Placement) -> bool {
        self.afloat.get(p.len - 1).is_some_and(|&n| n > 0)
            && p.cells & self.spent == 0
            && p.ring & self.hits == 0
    }

    /// The simulated hunter's shot (module documentation), or `None` with no open cell.
    #[must_use]
    pub fn shot(&self, model: Model) -> Option<usize> {
        self.shot_among(&self.placements(), model)
    }

    /// The wound to finish: the hits joined to the lowest one (none without hits).
    #[inline(always)]
    fn wound(&self) -> Cells {
        if self.hits == 0 {
            return 0;
        }
        let mut w = self.hits & self.hits.wrapping_neg();
        loop {
            let grown = (w | spread(w)) & self.hits;
            if grown == w {
                return w;
            }
            w = grown;
        }
    }

    /// [`Sea::shot`] laying ships only in `table` (which must hold every placement
    /// still possible).
    #[inline(always)]
    fn shot_among(&self, table: &[&Placement], model: Model) -> Option<usize> {
        let open = self.open();
        if open == 0 {
            return None;
        }
        if self.last_boats() {
            return Some(boat_shot(open));
        }
        let (counts, scale) = self.weighted(table, model);
        let mut best = None;
        let mut top = 0.0;
        let mut m = open;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            let w = cell_worth(&counts, &scale, c);
            if best.is_none() || w > top {
                best = Some(c);
                top = w;
            }
        }
        best
    }

    /// The simulated hunter's belief: per length and open cell the weight of the
    /// usable placements of `table` covering it (only those covering the wound to
    /// finish, if any), and per length the scale that turns it into worth.
    #[inline(always)]
    fn weighted(&self, table: &[&Placement], model: Model) -> ([[f64; 100]; 4], [f64; 4]) {
        let wound = self.wound();
        let size = wound.count_ones() as usize;
        // The placements a ship may take: clear of the known water and of the hits'
        // rings, holding no hit but the whole wound (and longer than it).
        let usable = |p: &Placement| {
            let inside = p.cells & self.hits;
            self.possible(p) && (inside == 0 || (inside == wound && p.len > size))
        };
        let mut alive = [[0u128; 2]; 4];
        if model == Model::Room {
            for p in table
                .iter()
                .filter(|p| usable(p) && p.cells & self.hits == 0)
            {
                if let Some(slots) = alive.get_mut(p.len - 1) {
                    set_slot(slots, p.slot);
                }
            }
        }
        let mut counts = [[0f64; 100]; 4];
        let mut totals = [0f64; 4];
        for p in table.iter().filter(|p| usable(p)) {
            let w = match model {
                Model::Alone => 1.0,
                Model::Room => self.room(p, &alive),
            };
            if let Some(t) = totals.get_mut(p.len - 1) {
                *t += w;
            }
            if w == 0.0 || (wound != 0 && p.cells & wound == 0) {
                continue;
            }
            if let Some(row) = counts.get_mut(p.len - 1) {
                let mut m = p.cells & !self.hits;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    if let Some(x) = row.get_mut(c) {
                        *x += w;
                    }
                    m &= m - 1;
                }
            }
        }
        let scale: [f64; 4] = std::array::from_fn(|l| {
            let n = f64::from(self.afloat.get(l).copied().unwrap_or(0));
            let t = totals.get(l).copied().unwrap_or(0.0);
            let v = HIT_VALUE.get(l).copied().unwrap_or(1.0);
            if t > 0.0 { v * n / t } else { 0.0 }
        });
        (counts, scale)
    }

    /// The room placement `p` leaves the rest of the afloat fleet: per other afloat
    /// ship, the number of its placements in `alive` that neither overlap nor touch
    /// `p`, multiplied together, to the power [`ROOM_POWER`].
    #[inline(always)]
    fn room(&self, p: &Placement, alive: &[Slots; 4]) -> f64 {
        let mut w = 1.0;
        for (l, ((&n, free), clash)) in self.afloat.iter().zip(alive).zip(&p.clash).enumerate() {
            let others = i32::from(n) - i32::from(l + 1 == p.len);
            if others <= 0 {
                continue;
            }
            let room: u32 = free
                .iter()
                .zip(clash)
                .map(|(f, c)| (f & !c).count_ones())
                .sum();
            let room = f64::from(room);
            for _ in 0..others {
                w *= room;
            }
        }
        // ROOM_POWER: w^1.5 by one square root, cheaper than `powf`.
        w * w.sqrt()
    }

    /// This sea's fleet as a particle: the cells of its afloat ships and boats.
    #[must_use]
    pub fn particle(&self) -> Particle {
        let cells = self.occupied & !self.spent;
        (cells, cells & !spread(cells))
    }

    /// The misses of firing at `first`, then the simulated hunter until only
    /// unwounded boats are afloat, plus the exact expected misses of the greedy
    /// search for those boats.
    /// `table` holds the placements still possible at this sea ([`Sea::placements`]);
    /// the simulated hunter fires by the `particles` that agree with what the rollout
    /// has seen while [`PARTICLES_MIN`] do, then weighs placements by `model`.
    pub fn rollout(
        self,
        first: usize,
        table: &[&Placement],
        model: Model,
        particles: &[Particle],
        boats: &mut LastBoats,
    ) -> f64 {
        self.rollout_on(Isa::detected(), first, table, model, particles, boats)
    }

    /// [`Sea::rollout`] with the compiled copy for `isa`, which must be
    /// [`Isa::Portable`] or one [`Isa::detected`] returned.
    fn rollout_on(
        self,
        isa: Isa,
        first: usize,
        table: &[&Placement],
        model: Model,
        particles: &[Particle],
        boats: &mut LastBoats,
    ) -> f64 {
        dispatch!(isa, rollout(self, first, table, model, particles, boats))
    }
}

/// The rollout's loop, once per instruction set (`count_ones` and `trailing_zeros`
/// are most of the simulated hunter's work; the methods it calls are inlined).
macro_rules! rollout_loop {
    ($isa:ident $(#[$feature:meta])*) => {
        $(#[$feature])*
        pub(super) fn rollout(
            mut sea: Sea,
            first: usize,
            table: &[&Placement],
            model: Model,
            particles: &[Particle],
            boats: &mut LastBoats,
        ) -> f64 {
            let mut misses = 0u32;
            let mut cell = Some(first);
            let mut table = table.to_vec();
            let mut agree: Vec<Particle> = particles.to_vec();
            for _ in 0..100 {
                let Some(i) = cell else { break };
                let bit = 1u128 << i;
                if sea.open() & bit == 0 {
                    break;
                }
                if sea.fire(i) {
                    misses += 1;
                    agree.retain(|p| p.0 & bit == 0);
                } else if sea.hits & bit != 0 {
                    agree.retain(|p| p.0 & bit != 0);
                } else if let Some(&(cells, ring, _)) = sea.ships.iter().find(|s| s.0 & bit != 0) {
                    agree.retain(|p| p.0 & cells == cells && p.0 & ring == 0);
                }
                if agree.len() < PARTICLES_MIN {
                    agree.clear();
                }
                if sea.last_boats() {
                    let left = sea.afloat.first().copied().unwrap_or(0);
                    if left == 0 || sea.open().count_ones() <= EXACT_BOATS_OPEN {
                        return f64::from(misses) + boats.greedy_misses(sea.open(), left);
                    }
                }
                table.retain(|p| sea.possible(p));
                cell = if agree.is_empty() || sea.last_boats() {
                    None
                } else {
                    particle_shot(sea.open(), &agree)
                }
                .or_else(|| sea.shot_among(&table, model));
            }
            f64::from(misses)
        }
    };
}

isa_copies!(rollout_loop);

/// The quick rollout hunter's shot at the sea seen in `view` (module
/// documentation); the base hunter's where it does not plan.
pub fn hunt(view: &View, rng: &mut Rng, limits: &Limits<'_>, settings: &Settings) -> Option<Cell> {
    let draws = settings.fleets + settings.particles;
    let (first, candidates, fleets) =
        match rollout::planned(view, rng, limits, settings.candidates, draws) {
            Ok(plan) => plan,
            Err(shot) => return shot,
        };
    let all: Vec<Sea> = fleets.iter().map(|fleet| Sea::new(view, fleet)).collect();
    // The chain's draws are spread over its sweeps: every `stride`-th is a fleet to
    // roll out on, the others particles.
    let stride = (all.len() / settings.fleets.max(1)).max(1);
    let (mut seas, mut particles) = (Vec::new(), Vec::new());
    for (k, sea) in all.into_iter().enumerate() {
        if k % stride == 0 && seas.len() < settings.fleets {
            seas.push(sea);
        } else if settings.particles > 0 {
            particles.push(sea.particle());
        }
    }
    let table = seas.first().map(Sea::placements).unwrap_or_default();
    MEMO.with_borrow_mut(|boats| {
        if boats.len() > MEMO_STATES {
            *boats = LastBoats::new();
        }
        choose(
            &candidates,
            &seas,
            &table,
            &particles,
            limits,
            settings,
            boats,
        )
    })
    .or(Some(first))
}

/// The simulated hunter's shot at the sea seen in `view`, weighing placements by
/// `model`: the rollouts' hunter playing on its own, to measure it by whole games.
#[must_use]
pub fn simulated_hunt(view: &View, model: Model) -> Option<Cell> {
    Sea::seen(view).shot(model).and_then(Cell::from_index)
}

thread_local! {
    static MEMO: std::cell::RefCell<LastBoats> = std::cell::RefCell::new(LastBoats::new());
}

/// The candidate to fire, scored by quick rollouts on `seas`.
fn choose(
    candidates: &[Cell],
    seas: &[Sea],
    table: &[&Placement],
    particles: &[Particle],
    limits: &Limits<'_>,
    settings: &Settings,
    boats: &mut LastBoats,
) -> Option<Cell> {
    let estimates = evaluate(
        candidates.len(),
        seas.len(),
        |c, j| match (candidates.get(c), seas.get(j)) {
            (Some(&cell), Some(sea)) => {
                sea.clone()
                    .rollout(cell.index(), table, settings.model, particles, boats)
            }
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
        for model in [Model::Alone, Model::Room].into_iter().cycle().take(40) {
            let fleet = random_fleet(&mut rng);
            let mut sea = Sea::new(&View::new(), &fleet);
            let mut fired = 0u128;
            let mut shots = 0;
            while let Some(i) = sea.shot(model) {
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
            assert_eq!((fired & sea.occupied).count_ones(), 20, "{model:?}");
        }
    }

    /// A sea where only `open` is open and `afloat` ships are afloat, no hits.
    fn open_sea(open: &[usize], afloat: [u8; 4]) -> Sea {
        let open = open.iter().fold(0u128, |acc, &i| acc | 1u128 << i);
        Sea {
            spent: BOARD & !open,
            hits: 0,
            afloat,
            ships: Vec::new(),
            occupied: 0,
        }
    }

    /// The worth the simulated hunter gives each open cell of `sea` (module
    /// documentation), its shot the highest.
    fn worth(sea: &Sea, model: Model) -> Vec<(usize, f64)> {
        let table = sea.placements();
        let (counts, scale) = sea.weighted(&table, model);
        let mut m = sea.open();
        let mut out = Vec::new();
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            out.push((c, cell_worth(&counts, &scale, c)));
        }
        out
    }

    #[test]
    fn room_weights_find_the_boat_that_cannot_share_the_strip() {
        // Open: a strip of three cells (0, 1, 2) and one lone cell (55); a destroyer
        // and a boat afloat. The destroyer lies on 0-1 or 1-2, and a boat on the strip
        // would touch it: the only fleets put the boat on 55. Exact: 55 holds the boat
        // (worth 1.3), 1 the destroyer, 0 and 2 it half the time.
        let sea = open_sea(&[0, 1, 2, 55], [1, 1, 0, 0]);
        let room = worth(&sea, Model::Room);
        let expected = [(0, 0.5), (1, 1.0), (2, 0.5), (55, HIT_VALUE[0])];
        assert_eq!(room.len(), expected.len());
        for (&(c, w), &(e, x)) in room.iter().zip(&expected) {
            assert_eq!(c, e);
            assert!((w - x).abs() < 1e-12, "cell {c}: {w} against {x}");
        }
        assert_eq!(sea.shot(Model::Room), Some(55));
        // Each ship on its own puts the boat on any of the four cells: the strip's
        // middle looks best.
        let alone = worth(&sea, Model::Alone);
        let middle = alone.iter().find(|x| x.0 == 1).map_or(0.0, |x| x.1);
        assert!(
            (middle - (1.0 + HIT_VALUE[0] / 4.0)).abs() < 1e-12,
            "{middle}"
        );
        assert_eq!(sea.shot(Model::Alone), Some(1));
    }

    #[test]
    fn room_weights_count_the_room_each_placement_leaves() {
        // Two cruisers' worth of room: two strips of three, far apart, and two
        // cruisers afloat. Each strip holds exactly one cruiser, so every open cell
        // holds a ship; each ship on its own agrees here, and the room weights must
        // not lose it.
        let sea = open_sea(&[0, 1, 2, 70, 71, 72], [0, 0, 2, 0]);
        for model in [Model::Alone, Model::Room] {
            for (c, w) in worth(&sea, model) {
                assert!((w - 1.0).abs() < 1e-12, "{model:?} cell {c}: {w}");
            }
        }
        // One strip of four and a lone cell, a destroyer and a boat. Fleets
        // (destroyer, boat): 0-1 with 3 or 55; 1-2 with 55; 2-3 with 0 or 55. Room
        // per destroyer placement (boat cells left): 2, 1, 2; per boat cell (0, 1,
        // 2, 3, 55, destroyer placements left): 1, 0, 0, 1, 3.
        let sea = open_sea(&[0, 1, 2, 3, 55], [1, 1, 0, 0]);
        let room = worth(&sea, Model::Room);
        let at = |c: usize| room.iter().find(|x| x.0 == c).map_or(f64::NAN, |x| x.1);
        let power = |x: f64| x.powf(ROOM_POWER);
        let destroyer = 2.0 * power(2.0) + power(1.0);
        let boat = 2.0 * power(1.0) + power(3.0);
        let expected = [
            (0, power(2.0) / destroyer + HIT_VALUE[0] * power(1.0) / boat),
            (1, (power(2.0) + power(1.0)) / destroyer),
            (55, HIT_VALUE[0] * power(3.0) / boat),
        ];
        for (c, x) in expected {
            assert!((at(c) - x).abs() < 1e-12, "cell {c}: {} against {x}", at(c));
        }
        assert!((at(0) - at(3)).abs() < 1e-12 && (at(1) - at(2)).abs() < 1e-12);
    }

    #[test]
    fn every_compiled_copy_of_the_rollout_agrees() {
        let mut rng = Rng::new(21);
        let mut boats = LastBoats::new();
        for _ in 0..4 {
            let fleet = random_fleet(&mut rng);
            let sea = Sea::new(&View::new(), &fleet);
            let table = sea.placements();
            let mut particles: Vec<Particle> = (0..20)
                .map(|_| Sea::new(&View::new(), &random_fleet(&mut rng)).particle())
                .collect();
            particles.extend(vec![sea.particle(); 4]);
            for first in [0, 44, 45, 99] {
                for model in [Model::Alone, Model::Room] {
                    let values: Vec<f64> = Isa::available()
                        .into_iter()
                        .map(|isa| {
                            sea.clone()
                                .rollout_on(isa, first, &table, model, &particles, &mut boats)
                        })
                        .collect();
                    assert!(values.iter().all(|&v| v == values[0]), "{values:?}");
                }
            }
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
        let from_water = sea
            .clone()
            .rollout(water, &table, Model::Room, &[], &mut boats);
        // Firing at water first costs that miss; what follows is the rollout from
        // the sea with the miss recorded.
        let mut after = sea.clone();
        after.fire(water);
        let next = after.shot(Model::Room).unwrap_or(0);
        let rest = after.rollout(next, &table, Model::Room, &[], &mut boats);
        assert!(
            (from_water - (1.0 + rest)).abs() < 1e-9,
            "{from_water} {rest}"
        );
    }

    #[test]
    fn particles_that_agree_lead_the_rollout_to_the_fleet() {
        let mut rng = Rng::new(17);
        let mut boats = LastBoats::new();
        for _ in 0..4 {
            let fleet = random_fleet(&mut rng);
            let sea = Sea::new(&View::new(), &fleet);
            let table = sea.placements();
            let truth = sea.particle();
            assert_eq!(truth.0.count_ones(), 20);
            assert_eq!(truth.1.count_ones(), 4, "four boats");
            // Every particle the fleet itself: every shot after the first is at a
            // ship cell, and boats (worth more) go first, so no ship is left for a
            // search: the first shot's miss at most.
            let first = (0..100).find(|&c| truth.0 & 1u128 << c == 0).unwrap_or(0);
            let same = vec![truth; PARTICLES_MIN];
            let value = sea
                .clone()
                .rollout(first, &table, Model::Room, &same, &mut boats);
            assert!((value - 1.0).abs() < 1e-12, "{value}");
            // Half the particles another fleet: the first shot on which the two
            // disagree rules one of them out (a miss at most), and the rest of the
            // rollout follows the fleet.
            let other = Sea::new(&View::new(), &random_fleet(&mut rng)).particle();
            let mut mixed = vec![other; PARTICLES_MIN];
            mixed.extend(vec![truth; PARTICLES_MIN]);
            let on_ship = truth.0.trailing_zeros() as usize;
            let value = sea
                .clone()
                .rollout(on_ship, &table, Model::Room, &mixed, &mut boats);
            assert!(value <= 1.0, "{value}");
            // Too few particles: the room model alone, which misses.
            let few = vec![truth; PARTICLES_MIN - 1];
            let alone = sea
                .clone()
                .rollout(on_ship, &table, Model::Room, &few, &mut boats);
            let none = sea
                .clone()
                .rollout(on_ship, &table, Model::Room, &[], &mut boats);
            assert!((alone - none).abs() < 1e-12 && none > 1.0, "{alone} {none}");
        }
    }

    /// One game of the quick hunter with `settings` on a random fleet drawn with
    /// `seed`: it never fires at a known cell and ends with every ship sunk at 20
    /// hits; its shots.
    fn play_game(seed: u64, settings: &Settings) -> Vec<Cell> {
        let mut rng = Rng::new(seed);
        let fleet = random_fleet(&mut rng);
        let mut view = View::new();
        let mut cells = Vec::new();
        let free = Limits::depth(1);
        while !view.all_sunk() && cells.len() < 100 {
            let Some(cell) = hunt(&view, &mut rng, &free, settings) else {
                break;
            };
            assert!(view.is_open(cell), "fired at a known cell {cell}");
            assert!(view.record_judged(&fleet, cell).is_ok());
            cells.push(cell);
        }
        assert!(view.all_sunk());
        assert_eq!(view.hits(), 20);
        cells
    }

    #[test]
    fn quick_hunter_with_particles_sinks_fleets_and_is_deterministic_per_seed() {
        let settings = Settings {
            candidates: 3,
            fleets: 12,
            margin: 1.0,
            model: Model::Room,
            particles: 40,
        };
        let play = |seed: u64| play_game(seed, &settings);
        assert_eq!(play(6), play(6));
        assert_ne!(play(6), play(7));
    }

    #[test]
    fn quick_hunter_sinks_fleets_and_is_deterministic_per_seed() {
        let settings = Settings {
            candidates: 3,
            fleets: 16,
            margin: 1.0,
            model: Model::Room,
            particles: 0,
        };
        let play = |seed: u64| play_game(seed, &settings);
        assert_eq!(play(3), play(3));
        assert_ne!(play(3), play(4));
    }
}
