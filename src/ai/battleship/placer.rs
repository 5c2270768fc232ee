//! Fleet placement: [`random_fleet`], uniform over all legal fleets, and [`place`],
//! the `genfleet` strategy, a randomised mixture that is harder for a hunter that
//! assumes uniform placement.
//!
//! Uniformity of [`random_fleet`]: each attempt draws the ten ships independently and
//! uniformly over their placements (battleship first) and is thrown away whole at the
//! first conflict (overlap or touch, B3). Accepted attempts are uniform over ordered
//! ten-tuples of legal ships, and every legal fleet is the same number (1!·2!·3!·4!)
//! of ordered tuples, so the fleet is uniform over all legal fleets. Stopping an
//! attempt early at the first conflict does not change which attempts are accepted.
//! (Retrying ship by ship would not be uniform.) The counting tables of
//! [`super::count`] sample the same distribution exactly too, but the full 10 × 10
//! tables hold about 5 × 10^7 states, too many to keep; rejection costs about 1.7 ms.
//!
//! [`place`] draws, per fleet: a uniform fleet (so nothing is ever excluded), or the
//! big ships on the border with the boats inside, or a packed fleet
//! ([`packed_fleet`]: a uniform fleet whose longer ships a random walk packs
//! together while its boats move out into the open water they leave, water a hunter
//! assuming uniform placement searches for longer ships first). Every
//! fleet is legal; no fixed pattern recurs. [`compact_fleet`], the most compact of
//! a few uniform fleets, is the milder style the adaptive hunter's tables know.

use crate::games::battleship::{Cell, CellSet, Fleet, Ship};
use crate::rng::Rng;

/// The lengths of the ten ships, longest first (a conflict shows up early).
const LENGTHS: [usize; 10] = [4, 3, 3, 2, 2, 2, 1, 1, 1, 1];

/// Chances, in percent, of the mixture's parts: uniform, border, packed.
const MIXTURE: [u64; 3] = [30, 45, 25];

/// How many uniform fleets [`compact_fleet`] compares.
const COMPACT_CANDIDATES: usize = 12;

/// Moves [`packed_fleet`]'s random walk tries (each a few microseconds).
const PACKING_MOVES: usize = 2000;

/// One uniformly drawn placement of a ship of `len` cells (1 to 4).
fn random_ship(len: usize, rng: &mut Rng) -> Option<Ship> {
    let len = i32::try_from(len).ok()?;
    let span = 11 - len; // start positions along the ship's axis
    // Boats have one orientation; longer ships 2 × 10 × span placements.
    let placements = if len == 1 { 100 } else { 2 * 10 * span };
    let k = i32::try_from(rng.below(u64::try_from(placements).ok()?)).ok()?;
    let (vertical, k) = if len > 1 && k >= 10 * span {
        (true, k - 10 * span)
    } else {
        (false, k)
    };
    let (along, across) = (k % span.max(1), k / span.max(1));
    let (from, to) = if len == 1 {
        let cell = Cell::from_index(usize::try_from(k).ok()?)?;
        (cell, cell)
    } else if vertical {
        (Cell::at(across, along)?, Cell::at(across, along + len - 1)?)
    } else {
        (Cell::at(along, across)?, Cell::at(along + len - 1, across)?)
    };
    Ship::new(from, to).ok()
}

/// One uniformly drawn placement of a ship of `len` ≥ 2 cells lying along the border
/// (on row 1 or 10, or column A or J).
fn border_ship(len: usize, rng: &mut Rng) -> Option<Ship> {
    let len = i32::try_from(len).ok()?;
    let span = 11 - len;
    let k = i32::try_from(rng.below(u64::try_from(4 * span).ok()?)).ok()?;
    let (side, along) = (k / span, k % span);
    let (from, to) = match side {
        0 => (Cell::at(along, 0)?, Cell::at(along + len - 1, 0)?),
        1 => (Cell::at(along, 9)?, Cell::at(along + len - 1, 9)?),
        2 => (Cell::at(0, along)?, Cell::at(0, along + len - 1)?),
        _ => (Cell::at(9, along)?, Cell::at(9, along + len - 1)?),
    };
    Ship::new(from, to).ok()
}

/// A boat uniformly inside the border (rows 2–9, columns B–I).
fn inner_boat(rng: &mut Rng) -> Option<Ship> {
    let k = i32::try_from(rng.below(64)).ok()?;
    Some(Ship::boat(Cell::at(1 + k % 8, 1 + k / 8)?))
}

