//! A `.tst` file as data: the list of [`Step`]s to send, each with what its answer
//! must look like, and the [`Expectation`] matcher that judges an answer.
//!
//! The format is GNU Go's and GoGui's regression format:
//!
//! - a plain protocol command is a step; unnumbered, it is set-up (its answer is read
//!   and not judged);
//! - a numbered command (`12 genmove b`) is a case, numbered by its id; the line right
//!   after it may be `#? [REGEX]`, the pattern its whole answer text must match
//!   (`#? [!REGEX]` must not match; a `*` after the closing bracket marks a known,
//!   expected failure). Without a `#?` line, or with an empty one, the case passes on
//!   any success answer; `#? []` expects an empty answer;
//! - an error answer (`?`) always fails a case, negated or not;
//! - other lines starting with `#`, and blank lines, are comments.
//!
//! Patterns are matched as GoGui matches them: against the whole answer text (the text
//! after `=id `, its lines joined with `\n`, surrounding white space trimmed), with
//! `.` matching a newline and `^`/`$` matching at line ends. The Java regex features
//! gogui-regress files use beyond Rust's `regex` (look-ahead, look-behind,
//! back-references) are read by `fancy-regex`.

use std::fmt;

use fancy_regex::Regex;

/// One line of a `.tst` file that is sent to the engine.
#[derive(Debug, Clone)]
pub struct Step {
    /// 1-based line number in the file.
    pub line_no: usize,
    /// The line as sent (trimmed, tabs made spaces), with its id if it has one.
    pub command: String,
    /// Set-up, or a case to judge.
    pub check: Check,
}

/// What to do with a step's answer.
#[derive(Debug, Clone)]
pub enum Check {
    /// An unnumbered command: the answer is read and not judged.
    SetUp,
    /// A numbered command: a test case.
    Case { id: u64, expectation: Expectation },
}

/// Whether a pattern must match or must not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sense {
    Matches,
    DoesNotMatch,
}

/// Whether a case is expected to pass or marked as a known failure (`*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    ToPass,
    ToFail,
}

/// What a case's answer must look like.
#[derive(Debug, Clone)]
pub struct Expectation {
    pub pattern: Pattern,
    pub sense: Sense,
    pub known: Known,
}

/// The pattern a case's answer text is held to.
#[derive(Debug, Clone)]
pub enum Pattern {
    /// No pattern (a numbered command without `#?`, or an empty `#?`): any success.
    AnySuccess,
    /// `#? [SOURCE]`: the source as written, and its compiled, anchored form.
    Regex { source: String, regex: Regex },
}

/// A received answer: success or failure, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub status: AnswerStatus,
    /// The text after the mark, the id and the space; lines joined with `\n`,
    /// surrounding white space trimmed.
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerStatus {
    Success,
    Failure,
}

/// How a case's answer compares with its expectation, before `*` is considered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    /// A success answer that the pattern refuses.
    Mismatch,
    /// An error answer (`?`).
    ErrorAnswer,
}

impl Expectation {
    /// The expectation of a numbered command with no pattern: any success.
    pub fn any_success() -> Expectation {
        Expectation {
            pattern: Pattern::AnySuccess,
            sense: Sense::Matches,
            known: Known::ToPass,
        }
    }

    /// Compiles `source`, anchored to the whole answer (`[]` matches only an empty
    /// answer).
    pub fn new(
        source: &str,
        sense: Sense,
        known: Known,
    ) -> Result<Expectation, Box<fancy_regex::Error>> {
        let regex = Regex::new(&format!(r"(?ms)\A(?:{source})\z")).map_err(Box::new)?;
        Ok(Expectation {
            pattern: Pattern::Regex {
                source: source.to_string(),
                regex,
            },
            sense,
            known,
        })
    }

    /// Judges one answer: an error answer always fails.
    pub fn judge(&self, answer: &Answer) -> Verdict {
        if answer.status == AnswerStatus::Failure {
            return Verdict::ErrorAnswer;
        }
        let matches = match &self.pattern {
            Pattern::AnySuccess => true,
            // A pattern that exhausts the backtracking limit matches nothing.
            Pattern::Regex { regex, .. } => regex.is_match(&answer.text).unwrap_or(false),
        };
        match (self.sense, matches) {
            (Sense::Matches, true) | (Sense::DoesNotMatch, false) => Verdict::Pass,
            _ => Verdict::Mismatch,
        }
    }
}

