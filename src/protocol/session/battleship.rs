//! Battleship's side of the session: fleets and cells from text, shots judged or
//! reported, the table's commands, and answers as text. Rules stay in
//! `games::battleship`; the players read only a shooter's view.

use super::{Answer, Refusal, Think, joined};
use crate::ai;
use crate::ai::baseline::Player;
use crate::ai::battleship::styles::{Posterior, StyleTables};
use crate::games::Color;
use crate::games::battleship::{Cell, Clock, Fleet, ShotResult, Table, TimeControl};
use crate::protocol::command::{ShotClaim, TimeSystem};

fn parse_cell(text: &str) -> Result<Cell, Refusal> {
    Cell::parse(text).ok_or_else(|| format!("syntax error: {text:?} is not a cell (A1 to J10)"))
}

fn refused(error: impl std::fmt::Display) -> Refusal {
    error.to_string()
}

pub fn set_position(text: &str) -> Result<Table, Refusal> {
    Table::from_notation(text).map_err(|e| format!("invalid position: {e}"))
}

pub fn fleet(table: &mut Table, color: Color, ships: &str) -> Answer {
    let fleet = Fleet::parse(ships).map_err(|e| format!("invalid fleet: {e}"))?;
    table.place_fleet(color, fleet).map_err(refused)?;
    Ok(String::new())
}

pub fn genfleet(table: &mut Table, color: Color, think: &mut Think<'_>) -> Answer {
    let fleet = ai::battleship::place(think.rng);
    let answer = fleet.to_string();
    table.place_fleet(color, fleet).map_err(refused)?;
    Ok(answer)
}

/// `play COLOR CELL [RESULT]`: judged when the session knows the target fleet,
/// otherwise recorded from the caller's result after a check that it is possible.
pub fn play(table: &mut Table, color: Color, text: &str, claim: Option<&ShotClaim>) -> Answer {
    let cell = parse_cell(text)?;
    let result = match claim {
        None if table.fleet(color.opponent()).is_none() => {
            return Err(format!(
                "the target fleet is unknown: give the result (play {} {cell} miss|hit|sunk TYPE)",
                color.name()
            ));
        }
        None => table.shoot(color, cell),
        Some(claim) => {
            let reported = ShotResult::parse(&claim.to_string()).ok_or_else(|| {
                format!("syntax error: {claim:?} is not a shot result (miss, hit, sunk TYPE)")
            })?;
            table.shoot_reported(color, cell, reported)
        }
    }
    .map_err(|e| format!("illegal move: {e}"))?;
    Ok(result.to_string())
}

/// `genmove`'s choice: the cell `color` should fire at, from its view alone.
/// The `default` player fires with the hunter of `set_option hunter`, its belief
/// tilted by `posterior` (the target fleet's owner's placement styles) when
/// `set_option placement_prior adaptive`.
pub fn choose(
    table: &Table,
    color: Color,
    think: &mut Think<'_>,
    posterior: Option<&Posterior>,
) -> Result<Cell, Refusal> {
    match table.turn() {
        Some(turn) if turn == color => {}
        Some(turn) => return Err(format!("{} is to shoot", turn.name())),
        None => return Err("nobody is to shoot (the game has not started or is over)".into()),
    }
    let view = table.target_view(color);
    match think.options.player {
        Player::Baseline(baseline) => ai::baseline::battleship(view, baseline, think.rng),
        Player::Search => {
            let tilt = match (
                think.options.adaptive_prior,
                StyleTables::builtin(),
                posterior,
            ) {
                (true, Some(tables), Some(posterior)) => Some(posterior.tilt(tables)),
                _ => None,
            };
            ai::battleship::hunt_as(
                think.options.hunter,
                view,
                think.rng,
                &think.limits,
                tilt.as_ref(),
            )
        }
    }
    .ok_or_else(|| "no open cell".into())
}

/// Fires `genmove`'s choice when the session knows the target fleet (the answer is
/// the cell and the result); otherwise answers the cell for the caller to judge.
/// `owner`'s fleet in a game that is over, if the session knows it: placed here, or
/// read from the shooter's view when every ship of it was sunk.
pub fn known_fleet(table: &Table, owner: Color) -> Option<Fleet> {
    if let Some(fleet) = table.fleet(owner) {
        return Some(fleet.clone());
    }
    let sunk = table.target_view(owner.opponent()).sunk();
    Fleet::new(sunk.to_vec()).ok()
}

pub fn play_chosen(table: &mut Table, color: Color, cell: Cell) -> Answer {
    if table.fleet(color.opponent()).is_none() {
        return Ok(cell.to_string());
    }
    let result = table
        .shoot(color, cell)
        .map_err(|e| format!("internal error: {e}"))?;
    Ok(format!("{cell} {result}"))
}

pub fn all_legal(table: &Table, color: Color) -> String {
    joined(table.legal_shots(color), " ")
}

pub fn is_legal(table: &Table, color: Color, text: &str) -> bool {
    Cell::parse(text).is_some_and(|cell| table.is_legal(color, cell))
}

/// `time_settings` and `kgs-time_settings` for the table's clocks (B11): main time
/// plus an increment per shot (`fischer`), main time alone (`absolute`, and GTP's
/// `time_settings MAIN 0 0`), or none (`none`, and GTP's byo-yomi time with 0 stones).
/// Byo-yomi periods are no B11 clock and are refused; so is a clock without main
/// time. Only before the start.
pub fn time_settings(table: &mut Table, system: TimeSystem) -> Result<(), Refusal> {
    let timed = |main: f64, increment: f64| TimeControl::Timed {
        main_ms: (main * 1000.0).round() as u64,
        increment_ms: (increment * 1000.0).round() as u64,
    };
    let control = match system {
        TimeSystem::None => TimeControl::Unlimited,
        TimeSystem::Absolute { main } => timed(main, 0.0),
        TimeSystem::Fischer { main, increment } => timed(main, increment),
        TimeSystem::Byoyomi { .. } | TimeSystem::Canadian { .. } => {
            return Err("battleship clocks are main time plus an increment per shot (B11): kgs-time_settings fischer MAIN INCREMENT, absolute MAIN or none".into());
        }
    };
    let mut copy = table.clone();
    for color in Color::ALL {
        copy.set_time_control(color, control).map_err(refused)?;
    }
    *table = copy;
    Ok(())
}

/// `time_left` for the shooter: its clock runs down to `seconds`; at zero its flag
/// falls and it loses (B11). The other side's clock does not run (B11), so a report
/// for it changes nothing; neither does one before the start or after the end.
pub fn time_left(table: &mut Table, color: Color, seconds: f64) {
    if table.turn() != Some(color) {
        return;
    }
    if let Clock::Timed { left_ms, .. } = table.clock(color) {
        let now_ms = (seconds * 1000.0).round() as u64;
        if now_ms < left_ms {
            let _ = table.elapse(left_ms - now_ms);
        }
    }
}

/// A rough count of the shots left, for the clock's share.
pub fn moves_left(table: &Table, color: Color) -> u32 {
    (table.target_view(color).open_cells().count() as u32 / 2).max(1)
}
