//! `tabula arena` through the real binary: real matches of each game, and fake
//! engines (`tests/fakes/arena/fake.py`, relaying to a real engine until they
//! misbehave) that crash, hang, talk garbage, play illegal moves, lie about a shot or
//! overrun their clock. Every game must still end with the right result and reason,
//! and the run must complete with its summary.

use std::process::Command;

const TABULA: &str = env!("CARGO_BIN_EXE_tabula");

/// The fake engine misbehaving by `mode` at its `after`-th genmove.
fn fake(mode: &str, after: u32) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fakes/arena/fake.py");
    format!("bad=python3 {script} {mode} {after} {TABULA}")
}

/// Runs `tabula arena ARGS` and returns its stdout; the run must succeed.
fn arena(args: &[&str]) -> String {
    let output = Command::new(TABULA)
        .arg("arena")
        .args(args)
        .output()
        .expect("the arena runs");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "the arena failed: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// The `Finished game` lines: (number, black, white, result, reason).
fn finished(stdout: &str) -> Vec<(usize, String, String, String, String)> {
    stdout
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("Finished game ")?;
            let (number, rest) = rest.split_once(" (")?;
            let (players, rest) = rest.split_once("): ")?;
            let (black, white) = players.split_once(" vs ")?;
            let (result, reason) = rest.split_once(" {")?;
            Some((
                number.parse().ok()?,
                black.to_string(),
                white.to_string(),
                result.to_string(),
                reason.strip_suffix('}')?.to_string(),
            ))
        })
        .collect()
}

/// The last `Score of A vs B: W - L - D  [S] N` line: (W, L, D, N).
fn score(stdout: &str) -> (u32, u32, u32, u32) {
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("Score of "))
        .expect("a score line");
    let (_, numbers) = line.split_once(": ").expect("Score of A vs B: …");
    let words: Vec<&str> = numbers.split_whitespace().collect();
    let n = |i: usize| words[i].parse::<u32>().expect("a count");
    assert_eq!((words[1], words[3]), ("-", "-"), "{line}");
    assert!(
        words[5].starts_with('[') && words[5].ends_with(']'),
        "{line}"
    );
    (n(0), n(2), n(4), n(6))
}

/// The final score line appears once: the summary does not repeat the line of the
/// last game.
fn assert_final_score_once(stdout: &str) {
    let last = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("Score of "))
        .expect("a score line");
    let count = stdout.lines().filter(|l| *l == last).count();
    assert_eq!(count, 1, "{last:?} printed {count} times:\n{stdout}");
}

/// Checks the closing `Elo difference` line parses.
fn elo_line(stdout: &str) -> (f64, String, f64, f64) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Elo difference: "))
        .expect("an Elo line");
    let rest = line.strip_prefix("Elo difference: ").unwrap_or_default();
    let (elo, rest) = rest.split_once(" +/- ").expect("E +/- C");
    let (error, rest) = rest.split_once(", LOS: ").expect("LOS");
    let (los, rest) = rest.split_once(" %, DrawRatio: ").expect("DrawRatio");
    let ratio = rest.strip_suffix(" %").expect("a percent");
    (
        elo.parse().expect("Elo is a number"),
        error.to_string(),
        los.parse().expect("LOS is a number"),
        ratio.parse().expect("DrawRatio is a number"),
    )
}

/// Two games of the good engine against a fake: the fake loses both, by `reason`.
fn fake_loses_both(game: &str, mode: &str, after: u32, extra: &[&str], reason: &str) {
    let good = format!("good={TABULA}");
    let bad = fake(mode, after);
    let mut args = vec![
        "--game", game, "--engine", &good, "--engine", &bad, "--games", "2",
    ];
    args.extend_from_slice(extra);
    let stdout = arena(&args);
    let games = finished(&stdout);
    assert_eq!(games.len(), 2, "{stdout}");
    for (number, black, _, result, why) in &games {
        let expected = if black == "bad" { "0-1" } else { "1-0" };
        assert_eq!(result, expected, "game {number}: {stdout}");
        assert!(
            why.contains(reason),
            "game {number}: {why:?} lacks {reason:?}"
        );
    }
    assert_eq!(score(&stdout), (2, 0, 0, 2), "{stdout}");
    assert_final_score_once(&stdout);
    assert!(stdout.ends_with("Finished match\n"), "{stdout}");
}

#[test]
fn arena_survives_a_crash_mid_game() {
    fake_loses_both("othello", "crash", 4, &[], "disconnects");
}

#[test]
fn arena_flags_a_hung_engine_as_stalled() {
    fake_loses_both("othello", "hang", 3, &["--timeout", "1500"], "stalls");
}

#[test]
fn arena_forfeits_a_hung_engine_on_time_with_a_clock() {
    fake_loses_both("shell", "hang", 2, &["--tc", "1+0"], "loses on time");
}

#[test]
fn arena_forfeits_a_slow_engine_on_time() {
    fake_loses_both(
        "othello",
        "slow",
        2,
        &["--movetime", "200"],
        "loses on time",
    );
}

#[test]
fn arena_calls_garbage_a_protocol_error() {
    fake_loses_both("battleship", "garbage", 3, &[], "answers garbage");
}

#[test]
fn arena_catches_illegal_othello_and_shell_moves() {
    fake_loses_both("othello", "illegal", 3, &[], "illegal move: ");
    fake_loses_both("shell", "illegal", 3, &[], "is not empty");
}

#[test]
fn arena_catches_a_battleship_liar() {
    fake_loses_both("battleship", "liar", 1, &[], "false result");
}

