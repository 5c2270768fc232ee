//! The command line: flags that take names list them in `--help`, refuse a typo with
//! clap's message before anything runs, and `--game` appears only where a game is
//! played.

use std::process::{Command, Output, Stdio};

use crate::common::Engine;

/// Runs `tabula ARGS` with stdin closed.
fn tabula(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the tabula binary starts")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `args` fails as a usage error (exit status 2) whose message names `value` as
/// invalid for `flag` and lists `values`; nothing is printed on stdout.
fn refused_before_the_run(args: &[&str], value: &str, flag: &str, values: &str) {
    let output = tabula(args);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.contains(&format!("invalid value '{value}' for '{flag}")),
        "{args:?}: {stderr}"
    );
    assert!(
        stderr.contains(&format!("[possible values: {values}]")),
        "{args:?}: {stderr}"
    );
    assert_eq!(text(&output.stdout), "", "{args:?}");
}

const GAMES: &str = "othello, battleship, shell";
const LEVELS: &str = "off, error, warn, info, debug, trace";

#[test]
fn a_misspelt_name_fails_with_the_list_of_values() {
    refused_before_the_run(&["--game", "othelo"], "othelo", "--game", GAMES);
    refused_before_the_run(
        &["--player", "gredy"],
        "gredy",
        "--player",
        "default, random, greedy, simple, windows, windows1, windows2, windows3, windows4, windows5, windows6, windows7, tactician",
    );
    refused_before_the_run(
        &["--protocol", "nbord"],
        "nbord",
        "--protocol",
        "gtp, nboard",
    );
    refused_before_the_run(
        &["bench", "--log-level", "verbose"],
        "verbose",
        "--log-level",
        LEVELS,
    );
    let arena = ["arena", "--engine", "a=true", "--engine", "b=true"];
    refused_before_the_run(
        &[&arena[..], &["--game", "chess"]].concat(),
        "chess",
        "--game",
        GAMES,
    );
    refused_before_the_run(
        &[&arena[..], &["--tournament", "gantlet"]].concat(),
        "gantlet",
        "--tournament",
        "round-robin, gauntlet",
    );
    // Without the check, each of these would start a long benchmark.
    refused_before_the_run(
        &["bench", "othello", "--eval", "hnd"],
        "hnd",
        "--eval",
        "hand, pattern",
    );
    refused_before_the_run(
        &["bench", "shell", "--selection", "uxt"],
        "uxt",
        "--selection",
        "rm, uct",
    );
    refused_before_the_run(
        &["bench", "shell", "--playout", "twos"],
        "twos",
        "--playout",
        "fours, threes",
    );
    refused_before_the_run(
        &[
            "bench",
            "shell",
            "--exploit",
            "2",
            "--exploit-against",
            "windows,gnugo",
        ],
        "gnugo",
        "--exploit-against",
        "windows, greedy, search",
    );
    refused_before_the_run(
        &["bench", "clock", "--clock-for", "othello,chess"],
        "chess",
        "--clock-for",
        GAMES,
    );
    refused_before_the_run(
        &["bench", "perf"],
        "perf",
        "[WHAT]",
        "perft, othello, battleship, shell, clock, serve",
    );
}

#[test]
fn a_misspelt_evaluation_writes_no_training_data() {
    let folder = std::env::temp_dir().join(format!("tabula-cli-{}", std::process::id()));
    let out = folder.join("data.bin");
    let out_text = out.to_string_lossy().into_owned();
    let args = [
        "train", "selfplay", "--games", "1", "--eval", "patern", "--out", &out_text,
    ];
    refused_before_the_run(&args, "patern", "--eval", "hand, pattern");
    assert!(!out.exists(), "no data file is made");
}

