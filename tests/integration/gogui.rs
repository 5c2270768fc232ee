//! GoGui's referee queries and analyses for Othello, checked against the rules
//! library on a few positions, in the engine's rows and in GoGui's.

use tabula::games::Color;
use tabula::games::othello::{Move, Position};

use crate::common::Engine;
use crate::othello::legal_text;

/// GoGui's board text for `position`: top line first. `mirrored`: GoGui's rows
/// (the engine's row 1 on top), else the engine's (row 8 on top).
fn expected_board(position: &Position, mirrored: bool) -> String {
    let notation = position.to_notation();
    let cells: Vec<char> = notation.chars().take(64).collect();
    let mut rows: Vec<String> = cells
        .chunks(8)
        .map(|row| {
            row.iter()
                .map(|c| {
                    if *c == '-' {
                        ".".to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    if !mirrored {
        rows.reverse();
    }
    rows.join("\n")
}

/// A square's name in GoGui's rows.
fn mirrored(mv: Move) -> String {
    match mv {
        Move::Pass => "pass".into(),
        Move::Place(square) => {
            let text = square.to_string();
            let row = 9 - text[1..].parse::<u32>().expect("a row");
            format!("{}{row}", &text[..1])
        }
    }
}

fn expected_moves(position: &Position, mirror: bool) -> String {
    if position.is_over() {
        return String::new();
    }
    position
        .legal_moves()
        .into_iter()
        .map(|mv| match mv {
            Move::Pass => "pass".to_string(),
            Move::Place(_) if mirror => mirrored(mv).to_ascii_uppercase(),
            Move::Place(_) => mv.to_string().to_ascii_uppercase(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks every rules query on `notation` in both row conventions.
fn check_rules(notation: &str) {
    let position = Position::from_notation(notation).expect("a valid position");
    for mirror in [false, true] {
        let mut engine = Engine::othello();
        if mirror {
            engine.ok("set_option coordinates gogui");
        }
        engine.ok(&format!("set_position {notation}"));
        assert_eq!(engine.ok("gogui-rules_game_id"), "Othello");
        assert_eq!(engine.ok("gogui-rules_board_size"), "8");
        assert_eq!(
            engine.ok("gogui-rules_board"),
            expected_board(&position, mirror),
            "{notation} mirrored {mirror}"
        );
        let side = match position.side_to_move() {
            Color::Black => "black",
            Color::White => "white",
        };
        assert_eq!(engine.ok("gogui-rules_side_to_move"), side);
        assert_eq!(
            engine.ok("gogui-rules_legal_moves"),
            expected_moves(&position, mirror),
            "{notation} mirrored {mirror}"
        );
        let result = engine.ok("gogui-rules_final_result");
        if position.is_over() {
            let (black, white) = position.counts();
            let margin = position.final_margin();
            let empty = 64 - black - white;
            let winner = match margin {
                m if m > 0 => "Black wins",
                m if m < 0 => "White wins",
                _ => "Draw",
            };
            let (b, w) = match margin {
                m if m > 0 => (black + empty, white),
                m if m < 0 => (black, white + empty),
                _ => (black + empty / 2, white + empty / 2),
            };
            assert_eq!(result, format!("{winner} {b}:{w}"));
            assert_eq!(b as i32 - w as i32, margin);
        } else {
            assert!(result.contains("not over"), "{result}");
        }
        assert_eq!(
            engine.ok("position"),
            notation,
            "the queries change nothing"
        );
    }
}

#[test]
fn rules_queries_at_the_start() {
    check_rules("---------------------------OX------XO--------------------------- X");
    // And the literal answers GoGui reads for the start in its own rows.
    let mut engine = Engine::othello();
    engine.ok("set_option coordinates gogui");
    assert_eq!(engine.ok("gogui-rules_legal_moves"), "D6 C5 F4 E3");
    assert_eq!(
        engine.ok("gogui-rules_board").lines().nth(3),
        Some(". . . O X . . .")
    );
}

#[test]
fn rules_queries_with_a_forced_pass() {
    // White has no move, black has h8.
    let notation = format!(
        "{}OXXXXXXX{}XXXXXXXOXXXXXX-- O",
        "X".repeat(24),
        "X".repeat(16)
    );
    check_rules(&notation);
    let mut engine = Engine::othello();
    engine.ok(&format!("set_position {notation}"));
    assert_eq!(engine.ok("gogui-rules_legal_moves"), "pass");
}

#[test]
fn rules_queries_after_the_end() {
    // Neither side can move: black wins (the empty square goes to black).
    let notation = "X-XXXXXXOOXXXXXXOOOXXXXXOOOOXXXXOOOOOXXXOOOOOOXXOOOOOOOXXOXOXXXX O";
    check_rules(notation);
    let mut engine = Engine::othello();
    engine.ok(&format!("set_position {notation}"));
    assert_eq!(engine.ok("gogui-rules_legal_moves"), "");
    assert!(
        engine
            .ok("gogui-rules_final_result")
            .starts_with("Black wins")
    );
    // A draw on a full board.
    check_rules(&format!("{}{} X", "X".repeat(32), "O".repeat(32)));
}

#[test]
fn gogui_rows_mirror_moves_in_and_out() {
    let mut engine = Engine::othello();
    engine.ok("set_option coordinates gogui");
    engine.ok("set_option depth 2");
    engine.ok("play b D6");
    let mut position = Position::start();
    position
        .play(Color::Black, Move::parse("d3").expect("a move"))
        .expect("legal");
    assert_eq!(engine.ok("position"), position.to_notation());
    assert!(engine.refused("play w d6").contains("d6 is occupied"));
    assert_eq!(
        engine.ok("is_legal w c6"),
        "true",
        "c3 in the engine's rows"
    );
    let answer = engine.ok("genmove w");
    let mv = position
        .legal_moves()
        .into_iter()
        .find(|mv| mirrored(*mv) == answer)
        .unwrap_or_else(|| panic!("{answer} is no legal move mirrored"));
    position.play(Color::White, mv).expect("legal");
    assert_eq!(engine.ok("position"), position.to_notation());
    engine.ok("set_option coordinates standard");
    assert_eq!(engine.ok("all_legal b"), legal_text(&position));
    assert!(
        engine
            .refused("set_option coordinates upside")
            .contains("gogui")
    );
}

#[test]
fn the_scores_analysis_labels_every_legal_move() {
    for mirror in [false, true] {
        let mut engine = Engine::othello();
        if mirror {
            engine.ok("set_option coordinates gogui");
        }
        engine.ok("set_option depth 2");
        assert_eq!(
            engine.ok("gogui-analyze_commands"),
            "gfx/Move scores/tabula-scores_gfx"
        );
        let gfx = engine.ok("tabula-scores_gfx");
        let mut labelled: Vec<String> = gfx
            .lines()
            .filter_map(|line| line.strip_prefix("LABEL "))
            .map(|rest| {
                let (square, score) = rest.split_once(' ').expect("LABEL SQUARE TEXT");
                assert!(score.parse::<f64>().is_ok(), "{score}");
                square.to_string()
            })
            .collect();
        labelled.sort();
        let mut legal: Vec<String> = Position::start()
            .legal_moves()
            .into_iter()
            .map(|mv| if mirror { mirrored(mv) } else { mv.to_string() })
            .collect();
        legal.sort();
        assert_eq!(labelled, legal);
        assert!(gfx.lines().any(|l| l.starts_with("COLOR green ")));
        assert!(
            gfx.lines()
                .last()
                .is_some_and(|l| l.starts_with("TEXT black to move: best "))
        );
    }
    let mut engine = Engine::start(&["--game", "shell"]);
    assert!(
        engine
            .refused("tabula-scores_gfx")
            .contains("not a command of shell")
    );
    assert!(
        engine
            .refused("gogui-rules_board")
            .contains("not a command of shell")
    );
}

/// The `(point, number)` pairs of a gfx answer's `LABEL` line.
fn labels(gfx: &str) -> Vec<(String, f64)> {
    let line = gfx
        .lines()
        .find_map(|l| l.strip_prefix("LABEL "))
        .unwrap_or_else(|| panic!("a LABEL line in {gfx}"));
    let words: Vec<&str> = line.split(' ').collect();
    words
        .chunks(2)
        .map(|pair| (pair[0].to_string(), pair[1].parse().expect("a number")))
        .collect()
}

#[test]
fn the_hunter_heat_map_covers_the_sea_in_gogui_points() {
    let mut engine = Engine::start(&["--game", "battleship"]);
    let commands = engine.ok("gogui-analyze_commands");
    assert_eq!(commands.lines().count(), 2);
    assert!(commands.contains("gfx/Hunter heat map (black shoots)/tabula-heat_gfx black"));
    let gfx = engine.ok("tabula-heat_gfx black");
    let shaded = gfx
        .lines()
        .find_map(|l| l.strip_prefix("INFLUENCE "))
        .expect("an INFLUENCE line");
    let points: Vec<&str> = shaded.split(' ').step_by(2).collect();
    assert_eq!(points.len(), 100, "every cell of an untouched sea");
    assert!(
        points.iter().all(|p| !p.starts_with('I')),
        "GoGui has no I column"
    );
    assert!(points.contains(&"K10"));
    // The probabilities add up to the fleet's 20 ship cells.
    let total: f64 = labels(&gfx).iter().map(|(_, p)| p).sum();
    assert!((1900.0..=2100.0).contains(&total), "{total}");
    assert!(
        gfx.lines()
            .last()
            .is_some_and(|l| l.starts_with("TEXT black shoots: best "))
    );
    assert!(
        engine
            .refused("tabula-scores_gfx")
            .contains("not a command of battleship")
    );
}

#[test]
fn the_shell_mixed_strategy_sums_to_one_and_changes_nothing() {
    let start = |analyse: bool| {
        let mut engine = Engine::start(&["--game", "shell"]);
        engine.ok("set_option seed 5");
        engine.ok("set_option iterations 1500");
        if analyse {
            let gfx = engine.ok("tabula-mix_gfx black");
            let total: f64 = labels(&gfx).iter().map(|(_, p)| p).sum();
            assert!((90.0..=110.0).contains(&total), "{total} in {gfx}");
            assert!(gfx.contains("TEXT black picks: best "));
        }
        let pick = engine.ok("genmove black");
        (engine.ok("position"), pick)
    };
    assert_eq!(
        start(true),
        start(false),
        "the analysis leaves the session as it was"
    );
}
