//! What the Shell through the real binary: `resolve_turn` refereeing whole games,
//! checked turn by turn against the rules library (S1–S10).

use tabula::games::shell::{Cell, Position};
use tabula::rng::Rng;

use crate::common::Engine;

fn shell_engine() -> Engine {
    Engine::start(&["--game", "shell"])
}

#[test]
fn random_games_agree_with_the_rules_turn_by_turn_and_undo_to_the_start() {
    for seed in 0..3 {
        let mut engine = shell_engine();
        let mut rng = Rng::new(seed);
        let mut position = Position::new();
        let mut history = vec![position.to_notation()];
        while !position.status().is_over() {
            let empty: Vec<Cell> = position.empty_cells().iter().collect();
            let listed: Vec<String> = empty.iter().map(ToString::to_string).collect();
            assert_eq!(engine.ok("all_legal black"), listed.join(" "));
            // Collisions are common enough to matter: pick from a few cells.
            let near = &empty[..empty.len().min(12)];
            let black = *rng.choose(near).expect("an empty cell");
            let white = *rng.choose(near).expect("an empty cell");
            let report = position.resolve_turn(black, white).expect("legal picks");
            assert_eq!(
                engine.ok(&format!(
                    "resolve_turn {black} {}",
                    white.to_string().to_uppercase()
                )),
                report.to_string()
            );
            assert_eq!(engine.ok("position"), position.to_notation());
            assert_eq!(engine.ok("status"), position.status().name());
            history.push(position.to_notation());
        }
        assert!(
            engine.refused("resolve_turn a1 a2").contains("over")
                || position.empty_cells().is_empty()
        );
        engine.undo_to_start(history);
    }
}

#[test]
fn worked_example_a_through_the_protocol() {
    // RULES.md S7/S8 worked example A: black c5, white c3; d5 e5 c4 c5 leave; e9 vanishes.
    let mut engine = shell_engine();
    let mut cells = vec!['-'; 81];
    for (cell, ch) in [
        ("c4", 'X'),
        ("d5", 'O'),
        ("e5", 'O'),
        ("f5", 'X'),
        ("c6", 'O'),
        ("e9", 'E'),
        ("i9", 'E'),
    ] {
        cells[Cell::parse(cell).expect("a cell").index()] = ch;
    }
    let text = format!("{} e9,i9", cells.iter().collect::<String>());
    engine.ok(&format!("set_position {text}"));
    assert_eq!(engine.ok("position"), text);
    assert_eq!(
        engine.ok("resolve_turn c5 c3"),
        "step 1 captures 1 1 captured_black c4 c5 captured_white d5 e5 vanished e9 status ongoing"
    );
    let after = engine.ok("position");
    assert!(after.ends_with(" i9"), "{after}");
}

#[test]
fn refusals_name_the_problem_and_change_nothing() {
    let mut engine = shell_engine();
    engine.ok("resolve_turn e5 e5");
    let before = engine.ok("position");
    for (line, expected) in [
        (
            "resolve_turn e5 a1",
            "illegal move: black's pick e5 is not empty",
        ),
        (
            "resolve_turn a1 e5",
            "illegal move: white's pick e5 is not empty",
        ),
        ("resolve_turn a1 j1", "syntax error"),
        ("resolve_turn a1", "syntax error"),
        ("play black a1", "play is not used in shell"),
        ("perft 2", "perft is not a command of shell"),
        ("set_position -- -", "invalid position"),
        ("boardsize 8", "unacceptable size"),
    ] {
        let message = engine.refused(line);
        assert!(
            message.starts_with(expected),
            "{line:?} answered {message:?}"
        );
        assert_eq!(engine.ok("position"), before, "after {line:?}");
    }
    engine.ok("boardsize 9");
    assert_eq!(engine.ok("is_legal white e5"), "false");
    assert_eq!(engine.ok("is_legal white e6"), "true");
}

#[test]
fn genmove_is_a_secret_pick_that_changes_nothing() {
    let mut engine = shell_engine();
    engine.ok("set_option seed 5");
    engine.ok("resolve_turn e5 d4");
    let before = engine.ok("position");
    let position = Position::from_notation(&before).expect("valid");
    for color in ["black", "white", "b", "w"] {
        let pick = engine.ok(&format!("genmove {color}"));
        let cell = Cell::parse(&pick).expect("a cell");
        assert!(position.is_empty(cell), "{pick} is not empty");
        assert_eq!(engine.ok("position"), before);
    }
    // Reproducible from the seed when the search is bounded by iterations alone.
    engine.ok("set_option iterations 1000");
    engine.ok("set_option seed 9");
    let first = engine.ok("reg_genmove black");
    engine.ok("set_option seed 8");
    engine.ok("set_option seed 9");
    assert_eq!(engine.ok("reg_genmove black"), first);
}

#[test]
fn a_game_between_two_engines_refereed_by_a_third_ends_with_one_result() {
    let mut black = shell_engine();
    let mut white = shell_engine();
    let mut referee = shell_engine();
    black.ok("set_option seed 1");
    white.ok("set_option seed 2");
    black.ok("set_option iterations 300");
    white.ok("set_option iterations 300");
    white.ok("set_option shell_selection uct");
    for _ in 0..200 {
        if referee.ok("status") != "ongoing" && referee.ok("status") != "sudden_death" {
            break;
        }
        let b = black.ok("genmove black");
        let w = white.ok("genmove white");
        let report = referee.ok(&format!("resolve_turn {b} {w}"));
        assert_eq!(black.ok(&format!("resolve_turn {b} {w}")), report);
        assert_eq!(white.ok(&format!("resolve_turn {b} {w}")), report);
    }
    let status = referee.ok("status");
    assert_eq!(black.ok("status"), status);
    assert_eq!(white.ok("final_score"), referee.ok("final_score"));
}

#[test]
fn search_options_are_validated_and_both_selections_answer() {
    let mut engine = shell_engine();
    engine.ok("set_option iterations 200");
    for selection in ["uct", "rm"] {
        engine.ok(&format!("set_option shell_selection {selection}"));
        let pick = engine.ok("genmove white");
        assert!(Cell::parse(&pick).is_some(), "{pick}");
    }
    for bad in [
        "set_option shell_selection minimax",
        "set_option iterations -1",
        "set_option iterations many",
    ] {
        assert!(
            engine.refused(bad).starts_with("invalid value for"),
            "{bad}"
        );
    }
}
