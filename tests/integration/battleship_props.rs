//! Property tests of the Battleship rules (RULES.md B2–B8) and players: random fleets
//! are legal, rings are marked, hunter games end at 20 hits without repeats, views hide
//! unhit ships, the table notation round-trips, refused calls change nothing.

use proptest::prelude::*;
use tabula::ai::Limits;
use tabula::ai::battleship::{hunt, parity_hunt, random_fleet};
use tabula::games::battleship::{Cell, Fleet, Mark, ShotResult, Table, TableError, View};
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
        let mut hits = 0;
        let mut white_turns = 0;
        while table.status() == Status::Ongoing {
            if table.turn() == Some(Color::White) {
                // White has no fleet to shoot at known here: it reports misses.
                let cell = parity_hunt(table.target_view(Color::White), &mut rng);
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
