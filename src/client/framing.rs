//! GTP 2 answer framing as a controller reads it: a first line `=` or `?`, the
//! command's id when it had one, then nothing or a space (or tab) and the text; more
//! lines of text; an empty line ends the answer.

use std::time::Instant;

/// One whole answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// `=` (true) or `?` (false).
    pub ok: bool,
    /// The id the answer carried.
    pub id: Option<u64>,
    /// The text after the mark, id and space, its lines joined by `\n`.
    pub text: String,
    /// The first line exactly as read (for strict checks and messages).
    pub head: String,
    /// When the first line arrived.
    pub at: Instant,
}

/// Which id an answer must carry: GTP 2 echoes a command's id, and only then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Echo {
    /// The command had none: an answer with an id is wrong.
    Nothing,
    /// The command had this one: the answer must carry it.
    Id(u64),
    /// Whatever the answer carries is read (raw lines whose ids the caller checks).
    Any,
}

/// A first line read as an answer's head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Head<'a> {
    /// Well framed: the mark, the id, the text.
    Answer {
        ok: bool,
        id: Option<u64>,
        text: &'a str,
    },
    /// Well framed, but with an id other than the one expected.
    WrongId,
    /// Not an answer's first line.
    Garbage,
}

/// Reads `line` as an answer's first line, with `echo` saying which id it must carry.
#[must_use]
pub fn parse_head(line: &str, echo: Echo) -> Head<'_> {
    let ok = match line.chars().next() {
        Some('=') => true,
        Some('?') => false,
        _ => return Head::Garbage,
    };
    let rest = &line[1..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (echoed, text) = rest.split_at(digits);
    let text = if text.is_empty() {
        ""
    } else if let Some(text) = text.strip_prefix([' ', '\t']) {
        text
    } else {
        return Head::Garbage;
    };
    let id = if digits == 0 {
        None
    } else {
        match echoed.parse::<u64>() {
            Ok(id) => Some(id),
            Err(_) => return Head::Garbage,
        }
    };
    match echo {
        Echo::Any => {}
        Echo::Nothing if id.is_some() => return Head::WrongId,
        Echo::Id(expected) if id != Some(expected) => return Head::WrongId,
        Echo::Nothing | Echo::Id(_) => {}
    }
    Head::Answer { ok, id, text }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(ok: bool, id: Option<u64>, text: &str) -> Head<'_> {
        Head::Answer { ok, id, text }
    }

    #[test]
    fn heads_are_read_per_gtp_2() {
        assert_eq!(parse_head("= 2", Echo::Nothing), answer(true, None, "2"));
        assert_eq!(
            parse_head("=12 e5", Echo::Id(12)),
            answer(true, Some(12), "e5")
        );
        assert_eq!(
            parse_head("?3 illegal move", Echo::Id(3)),
            answer(false, Some(3), "illegal move")
        );
        assert_eq!(parse_head("=4", Echo::Id(4)), answer(true, Some(4), ""));
        assert_eq!(parse_head("= ", Echo::Nothing), answer(true, None, ""));
        assert_eq!(parse_head("=", Echo::Nothing), answer(true, None, ""));
        assert_eq!(parse_head("=\te5", Echo::Nothing), answer(true, None, "e5"));
        assert_eq!(parse_head("=7 x", Echo::Any), answer(true, Some(7), "x"));
        assert_eq!(parse_head("= x", Echo::Any), answer(true, None, "x"));
    }

    #[test]
    fn garbage_and_wrong_ids_are_told_apart() {
        assert_eq!(parse_head("hello", Echo::Nothing), Head::Garbage);
        assert_eq!(parse_head("", Echo::Any), Head::Garbage);
        assert_eq!(parse_head("=e5", Echo::Nothing), Head::Garbage);
        assert_eq!(parse_head("=5 e5", Echo::Id(12)), Head::WrongId);
        assert_eq!(parse_head("= e5", Echo::Id(12)), Head::WrongId);
        assert_eq!(parse_head("=99 e5", Echo::Nothing), Head::WrongId);
        assert_eq!(
            parse_head("=99999999999999999999999 e5", Echo::Any),
            Head::Garbage
        );
    }
}
