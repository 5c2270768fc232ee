//! What the Shell's side of the session: cells from text, `resolve_turn`, the secret
//! pick of `genmove`, and answers as text. Rules stay in `games::shell`.

use std::time::{Duration, Instant};

use super::{Answer, Options, Refusal, Think, joined};
use crate::ai;
use crate::ai::baseline::Player;
use crate::ai::shell::mcts::{NODE_BYTES, Settings};
use crate::ai::shell::model::{Model, Prediction};
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

/// Scores the opponent model's pending prediction against the turn just resolved
/// from `before` (the picks as `resolve_turn` read them).
pub fn observe(model: &mut Model, before: &Position, black: &str, white: &str) {
    for (color, text) in [(Color::Black, black), (Color::White, white)] {
        if let Ok(cell) = parse_cell(text) {
            model.observe(before, color, cell);
        }
    }
}

pub fn all_legal(position: &Position) -> String {
    if position.status().is_over() {
        return String::new();
    }
    joined(position.empty_cells().iter(), " ")
}

pub fn is_legal(position: &Position, text: &str) -> bool {
    !position.status().is_over() && Cell::parse(text).is_some_and(|cell| position.is_empty(cell))
}

/// The default budget of a move when neither `movetime`, a clock nor `iterations`
/// bounds it: this many iterations, or this long, whichever comes first.
const DEFAULT_ITERATIONS: u64 = 20_000;
const DEFAULT_TIME: Duration = Duration::from_millis(200);

/// The most nodes the search trees may hold, from the `hash` option.
pub fn max_nodes(options: &Options) -> usize {
    let mib = usize::try_from(options.hash_mib).unwrap_or(usize::MAX);
    mib.saturating_mul(1 << 20) / NODE_BYTES
}

/// `genmove`'s choice: the player's secret pick, answered and never played (the turn
/// is resolved by `resolve_turn`); the search grows its trees in `memory` when the
/// session prepared it.
pub fn choose(
    position: &Position,
    color: Color,
    think: &mut Think<'_>,
    memory: Option<&mut ai::shell::Memory>,
    model: &mut Model,
) -> Result<Cell, Refusal> {
    if position.status().is_over() {
        return Err("the game is over".into());
    }
    match think.options.player {
        Player::Baseline(baseline) => {
            ai::baseline::shell(position, color, baseline, think.rng, &think.limits)
                .ok_or_else(|| "no empty cell".into())
        }
        Player::Search => {
            // A board the endgame solve answers leaves the model nothing to do: the
            // solve takes the whole move.
            let options = think.options;
            let solved = ai::shell::mcts::solves_endgame(options.shell_endgame, position);
            let prediction = if options.shell_model && !solved {
                predict(position, color.opponent(), think, model)
            } else {
                None
            };
            Ok(search_predicted(position, color, think, memory, prediction)?.cell)
        }
    }
}

/// The opponent model's prediction of `opponent`'s pick, its tactician given a
/// [`MODEL_SHARE`] of the move's time, and [`MODEL_NODES`] when no clock bounds the
/// move or `iterations` does.
fn predict(
    position: &Position,
    opponent: Color,
    think: &Think<'_>,
    model: &mut Model,
) -> Option<Prediction> {
    let mut limits = think.limits;
    let now = Instant::now();
    if let Some(deadline) = limits.deadline {
        limits.deadline = Some(now + deadline.saturating_duration_since(now).div_f64(MODEL_SHARE));
    }
    // Without a clock, or with the search bounded by iterations, the pick is
    // reproducible from the seed: the tactician's work is counted in nodes too.
    if limits.deadline.is_none() || think.options.iterations > 0 {
        limits.nodes = Some(MODEL_NODES);
    }
    let prediction = model.predict(position, opponent, &limits);
    if let Some(p) = prediction {
        log::info!(
            "opponent model: {} likely picks {} ({:.2})",
            opponent.name(),
            p.cell,
            p.confidence
        );
    }
    prediction
}