/// One attempt: the ten ships drawn by `draw(len)`, or `None` at the first conflict.
fn attempt(rng: &mut Rng, draw: fn(usize, &mut Rng) -> Option<Ship>) -> Option<Fleet> {
    let mut ships = Vec::with_capacity(10);
    let mut taken = CellSet::new(); // ship cells and their rings
    for len in LENGTHS {
        let ship = draw(len, rng)?;
        let cells = ship.cell_set();
        if cells.intersects(taken) {
            return None;
        }
        taken = taken.union(cells).union(ship.ring());
        ships.push(ship);
    }
    Fleet::new(ships).ok()
}

/// Rejection with the given drawer; falls back to uniform after many failures (never
/// reached with the drawers here, which accept within a few thousand attempts).
fn rejection(rng: &mut Rng, draw: fn(usize, &mut Rng) -> Option<Ship>) -> Fleet {
    for _ in 0..1_000_000 {
        if let Some(fleet) = attempt(rng, draw) {
            return fleet;
        }
    }
    random_fleet(rng)
}

/// A fleet drawn uniformly from all legal fleets (B2, B3).
pub fn random_fleet(rng: &mut Rng) -> Fleet {
    loop {
        if let Some(fleet) = attempt(rng, random_ship) {
            return fleet;
        }
    }
}

/// Big ships on the border, boats inside: uniform among such fleets.
pub fn border_fleet(rng: &mut Rng) -> Fleet {
    rejection(rng, |len, rng| {
        if len == 1 {
            inner_boat(rng)
        } else {
            border_ship(len, rng)
        }
    })
}

/// The cells of `ships` and their rings.
fn covered<'a>(ships: impl Iterator<Item = &'a Ship>) -> CellSet {
    ships.fold(CellSet::new(), |set, ship| {
        set.union(ship.cell_set()).union(ship.ring())
    })
}

/// The area of the ships and their rings.
#[must_use]
pub fn footprint(fleet: &Fleet) -> usize {
    covered(fleet.ships().iter()).len()
}

/// The most compact of a few uniform fleets (smallest ships-plus-rings area).
pub fn compact_fleet(rng: &mut Rng) -> Fleet {
    let mut best = random_fleet(rng);
    let mut best_area = footprint(&best);
    for _ in 1..COMPACT_CANDIDATES {
        let fleet = random_fleet(rng);
        let area = footprint(&fleet);
        if area < best_area {
            best = fleet;
            best_area = area;
        }
    }
    best
}

/// The cells of `ships` and their rings, all but ship `skip`.
fn taken_by(ships: &[Ship], skip: usize) -> CellSet {
    covered(
        ships
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != skip)
            .map(|(_, ship)| ship),
    )
}

/// What [`packed_fleet`]'s walk keeps from growing and from shrinking: the area of
/// the longer ships and their rings, and the boats' open water (per boat, the cells
/// of its ring clear of every other ship and ring).
fn packing(ships: &[Ship]) -> (usize, usize) {
    let longer = covered(ships.iter().filter(|s| s.len() > 1)).len();
    let open = ships
        .iter()
        .enumerate()
        .filter(|(_, s)| s.len() == 1)
        .map(|(i, s)| s.ring().minus(taken_by(ships, i)).len())
        .sum();
    (longer, open)
}

/// A packed fleet: a uniform fleet, then [`PACKING_MOVES`] tries to move one ship
/// (drawn uniformly) to a uniformly drawn placement of its length, each kept when the
/// fleet stays legal, the longer ships' area does not grow and the boats' open water
/// does not shrink ([`packing`]). The longer ships end packed together, leaving wide
/// water, and the boats alone in it, far from the rings a sinking reveals: the cells
/// a hunter searches last for boats. Equal scores are accepted, so the walk keeps
/// wandering: a fleet is random, not one of a few patterns.
pub fn packed_fleet(rng: &mut Rng) -> Fleet {
    let start = random_fleet(rng);
    let mut ships: Vec<Ship> = start.ships().to_vec();
    let mut score = packing(&ships);
    for _ in 0..PACKING_MOVES {
        let i = usize::try_from(rng.below(LENGTHS.len() as u64)).unwrap_or(0);
        let Some(&old) = ships.get(i) else {
            continue;
        };
        let Some(ship) = random_ship(old.len(), rng) else {
            continue;
        };
        if ship.cell_set().intersects(taken_by(&ships, i)) {
            continue;
        }
        ships[i] = ship;
        let moved = packing(&ships);
        if moved.0 <= score.0 && moved.1 >= score.1 {
            score = moved;
        } else {
            ships[i] = old;
        }
    }
    Fleet::new(ships).unwrap_or(start)
}

