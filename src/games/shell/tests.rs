//! Hand-drawn positions proving each rule and ruling of RULES.md S3–S9, named after
//! their ids. Boards are drawn as in RULES.md: a row number, then nine cells
//! (`X` black, `O` white, `E` egg, `.` empty); rows not drawn are empty.

use super::*;
use crate::games::shell::testing::cell;
use crate::games::{Color, Status};

/// A position from drawn rows; `fill` is the character of undrawn cells (`.` or `E`).
/// Eggs are `eggs` in that order, then any other `E` cell in canonical order.
fn drawn_with(rows: &[&str], fill: char, eggs: &[&str]) -> Position {
    let mut cells = [fill; 81];
    for row in rows {
        let mut tokens = row.split_whitespace();
        let number: usize = tokens
            .next()
            .and_then(|t| t.parse().ok())
            .expect("row number");
        let marks: Vec<char> = tokens.flat_map(str::chars).collect();
        assert_eq!(marks.len(), 9, "row {row:?}");
        for (col, &mark) in marks.iter().enumerate() {
            cells[(number - 1) * 9 + col] = mark;
        }
    }
    let board: String = cells
        .iter()
        .map(|&c| if c == '.' { '-' } else { c })
        .collect();
    let mut listed: Vec<String> = eggs.iter().map(|e| e.to_string()).collect();
    for (i, &c) in cells.iter().enumerate() {
        let name = Cell::ALL[i].to_string();
        if c == 'E' && !listed.contains(&name) {
            listed.push(name);
        }
    }
    let list = if listed.is_empty() {
        "-".to_string()
    } else {
        listed.join(",")
    };
    Position::from_notation(&format!("{board} {list}")).expect("drawn position")
}

fn drawn(rows: &[&str], eggs: &[&str]) -> Position {
    drawn_with(rows, '.', eggs)
}

/// Resolves a turn and returns the report line.
fn turn(position: &mut Position, black: &str, white: &str) -> String {
    let report = position
        .resolve_turn(cell(black), cell(white))
        .expect("legal turn");
    report.to_string()
}

/// Resolves a turn through both entry points (which share one core) and checks they
/// agree on the position and the status.
fn turn_checked(position: &mut Position, black: &str, white: &str) -> String {
    let mut quiet = *position;
    let status = quiet.resolve_turn_quiet(cell(black), cell(white));
    let line = turn(position, black, white);
    assert_eq!(status, Ok(position.status()));
    assert_eq!(quiet, *position);
    line
}

#[test]
fn s3_both_turtles_land_on_different_cells() {
    let mut p = Position::new();
    assert_eq!(turn_checked(&mut p, "e5", "d4"), "placed status ongoing");
    assert_eq!(p.cell(cell("e5")), Stone::Black);
    assert_eq!(p.cell(cell("d4")), Stone::White);
    assert_eq!(p.empty_cells().len(), 79);
}

#[test]
fn s3_picks_must_be_empty_and_errors_change_nothing() {
    let mut p = drawn(&["1 X O E . . . . . ."], &[]);
    let before = p;
    assert_eq!(
        p.resolve_turn(cell("a1"), cell("e5")),
        Err(TurnError::Occupied {
            color: Color::Black,
            cell: cell("a1"),
            holds: Stone::Black
        })
    );
    assert_eq!(
        p.resolve_turn(cell("e5"), cell("c1")),
        Err(TurnError::Occupied {
            color: Color::White,
            cell: cell("c1"),
            holds: Stone::Egg
        })
    );
    let err = p.resolve_turn(cell("b1"), cell("b1"));
    assert_eq!(
        err.map_err(|e| e.to_string()),
        Err("black's pick b1 is not empty: it holds a white turtle".to_string())
    );
    assert_eq!(p, before);
    let mut won = drawn(&["1 X X X X X . . . ."], &[]);
    let before = won;
    assert_eq!(
        won.resolve_turn_quiet(cell("e5"), cell("d5")),
        Err(TurnError::GameOver(Status::BlackWins))
    );
    assert_eq!(won, before);
}

