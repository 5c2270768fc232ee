//! Othello's side of the session: turns the protocol's text arguments into the
//! rules' types and the rules' answers into text.

use std::sync::atomic::{AtomicBool, Ordering};

use super::{Answer, Options, Refusal, Think, joined};
use crate::ai;
use crate::ai::baseline::Player;
use crate::ai::othello::Memory;
use crate::games::Color;
use crate::games::othello::{Move, Position, perft_until};

fn parse_move(text: &str) -> Result<Move, Refusal> {
    Move::parse(text)
        .ok_or_else(|| format!("syntax error: {text:?} is not a square (a1 to h8) or pass"))
}

pub fn set_position(text: &str) -> Result<Position, Refusal> {
    Position::from_notation(text).map_err(|e| format!("invalid position: {e}"))
}

pub fn play(position: &mut Position, color: Color, text: &str) -> Answer {
    let mv = parse_move(text)?;
    position
        .play(color, mv)
        .map_err(|e| format!("illegal move: {e}"))?;
    Ok(String::new())
}

pub fn all_legal(position: &Position, color: Color) -> String {
    if color != position.side_to_move() {
        return String::new();
    }
    joined(position.legal_moves(), " ")
}

pub fn is_legal(position: &Position, color: Color, text: &str) -> bool {
    Move::parse(text)
        .is_some_and(|mv| color == position.side_to_move() && position.check(mv).is_ok())
}

pub fn final_score(position: &Position) -> String {
    match position.final_margin() {
        0 => "0".into(),
        m if m > 0 => format!("B+{m}"),
        m => format!("W+{}", -m),
    }
}

/// The largest depth `perft` accepts through the protocol (deeper counts take hours;
/// `tabula bench` is the place for them).
const MAX_PERFT: u32 = 14;

/// `perft DEPTH`: the count, or `interrupted` soon after `stop` is raised (the flag
/// is read between subtrees of a few milliseconds each).
pub fn perft(position: &Position, depth: u32, stop: &AtomicBool) -> Answer {
    if depth > MAX_PERFT {
        return Err(format!("depth too large (at most {MAX_PERFT})"));
    }
    let stopped = || stop.load(Ordering::Relaxed);
    perft_until(position.board(), depth, &stopped)
        .map(|count| count.to_string())
        .ok_or_else(|| "interrupted".into())
}

/// The player's settings from the session options.
pub fn settings(options: &Options) -> ai::othello::Settings {
    ai::othello::Settings {
        hash_mib: options.hash_mib,
        endgame_empties: options.endgame,
        threads: options.threads,
        evaluation: options.evaluation,
    }
}

/// The tables of `memory`, made now if the session had not prepared them.
fn tables<'m>(memory: &'m mut Option<Memory>, think: &Think<'_>) -> &'m mut Memory {
    memory.get_or_insert_with(|| Memory::new(&settings(think.options)))
}

fn move_text(mv: Move) -> String {
    mv.to_string()
}

/// `solve [COLOR]`: the exact best move and disc difference, `MOVE +N`; cut short by
/// an interrupt or the clock, the best move so far with an estimate `MOVE ~+N.NN`.
pub fn solve(
    position: &Position,
    asked: Option<Color>,
    think: &Think<'_>,
    memory: &mut Option<Memory>,
) -> Answer {
    if position.is_over() {
        return Err("the game is over".into());
    }
    if let Some(color) = asked
        && color != position.side_to_move()
    {
        return Err(format!("{} is not to move", color.name()));
    }
    let settings = settings(think.options);
    let result = ai::othello::solve_in(position, think.limits, &settings, tables(memory, think))
        .ok_or("the game is over")?;
    Ok(format!("{} {}", move_text(result.best), result.score))
}

