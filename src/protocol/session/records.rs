//! Othello records through the session: `play_sequence` (a transcript such as
//! `f5d6c3`), `loadggf FILE` and `saveggf` (GGF, see `games::othello::ggf`).
//!
//! A loaded or played sequence goes onto the history one move at a time, so `undo`
//! takes back one move as after `play`. Everything is checked before anything
//! changes: a refused record leaves the session as it was.

use super::{Answer, Game, Refusal, Session};
use crate::games::Color;
use crate::games::othello::ggf::{self, Game as Record};
use crate::games::othello::{Move, Position};
use crate::protocol::command::Command;

/// The moves of a transcript: squares written one after another (`f5d6c3`, any case,
/// spaces allowed), `PA` or `pass` for a pass.
fn transcript(text: &str) -> Result<Vec<Move>, Refusal> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut moves = Vec::new();
    let mut rest = compact.as_str();
    while !rest.is_empty() {
        let (word, after) = if rest
            .get(..4)
            .is_some_and(|w| w.eq_ignore_ascii_case("pass"))
        {
            rest.split_at(4)
        } else if rest.len() >= 2 && rest.is_char_boundary(2) {
            rest.split_at(2)
        } else {
            return Err(format!("syntax error: {rest:?} is not a move"));
        };
        let mv =
            ggf::parse_move(word).ok_or_else(|| format!("syntax error: {word:?} is not a move"))?;
        moves.push(mv);
        rest = after;
    }
    Ok(moves)
}

/// The positions after each of `moves` from `start`, forced passes left out of the
/// record played where they fall. Refuses the first move that is not legal.
fn replay(start: &Position, moves: &[Move]) -> Result<Vec<Position>, Refusal> {
    let mut position = *start;
    let mut after = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        let played = ggf::play_lenient(&mut position, mv)
            .map_err(|e| format!("illegal move {} ({mv}): {e}", i + 1))?;
        // A pass played for the record gets its own step too.
        if played.len() == 2 {
            let mut passed = after.last().copied().unwrap_or(*start);
            let side = passed.side_to_move();
            let _ = passed.play(side, Move::Pass);
            after.push(passed);
        }
        after.push(position);
    }
    Ok(after)
}

/// Sets the session to `start` followed by the `steps`, each step an undo point.
fn install(session: &mut Session, start: Option<Position>, steps: Vec<Position>) {
    if let Some(start) = start {
        session.forget_history();
        session.game = Game::Othello(start);
    }
    for position in steps {
        let before = std::mem::replace(&mut session.game, Game::Othello(position));
        session.history.push(before);
    }
}

/// GoGui's form of a sequence: colours and moves in pairs (`b F4 w D3`). `None` when
/// the text does not start with a colour (a transcript).
fn pairs(text: &str) -> Option<Result<Vec<(Color, Move)>, Refusal>> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let color = |word: &str| match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    };
    color(words.first()?)?;
    Some(
        words
            .chunks(2)
            .map(|pair| match pair {
                [c, m] => match (color(c), ggf::parse_move(m)) {
                    (Some(c), Some(m)) => Ok((c, m)),
                    _ => Err(format!("syntax error: {c} {m} is not a colour and a move")),
                },
                _ => Err("syntax error: a colour without a move".to_string()),
            })
            .collect(),
    )
}

/// The positions after each of GoGui's `(colour, move)` pairs, each colour the side
/// to move where it plays.
fn replay_pairs(start: &Position, moves: &[(Color, Move)]) -> Result<Vec<Position>, Refusal> {
    let mut position = *start;
    let mut after = Vec::new();
    for (i, &(color, mv)) in moves.iter().enumerate() {
        position
            .play(color, mv)
            .map_err(|e| format!("illegal move {} ({} {mv}): {e}", i + 1, color.name()))?;
        after.push(position);
    }
    Ok(after)
}

/// `play_sequence MOVES`: plays a transcript (`f5d6c3`) or GoGui's colour and move
/// pairs (`b F5 w D6`) from the current position.
pub(super) fn play_sequence(session: &mut Session, text: &str) -> Answer {
    let Game::Othello(position) = &session.game else {
        return Err(session.not_in_this_game(&Command::PlaySequence(text.into())));
    };
    let steps = match pairs(text) {
        Some(moves) => replay_pairs(position, &moves?)?,
        None => replay(position, &transcript(text)?)?,
    };
    install(session, None, steps);
    Ok(String::new())
}

/// `loadggf FILE`: the game of a GGF file, from its start to its last move.
pub(super) fn load(session: &mut Session, path: &str) -> Answer {
    if !matches!(session.game, Game::Othello(_)) {
        return Err(session.not_in_this_game(&Command::LoadGgf(path.into())));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let record = ggf::read(&text).map_err(|e| e.to_string())?;
    let steps = replay(&record.start, &record.moves)?;
    install(session, Some(record.start), steps);
    Ok(String::new())
}

/// The move that leads from `before` to `after`, if one does.
fn move_between(before: &Position, after: &Position) -> Option<Move> {
    before.legal_moves().into_iter().find(|&mv| {
        let mut next = *before;
        next.play(before.side_to_move(), mv).is_ok() && next == *after
    })
}

/// `saveggf`: the game since the last position set (or the start), as one GGF line.
pub(super) fn save(session: &Session) -> Answer {
    let Game::Othello(now) = &session.game else {
        return Err(session.not_in_this_game(&Command::SaveGgf));
    };
    // The history since the last `set_position`, `clear_board` or load is this
    // game's positions, oldest first; other kinds of games never share it.
    let mut positions: Vec<Position> = session
        .history
        .iter()
        .filter_map(|game| match game {
            Game::Othello(p) => Some(*p),
            _ => None,
        })
        .collect();
    positions.push(*now);
    let start = positions[0];
    let mut moves = Vec::new();
    for pair in positions.windows(2) {
        moves.push(
            move_between(&pair[0], &pair[1]).ok_or("internal error: the history is not a game")?,
        );
    }
    let mut record = Record::new(start, moves);
    record.properties.push(("PC".into(), "tabula".into()));
    Ok(ggf::write(&record))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_split_into_moves() {
        let moves = transcript("f5D6 c3pass PAh8").expect("reads");
        let text: Vec<String> = moves.iter().map(ToString::to_string).collect();
        assert_eq!(text, ["f5", "d6", "c3", "pass", "pass", "h8"]);
        assert!(transcript("f5d").is_err());
        assert!(transcript("f5z9").is_err());
        assert!(transcript("f5é").is_err());
        // A character of several bytes across the fourth byte is refused, not a
        // panic (the fuzzer found `d3 🐢`-like lines).
        assert!(transcript("abc🐢").is_err());
        assert!(transcript("d3p🐢").is_err());
    }

    #[test]
    fn gogui_pairs_are_told_from_transcripts() {
        assert!(pairs("f5d6").is_none());
        let read = pairs("B F5 w d6 b PASS").expect("pairs").expect("valid");
        assert_eq!(read[0], (Color::Black, Move::parse("f5").unwrap()));
        assert_eq!(read[2], (Color::Black, Move::Pass));
        assert!(pairs("b f5 w").expect("pairs").is_err());
        assert!(pairs("b f5 x d6").expect("pairs").is_err());
    }
}
