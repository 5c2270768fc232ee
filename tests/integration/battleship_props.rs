//! Property tests of the Battleship rules (RULES.md B2–B8) and players: random fleets
//! are legal, rings are marked, hunter games end at 20 hits without repeats, views hide
//! unhit ships, the table notation round-trips, refused calls change nothing, and a
//! claimed result is accepted exactly when some fleet explains it.

use std::collections::HashSet;

use proptest::prelude::*;
use tabula::ai::Limits;
use tabula::ai::battleship::{hunt, parity_hunt, random_fleet};
use tabula::games::battleship::{
    Cell, Fleet, Mark, Ship, ShipType, ShotResult, Table, TableError, View,
};
use tabula::games::{Color, Status};
use tabula::rng::Rng;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 24,
        ..ProptestConfig::default()
    }
}

/// Asserts the view of `color`'s sea shows no unhit ship cell.
fn view_hides_unhit_ships(table: &Table, color: Color) {
    if let Some(fleet) = table.fleet(color) {
        let view = &table.sea(color).view;
        for ship in fleet.ships() {
            for cell in ship.cells() {
                let mark = view.mark(cell);
                assert!(
                    matches!(mark, Mark::Unknown | Mark::Hit | Mark::Sunk),
                    "{cell} shows {mark:?}"
                );
            }
        }
        for cell in Cell::all() {
            if matches!(view.mark(cell), Mark::Hit | Mark::Sunk) {
                assert!(
                    fleet.ship_at(cell).is_some(),
                    "{cell} marked hit but is water"
                );
            }
        }
    }
}

/// A random table: random fleets (each known or not), a random number of hunter shots
/// (player-mode results come from a hidden fleet), maybe offers, maybe a draw, maybe
/// clocks, maybe a following game.
fn random_table(seed: u64, steps: usize) -> Table {
    let mut rng = Rng::new(seed);
    let mut table = Table::new();
    let fleets = [random_fleet(&mut rng), random_fleet(&mut rng)];
    let games = 1 + rng.below(2);
    for game in 0..games {
        if rng.below(2) == 0 {
            let control = tabula::games::battleship::TimeControl::Timed {
                main_ms: 1 + rng.below(100_000),
                increment_ms: rng.below(1000),
            };
            let _ = table.set_time_control(Color::White, control);
        }
        let known = [rng.below(3) != 0, rng.below(3) != 0];
        for color in Color::ALL {
            if known[color.index()] {
                let _ = table.place_fleet(color, fleets[color.index()].clone());
            }
        }
        let _ = table.ready(Color::White);
        let _ = table.start();
        let budget = if game + 1 == games { steps } else { 400 };
        for _ in 0..budget {
            let Some(shooter) = table.turn() else { break };
            match rng.below(20) {
                0 => {
                    let _ = table.offer_draw(Color::ALL[rng.below(2) as usize]);
                }
                1 => {
                    let _ = table.decline_draw(Color::ALL[rng.below(2) as usize]);
                }
                2 if rng.below(10) == 0 => {
                    let _ = table.accept_draw(Color::ALL[rng.below(2) as usize]);
                }
                3 => {
                    let _ = table.elapse(rng.below(5000));
                }
                _ => {
                    let target = shooter.opponent();
                    let Some(cell) = parity_hunt(table.target_view(shooter), &mut rng) else {
                        break;
                    };
                    let r = if table.fleet(target).is_some() {
                        table.shoot(shooter, cell)
                    } else {
                        let hidden = &fleets[target.index()];
                        let result = hidden.judge(table.target_view(shooter), cell);
                        table.shoot_reported(shooter, cell, result)
                    };
                    assert!(r.is_ok(), "{r:?}");
                }
            }
        }
        if game + 1 < games {
            if !table.status().is_over() {
                let _ = table.offer_draw(Color::Black);
                let _ = table.accept_draw(Color::White);
            }
            let _ = table.again();
        }
    }
    table
}

/// The cells of `ship` and every cell touching it, as bits `index`.
fn halo_bits(ship: Ship) -> u128 {
    ship.cells()
        .flat_map(|c| c.neighbours().chain(std::iter::once(c)))
        .fold(0, |bits, c| bits | 1 << c.index())
}

