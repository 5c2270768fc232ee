//! Property tests of the What the Shell rules (RULES.md S1–S10) over random games:
//! the eight board symmetries and the colour swap commute with `resolve_turn`, the
//! egg queue always matches the `E` cells, notation round-trips, refused turns change
//! nothing, and the simple player only picks empty cells.
//!
//! Games are played from random seeds with legal random picks (a collision now and
//! then, so eggs appear, and the simple player part of the time, so captures happen).

use proptest::prelude::*;
use tabula::ai::shell::greedy::pick;
use tabula::games::shell::{Cell, Position, Stone};
use tabula::games::{Color, Status};
use tabula::rng::Rng;

/// One of the 8 symmetries of the square: optional transpose, then optional mirrors.
fn map_cell(sym: u8, cell: Cell) -> Cell {
    let (mut col, mut row) = (cell.col(), cell.row());
    if sym & 4 != 0 {
        std::mem::swap(&mut col, &mut row);
    }
    if sym & 1 != 0 {
        col = 8 - col;
    }
    if sym & 2 != 0 {
        row = 8 - row;
    }
    Cell::new(col, row).unwrap_or(cell)
}

/// Rebuilds `position` cell by cell through `cell_map` and `stone_map`, keeping the
/// egg order, via the notation (so the status is recomputed from the board).
fn remap(
    position: &Position,
    cell_map: impl Fn(Cell) -> Cell,
    stone_map: impl Fn(Stone) -> Stone,
) -> Position {
    let mut board = ['-'; 81];
    for cell in Cell::ALL {
        board[cell_map(cell).index()] = stone_map(position.cell(cell)).symbol();
    }
    let eggs: Vec<String> = position
        .eggs()
        .iter()
        .map(|&c| cell_map(c).to_string())
        .collect();
    let list = if eggs.is_empty() {
        "-".to_string()
    } else {
        eggs.join(",")
    };
    let text = format!("{} {list}", board.iter().collect::<String>());
    Position::from_notation(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn swap_stone(stone: Stone) -> Stone {
    match stone {
        Stone::Black => Stone::White,
        Stone::White => Stone::Black,
        other => other,
    }
}

fn swap_status(status: Status) -> Status {
    match status {
        Status::BlackWins => Status::WhiteWins,
        Status::WhiteWins => Status::BlackWins,
        other => other,
    }
}

/// A legal random turn: a collision with probability 1/4, else two distinct cells,
/// each from the simple player half the time.
fn random_picks(position: &Position, rng: &mut Rng) -> Option<(Cell, Cell)> {
    let empty: Vec<Cell> = position.empty_cells().iter().collect();
    let black = if rng.below(2) == 0 {
        pick(position, Color::Black, rng)?
    } else {
        *rng.choose(&empty)?
    };
    if empty.len() == 1 || rng.below(4) == 0 {
        return Some((black, black));
    }
    let others: Vec<Cell> = empty.iter().copied().filter(|&c| c != black).collect();
    let white = match pick(position, Color::White, rng) {
        Some(c) if c != black && rng.below(2) == 0 => c,
        _ => *rng.choose(&others)?,
    };
    Some((black, white))
}

/// The positions (and the picks made from each) of a random game of `turns` turns.
fn random_game(seed: u64, turns: usize) -> Vec<(Position, Cell, Cell)> {
    let mut rng = Rng::new(seed);
    let mut position = Position::new();
    let mut history = Vec::new();
    for _ in 0..turns {
        if position.status().is_over() {
            break;
        }
        let Some((black, white)) = random_picks(&position, &mut rng) else {
            break;
        };
        history.push((position, black, white));
        if position.resolve_turn(black, white).is_err() {
            break;
        }
    }
    history
}

/// A random crowded board (about 1/3 empty, eggs in random order) and random legal
/// picks from it: denser than games, so chains, vanishing and sudden death are common.
fn random_board(seed: u64) -> Option<(Position, Cell, Cell)> {
    let mut rng = Rng::new(seed);
    let mut board = ['-'; 81];
    let mut eggs: Vec<Cell> = Vec::new();
    for cell in Cell::ALL {
        board[cell.index()] = match rng.below(12) {
            0..=3 => '-',
            4..=6 => 'X',
            7..=9 => 'O',
            _ => {
                eggs.push(cell);
                'E'
            }
        };
    }
    for i in (1..eggs.len()).rev() {
        eggs.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let list: Vec<String> = eggs.iter().map(Cell::to_string).collect();
    let list = if list.is_empty() {
        "-".to_string()
    } else {
        list.join(",")
    };
    let position =
        Position::from_notation(&format!("{} {list}", board.iter().collect::<String>())).ok()?;
    if position.status().is_over() {
        return None;
    }
    let (black, white) = random_picks(&position, &mut rng)?;
    Some((position, black, white))
}

/// Positions and picks to check a property on: a random game and 16 random boards.
fn samples(seed: u64, turns: usize) -> Vec<(Position, Cell, Cell)> {
    let mut all = random_game(seed, turns);
    all.extend((0..16).filter_map(|i| random_board(seed.wrapping_mul(31).wrapping_add(i))));
    all
}

/// A slow, plain reading of S4–S9 over an array board, written independently of the
/// library's bitboards, as an oracle: the board, the egg queue and the status after
/// the turn. A flank is identified by its colour and its two end cells, so one closed
/// from both ends is one capture (S5 RULING).
fn oracle_turn(position: &Position, black: Cell, white: Cell) -> (Vec<Stone>, Vec<Cell>, Status) {
    let mut board: Vec<Stone> = Cell::ALL.iter().map(|&c| position.cell(c)).collect();
    let mut eggs: Vec<Cell> = position.eggs().to_vec();
    let at = |col: i32, row: i32| -> Option<usize> {
        ((0..9).contains(&col) && (0..9).contains(&row)).then(|| (row * 9 + col) as usize)
    };
    if black == white {
        board[black.index()] = Stone::Egg;
        eggs.push(black);
    } else {
        board[black.index()] = Stone::Black;
        board[white.index()] = Stone::White;
        let mut new: Vec<(usize, Stone)> =
            vec![(black.index(), Stone::Black), (white.index(), Stone::White)];
        while !new.is_empty() {
            let mut flanks: Vec<(Stone, usize, usize, [usize; 2])> = Vec::new();
            for &(n, colour) in &new {
                let (col, row) = ((n % 9) as i32, (n / 9) as i32);
                for (dc, dr) in [
                    (1, 0),
                    (-1, 0),
                    (0, 1),
                    (0, -1),
                    (1, 1),
                    (-1, -1),
                    (1, -1),
                    (-1, 1),
                ] {
                    let ray: Vec<Option<usize>> =
                        (1..=3).map(|k| at(col + k * dc, row + k * dr)).collect();
                    let (Some(a), Some(b), Some(end)) = (ray[0], ray[1], ray[2]) else {
                        continue;
                    };
                    let foreign = |s: Stone| s != Stone::Empty && s != colour;
                    if foreign(board[a]) && foreign(board[b]) && board[end] == colour {
                        let key = (colour, n.min(end), n.max(end), [a.min(b), a.max(b)]);
                        if !flanks.contains(&key) {
                            flanks.push(key);
                        }
                    }
                }
            }
            if flanks.is_empty() {
                break;
            }
            let b = flanks.iter().filter(|f| f.0 == Stone::Black).count();
            let w = flanks.len() - b;
            for f in &flanks {
                for &i in &f.3 {
                    board[i] = Stone::Empty;
                }
            }
            eggs.retain(|e| board[e.index()] == Stone::Egg);
            let vanish = b.min(w).min(eggs.len());
            for gone in eggs.drain(..vanish) {
                board[gone.index()] = Stone::Empty;
            }
            let hatch = b.abs_diff(w).min(eggs.len());
            let colour = if b > w { Stone::Black } else { Stone::White };
            new = eggs.drain(..hatch).map(|e| (e.index(), colour)).collect();
            for &(i, c) in &new {
                board[i] = c;
            }
        }
    }
    let count = |colour: Stone| -> usize {
        let mut lined = [false; 81];
        for start in 0..81i32 {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
                let cells: Vec<Option<usize>> = (0..5)
                    .map(|k| at(start % 9 + k * dc, start / 9 + k * dr))
                    .collect();
                if cells.iter().all(|c| c.is_some_and(|i| board[i] == colour)) {
                    for i in cells.into_iter().flatten() {
                        lined[i] = true;
                    }
                }
            }
        }
        lined.iter().filter(|&&l| l).count()
    };
    let (b, w) = (count(Stone::Black), count(Stone::White));
    let full = board.iter().all(|&s| s != Stone::Empty);
    let status = if b > w {
        Status::BlackWins
    } else if w > b {
        Status::WhiteWins
    } else if full {
        Status::Draw
    } else if b > 0 {
        Status::SuddenDeath
    } else {
        Status::Ongoing
    };
    (board, eggs, status)
}

fn egg_list_matches_cells(position: &Position) -> bool {
    let eggs = position.eggs();
    let listed: u128 = eggs.iter().fold(0, |m, c| m | (1u128 << c.index()));
    listed.count_ones() as usize == eggs.len() && listed == position.egg_cells().bits()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn symmetries_commute_with_resolve_turn(seed in any::<u64>(), sym in 0u8..8) {
        for (before, black, white) in samples(seed, 80) {
            let mut after = before;
            let report = after.resolve_turn(black, white);
            prop_assert!(report.is_ok());
            let mut mapped = remap(&before, |c| map_cell(sym, c), |s| s);
            let mapped_report =
                mapped.resolve_turn(map_cell(sym, black), map_cell(sym, white));
            prop_assert_eq!(
                mapped_report.as_ref().map(|r| r.status()).ok(),
                report.as_ref().map(|r| r.status()).ok()
            );
            prop_assert_eq!(mapped, remap(&after, |c| map_cell(sym, c), |s| s));
        }
    }

    #[test]
    fn resolve_turn_agrees_with_a_plain_oracle(seed in any::<u64>()) {
        for (before, black, white) in samples(seed, 80) {
            let (board, eggs, status) = oracle_turn(&before, black, white);
            let mut after = before;
            prop_assert_eq!(after.resolve_turn_quiet(black, white), Ok(status));
            let cells: Vec<Stone> = Cell::ALL.iter().map(|&c| after.cell(c)).collect();
            prop_assert_eq!(cells, board);
            prop_assert_eq!(after.eggs(), &eggs[..]);
        }
    }

    #[test]
    fn colour_swap_commutes_with_resolve_turn(seed in any::<u64>()) {
        for (before, black, white) in samples(seed, 80) {
            let mut after = before;
            let status = after.resolve_turn_quiet(black, white);
            let mut swapped = remap(&before, |c| c, swap_stone);
            prop_assert_eq!(swapped.status(), swap_status(before.status()));
            let swapped_status = swapped.resolve_turn_quiet(white, black);
            prop_assert_eq!(swapped_status, status.map(swap_status));
            prop_assert_eq!(swapped, remap(&after, |c| c, swap_stone));
        }
    }

    #[test]
    fn eggs_match_cells_and_notation_round_trips(seed in any::<u64>()) {
        for (position, black, white) in samples(seed, 90) {
            prop_assert!(egg_list_matches_cells(&position));
            prop_assert_eq!(Position::from_notation(&position.to_notation()), Ok(position));
            prop_assert_eq!(position.status(), position.status_from_board());
            let mut after = position;
            let report = after.resolve_turn(black, white);
            prop_assert!(egg_list_matches_cells(&after));
            prop_assert_eq!(Position::from_notation(&after.to_notation()), Ok(after));
            // The report's line is one line and ends with the status.
            let line = report.map(|r| r.to_string()).unwrap_or_default();
            prop_assert!(!line.contains('\n'));
            let expected_end = format!("status {}", after.status().name());
            prop_assert!(line.ends_with(&expected_end));
        }
    }

    #[test]
    fn refused_turns_change_nothing(seed in any::<u64>(), a in 0usize..81, b in 0usize..81) {
        let (Some(a), Some(b)) = (Cell::from_index(a), Cell::from_index(b)) else {
            return Ok(());
        };
        for (position, _, _) in random_game(seed, 60) {
            let mut tried = position;
            if tried.resolve_turn(a, b).is_err() {
                prop_assert_eq!(tried, position);
                prop_assert!(
                    position.status().is_over() || !position.is_empty(a) || !position.is_empty(b)
                );
            } else {
                prop_assert!(position.is_empty(a) && position.is_empty(b));
            }
        }
    }

    #[test]
    fn simple_player_picks_an_empty_cell(seed in any::<u64>()) {
        let mut rng = Rng::new(seed ^ 0x5eed);
        for (position, _, _) in random_game(seed, 90) {
            for color in Color::ALL {
                match pick(&position, color, &mut rng) {
                    Some(cell) => prop_assert!(position.is_empty(cell)),
                    None => prop_assert!(
                        position.status().is_over() || position.empty_cells().is_empty()
                    ),
                }
            }
        }
    }

    #[test]
    fn cell_parsing_never_panics(text in any::<String>()) {
        if let Some(cell) = Cell::parse(&text) {
            prop_assert_eq!(cell.to_string(), text.to_ascii_lowercase());
        }
        let _ = Position::from_notation(&text);
    }
}

/// Playout speed, for the record (not a pass/fail test): run with
/// `cargo test --release --test shell_props -- --ignored --nocapture`.
#[test]
#[ignore]
fn playout_speed() {
    let mut rng = Rng::new(1);
    let start = std::time::Instant::now();
    let mut turns = 0u64;
    let mut games = 0u64;
    let mut empty = [Cell::ALL[0]; 81];
    while start.elapsed().as_secs_f64() < 2.0 {
        let mut position = Position::new();
        games += 1;
        while !position.status().is_over() {
            let mut n = 0;
            for cell in position.empty_cells() {
                empty[n] = cell;
                n += 1;
            }
            let black = empty[rng.below(n as u64) as usize];
            let white = empty[rng.below(n as u64) as usize];
            if position.resolve_turn_quiet(black, white).is_err() {
                break;
            }
            turns += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} playouts, {turns} turns in {secs:.2}s: {:.0} turns/s",
        turns as f64 / secs
    );
}

/// The random games above are worth testing on: across a few seeds they collide,
/// capture, hatch, vanish eggs, chain steps, reach sudden death and end (fixed seeds).
#[test]
fn random_games_exercise_the_rules() {
    let (mut collisions, mut captures, mut hatches, mut vanishes, mut chains) = (0, 0, 0, 0, 0);
    let (mut sudden, mut ended) = (0, 0);
    for seed in 0..40 {
        for (before, black, white) in samples(seed, 200) {
            let mut after = before;
            let Ok(report) = after.resolve_turn(black, white) else {
                continue;
            };
            collisions += usize::from(report.collision().is_some());
            let steps = report.steps();
            chains += usize::from(steps.len() > 1);
            for step in steps {
                captures += (step.captures(Color::Black) + step.captures(Color::White)) as usize;
                hatches +=
                    (step.hatched(Color::Black).len() + step.hatched(Color::White).len()) as usize;
                vanishes += step.vanished().len() as usize;
            }
            sudden += usize::from(after.status() == Status::SuddenDeath);
            ended += usize::from(after.status().is_over());
        }
    }
    println!(
        "collisions {collisions} captures {captures} hatches {hatches} vanishes {vanishes} \
         chains {chains} sudden {sudden} ended {ended}"
    );
    assert!(collisions > 0 && captures > 0 && hatches > 0 && vanishes > 0);
    assert!(chains > 0 && sudden > 0 && ended > 0);
}
