//! Othello through the real binary: every command of CONTRACT.md's table, checked
//! move by move against the rules library.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::Duration;

use tabula::games::othello::{Move, Position};
use tabula::games::{Color, GameKind};
use tabula::protocol::Session;
use tabula::protocol::parse::parse_line;
use tabula::protocol::session::Options;
use tabula::rng::Rng;

use crate::common::Engine;

fn color_word(color: Color) -> &'static str {
    color.name()
}

pub fn legal_text(position: &Position) -> String {
    position
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_random_game_agrees_with_the_rules_move_by_move_and_undoes_to_the_start() {
    for seed in 0..3 {
        let mut engine = Engine::othello();
        let mut rng = Rng::new(seed);
        let mut position = Position::start();
        let mut history = vec![position.to_notation()];
        while !position.is_over() {
            let side = position.side_to_move();
            assert_eq!(
                engine.ok(&format!("all_legal {}", color_word(side))),
                legal_text(&position)
            );
            assert_eq!(
                engine.ok(&format!("all_legal {}", color_word(side.opponent()))),
                ""
            );
            assert_eq!(engine.ok("status"), "ongoing");
            let moves = position.legal_moves();
            let mv = *rng.choose(&moves).expect("a move while the game goes on");
            assert_eq!(
                engine.ok(&format!("is_legal {} {mv}", color_word(side))),
                "true"
            );
            // Cells are read in any case.
            engine.ok(&format!(
                "play {} {}",
                color_word(side),
                mv.to_string().to_uppercase()
            ));
            position.play(side, mv).expect("legal");
            assert_eq!(engine.ok("position"), position.to_notation());
            history.push(position.to_notation());
        }
        assert_eq!(engine.ok("all_legal black"), "");
        let margin = position.final_margin();
        let expected = match margin {
            0 => "0".to_string(),
            m if m > 0 => format!("B+{m}"),
            m => format!("W+{}", -m),
        };
        assert_eq!(engine.ok("final_score"), expected);
        assert_eq!(engine.ok("status"), position.status().name());
        // O4: the final score's magnitude counts the empties for the winner.
        let (b, w) = position.counts();
        if b != w {
            assert_eq!(margin.unsigned_abs(), b.abs_diff(w) + (64 - b - w));
        }
        engine.undo_to_start(history);
    }
}

#[test]
fn every_refusal_leaves_the_position_as_it_was() {
    let mut engine = Engine::othello();
    engine.ok("play black d3");
    let before = engine.ok("position");
    for (line, expected_start) in [
        ("play black c3", "illegal move"),   // not black's turn
        ("play white a1", "illegal move"),   // flips nothing (O2)
        ("play white d3", "illegal move"),   // occupied
        ("play white pass", "illegal move"), // pass with moves (O3)
        ("play white z9", "syntax error"),
        ("play white c3 hit", "syntax error"), // shot results are Battleship's
        ("genmove black", "black is not to move"),
        ("set_position XO X", "invalid position"),
        (
            "set_position ----------------------------------------------------------------- X",
            "invalid position",
        ),
        ("boardsize 10", "unacceptable size"),
        ("set_option depth 99", "invalid value"),
        ("set_option eval edax", "invalid value for eval"),
        (
            "resolve_turn e5 e6",
            "resolve_turn is not a command of othello",
        ),
        ("perft 99", "depth too large"),
    ] {
        let message = engine.refused(line);
        assert!(
            message.starts_with(expected_start),
            "{line:?} answered {message:?}"
        );
        assert_eq!(engine.ok("position"), before, "after {line:?}");
    }
    assert_eq!(engine.ok("is_legal black c3"), "false");
    assert_eq!(engine.ok("is_legal white nonsense"), "false");
}

#[test]
fn set_position_round_trips_and_clear_board_restarts() {
    let mut engine = Engine::othello();
    let text = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    engine.ok(&format!("set_position {text}"));
    assert_eq!(engine.ok("position"), text);
    // A set position is a new start: nothing to undo.
    assert_eq!(engine.refused("undo"), "cannot undo");
    engine.ok("clear_board");
    assert_eq!(engine.ok("position"), Position::start().to_notation());
    engine.ok("boardsize 8");
}

#[test]
fn perft_through_the_protocol() {
    let mut engine = Engine::othello();
    assert_eq!(engine.ok("perft 1"), "4");
    assert_eq!(engine.ok("perft 6"), "8200");
    engine.ok("play b f5");
    assert_eq!(engine.ok("perft 0"), "1");
    assert_eq!(engine.ok("perft 1"), "3");
}

/// Runs `perft DEPTH` from the start on a session of its own thread, raising the
/// stop flag `raise_after` its start (`None`: before it), and waits for the answer at
/// most a minute (perft 14 takes hours: only the flag can end it sooner).
fn perft_stopped(depth: u32, raise_after: Option<Duration>) -> Result<String, String> {
    let stop = Arc::new(AtomicBool::new(raise_after.is_none()));
    let (answers, answer) = mpsc::channel();
    let flag = Arc::clone(&stop);
    thread::spawn(move || {
        let mut session = Session::new(GameKind::Othello);
        let before = session.clone();
        let (_, command) = parse_line(&format!("perft {depth}"));
        let outcome = session.handle(&command.expect("parses"), &flag);
        assert_eq!(session, before, "perft changed the session");
        let _ = answers.send(outcome);
    });
    if let Some(delay) = raise_after {
        thread::sleep(delay);
        stop.store(true, Ordering::Relaxed);
    }
    answer
        .recv_timeout(Duration::from_secs(60))
        .expect("perft ignored the stop flag")
}

/// Regression: `time_settings 60 5 0` set a clock (60 s plus 5 s a move); GTP 2 says
/// byo-yomi time with 0 stones is no time limit, so the session is as if no clock
/// had ever been set, and `genmove` is bound by depth alone.
#[test]
fn time_settings_with_byo_yomi_time_and_no_stones_means_no_clock() {
    let stop = AtomicBool::new(false);
    let fresh = || Session::with_options(GameKind::Othello, Options::default());
    let mut session = fresh();
    for line in ["time_settings 60 0 0", "time_settings 60 5 0"] {
        let (_, command) = parse_line(line);
        assert_eq!(
            session.handle(&command.expect("parses"), &stop),
            Ok(String::new())
        );
    }
    assert_eq!(session, fresh());
    let (_, fischer) = parse_line("kgs-time_settings fischer 60 5");
    assert_eq!(
        session.handle(&fischer.expect("parses"), &stop),
        Ok(String::new())
    );
    assert_ne!(session, fresh());
}

/// Regression: perft never read the stop flag, so a deep count could not be cut short.
#[test]
fn perft_with_the_stop_flag_raised_answers_interrupted() {
    assert_eq!(perft_stopped(14, None), Err("interrupted".to_string()));
}

#[test]
fn perft_stops_soon_after_the_flag_is_raised() {
    assert_eq!(
        perft_stopped(14, Some(Duration::from_millis(50))),
        Err("interrupted".to_string())
    );
    let (_, perft) = parse_line("perft 14");
    assert!(
        perft.expect("parses").thinks(),
        "perft is interruptible like genmove"
    );
}

#[test]
fn a_forced_pass_is_answered_by_genmove_and_accepted_by_play() {
    // White has no move, black has h8 (the O3 test position of the rules library).
    let text = format!(
        "{}OXXXXXXX{}XXXXXXXOXXXXXX-- O",
        "X".repeat(24),
        "X".repeat(16)
    );
    let text = text.as_str();
    let mut engine = Engine::othello();
    engine.ok(&format!("set_position {text}"));
    assert_eq!(engine.ok("all_legal white"), "pass");
    assert_eq!(engine.ok("reg_genmove white"), "pass");
    assert_eq!(engine.ok("position"), text, "reg_genmove plays nothing");
    assert_eq!(engine.ok("genmove white"), "pass");
    assert_eq!(engine.ok("all_legal black"), "h8");
    assert!(
        engine
            .refused("play black pass")
            .starts_with("illegal move")
    );
}

#[test]
fn genmove_plays_legal_moves_for_both_sides_to_the_end() {
    for evaluation in ["hand", "pattern"] {
        let mut engine = Engine::othello();
        engine.ok("set_option depth 2");
        engine.ok(&format!("set_option eval {evaluation}"));
        plays_to_the_end(&mut engine);
    }
}

fn plays_to_the_end(engine: &mut Engine) {
    let mut position = Position::start();
    while !position.is_over() {
        let side = position.side_to_move();
        let answer = engine.ok(&format!("genmove {}", color_word(side)));
        let mv = Move::parse(&answer).expect("genmove answers a move");
        assert!(
            position.legal_moves().contains(&mv),
            "{answer} is illegal in {}",
            position.to_notation()
        );
        position.play(side, mv).expect("legal");
        assert_eq!(
            engine.ok("position"),
            position.to_notation(),
            "genmove plays its move"
        );
    }
    let end = engine.ok("position");
    for color in ["black", "white"] {
        assert_eq!(engine.ok(&format!("genmove {color}")), "pass");
        assert_eq!(engine.ok(&format!("reg_genmove {color}")), "pass");
    }
    assert_eq!(
        engine.ok("position"),
        end,
        "a pass after the end plays nothing"
    );
    assert!(engine.refused("play black pass").contains("over"));
    assert_eq!(engine.ok("is_legal black pass"), "false");
}

#[test]
fn komi_is_accepted_and_changes_nothing() {
    let mut engine = Engine::othello();
    let start = engine.ok("position");
    for komi in ["0", "6.5", "-7.5", "1e2"] {
        assert_eq!(engine.ok(&format!("komi {komi}")), "");
    }
    assert!(engine.refused("komi").contains("usage"));
    assert!(engine.refused("komi six").contains("usage"));
    assert_eq!(engine.ok("position"), start);
    assert_eq!(engine.ok("known_command komi"), "true");
}

#[test]
fn only_an_interrupt_line_stops_a_thinking_genmove() {
    for threads in [1, 2] {
        let mut engine = Engine::othello();
        engine.ok(&format!("set_option threads {threads}"));
        // Depth 64 with no clock would think for hours: only the interrupt ends it.
        engine.ok("set_option depth 64");
        engine.send("1 genmove black");
        // Empty lines and other comments are no interrupt.
        engine.send("");
        engine.send("# a comment");
        engine.send("   ");
        assert!(
            engine.silent_for(std::time::Duration::from_millis(400)),
            "{threads}: answered before the interrupt"
        );
        engine.send("# interrupt");
        let answer = engine.answer();
        assert!(answer.ok && answer.id == Some(1), "{threads}: {answer:?}");
        let mv = Move::parse(&answer.text).expect("a move");
        assert!(Position::start().legal_moves().contains(&mv));
        // A later genmove is not cut short by the old interrupt: it still thinks.
        engine.ok("set_option depth 3");
        assert!(Move::parse(&engine.ok("genmove white")).is_some());
    }
}

#[test]
fn genmove_keeps_within_the_clock() {
    let mut engine = Engine::othello();
    engine.ok("set_option depth 64");
    engine.ok("time_settings 2 0 0");
    engine.ok("time_left black 1 0");
    // The generous ceiling of the harness is the only wall-time check.
    let answer = engine.ok("genmove black");
    assert!(Move::parse(&answer).is_some(), "{answer}");
    engine.ok("set_option movetime 50");
    engine.ok("time_settings 0 0 0");
    let answer = engine.ok("genmove white");
    assert!(Move::parse(&answer).is_some(), "{answer}");
}

#[test]
fn options_can_be_set_on_the_command_line() {
    let mut engine = Engine::start(&["--set", "eval=pattern", "--set", "DEPTH=3"]);
    engine.ok("set_option eval hand");
    let answer = engine.ok("genmove black");
    let mv = Move::parse(&answer).expect("a move");
    assert!(Position::start().legal_moves().contains(&mv));
    // A refused option stops the engine before it reads a line, with exit code 1.
    let mut bad = Engine::start(&["--set", "eval=edax"]);
    bad.close();
    assert_eq!(bad.wait(), Some(1));
    let mut malformed = Engine::start(&["--set", "depth"]);
    malformed.close();
    assert_eq!(malformed.wait(), Some(1));
}

#[test]
fn randomness_varies_the_moves_within_the_margin_and_follows_the_seed() {
    // A midgame position with moves of different scores.
    let opening = "f5d6c3d3c4f4f6f3e6e7";
    let pick = |seed: u64, randomness: &str| {
        let mut engine = Engine::othello();
        engine.ok("set_option depth 2");
        engine.ok(&format!("set_option seed {seed}"));
        engine.ok(&format!("set_option randomness {randomness}"));
        engine.ok(&format!("play_sequence {opening}"));
        engine.ok("reg_genmove b")
    };
    let mut analyst = Engine::othello();
    analyst.ok("set_option depth 2");
    analyst.ok(&format!("play_sequence {opening}"));
    let scores: Vec<(String, f64)> = analyst
        .ok("analyze")
        .lines()
        .map(|line| {
            let (mv, score) = line.split_once(' ').expect("MOVE SCORE");
            let value = score
                .trim_start_matches('~')
                .parse::<f64>()
                .expect("a score");
            (mv.to_string(), value)
        })
        .collect();
    let best = scores[0].1;
    let margin = 3.0;
    let allowed: Vec<&str> = scores
        .iter()
        .filter(|(_, s)| *s >= best - margin - 1e-9)
        .map(|(m, _)| m.as_str())
        .collect();
    assert!(
        allowed.len() > 1 && allowed.len() < scores.len(),
        "{scores:?}"
    );
    let mut seen = std::collections::BTreeSet::new();
    for seed in 1..=12 {
        let mv = pick(seed, "3");
        assert!(
            allowed.contains(&mv.as_str()),
            "{mv} is within 3 discs: {scores:?}"
        );
        seen.insert(mv);
    }
    assert!(seen.len() > 1, "different seeds vary the move: {seen:?}");
    assert_eq!(pick(7, "3"), pick(7, "3"), "a seed reproduces the pick");
    let best_only: std::collections::BTreeSet<String> = (1..=4).map(|s| pick(s, "0")).collect();
    assert_eq!(best_only.len(), 1, "randomness 0 plays the best move");
    let mut engine = Engine::othello();
    assert!(
        engine
            .refused("set_option randomness 65")
            .contains("0 to 64")
    );
    assert!(
        engine
            .refused("set_option randomness x")
            .contains("0 to 64")
    );
}
