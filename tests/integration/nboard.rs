//! NBoard mode through the real binary: a scripted GUI session, `ping` while the
//! engine thinks, and bad input logged with the state kept.

use std::time::Duration;

use tabula::games::othello::Move;
use tabula::games::othello::ggf;

use crate::common::{Engine, run_with_input};

/// The game NBoard's protocol description shows, eight moves from the start.
const GAME: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[someone]PW[tabula]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

fn legal_after(game: &str) -> Vec<Move> {
    ggf::read(game)
        .expect("the game reads")
        .final_position()
        .legal_moves()
}

fn nboard() -> Engine {
    Engine::start(&["--protocol", "nboard", "--set", "hash=1"])
}

/// The move of `go`'s answer: a `nodestats NODES SECONDS` line, then
/// `=== MOVE/EVAL/TIME`, both checked for shape.
fn go_answer(engine: &mut Engine) -> Move {
    let stats = engine.line().expect("nodestats");
    let words: Vec<&str> = stats.split(' ').collect();
    assert_eq!(words.len(), 3, "{stats}");
    assert_eq!(words[0], "nodestats");
    assert!(
        words[1].parse::<u64>().is_ok() && words[2].parse::<f64>().is_ok(),
        "{stats}"
    );
    go_move(&engine.line().expect("the move"))
}

/// The move of a `=== MOVE/EVAL/TIME` line, checked for shape.
fn go_move(line: &str) -> Move {
    let rest = line
        .strip_prefix("=== ")
        .unwrap_or_else(|| panic!("expected === MOVE/EVAL/TIME, got {line:?}"));
    let parts: Vec<&str> = rest.split('/').collect();
    assert_eq!(parts.len(), 3, "{line}");
    assert!(parts[1].parse::<f64>().is_ok(), "eval in {line}");
    assert!(
        parts[2].parse::<f64>().is_ok_and(|t| t >= 0.0),
        "time in {line}"
    );
    assert_eq!(parts[0], parts[0].to_ascii_uppercase(), "{line}");
    ggf::parse_move(parts[0]).expect("a move")
}

#[test]
fn a_scripted_gui_session_is_answered() {
    let legal = legal_after(GAME);
    let mut engine = nboard();
    engine.send("nboard 2");
    engine.send("set depth 4");
    engine.send(&format!("set game {GAME}"));
    engine.send("ping 1");
    engine.send("go");
    assert_eq!(engine.line().as_deref(), Some("set myname tabula"));
    assert_eq!(engine.line().as_deref(), Some("pong 1"));
    assert_eq!(engine.line().as_deref(), Some("status tabula is thinking"));
    let chosen = go_answer(&mut engine);
    assert!(legal.contains(&chosen), "{chosen} is legal");
    assert_eq!(engine.line().as_deref(), Some("status"));

    engine.send("hint 3");
    assert_eq!(engine.line().as_deref(), Some("status tabula is thinking"));
    let mut hinted = Vec::new();
    for _ in 0..3 {
        let line = engine.line().expect("a search line");
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words.len(), 5, "search MOVE EVAL 0 DEPTH: {line}");
        assert_eq!(words[0], "search");
        let mv = ggf::parse_move(words[1]).expect("a move");
        assert!(legal.contains(&mv), "{line}");
        assert!(words[2].parse::<f64>().is_ok(), "{line}");
        assert_eq!(words[3], "0");
        assert_eq!(words[4], "4", "the depth asked for");
        hinted.push(mv);
    }
    assert_eq!(engine.line().as_deref(), Some("status"));
    hinted.dedup();
    assert_eq!(hinted.len(), 3, "three different moves");

    // The GUI plays the move back; no answer, then the next ping.
    engine.send(&format!("move {}/-1.00/0.5", ggf::move_text(chosen)));
    engine.send("ping 2");
    assert_eq!(engine.line().as_deref(), Some("pong 2"));
    engine.send("learn");
    assert_eq!(engine.line().as_deref(), Some("learned"));
    engine.send("analyze");
    assert_eq!(engine.line().as_deref(), Some("status tabula is analysing"));
    // Nine positions from the last back to the start, none finished.
    for number in (0..=9).rev() {
        let line = engine.line().expect("an analysis line");
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words[..2], ["analysis", &number.to_string()[..]], "{line}");
        assert!(words[2].parse::<f64>().is_ok(), "{line}");
    }
    assert_eq!(engine.line().as_deref(), Some("status"));
    engine.send("quit");
    assert_eq!(engine.wait(), Some(0));
}

#[test]
fn ping_stops_a_thinking_go_and_is_answered_after_it() {
    let mut engine = nboard();
    engine.send("nboard 2");
    // Depth 60 in the midgame would think for hours: only the ping ends it.
    engine.send("set depth 60");
    engine.send(&format!("set game {GAME}"));
    engine.send("go");
    assert_eq!(engine.line().as_deref(), Some("set myname tabula"));
    assert_eq!(engine.line().as_deref(), Some("status tabula is thinking"));
    assert!(
        engine.silent_for(Duration::from_millis(300)),
        "still thinking"
    );
    engine.send("ping 5");
    let chosen = go_answer(&mut engine);
    assert!(legal_after(GAME).contains(&chosen));
    assert_eq!(engine.line().as_deref(), Some("status"));
    assert_eq!(engine.line().as_deref(), Some("pong 5"));
    // A ping with nothing thinking stops nothing later.
    engine.send("set depth 2");
    engine.send("ping 6");
    assert_eq!(engine.line().as_deref(), Some("pong 6"));
    engine.send("hint 1");
    assert_eq!(engine.line().as_deref(), Some("status tabula is thinking"));
    assert!(engine.line().expect("a search line").ends_with(" 0 2"));
    assert_eq!(engine.line().as_deref(), Some("status"));
}

