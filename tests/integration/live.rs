//! `tabula-analyze`: the live analysis a GTP GUI reads in the shape of `lz-analyze`,
//! streamed until the next command, an interrupt or the end of input.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::Duration;

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the tabula binary starts")
}

/// Sends `before`, waits `wait`, sends `after` and closes the input; returns every
/// line the engine wrote.
fn session(before: &str, wait: Duration, after: &str) -> Vec<String> {
    session_with(&[], before, wait, after)
}

/// [`session`] with the engine started with `args`.
fn session_with(args: &[&str], before: &str, wait: Duration, after: &str) -> Vec<String> {
    let mut child = spawn(args);
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin.write_all(before.as_bytes()).expect("written");
    stdin.flush().expect("flushed");
    thread::sleep(wait);
    stdin.write_all(after.as_bytes()).expect("written");
    drop(stdin);
    let stdout = child.stdout.take().expect("stdout is piped");
    let lines = BufReader::new(stdout)
        .lines()
        .map(|line| line.expect("UTF-8"))
        .collect();
    child.wait().expect("the engine ends");
    lines
}

/// The update lines of the stream that starts with the line `head`: the lines after
/// it up to the empty line that ends the answer.
fn updates<'a>(lines: &'a [String], head: &str) -> Vec<&'a str> {
    let start = lines
        .iter()
        .position(|line| line == head)
        .unwrap_or_else(|| panic!("no {head:?} line in {lines:?}"));
    lines[start + 1..]
        .iter()
        .take_while(|line| !line.is_empty())
        .map(String::as_str)
        .collect()
}

/// The entries of one update: per `info`, its key-value words.
fn entries(update: &str) -> Vec<Vec<&str>> {
    update
        .split("info ")
        .filter(|part| !part.trim().is_empty())
        .map(|part| part.split_whitespace().collect())
        .collect()
}

fn value<'a>(entry: &[&'a str], key: &str) -> &'a str {
    let at = entry
        .iter()
        .position(|word| *word == key)
        .unwrap_or_else(|| panic!("no {key} in {entry:?}"));
    entry[at + 1]
}

/// The moves an update names, sorted.
fn moves(update: &str) -> Vec<&str> {
    let mut moves: Vec<&str> = entries(update)
        .iter()
        .map(|entry| value(entry, "move"))
        .collect();
    moves.sort_unstable();
    moves
}

#[test]
fn othello_streams_every_move_with_its_line_until_the_next_command() {
    let lines = session(
        "set_game othello\n7 tabula-analyze 5\n",
        Duration::from_millis(600),
        "name\n",
    );
    let stream = updates(&lines, "=7");
    assert!(stream.len() >= 2, "updates every 50 ms: {stream:?}");
    for update in &stream {
        assert_eq!(
            moves(update),
            ["c4", "d3", "e6", "f5"],
            "the four opening moves"
        );
        for (order, entry) in entries(update).iter().enumerate() {
            assert_eq!(value(entry, "order"), order.to_string());
            let pv_at = entry.iter().position(|w| *w == "pv").expect("a pv");
            assert_eq!(
                entry[pv_at + 1],
                value(entry, "move"),
                "the pv starts with the move"
            );
            let depth: usize = value(entry, "depth").parse().expect("a depth");
            assert!(entry.len() - pv_at - 1 <= depth.max(1));
            value(entry, "score").parse::<f64>().expect("a number");
        }
    }
    // The analysis deepens.
    let depth = |update: &str| -> u32 { value(&entries(update)[0], "depth").parse().unwrap() };
    assert!(depth(stream[stream.len() - 1]) >= depth(stream[0]));
    // The next command is answered after the empty line that ends the stream.
    let end = lines.iter().position(|l| l == "=7").unwrap() + stream.len() + 1;
    assert_eq!(lines[end], "");
    assert_eq!(lines[end + 1], "= tabula");
}

#[test]
fn an_interrupt_or_the_end_of_input_ends_the_stream_after_one_update() {
    let lines = session(
        "set_game othello\ntabula-analyze 1000\n",
        Duration::from_millis(300),
        "# interrupt\nname\n",
    );
    assert_eq!(updates(&lines, "=").len(), 1, "{lines:?}");
    assert!(lines.iter().any(|l| l == "= tabula"));
    let piped = session("set_game othello\ntabula-analyze\n", Duration::ZERO, "");
    let stream = updates(&piped, "=");
    assert_eq!(stream.len(), 1, "{piped:?}");
    assert!(stream[0].starts_with("info move "));
}

#[test]
fn a_refused_analysis_is_an_ordinary_error_and_streams_nothing() {
    let lines = session(
        "set_game othello\n3 tabula-analyze white 10\nname\n",
        Duration::ZERO,
        "",
    );
    assert_eq!(
        lines,
        ["= ", "", "?3 white is not to move", "", "= tabula", ""]
    );
}