impl fmt::Display for Expectation {
    /// The pattern as it would be written after `#? ` (`[!e5]*`), or `any success`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.pattern {
            Pattern::AnySuccess => f.write_str("any success")?,
            Pattern::Regex { source, .. } => {
                let bang = match self.sense {
                    Sense::Matches => "",
                    Sense::DoesNotMatch => "!",
                };
                write!(f, "[{bang}{source}]")?;
            }
        }
        if self.known == Known::ToFail {
            f.write_str("*")?;
        }
        Ok(())
    }
}

/// Why a `.tst` file could not be read as steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub line_no: usize,
    pub kind: ParseErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// A `#?` line that does not follow a numbered command directly.
    PatternWithoutCase,
    /// A `#?` line whose pattern is not in brackets.
    NoBrackets,
    /// The pattern is not a valid regular expression.
    BadRegex(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line_no)?;
        match &self.kind {
            ParseErrorKind::PatternWithoutCase => {
                f.write_str("a `#?` line must follow a numbered command")
            }
            ParseErrorKind::NoBrackets => {
                f.write_str("a `#?` pattern is written in brackets: `#? [REGEX]`")
            }
            ParseErrorKind::BadRegex(why) => write!(f, "bad regular expression: {why}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Reads a whole `.tst` text into steps.
pub fn parse(text: &str) -> Result<Vec<Step>, ParseError> {
    let mut steps: Vec<Step> = Vec::new();
    // Whether the previous line was a numbered command still waiting for its pattern.
    let mut open_case = false;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        if let Some(rest) = line.strip_prefix("#?") {
            let case = steps.last_mut().filter(|_| open_case);
            let Some(Step {
                check: Check::Case { expectation, .. },
                ..
            }) = case
            else {
                return Err(ParseError {
                    line_no,
                    kind: ParseErrorKind::PatternWithoutCase,
                });
            };
            *expectation = parse_pattern(rest.trim(), line_no)?;
            open_case = false;
            continue;
        }
        open_case = false;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let command = line.replace('\t', " ");
        let check = match case_id(&command) {
            Some(id) => {
                open_case = true;
                Check::Case {
                    id,
                    expectation: Expectation::any_success(),
                }
            }
            None => Check::SetUp,
        };
        steps.push(Step {
            line_no,
            command,
            check,
        });
    }
    Ok(steps)
}

/// The id of a numbered command line (`12 genmove b` → 12).
fn case_id(command: &str) -> Option<u64> {
    let (first, _) = command.split_once(' ')?;
    if first.bytes().all(|b| b.is_ascii_digit()) {
        first.parse().ok()
    } else {
        None
    }
}

/// Reads what follows `#?`: `[REGEX]`, `[!REGEX]`, either with a `*`, or nothing.
fn parse_pattern(text: &str, line_no: usize) -> Result<Expectation, ParseError> {
    if text.is_empty() {
        return Ok(Expectation::any_success());
    }
    let (text, known) = match text.strip_suffix('*') {
        Some(rest) => (rest.trim_end(), Known::ToFail),
        None => (text, Known::ToPass),
    };
    let inner = text
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .ok_or(ParseError {
            line_no,
            kind: ParseErrorKind::NoBrackets,
        })?
        .trim();
    let (source, sense) = match inner.strip_prefix('!') {
        Some(rest) => (rest, Sense::DoesNotMatch),
        None => (inner, Sense::Matches),
    };
    Expectation::new(source, sense, known).map_err(|error| ParseError {
        line_no,
        kind: ParseErrorKind::BadRegex(error.to_string()),
    })
}

#[cfg(test)]
mod look_around {
    use super::*;

    #[test]
    fn java_style_look_around_and_back_references_match() {
        let any_order = Expectation::new(
            r"(?=.*^quit$)(?=.*^known_command$).*",
            Sense::Matches,
            Known::ToPass,
        );
        let any_order = any_order.ok().map(|e| {
            let answer = |text: &str| Answer {
                status: AnswerStatus::Success,
                text: text.into(),
            };
            (
                e.judge(&answer("quit\nknown_command")),
                e.judge(&answer("known_command\nname\nquit")),
                e.judge(&answer("known_command\nname")),
            )
        });
        assert_eq!(
            any_order,
            Some((Verdict::Pass, Verdict::Pass, Verdict::Mismatch))
        );
        let twice = Expectation::new(r"(\w+) \1", Sense::Matches, Known::ToPass).ok();
        let answer = Answer {
            status: AnswerStatus::Success,
            text: "e5 e5".into(),
        };
        assert_eq!(twice.map(|e| e.judge(&answer)), Some(Verdict::Pass));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn success(text: &str) -> Answer {
        Answer {
            status: AnswerStatus::Success,
            text: text.to_string(),
        }
    }

    fn failure(text: &str) -> Answer {
        Answer {
            status: AnswerStatus::Failure,
            text: text.to_string(),
        }
    }

    fn expectation(step: &Step) -> (u64, &Expectation) {
        match &step.check {
            Check::Case { id, expectation } => (*id, expectation),
            Check::SetUp => panic!("line {} is set-up", step.line_no),
        }
    }

    #[test]
    fn unnumbered_commands_are_set_up_and_numbered_ones_are_cases() {
        let steps = parse("boardsize 9\n\tclear_board  \n12 genmove b\n#? [e5]\n").unwrap();
        assert_eq!(steps.len(), 3);
        assert!(matches!(steps[0].check, Check::SetUp));
        assert_eq!(steps[1].command, "clear_board");
        assert_eq!(steps[1].line_no, 2);
        let (id, expected) = expectation(&steps[2]);
        assert_eq!(id, 12);
        assert_eq!(steps[2].command, "12 genmove b");
        assert_eq!(expected.to_string(), "[e5]");
        assert_eq!(expected.judge(&success("e5")), Verdict::Pass);
        assert_eq!(expected.judge(&success("E5")), Verdict::Mismatch);
    }

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        let text = "# a comment\n\n   # indented comment\n1 name\n#? [tabula]\n# after\n";
        let steps = parse(text).unwrap();
        assert_eq!(steps.len(), 1);
        assert_eq!(steps[0].line_no, 4);
    }

    #[test]
    fn negation_and_expected_failure_are_read() {
        let steps =
            parse("1 a\n#? [!e5]\n2 b\n#? [e5]*\n3 c\n#? [!e5] *\n4 d\n#? [ spaced ]\n").unwrap();
        let (_, first) = expectation(&steps[0]);
        assert_eq!(
            (first.sense, first.known),
            (Sense::DoesNotMatch, Known::ToPass)
        );
        assert_eq!(first.judge(&success("e5")), Verdict::Mismatch);
        assert_eq!(first.judge(&success("d4")), Verdict::Pass);
        let (_, second) = expectation(&steps[1]);
        assert_eq!(
            (second.sense, second.known),
            (Sense::Matches, Known::ToFail)
        );
        assert_eq!(second.to_string(), "[e5]*");
        let (_, third) = expectation(&steps[2]);
        assert_eq!(
            (third.sense, third.known),
            (Sense::DoesNotMatch, Known::ToFail)
        );
        assert_eq!(third.to_string(), "[!e5]*");
        let (_, fourth) = expectation(&steps[3]);
        assert_eq!(fourth.to_string(), "[spaced]");
    }

    #[test]
    fn a_numbered_command_without_pattern_passes_on_any_success() {
        let steps = parse("5 showboard\n6 name\n#?\n").unwrap();
        for step in &steps {
            let (_, expected) = expectation(step);
            assert_eq!(expected.to_string(), "any success");
            assert_eq!(expected.judge(&success("a\nb")), Verdict::Pass);
            assert_eq!(expected.judge(&success("")), Verdict::Pass);
            assert_eq!(expected.judge(&failure("x")), Verdict::ErrorAnswer);
        }
    }

    #[test]
    fn the_pattern_must_match_the_whole_answer() {
        let expected = Expectation::new("e5|d4", Sense::Matches, Known::ToPass).unwrap();
        assert_eq!(expected.judge(&success("e5")), Verdict::Pass);
        assert_eq!(expected.judge(&success("d4")), Verdict::Pass);
        assert_eq!(expected.judge(&success("e55")), Verdict::Mismatch);
        assert_eq!(expected.judge(&success("xd4")), Verdict::Mismatch);
        let digits = Expectation::new(r"\d+", Sense::Matches, Known::ToPass).unwrap();
        assert_eq!(digits.judge(&success("1234")), Verdict::Pass);
        assert_eq!(digits.judge(&success("12 34")), Verdict::Mismatch);
    }

    #[test]
    fn empty_brackets_match_only_an_empty_answer() {
        let steps = parse("1 boardsize 8\n#? []\n").unwrap();
        let (_, expected) = expectation(&steps[0]);
        assert_eq!(expected.to_string(), "[]");
        assert_eq!(expected.judge(&success("")), Verdict::Pass);
        assert_eq!(expected.judge(&success("x")), Verdict::Mismatch);
    }

    #[test]
    fn multi_line_answers_match_across_lines() {
        let answer = success("protocol_version\nname\nquit");
        let dot_all = Expectation::new(".*name.*", Sense::Matches, Known::ToPass).unwrap();
        assert_eq!(dot_all.judge(&answer), Verdict::Pass);
        let exact = Expectation::new(
            r"protocol_version\nname\nquit",
            Sense::Matches,
            Known::ToPass,
        )
        .unwrap();
        assert_eq!(exact.judge(&answer), Verdict::Pass);
        let line_anchors =
            Expectation::new(r"(?:^\w+$\n?)+", Sense::Matches, Known::ToPass).unwrap();
        assert_eq!(line_anchors.judge(&answer), Verdict::Pass);
        let first_line_only =
            Expectation::new("protocol_version", Sense::Matches, Known::ToPass).unwrap();
        assert_eq!(first_line_only.judge(&answer), Verdict::Mismatch);
    }

    #[test]
    fn an_error_answer_fails_even_a_negated_pattern() {
        let negated = Expectation::new("e5", Sense::DoesNotMatch, Known::ToPass).unwrap();
        assert_eq!(
            negated.judge(&failure("illegal move")),
            Verdict::ErrorAnswer
        );
        let anything = Expectation::new(".*", Sense::Matches, Known::ToPass).unwrap();
        assert_eq!(anything.judge(&failure("")), Verdict::ErrorAnswer);
    }

    #[test]
    fn malformed_patterns_are_errors_with_their_line() {
        let orphan = parse("# c\n#? [x]\n").unwrap_err();
        assert_eq!(orphan.kind, ParseErrorKind::PatternWithoutCase);
        assert_eq!(orphan.line_no, 2);
        let after_set_up = parse("name\n#? [x]\n").unwrap_err();
        assert_eq!(after_set_up.kind, ParseErrorKind::PatternWithoutCase);
        let after_comment = parse("1 name\n# c\n#? [x]\n").unwrap_err();
        assert_eq!(after_comment.kind, ParseErrorKind::PatternWithoutCase);
        let twice = parse("1 name\n#? [x]\n#? [y]\n").unwrap_err();
        assert_eq!(twice.line_no, 3);
        let brackets = parse("1 name\n#? x\n").unwrap_err();
        assert_eq!(brackets.kind, ParseErrorKind::NoBrackets);
        let regex = parse("1 name\n#? [(]\n").unwrap_err();
        assert!(matches!(regex.kind, ParseErrorKind::BadRegex(_)));
        assert!(
            regex
                .to_string()
                .starts_with("line 2: bad regular expression")
        );
    }

    #[test]
    fn ids_need_a_space_and_digits_only() {
        let steps = parse("12genmove b\n-1 name\n007 name\n").unwrap();
        assert!(matches!(steps[0].check, Check::SetUp));
        assert!(matches!(steps[1].check, Check::SetUp));
        assert_eq!(expectation(&steps[2]).0, 7);
    }
}
