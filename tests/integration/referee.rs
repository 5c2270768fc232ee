//! The arena's referee driven directly, its engines started through the library's
//! client: the fake engine (`tests/fakes/engine.rs`, `relay` and `plain` modes) in
//! front of the real one, misbehaving on purpose. Each game must end with the right
//! termination, loser and fate for the engine that failed.

use std::time::Duration;

use tabula::arena::engine::{Engine, EngineSpec, Failure};
use tabula::arena::referee::{self, Fate, Opening, Rules, Termination, TimeControl};
use tabula::games::GameKind;
use tabula::games::othello::Position;
use tabula::games::{Color, Outcome};

const TABULA: &str = env!("CARGO_BIN_EXE_tabula");
const FAKE: &str = env!("CARGO_BIN_EXE_tabula-fake-engine");

/// Generous: only a real hang waits this long.
const STALL: Duration = Duration::from_secs(30);

/// The fake engine with `args`, shaken hands with for Othello.
fn fake(name: &str, args: &[&str]) -> Engine {
    let spec = EngineSpec {
        name: name.into(),
        program: FAKE.into(),
        args: args.iter().map(|a| (*a).to_string()).collect(),
    };
    Engine::start(&spec, GameKind::Othello, &[], STALL).expect("the fake engine starts")
}

/// A relay to the real engine that misbehaves by `mode` at its `after`-th genmove.
fn relay(name: &str, mode: &str, after: &str) -> Engine {
    fake(name, &["relay", mode, after, TABULA, "--player", "greedy"])
}

fn start() -> Opening {
    Opening::Othello {
        position: Position::start(),
        moves: Some(Vec::new()),
    }
}

fn rules(time: TimeControl) -> Rules {
    Rules {
        time: [time; 2],
        margin: Duration::from_millis(200),
        stall: STALL,
        max_turns: None,
    }
}

#[test]
fn well_behaved_engines_play_a_whole_game() {
    let (mut black, mut white) = (relay("a", "none", "1"), relay("b", "none", "1"));
    let result = referee::play(&start(), &mut black, &mut white, rules(TimeControl::None));
    assert_eq!(result.termination, Termination::Normal, "{}", result.reason);
    assert!(result.moves.len() >= 9, "{:?}", result.moves);
    assert_eq!(result.fates, [Fate::Keep; 2]);
}

#[test]
fn failures_lose_the_game_with_the_right_termination_and_fate() {
    for (mode, termination, fate) in [
        ("crash", Termination::Crash, Fate::Restart),
        ("garbage", Termination::ProtocolError, Fate::Restart),
        ("illegal", Termination::IllegalMove, Fate::Keep),
    ] {
        let (mut black, mut white) = (relay("good", "none", "1"), relay("bad", mode, "2"));
        let result = referee::play(&start(), &mut black, &mut white, rules(TimeControl::None));
        assert_eq!(result.termination, termination, "{mode}: {}", result.reason);
        assert_eq!(
            result.outcome,
            Outcome::Won(Color::Black),
            "{mode}: {}",
            result.reason
        );
        assert_eq!(result.fates, [Fate::Keep, fate], "{mode}");
    }
}

#[test]
fn an_answer_with_an_id_is_a_protocol_error() {
    let spec = EngineSpec {
        name: "ids".into(),
        program: FAKE.into(),
        args: vec!["plain".into(), "--wrong-id".into()],
    };
    let failure = Engine::start(&spec, GameKind::Othello, &[], STALL)
        .err()
        .expect("the handshake fails");
    assert_eq!(failure, Failure::WrongId("=99 2".into()));
    let result = referee::unstarted([None, Some(failure)]);
    assert_eq!(result.termination, Termination::ProtocolError);
    assert_eq!(result.outcome, Outcome::Won(Color::Black));
}

#[test]
fn a_late_answer_is_drained_after_a_time_forfeit_and_the_engine_plays_on() {
    let mut black = relay("good", "none", "1");
    let mut white = fake(
        "late",
        &[
            "relay",
            "--interrupt",
            "hang",
            "1",
            TABULA,
            "--player",
            "greedy",
        ],
    );
    let time = TimeControl::MoveTime { ms: 200 };
    let result = referee::play(&start(), &mut black, &mut white, rules(time));
    assert_eq!(
        result.termination,
        Termination::TimeForfeit,
        "{}",
        result.reason
    );
    assert_eq!(result.outcome, Outcome::Won(Color::Black));
    assert_eq!(result.fates, [Fate::Keep, Fate::Drain]);
    // `# interrupt` makes it answer the move it owes; then it is in step again.
    white.drain(STALL).expect("the late answer is read");
    assert_eq!(white.ask("protocol_version", STALL), Ok("2".to_string()));
}
