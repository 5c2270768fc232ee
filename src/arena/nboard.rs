//! NBoard engines (`proto=nboard`): the NBoard engine protocol spoken for the
//! referee, which keeps speaking GTP. Othello only.
//!
//! The protocol: the arena sends `nboard 2`, options as `set NAME VALUE` (`set depth
//! 12`), the game as `set game GGF` (a GGF record: the start board and the moves so
//! far), each further move as `move SQUARE` (`PA` a pass), `go` for the engine's move
//! and `ping N` to wait until the engine has caught up (it answers `pong N`). The
//! engine answers `go` with `=== SQUARE[/EVAL[/TIME]]` (or the fields separated by
//! spaces, as Edax writes them); every other line it prints
//! (`status`, `set myname`, `search`, `nodestats`, `pong`) is read and passed over.
//!
//! The adapter keeps the game (the start position and the moves) and translates the
//! referee's GTP: `boardsize 8`, `clear_board` and `set_position` start a game that is
//! sent with the next `genmove` as `set game`; `play` becomes `move` once the engine
//! has the game; `genmove` becomes `go` and its answer is played at once on both sides
//! (GTP's `genmove` plays its move, NBoard's `go` does not).

use std::time::{Duration, Instant};

use super::engine::{Engine, Failure};
use crate::games::Color;
use crate::games::othello::{Move, Position};

/// What the adapter keeps of the game an NBoard engine plays.
#[derive(Clone, Debug, Default)]
pub struct State {
    start: Position,
    moves: Vec<Move>,
    /// Whether the engine has the game (it was sent `set game` since the last reset).
    synced: bool,
    /// The last `ping` number sent.
    ping: u64,
}

impl State {
    /// The position after the moves.
    fn position(&self) -> Position {
        let mut position = self.start;
        for &mv in &self.moves {
            let _ = position.play(position.side_to_move(), mv);
        }
        position
    }

    /// The game as a GGF record.
    #[must_use]
    pub fn ggf(&self) -> String {
        let notation = self.start.to_notation();
        let (board, side) = notation.split_once(' ').unwrap_or((&notation, "X"));
        let ggf_board: String = board
            .chars()
            .map(|c| match c {
                'X' => '*',
                'O' => 'O',
                _ => '-',
            })
            .collect();
        let side = if side == "O" { 'O' } else { '*' };
        let mut moves = String::new();
        let mut position = self.start;
        for &mv in &self.moves {
            let color = position.side_to_move();
            let _ = position.play(color, mv);
            let tag = if color == Color::Black { 'B' } else { 'W' };
            moves.push_str(&format!("{tag}[{}]", square(mv)));
        }
        format!("(;GM[Othello]PC[tabula arena]TY[8]BO[8 {ggf_board} {side}]{moves};)")
    }
}

/// A move as NBoard writes it: `F5`, `PA` for a pass.
fn square(mv: Move) -> String {
    match mv {
        Move::Pass => "PA".into(),
        Move::Place(square) => square.to_string().to_ascii_uppercase(),
    }
}

/// Sends `ping N` and reads until `pong N` by `deadline`.
fn sync(engine: &mut Engine, state: &mut State, deadline: Instant) -> Result<(), Failure> {
    state.ping += 1;
    let ping = state.ping;
    engine.write_line(format!("ping {ping}"))?;
    let pong = format!("pong {ping}");
    while engine.next_line(deadline)?.1.trim() != pong {}
    Ok(())
}

/// The handshake: `nboard 2`, then a ping answered.
pub fn handshake(engine: &mut Engine, state: &mut State, timeout: Duration) -> Result<(), Failure> {
    engine.write_line("nboard 2")?;
    sync(engine, state, Instant::now() + timeout)
}

/// Sets an option as `set NAME VALUE`.
pub fn set_option(engine: &mut Engine, name: &str, value: &str) -> Result<(), Failure> {
    engine.write_line(format!("set {name} {value}")).map(|_| ())
}

