//! Othello records through the protocol: transcripts, GGF loaded and saved.

use tabula::games::othello::{Move, Position, ggf};

use crate::common::Engine;

fn after(moves: &[&str]) -> Position {
    let mut position = Position::start();
    for mv in moves {
        let side = position.side_to_move();
        position
            .play(side, Move::parse(mv).expect("a move"))
            .expect("legal");
    }
    position
}

#[test]
fn a_transcript_plays_move_by_move_and_undoes_one_at_a_time() {
    let mut engine = Engine::othello();
    engine.ok("play_sequence f5d6C3 d3c4");
    let moves = ["f5", "d6", "c3", "d3", "c4"];
    assert_eq!(engine.ok("position"), after(&moves).to_notation());
    engine.ok("undo");
    assert_eq!(engine.ok("position"), after(&moves[..4]).to_notation());
    // A refused transcript changes nothing, even when its first moves are legal.
    let before = engine.ok("position");
    assert!(
        engine
            .refused("play_sequence c4a1")
            .contains("illegal move 2")
    );
    assert!(engine.refused("play_sequence c4z").contains("syntax error"));
    assert_eq!(engine.ok("position"), before);
    let mut shell = Engine::start(&["--game", "shell"]);
    assert!(
        shell
            .refused("play_sequence e5")
            .contains("not a command of shell")
    );
}

#[test]
fn a_transcript_may_leave_forced_passes_out() {
    // White has no move, black has h8: `h8` at once stands for white's pass and h8.
    let notation = format!(
        "{}OXXXXXXX{}XXXXXXXOXXXXXX-- O",
        "X".repeat(24),
        "X".repeat(16)
    );
    let mut engine = Engine::othello();
    engine.ok(&format!("set_position {notation}"));
    engine.ok("play_sequence h8");
    let mut position = Position::from_notation(&notation).expect("valid");
    position
        .play(position.side_to_move(), Move::Pass)
        .expect("forced");
    position
        .play(position.side_to_move(), Move::parse("h8").expect("a move"))
        .expect("legal");
    assert_eq!(engine.ok("position"), position.to_notation());
    engine.ok("undo");
    assert_eq!(
        engine.ok("all_legal black"),
        "h8",
        "undo takes back h8 alone"
    );
}

#[test]
fn ggf_loads_saves_and_reloads_the_same_game() {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/othello.ggf");
    let mut engine = Engine::othello();
    engine.ok(&format!("loadggf {fixture}"));
    let moves = ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3"];
    assert_eq!(engine.ok("position"), after(&moves).to_notation());
    let saved = engine.ok("saveggf");
    let record = ggf::read(&saved).expect("saveggf writes GGF");
    assert_eq!(record.start, Position::start());
    assert_eq!(record.final_position(), after(&moves));
    assert_eq!(record.moves.len(), 8);
    // Back to the start one move at a time.
    for _ in 0..8 {
        engine.ok("undo");
    }
    assert_eq!(engine.ok("position"), Position::start().to_notation());
    assert!(engine.refused("undo").contains("cannot undo"));

    let dir = std::env::temp_dir().join(format!("tabula-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("saved.ggf");
    std::fs::write(&path, &saved).expect("written");
    let bad = dir.join("bad.ggf");
    std::fs::write(&bad, "(;GM[Othello]TY[10];)").expect("written");
    let mut fresh = Engine::othello();
    fresh.ok("play b f5");
    let before = fresh.ok("position");
    assert!(
        fresh
            .refused(&format!("loadggf {}", bad.display()))
            .contains("8x8")
    );
    assert!(
        fresh
            .refused("loadggf /no/such/file.ggf")
            .contains("cannot read")
    );
    assert_eq!(
        fresh.ok("position"),
        before,
        "a refused load changes nothing"
    );
    fresh.ok(&format!("loadggf {}", path.display()));
    assert_eq!(fresh.ok("saveggf"), saved);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gogui_colour_and_move_pairs_are_a_sequence_too() {
    // GoGui synchronises with `play_sequence b F5 w D6 …` when an engine lists it.
    let mut engine = Engine::othello();
    engine.ok("play_sequence B F5 w d6 b C3");
    assert_eq!(
        engine.ok("position"),
        after(&["f5", "d6", "c3"]).to_notation()
    );
    let before = engine.ok("position");
    assert!(
        engine
            .refused("play_sequence b d3")
            .contains("white is to move")
    );
    assert!(
        engine
            .refused("play_sequence w d3 b")
            .contains("syntax error")
    );
    assert_eq!(engine.ok("position"), before);
    // In GoGui's rows the squares are mirrored like every other move.
    let mut gogui = Engine::othello();
    gogui.ok("set_option coordinates gogui");
    gogui.ok("play_sequence b F4 w D3 b C6");
    assert_eq!(
        gogui.ok("position"),
        after(&["f5", "d6", "c3"]).to_notation()
    );
    assert!(
        gogui
            .refused("play_sequence w A8")
            .contains("a8 flips no disc")
    );
}

#[test]
fn the_arena_writes_othello_records_as_ggf_lines() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("arena-ggf");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("games.ggf");
    let me = env!("CARGO_BIN_EXE_tabula");
    let arena = |game: &str| {
        std::process::Command::new(me)
            .args([
                "arena",
                "--game",
                game,
                "--games",
                "4",
                "--random-plies",
                "2",
            ])
            .args(["--engine", &format!("greedy={me} --player greedy")])
            .args(["--engine", &format!("random={me} --player random")])
            .args([
                "--records",
                path.to_str().expect("UTF-8"),
                "--records-format",
                "ggf",
            ])
            .output()
            .expect("tabula runs")
    };
    let output = arena("othello");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&path).expect("the records");
    let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 4, "{text}");
    for (i, line) in lines.iter().enumerate() {
        let game = ggf::read(line).unwrap_or_else(|e| panic!("game {}: {e}: {line}", i + 1));
        let end = game.final_position();
        assert!(end.is_over(), "played out: {line}");
        assert_ne!(
            game.start,
            Position::start(),
            "the random opening is the start"
        );
        let property = |key: &str| {
            game.properties
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
        };
        // Colours swap within each pair of games.
        let (black, white) = if i % 2 == 0 {
            ("greedy", "random")
        } else {
            ("random", "greedy")
        };
        assert_eq!(property("PB").as_deref(), Some(black), "{line}");
        assert_eq!(property("PW").as_deref(), Some(white), "{line}");
        assert_eq!(
            property("RE"),
            Some(format!("{:+}", end.final_margin())),
            "black's margin: {line}"
        );
    }
    // GGF holds Othello games only.
    let refused = arena("battleship");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("Othello games only"));
}
