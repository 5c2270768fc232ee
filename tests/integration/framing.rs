//! GTP 2 framing and error paths through the real binary (CONTRACT.md "Framing").

use crate::common::{Answer, Engine};

#[test]
fn ids_are_echoed_and_answers_end_with_an_empty_line() {
    let mut engine = Engine::othello();
    assert_eq!(
        engine.ask("7 protocol_version"),
        Answer {
            ok: true,
            id: Some(7),
            text: "2".into()
        }
    );
    assert_eq!(
        engine.ask("name"),
        Answer {
            ok: true,
            id: None,
            text: "tabula".into()
        }
    );
    assert_eq!(engine.ok("version"), env!("CARGO_PKG_VERSION"));
    assert_eq!(
        engine.ask("8 nonsense"),
        Answer {
            ok: false,
            id: Some(8),
            text: "unknown command".into()
        }
    );
}

#[test]
fn comments_tabs_crlf_and_empty_lines_are_preprocessed() {
    let mut engine = Engine::othello();
    // Empty and comment-only lines get no answer: the next answer is protocol_version's.
    engine.send_raw(b"\n   \n# a comment\n\t\n");
    engine.send_raw(b"3\tprotocol_version # trailing comment\r\n");
    assert_eq!(
        engine.answer(),
        Answer {
            ok: true,
            id: Some(3),
            text: "2".into()
        }
    );
    engine.send_raw(b"4 kno\x01wn_command\tplay\r\n");
    assert_eq!(
        engine.answer(),
        Answer {
            ok: true,
            id: Some(4),
            text: "true".into()
        }
    );
}

#[test]
fn list_commands_and_known_command_agree() {
    let mut engine = Engine::othello();
    let list = engine.ok("list_commands");
    let names: Vec<&str> = list.lines().collect();
    for required in [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "list_games",
        "set_game",
        "clear_board",
        "boardsize",
        "showboard",
        "position",
        "set_position",
        "play",
        "genmove",
        "reg_genmove",
        "all_legal",
        "is_legal",
        "undo",
        "status",
        "final_score",
        "time_settings",
        "kgs-time_settings",
        "time_left",
        "set_option",
        "perft",
    ] {
        assert!(names.contains(&required), "list_commands lacks {required}");
    }
    for name in &names {
        assert_eq!(
            engine.ok(&format!("known_command {name}")),
            "true",
            "{name}"
        );
    }
    assert_eq!(engine.ok("known_command frobnicate"), "false");
    assert_eq!(engine.ok("list_games"), "othello\nbattleship\nshell");
}

#[test]
fn multi_line_answers_have_no_empty_line() {
    let mut engine = Engine::othello();
    let board = engine.ok("showboard");
    assert!(
        board.lines().skip(1).all(|line| !line.trim().is_empty()),
        "{board:?}"
    );
    assert!(board.contains("a b c d e f g h"));
}

#[test]
fn garbage_gets_an_error_and_the_engine_lives_on() {
    let mut engine = Engine::othello();
    let before = engine.ok("position");
    engine.send_raw(b"play b \xff\xfe\n");
    assert!(!engine.answer().ok);
    engine.send_raw(b"\x00\x00\x00name\x00\n");
    assert_eq!(engine.answer().text, "tabula");
    let mut long = vec![b'a'; 1 << 20];
    long.push(b'\n');
    engine.send_raw(&long);
    let answer = engine.answer();
    assert!(!answer.ok && answer.text.contains("longer"), "{answer:?}");
    engine.send_raw(&[0xc3, 0x28, b' ', 0x80, b'\n']);
    assert!(!engine.answer().ok);
    assert_eq!(engine.ok("position"), before);
    assert_eq!(engine.ok("protocol_version"), "2");
}

#[test]
fn wrong_arguments_are_syntax_errors() {
    let mut engine = Engine::othello();
    for line in [
        "play",
        "play b",
        "play purple d3",
        "boardsize",
        "boardsize x",
        "genmove",
        "perft x",
        "known_command",
        "name extra",
        "time_left b x 0",
        "set_option depth",
    ] {
        let message = engine.refused(line);
        assert!(
            message.starts_with("syntax error"),
            "{line:?} answered {message:?}"
        );
    }
    assert_eq!(engine.refused("set_game chess"), "unknown game");
    assert_eq!(engine.refused("boardsize 19"), "unacceptable size");
    assert_eq!(engine.refused("undo"), "cannot undo");
}

#[test]
fn quit_answers_then_exits_zero() {
    let mut engine = Engine::othello();
    assert_eq!(
        engine.ask("5 quit"),
        Answer {
            ok: true,
            id: Some(5),
            text: String::new()
        }
    );
    assert_eq!(engine.line(), None, "nothing after quit's answer");
    assert_eq!(engine.wait(), Some(0));
}

#[test]
fn end_of_input_ends_the_engine_cleanly() {
    let mut engine = Engine::othello();
    engine.send("name");
    engine.close();
    assert_eq!(engine.answer().text, "tabula");
    assert_eq!(engine.wait(), Some(0));
}

#[test]
fn a_last_line_without_newline_is_still_answered() {
    let mut engine = Engine::othello();
    engine.send_raw(b"9 name");
    engine.close();
    assert_eq!(
        engine.answer(),
        Answer {
            ok: true,
            id: Some(9),
            text: "tabula".into()
        }
    );
    assert_eq!(engine.wait(), Some(0));
}

#[test]
fn options_are_validated() {
    let mut engine = Engine::othello();
    for (name, good, bad) in [
        ("movetime", "100", "-1"),
        ("depth", "3", "0"),
        ("threads", "1", "x"),
        ("hash", "8", "0"),
        ("seed", "42", "-5"),
    ] {
        engine.ok(&format!("set_option {name} {good}"));
        let message = engine.refused(&format!("set_option {name} {bad}"));
        assert!(message.contains(name), "{message}");
    }
    assert!(
        engine
            .refused("set_option colour red")
            .starts_with("unknown option")
    );
}

#[test]
fn any_finite_clock_is_accepted_and_genmove_still_answers() {
    // A clock of 1e300 seconds once overflowed the move's time budget into a panic.
    for game in ["othello", "shell", "battleship"] {
        let mut engine = Engine::start(&["--game", game]);
        engine.ok("set_option movetime 100");
        engine.ok("time_settings 1e300 0 0");
        engine.ok("time_left black 1.7976931348623157e308 0");
        engine.ok("time_left white 1e300 1");
        if game == "battleship" {
            let fleet = engine.ok("genfleet black");
            engine.ok(&format!("fleet black {fleet}"));
            engine.ok("ready white");
            engine.ok("start");
        }
        let reply = engine.ask("genmove black");
        assert!(reply.ok, "{game}: {reply:?}");
        if game == "othello" {
            assert!(
                engine.ok("all_legal white").contains(' '),
                "the move was played"
            );
        }
        assert!(engine.refused("time_left black 1e309 0").contains("syntax"));
        assert!(engine.refused("time_settings nan 0 0").contains("syntax"));
    }
}
