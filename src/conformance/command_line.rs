//! Splits an engine command line (`--engine "CMD ARGS"`) into a program and its
//! arguments the way a POSIX shell splits words, without running a shell: white space
//! separates words; `'…'` is literal; inside `"…"` a backslash escapes `"` and `\`;
//! outside quotes a backslash escapes any character. No expansion of any kind.

use std::fmt;

/// Why a command line could not be split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitError {
    /// Nothing but white space.
    Empty,
    /// A quote that is never closed.
    UnclosedQuote(char),
    /// A backslash at the very end.
    TrailingBackslash,
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::Empty => f.write_str("the engine command is empty"),
            SplitError::UnclosedQuote(quote) => {
                write!(f, "the engine command has an unclosed {quote} quote")
            }
            SplitError::TrailingBackslash => {
                f.write_str("the engine command ends with a lone backslash")
            }
        }
    }
}

impl std::error::Error for SplitError {}

/// The words of `line`: the program first, then its arguments.
pub fn split(line: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    // The word being built, or None between words (so `''` makes an empty word).
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(done) = word.take() {
                    words.push(done);
                }
            }
            '\'' => {
                let current = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => current.push(c),
                        None => return Err(SplitError::UnclosedQuote('\'')),
                    }
                }
            }
            '"' => {
                let current = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => current.push(c),
                            Some(c) => {
                                current.push('\\');
                                current.push(c);
                            }
                            None => return Err(SplitError::UnclosedQuote('"')),
                        },
                        Some(c) => current.push(c),
                        None => return Err(SplitError::UnclosedQuote('"')),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err(SplitError::TrailingBackslash),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(done) = word {
        words.push(done);
    }
    if words.is_empty() {
        return Err(SplitError::Empty);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        split(line).unwrap()
    }

    #[test]
    fn white_space_separates_words() {
        assert_eq!(
            words("  /usr/games/gnugo\t--mode   gtp "),
            ["/usr/games/gnugo", "--mode", "gtp"]
        );
    }

    #[test]
    fn quotes_group_and_backslashes_escape() {
        assert_eq!(
            words(r#"engine 'a b' "c \"d\" \e" f\ g ''"#),
            ["engine", "a b", r#"c "d" \e"#, "f g", ""]
        );
        assert_eq!(words(r#"x"y"'z'"#), ["xyz"]);
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert_eq!(split("   "), Err(SplitError::Empty));
        assert_eq!(split("a 'b"), Err(SplitError::UnclosedQuote('\'')));
        assert_eq!(split("a \"b\\\""), Err(SplitError::UnclosedQuote('"')));
        assert_eq!(split("a \\"), Err(SplitError::TrailingBackslash));
    }
}
