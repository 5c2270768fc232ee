//! The run as JUnit XML (`--junit FILE`), the shape CI systems read: one
//! `<testsuite>` per `.tst` file, one `<testcase>` per case. A case that failed has a
//! `<failure>`; the cases of a file that does not apply to the engine are
//! `<skipped>`; expected failures and unexpected passes pass, with a note in
//! `<system-out>`. Each suite's `tests`, `failures` and `skipped` attributes count its
//! testcases.

use std::fmt::Write as _;

use super::runner::{FileRecord, Outcome, reason_text};

/// `text` escaped for XML attribute values and text.
fn escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 allows no other control characters.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t') => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// The JUnit XML of a run's files.
#[must_use]
pub fn render(files: &[FileRecord]) -> String {
    let mut suites = String::new();
    let (mut tests, mut failures, mut skipped) = (0, 0, 0);
    for file in files {
        let path = file.path.display().to_string();
        let classname = path.trim_end_matches(".tst").replace(['/', '\\'], ".");
        let mut cases = String::new();
        let (mut suite_failures, mut suite_skipped) = (0, 0);
        match &file.not_applying {
            Some(why) => {
                suite_skipped = file.total;
                for n in 0..file.total {
                    let _ = writeln!(
                        cases,
                        "    <testcase name=\"case {}\" classname=\"{}\">\n      <skipped message=\"{}\"/>\n    </testcase>",
                        n + 1,
                        escape(&classname),
                        escape(&format!("does not apply: {why}"))
                    );
                }
            }
            None => {
                for case in &file.cases {
                    let body = match &case.outcome {
                        Outcome::Passed => String::new(),
                        Outcome::UnexpectedPass => {
                            "\n      <system-out>unexpected pass: the case is marked as a known failure</system-out>\n    ".to_string()
                        }
                        Outcome::ExpectedFailure(reason) => format!(
                            "\n      <system-out>expected failure: {}</system-out>\n    ",
                            escape(&reason_text(reason))
                        ),
                        Outcome::Failed(reason) => {
                            suite_failures += 1;
                            let text = escape(&reason_text(reason));
                            format!("\n      <failure message=\"{text}\">{text}</failure>\n    ")
                        }
                    };
                    let _ = writeln!(
                        cases,
                        "    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" line=\"{}\">{body}</testcase>",
                        escape(&format!("case {}: {}", case.id, case.command)),
                        escape(&classname),
                        escape(&path),
                        case.line_no
                    );
                }
            }
        }
        let count = match &file.not_applying {
            Some(_) => file.total,
            None => file.cases.len(),
        };
        tests += count;
        failures += suite_failures;
        skipped += suite_skipped;
        let _ = write!(
            suites,
            "  <testsuite name=\"{}\" tests=\"{count}\" failures=\"{suite_failures}\" errors=\"0\" skipped=\"{suite_skipped}\">\n{cases}  </testsuite>\n",
            escape(&path)
        );
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"tabula conformance\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">\n{suites}</testsuites>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::runner::{CaseRecord, Reason};

    #[test]
    fn suites_count_their_testcases_and_escape_text() {
        let case = |id, outcome| CaseRecord {
            id,
            line_no: id as usize * 2,
            command: format!("{id} echo <a & \"b\">"),
            outcome,
        };
        let files = [
            FileRecord {
                path: "suite/a.tst".into(),
                not_applying: None,
                cases: vec![
                    case(1, Outcome::Passed),
                    case(2, Outcome::Failed(Reason::Mismatch("x<y".into()))),
                    case(
                        3,
                        Outcome::ExpectedFailure(Reason::ErrorAnswer("no".into())),
                    ),
                ],
                total: 3,
            },
            FileRecord {
                path: "suite/b.tst".into(),
                not_applying: Some("set-up \"set_game go\" refused".into()),
                cases: Vec::new(),
                total: 2,
            },
        ];
        let xml = render(&files);
        assert!(xml.contains(
            "<testsuites name=\"tabula conformance\" tests=\"5\" failures=\"1\" errors=\"0\" skipped=\"2\">"
        ));
        assert!(xml.contains(
            "<testsuite name=\"suite/a.tst\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"0\">"
        ));
        assert!(xml.contains("name=\"case 2: 2 echo &lt;a &amp; &quot;b&quot;&gt;\""));
        assert!(xml.contains("<failure message=\"got &quot;x&lt;y&quot;\">"));
        assert_eq!(xml.matches("<testcase ").count(), 5);
        assert_eq!(xml.matches("<skipped ").count(), 2);
        assert_eq!(
            xml.matches("<testsuite ").count(),
            xml.matches("</testsuite>").count()
        );
    }
}