#[test]
fn s4_collision_makes_egg_no_capture() {
    // Black on c5 alone would capture d5, e5; both picking it makes an egg instead.
    let mut p = drawn(&["5 . . . O O X . . .", "9 . . . . . . . . E"], &["i9"]);
    assert_eq!(
        turn_checked(&mut p, "c5", "c5"),
        "collision c5 status ongoing"
    );
    assert_eq!(p.cell(cell("c5")), Stone::Egg);
    assert_eq!(p.cell(cell("d5")), Stone::White);
    assert_eq!(p.eggs(), &[cell("i9"), cell("c5")]);
}

#[test]
fn s4_egg_queue_keeps_creation_order_across_collisions() {
    let mut p = Position::new();
    for pick in ["e5", "a1", "i9", "c3"] {
        assert_eq!(
            turn_checked(&mut p, pick, pick),
            format!("collision {pick} status ongoing")
        );
    }
    assert_eq!(p.eggs(), &[cell("e5"), cell("a1"), cell("i9"), cell("c3")]);
    assert!(p.to_notation().ends_with(" e5,a1,i9,c3"));
}

#[test]
fn s5_two_opponent_turtles_are_captured() {
    let mut p = drawn(&["1 . O O X . . . . ."], &[]);
    assert_eq!(
        turn_checked(&mut p, "a1", "i9"),
        "step 1 captures 1 0 captured_white b1 c1 status ongoing"
    );
    assert_eq!(
        p,
        drawn(&["1 X . . X . . . . .", "9 . . . . . . . . O"], &[])
    );
}

#[test]
fn s5_two_eggs_are_captured_and_the_claim_finds_no_egg() {
    let mut p = drawn(&["1 . E E X . . . . ."], &["c1", "b1"]);
    assert_eq!(
        turn_checked(&mut p, "a1", "i9"),
        "step 1 captures 1 0 captured_egg b1 c1 status ongoing"
    );
    assert!(p.eggs().is_empty());
}

#[test]
fn s5_mixed_turtle_and_egg_are_captured_and_the_claim_skips_the_captured_egg() {
    // The captured egg c1 was the oldest; the claim takes the next one, i9.
    let mut p = drawn(
        &["1 . O E X . . . . .", "9 . . . . . . . . E"],
        &["c1", "i9"],
    );
    assert_eq!(
        turn_checked(&mut p, "a1", "e5"),
        "step 1 captures 1 0 captured_white b1 captured_egg c1 hatched_black i9 status ongoing"
    );
    assert_eq!(p.cell(cell("i9")), Stone::Black);
    assert!(p.eggs().is_empty());
}

#[test]
fn s5_one_or_three_flanked_stones_do_not_capture() {
    let mut p = drawn(&["1 . O X . . . . . .", "3 . O O O X . . . ."], &[]);
    assert_eq!(turn_checked(&mut p, "a1", "i9"), "placed status ongoing");
    assert_eq!(turn_checked(&mut p, "a3", "i8"), "placed status ongoing");
    assert_eq!(p.turtles(Color::White).len(), 6);
    assert_eq!(p.turtles(Color::Black).len(), 4);
}

#[test]
fn s5_flank_must_end_on_own_turtle_on_the_board() {
    // An egg at the end, an empty cell, the board's edge, and no wrap from i1 to a2.
    let mut p = drawn(
        &[
            "1 . O O E . . . O O",
            "2 X . . . . . . . .",
            "3 . O O . X . . . .",
        ],
        &[],
    );
    let before = p;
    assert_eq!(turn_checked(&mut p, "a1", "e9"), "placed status ongoing");
    let mut q = before;
    assert_eq!(turn_checked(&mut q, "a3", "e9"), "placed status ongoing");
    // g1: h1 and i1 are white, then the edge; i1's neighbour in index order is a2
    // (a black turtle), which must not close the flank.
    let mut r = before;
    assert_eq!(turn_checked(&mut r, "g1", "e9"), "placed status ongoing");
}

