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
    let mut child = spawn(&[]);
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
        let mut moves: Vec<&str> = entries(update)
            .iter()
            .map(|entry| value(entry, "move"))
            .collect();
        moves.sort_unstable();
        assert_eq!(moves, ["c4", "d3", "e6", "f5"], "the four opening moves");
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
