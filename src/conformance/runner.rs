//! The one runner loop: for each file a fresh engine, each step sent in order, each
//! case judged into an [`Outcome`] and reported as it happens, and the [`Summary`].
//!
//! Counting (as GoGui's gogui-regress counts): a case that passes counts as passed,
//! including a `*` case that passes (also listed as an "unexpected pass"); a case that
//! fails counts as failed unless it is marked `*`, then it is an "expected failure",
//! counted as neither. A case the engine could not answer (crash, timeout, garbage,
//! or an earlier such fault in its file) always counts as failed, `*` or not; so does
//! a whole answer with the wrong id, though the cases after it still run.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::engine::{Engine, Fault};
use super::suite::{Answer, AnswerStatus, Check, Expectation, Known, Step, Verdict};

/// How long a quitting engine gets before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// How much of a long answer a report line shows.
const REPORTED_CHARS: usize = 300;

/// The engine to test and the per-command time limit.
#[derive(Debug, Clone)]
pub struct Config {
    /// The engine's program; a relative path with a separator is made absolute, since
    /// each engine runs in its file's folder.
    pub program: PathBuf,
    pub args: Vec<String>,
    /// The longest any answer may take.
    pub timeout: Duration,
    /// Echo every command sent (`> LINE`) and answer read (`< LINE`) on the output.
    pub verbose: bool,
    /// A line for every case, passed ones too (`case N passed: …`).
    pub long: bool,
}

/// One parsed `.tst` file.
#[derive(Debug, Clone)]
pub struct Suite {
    pub path: PathBuf,
    pub steps: Vec<Step>,
    /// The commands of an extension file (`# extension: NAME…`): the file applies
    /// only to an engine whose `known_command` knows each.
    pub extensions: Vec<String>,
}

/// The set-up commands whose refusal, before a file's first case, means the file is
/// for another game: the file does not apply.
const GAME_SET_UP: [&str; 2] = ["set_game", "boardsize"];

/// Why a case failed (or failed as expected).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// A success answer the pattern refuses: its text.
    Mismatch(String),
    /// An error answer: its message.
    ErrorAnswer(String),
    /// The engine failed on this very case.
    Fault(Fault),
    /// The engine failed earlier in the file, at `line_no` (0: before any command).
    NotRun { line_no: usize, fault: Fault },
}

/// The result of one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Passed,
    /// A `*` case that passed.
    UnexpectedPass,
    Failed(Reason),
    /// A `*` case that failed with an answer.
    ExpectedFailure(Reason),
}

/// The counts of a run. `passed` includes the unexpected passes; expected failures
/// are neither passed nor failed; the cases of files that do not apply are skipped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub files: usize,
    pub passed: usize,
    pub failed: usize,
    pub expected_failures: usize,
    pub unexpected_passes: usize,
    pub skipped: usize,
    /// Files that did not apply.
    pub not_applying: usize,
}

/// `n` and the noun, singular or plural (`1 file`, `2 files`).
#[must_use]
pub fn count(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// One case as a report (JUnit) needs it.
#[derive(Debug, Clone)]
pub struct CaseRecord {
    pub id: u64,
    pub line_no: usize,
    pub command: String,
    pub outcome: Outcome,
}

/// What became of one file.
#[derive(Debug, Clone)]
pub struct FileRecord {
    pub path: PathBuf,
    /// Why the file does not apply to the engine, if it does not (its cases are then
    /// skipped).
    pub not_applying: Option<String>,
    pub cases: Vec<CaseRecord>,
    /// The file's case count (skipped ones included).
    pub total: usize,
}

impl Summary {
    /// True when nothing failed unexpectedly.
    pub fn success(&self) -> bool {
        self.failed == 0
    }

    /// Writes the two closing lines; the last is exactly `N passed, N failed`.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let skipped = match self.skipped {
            0 => String::new(),
            n => format!(
                ", {n} skipped ({} not applying)",
                count(self.not_applying, "file", "files")
            ),
        };
        writeln!(
            out,
            "{}: {}, {}{skipped}",
            count(self.files, "file", "files"),
            count(
                self.expected_failures,
                "expected failure",
                "expected failures"
            ),
            count(
                self.unexpected_passes,
                "unexpected pass",
                "unexpected passes"
            ),
        )?;
        writeln!(out, "{} passed, {} failed", self.passed, self.failed)
    }

    fn count(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::Passed => self.passed += 1,
            Outcome::UnexpectedPass => {
                self.passed += 1;
                self.unexpected_passes += 1;
            }
            Outcome::Failed(_) => self.failed += 1,
            Outcome::ExpectedFailure(_) => self.expected_failures += 1,
        }
    }
}