#[test]
fn s5_each_matching_direction_is_a_capture_and_claims_an_egg() {
    // e5 closes three flanks: east, south and north-west; three eggs hatch black,
    // oldest first, the fourth stays.
    let mut p = drawn(
        &[
            "2 . X . . . . . . .",
            "3 . . O . . . . . .",
            "4 . . . O . . . . .",
            "5 . . . . . O O X .",
            "6 . . . . O . . . .",
            "7 . . . . E . . . .",
            "8 . . . . X . . . .",
            "9 E . E . . . E . E",
        ],
        &["e7", "g9", "a9", "i9", "c9"],
    );
    // The oldest egg e7 is captured with e6; the claims take g9, a9, i9.
    assert_eq!(
        turn_checked(&mut p, "e5", "i1"),
        "step 1 captures 3 0 captured_white c3 d4 f5 g5 e6 captured_egg e7 \
         hatched_black a9 g9 i9 status ongoing"
    );
    assert_eq!(p.eggs(), &[cell("c9")]);
    assert_eq!(p.cell(cell("i1")), Stone::White);
}

#[test]
fn s6_placing_into_an_enemy_flank_is_safe() {
    let mut p = drawn(&["1 X O . X . . . . .", "9 . . . . . . . . E"], &["i9"]);
    assert_eq!(turn_checked(&mut p, "e5", "c1"), "placed status ongoing");
    assert_eq!(p.cell(cell("b1")), Stone::White);
    assert_eq!(p.cell(cell("c1")), Stone::White);
    assert_eq!(p.eggs(), &[cell("i9")]);
}

#[test]
fn s7_anticipatory_capture_of_the_opponents_new_turtle() {
    let mut p = drawn(&["1 . O . X . . . . ."], &[]);
    assert_eq!(
        turn_checked(&mut p, "a1", "c1"),
        "step 1 captures 1 0 captured_white b1 c1 status ongoing"
    );
    assert_eq!(p, drawn(&["1 X . . X . . . . ."], &[]));
}

#[test]
fn s7_worked_example_a_mutual_capture_captured_turtle_still_captures() {
    let mut p = drawn(
        &[
            "3  . . . . . . . . .",
            "4  . . X . . . . . .",
            "5  . . . O O X . . .",
            "6  . . O . . . . . .",
            "9  . . . . E . . . E",
        ],
        &["e9", "i9"],
    );
    assert_eq!(
        turn_checked(&mut p, "c5", "c3"),
        "step 1 captures 1 1 captured_black c4 c5 captured_white d5 e5 vanished e9 \
         status ongoing"
    );
    let after = drawn(
        &[
            "3  . . O . . . . . .",
            "4  . . . . . . . . .",
            "5  . . . . . X . . .",
            "6  . . O . . . . . .",
            "9  . . . . . . . . E",
        ],
        &["i9"],
    );
    assert_eq!(p, after);
}

#[test]
fn s8_oldest_egg_hatches_first() {
    let mut p = drawn(
        &["1 . O O X . . . . .", "9 E . . . . . . . E"],
        &["i9", "a9"],
    );
    assert_eq!(
        turn_checked(&mut p, "a1", "e5"),
        "step 1 captures 1 0 captured_white b1 c1 hatched_black i9 status ongoing"
    );
    assert_eq!(p.eggs(), &[cell("a9")]);
}

#[test]
fn s8_ruling_equal_captures_vanish_the_oldest_eggs() {
    // b = w = 2: the two oldest eggs vanish for nobody, the third stays.
    let mut p = drawn(
        &[
            "3 . X X O . . . . .",
            "4 X . . . . . . . .",
            "5 X X O O . O O X .",
            "6 O . . . . . . . .",
            "9 . . E . . . E . E",
        ],
        &["g9", "i9", "c9"],
    );
    assert_eq!(
        turn_checked(&mut p, "e5", "a3"),
        "step 1 captures 2 2 captured_black b3 c3 a4 a5 captured_white c5 d5 f5 g5 \
         vanished g9 i9 status ongoing"
    );
    assert_eq!(p.eggs(), &[cell("c9")]);
}

