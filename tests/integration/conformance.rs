//! `tabula conformance` through the real binary: against fake engines that crash, hang,
//! talk garbage and answer wrongly (`tests/fakes/engine.rs` in its `gtp` mode), against tabula itself
//! (`tests/fixtures/othello.tst` and the whole `conformance/` suite), and against
//! GNU Go (`tests/fixtures/gnugo.tst`).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const GNUGO: &str = "/usr/games/gnugo";

/// What one run of `tabula conformance` printed and how it ended.
struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
    took: Duration,
}

impl Run {
    /// Asserts that stdout holds `text`, showing stdout when it does not.
    fn assert_shows(&self, text: &str) {
        assert!(
            self.stdout.contains(text),
            "{text:?} not in:\n{}",
            self.stdout
        );
    }

    /// The last line, which must be `N passed, N failed`.
    fn counts(&self) -> &str {
        self.stdout.lines().last().unwrap_or("")
    }

    /// The line before the counts.
    fn other_counts(&self) -> &str {
        let lines: Vec<&str> = self.stdout.lines().collect();
        lines.len().checked_sub(2).map_or("", |i| lines[i])
    }
}

/// Runs `tabula conformance ARGS…` from the repository root.
fn conformance(args: &[&str]) -> Run {
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .arg("conformance")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("tabula conformance runs");
    Run {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        code: output.status.code(),
        took: started.elapsed(),
    }
}

/// The `--engine` line for the fake engine with `options`.
fn fake(options: &str) -> String {
    format!(
        "'{}' gtp {options}",
        env!("CARGO_BIN_EXE_tabula-fake-engine")
    )
}

fn fixture(name: &str) -> String {
    format!("tests/fixtures/{name}")
}

#[test]
fn a_well_behaved_engine_passes_and_stars_are_counted_apart() {
    let run = conformance(&["--engine", &fake(""), &fixture("fake/basic.tst")]);
    assert_eq!(run.counts(), "9 passed, 0 failed", "{}", run.stdout);
    assert_eq!(
        run.other_counts(),
        "1 file: 1 expected failure, 1 unexpected pass"
    );
    assert_eq!(run.code, Some(0));
    run.assert_shows("basic.tst:18: case 8 expected failure: 8 echo known bug | expected [fixed]* | got \"known bug\"");
    assert!(
        run.stdout
            .contains("basic.tst:20: case 9 unexpected pass: 9 echo fixed")
    );
    assert!(!run.stdout.contains("FAILED"), "{}", run.stdout);
}

#[test]
fn a_wrong_answer_fails_its_case_with_command_pattern_and_answer() {
    let run = conformance(&[
        "--engine",
        &fake("--wrong-on name"),
        &fixture("fake/wrong.tst"),
    ]);
    assert_eq!(run.counts(), "2 passed, 2 failed", "{}", run.stdout);
    assert_eq!(run.code, Some(1));
    run.assert_shows("wrong.tst:4: case 2 FAILED: 2 name | expected [fake] | got \"wrong\"");
    assert!(
        run.stdout.contains(
            "wrong.tst:6: case 3 FAILED: 3 fail | expected [.*] | got error \"failed on purpose\""
        ),
        "an error answer fails even `.*`: {}",
        run.stdout
    );
}

#[test]
fn after_a_crash_the_file_fails_and_the_next_file_gets_a_fresh_engine() {
    // The fake exits on its 4th command: in long.tst that is case 3; wrong.tst starts
    // a fresh fake, whose cases 1 and 2 pass, case 3 fails (an error answer) and
    // case 4 meets the crash again.
    let run = conformance(&[
        "--engine",
        &fake("--crash-after 4"),
        &fixture("fake/long.tst"),
        &fixture("fake/wrong.tst"),
    ]);
    assert_eq!(run.counts(), "4 passed, 6 failed", "{}", run.stdout);
    assert_eq!(run.code, Some(1));
    run.assert_shows("long.tst:7: case 3 FAILED: 3 echo three | expected [three] | got no answer: the engine exited (exit status: 3)");
    assert!(
        run.stdout.contains(
            "long.tst:11: case 5 FAILED: 5 echo five | expected [five]* | not run: the engine exited (exit status: 3) at line 7"
        ),
        "a fault is never an expected failure: {}",
        run.stdout
    );
    assert!(run.stdout.contains("wrong.tst:8: case 4 FAILED"));
    assert!(!run.stdout.contains("wrong.tst:2:"), "{}", run.stdout);
}