/// Whether the file's engine can still take commands.
enum State {
    Running(Engine),
    Broken { line_no: usize, fault: Fault },
}

/// Runs every suite in order and reports each case that did not simply pass on `out`,
/// one line each, as it happens, and a line per file. The closing lines are the
/// caller's ([`Summary::write`]).
pub fn run(
    config: &Config,
    suites: &[Suite],
    out: &mut dyn Write,
) -> io::Result<(Summary, Vec<FileRecord>)> {
    let mut summary = Summary::default();
    let mut files = Vec::new();
    for suite in suites {
        let file = run_suite(config, suite, &mut summary, out)?;
        summary.files += 1;
        let line = match &file.not_applying {
            Some(why) => {
                summary.not_applying += 1;
                summary.skipped += file.total;
                format!(
                    "does not apply ({why}): {} skipped",
                    count(file.total, "case", "cases")
                )
            }
            None => {
                let mut tally = Summary::default();
                for case in &file.cases {
                    tally.count(&case.outcome);
                }
                format!("{} passed, {} failed", tally.passed, tally.failed)
            }
        };
        writeln!(out, "{}: {line}", suite.path.display())?;
        files.push(file);
    }
    Ok((summary, files))
}

/// Why an extension file does not apply to `engine`: the first of its commands that
/// `known_command` does not know.
fn missing_extension(engine: &mut Engine, suite: &Suite, timeout: Duration) -> Option<String> {
    for name in &suite.extensions {
        match engine.ask(&format!("known_command {name}"), None, timeout) {
            Ok(answer) if answer.status == AnswerStatus::Success && answer.text == "true" => {}
            _ => {
                return Some(format!(
                    "an extension file; the engine does not know {name}"
                ));
            }
        }
    }
    None
}

/// For a refused `set_game NAME` set-up: the same command in the spelling of the
/// engine's `list_games` (GoGui's command; Edax lists `Othello`), when that list names
/// the game in another case, and its answer.
fn respelled_set_game(
    engine: &mut Engine,
    command: &str,
    timeout: Duration,
) -> Option<(String, Answer)> {
    let game = command.strip_prefix("set_game ")?.trim();
    let list = engine.ask("list_games", None, timeout).ok()?;
    if list.status != AnswerStatus::Success {
        return None;
    }
    let spelling = crate::client::listed_spelling(&list.text, game).filter(|g| *g != game)?;
    let respelled = format!("set_game {spelling}");
    let answer = engine.ask(&respelled, None, timeout).ok()?;
    Some((respelled, answer))
}