#[test]
fn s8_worked_example_c_two_captures_against_one() {
    let mut p = drawn(
        &[
            "1  . X X O . . . . E",
            "5  . . . . . O O X .",
            "6  . . . . O . . . .",
            "7  . . . . E . . . .",
            "8  . . . . X . . . .",
            "9  E . . . . . . . E",
        ],
        &["a9", "e7", "i9", "i1"],
    );
    assert_eq!(
        turn_checked(&mut p, "e5", "a1"),
        "step 1 captures 2 1 captured_black b1 c1 captured_white f5 g5 e6 captured_egg e7 \
         hatched_black i9 vanished a9 status ongoing"
    );
    let after = drawn(
        &[
            "1  O . . O . . . . E",
            "5  . . . . X . . X .",
            "6  . . . . . . . . .",
            "7  . . . . . . . . .",
            "8  . . . . X . . . .",
            "9  . . . . . . . . X",
        ],
        &["i1"],
    );
    assert_eq!(p, after);
}

#[test]
fn s8_no_egg_hatches_nothing_and_claims_are_not_saved() {
    let mut p = drawn(&["1 . O O X . . . . ."], &[]);
    assert_eq!(
        turn_checked(&mut p, "a1", "i5"),
        "step 1 captures 1 0 captured_white b1 c1 status ongoing"
    );
    // A later egg is not claimed by that old capture.
    assert_eq!(
        turn_checked(&mut p, "i9", "i9"),
        "collision i9 status ongoing"
    );
    assert_eq!(turn_checked(&mut p, "e5", "a9"), "placed status ongoing");
    assert_eq!(p.eggs(), &[cell("i9")]);
}

#[test]
fn s8_worked_example_b_hatching_chain_of_three_steps() {
    let mut p = drawn(
        &[
            "1  . O O X . . . . .",
            "5  . . . . . . . . .",
            "7  . . . X O O E . .",
            "9  E . . . . . . . .",
        ],
        &["g7", "a9"],
    );
    assert_eq!(
        turn_checked(&mut p, "a1", "i5"),
        "step 1 captures 1 0 captured_white b1 c1 hatched_black g7 ; \
         step 2 captures 1 0 captured_white e7 f7 hatched_black a9 status ongoing"
    );
    let after = drawn(
        &[
            "1  X . . X . . . . .",
            "5  . . . . . . . . O",
            "7  . . . X . . X . .",
            "9  X . . . . . . . .",
        ],
        &[],
    );
    assert_eq!(p, after);
}

#[test]
fn s8_ruling_hatched_turtles_capture_even_without_eggs() {
    // Step 1 hatches g7; step 2's capture by g7 has no egg to claim but still removes.
    let mut p = drawn(&["1 . O O X . . . . .", "7 . . . X O O E . ."], &["g7"]);
    assert_eq!(
        turn_checked(&mut p, "a1", "i5"),
        "step 1 captures 1 0 captured_white b1 c1 hatched_black g7 ; \
         step 2 captures 1 0 captured_white e7 f7 status ongoing"
    );
}

#[test]
fn s5_ruling_flank_closed_by_two_hatched_turtles_counts_once() {
    // Step 1: e3 captures twice, a9 and d9 hatch black. Step 2: a9 and d9 close the
    // same flank b9 c9 from both ends: one capture, so only i5 hatches; a5 stays.
    let mut p = drawn(
        &[
            "3 . X O O . O O X .",
            "5 E . . . . . . . E",
            "9 E O O E . . . . .",
        ],
        &["a9", "d9", "i5", "a5"],
    );
    assert_eq!(
        turn_checked(&mut p, "e3", "i1"),
        "step 1 captures 2 0 captured_white c3 d3 f3 g3 hatched_black a9 d9 ; \
         step 2 captures 1 0 captured_white b9 c9 hatched_black i5 status ongoing"
    );
    assert_eq!(p.eggs(), &[cell("a5")]);
}