#[test]
fn a_hung_engine_is_killed_at_the_timeout() {
    // The fake never answers `echo`: long.tst's set-up echo hangs (cases 3 to 6 fail),
    // wrong.tst's case 4 hangs.
    let run = conformance(&[
        "--timeout",
        "3",
        "--engine",
        &fake("--hang-on echo"),
        &fixture("fake/long.tst"),
        &fixture("fake/wrong.tst"),
    ]);
    assert_eq!(run.counts(), "4 passed, 6 failed", "{}", run.stdout);
    assert_eq!(run.code, Some(1));
    run.assert_shows("long.tst:7: case 3 FAILED: 3 echo three | expected [three] | not run: timeout: no answer within 3 s at line 6");
    run.assert_shows("wrong.tst:8: case 4 FAILED: 4 echo still talking | expected [still talking] | got no answer: timeout: no answer within 3 s");
    assert!(run.took < Duration::from_secs(30), "took {:?}", run.took);
}

#[test]
fn garbage_fails_the_rest_of_the_file() {
    let run = conformance(&[
        "--engine",
        &fake("--garbage-on name"),
        &fixture("fake/wrong.tst"),
    ]);
    assert_eq!(run.counts(), "1 passed, 3 failed", "{}", run.stdout);
    assert_eq!(run.code, Some(1));
    run.assert_shows("case 2 FAILED: 2 name | expected [fake] | got no answer: garbage answer \"I am not a GTP engine\"");
    run.assert_shows(
        "case 4 FAILED: 4 echo still talking | expected [still talking] | not run: garbage answer",
    );
}

#[test]
fn a_set_game_spelled_otherwise_by_list_games_is_set_up_in_that_spelling() {
    // The plain fake knows GTP 2 plus GoGui's list_games (`Othello`) and set_game,
    // which refuses `othello`: the position-free Othello file runs all the same.
    let engine = format!(
        "'{}' plain --set-game Othello",
        env!("CARGO_BIN_EXE_tabula-fake-engine")
    );
    let run = conformance(&["--engine", &engine, "conformance/othello/gtp.tst"]);
    assert_eq!(run.counts(), "8 passed, 0 failed", "{}", run.stdout);
    // Without list_games the refusal stands: the file does not apply.
    let plain = format!("'{}' plain", env!("CARGO_BIN_EXE_tabula-fake-engine"));
    let run = conformance(&["--engine", &plain, "conformance/othello/gtp.tst"]);
    assert_eq!(run.counts(), "0 passed, 0 failed", "{}", run.stdout);
    assert!(run.stdout.contains("does not apply"), "{}", run.stdout);
}

#[test]
fn long_lists_passed_cases_too_in_either_spelling() {
    for flag in ["--long", "-long"] {
        let run = conformance(&["--engine", &fake(""), flag, &fixture("fake/basic.tst")]);
        assert_eq!(run.counts(), "9 passed, 0 failed", "{}", run.stdout);
        run.assert_shows("basic.tst:4: case 1 passed: 1 protocol_version | expected [2]");
        let passed = run
            .stdout
            .lines()
            .filter(|l| l.contains(" passed: "))
            .count();
        assert_eq!(passed, 8, "{flag}: one line a passed case: {}", run.stdout);
    }
    // gogui-regress's -verbose is ours too.
    let run = conformance(&[
        "--engine",
        &fake(""),
        "-verbose",
        &fixture("fake/wrong.tst"),
    ]);
    run.assert_shows("> 1 protocol_version");
}

#[test]
fn an_answer_with_a_wrong_id_fails_its_case_and_the_file_goes_on() {
    // `= 2 fake` for `2 name`: a whole answer, but GTP 2 writes the id against the mark.
    let run = conformance(&["--engine", &fake("--spaced-id"), &fixture("fake/wrong.tst")]);
    assert_eq!(run.counts(), "0 passed, 4 failed", "{}", run.stdout);
    run.assert_shows("wrong.tst:4: case 2 FAILED: 2 name | expected [fake] | got a wrong id: the answer \"= 2 fake\" does not carry the command's id right after its mark (GTP 2: \"=2 …\")");
    // The next cases ran and were judged on their own answers.
    run.assert_shows("case 3 FAILED: 3 fail | expected [.*] | got error \"failed on purpose\"");
    assert!(!run.stdout.contains("not run"), "{}", run.stdout);
}