/// A GTP command that is not a thinking one, answered for the engine.
pub fn ask(engine: &mut Engine, state: &mut State, line: &str) -> Result<String, Failure> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["protocol_version"] => Ok("2".into()),
        ["set_game", "othello"] | ["boardsize", "8"] => Ok(String::new()),
        ["set_game", _] => Err(Failure::Refused(
            "an NBoard engine plays only othello".into(),
        )),
        ["clear_board"] => {
            *state = State {
                ping: state.ping,
                ..State::default()
            };
            Ok(String::new())
        }
        ["set_position", board, side] => {
            let position = Position::from_notation(&format!("{board} {side}"))
                .map_err(|e| Failure::Refused(e.to_string()))?;
            *state = State {
                start: position,
                ping: state.ping,
                ..State::default()
            };
            Ok(String::new())
        }
        ["play", _, mv] => {
            let mv = Move::parse(mv).ok_or_else(|| Failure::Refused("illegal move".into()))?;
            let mut position = state.position();
            position
                .play(position.side_to_move(), mv)
                .map_err(|e| Failure::Refused(format!("illegal move: {e}")))?;
            state.moves.push(mv);
            if state.synced {
                engine.write_line(format!("move {}", square(mv)))?;
            }
            Ok(String::new())
        }
        ["quit"] => engine.write_line("quit").map(|_| String::new()),
        _ => Err(Failure::Refused(format!(
            "{} has no NBoard form",
            words.first().unwrap_or(&"")
        ))),
    }
}

/// Sends a thinking command: `genmove` is the game if the engine lacks it, then `go`.
pub fn send(engine: &mut Engine, state: &mut State, line: &str) -> Result<Instant, Failure> {
    if !line.starts_with("genmove") {
        return Err(Failure::Refused(format!("{line} has no NBoard form")));
    }
    if !state.synced {
        engine.write_line(format!("set game {}", state.ggf()))?;
        state.synced = true;
    }
    engine.write_line("go")
}

/// Reads the answer to `go` by `deadline`: the move (`pass` for `PA`), played on both
/// sides when legal.
pub fn receive(
    engine: &mut Engine,
    state: &mut State,
    deadline: Instant,
) -> Result<(String, Instant), Failure> {
    loop {
        let (at, line) = engine.next_line(deadline)?;
        let Some(rest) = line.trim().strip_prefix("===") else {
            continue;
        };
        // `=== F5/EVAL/TIME` as the protocol writes it; some engines (Edax) separate
        // the fields with spaces instead.
        let word = rest
            .split(|c: char| c == '/' || c.is_whitespace())
            .find(|w| !w.is_empty())
            .unwrap_or("")
            .to_string();
        let mv = if word.eq_ignore_ascii_case("pa") {
            Some(Move::Pass)
        } else {
            Move::parse(&word)
        };
        let text = mv.map_or(word.to_ascii_lowercase(), |mv| mv.to_string());
        if let Some(mv) = mv {
            let mut position = state.position();
            if position.play(position.side_to_move(), mv).is_ok() {
                state.moves.push(mv);
                engine.write_line(format!("move {}", square(mv)))?;
            }
        }
        return Ok((text, at));
    }
}

/// Waits for an engine that overran its time: a ping answered within `timeout`
/// means it has given its late move (which is then dropped) and is in step; the game
/// is sent afresh before its next move.
pub fn drain(engine: &mut Engine, state: &mut State, timeout: Duration) -> Result<(), Failure> {
    state.synced = false;
    sync(engine, state, Instant::now() + timeout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_ggf_records_from_their_start() {
        let mut state = State::default();
        for mv in ["f5", "d6"] {
            state.moves.push(Move::parse(mv).unwrap_or(Move::Pass));
        }
        assert_eq!(
            state.ggf(),
            "(;GM[Othello]PC[tabula arena]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6];)"
        );
        assert_eq!(state.position().side_to_move(), Color::Black);
    }
}