#[test]
fn help_lists_the_values_of_every_named_flag() {
    let help = |args: &[&str]| {
        let output = tabula(args);
        assert!(output.status.success(), "{args:?}");
        text(&output.stdout)
    };
    let top = help(&["--help"]);
    for values in [
        GAMES,
        "default, random, greedy, simple, windows, windows1, windows2, windows3, windows4, windows5, windows6, windows7, tactician",
        LEVELS,
    ] {
        assert!(
            top.contains(&format!("[possible values: {values}]")),
            "{top}"
        );
    }
    for protocol in ["gtp", "nboard"] {
        assert!(top.contains(&format!("- {protocol}:")), "{top}");
    }
    let arena = help(&["arena", "--help"]);
    for values in [GAMES, "round-robin, gauntlet"] {
        assert!(
            arena.contains(&format!("[possible values: {values}]")),
            "{arena}"
        );
    }
    let bench = help(&["bench", "--help"]);
    for values in ["hand, pattern", "rm, uct", GAMES] {
        assert!(
            bench.contains(&format!("[possible values: {values}]")),
            "{bench}"
        );
    }
    for what in ["perft", "othello", "battleship", "shell", "clock", "serve"] {
        assert!(bench.contains(&format!("- {what}:")), "{bench}");
    }
    let selfplay = help(&["train", "selfplay", "--help"]);
    assert!(
        selfplay.contains("[possible values: hand, pattern]"),
        "{selfplay}"
    );
}

#[test]
fn game_is_a_flag_of_the_engine_and_the_arena_only() {
    for args in [&["--help"][..], &["arena", "--help"]] {
        let help = text(&tabula(args).stdout);
        assert!(help.contains("--game <GAME>"), "{args:?}: {help}");
    }
    for tool in ["bench", "conformance", "train"] {
        let help = text(&tabula(&[tool, "--help"]).stdout);
        assert!(!help.contains("--game "), "{tool}: {help}");
        let output = tabula(&[tool, "--game", "othello"]);
        assert_eq!(output.status.code(), Some(2), "{tool} --game is refused");
        assert!(text(&output.stderr).contains("unexpected argument '--game'"));
    }
}

#[test]
fn the_game_reaches_the_arena_before_or_after_its_name() {
    // An NBoard engine plays only Othello: the arena refuses it, before starting any
    // engine, whichever way the game was named.
    let engines = [
        "--engine",
        "name=a",
        "cmd=true",
        "proto=nboard",
        "--engine",
        "name=b",
        "cmd=true",
    ];
    for args in [
        [&["--game", "shell", "arena"][..], &engines[..]].concat(),
        [&["arena", "--game", "shell"][..], &engines[..]].concat(),
    ] {
        let output = tabula(&args);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("proto=nboard plays only othello"),
            "{stderr}"
        );
    }
}

#[test]
fn names_keep_being_read_in_any_case() {
    // Shell's board is 9 by 9: the engine plays the game named in capitals.
    let mut engine = Engine::start(&["--game", "SHELL", "--player", "Greedy"]);
    engine.ok("boardsize 9");
    assert_eq!(engine.refused("boardsize 8"), "unacceptable size");
}