#[test]
fn battleship_and_shell_stream_their_probabilities() {
    let lines = session(
        "set_game shell\ntabula-analyze black 10\n",
        Duration::from_millis(400),
        "name\n",
    );
    let stream = updates(&lines, "=");
    assert!(!stream.is_empty());
    let last = entries(stream[stream.len() - 1]);
    let total: f64 = last
        .iter()
        .map(|entry| value(entry, "prob").parse::<f64>().unwrap())
        .sum();
    assert!(
        (total - 1.0).abs() < 0.01,
        "a mixed strategy sums to 1: {total}"
    );
    assert!(stream[stream.len() - 1].contains("iterations "));

    let lines = session(
        "set_game battleship\ntabula-analyze white 10\n",
        Duration::from_millis(300),
        "name\n",
    );
    let stream = updates(&lines, "=");
    let last = entries(stream[stream.len() - 1]);
    assert_eq!(last.len(), 100, "every cell of an untouched sea");
    assert_eq!(value(&last[0], "weight"), "1.0000");
    for pair in last.windows(2) {
        let w = |e: &[&str]| value(e, "weight").parse::<f64>().unwrap();
        assert!(w(&pair[0]) >= w(&pair[1]), "largest first");
    }
}

/// `lz-analyze` is what GTP GUIs built for Go engines (q5Go, Lizzie, Sabaki) look
/// for in `known_command`/`list_commands`; they read `visits` and `winrate` (in
/// hundredths of a percent, for the side to move) by key, need them followed by
/// more fields (q5Go's patterns want a space after each value), and read squares in
/// capitals.
#[test]
fn lz_analyze_streams_visits_and_winrates_in_leela_zeros_shape() {
    let lines = session(
        "known_command lz-analyze\nset_game othello\nplay b d3\n4 lz-analyze white 5\n",
        Duration::from_millis(600),
        "name\n",
    );
    assert_eq!(lines[0], "= true");
    let stream = updates(&lines, "=4");
    assert!(stream.len() >= 2, "updates every 50 ms: {stream:?}");
    for update in &stream {
        assert_eq!(
            moves(update),
            ["C3", "C5", "E3"],
            "white's answers to d3, in capitals"
        );
        let entries = entries(update);
        let mut best = u32::MAX;
        for (order, entry) in entries.iter().enumerate() {
            assert_eq!(&entry[..2], ["move", value(entry, "move")]);
            assert_eq!(entry[2], "visits", "{entry:?}");
            assert_eq!(entry[4], "winrate", "{entry:?}");
            let visits: i32 = value(entry, "visits").parse().expect("a 32-bit count");
            assert!(visits > 0);
            let winrate: u32 = value(entry, "winrate").parse().expect("an integer");
            assert!(winrate <= 10_000);
            assert!(winrate <= best, "best first: {update}");
            best = winrate;
            let score: f64 = value(entry, "score").parse().unwrap();
            assert_eq!(winrate > 5_000, score > 0.0, "{entry:?}");
            assert_eq!(value(entry, "order"), order.to_string());
            let pv_at = entry.iter().position(|w| *w == "pv").expect("a pv");
            assert_eq!(entry[pv_at + 1], value(entry, "move"));
            assert!(
                entry[pv_at + 1..]
                    .iter()
                    .all(|mv| mv.chars().all(|c| !c.is_ascii_lowercase())),
                "{entry:?}"
            );
        }
    }
    assert_eq!(lines[lines.len() - 2], "= tabula");
}

#[test]
fn lz_analyze_is_othellos_and_a_solved_position_has_certain_winrates() {
    let lines = session("set_game battleship\n2 lz-analyze\n", Duration::ZERO, "");
    assert_eq!(
        lines,
        ["= ", "", "?2 lz-analyze is not a command of battleship", ""]
    );
    // Black to move with one empty square left: the score is exact.
    let lines = session(
        concat!(
            "set_game othello\n",
            "set_position XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO- X\n",
            "lz-analyze 1\n",
        ),
        Duration::from_millis(200),
        "",
    );
    assert_eq!(lines[..4], ["= ", "", "= ", ""], "the position is set");
    let stream = updates(&lines, "=");
    let entries = entries(stream[stream.len() - 1]);
    assert_eq!(value(&entries[0], "move"), "H8");
    assert_eq!(value(&entries[0], "exact"), "true");
    assert_eq!(value(&entries[0], "winrate"), "10000");
}

/// Under `coordinates gogui` every Othello square the protocol writes is in GoGui's
/// rows; GUIs that number rows from the bottom play and read the same squares.
#[test]
fn under_gogui_coordinates_the_live_analysis_names_gogui_rows() {
    for command in ["tabula-analyze", "lz-analyze"] {
        let lines = session_with(
            &["--game", "othello", "--set", "coordinates=gogui"],
            &format!("play b D6\n{command} 1\n"),
            Duration::from_millis(300),
            "",
        );
        let stream = updates(&lines, "=");
        for update in stream {
            let moves: Vec<String> = moves(update)
                .iter()
                .map(|m| m.to_ascii_lowercase())
                .collect();
            assert_eq!(moves, ["c4", "c6", "e6"], "{command}: {update}");
        }
    }
}