fn run_suite(
    config: &Config,
    suite: &Suite,
    summary: &mut Summary,
    out: &mut dyn Write,
) -> io::Result<FileRecord> {
    let dir = match suite.path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut file = FileRecord {
        path: suite.path.clone(),
        not_applying: None,
        cases: Vec::new(),
        total: suite
            .steps
            .iter()
            .filter(|s| matches!(s.check, Check::Case { .. }))
            .count(),
    };
    let mut state = match Engine::start(&config.program, &config.args, dir) {
        Ok(engine) => State::Running(engine),
        Err(fault) => State::Broken { line_no: 0, fault },
    };
    let mut cases_seen = false;
    for step in &suite.steps {
        // An extension file is checked after its leading set-up (a refused game set-up
        // is the better reason) and before its first case.
        if !cases_seen
            && file.not_applying.is_none()
            && matches!(step.check, Check::Case { .. })
            && let State::Running(engine) = &mut state
        {
            file.not_applying = missing_extension(engine, suite, config.timeout);
        }
        if file.not_applying.is_some() {
            break;
        }
        let id = match &step.check {
            Check::Case { id, .. } => Some(*id),
            Check::SetUp => None,
        };
        if config.verbose {
            writeln!(out, "> {}", step.command)?;
        }
        let answer = match &mut state {
            State::Running(engine) => match engine.ask(&step.command, id, config.timeout) {
                Ok(answer) => {
                    let respelled = match (id, &answer.status) {
                        (None, AnswerStatus::Failure) => {
                            respelled_set_game(engine, &step.command, config.timeout)
                        }
                        _ => None,
                    };
                    let answer = match respelled {
                        Some((line, second)) => {
                            if config.verbose {
                                writeln!(out, "> {line}")?;
                            }
                            second
                        }
                        None => answer,
                    };
                    if config.verbose {
                        let mark = match answer.status {
                            AnswerStatus::Success => '=',
                            AnswerStatus::Failure => '?',
                        };
                        let id = id.map_or(String::new(), |id| id.to_string());
                        for (i, line) in answer.text.lines().enumerate() {
                            match i {
                                0 => writeln!(out, "< {mark}{id} {line}")?,
                                _ => writeln!(out, "< {line}")?,
                            }
                        }
                        if answer.text.is_empty() {
                            writeln!(out, "< {mark}{id}")?;
                        }
                    }
                    Ok(answer)
                }
                Err(fault) if !fault.is_fatal() => Err(Reason::Fault(fault)),
                Err(fault) => {
                    // Dropping the engine kills and reaps it.
                    state = State::Broken {
                        line_no: step.line_no,
                        fault: fault.clone(),
                    };
                    Err(Reason::Fault(fault))
                }
            },
            State::Broken { line_no, fault } => Err(Reason::NotRun {
                line_no: *line_no,
                fault: fault.clone(),
            }),
        };
        match &step.check {
            Check::Case { id, expectation } => {
                cases_seen = true;
                let outcome = judge(expectation, answer);
                summary.count(&outcome);
                if config.long || outcome != Outcome::Passed {
                    report(out, suite, step, *id, expectation, &outcome)?;
                }
                file.cases.push(CaseRecord {
                    id: *id,
                    line_no: step.line_no,
                    command: step.command.clone(),
                    outcome,
                });
            }
            Check::SetUp => {
                let name = step.command.split_whitespace().next().unwrap_or("");
                if !cases_seen
                    && GAME_SET_UP.contains(&name)
                    && let Ok(answer) = &answer
                    && answer.status == AnswerStatus::Failure
                {
                    file.not_applying = Some(format!(
                        "set-up {:?} refused: {:?}",
                        step.command,
                        shortened(&answer.text)
                    ));
                }
            }
        }
    }
    if let State::Running(engine) = state {
        engine.quit(QUIT_GRACE);
    }
    Ok(file)
}

/// A case's outcome from its answer, or from why there is none.
pub fn judge(expectation: &Expectation, answer: Result<Answer, Reason>) -> Outcome {
    let answer = match answer {
        Ok(answer) => answer,
        Err(reason) => return Outcome::Failed(reason),
    };
    let reason = match expectation.judge(&answer) {
        Verdict::Pass => {
            return match expectation.known {
                Known::ToPass => Outcome::Passed,
                Known::ToFail => Outcome::UnexpectedPass,
            };
        }
        Verdict::Mismatch => Reason::Mismatch(answer.text),
        Verdict::ErrorAnswer => Reason::ErrorAnswer(answer.text),
    };
    match expectation.known {
        Known::ToPass => Outcome::Failed(reason),
        Known::ToFail => Outcome::ExpectedFailure(reason),
    }
}

/// One line for a case that did not simply pass:
/// `FILE:LINE: case ID LABEL: COMMAND | expected PATTERN | got ANSWER`.
fn report(
    out: &mut dyn Write,
    suite: &Suite,
    step: &Step,
    id: u64,
    expectation: &Expectation,
    outcome: &Outcome,
) -> io::Result<()> {
    let (label, reason) = match outcome {
        Outcome::Passed => ("passed", None),
        Outcome::UnexpectedPass => ("unexpected pass", None),
        Outcome::Failed(reason) => ("FAILED", Some(reason)),
        Outcome::ExpectedFailure(reason) => ("expected failure", Some(reason)),
    };
    write!(
        out,
        "{}:{}: case {id} {label}: {} | expected {expectation}",
        suite.path.display(),
        step.line_no,
        step.command
    )?;
    match reason {
        None => writeln!(out),
        Some(reason) => writeln!(out, " | {}", reason_text(reason)),
    }
}