#[test]
fn an_engine_that_ignores_quit_is_killed_after_the_grace() {
    let run = conformance(&[
        "--engine",
        &fake("--ignore-quit"),
        &fixture("fake/wrong.tst"),
        &fixture("fake/long.tst"),
    ]);
    assert_eq!(run.counts(), "9 passed, 1 failed", "{}", run.stdout);
    // Two grace periods of 2 s, far from the fake's endless sleep.
    assert!(run.took < Duration::from_secs(30), "took {:?}", run.took);
}

#[test]
fn an_engine_that_cannot_start_fails_every_case() {
    let run = conformance(&[
        "--engine",
        "/nonexistent/engine --flag",
        &fixture("fake/wrong.tst"),
    ]);
    assert_eq!(run.counts(), "0 passed, 4 failed", "{}", run.stdout);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stdout
            .contains("not run: the engine did not start: /nonexistent/engine")
    );
}

#[test]
fn a_malformed_file_is_an_error_before_any_engine_runs() {
    let run = conformance(&["--engine", &fake(""), &fixture("bad/orphan.tst")]);
    assert_eq!(run.code, Some(1));
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .contains("orphan.tst: line 4: a `#?` line must follow a numbered command"),
        "{}",
        run.stderr
    );
    assert_eq!(
        run.stderr.matches("must follow").count(),
        1,
        "{}",
        run.stderr
    );
}

#[test]
fn tabula_passes_the_sample_othello_suite() {
    let run = conformance(&[
        "--engine",
        env!("CARGO_BIN_EXE_tabula"),
        &fixture("othello.tst"),
    ]);
    assert_eq!(run.counts(), "5 passed, 0 failed", "{}", run.stdout);
    assert_eq!(
        run.other_counts(),
        "1 file: 1 expected failure, 0 unexpected passes"
    );
    assert_eq!(run.code, Some(0));
}

#[test]
fn tabula_passes_the_whole_conformance_suite() {
    let run = conformance(&["--engine", env!("CARGO_BIN_EXE_tabula"), "conformance/"]);
    assert!(
        run.counts().ends_with(" passed, 0 failed"),
        "{}",
        run.stdout
    );
    assert!(!run.counts().starts_with("0 passed"), "{}", run.stdout);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    // Every file applies to tabula, and says so on its own line.
    assert!(!run.stdout.contains("does not apply"), "{}", run.stdout);
    run.assert_shows("conformance/tabula.tst: 5 passed, 0 failed\n");
}

#[test]
fn the_default_suite_is_the_conformance_folder() {
    let explicit = conformance(&["--engine", env!("CARGO_BIN_EXE_tabula"), "conformance/"]);
    let default = conformance(&["--engine", env!("CARGO_BIN_EXE_tabula")]);
    assert_eq!(default.stdout, explicit.stdout);
}

/// GNU Go's interop test runs when GNU Go is installed; without it the test says it
/// skipped, unless `TABULA_REQUIRE_GNUGO=1` (set by `.ci/run`) makes that a failure.
#[test]
fn gnugo_runs_the_go_suite_with_exact_counts() {
    if !Path::new(GNUGO).exists() {
        assert!(
            std::env::var("TABULA_REQUIRE_GNUGO").as_deref() != Ok("1"),
            "GNU Go is not installed at {GNUGO} and TABULA_REQUIRE_GNUGO=1: \
             `apt-get install gnugo` (.ci/run does)"
        );
        eprintln!(
            "SKIPPED gnugo_runs_the_go_suite_with_exact_counts: GNU Go is not installed at \
             {GNUGO} (`apt-get install gnugo` to run it)"
        );
        return;
    }
    let engine = format!("{GNUGO} --mode gtp");
    let run = conformance(&["--engine", &engine, &fixture("gnugo.tst")]);
    assert_eq!(run.counts(), "5 passed, 1 failed", "{}", run.stdout);
    assert_eq!(
        run.other_counts(),
        "1 file: 1 expected failure, 0 unexpected passes"
    );
    assert_eq!(run.code, Some(1));
    run.assert_shows("gnugo.tst:30: case 6 FAILED: 6 name | expected [tabula] | got \"GNU Go\"");
    assert!(run.stdout.contains("gnugo.tst:34: case 7 expected failure"));
}

