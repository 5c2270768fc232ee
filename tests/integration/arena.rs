//! `tabula arena` through the real binary: real matches of each game, and fake
//! engines (`tests/fakes/engine.rs` in its `relay` mode, relaying to a real engine
//! until they misbehave) that crash, hang, talk garbage, play illegal moves, lie about a shot or
//! overrun their clock. Every game must still end with the right result and reason,
//! and the run must complete with its summary.

use std::process::Command;

const TABULA: &str = env!("CARGO_BIN_EXE_tabula");
const FAKE: &str = env!("CARGO_BIN_EXE_tabula-fake-engine");

/// The fake engine misbehaving by `mode` at its `after`-th genmove of each game.
fn fake(mode: &str, after: u32) -> String {
    format!("bad={FAKE} relay {mode} {after} {TABULA}")
}

/// Runs `tabula arena ARGS`.
fn run_arena(args: &[&str]) -> std::process::Output {
    Command::new(TABULA)
        .arg("arena")
        .args(args)
        .output()
        .expect("the arena runs")
}

/// Runs `tabula arena ARGS` and returns its stdout; the run must succeed.
fn arena(args: &[&str]) -> String {
    let output = run_arena(args);
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "the arena failed: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// A finished game: (number, white, black, result, reason).
type Finished = (usize, String, String, String, String);

/// The `Finished game N (WHITE vs BLACK): RESULT {REASON}` lines (cutechess-cli's
/// shape, white first, the result as in PGN): (number, white, black, result, reason).
fn finished(stdout: &str) -> Vec<Finished> {
    stdout
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("Finished game ")?;
            let (number, rest) = rest.split_once(" (")?;
            let (players, rest) = rest.split_once("): ")?;
            let (white, black) = players.split_once(" vs ")?;
            let (result, reason) = rest.split_once(" {")?;
            Some((
                number.parse().ok()?,
                white.to_string(),
                black.to_string(),
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

/// Runs `tabula arena ARGS`, which must succeed and finish `count` games: answers
/// its stdout, its stderr and the finished games.
fn arena_games(args: &[&str], count: usize) -> (String, String, Vec<Finished>) {
    let output = run_arena(args);
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(
        output.status.success(),
        "the arena failed: {stderr}\n{stdout}"
    );
    let games = finished(&stdout);
    assert_eq!(games.len(), count, "{stdout}");
    (stdout, stderr, games)
}

/// Two games of the good engine against `bad` (`NAME=COMMAND`) with `extra`
/// arguments: the run completes and `bad` loses both, each reason naming its side
/// first and containing `reason`; answers the arena's stdout and stderr.
fn loses_both(bad: &str, extra: &[&str], reason: &str) -> (String, String) {
    let good = format!("good={TABULA}");
    let name = bad.split_once('=').map_or(bad, |(name, _)| name);
    let args = [
        &["--engine", &good, "--engine", bad, "--games", "2"][..],
        extra,
    ]
    .concat();
    let (stdout, stderr, games) = arena_games(&args, 2);
    for (number, _, black, result, why) in &games {
        // PGN: 1-0 is a win of the engine playing white.
        let expected = if black == name { "1-0" } else { "0-1" };
        assert_eq!(result, expected, "{bad}: game {number}: {stdout}");
        let side = if black == name { "Black " } else { "White " };
        assert!(
            why.starts_with(side) && why.contains(reason),
            "{bad}: game {number}: {why:?} lacks {reason:?}"
        );
    }
    assert_eq!(score(&stdout), (2, 0, 0, 2), "{bad}: {stdout}");
    assert_final_score_once(&stdout);
    assert!(stdout.ends_with("Finished match\n"), "{stdout}");
    (stdout, stderr)
}

/// Two games of `game` of the good engine against a fake: the fake loses both, by
/// `reason`.
fn fake_loses_both(game: &str, mode: &str, after: u32, extra: &[&str], reason: &str) {
    loses_both(
        &fake(mode, after),
        &[&["--game", game][..], extra].concat(),
        reason,
    );
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
    fake_loses_both(
        "shell",
        "hang",
        2,
        &["--tc", "1+0", "--timeout", "1500"],
        "loses on time",
    );
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

    // A resume under another seed, or of records without seeds (an older arena's,
    // whose Result was inverted), is refused.
    let resume = [&base[..], &["--games", "6", "--resume"]].concat();
    let stderr = arena_fails(&[&resume[..], &["--seed", "2"]].concat());
    assert!(
        stderr.contains("game 1 was played under another --seed"),
        "{stderr}"
    );
    let unseeded: String = text
        .lines()
        .filter(|l| !l.starts_with("[Seed "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(records, unseeded).expect("records rewritten");
    let stderr = arena_fails(&resume);
    assert!(stderr.contains("game 1 has no Seed tag"), "{stderr}");
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
    let args = [
        &[
            "--game", game, "--engine", &a, "--engine", &b, "--games", "4",
        ][..],
        extra,
    ]
    .concat();
    let (stdout, _, games) = arena_games(&args, 4);
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

/// A fresh temporary folder for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-arena-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// A scratch folder for `test`, the path of a file in it, and two `--engine` values:
/// the good engine, and `fake(file)`.
fn good_and(
    test: &str,
    fake: impl Fn(&std::path::Path) -> String,
) -> (std::path::PathBuf, std::path::PathBuf, String, String) {
    let dir = scratch(test);
    let file = dir.join("fake output");
    (
        dir.clone(),
        file.clone(),
        format!("good={TABULA}"),
        fake(&file),
    )
}

/// [`good_and`] the fake `relay FLAG FILE OPTIONS` writing that file (`FLAG` is
/// `--pid-file` or `--log`).
fn good_and_fake(
    test: &str,
    flag: &str,
    options: &str,
) -> (std::path::PathBuf, std::path::PathBuf, String, String) {
    good_and(test, |file| {
        format!(
            "bad={FAKE} relay {flag} '{}' {options} {TABULA}",
            file.display()
        )
    })
}

/// The process ids the fake wrote to `pid_file`, one per process started.
fn pids(pid_file: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(pid_file)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Two Othello games of the good engine against a fake (`relay OPTIONS`) that loses
/// both by `reason`; answers how many processes of the fake the arena started.
fn fake_processes(test: &str, options: &str, extra: &[&str], reason: &str) -> usize {
    let (dir, pid_file, _, bad) = good_and_fake(test, "--pid-file", options);
    loses_both(&bad, extra, reason);
    let started = pids(&pid_file);
    let _ = std::fs::remove_dir_all(&dir);
    started.len()
}

#[test]
fn arena_keeps_an_engine_after_a_time_loss_once_its_late_answer_is_in() {
    // (fake, arena options, processes): the fake's 2nd move of each game is late at
    // 200 ms a move. `slow` answers 1.5 s late: the answer is read and the process
    // plays on. `hang` answers only when sent `# interrupt` (with `--interrupt` it
    // lists `gogui-interrupt`, and the 60 s timeout leaves only the interrupt to save
    // it); without the interrupt its answer never comes and it is replaced as stalled.
    let cases: [(&str, &[&str], usize); 3] = [
        ("slow 2", &[], 1),
        ("--interrupt hang 2", &["--timeout", "60000"], 1),
        ("hang 2", &["--timeout", "1000"], 2),
    ];
    for (i, (options, extra, expected)) in cases.into_iter().enumerate() {
        // A wide margin: under load the good engine's answers may come well past
        // 200 ms; the fake's late answer (1.5 s, or never) is still a time loss.
        let extra = [&["--movetime", "200", "--timemargin", "600"], extra].concat();
        let processes = fake_processes(&format!("time{i}"), options, &extra, "loses on time");
        assert_eq!(processes, expected, "{options}: processes started");
    }
}

#[test]
fn arena_restarts_an_engine_only_after_a_crash_a_stall_or_a_protocol_error() {
    let cases = [
        ("illegal 3", "illegal move", 1),
        ("crash 2", "disconnects", 2),
        ("garbage 2", "answers garbage", 2),
    ];
    for (options, reason, expected) in cases {
        let processes = fake_processes(&format!("fault-{expected}"), options, &[], reason);
        assert_eq!(processes, expected, "{options}: processes started");
    }
}

/// Runs `tabula arena ARGS`, which must fail; returns its stderr.
fn arena_fails(args: &[&str]) -> String {
    let output = run_arena(args);
    assert!(!output.status.success(), "the arena should fail");
    assert!(
        !String::from_utf8_lossy(&output.stdout).contains("Finished game"),
        "no game is played"
    );
    String::from_utf8_lossy(&output.stderr).to_string()
}

#[test]
fn arena_stops_before_any_game_when_the_records_cannot_be_written() {
    let (dir, pid_file, good, bad) = good_and_fake("unwritable", "--pid-file", "none 0");
    let missing = dir.join("no such folder").join("games.pgn");
    let mut unwritable = vec![
        dir.to_string_lossy().to_string(),
        missing.to_string_lossy().to_string(),
    ];
    if std::path::Path::new("/dev/full").exists() {
        // Opens, but every write fails (a full disk).
        unwritable.push("/dev/full".into());
    }
    for records in &unwritable {
        let stderr = arena_fails(&[
            "--engine",
            &good,
            "--engine",
            &bad,
            "--games",
            "2",
            "--records",
            records,
        ]);
        assert!(
            stderr.contains(&format!("the records file {records} cannot be")),
            "{records}: {stderr}"
        );
        assert!(
            pids(&pid_file).is_empty(),
            "{records}: no engine was started: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The records of a file: each one's tags, in file order.
fn records(text: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut games = Vec::new();
    for line in text.lines() {
        let Some((name, value)) = line
            .strip_prefix('[')
            .and_then(|l| l.strip_suffix("\"]"))
            .and_then(|l| l.split_once(" \""))
        else {
            continue;
        };
        if name == "Event" {
            games.push(std::collections::HashMap::new());
        }
        if let Some(tags) = games.last_mut() {
            tags.insert(name.to_string(), value.to_string());
        }
    }
    games
}

#[test]
fn arena_gives_every_game_its_own_seed_and_records_it() {
    let (dir, log, good, bad) = good_and_fake("seeds", "--log", "none 0");
    let run = |seed: &str, concurrency: &str, file: &str| {
        let path = dir.join(file);
        let path = path.to_string_lossy().to_string();
        arena(&[
            "--game",
            "battleship",
            "--engine",
            &good,
            "--engine",
            &bad,
            "--games",
            "4",
            "--max-turns",
            "6",
            "--seed",
            seed,
            "--concurrency",
            concurrency,
            "--records",
            &path,
        ]);
        let text = std::fs::read_to_string(&path).expect("records written");
        records(&text)
            .iter()
            .map(|tags| {
                (
                    tags["Number"].parse::<usize>().expect("a number"),
                    tags["Seed"].parse::<u64>().expect("a seed"),
                    tags["Black"].clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    let first = run("7", "1", "a.pgn");
    let numbers: Vec<usize> = first.iter().map(|g| g.0).collect();
    assert_eq!(numbers, [1, 2, 3, 4], "game-number order");
    let mut seeds: Vec<u64> = first.iter().map(|g| g.1).collect();
    seeds.sort_unstable();
    seeds.dedup();
    assert_eq!(seeds.len(), 4, "every game has its own seed: {first:?}");
    // The fake was sent each game's seed (as black) or the seed + 1 (as white).
    let sent: Vec<u64> = std::fs::read_to_string(&log)
        .expect("the fake's log")
        .lines()
        .filter_map(|l| l.strip_prefix("set_option seed ")?.parse().ok())
        .collect();
    let expected: Vec<u64> = first
        .iter()
        .map(|(_, seed, black)| if black == "bad" { *seed } else { seed + 1 })
        .collect();
    assert_eq!(sent, expected);
    // The seeds follow from --seed and the game's number alone.
    assert_eq!(run("7", "2", "b.pgn"), first);
    assert_ne!(run("8", "1", "c.pgn"), first);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The clock commands the fake (with `options`) was sent in one Shell game pair at
/// `--tc tc`.
fn clock_commands(test: &str, options: &str, tc: &str) -> Vec<String> {
    let (dir, log, good, bad) = good_and_fake(test, "--log", &format!("{options} none 0"));
    arena(&[
        "--game",
        "shell",
        "--engine",
        &good,
        "--engine",
        &bad,
        "--games",
        "2",
        "--tc",
        tc,
        "--max-turns",
        "2",
    ]);
    let commands = std::fs::read_to_string(&log)
        .expect("the fake's log")
        .lines()
        .filter(|l| l.contains("time_settings"))
        .map(str::to_string)
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    commands
}

#[test]
fn arena_sets_clocks_only_with_commands_that_mean_them() {
    // KGS's extension carries the increment.
    assert_eq!(
        clock_commands("tc-kgs", "--kgs", "30+0.5"),
        ["kgs-time_settings fischer 30 0.5"; 2]
    );
    // GTP 2 has no increment (`time_settings 30 0.5 0` would mean no limit at all):
    // no clock settings, only `time_left`.
    assert!(clock_commands("tc-gtp-inc", "", "30+0.5").is_empty());
    // Absolute time is GTP 2's `time_settings MAIN 0 0`.
    assert_eq!(
        clock_commands("tc-gtp", "", "30"),
        ["time_settings 30 0 0"; 2]
    );
}

/// pgn-extract, if installed. Missing, it fails the test under CI (`CI` set, or
/// `TABULA_REQUIRE_PGN_EXTRACT=1`, which `.ci/run` sets) and skips it otherwise.
fn pgn_extract() -> Option<String> {
    for candidate in ["/usr/games/pgn-extract", "/usr/bin/pgn-extract"] {
        if std::path::Path::new(candidate).exists() {
            return Some(candidate.to_string());
        }
    }
    if Command::new("pgn-extract")
        .arg("--version")
        .output()
        .is_ok()
    {
        return Some("pgn-extract".to_string());
    }
    let required = std::env::var_os("CI").is_some()
        || std::env::var("TABULA_REQUIRE_PGN_EXTRACT").as_deref() == Ok("1");
    assert!(
        !required,
        "pgn-extract is not installed (`apt-get install pgn-extract`; .ci/run does)"
    );
    eprintln!(
        "SKIPPED the PGN reader check: pgn-extract is not installed \
         (`apt-get install pgn-extract` to run it)"
    );
    None
}

#[test]
fn a_pgn_reader_credits_every_result_to_the_right_engine() {
    let Some(pgn_extract) = pgn_extract() else {
        return;
    };
    let dir = scratch("pgn");
    let path = dir.join("games.pgn");
    let path = path.to_string_lossy().to_string();
    // The fake loses every game (it crashes at its third move), whichever colour it
    // has: the winner is known without trusting the records.
    let good = format!("good={TABULA}");
    let bad = fake("crash", 3);
    arena(&[
        "--engine",
        &good,
        "--engine",
        &bad,
        "--games",
        "6",
        "--concurrency",
        "2",
        "--random-plies",
        "2",
        "--records",
        &path,
    ]);
    // `-Tr1-0` keeps the games PGN scores as white wins, `-Tr0-1` black wins.
    // pgn-extract replays chess moves and drops a game whose moves it cannot play
    // unless told `--keepbroken`; the crediting is checked with it, so that it does
    // not depend on the movetext.
    let extract = |args: &[&str]| {
        let output = Command::new(&pgn_extract)
            .args(args)
            .arg(&path)
            .output()
            .expect("pgn-extract runs");
        assert!(output.status.success(), "pgn-extract {args:?} failed");
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        (records(&String::from_utf8_lossy(&output.stdout)), stderr)
    };
    let (white_wins, _) = extract(&["-s", "--keepbroken", "-Tr1-0"]);
    let (black_wins, _) = extract(&["-s", "--keepbroken", "-Tr0-1"]);
    assert_eq!(white_wins.len() + black_wins.len(), 6);
    for tags in &white_wins {
        assert_eq!(tags["White"], "good", "a 1-0 game: {tags:?}");
    }
    for tags in &black_wins {
        assert_eq!(tags["Black"], "good", "a 0-1 game: {tags:?}");
    }
    assert_eq!((white_wins.len(), black_wins.len()), (3, 3));
    // Without `--keepbroken` every game comes through whole (the records keep the
    // moves in a comment), in game-number order.
    let (all, stderr) = extract(&["-s"]);
    let numbers: Vec<&str> = all.iter().map(|t| t["Number"].as_str()).collect();
    assert_eq!(numbers, ["1", "2", "3", "4", "5", "6"], "{stderr}");
    assert!(!stderr.contains("Failed"), "{stderr}");
    for tags in &all {
        assert_eq!(tags["Variant"], "othello");
        assert_eq!(tags["TimeControl"], "-");
        assert!(tags["Seed"].parse::<u64>().is_ok());
        let date: Vec<&str> = tags["Date"].split('.').collect();
        assert!(
            date.len() == 3 && date[0].len() == 4 && date[1].len() == 2 && date[2].len() == 2,
            "{tags:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The plain fake's `list_commands`: standard GTP 2, all a plain engine may be sent.
fn gtp2_commands() -> Vec<String> {
    use std::io::Write;
    let mut child = Command::new(FAKE)
        .arg("plain")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the fake starts");
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(b"list_commands\n").expect("written");
    }
    let output = child.wait_with_output().expect("the fake answers");
    let text = String::from_utf8_lossy(&output.stdout);
    let list: Vec<String> = text
        .trim_start_matches("= ")
        .lines()
        .take_while(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    assert!(list.contains(&"genmove".to_string()), "{text}");
    list
}

/// [`good_and`] the plain fake (with `options`) logging to that file.
fn tabula_and_plain(
    test: &str,
    options: &str,
) -> (std::path::PathBuf, std::path::PathBuf, String, String) {
    good_and(test, |file| {
        format!("plain={FAKE} plain {options} --log '{}'", file.display())
    })
}

/// The command lines the plain fake logged.
fn logged(log: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .expect("the fake's log")
        .lines()
        .map(str::to_string)
        .collect()
}

/// Replays an Othello record from its opening and checks its `Result` and
/// `Termination` against the rules: answers the final disc counts.
fn replay_othello(tags: &std::collections::HashMap<String, String>, movetext: &str) -> (u32, u32) {
    use tabula::games::othello::{Move, Position};
    let mut position = Position::from_notation(&tags["Opening"]).expect("an opening position");
    let moves = movetext
        .split_once('{')
        .and_then(|(_, rest)| rest.split_once('}'))
        .map_or("", |(moves, _)| moves);
    for word in moves.split_whitespace() {
        let mv = Move::parse(word).expect("a move");
        position
            .play(position.side_to_move(), mv)
            .expect("a legal move");
    }
    assert!(
        position.is_over(),
        "the game was played to the end: {tags:?}"
    );
    let (black, white) = position.counts();
    let expected = match black.cmp(&white) {
        std::cmp::Ordering::Greater => "0-1",
        std::cmp::Ordering::Less => "1-0",
        std::cmp::Ordering::Equal => "1/2-1/2",
    };
    assert_eq!(tags["Result"], expected, "{black}-{white}: {tags:?}");
    assert_eq!(tags["Termination"], "normal");
    (black, white)
}

/// Each record of a file with its movetext.
fn records_with_moves(text: &str) -> Vec<(std::collections::HashMap<String, String>, String)> {
    text.split("[Event ")
        .skip(1)
        .map(|chunk| {
            let chunk = format!("[Event {chunk}");
            let tags = records(&chunk).pop().expect("tags");
            let movetext = chunk
                .lines()
                .filter(|l| !l.starts_with('['))
                .collect::<Vec<_>>()
                .join(" ");
            (tags, movetext)
        })
        .collect()
}

/// Plays `games` Othello games with `engine_args` (each engine's words after its
/// `--engine`), `plies` random plies each, recorded in `dir`: every game must reach
/// its end by the rules (replayed from its record). Answers the arena's stdout.
fn othello_games_to_the_end(
    dir: &std::path::Path,
    engine_args: &[&[&str]],
    games: usize,
    plies: usize,
) -> String {
    let path = file_in(dir, "games.pgn");
    let (games_text, plies_text) = (games.to_string(), plies.to_string());
    let mut args: Vec<&str> = Vec::new();
    for words in engine_args {
        args.push("--engine");
        args.extend_from_slice(words);
    }
    args.extend([
        "--games",
        &games_text,
        "--random-plies",
        &plies_text,
        "--records",
        &path,
    ]);
    let stdout = arena(&args);
    assert_eq!(finished(&stdout).len(), games, "{stdout}");
    let text = std::fs::read_to_string(&path).expect("records written");
    let played = records_with_moves(&text);
    assert_eq!(played.len(), games, "{text}");
    for (tags, movetext) in &played {
        replay_othello(tags, movetext);
    }
    stdout
}

#[test]
fn arena_plays_a_plain_gtp2_engine_with_standard_commands_only() {
    let (dir, log, good, plain) = tabula_and_plain("plain", "");
    let stdout = othello_games_to_the_end(&dir, &[&[&good], &[&plain]], 4, 4);
    let (w, l, d, n) = score(&stdout);
    assert_eq!((w + l + d, n), (4, 4), "{stdout}");
    // Only standard GTP 2 reached the plain engine; the openings were played in as
    // moves after `boardsize 8` and `clear_board`.
    let lines = logged(&log);
    let gtp2 = gtp2_commands();
    for line in &lines {
        let name = line.split_whitespace().next().unwrap_or("");
        assert!(
            gtp2.iter().any(|c| c == name),
            "{line:?} is no GTP 2 command"
        );
    }
    assert_eq!(
        lines.iter().filter(|l| *l == "clear_board").count(),
        4,
        "one fresh board a game: {lines:?}"
    );
    assert!(lines.iter().any(|l| l == "boardsize 8"));
    assert!(
        lines.iter().filter(|l| l.starts_with("play ")).count() >= 4 * 4,
        "the four opening plies of each game were played in: {lines:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_tells_a_plain_gtp2_engine_its_time_in_whole_seconds() {
    // (arena options, the clock commands the plain engine must be sent)
    let cases: [(&[&str], &[&str]); 2] = [
        // A move time without set_option: GTP 2's byo-yomi of S seconds a move, at
        // least 1 (the referee still holds it to the move time).
        (&["--movetime", "300"], &["time_settings 0 1 1"]),
        // Absolute time, and time_left in whole seconds.
        (&["--tc", "30"], &["time_settings 30 0 0", "time_left "]),
    ];
    for (i, (extra, expected)) in cases.into_iter().enumerate() {
        let (dir, log, good, plain) = tabula_and_plain(&format!("plain-time{i}"), "");
        let args = [
            &["--engine", &good, "--engine", &plain, "--games", "2"][..],
            &["--max-turns", "8"],
            extra,
        ]
        .concat();
        let stdout = arena(&args);
        for (number, _, _, _, reason) in finished(&stdout) {
            assert!(
                reason.starts_with("Adjudication"),
                "game {number}: {reason}"
            );
        }
        let lines = logged(&log);
        for want in expected {
            assert!(
                lines.iter().any(|l| l.starts_with(want)),
                "{extra:?}: {want:?} not sent: {lines:?}"
            );
        }
        for line in lines.iter().filter(|l| l.starts_with("time_")) {
            assert!(!line.contains('.'), "whole seconds only: {line:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn arena_asks_known_command_when_list_commands_is_refused() {
    let (dir, log, good, plain) = tabula_and_plain("plain-nolist", "--no-list");
    let stdout = arena(&[
        "--engine",
        &good,
        "--engine",
        &plain,
        "--games",
        "2",
        "--tc",
        "60",
        "--max-turns",
        "6",
    ]);
    assert_eq!(finished(&stdout).len(), 2, "{stdout}");
    for (number, _, _, _, reason) in finished(&stdout) {
        assert!(
            reason.starts_with("Adjudication"),
            "game {number}: {reason}"
        );
    }
    let lines = logged(&log);
    assert!(
        lines.contains(&"known_command time_settings".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"time_settings 60 0 0".to_string()),
        "{lines:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_refuses_a_plain_engine_it_cannot_set_up() {
    let good = format!("tabula={TABULA}");
    let plain = format!("plain={FAKE} plain");
    let stderr = arena_fails(&["--game", "shell", "--engine", &good, "--engine", &plain]);
    assert!(
        stderr.contains("engine plain does not know set_game"),
        "{stderr}"
    );
    let dir = scratch("plain-positions");
    let file = dir.join("openings.txt");
    let position = "---------------------------XO------OX--------------------------- X";
    std::fs::write(&file, format!("{position}\n")).expect("an openings file");
    let file = file.to_string_lossy().to_string();
    let stderr = arena_fails(&["--engine", &good, "--engine", &plain, "--openings", &file]);
    assert!(
        stderr.contains("engine plain does not know set_position"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_takes_cutechess_style_engines_a_gauntlet_and_openings_files() {
    let dir = scratch("cutechess");
    let log = dir.join("plain.log");
    let records_path = dir.join("games.pgn");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "# two XOT-style lines\nf5d6c3d3c4\nf5f6e6f4\n")
        .expect("an openings file");
    let plain_log = format!("arg={}", log.display());
    let openings = format!("file={}", openings.display());
    let records_arg = records_path.to_string_lossy().to_string();
    let tabula_cmd = format!("cmd={TABULA}");
    let random_cmd = format!("cmd={TABULA} --player random");
    let fake_cmd = format!("cmd={FAKE}");
    let stdout = arena(&[
        "--tournament",
        "gauntlet",
        "--engine",
        "name=g",
        &tabula_cmd,
        "arg=--player",
        "arg=greedy",
        "--engine",
        "name=p",
        &fake_cmd,
        "arg=plain",
        "arg=--log",
        &plain_log,
        "tc=40/60",
        "--engine",
        "name=r",
        &random_cmd,
        "option.depth=2",
        "dir=/",
        "--each",
        "st=0.2",
        "--games",
        "2",
        "--max-turns",
        "8",
        "--openings",
        &openings,
        "order=random",
        "--records",
        &records_arg,
    ]);
    let games = finished(&stdout);
    let mut pairs: Vec<(String, String)> = games
        .iter()
        .map(|(_, white, black, _, _)| (black.clone(), white.clone()))
        .collect();
    pairs.sort();
    let expected: Vec<(String, String)> = [("g", "p"), ("g", "r"), ("p", "g"), ("r", "g")]
        .iter()
        .map(|(b, w)| (b.to_string(), w.to_string()))
        .collect();
    assert_eq!(
        pairs, expected,
        "the first engine against each other one: {stdout}"
    );
    assert!(!stdout.contains("Score of p vs r"), "{stdout}");
    // The openings are the file's lines, played in as moves to the plain engine.
    let text = std::fs::read_to_string(&records_path).expect("records written");
    let from_file: Vec<String> = ["f5d6c3d3c4", "f5f6e6f4"]
        .iter()
        .map(|line| {
            use tabula::games::othello::{Move, Position};
            let mut position = Position::start();
            for square in line.as_bytes().chunks(2) {
                let mv = Move::parse(std::str::from_utf8(square).unwrap_or("")).expect("a square");
                position.play(position.side_to_move(), mv).expect("legal");
            }
            position.to_notation()
        })
        .collect();
    for tags in records(&text) {
        assert!(from_file.contains(&tags["Opening"]), "{tags:?}");
        // Each engine's own time control: the plain engine's differs.
        if tags["White"] == "p" || tags["Black"] == "p" {
            let (p, other) = if tags["White"] == "p" {
                ("WhiteTimeControl", "BlackTimeControl")
            } else {
                ("BlackTimeControl", "WhiteTimeControl")
            };
            assert_eq!(
                (tags[p].as_str(), tags[other].as_str()),
                ("40/60", "1/0.2"),
                "{tags:?}"
            );
            assert!(!tags.contains_key("TimeControl"));
        } else {
            assert_eq!(tags["TimeControl"], "1/0.2", "{tags:?}");
        }
    }
    // 40 moves in 60 s, again and again: GTP 2's Canadian byo-yomi with no main time,
    // and the moves left in the period with each `time_left`.
    let lines = logged(&log);
    assert!(
        lines.contains(&"time_settings 0 60 40".to_string()),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("time_left ") && l.ends_with(" 39")),
        "{lines:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_refuses_bad_engine_settings_before_starting() {
    let cmd = format!("cmd={TABULA}");
    let cases: [(&[&str], &str); 4] = [
        (&["--engine", "name=a", &cmd, "tc=1", "st=1"], "tc= and st="),
        (
            &["--engine", "name=a", &cmd, "speed=3"],
            "unknown key \"speed\"",
        ),
        (&["--engine", "name=a", "tc=1"], "cmd= is missing"),
        (&["--engine", "name=a", &cmd, "tc=0/60"], "moves before '/'"),
    ];
    for (engine, message) in cases {
        let other = format!("b={TABULA}");
        let args = [engine, &["--engine", &other]].concat();
        let stderr = arena_fails(&args);
        assert!(stderr.contains(message), "{engine:?}: {stderr}");
    }
    // An engine given options it cannot take (no set_option) is named.
    let plain = format!("cmd={FAKE} plain");
    let stderr = arena_fails(&[
        "--engine",
        "name=p",
        &plain,
        "option.hash=8",
        "--engine",
        &format!("b={TABULA}"),
    ]);
    assert!(
        stderr.contains(
            "engine p refuses a command: \"it does not know set_option, needed for hash\""
        ),
        "{stderr}"
    );
}

/// The path of `name` in `dir`, as an argument.
fn file_in(dir: &std::path::Path, name: &str) -> String {
    dir.join(name).to_string_lossy().to_string()
}

#[test]
fn arena_stops_cleanly_on_sigint_and_resumes() {
    use std::io::BufRead;
    let dir = scratch("sigint");
    let (records_path, json_path) = (file_in(&dir, "games.pgn"), file_in(&dir, "results.json"));
    let (records_arg, json_arg) = (records_path.clone(), json_path.clone());
    let good = format!("good={TABULA}");
    let slow = format!("slow={FAKE} relay slow 3 {TABULA}");
    // The fake takes 1.5 s over its 3rd move of each game: games last long enough
    // to be interrupted in flight.
    let base = [
        "--engine",
        &good,
        "--engine",
        &slow,
        "--games",
        "8",
        "--concurrency",
        "2",
        "--records",
        &records_arg,
        "--max-turns",
        "8",
    ];
    let mut child = Command::new(TABULA)
        .arg("arena")
        .args(base)
        .args(["--json", &json_arg])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the arena starts");
    let stdout = child.stdout.take().expect("stdout");
    let (lines, received) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            let _ = lines.send(line);
        }
    });
    let mut seen = Vec::new();
    // Wait for the first finished game, then for the next games to start.
    while !seen
        .iter()
        .any(|l: &String| l.starts_with("Started game 4 of 8"))
    {
        let line = received
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the games go on");
        seen.push(line);
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let started = std::time::Instant::now();
    let status = child.wait().expect("the arena ends");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "the games in flight stop at once"
    );
    let _ = reader.join();
    seen.extend(received.try_iter());
    let stdout = seen.join("\n") + "\n";
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut pipe, &mut stderr);
    }
    assert!(!status.success(), "an interrupted run fails: {stdout}");
    assert!(stderr.contains("interrupted after"), "{stderr}");
    let played = finished(&stdout).len();
    assert!((1..8).contains(&played), "{stdout}");
    assert!(
        stdout.contains(&format!("Interrupted: {played} of 8 games played")),
        "{stdout}"
    );
    // Only the games in flight (two at a time) were stopped; none started after.
    let stopped = stdout
        .lines()
        .find_map(|l| {
            l.split_once(" games played, ")?
                .1
                .split_once(" stopped")?
                .0
                .parse()
                .ok()
        })
        .unwrap_or(0);
    assert!((1..=2).contains(&stopped), "{stdout}");
    let last_start = stdout
        .lines()
        .filter_map(|l| {
            l.strip_prefix("Started game ")?
                .split_once(" of")?
                .0
                .parse()
                .ok()
        })
        .max()
        .unwrap_or(0);
    assert_eq!(last_start, played + stopped, "{stdout}");
    assert!(
        stdout.contains("Elo difference: "),
        "the summary is printed: {stdout}"
    );
    assert!(!stdout.contains("Finished match"), "{stdout}");
    let (w, l, d, n) = score(&stdout);
    assert_eq!((w + l + d, n as usize), (n, played), "{stdout}");
    let text = std::fs::read_to_string(&records_path).expect("records");
    assert_eq!(
        records(&text).len(),
        played,
        "every finished game is recorded"
    );
    let json = std::fs::read_to_string(&json_path).expect("the JSON results");
    assert_eq!(json.matches("\"number\": ").count(), played, "{json}");
    assert!(json.contains("\"interrupted\": true"), "{json}");
    // The records resume: the missing games are played, none twice.
    let rest = arena(&[&base[..], &["--resume"]].concat());
    assert_eq!(finished(&rest).len(), 8 - played, "{rest}");
    assert_eq!(score(&rest).3, 8);
    let text = std::fs::read_to_string(&records_path).expect("records");
    let mut numbers: Vec<usize> = records(&text)
        .iter()
        .map(|t| t["Number"].parse().expect("a number"))
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=8).collect::<Vec<_>>());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_reports_starts_ratings_engine_logs_and_json() {
    let dir = scratch("observe");
    let logs = dir.join("logs");
    let (logs_arg, json_arg) = (file_in(&dir, "logs"), file_in(&dir, "results.json"));
    let json_path = json_arg.clone();
    let good = format!("good={TABULA}");
    let bad = fake("illegal", 3);
    let stdout = arena(&[
        "--engine",
        &good,
        "--engine",
        &bad,
        "--games",
        "4",
        "--rating-interval",
        "2",
        "--sprt",
        "elo0=0,elo1=10,alpha=0.05,beta=0.05",
        "--engine-log",
        &logs_arg,
        "--json",
        &json_arg,
    ]);
    // `Started game N of M (WHITE vs BLACK)` before each game's end.
    for number in 1..=4 {
        let start = stdout
            .find(&format!("Started game {number} of 4 ("))
            .expect("a start line");
        let end = stdout
            .find(&format!("Finished game {number} ("))
            .expect("an end line");
        assert!(start < end, "{stdout}");
    }
    let elo_lines = stdout
        .lines()
        .filter(|l| l.starts_with("Elo difference"))
        .count();
    assert_eq!(
        elo_lines,
        2 + 1,
        "after games 2 and 4, and the summary: {stdout}"
    );
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with("SPRT: llr"))
            .count(),
        3,
        "{stdout}"
    );
    // The logs: each engine's exchange, its name on every line.
    let good_log = std::fs::read_to_string(logs.join("good.log")).expect("good's log");
    let bad_log = std::fs::read_to_string(logs.join("bad.log")).expect("bad's log");
    for (log, name) in [(&good_log, "good "), (&bad_log, "bad ")] {
        assert!(log.lines().all(|l| l.starts_with(name)), "{log}");
        assert!(
            log.lines().any(|l| l.ends_with("> protocol_version")),
            "{log}"
        );
        assert!(log.lines().any(|l| l.contains(" < = 2")), "{log}");
        assert!(log.lines().any(|l| l.contains("> genmove ")), "{log}");
    }
    let json = std::fs::read_to_string(&json_path).expect("the JSON results");
    assert_eq!(
        json.matches("\"termination\": \"illegal move\"").count(),
        4,
        "{json}"
    );
    assert!(
        json.contains("\"played\": 4, \"scheduled\": 4, \"interrupted\": false"),
        "{json}"
    );
    assert!(
        json.contains("\"a\": \"good\", \"b\": \"bad\", \"wins\": 4"),
        "{json}"
    );
    assert!(json.contains("\"sprt\": "), "{json}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two games of tabula against the plain fake with `fault`: the fake loses both by
/// `reason` and the run completes; answers the arena's stdout and stderr.
fn plain_fault_loses_both(fault: &str, extra: &[&str], reason: &str) -> (String, String) {
    loses_both(&format!("plain={FAKE} plain {fault}"), extra, reason)
}

#[test]
fn arena_scores_engines_that_break_the_protocol_to_the_opponent() {
    // Junk before its first answer, or silence: the start fails, a line on stderr
    // names the engine and what it did, and each game is lost by it.
    let (_, stderr) = plain_fault_loses_both("--junk", &[], "answers garbage \"Welcome to plain");
    assert!(
        stderr.contains("engine plain answers garbage \"Welcome to plain")
            && stderr.contains("at start: its games are scored to the opponent"),
        "{stderr}"
    );
    let (_, stderr) = plain_fault_loses_both("--mute", &["--timeout", "500"], "stalls");
    assert!(stderr.contains("engine plain stalls"), "{stderr}");
    plain_fault_loses_both(
        "--wrong-id",
        &[],
        "answers with an id the command did not have: \"=99",
    );
    plain_fault_loses_both("--flood-stdout", &[], "answers garbage \"info depth 0\"");
}

#[test]
fn arena_keeps_a_capped_log_of_an_engine_that_floods_stderr() {
    let dir = scratch("flood-stderr");
    let logs = file_in(&dir, "logs");
    let good = format!("good={TABULA}");
    let plain = format!("plain={FAKE} plain --flood-stderr 24");
    let stdout = arena(&[
        "--engine",
        &good,
        "--engine",
        &plain,
        "--games",
        "2",
        "--engine-log",
        &logs,
    ]);
    for (number, _, _, _, reason) in finished(&stdout) {
        assert!(
            reason.contains(" wins ") || reason.starts_with("Draw"),
            "game {number} ends normally: {reason}"
        );
    }
    let log = std::fs::read_to_string(dir.join("logs").join("plain.log")).expect("the log");
    assert!(
        log.len() < 12 << 20,
        "the stderr kept is capped: {} bytes",
        log.len()
    );
    assert!(log.contains("(stderr past 10 MB: the rest is dropped)"));
    assert!(
        log.lines().any(|l| l.contains(" > genmove ")),
        "the exchange is kept"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_plays_an_nboard_engine_to_the_end() {
    let (dir, log, good, _) = good_and("nboard", |_| String::new());
    let nboard = format!("cmd={FAKE} nboard --log '{}'", log.display());
    let records_path = file_in(&dir, "games.pgn");
    let stdout = arena(&[
        "--engine",
        &good,
        "--engine",
        "name=nb",
        &nboard,
        "proto=nboard",
        "option.depth=4",
        "--games",
        "4",
        "--random-plies",
        "3",
        "--records",
        &records_path,
    ]);
    assert_eq!(finished(&stdout).len(), 4, "{stdout}");
    let text = std::fs::read_to_string(&records_path).expect("records written");
    for (tags, movetext) in &records_with_moves(&text) {
        replay_othello(tags, movetext);
    }
    // The NBoard exchange: the handshake, the option, each game as a GGF record from
    // its opening, then moves and `go`.
    let lines = logged(&log);
    assert_eq!(
        lines.first().map(String::as_str),
        Some("nboard 2"),
        "{lines:?}"
    );
    assert!(lines.contains(&"set depth 4".to_string()), "{lines:?}");
    let games: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("set game (;GM[Othello]"))
        .collect();
    assert_eq!(games.len(), 4, "one game record a game: {lines:?}");
    assert!(
        games
            .iter()
            .all(|g| g.contains("BO[8 ") && g.ends_with(";)"))
    );
    assert!(lines.iter().any(|l| l.starts_with("move ")) && lines.contains(&"go".to_string()));
    assert!(
        lines
            .iter()
            .all(|l| !l.starts_with("genmove") && !l.starts_with("play"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_plays_an_nboard_engine_that_answers_with_spaces() {
    // Edax writes `=== F5 0.00 0.0`: the fields apart by spaces, not slashes.
    let (dir, log, good, _) = good_and("nboard-spaces", |_| String::new());
    let nboard = format!("cmd={FAKE} nboard --spaces --log '{}'", log.display());
    othello_games_to_the_end(
        &dir,
        &[&[&good], &["name=nb", &nboard, "proto=nboard"]],
        2,
        2,
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_spells_set_game_as_the_engine_lists_it_and_clears_the_board() {
    // A GoGui-style engine (as Edax's GTP mode): `list_games` says `Othello`,
    // `set_game othello` is refused, and `set_game` keeps the board.
    let (dir, log, good, plain) = tabula_and_plain("plain-set-game", "--set-game Othello");
    othello_games_to_the_end(&dir, &[&[&good], &[&plain]], 4, 2);
    let lines = logged(&log);
    assert!(lines.contains(&"list_games".to_string()), "{lines:?}");
    assert!(
        !lines.contains(&"set_game othello".to_string()),
        "{lines:?}"
    );
    // Each game: `set_game Othello` then `clear_board`.
    let setups: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| *l == "set_game Othello")
        .map(|(i, _)| i)
        .collect();
    assert!(setups.len() >= 4, "{lines:?}");
    let cleared = setups
        .iter()
        .filter(|&&i| lines.get(i + 1).is_some_and(|l| l == "clear_board"))
        .count();
    assert!(
        cleared >= 4,
        "clear_board after set_game each game: {lines:?}"
    );
    // A plain engine is told whole seconds even though it knows set_game.
    assert!(
        lines
            .iter()
            .all(|l| !l.starts_with("time_") || !l.contains('.'))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_resume_refuses_records_of_another_tournament_or_game() {
    let dir = std::env::temp_dir().join(format!("tabula-arena-resume-t-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp folder");
    let records = file_in(&dir, "games.pgn");
    let engines = [
        "--engine", "a=FAKE", "--engine", "b=FAKE", "--engine", "c=FAKE",
    ]
    .map(|w| w.replace("FAKE", &format!("{FAKE} relay crash 1 {TABULA}")));
    let engines: Vec<&str> = engines.iter().map(String::as_str).collect();
    let base = [&engines[..], &["--records", &records, "--games", "2"]].concat();
    // A round robin of three engines: six games, b against c among them.
    let first = arena(&base);
    assert_eq!(finished(&first).len(), 6, "{first}");
    // Resumed as a gauntlet (a against each other: four games), the records of b
    // against c are not this run's games.
    let stderr = arena_fails(&[&base[..], &["--tournament", "gauntlet", "--resume"]].concat());
    assert!(
        stderr.contains("is not in this run's schedule of 4 games"),
        "{stderr}"
    );
    // Nor are another game's records.
    let stderr = arena_fails(&[&base[..], &["--game", "shell", "--resume"]].concat());
    assert!(
        stderr.contains("is a game of othello, this run plays shell"),
        "{stderr}"
    );
    // The same round robin resumes: nothing left to play.
    let again = arena(&[&base[..], &["--resume"]].concat());
    assert!(finished(&again).is_empty(), "{again}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_takes_protocol_version_2_0_and_refuses_another_version() {
    // Egaroucid answers `protocol_version` with `2.0`.
    let (dir, _, good, plain) = tabula_and_plain("plain-version", "--protocol-version 2.0");
    let stdout = arena(&["--engine", &good, "--engine", &plain, "--games", "2"]);
    let games = finished(&stdout);
    assert_eq!(games.len(), 2, "{stdout}");
    for (number, _, _, _, reason) in games {
        assert!(!reason.contains("garbage"), "game {number}: {reason}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    let (dir, _, good, plain) = tabula_and_plain("plain-version3", "--protocol-version 3");
    let stdout = arena(&["--engine", &good, "--engine", &plain, "--games", "2"]);
    let games = finished(&stdout);
    assert_eq!(games.len(), 2, "{stdout}");
    for (number, _, _, _, reason) in games {
        assert!(
            reason.contains("answers garbage \"protocol_version 3\""),
            "game {number}: {reason}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `examples/shell_builder.py`, an engine written outside Rust (Python; the rules
/// kept by a child tabula), plays a refereed What the Shell match: every game ends
/// by the rules (five in a row or a full board), never by a forfeit, and the engine
/// beats the one-ply builder. Runs when python3 is installed; without it the test
/// says it skipped, unless `TABULA_REQUIRE_PYTHON=1` (set by `.ci/run`).
#[test]
fn an_engine_written_in_python_plays_a_refereed_shell_match() {
    if !crate::common::python3_present("an_engine_written_in_python_plays_a_refereed_shell_match") {
        return;
    }
    let builder = format!("builder={}", crate::common::shell_builder());
    // Bounded by iterations and seeded: the same games on any machine, at any load.
    let tabula = format!("tabula={TABULA} --set iterations=3000 --set seed=1");
    let output = Command::new(TABULA)
        .env("TABULA", TABULA)
        .args([
            "arena",
            "--game",
            "shell",
            "--engine",
            &tabula,
            "--engine",
            &builder,
            "--games",
            "6",
            "--tc",
            "60+1",
            "--random-plies",
            "2",
            "--seed",
            "5",
        ])
        .output()
        .expect("the arena runs");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(output.status.success(), "{stderr}\n{stdout}");
    let games = finished(&stdout);
    assert_eq!(games.len(), 6, "{stdout}");
    for (_, _, _, result, reason) in &games {
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&result.as_str()),
            "{stdout}"
        );
        assert!(
            reason.contains("winning turtles") || reason.contains("full"),
            "a game ended otherwise than by the rules: {reason}\n{stdout}"
        );
    }
    let (wins, losses, draws, n) = score(&stdout);
    assert_eq!(n, 6);
    // The builder is one ply deep and predictable: at most one game of six escapes.
    assert!(
        2 * wins + draws >= 10,
        "{wins} - {losses} - {draws}\n{stdout}"
    );
}