/// What a case got, for people: `got "TEXT"`, `got error "TEXT"`, `got a wrong id:
/// FAULT`, `got no answer: FAULT`, `not run: FAULT at line N`.
#[must_use]
pub fn reason_text(reason: &Reason) -> String {
    match reason {
        Reason::Mismatch(text) => format!("got {:?}", shortened(text)),
        Reason::ErrorAnswer(text) => format!("got error {:?}", shortened(text)),
        Reason::Fault(fault @ Fault::WrongId { .. }) => format!("got a wrong id: {fault}"),
        Reason::Fault(fault) => format!("got no answer: {fault}"),
        Reason::NotRun { line_no: 0, fault } => format!("not run: {fault}"),
        Reason::NotRun { line_no, fault } => format!("not run: {fault} at line {line_no}"),
    }
}

/// An answer as reported: its first [`REPORTED_CHARS`] characters, then `…`.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(REPORTED_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::suite::{AnswerStatus, Sense};

    fn expect(known: Known) -> Expectation {
        Expectation::new("e5", Sense::Matches, known).unwrap()
    }

    fn answer(status: AnswerStatus, text: &str) -> Result<Answer, Reason> {
        Ok(Answer {
            status,
            text: text.into(),
        })
    }

    #[test]
    fn outcomes_follow_the_expectation_and_the_star() {
        use AnswerStatus::{Failure, Success};
        assert_eq!(
            judge(&expect(Known::ToPass), answer(Success, "e5")),
            Outcome::Passed
        );
        assert_eq!(
            judge(&expect(Known::ToPass), answer(Success, "d4")),
            Outcome::Failed(Reason::Mismatch("d4".into()))
        );
        assert_eq!(
            judge(&expect(Known::ToFail), answer(Success, "e5")),
            Outcome::UnexpectedPass
        );
        assert_eq!(
            judge(&expect(Known::ToFail), answer(Failure, "illegal move")),
            Outcome::ExpectedFailure(Reason::ErrorAnswer("illegal move".into()))
        );
    }

    #[test]
    fn long_answers_are_shortened_in_reports() {
        assert_eq!(shortened("short"), "short");
        let long = "é".repeat(REPORTED_CHARS + 5);
        assert_eq!(shortened(&long).chars().count(), REPORTED_CHARS + 1);
        assert!(shortened(&long).ends_with('…'));
    }

    #[test]
    fn an_engine_fault_is_never_an_expected_failure() {
        let fault = Reason::Fault(Fault::Timeout(Duration::from_secs(1)));
        assert_eq!(
            judge(&expect(Known::ToFail), Err(fault.clone())),
            Outcome::Failed(fault)
        );
    }

    #[test]
    fn the_summary_counts_unexpected_passes_as_passed() {
        let mut summary = Summary::default();
        for outcome in [
            Outcome::Passed,
            Outcome::UnexpectedPass,
            Outcome::Failed(Reason::Mismatch(String::new())),
            Outcome::ExpectedFailure(Reason::Mismatch(String::new())),
        ] {
            summary.count(&outcome);
        }
        assert_eq!((summary.passed, summary.failed), (2, 1));
        assert_eq!(
            (summary.expected_failures, summary.unexpected_passes),
            (1, 1)
        );
        let mut text = Vec::new();
        summary.write(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert_eq!(text.lines().last(), Some("2 passed, 1 failed"));
        assert_eq!(
            text.lines().next(),
            Some("0 files: 1 expected failure, 1 unexpected pass")
        );
        summary.files = 1;
        summary.skipped = 3;
        summary.not_applying = 1;
        let mut text = Vec::new();
        summary.write(&mut text).unwrap();
        assert!(String::from_utf8(text).unwrap().starts_with(
            "1 file: 1 expected failure, 1 unexpected pass, 3 skipped (1 file not applying)\n"
        ));
    }
}