/// The `.tst` files under `dir` and their cases (`#?` lines).
fn suite_cases(dir: &Path) -> (usize, usize) {
    let (mut files, mut cases) = (0, 0);
    for entry in std::fs::read_dir(dir).expect("the suite folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            let (f, c) = suite_cases(&path);
            (files, cases) = (files + f, cases + c);
        } else if path.extension().is_some_and(|e| e == "tst") {
            let text = std::fs::read_to_string(&path).expect("a suite file");
            files += 1;
            cases += text.lines().filter(|l| l.starts_with("#?")).count();
        }
    }
    (files, cases)
}

/// GNU Go against the whole suite: the portable core (`framing.tst`) passes, every
/// game file's `set_game` is refused (Go is none of them) and the extension files
/// need commands GNU Go does not have, so they do not apply: skipped, not failed.
#[test]
fn gnugo_passes_the_portable_core_and_skips_what_does_not_apply() {
    if !Path::new(GNUGO).exists() {
        assert!(
            std::env::var("TABULA_REQUIRE_GNUGO").as_deref() != Ok("1"),
            "GNU Go is not installed at {GNUGO} and TABULA_REQUIRE_GNUGO=1"
        );
        eprintln!("SKIPPED gnugo_passes_the_portable_core: GNU Go is not installed at {GNUGO}");
        return;
    }
    let engine = format!("{GNUGO} --mode gtp");
    let junit = std::env::temp_dir().join(format!("tabula-gnugo-{}.xml", std::process::id()));
    let junit_arg = junit.to_string_lossy().to_string();
    let run = conformance(&["--engine", &engine, "--junit", &junit_arg, "conformance/"]);
    assert_eq!(run.counts(), "12 passed, 0 failed", "{}", run.stdout);
    // Every other case of the suite is skipped: its files do not apply.
    let (files, cases) = suite_cases(Path::new("conformance"));
    let (skipped, not_applying) = (cases - 12, files - 1);
    assert_eq!(
        run.other_counts(),
        format!(
            "{files} files: 0 expected failures, 0 unexpected passes, {skipped} skipped ({not_applying} files not applying)"
        )
    );
    assert_eq!(run.code, Some(0));
    assert!(
        run.stdout
            .contains("conformance/framing.tst: 12 passed, 0 failed\n")
    );
    assert!(run.stdout.contains(
        "conformance/battleship/shots.tst: does not apply (set-up \"set_game battleship\" refused: \"unknown command\"): 48 cases skipped"
    ));
    assert!(run.stdout.contains(
        "conformance/tabula.tst: does not apply (an extension file; the engine does not know list_games): 5 cases skipped"
    ));
    assert!(!run.stdout.contains("FAILED"), "{}", run.stdout);
    let xml = std::fs::read_to_string(&junit).expect("the JUnit file");
    let _ = std::fs::remove_file(&junit);
    assert_junit_counts(&xml, skipped + 12, 0, skipped);
}

/// A JUnit file's shape: one `<testsuites>` whose counts are the sums of its
/// `<testsuite>`s', each suite's `tests`, `failures` and `skipped` equal to its
/// `<testcase>`, `<failure>` and `<skipped>` elements.
fn assert_junit_counts(xml: &str, tests: usize, failures: usize, skipped: usize) {
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "));
    assert!(xml.trim_end().ends_with("</testsuites>"));
    let attribute = |tag: &str, name: &str| -> usize {
        let start = tag.find(&format!(" {name}=\"")).expect("the attribute") + name.len() + 3;
        tag[start..]
            .split('"')
            .next()
            .and_then(|n| n.parse().ok())
            .expect("a count")
    };
    let top = xml.lines().nth(1).expect("<testsuites>");
    assert_eq!(
        (
            attribute(top, "tests"),
            attribute(top, "failures"),
            attribute(top, "skipped")
        ),
        (tests, failures, skipped),
        "{top}"
    );
    let suites: Vec<&str> = xml.split("<testsuite ").skip(1).collect();
    let mut sums = (0, 0, 0);
    for suite in &suites {
        let body = suite.split("</testsuite>").next().expect("a closed suite");
        let head = body.lines().next().expect("the suite's tag");
        let counted = (
            body.matches("<testcase ").count(),
            body.matches("<failure ").count(),
            body.matches("<skipped ").count(),
        );
        assert_eq!(
            (
                attribute(head, "tests"),
                attribute(head, "failures"),
                attribute(head, "skipped")
            ),
            counted,
            "{head}"
        );
        sums = (sums.0 + counted.0, sums.1 + counted.1, sums.2 + counted.2);
    }
    assert_eq!(sums, (tests, failures, skipped));
}