/// `hint N`: the N best moves of the side to move, one `MOVE SCORE` a line.
pub fn hint(
    position: &Position,
    count: u32,
    think: &Think<'_>,
    memory: &mut Option<Memory>,
) -> Answer {
    if position.is_over() {
        return Err("the game is over".into());
    }
    if count == 0 {
        return Err("at least one move is needed (N >= 1)".into());
    }
    let hints = ai::othello::hint_in(
        position,
        think.limits,
        &settings(think.options),
        count as usize,
        tables(memory, think),
    );
    Ok(joined(
        hints
            .iter()
            .map(|(mv, score)| format!("{} {score}", move_text(*mv))),
        "\n",
    ))
}

/// `analyze [N]`: like `hint`, every legal move when `N` is not given (no bound on
/// the count: `hint` answers at most the moves there are).
pub fn analyze(
    position: &Position,
    count: Option<u32>,
    think: &Think<'_>,
    memory: &mut Option<Memory>,
) -> Answer {
    hint(position, count.unwrap_or(u32::MAX), think, memory)
}

/// `genmove`'s choice for `color`: the player's move; a pass once the game is over.
pub fn choose(
    position: &Position,
    color: Color,
    think: &mut Think<'_>,
    memory: &mut Option<Memory>,
) -> Result<Move, Refusal> {
    if position.is_over() {
        // Both sides pass once the game is over: GUIs and match runners (GoGui,
        // gogui-twogtp) end a game on two passes and abort on an error.
        return Ok(Move::Pass);
    }
    if color != position.side_to_move() {
        return Err(format!("{} is not to move", color.name()));
    }
    let settings = settings(think.options);
    match think.options.player {
        Player::Baseline(baseline) => {
            ai::baseline::othello(position, baseline, think.rng).ok_or_else(game_over)
        }
        Player::Search if think.options.randomness_centi > 0 => {
            varied(position, think, &settings, memory)
        }
        Player::Search => {
            let memory = tables(memory, think);
            let result = ai::othello::search_in(position, think.limits, &settings, memory)
                .ok_or_else(game_over)?;
            if log::log_enabled!(log::Level::Info) {
                let line = ai::othello::analysis::expected_line(
                    memory,
                    position,
                    result.best,
                    result.depth.max(1) as usize,
                );
                log::info!(
                    "othello search: {} score {} depth {} nodes {} pv {}",
                    result.best,
                    result.score,
                    result.depth,
                    result.nodes,
                    joined(line, " ")
                );
            }
            Ok(result.best)
        }
    }
}

/// Plays `genmove`'s choice `mv` for `color`; once the game is over the pass is
/// answered and nothing is played.
pub fn play_chosen(position: &mut Position, color: Color, mv: Move) -> Answer {
    if !position.is_over() {
        position
            .play(color, mv)
            .map_err(|e| format!("internal error: {e}"))?;
    }
    Ok(mv.to_string())
}

fn game_over() -> Refusal {
    "the game is over".into()
}

/// A score in hundredths of a disc.
fn centi(score: ai::othello::Score) -> i64 {
    match score {
        ai::othello::Score::Exact(discs) => i64::from(discs) * 100,
        ai::othello::Score::Estimate(units) => i64::from(units),
    }
}

/// The `randomness` option's pick: every move scored as `analyze` scores it, then one
/// drawn with the session's seeded generator among those within the option's margin
/// of the best.
fn varied(
    position: &Position,
    think: &mut Think<'_>,
    settings: &ai::othello::Settings,
    memory: &mut Option<Memory>,
) -> Result<Move, Refusal> {
    let scored = ai::othello::hint_in(
        position,
        think.limits,
        settings,
        usize::MAX,
        tables(memory, think),
    );
    let best = scored
        .iter()
        .map(|(_, s)| centi(*s))
        .max()
        .ok_or("the game is over")?;
    let margin = i64::from(think.options.randomness_centi);
    let near: Vec<Move> = scored
        .iter()
        .filter(|(_, s)| centi(*s) >= best - margin)
        .map(|(mv, _)| *mv)
        .collect();
    let mv = *think.rng.choose(&near).ok_or("the game is over")?;
    log::info!(
        "othello randomness: {mv} among {} moves within {margin} hundredths of {best}",
        near.len()
    );
    Ok(mv)
}