/// An exact search for a fleet consistent with a view (and, optionally, giving a
/// claimed result at one open cell), written apart from the engine's own check. It
/// lays ships in two stages: first, for the lowest cell still to cover (a hit, or
/// the claimed cell of a claimed hit or sinking), every ship and segment over it;
/// then the ships left anywhere, deciding the cells in index order (a ship laid at
/// its first cell), with the subproblems that failed remembered (only the cells from
/// the current one on, and the ships left, matter to them).
struct Brute {
    /// Cells a ship afloat may use: not shot (nor claimed a miss), or hit.
    open: u128,
    hits: u128,
    /// Cells a ship must cover: the hits, and a claimed hit or sinking.
    targets: u128,
    claim: Option<(Cell, ShotResult)>,
    failed: HashSet<(usize, u128, [usize; 4])>,
    laid: Vec<Ship>,
}

fn bits(ship: Ship) -> u128 {
    ship.cells().fold(0, |b, c| b | 1 << c.index())
}

impl Brute {
    /// A fleet of ten that explains every shot of `view` and answers `claim`.
    fn fleet(view: &View, claim: Option<(Cell, ShotResult)>) -> Option<Fleet> {
        let mut open = 0u128;
        let mut hits = 0u128;
        for cell in Cell::all() {
            match view.mark(cell) {
                Mark::Unknown => open |= 1 << cell.index(),
                Mark::Hit => {
                    open |= 1 << cell.index();
                    hits |= 1 << cell.index();
                }
                Mark::Miss | Mark::Ring | Mark::Sunk => {}
            }
        }
        let mut targets = hits;
        match claim {
            Some((cell, ShotResult::Miss)) => open &= !(1 << cell.index()),
            Some((cell, _)) => targets |= 1 << cell.index(),
            None => {}
        }
        let banned = view.sunk().iter().fold(0, |b, &s| b | halo_bits(s));
        let left = ShipType::ALL.map(|k| view.afloat(k));
        let mut brute = Brute {
            open,
            hits,
            targets,
            claim,
            failed: HashSet::new(),
            laid: Vec::new(),
        };
        if !brute.cover(0, banned, left) {
            return None;
        }
        let mut ships = view.sunk().to_vec();
        ships.extend(brute.laid);
        Some(Fleet::new(ships).expect("the search lays a legal fleet"))
    }

    /// Whether `ship` may lie here: on open cells clear of `banned`, not wholly hit
    /// (it would be sunk), and giving the claimed result if it holds the claimed cell.
    fn fits(&self, ship: Ship, banned: u128) -> bool {
        let cells = bits(ship);
        if cells & !self.open != 0 || cells & banned != 0 {
            return false;
        }
        match self.claim {
            Some((cell, result)) if ship.contains(cell) => {
                let others = cells & !(1 << cell.index());
                match result {
                    ShotResult::Miss => false,
                    ShotResult::Hit => others & !self.hits != 0,
                    ShotResult::Sunk(k) => k == ship.kind() && others & !self.hits == 0,
                }
            }
            _ => cells & !self.hits != 0,
        }
    }

    /// Lays `ship`, goes on with `then`, and takes it back if that fails.
    fn with(
        &mut self,
        ship: Ship,
        banned: u128,
        left: [usize; 4],
        then: impl FnOnce(&mut Brute, u128, [usize; 4]) -> bool,
    ) -> bool {
        let mut after = left;
        if let Some(n) = ShipType::ALL.iter().position(|&k| k == ship.kind()) {
            after[n] -= 1;
        }
        self.laid.push(ship);
        if then(self, banned | halo_bits(ship), after) {
            return true;
        }
        self.laid.pop();
        false
    }