/// `bench shell --exploit` plays the two-turn exploiter against the opponents it is
/// asked for only, games shared between threads: against the predictable
/// threat-builder it wins every game. `--show-losses` prints each game the exploiter
/// does not lose, turn by turn, on stderr.
#[test]
fn the_exploiter_bench_plays_the_opponents_it_is_given() {
    let output = tabula(&[
        "bench",
        "shell",
        "--exploit",
        "4",
        "--exploit-depth",
        "2",
        "--exploit-against",
        "windows",
        "--exploit-jobs",
        "2",
        "--show-losses",
    ]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{stdout}");
    assert!(lines[0].contains("--exploit-depth 2 "), "{stdout}");
    // One line per game as it ends (in whatever order the threads finish them).
    let mut games: Vec<&str> = lines[1..5].to_vec();
    games.sort_unstable();
    for (n, line) in games.iter().enumerate() {
        assert!(
            line.starts_with(&format!("game {n} exploiter ")),
            "{stdout}"
        );
        assert!(line.ends_with("vs windows: win"), "{stdout}");
    }
    assert!(
        lines[5].starts_with("exploiter vs windows 4 games: 4 wins 0 draws 0 losses"),
        "{stdout}"
    );
    // Each won game's record: its turns in order, each with both picks and the board
    // after it; the last board holds the exploiter's five (S2): five of its turtles.
    let stderr = text(&output.stderr);
    for n in 0..4 {
        let header = format!("game {n}: win");
        let record: Vec<&str> = stderr
            .lines()
            .skip_while(|line| *line != header)
            .skip(1)
            .take_while(|line| line.starts_with("  turn "))
            .collect();
        assert!(!record.is_empty(), "{header} missing: {stderr}");
        for (turn, line) in record.iter().enumerate() {
            assert!(
                line.starts_with(&format!("  turn {:2} exploiter ", turn + 1)),
                "{stderr}"
            );
            assert!(line.contains(" windows "), "{stderr}");
        }
        let last = record[record.len() - 1];
        let board = last.rsplit(": ").next().unwrap_or_default();
        let cells = board.split(' ').next().unwrap_or_default();
        assert_eq!(cells.len(), 81, "{last}");
        let mine = if n % 2 == 0 { 'X' } else { 'O' };
        assert!(cells.chars().filter(|&c| c == mine).count() >= 5, "{last}");
    }
}

/// `bench shell --exploit-positions` values the exploiter's best response against the
/// search player in sampled positions: one line each (a value in −1..1 and the
/// position, still being played), then their mean; the positions depend on the seed
/// only, not on the player's flags, so two runs are paired, and `--exploit-baseline`
/// reads the first run's report and prints the paired difference. The command line
/// it prints names the player's flags, and run again it gives the same values.
#[test]
fn the_exploiters_values_are_taken_in_the_same_positions_for_any_player() {
    // (index, notation) of each position, the position lines, the printed command,
    // the values by index and the whole report.
    let run = |args: &[&str]| {
        let output = tabula(args);
        let stdout = text(&output.stdout);
        assert!(output.status.success(), "{stdout}");
        let mut positions: Vec<(u32, String)> = Vec::new();
        let mut values = Vec::new();
        let lines: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with("position "))
            .collect();
        for &line in &lines {
            let index: u32 = line
                .split(' ')
                .nth(1)
                .and_then(|n| n.parse().ok())
                .expect(line);
            let value: f64 = line
                .split("exploiter's value ")
                .nth(1)
                .and_then(|rest| rest.split(':').next())
                .and_then(|v| v.trim_start_matches('+').parse().ok())
                .expect(line);
            assert!((-1.0..=1.0).contains(&value), "{line}");
            values.push(value);
            let notation = line.rsplit(": ").next().unwrap_or_default().to_string();
            assert_eq!(notation.split(' ').next().map(str::len), Some(81), "{line}");
            positions.push((index, notation));
        }
        assert_eq!(positions.len(), 2, "{stdout}");
        let mean = values.iter().sum::<f64>() / 2.0;
        // The mean of the values as printed (rounded to 4 places).
        let last = stdout
            .lines()
            .find(|l| l.starts_with("exploiter's value against"))
            .unwrap_or_default();
        let printed: f64 = last
            .strip_prefix("exploiter's value against search over 2 positions: mean ")
            .and_then(|rest| rest.split(' ').next())
            .and_then(|m| m.trim_start_matches('+').parse().ok())
            .expect(last);
        assert!((printed - mean).abs() <= 1e-4, "{stdout}");
        positions.sort();
        let mut lines: Vec<String> = lines.into_iter().map(str::to_string).collect();
        lines.sort();
        let command = stdout.lines().next().unwrap_or_default().to_string();
        let by_index: Vec<(u32, f64)> = positions
            .iter()
            .map(|(index, _)| *index)
            .zip(values)
            .collect();
        (positions, lines, command, by_index, stdout)
    };
    let dir = std::env::temp_dir().join(format!("tabula-exploit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let baseline = dir.join("baseline.out");
    let baseline_arg = baseline.to_str().expect("a UTF-8 path").to_string();
    let with_threshold = |threshold: &'static str, baseline: Option<&str>| {
        let mut args = vec![
            "bench",
            "shell",
            "--exploit-positions",
            "2",
            "--exploit-depth",
            "1",
            "--exploit-samples",
            "2",
            "--exploit-jobs",
            "2",
            "--iterations",
            "200",
            "--movetime",
            "0",
            "--threshold",
            threshold,
            "--seed",
            "3",
        ];
        if let Some(path) = baseline {
            args.extend(["--exploit-baseline", path]);
        }
        run(&args)
    };
    let (first, _, _, first_values, report) = with_threshold("0.05", None);
    std::fs::write(&baseline, &report).expect("the baseline written");
    let (second, lines, command, second_values, report) =
        with_threshold("0.3", Some(&baseline_arg));
    assert_eq!(first, second);
    // The paired line: the mean of this run's values minus the baseline's, index by
    // index (positions may finish in either order).
    let by_index = |values: &[(u32, f64)], index: u32| {
        values
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, v)| *v)
            .expect("paired")
    };
    let difference = [0, 1]
        .iter()
        .map(|&i| by_index(&second_values, i) - by_index(&first_values, i))
        .sum::<f64>()
        / 2.0;
    let paired = report.lines().last().unwrap_or_default();
    let prefix = format!("paired against {baseline_arg} over 2 positions: difference ");
    let printed: f64 = paired
        .strip_prefix(&prefix)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|d| d.trim_start_matches('+').parse().ok())
        .expect(paired);
    assert!((printed - difference).abs() <= 1e-4, "{report}");
    // Sampled from play: each position has stones on it.
    for (_, notation) in &first {
        assert!(notation.chars().take(81).any(|c| c != '-'), "{notation}");
    }
    assert!(command.contains(" --threshold 0.3 "), "{command}");
    let again: Vec<&str> = command
        .strip_prefix("command: tabula ")
        .expect(&command)
        .split(' ')
        .collect();
    let (_, lines_again, command_again, _, report_again) = run(&again);
    assert_eq!(lines, lines_again);
    assert_eq!(command, command_again);
    assert_eq!(report.lines().last(), report_again.lines().last());
    // Against its own report a run differs by nothing.
    std::fs::write(&baseline, &report).expect("the baseline written");
    let (_, _, _, _, report_self) = run(&again);
    assert!(
        report_self.lines().last().is_some_and(|l| l.ends_with(
            "difference +0.0000 (se 0.0000), higher in 0, lower in 0"
        )),
        "{report_self}"
    );
    // A baseline that is not a report is refused before anything runs.
    std::fs::write(&baseline, "nothing here\n").expect("the baseline written");
    let output = tabula(&again);
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("has no position lines"),
        "{}",
        text(&output.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bench's report read by a reader that stops after its first line (as `| head -1`
/// does) ends the bench quietly: no panic on the closed pipe, nothing on stderr.
#[test]
fn a_bench_piped_into_a_reader_that_stops_ends_quietly() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args([
            "bench",
            "shell",
            "--exploit",
            "40",
            "--exploit-against",
            "windows",
            "--exploit-depth",
            "1",
            "--iterations",
            "500",
            "--movetime",
            "0",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tabula binary starts");
    let mut first = String::new();
    let stdout = child.stdout.take().expect("piped stdout");
    BufReader::new(stdout)
        .read_line(&mut first)
        .expect("the first line");
    // The reader closes the pipe while the games still run.
    assert!(first.starts_with("command: tabula bench shell"), "{first}");
    let output = child.wait_with_output().expect("the bench ends");
    let stderr = text(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}
