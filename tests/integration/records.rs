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