#[test]
fn a_refused_game_set_up_skips_the_file_and_junit_counts_every_case() {
    // The fake knows no set_game: the file does not apply, once, its cases skipped;
    // the other file runs, and the JUnit file holds every case of both.
    let dir = std::env::temp_dir().join(format!("tabula-skip-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let other = dir.join("other.tst");
    std::fs::write(&other, "set_game battleship\n1 echo a\n#? [a]\n2 echo b\n").expect("written");
    let own = dir.join("own.tst");
    std::fs::write(&own, "1 echo a\n#? [a]\n2 echo b\n#? [c]\n").expect("written");
    let ext = dir.join("ext.tst");
    std::fs::write(&ext, "# extension: frobnicate\n1 echo a\n").expect("written");
    let junit = dir.join("junit.xml");
    let paths = [&other, &own, &ext].map(|p| p.to_string_lossy().to_string());
    let junit_arg = junit.to_string_lossy().to_string();
    let run = conformance(&[
        "--engine",
        &fake(""),
        "--junit",
        &junit_arg,
        &paths[0],
        &paths[1],
        &paths[2],
    ]);
    assert_eq!(run.counts(), "1 passed, 1 failed", "{}", run.stdout);
    assert_eq!(
        run.other_counts(),
        "3 files: 0 expected failures, 0 unexpected passes, 3 skipped (2 files not applying)"
    );
    assert_eq!(
        run.stdout.matches("does not apply").count(),
        2,
        "{}",
        run.stdout
    );
    run.assert_shows("other.tst: does not apply (set-up \"set_game battleship\" refused: \"unknown command\"): 2 cases skipped");
    assert!(run.stdout.contains("ext.tst: does not apply (an extension file; the engine does not know frobnicate): 1 case skipped"));
    run.assert_shows("own.tst: 1 passed, 1 failed\n");
    let xml = std::fs::read_to_string(&junit).expect("the JUnit file");
    assert_junit_counts(&xml, 5, 1, 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verbose_echoes_the_protocol_stream() {
    let run = conformance(&[
        "--engine",
        &fake(""),
        "--verbose",
        &fixture("fake/basic.tst"),
    ]);
    run.assert_shows("> 1 protocol_version\n< =1 2\n");
    let quiet = conformance(&["--engine", &fake(""), &fixture("fake/basic.tst")]);
    assert!(!quiet.stdout.contains("> "), "{}", quiet.stdout);
    assert_eq!(run.counts(), quiet.counts());
}

/// `examples/shell_builder.py`, a Shell engine written outside Rust, passes every
/// What the Shell case of the suite: the cases ask for nothing only tabula would
/// answer. Runs when python3 is installed; without it the test says it skipped,
/// unless `TABULA_REQUIRE_PYTHON=1` (set by `.ci/run`).
#[test]
fn the_python_example_engine_passes_the_shell_suite() {
    if !crate::common::python3_present("the_python_example_engine_passes_the_shell_suite") {
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    // Each file's engine starts in that file's folder: the script's path is absolute.
    let engine = crate::common::shell_builder();
    let output = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .env("TABULA", env!("CARGO_BIN_EXE_tabula"))
        .args(["conformance", "--engine", &engine, "conformance/shell"])
        .current_dir(root)
        .output()
        .expect("tabula conformance runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let (files, cases) = suite_cases(&Path::new(root).join("conformance/shell"));
    assert!(files >= 5 && cases >= 100, "{files} files, {cases} cases");
    assert_eq!(
        stdout.lines().last(),
        Some(format!("{cases} passed, 0 failed").as_str()),
        "{stdout}"
    );
    assert_eq!(output.status.code(), Some(0), "{stdout}");
}

/// An engine that dies at the start (a wrong path, a missing file) fails its cases
/// with its exit status and the last line it wrote on stderr, which usually says why.
#[test]
fn an_engine_that_dies_is_reported_with_its_last_stderr_line() {
    let engine = "sh -c 'echo first line >&2; echo cannot open weights.bin >&2; exit 4'";
    let run = conformance(&["--engine", engine, &fixture("fake/basic.tst")]);
    run.assert_shows(
        "case 1 FAILED: 1 protocol_version | expected [2] | not run: the engine exited \
         (exit status: 4); its stderr ends \"cannot open weights.bin\"",
    );
    assert_eq!(run.counts(), "0 passed, 10 failed", "{}", run.stdout);
}
