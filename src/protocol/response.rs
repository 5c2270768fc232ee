//! A response and its GTP 2 framing.
//!
//! Success is `=`, the id if the command had one, a space, the text, and an empty
//! line; failure is the same with `?`. The text never contains an empty line (GTP 2
//! reserves it to end a response), so [`Response`]'s `Display` drops blank lines
//! from multi-line texts.

use std::fmt;

/// The answer to one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub id: Option<u64>,
    pub outcome: Result<String, String>,
}

impl Response {
    /// A success with `text`.
    #[must_use]
    pub fn success(id: Option<u64>, text: impl Into<String>) -> Response {
        Response {
            id,
            outcome: Ok(text.into()),
        }
    }

    /// A failure with `message`.
    #[must_use]
    pub fn failure(id: Option<u64>, message: impl Into<String>) -> Response {
        Response {
            id,
            outcome: Err(message.into()),
        }
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mark, text) = match &self.outcome {
            Ok(text) => ('=', text),
            Err(message) => ('?', message),
        };
        f.write_fmt(format_args!("{mark}"))?;
        if let Some(id) = self.id {
            write!(f, "{id}")?;
        }
        f.write_str(" ")?;
        // A leading newline is kept (multi-line answers such as showboard start on the
        // next line); blank lines anywhere else would end the response early.
        let mut first = true;
        for line in text.split('\n') {
            let line = line.trim_end_matches('\r');
            if !first {
                if line.trim().is_empty() {
                    continue;
                }
                f.write_str("\n")?;
            }
            f.write_str(line)?;
            first = false;
        }
        f.write_str("\n\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing_with_and_without_id() {
        assert_eq!(Response::success(Some(3), "2").to_string(), "=3 2\n\n");
        assert_eq!(Response::success(None, "").to_string(), "= \n\n");
        assert_eq!(
            Response::failure(Some(0), "unknown command").to_string(),
            "?0 unknown command\n\n"
        );
    }

    #[test]
    fn multi_line_answers_contain_no_empty_line() {
        let shown = Response::success(None, "\na\n\nb\n").to_string();
        assert_eq!(shown, "= \na\nb\n\n");
        assert_eq!(shown.matches("\n\n").count(), 1);
    }
}
