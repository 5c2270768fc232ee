//! The one runner loop: for each file a fresh engine, each step sent in order, each
//! case judged into an [`Outcome`] and reported as it happens, and the [`Summary`].
//!
//! Counting (as GoGui's gogui-regress counts): a case that passes counts as passed,
//! including a `*` case that passes (also listed as an "unexpected pass"); a case that
//! fails counts as failed unless it is marked `*`, then it is an "expected failure",
//! counted as neither. A case the engine could not answer (crash, timeout, garbage,
//! or an earlier such fault in its file) always counts as failed, `*` or not.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::engine::{Engine, Fault};
use super::suite::{Answer, Check, Expectation, Known, Step, Verdict};

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
}

/// One parsed `.tst` file.
#[derive(Debug, Clone)]
pub struct Suite {
    pub path: PathBuf,
    pub steps: Vec<Step>,
}

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
/// are neither passed nor failed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub files: usize,
    pub passed: usize,
    pub failed: usize,
    pub expected_failures: usize,
    pub unexpected_passes: usize,
}

impl Summary {
    /// True when nothing failed unexpectedly.
    pub fn success(&self) -> bool {
        self.failed == 0
    }

    /// Writes the two closing lines; the last is exactly `N passed, N failed`.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{} files: {} expected failures, {} unexpected passes",
            self.files, self.expected_failures, self.unexpected_passes
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
/// one line each, as it happens. The closing lines are the caller's ([`Summary::write`]).
pub fn run(config: &Config, suites: &[Suite], out: &mut dyn Write) -> io::Result<Summary> {
    let mut summary = Summary::default();
    for suite in suites {
        run_suite(config, suite, &mut summary, out)?;
        summary.files += 1;
    }
    Ok(summary)
}

fn run_suite(
    config: &Config,
    suite: &Suite,
    summary: &mut Summary,
    out: &mut dyn Write,
) -> io::Result<()> {
    let dir = match suite.path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut state = match Engine::start(&config.program, &config.args, dir) {
        Ok(engine) => State::Running(engine),
        Err(fault) => State::Broken { line_no: 0, fault },
    };
    for step in &suite.steps {
        let id = match &step.check {
            Check::Case { id, .. } => Some(*id),
            Check::SetUp => None,
        };
        let answer = match &mut state {
            State::Running(engine) => match engine.ask(&step.command, id, config.timeout) {
                Ok(answer) => Ok(answer),
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
        if let Check::Case { id, expectation } = &step.check {
            let outcome = judge(expectation, answer);
            summary.count(&outcome);
            report(out, suite, step, *id, expectation, &outcome)?;
        }
    }
    if let State::Running(engine) = state {
        engine.quit(QUIT_GRACE);
    }
    Ok(())
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
        Outcome::Passed => return Ok(()),
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
        Some(Reason::Mismatch(text)) => writeln!(out, " | got {:?}", shortened(text)),
        Some(Reason::ErrorAnswer(text)) => writeln!(out, " | got error {:?}", shortened(text)),
        Some(Reason::Fault(fault)) => writeln!(out, " | got no answer: {fault}"),
        Some(Reason::NotRun { line_no: 0, fault }) => {
            writeln!(out, " | not run: {fault}")
        }
        Some(Reason::NotRun { line_no, fault }) => {
            writeln!(out, " | not run: {fault} at line {line_no}")
        }
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
    }
}
