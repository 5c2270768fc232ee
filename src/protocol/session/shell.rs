//! What the Shell's side of the session: cells from text, `resolve_turn`, the secret
//! pick of `genmove`, and answers as text. Rules stay in `games::shell`.

use super::{Answer, Refusal, Think};
use crate::ai;
use crate::games::shell::{Cell, Position};
use crate::games::{Color, Status};

fn parse_cell(text: &str) -> Result<Cell, Refusal> {
    Cell::parse(text).ok_or_else(|| format!("syntax error: {text:?} is not a cell (a1 to i9)"))
}

pub fn set_position(text: &str) -> Result<Position, Refusal> {
    Position::from_notation(text).map_err(|e| format!("invalid position: {e}"))
}

pub fn resolve_turn(position: &mut Position, black: &str, white: &str) -> Answer {
    let (black, white) = (parse_cell(black)?, parse_cell(white)?);
    let report = position
        .resolve_turn(black, white)
        .map_err(|e| format!("illegal move: {e}"))?;
    Ok(report.to_string())
}

pub fn all_legal(position: &Position) -> String {
    if position.status().is_over() {
        return String::new();
    }
    position
        .empty_cells()
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn is_legal(position: &Position, text: &str) -> bool {
    !position.status().is_over() && Cell::parse(text).is_some_and(|cell| position.is_empty(cell))
}

/// The secret pick: answered, never played (the turn is resolved by `resolve_turn`).
pub fn genmove(position: &Position, color: Color, think: &mut Think<'_>) -> Answer {
    if position.status().is_over() {
        return Err("the game is over".into());
    }
    let cell = ai::shell::greedy::pick(position, color, think.rng).ok_or("no empty cell")?;
    Ok(cell.to_string())
}

/// A rough count of the turns left, for the clock's share.
pub fn moves_left(position: &Position) -> u32 {
    (position.empty_cells().len() / 3).max(1)
}

pub fn final_score(status: Status) -> String {
    match status.winner() {
        Some(Color::Black) => "B+1".into(),
        Some(Color::White) => "W+1".into(),
        None => "0".into(),
    }
}