/// The model's tactician may take the move's time divided by this.
const MODEL_SHARE: f64 = 4.0;
/// The model's tactician's nodes when no clock bounds the move (some 60 ms here; a
/// tactician search of a middle-game turn takes a few hundred, one in ten over 20,000).
const MODEL_NODES: u64 = 10_000;

/// The search player's mixed strategy for `color` and the pick drawn from it.
pub fn search(
    position: &Position,
    color: Color,
    think: &mut Think<'_>,
    memory: Option<&mut ai::shell::Memory>,
) -> Result<ai::shell::Outcome, Refusal> {
    search_predicted(position, color, think, memory, None)
}

/// [`search`] answering the opponent's `prediction` when there is one.
fn search_predicted(
    position: &Position,
    color: Color,
    think: &mut Think<'_>,
    memory: Option<&mut ai::shell::Memory>,
    prediction: Option<Prediction>,
) -> Result<ai::shell::Outcome, Refusal> {
    if position.status().is_over() {
        return Err("the game is over".into());
    }
    let options = think.options;
    let mut limits = think.limits;
    let iterations = match (options.iterations, limits.deadline) {
        (0, None) => {
            limits.deadline = Some(Instant::now() + DEFAULT_TIME);
            DEFAULT_ITERATIONS
        }
        (n, _) => n,
    };
    let settings = settings(options, iterations, prediction);
    let mut fresh = ai::shell::Memory::default();
    let memory = memory.unwrap_or(&mut fresh);
    let outcome = ai::shell::search_in(position, color, &settings, &limits, think.rng, memory)
        .ok_or("no empty cell")?;
    log::info!(
        "shell search: {} iterations, {} nodes, root matrix solved: {}",
        outcome.iterations,
        outcome.nodes,
        outcome.solved_root
    );
    Ok(outcome)
}

/// The search's settings from the session's `options`, at `iterations` a move,
/// answering the opponent model's `prediction` when there is one.
fn settings(options: &Options, iterations: u64, prediction: Option<Prediction>) -> Settings {
    Settings {
        selection: options.shell_selection,
        iterations,
        threads: options.threads,
        max_nodes: max_nodes(options),
        builder_cells: options.shell_builders,
        strict_blocks: options.shell_strict_blocks,
        sharpen: options.shell_sharpen,
        threshold: f64::from(options.shell_threshold) / 100.0,
        open_threshold: f64::from(options.shell_open_threshold) / 100.0,
        threat_search: options.shell_threats,
        eval: options.shell_eval,
        prediction,
        // Without the model no turn is predicted: the open cut would never apply.
        modelled: options.shell_model && options.shell_open_cut_predicted,
        endgame_empty: options.shell_endgame,
        ..Settings::default()
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_the_endgame_answers_is_not_predicted() {
        use crate::ai::Limits;
        use crate::ai::shell::candidates::Tactics;
        use crate::ai::shell::exact;
        use crate::rng::Rng;
        // A quiet board of 10-14 empty cells, where the model predicts.
        let position = (0..200)
            .filter_map(|seed| exact::played_position(seed, 10, 14))
            .find(|p| !Tactics::of(p).is_sharp())
            .expect("a quiet endgame");
        let chosen = |endgame: u32| {
            let options = Options {
                shell_endgame: endgame,
                iterations: 200,
                ..Options::default()
            };
            let mut rng = Rng::new(1);
            let mut think = Think {
                limits: Limits::depth(1),
                rng: &mut rng,
                options: &options,
            };
            let mut model = Model::default();
            choose(&position, Color::Black, &mut think, None, &mut model).expect("a pick");
            model.predicting()
        };
        assert!(chosen(0), "the search alone is told the prediction");
        assert!(!chosen(14), "the endgame solve needs none");
    }

    #[test]
    fn the_open_cut_follows_shell_open_cut_and_needs_the_model() {
        let mut options = Options::default();
        assert!(
            settings(&options, 100, None).modelled,
            "predicted by default"
        );
        options.shell_open_cut_predicted = false;
        assert!(!settings(&options, 100, None).modelled);
        options.shell_open_cut_predicted = true;
        options.shell_model = false;
        assert!(
            !settings(&options, 100, None).modelled,
            "without the model the open cut stays on every open board"
        );
    }
}
