//! The engine as scripts and GUIs drive it: a script piped in gets the answers it
//! would get one command at a time (the end of input is a `quit` after the queue,
//! empty lines and comments never interrupt), and GoGui's `# interrupt` is honoured.

use crate::common::{Engine, run_with_input};

/// Runs `tabula ARGS` with `script` piped to its stdin (closed at once) and returns
/// its answers' texts with their `=`/`?` marks, and its exit code.
fn piped(args: &[&str], script: &str) -> (Vec<String>, Option<i32>) {
    let output = run_with_input(args, script.as_bytes());
    let text = String::from_utf8(output.stdout).expect("UTF-8 answers");
    let answers = text
        .split("\n\n")
        .filter(|a| !a.is_empty())
        .map(str::to_string)
        .collect();
    (answers, output.status.code())
}

/// The same script's commands sent one at a time, each answer awaited; answers in
/// the form `piped` gives them.
fn one_at_a_time(args: &[&str], script: &str) -> Vec<String> {
    let mut engine = Engine::start(args);
    let mut answers = Vec::new();
    for line in script.lines() {
        let text = line.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        let answer = engine.ask(line);
        let mark = if answer.ok { '=' } else { '?' };
        let id = answer.id.map(|id| id.to_string()).unwrap_or_default();
        answers.push(format!("{mark}{id} {}", answer.text));
    }
    answers
}

/// `moves` thinking commands separated by empty lines and comments, after `setup`.
fn script(setup: &[&str], command: impl Fn(usize) -> String, moves: usize) -> String {
    let mut text = String::new();
    for line in setup {
        text.push_str(line);
        text.push('\n');
    }
    for i in 0..moves {
        text.push_str(&command(i));
        text.push_str("\n\n# next move\n\n");
    }
    text
}

#[test]
fn a_piped_othello_script_gets_the_answers_of_one_command_at_a_time() {
    let script = script(
        &["set_option seed 5", "set_option depth 6"],
        |i| format!("{} genmove {}", i + 1, ["black", "white"][i % 2]),
        20,
    );
    let (answers, code) = piped(&[], &script);
    assert_eq!(code, Some(0), "the end of input ends the engine cleanly");
    assert_eq!(answers.len(), 22, "{answers:?}");
    assert_eq!(answers, one_at_a_time(&[], &script));
}

#[test]
fn a_piped_shell_script_gets_the_answers_of_one_command_at_a_time() {
    let mut script = script(
        &["set_option seed 11", "set_option iterations 3000"],
        |i| format!("genmove {}", ["black", "white"][i % 2]),
        6,
    );
    script.push_str("resolve_turn e5 d4\ngenmove black\n");
    let args = ["--game", "shell"];
    let (answers, code) = piped(&args, &script);
    assert_eq!(code, Some(0));
    assert_eq!(answers.len(), 10, "{answers:?}");
    assert_eq!(answers, one_at_a_time(&args, &script));
}

#[test]
fn a_piped_hint_answers_every_move_asked_for() {
    let (answers, code) = piped(&[], "set_option depth 5\nhint 3\n");
    assert_eq!(code, Some(0));
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert!(answers[1].starts_with("= "), "{answers:?}");
    assert_eq!(answers[1].lines().count(), 3, "{answers:?}");
}

#[test]
fn gogui_interrupt_is_advertised_and_harmless() {
    let mut engine = Engine::othello();
    let commands = engine.ok("list_commands");
    assert!(
        commands.lines().any(|c| c == "gogui-interrupt"),
        "{commands}"
    );
    assert_eq!(engine.ok("known_command gogui-interrupt"), "true");
    let before = engine.ok("position");
    assert_eq!(engine.ok("gogui-interrupt"), "");
    assert_eq!(engine.ok("position"), before);
}

#[test]
fn an_interrupt_while_nothing_thinks_changes_nothing_later() {
    let mut engine = Engine::othello();
    engine.send("# interrupt");
    engine.ok("set_option depth 5");
    // The interrupt came before the search: it must not cut this one short.
    let full = engine.ok("hint 2");
    assert_eq!(full.lines().count(), 2, "{full}");
}

#[test]
fn fresh_engines_vary_unless_given_a_seed() {
    let fleet = |setup: &str| {
        let mut engine = Engine::start(&["--game", "battleship"]);
        if !setup.is_empty() {
            engine.ok(setup);
        }
        engine.ok("genfleet black")
    };
    // Two fleets drawn alike by chance: about one in 10^9 or less.
    let (a, b) = (fleet(""), fleet(""));
    assert_ne!(a, b, "two fresh engines placed the same fleet");
    assert_eq!(fleet("set_option seed 7"), fleet("set_option seed 7"));
    let shell = |setup: &str| {
        let mut engine = Engine::start(&["--game", "shell"]);
        engine.ok("set_option iterations 50");
        if !setup.is_empty() {
            engine.ok(setup);
        }
        (0..8)
            .map(|_| engine.ok("genmove black"))
            .collect::<Vec<_>>()
    };
    assert_eq!(shell("set_option seed 3"), shell("set_option seed 3"));
}

#[test]
fn a_piped_perft_counts_to_the_end() {
    // perft honours interrupts, but the end of input is none.
    let (answers, code) = piped(&[], "perft 10\n");
    assert_eq!(code, Some(0));
    assert_eq!(answers, vec!["= 24571284".to_string()]);
}