#[test]
fn arena_calls_a_refusal_a_protocol_error() {
    fake_loses_both("shell", "refuse", 2, &[], "refuses a command");
}

#[test]
fn arena_records_terminations_and_resumes_without_replaying() {
    let dir = std::env::temp_dir().join(format!("tabula-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let records = dir.join("games.pgn");
    let records = records.to_str().expect("a UTF-8 path");
    let _ = std::fs::remove_file(records);
    let good = format!("good={TABULA}");
    let bad = fake("crash", 3);
    let base = [
        "--engine",
        &good,
        "--engine",
        &bad,
        "--records",
        records,
        "--random-plies",
        "2",
    ];
    let first = arena(&[&base[..], &["--games", "2"]].concat());
    assert_eq!(finished(&first).len(), 2);
    let text = std::fs::read_to_string(records).expect("records written");
    assert_eq!(text.matches("[Event ").count(), 2);
    assert_eq!(text.matches("[Termination \"crash\"]").count(), 2, "{text}");
    assert!(text.contains("[Game \"othello\"]") && text.contains("[Opening \""));

    let second = arena(&[&base[..], &["--games", "4", "--resume"]].concat());
    let numbers: Vec<usize> = finished(&second).iter().map(|g| g.0).collect();
    assert_eq!(
        numbers,
        [3, 4],
        "only the missing games are played: {second}"
    );
    assert_eq!(score(&second), (4, 0, 0, 4), "the summary counts all four");
    assert_final_score_once(&second);
    let text = std::fs::read_to_string(records).expect("records written");
    assert_eq!(text.matches("[Event ").count(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_sprt_stops_a_lopsided_match_early() {
    let good = format!("good={TABULA}");
    let bad = fake("crash", 1);
    let stdout = arena(&[
        "--engine",
        &good,
        "--engine",
        &bad,
        "--games",
        "100",
        "--sprt",
        "elo0=0,elo1=10,alpha=0.05,beta=0.05",
    ]);
    let played = finished(&stdout).len();
    assert!(played < 100, "the SPRT decided after {played} games");
    let sprt = stdout
        .lines()
        .find(|l| l.starts_with("SPRT: llr "))
        .expect("an SPRT line");
    assert!(sprt.ends_with("- H1 accepted"), "{sprt}");
    assert!(sprt.contains("lbound -2.944, ubound 2.944"), "{sprt}");
}

/// A short real match of `game`: tabula against its greedy baseline.
fn real_match(game: &str, extra: &[&str]) {
    let a = format!("tabula={TABULA}");
    let b = format!("greedy={TABULA} --player greedy");
    let mut args = vec![
        "--game", game, "--engine", &a, "--engine", &b, "--games", "4",
    ];
    args.extend_from_slice(extra);
    let stdout = arena(&args);
    let games = finished(&stdout);
    assert_eq!(games.len(), 4, "{stdout}");
    for (_, _, _, result, reason) in &games {
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result.as_str()));
        assert!(!reason.is_empty());
    }
    let (w, l, d, n) = score(&stdout);
    assert_eq!(w + l + d, n);
    assert_eq!(n, 4);
    let (_, error, los, ratio) = elo_line(&stdout);
    assert!(!error.is_empty());
    assert!((0.0..=100.0).contains(&los) && (0.0..=100.0).contains(&ratio));
    assert!(stdout.contains("Ptnml(0-2): ["));
    assert_final_score_once(&stdout);
    assert!(
        !stdout.contains("Rank Name"),
        "no standings for two engines"
    );
}

#[test]
fn arena_real_othello_match() {
    real_match("othello", &["--random-plies", "4", "--concurrency", "2"]);
}

#[test]
fn arena_real_shell_match() {
    real_match("shell", &["--random-plies", "2", "--tc", "10+0.1"]);
}

#[test]
fn arena_real_battleship_match() {
    real_match("battleship", &["--max-turns", "300"]);
}

#[test]
fn arena_round_robin_of_three() {
    let a = format!("a={TABULA} --player greedy");
    let b = format!("b={TABULA} --player random");
    let c = format!("c={TABULA}");
    let stdout = arena(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--engine",
        &c,
        "--games",
        "2",
        "--max-turns",
        "10",
    ]);
    assert_eq!(finished(&stdout).len(), 6, "three pairs of two games");
    for pair in ["a vs b", "a vs c", "b vs c"] {
        assert!(stdout.contains(&format!("Score of {pair}: ")), "{stdout}");
    }
    assert!(
        stdout.contains("{Adjudication after 10 turns: discs "),
        "{stdout}"
    );
    // The final standings: three engines, four games each, six points in all.
    let table: Vec<Vec<&str>> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("Rank Name"))
        .skip(1)
        .take_while(|l| *l != "Finished match")
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(table.len(), 3, "{stdout}");
    let mut names: Vec<&str> = table.iter().map(|row| row[1]).collect();
    names.sort_unstable();
    assert_eq!(names, ["a", "b", "c"]);
    let points: Vec<f64> = table
        .iter()
        .map(|row| row[5].parse().expect("points"))
        .collect();
    assert!(table.iter().all(|row| row[4] == "4"), "{stdout}");
    assert!((points.iter().sum::<f64>() - 6.0).abs() < 1e-9, "{stdout}");
    assert!(
        points.windows(2).all(|w| w[0] >= w[1]),
        "best first: {stdout}"
    );
    for (rank, row) in table.iter().enumerate() {
        assert_eq!(row[0], (rank + 1).to_string());
        let score: f64 = row[6].trim_end_matches('%').parse().expect("a score");
        assert!((score - points[rank] / 4.0 * 100.0).abs() < 0.1, "{stdout}");
    }
}
