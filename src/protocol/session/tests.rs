//! The seam between the session and the players: a handler chooses, the session plays.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::protocol::parse::parse_line;

fn ask(session: &mut Session, line: &str) -> Answer {
    let (_, command) = parse_line(line);
    let command = command.unwrap_or_else(|e| panic!("{line}: {e:?}"));
    session.handle(&command, &AtomicBool::new(false))
}

fn ok(session: &mut Session, line: &str) -> String {
    ask(session, line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// A session of `kind` with `player`, quick searches, and the side to move.
fn started(kind: GameKind, player: &str) -> (Session, Color) {
    let options = Options {
        seed: 7,
        ..Options::default()
    };
    let mut session = Session::with_options(kind, options);
    for line in [
        format!("set_option player {player}"),
        "set_option depth 3".into(),
        "set_option iterations 200".into(),
    ] {
        ok(&mut session, &line);
    }
    let color = match kind {
        GameKind::Battleship => {
            ok(&mut session, "genfleet black");
            ok(&mut session, "genfleet white");
            ok(&mut session, "ready white");
            if ok(&mut session, "start") == "black" {
                Color::Black
            } else {
                Color::White
            }
        }
        GameKind::Othello | GameKind::Shell => Color::Black,
    };
    (session, color)
}

#[test]
fn reg_genmove_answers_the_choice_and_genmove_plays_it() {
    for player in ["default", "random", "greedy", "simple"] {
        for kind in GameKind::ALL {
            let (mut session, color) = started(kind, player);
            let start = session.game().clone();
            let chosen = ok(&mut session, &format!("reg_genmove {}", color.name()));
            assert_eq!(
                session.game(),
                &start,
                "{kind:?} {player}: reg_genmove plays nothing"
            );
            let answer = ok(&mut session, &format!("genmove {}", color.name()));
            let mut expected = start.clone();
            match &mut expected {
                Game::Othello(position) => {
                    assert!(
                        position
                            .legal_moves()
                            .iter()
                            .any(|m| m.to_string() == chosen)
                    );
                    let mv = OthelloMove::parse(&answer).expect("a move");
                    assert!(position.play(color, mv).is_ok(), "{answer} is legal");
                }
                Game::Battleship(table) => {
                    let cell = SeaCell::parse(&chosen).expect("a cell");
                    assert!(table.is_legal(color, cell), "{chosen} is open");
                    let (cell, result) = answer.split_once(' ').expect("the shot's result");
                    let cell = SeaCell::parse(cell).expect("a cell");
                    let fired = table.shoot(color, cell).expect("legal");
                    assert_eq!(fired.to_string(), result, "{kind:?} {player}");
                }
                Game::Shell(position) => {
                    let cell = ShellCell::parse(&answer).expect("a cell");
                    assert!(
                        position.is_empty(cell),
                        "the secret pick waits for resolve_turn"
                    );
                }
            }
            assert_eq!(session.game(), &expected, "{kind:?} {player}: {answer}");
            if expected != start {
                ok(&mut session, "undo");
                assert_eq!(
                    session.game(),
                    &start,
                    "{kind:?} {player}: undo restores it"
                );
            }
        }
    }
}

#[test]
fn past_the_end_othello_passes_and_plays_nothing() {
    for player in ["default", "simple"] {
        let (mut session, _) = started(GameKind::Othello, player);
        // Black has wiped out White: the game is over.
        ok(&mut session, &format!("set_position {} X", "X".repeat(64)));
        let over = session.game().clone();
        assert_eq!(ok(&mut session, "genmove white"), "pass");
        assert_eq!(ok(&mut session, "genmove black"), "pass");
        assert_eq!(session.game(), &over);
        assert!(ask(&mut session, "undo").is_err(), "nothing was played");
    }
}

#[test]
fn again_teaches_the_adaptive_prior_the_fleets_of_the_game_that_ended() {
    use crate::ai::battleship::styles::Style;
    use crate::games::battleship::Fleet;
    let mut session = Session::with_options(
        GameKind::Battleship,
        Options {
            seed: 3,
            ..Options::default()
        },
    );
    ok(&mut session, "set_option player random");
    ok(&mut session, "set_option placement_prior adaptive");
    let border: Fleet = Style::Border.sample(&mut Rng::new(5));
    for game in 0..2 {
        ok(&mut session, &format!("fleet black {border}"));
        ok(&mut session, "genfleet white");
        ok(&mut session, "ready white");
        ok(&mut session, "start");
        let before = session.styles.clone();
        assert!(ask(&mut session, "again").is_err(), "the game is not over");
        assert_eq!(session.styles, before, "a refused again learns nothing");
        loop {
            let turn = match session.game() {
                Game::Battleship(t) => t.turn(),
                _ => None,
            };
            let Some(color) = turn else { break };
            ok(&mut session, &format!("genmove {}", color.name()));
        }
        let border_before = session.styles[0].of(Style::Border);
        ok(&mut session, "again");
        let border_after = session.styles[0].of(Style::Border);
        // The mixture's expected border weight grows with each border fleet and
        // leads the other styles' (Dirichlet prior of one fleet per style).
        let weights = session.styles[0].weights();
        assert!(
            border_after > border_before && weights.iter().all(|&w| w <= border_after),
            "game {game}: {border_before} → {border_after} ({weights:?})"
        );
        assert_eq!(session.styles[0].games(), game + 1);
    }
}

#[test]
fn the_hunter_option_picks_the_battleship_hunter() {
    for hunter in ["greedy", "learned", "rollout", "quick"] {
        let (mut session, color) = started(GameKind::Battleship, "default");
        ok(&mut session, "set_option movetime 200");
        ok(&mut session, &format!("set_option hunter {hunter}"));
        let answer = ok(&mut session, &format!("genmove {}", color.name()));
        assert!(answer.split_whitespace().count() >= 2, "{hunter}: {answer}");
    }
    let (mut session, _) = started(GameKind::Battleship, "default");
    let options = session.options.clone();
    assert!(ask(&mut session, "set_option hunter best").is_err());
    assert!(ask(&mut session, "set_option placement_prior border").is_err());
    assert_eq!(session.options, options);
}

#[test]
fn shell_threshold_takes_a_share_in_per_cent_and_refuses_others() {
    let (mut session, color) = started(GameKind::Shell, "default");
    assert_eq!(session.options.shell_threshold, 5);
    ok(&mut session, "set_option shell_threshold 35");
    assert_eq!(session.options.shell_threshold, 35);
    let options = session.options.clone();
    assert!(ask(&mut session, "set_option shell_threshold 0").is_err());
    assert!(ask(&mut session, "set_option shell_threshold 51").is_err());
    assert_eq!(session.options, options);
    let answer = ok(&mut session, &format!("genmove {}", color.name()));
    assert_eq!(answer.len(), 2, "{answer}");
}

#[test]
fn shell_open_threshold_takes_zero_to_fifty_and_refuses_others() {
    let (mut session, color) = started(GameKind::Shell, "default");
    assert_eq!(session.options.shell_open_threshold, 35);
    ok(&mut session, "set_option shell_open_threshold 0");
    assert_eq!(session.options.shell_open_threshold, 0);
    refuses_and_still_moves(
        &mut session,
        "shell_open_threshold",
        &["51", "-1", "0.3", "open"],
        color,
    );
}

/// Each of `refused` as the value of option `name` is refused and changes nothing,
/// and the session then still answers `genmove` for `color` with a cell.
fn refuses_and_still_moves(session: &mut Session, name: &str, refused: &[&str], color: Color) {
    let options = session.options.clone();
    for value in refused {
        assert!(
            ask(session, &format!("set_option {name} {value}")).is_err(),
            "{name} {value}"
        );
    }
    assert_eq!(session.options, options);
    let answer = ok(session, &format!("genmove {}", color.name()));
    assert_eq!(answer.len(), 2, "{answer}");
}

#[test]
fn shell_eval_takes_a_leaf_value_and_refuses_others() {
    let (mut session, color) = started(GameKind::Shell, "default");
    assert_eq!(session.options.shell_eval, crate::ai::shell::Eval::Playout);
    ok(&mut session, "set_option shell_eval learned");
    assert_eq!(session.options.shell_eval, crate::ai::shell::Eval::Learned);
    let options = session.options.clone();
    assert!(ask(&mut session, "set_option shell_eval rollout").is_err());
    assert_eq!(session.options, options);
    let _ = color;
}

/// Plays `turns` turns in which white picks as the threat-builder `windows` and
/// black as the session's `genmove black` says; stops when the game ends.
fn against_windows(session: &mut Session, turns: usize) {
    for _ in 0..turns {
        let Game::Shell(position) = session.game().clone() else {
            panic!("not the Shell");
        };
        if position.status().is_over() {
            return;
        }
        let black = ok(session, "genmove black");
        let white = crate::ai::shell::windows::pick(&position, Color::White).expect("a cell");
        ok(session, &format!("resolve_turn {black} {white}"));
    }
}

#[test]
fn the_opponent_model_learns_a_threat_builder_and_outlives_the_game() {
    let (mut session, _) = started(GameKind::Shell, "default");
    against_windows(&mut session, 12);
    let (style, confidence) = session.opponent.best();
    assert_eq!(crate::ai::shell::model::style_name(style), "windows");
    assert!(confidence >= crate::ai::shell::model::ACT, "{confidence}");
    let model = session.opponent;
    ok(&mut session, "clear_board");
    ok(&mut session, "set_game shell");
    assert_eq!(session.opponent, model, "the table's opponent is the same");
    // A refused turn scores nothing.
    let before = session.clone();
    assert!(ask(&mut session, "resolve_turn e5 j9").is_err());
    assert_eq!(session, before);
    ok(&mut session, "set_game othello");
    assert_eq!(session.opponent.turns(), 0.0, "another game, another model");
}

#[test]
fn undo_unscores_the_turns_the_opponent_model_scored() {
    let (mut session, _) = started(GameKind::Shell, "default");
    let mut models = vec![session.opponent];
    for _ in 0..8 {
        against_windows(&mut session, 1);
        models.push(session.opponent);
    }
    assert!(session.opponent.turns() > 0.0, "the turns were scored");
    // Each undo takes back one turn and what the model learnt from it (the model
    // after a turn's `genmove` holds the prediction that turn scored, so an undo
    // comes back to the model of the turn before it, or to one with that
    // prediction still pending).
    for expected in models.iter().rev().skip(1) {
        ok(&mut session, "undo");
        assert_eq!(session.opponent.turns(), expected.turns());
        assert_eq!(session.opponent.confidences(), expected.confidences());
    }
    assert!(ask(&mut session, "undo").is_err());
    assert_eq!(session.opponent.turns(), 0.0, "nothing learnt is left");
    // A table's next game keeps what was learnt, and its moves cannot be undone
    // into the game before.
    against_windows(&mut session, 3);
    let model = session.opponent;
    ok(&mut session, "clear_board");
    assert!(ask(&mut session, "undo").is_err());
    assert_eq!(session.opponent, model);
}

#[test]
fn shell_open_cut_takes_always_or_predicted_and_refuses_others() {
    let (mut session, color) = started(GameKind::Shell, "default");
    assert!(session.options.shell_open_cut_predicted);
    ok(&mut session, "set_option shell_open_cut always");
    assert!(!session.options.shell_open_cut_predicted);
    refuses_and_still_moves(
        &mut session,
        "shell_open_cut",
        &["never", "on", "35"],
        color,
    );
    ok(&mut session, "set_option shell_open_cut predicted");
    assert!(session.options.shell_open_cut_predicted);
}

#[test]
fn shell_model_off_predicts_nothing() {
    let (mut session, _) = started(GameKind::Shell, "default");
    assert!(session.options.shell_model);
    ok(&mut session, "set_option shell_model off");
    assert!(!session.options.shell_model);
    let options = session.options.clone();
    assert!(ask(&mut session, "set_option shell_model maybe").is_err());
    assert_eq!(session.options, options);
    against_windows(&mut session, 12);
    assert_eq!(
        session.opponent.turns(),
        0.0,
        "no prediction was made to score"
    );
}