/// The `genfleet` placement: the mixture described in the module documentation.
pub fn place(rng: &mut Rng) -> Fleet {
    let [uniform, border, _] = MIXTURE;
    let roll = rng.below(100);
    if roll < uniform {
        random_fleet(rng)
    } else if roll < uniform + border {
        border_fleet(rng)
    } else {
        packed_fleet(rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_fleet_is_deterministic_per_seed() {
        let a = random_fleet(&mut Rng::new(42));
        let b = random_fleet(&mut Rng::new(42));
        let c = random_fleet(&mut Rng::new(43));
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn random_ship_covers_every_placement_of_each_length() {
        let mut rng = Rng::new(5);
        for (len, placements) in [(1, 100), (2, 180), (3, 160), (4, 140)] {
            let mut seen = std::collections::HashSet::new();
            for _ in 0..placements * 40 {
                let ship = random_ship(len, &mut rng).unwrap();
                assert_eq!(ship.len(), len);
                seen.insert(ship);
            }
            assert_eq!(seen.len(), placements, "length {len}");
        }
    }

    /// `n` fleets of `draw` from `seed` are legal (re-checked through the notation:
    /// `Fleet` values are legal by construction) and all different, and `draw` is
    /// deterministic per seed.
    fn assert_legal_varied_and_deterministic(draw: fn(&mut Rng) -> Fleet, seed: u64, n: usize) {
        let mut rng = Rng::new(seed);
        let fleets: Vec<Fleet> = (0..n).map(|_| draw(&mut rng)).collect();
        for fleet in &fleets {
            assert_eq!(Fleet::parse(&fleet.to_string()).as_ref(), Ok(fleet));
        }
        let distinct: std::collections::HashSet<&Fleet> = fleets.iter().collect();
        assert_eq!(distinct.len(), fleets.len());
        assert_eq!(draw(&mut Rng::new(4)), draw(&mut Rng::new(4)));
    }

    #[test]
    fn placer_fleets_are_legal_varied_and_deterministic() {
        assert_legal_varied_and_deterministic(place, 8, 60);
    }

    #[test]
    fn packed_fleets_are_legal_varied_and_deterministic() {
        assert_legal_varied_and_deterministic(packed_fleet, 11, 40);
        assert_ne!(
            packed_fleet(&mut Rng::new(4)),
            packed_fleet(&mut Rng::new(5))
        );
    }

    #[test]
    fn packing_packs_the_longer_ships_and_opens_water_round_the_boats() {
        let mean = |seed: u64, draw: fn(&mut Rng) -> Fleet| {
            let mut rng = Rng::new(seed);
            let scores: Vec<(usize, usize)> =
                (0..40).map(|_| packing(draw(&mut rng).ships())).collect();
            let n = scores.len() as f64;
            (
                scores.iter().map(|s| s.0 as f64).sum::<f64>() / n,
                scores.iter().map(|s| s.1 as f64).sum::<f64>() / n,
            )
        };
        let (uniform_area, uniform_open) = mean(1, random_fleet);
        let (packed_area, packed_open) = mean(3, packed_fleet);
        assert!(
            packed_area < uniform_area - 8.0,
            "{packed_area} {uniform_area}"
        );
        assert!(
            packed_open > uniform_open + 4.0,
            "{packed_open} {uniform_open}"
        );
    }

    #[test]
    fn packed_fleets_cost_the_simulated_hunter_misses() {
        use crate::games::battleship::{ShotResult, View};
        let misses = |seed: u64, draw: fn(&mut Rng) -> Fleet| {
            let mut rng = Rng::new(seed);
            let mut total = 0u32;
            for _ in 0..60 {
                let fleet = draw(&mut rng);
                let mut view = View::new();
                while !view.all_sunk() {
                    let cell = super::super::quick::simulated_hunt(
                        &view,
                        super::super::quick::Model::Alone,
                    )
                    .expect("an open cell while ships are afloat");
                    if view.record_judged(&fleet, cell) == Ok(ShotResult::Miss) {
                        total += 1;
                    }
                }
            }
            f64::from(total) / 60.0
        };
        let uniform = misses(1, random_fleet);
        let packed = misses(2, packed_fleet);
        // About 37.5 and 44 (sd about 6 each): a gap of three misses is over three
        // standard errors of the difference.
        assert!(packed > uniform + 3.0, "{packed} {uniform}");
    }

    #[test]
    fn border_fleets_keep_big_ships_on_the_border() {
        let mut rng = Rng::new(2);
        for _ in 0..20 {
            let fleet = border_fleet(&mut rng);
            for ship in fleet.ships().iter().filter(|s| s.len() > 1) {
                assert!(
                    ship.cells()
                        .all(|c| { c.row() == 0 || c.row() == 9 || c.col() == 0 || c.col() == 9 })
                );
            }
        }
    }
}