#[test]
fn s9_one_line_wins_at_once() {
    let mut p = drawn(&["1 X X X X . . . . ."], &[]);
    assert_eq!(turn_checked(&mut p, "e1", "e5"), "placed status black_wins");
    assert_eq!(p.winning_turtles(Color::Black), 5);
    assert_eq!(
        p.resolve_turn(cell("a5"), cell("b5")),
        Err(TurnError::GameOver(Status::BlackWins))
    );
}

#[test]
fn s9_a_five_that_forms_and_breaks_in_one_turn_does_not_count() {
    // Black completes a5..e5 with e5; white's e3 captures e4 and the new e5 (S7).
    let mut p = drawn(
        &[
            "4 . . . . X . . . .",
            "5 X X X X . . . . .",
            "6 . . . . O . . . .",
        ],
        &[],
    );
    assert_eq!(
        turn_checked(&mut p, "e5", "e3"),
        "step 1 captures 0 1 captured_black e4 e5 status ongoing"
    );
    assert_eq!(p.winning_turtles(Color::Black), 0);
}

#[test]
fn s9_six_beats_five() {
    let mut p = drawn(&["1 X X X X . X . . .", "9 O O O O . . . . ."], &[]);
    assert_eq!(turn_checked(&mut p, "e1", "e9"), "placed status black_wins");
    assert_eq!(p.winning_turtles(Color::Black), 6);
    assert_eq!(p.winning_turtles(Color::White), 5);
}

#[test]
fn s9_crossing_fives_count_nine() {
    let mut p = drawn(
        &[
            "3 . . X . . . . . .",
            "4 . . X . . . . . .",
            "5 X X . X X . . . .",
            "6 . . X . . . . . .",
            "7 . . X . . . . . .",
            "9 O O O O . O O . .",
        ],
        &[],
    );
    assert_eq!(turn_checked(&mut p, "c5", "e9"), "placed status black_wins");
    assert_eq!(p.winning_turtles(Color::Black), 9);
    assert_eq!(p.winning_turtles(Color::White), 7);
}

/// Both sides one move from five; a second black four on row 9, a white c6 and a black
/// c8 to break white's line, a black b3 and a white b1 to break black's.
const DUEL: [&str; 6] = [
    "1 . O . . . . . . .",
    "2 X X X X . . . . .",
    "3 . X . . . . . . .",
    "6 . . O . . . . . .",
    "7 . O O O O . . . .",
    "8 . . X . . . . . .",
];

fn sudden_death() -> Position {
    let mut rows = DUEL.to_vec();
    rows.push("9 X X X X . . . . .");
    let mut p = drawn(&rows, &[]);
    assert_eq!(
        turn_checked(&mut p, "e2", "f7"),
        "placed status sudden_death"
    );
    assert_eq!(p.winning_turtles(Color::Black), 5);
    assert_eq!(p.winning_turtles(Color::White), 5);
    p
}

#[test]
fn s9_equal_counts_mean_sudden_death_and_play_goes_on() {
    let mut p = sudden_death();
    assert_eq!(
        turn_checked(&mut p, "i5", "h5"),
        "placed status sudden_death"
    );
}

#[test]
fn s9_sudden_death_resolved_by_extending() {
    let mut p = sudden_death();
    assert_eq!(turn_checked(&mut p, "f2", "i5"), "placed status black_wins");
}

#[test]
fn s9_sudden_death_resolved_by_a_second_line() {
    let mut p = sudden_death();
    assert_eq!(turn_checked(&mut p, "e9", "i5"), "placed status black_wins");
    assert_eq!(p.winning_turtles(Color::Black), 10);
}

#[test]
fn s9_sudden_death_resolved_by_breaking_the_other_line() {
    let mut p = sudden_death();
    assert_eq!(
        turn_checked(&mut p, "c5", "i5"),
        "step 1 captures 1 0 captured_white c6 c7 status black_wins"
    );
}