#[test]
fn bad_input_is_logged_and_changes_nothing() {
    let script = [
        "nboard 2",
        "set depth 2",
        "set game (;GM[Othello]BO[8 -- *];)",
        "set game (;GM[Othello]TY[10]BO[8 ---------------------------O*------*O--------------------------- *];)",
        "set game (;GM[Chess];)",
        "move A1",
        "move Q9",
        "set depth zero",
        "hint 0",
        "go",
    ];
    let output = run_with_input(
        &["--protocol", "nboard", "--set", "hash=1"],
        format!("{}\n", script.join("\n")).as_bytes(),
    );
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "set myname tabula");
    assert_eq!(
        lines[1], "status tabula is thinking",
        "no answer to bad input"
    );
    assert!(lines[2].starts_with("nodestats "), "{stdout}");
    let chosen = go_move(lines[3]);
    let start = tabula::games::othello::Position::start();
    assert!(
        start.legal_moves().contains(&chosen),
        "the position is still the start: {chosen}"
    );
    assert_eq!(lines[4..], ["status"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    for said in [
        "set game: bad start board",
        "set game: only 8x8",
        "set game: not an Othello game",
        "move A1: a1 flips no disc",
        "move \"Q9\"",
        "set depth",
        "hint",
    ] {
        assert!(stderr.contains(said), "{said:?} logged in {stderr}");
    }
}

/// A line longer than the protocol's limit is read to its end without being kept,
/// logged, and ignored; the engine goes on.
#[test]
fn an_overlong_line_is_ignored_and_the_engine_goes_on() {
    let mut script = b"nboard 2\nping 1\n".to_vec();
    script.extend(std::iter::repeat_n(b'x', 200_000));
    script.extend_from_slice(b"\nping 2\n");
    let output = run_with_input(&["--protocol", "nboard", "--set", "hash=1"], &script);
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        ["set myname tabula", "pong 1", "pong 2"]
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("longer than"), "{stderr}");
}

/// A session the NBoard GUI held with the engine, recorded line by line (`>` from
/// the GUI, `<` from the engine): greeting, `set game` with NBoard's own GGF (moves
/// as `D3//13.644`, an empty evaluation), `move` lines, `hint 4` and `hint 64`,
/// `go`, `set contempt`, `analyze`, `learn` and a game played to its end.
const RECORDED: &str = include_str!("../fixtures/nboard/gui-session.txt");

/// Replays the recording in step: every GUI line is sent when the GUI sent it, and
/// each engine line recorded is read and compared. Lines whose figures depend on the
/// search (`search`, `===`, `nodestats`, `analysis`) are compared by shape, with
/// the moves checked against the position the GUI's lines set up; all others
/// (`set myname`, `pong`, `status`, `learned`) must be the same text.
#[test]
fn a_recorded_nboard_gui_session_replays() {
    let mut engine = nboard();
    let mut position = None;
    let mut hinted: Vec<Move> = Vec::new();
    for (index, line) in RECORDED.lines().enumerate() {
        let at = format!("fixture line {}", index + 1);
        if let Some(sent) = line.strip_prefix("> ") {
            follow(&mut position, sent);
            engine.send(sent);
        } else if let Some(expected) = line.strip_prefix("< ") {
            let got = engine
                .line()
                .unwrap_or_else(|| panic!("{at}: the engine ended"));
            let legal = position
                .as_ref()
                .map(tabula::games::othello::Position::legal_moves)
                .unwrap_or_default();
            let words: Vec<&str> = got.split(' ').collect();
            match expected.split(' ').next() {
                Some("search") => {
                    assert_eq!(words.len(), 5, "{at}: {got}");
                    assert_eq!(words[0], "search", "{at}: {got}");
                    let mv = ggf::parse_move(words[1]).expect("a move");
                    assert!(legal.contains(&mv), "{at}: {got}");
                    assert!(!hinted.contains(&mv), "{at}: {mv} hinted twice");
                    hinted.push(mv);
                    assert!(words[2].parse::<f64>().is_ok(), "{at}: {got}");
                    assert_eq!(words[3], "0", "{at}: {got}");
                    assert!(words[4].parse::<u32>().is_ok(), "{at}: {got}");
                }
                Some("===") => assert!(legal.contains(&go_move(&got)), "{at}: {got}"),
                Some("nodestats") => {
                    assert_eq!(words.len(), 3, "{at}: {got}");
                    assert_eq!(words[0], "nodestats", "{at}: {got}");
                    assert!(words[1].parse::<u64>().is_ok(), "{at}: {got}");
                    assert!(words[2].parse::<f64>().is_ok(), "{at}: {got}");
                }
                Some("analysis") => {
                    let recorded: Vec<&str> = expected.split(' ').collect();
                    assert_eq!(words[..2], recorded[..2], "{at}: {got}");
                    assert!(words[2].parse::<f64>().is_ok(), "{at}: {got}");
                }
                _ => {
                    assert_eq!(got, expected, "{at}");
                    if got.starts_with("status ") {
                        hinted.clear();
                    }
                }
            }
        }
    }
    engine.close();
    assert_eq!(engine.wait(), Some(0));
}

/// The position after a GUI line: `set game` sets it, `move` plays on it.
fn follow(position: &mut Option<tabula::games::othello::Position>, sent: &str) {
    if let Some(game) = sent.strip_prefix("set game ") {
        *position = Some(
            ggf::read(game)
                .expect("the GUI's game reads")
                .final_position(),
        );
    } else if let Some(text) = sent.strip_prefix("move ") {
        let mv = ggf::parse_move(text).expect("the GUI's move reads");
        let position = position.as_mut().expect("a game was set");
        ggf::play_lenient(position, mv).expect("the GUI's move is legal");
    }
}