    /// Stage one: covers the targets left (those not in `covered`), then stage two.
    fn cover(&mut self, covered: u128, banned: u128, left: [usize; 4]) -> bool {
        let uncovered = self.targets & !covered;
        if uncovered == 0 {
            return self.rest(0, banned, left);
        }
        let target = uncovered.trailing_zeros() as i32;
        let Some(cell) = Cell::from_index(target as usize) else {
            return false;
        };
        for (i, kind) in ShipType::ALL.into_iter().enumerate() {
            let len = kind.len() as i32;
            if left[i] == 0 {
                continue;
            }
            for shift in 0..len {
                for (dc, dr) in [(1, 0), (0, 1)] {
                    if len == 1 && dr == 1 {
                        continue;
                    }
                    let ends = (
                        cell.offset(-dc * shift, -dr * shift),
                        cell.offset(dc * (len - 1 - shift), dr * (len - 1 - shift)),
                    );
                    let (Some(from), Some(to)) = ends else {
                        continue;
                    };
                    let Ok(ship) = Ship::new(from, to) else {
                        continue;
                    };
                    if self.fits(ship, banned)
                        && self.with(ship, banned, left, |b, banned, left| {
                            b.cover(covered | bits(ship), banned, left)
                        })
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Stage two: lays the ships `left` on the cells from `index` on.
    fn rest(&mut self, index: usize, banned: u128, left: [usize; 4]) -> bool {
        let needed: usize = ShipType::ALL
            .iter()
            .zip(left)
            .map(|(k, n)| k.len() * n)
            .sum();
        if needed == 0 {
            return true;
        }
        let room = (self.open & !banned) >> index;
        let key = (index, banned >> index, left);
        if (room.count_ones() as usize) < needed || self.failed.contains(&key) {
            return false;
        }
        if let Some(start) = Cell::from_index(index) {
            for (i, kind) in ShipType::ALL.into_iter().enumerate() {
                let len = kind.len() as i32 - 1;
                if left[i] == 0 {
                    continue;
                }
                for (dc, dr) in [(len, 0), (0, len)] {
                    let Some(end) = start.offset(dc, dr) else {
                        continue;
                    };
                    let Ok(ship) = Ship::new(start, end) else {
                        continue;
                    };
                    if self.fits(ship, banned)
                        && self.with(ship, banned, left, |b, banned, left| {
                            b.rest(index + 1, banned, left)
                        })
                    {
                        return true;
                    }
                    if len == 0 {
                        break;
                    }
                }
            }
            if self.rest(index + 1, banned, left) {
                return true;
            }
        }
        self.failed.insert(key);
        false
    }
}

/// A cell to shoot: most often one beside a wound (where the interesting claims
/// are), otherwise any open cell.
fn next_target(view: &View, rng: &mut Rng) -> Option<Cell> {
    let beside: Vec<Cell> = view
        .cells_marked(Mark::Hit)
        .iter()
        .flat_map(|c| c.sides())
        .filter(|&c| view.is_open(c))
        .collect();
    if !beside.is_empty() && rng.below(3) != 0 {
        return rng.choose(&beside).copied();
    }
    let open: Vec<Cell> = view.open_cells().collect();
    rng.choose(&open).copied()
}

proptest! {
    #![proptest_config(config())]

    /// B2, B3: the placer makes legal fleets (re-parsing the notation re-validates).
    #[test]
    fn random_fleet_is_legal(seed in any::<u64>()) {
        let fleet = random_fleet(&mut Rng::new(seed));
        prop_assert_eq!(Fleet::parse(&fleet.to_string()), Ok(fleet.clone()));
        prop_assert_eq!(fleet.cells().len(), 20);
    }

    /// B4–B7: the hunter against a random known fleet never repeats a cell, never
    /// shoots a spent cell, every sinking rings its ship (B6), and the game ends
    /// exactly when the 20th hit is made.
    #[test]
    fn hunter_game_ends_at_twenty_hits(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let mut table = Table::new();
        prop_assert!(table.place_fleet(Color::White, random_fleet(&mut rng)).is_ok());
        prop_assert!(table.ready(Color::White).is_ok());
        prop_assert!(table.start().is_ok());
        let mut fired = std::collections::HashSet::new();
        let hidden = random_fleet(&mut rng);
        let mut hits = 0;
        let mut white_turns = 0;
        while table.status() == Status::Ongoing {
            if table.turn() == Some(Color::White) {
                // Black's fleet is not known here: white fires only at water of a
                // hidden black fleet and reports misses (every one of them possible).
                let view = table.target_view(Color::White);
                let cell = view.open_cells().find(|&c| hidden.ship_at(c).is_none());
                let cell = cell.ok_or_else(|| TestCaseError::fail("white stuck"))?;
                prop_assert!(table.shoot_reported(Color::White, cell, ShotResult::Miss).is_ok());
                white_turns += 1;
                continue;
            }
            prop_assert!(hits < 20);
            let view = table.target_view(Color::Black);
            let cell = hunt(view, &mut rng, &Limits::depth(1)).ok_or_else(|| TestCaseError::fail("no shot"))?;
            prop_assert!(view.is_open(cell));
            prop_assert!(fired.insert(cell), "repeated {}", cell);
            let result = table.shoot(Color::Black, cell);
            prop_assert!(result.is_ok());
            if let Ok(ShotResult::Sunk(_)) = result {
                let view = table.target_view(Color::Black);
                let ship = *view.sunk().last().ok_or_else(|| TestCaseError::fail("no sunk"))?;
                for ring in ship.ring().iter() {
                    prop_assert!(matches!(view.mark(ring), Mark::Ring | Mark::Miss));
                }
            }
            if matches!(result, Ok(ShotResult::Hit | ShotResult::Sunk(_))) {
                hits += 1;
            }
            view_hides_unhit_ships(&table, Color::White);
        }
        prop_assert_eq!(hits, 20);
        prop_assert_eq!(table.status(), Status::BlackWins);
        prop_assert!(white_turns < 100);
    }

    /// Player mode never refuses the truth: shooting a random legal fleet in a
    /// random order (so hits on one ship often have gaps), every judged result passes
    /// the possibility check, and the view stays explainable (B3–B6).
    #[test]
    fn true_results_are_always_possible(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let fleet = random_fleet(&mut rng);
        let mut view = View::new();
        while !view.all_sunk() {
            let open: Vec<Cell> = view.open_cells().collect();
            let cell = *rng.choose(&open).ok_or_else(|| TestCaseError::fail("no open cell"))?;
            let result = fleet.judge(&view, cell);
            prop_assert_eq!(view.check(cell, result), Ok(()), "{} {} in {}", cell, result, fleet);
            prop_assert!(view.record(cell, result).is_ok());
        }
        prop_assert_eq!(view.hits(), 20);
    }

    /// The view never contains an unhit ship cell, in random tables.
    #[test]
    fn view_never_shows_unhit_ship(seed in any::<u64>(), steps in 0usize..150) {
        let table = random_table(seed, steps);
        view_hides_unhit_ships(&table, Color::Black);
        view_hides_unhit_ships(&table, Color::White);
    }

    /// The notation round-trips the whole table.
    #[test]
    fn notation_round_trips(seed in any::<u64>(), steps in 0usize..150) {
        let table = random_table(seed, steps);
        let text = table.to_notation();
        prop_assert!(!text.contains('\n'));
        prop_assert_eq!(Table::from_notation(&text), Ok(table));
    }

    /// Refused calls leave the table exactly as it was.
    #[test]
    fn refused_calls_change_nothing(seed in any::<u64>(), steps in 0usize..150, calls in 0u64..400) {
        let table = random_table(seed, steps);
        let mut rng = Rng::new(calls);
        for _ in 0..30 {
            let mut t = table.clone();
            let color = Color::ALL[rng.below(2) as usize];
            let cell = Cell::from_index(rng.below(100) as usize)
                .ok_or_else(|| TestCaseError::fail("cell"))?;
            let result = [ShotResult::Miss, ShotResult::Hit][rng.below(2) as usize];
            let r: Result<(), TableError> = match rng.below(10) {
                0 => t.shoot(color, cell).map(|_| ()),
                1 => t.shoot_reported(color, cell, result).map(|_| ()),
                2 => t.ready(color),
                3 => t.start().map(|_| ()),
                4 => t.offer_draw(color),
                5 => t.accept_draw(color),
                6 => t.decline_draw(color),
                7 => t.again(),
                8 => t.elapse(rng.below(100)).map(|_| ()),
                _ => t.place_fleet(color, random_fleet(&mut rng)),
            };
            if r.is_err() {
                prop_assert_eq!(&t, &table);
            }
        }
    }
}

proptest! {
    // Each claim is checked well under a millisecond (both searches), so more cases.
    #![proptest_config(ProptestConfig { cases: 64, ..config() })]

    /// Player mode (B3–B6): a claimed result — true or not — is accepted exactly when
    /// some legal fleet explains every shot so far and gives that result, as an
    /// independent exact search finds; and whatever was accepted, the result a fleet
    /// explaining the view gives for the next shot is accepted (the game can go on).
    #[test]
    fn claimed_results_accepted_iff_a_fleet_explains_them(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        // A fleet explaining the view so far: the hidden one, until a false claim
        // is accepted, then the one the search found for it.
        let mut explaining = random_fleet(&mut rng);
        let mut view = View::new();
        while !view.all_sunk() {
            let Some(cell) = next_target(&view, &mut rng) else { break };
            let truth = explaining.judge(&view, cell);
            prop_assert_eq!(view.check(cell, truth), Ok(()), "{} {} in {}", cell, truth, explaining);
            let claim = match rng.below(5) {
                0 => truth,
                1 | 2 => ShotResult::Miss,
                3 => ShotResult::Hit,
                _ => ShotResult::Sunk(ShipType::ALL[rng.below(4) as usize]),
            };
            let found = Brute::fleet(&view, Some((cell, claim)));
            let checked = view.check(cell, claim);
            prop_assert_eq!(
                checked.is_ok(),
                found.is_some(),
                "{} {} after {:?}: {:?}, fleet {:?}",
                cell,
                claim,
                view.shots(),
                checked,
                found.as_ref().map(ToString::to_string)
            );
            match found {
                Some(fleet) => {
                    prop_assert!(view.record(cell, claim).is_ok());
                    explaining = fleet;
                }
                None => prop_assert!(view.record(cell, truth).is_ok()),
            }
        }
    }
}