#[test]
fn s9_both_lines_broken_return_to_normal_play() {
    let mut rows = DUEL.to_vec();
    rows.push("9 . . . . . . . . .");
    let mut p = drawn(&rows, &[]);
    assert_eq!(
        turn_checked(&mut p, "e2", "f7"),
        "placed status sudden_death"
    );
    assert_eq!(
        turn_checked(&mut p, "c5", "b4"),
        "step 1 captures 1 1 captured_black b2 b3 captured_white c6 c7 status ongoing"
    );
    // And sudden death may come again: both rebuild.
    assert_eq!(
        turn_checked(&mut p, "b2", "c7"),
        "placed status sudden_death"
    );
}

#[test]
fn s9_ruling_full_board_without_a_win_is_a_draw() {
    let mut p = drawn_with(&["5 . E E E E E E E ."], 'E', &[]);
    assert_eq!(turn_checked(&mut p, "a5", "i5"), "placed status draw");
    assert!(p.is_full());
    assert_eq!(
        p.resolve_turn(cell("a5"), cell("a5")),
        Err(TurnError::GameOver(Status::Draw))
    );
}

#[test]
fn s9_one_empty_cell_is_a_forced_collision_and_fills_the_board() {
    let mut p = drawn_with(&["5 . E E E E E E E E"], 'E', &[]);
    assert_eq!(p.empty_cells().iter().collect::<Vec<_>>(), [cell("a5")]);
    assert_eq!(turn_checked(&mut p, "a5", "a5"), "collision a5 status draw");
    assert_eq!(p.eggs().last(), Some(&cell("a5")));
}

#[test]
fn s9_ruling_full_board_in_sudden_death_is_a_draw() {
    let mut p = drawn_with(
        &[
            "1 X X X X X E E E E",
            "5 . E E E E E E E E",
            "9 O O O O O E E E E",
        ],
        'E',
        &[],
    );
    assert_eq!(p.status(), Status::SuddenDeath);
    assert_eq!(turn_checked(&mut p, "a5", "a5"), "collision a5 status draw");
}

#[test]
fn s10_report_and_notation_after_example_a() {
    let mut p = drawn(
        &["5 . . . O O X . . .", "9 . . . . E . . . E"],
        &["e9", "i9"],
    );
    let report = p.resolve_turn(cell("c5"), cell("i1")).expect("legal");
    assert_eq!(report.collision(), None);
    let step = report.steps().first().copied().unwrap_or_default();
    assert_eq!(step.captures(Color::Black), 1);
    assert_eq!(
        step.captured(Stone::White).iter().collect::<Vec<_>>(),
        [cell("d5"), cell("e5")]
    );
    assert_eq!(
        step.hatched(Color::Black).iter().collect::<Vec<_>>(),
        [cell("e9")]
    );
    assert_eq!(report.status(), Status::Ongoing);
}

#[test]
fn picture_shows_egg_ages_and_status() {
    let p = drawn(
        &["1 X O . . . . . . .", "9 E . . . . . . . E"],
        &["i9", "a9"],
    );
    let expected = [
        "     a  b  c  d  e  f  g  h  i",
        " 1   X  O  .  .  .  .  .  .  .",
        " 2   .  .  .  .  .  .  .  .  .",
        " 3   .  .  .  .  .  .  .  .  .",
        " 4   .  .  .  .  .  .  .  .  .",
        " 5   .  .  .  .  .  .  .  .  .",
        " 6   .  .  .  .  .  .  .  .  .",
        " 7   .  .  .  .  .  .  .  .  .",
        " 8   .  .  .  .  .  .  .  .  .",
        " 9   2  .  .  .  .  .  .  .  1",
        "eggs oldest first: 1=i9 2=a9",
        "status ongoing (winning turtles: black 0, white 0)",
    ];
    assert_eq!(p.picture(), expected.join("\n"));
}
