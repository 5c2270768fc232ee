//! `tabula-analyze`: a live analysis streamed until the next command, in the shape
//! GUIs read from `lz-analyze` and `kata-analyze`: one line per update, each a run
//! of `info move M …` entries, best first.
//!
//! A worker thread deepens the analysis (Othello: one more ply per round; Battleship
//! and What the Shell: a search of twice the time per round) and leaves its latest
//! text; this thread writes the latest text every interval, and stops the worker
//! when the caller says the analysis is over (the next command, an interrupt, the
//! end of input). At least one update is written before it stops.
//!
//! `lz-analyze` is the same Othello analysis with the fields Leela Zero writes, so
//! that GUIs built for Go engines draw it: `visits` and `winrate` lead every entry
//! and squares are in capitals. Under `coordinates gogui` every square of an
//! Othello update is in GoGui's rows, as in every other answer.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::{Game, Refusal, Session, Think, gogui, othello, shell};
use crate::ai::othello::Score;
use crate::ai::othello::analysis::{Analysis, analyse_in};
use crate::ai::{self, Limits};
use crate::games::Color;
use crate::games::battleship::Cell as SeaCell;
use crate::protocol::command::LiveFields;

/// What a stream writes.
pub enum Out<'a> {
    /// The stream starts (the framing's `=` line).
    Begin,
    /// One update.
    Line(&'a str),
}

/// The interval when none is given, in centiseconds.
const DEFAULT_INTERVAL: u32 = 50;

/// The first search time of Battleship and What the Shell rounds (doubled each round).
const FIRST_ROUND: Duration = Duration::from_millis(100);

/// The longest a round may grow to.
const LONGEST_ROUND: Duration = Duration::from_secs(60);

/// Runs `tabula-analyze`: a refusal before anything is written, or `Begin` and
/// then updates through `out` (which answers false once the output is closed)
/// until `over` answers true.
pub fn stream(
    session: &mut Session,
    color: Option<Color>,
    interval: Option<u32>,
    fields: LiveFields,
    over: &dyn Fn() -> bool,
    out: &mut dyn FnMut(Out<'_>) -> bool,
) -> Result<(), Refusal> {
    let every = Duration::from_millis(10 * u64::from(interval.unwrap_or(DEFAULT_INTERVAL)));
    let latest = Mutex::new(None::<String>);
    let halt = AtomicBool::new(false);
    let publish = |text: String| {
        *latest.lock().unwrap_or_else(PoisonError::into_inner) = Some(text);
    };
    let options = session.options.clone();
    let mut rng = session.rng.clone();
    let mut tables = session.tables.lock();
    match &session.game {
        Game::Othello(position) => {
            if position.is_over() {
                return Err("the game is over".into());
            }
            if let Some(color) = color
                && color != position.side_to_move()
            {
                return Err(format!("{} is not to move", color.name()));
            }
            let settings = othello::settings(&options);
            let memory = tables
                .othello
                .get_or_insert_with(|| ai::othello::Memory::new(&settings));
            let position = *position;
            let rows = options.gogui_rows;
            let publish = |text: String| {
                publish(if rows {
                    gogui::mirror_squares(&text)
                } else {
                    text
                });
            };
            run(&halt, &latest, every, over, out, || {
                let empties = position.board().empty().count_ones();
                if position.board().moves() == 0 {
                    publish(match fields {
                        LiveFields::Tabula => "info move pass order 0 pv pass".into(),
                        LiveFields::LeelaZero => {
                            "info move pass visits 0 winrate 5000 order 0 pv pass".into()
                        }
                    });
                    return;
                }
                for depth in 1..=empties {
                    let limits = Limits {
                        stop: Some(&halt),
                        ..Limits::depth(depth)
                    };
                    let Some(analysis) = analyse_in(&position, limits, &settings, memory) else {
                        return;
                    };
                    publish(othello_line(&analysis, fields));
                    if analysis.depth >= empties {
                        return;
                    }
                }
            })
        }
        Game::Battleship(table) => {
            let shooter = color.unwrap_or(Color::Black);
            let view = table.target_view(shooter).clone();
            run(&halt, &latest, every, over, out, || {
                let mut budget = FIRST_ROUND;
                while !halt.load(Ordering::Relaxed) {
                    let limits = Limits {
                        deadline: Some(Instant::now() + budget),
                        stop: Some(&halt),
                        ..Limits::depth(u32::MAX)
                    };
                    // Weights proportional to the chance of a ship, shown against
                    // the largest.
                    let (p, _) = ai::battleship::hunter::weights(&view, &mut rng, &limits);
                    let top = p.iter().copied().fold(0.0, f64::max);
                    publish(cells_line(
                        SeaCell::all().map(|cell| (cell.to_string(), p[cell.index()] / top)),
                        "weight",
                    ));
                    budget = (budget * 2).min(LONGEST_ROUND);
                }
            })
        }
        Game::Shell(position) => {
            if position.status().is_over() {
                return Err("the game is over".into());
            }
            let picker = color.unwrap_or(Color::Black);
            let position = *position;
            let mut memory = tables.shell.as_mut().map(|(m, _)| m);
            run(&halt, &latest, every, over, out, || {
                let mut budget = FIRST_ROUND;
                while !halt.load(Ordering::Relaxed) {
                    let mut think = Think {
                        limits: Limits {
                            deadline: Some(Instant::now() + budget),
                            stop: Some(&halt),
                            ..Limits::depth(u32::MAX)
                        },
                        rng: &mut rng,
                        options: &options,
                    };
                    let Ok(outcome) =
                        shell::search(&position, picker, &mut think, memory.as_deref_mut())
                    else {
                        return;
                    };
                    let mut line = cells_line(
                        outcome
                            .strategy
                            .iter()
                            .map(|(cell, p)| (cell.to_string(), *p)),
                        "prob",
                    );
                    line.push_str(&format!(" iterations {}", outcome.iterations));
                    publish(line);
                    budget = (budget * 2).min(LONGEST_ROUND);
                }
            })
        }
    }
    Ok(())
}

/// Starts `work` on its own thread and writes the latest text every `every` (a
/// new one at once when `every` is zero) until `over`, then stops the work.
fn run(
    halt: &AtomicBool,
    latest: &Mutex<Option<String>>,
    every: Duration,
    over: &dyn Fn() -> bool,
    out: &mut dyn FnMut(Out<'_>) -> bool,
    work: impl FnOnce() + Send,
) {
    let take = || latest.lock().unwrap_or_else(PoisonError::into_inner).take();
    std::thread::scope(|scope| {
        let worker = scope.spawn(work);
        let mut open = out(Out::Begin);
        let mut written = 0_u32;
        // The newest text not yet written, and the last one written.
        let mut fresh: Option<String> = None;
        let mut last: Option<String> = None;
        let mut next = Instant::now() + every;
        while open {
            if let Some(text) = take() {
                fresh = Some(text);
            }
            if over() {
                if written > 0 || worker.is_finished() && fresh.is_none() {
                    break;
                }
                if let Some(text) = fresh.take() {
                    out(Out::Line(&text));
                    break;
                }
            } else if every.is_zero() || Instant::now() >= next {
                if let Some(text) = fresh
                    .take()
                    .or_else(|| if every.is_zero() { None } else { last.take() })
                {
                    open = out(Out::Line(&text));
                    written += 1;
                    last = Some(text);
                }
                next = Instant::now() + every;
            }
            std::thread::sleep(every.clamp(Duration::from_millis(1), Duration::from_millis(10)));
        }
        halt.store(true, Ordering::Relaxed);
    });
}

/// Othello's update: every move with its score (discs for the side to move,
/// hundredths for estimates), the depth, the nodes and the expected line; for
/// `lz-analyze` led by the visits and the winrate, squares in capitals.
fn othello_line(analysis: &Analysis, fields: LiveFields) -> String {
    let square = |text: String| match fields {
        LiveFields::Tabula => text,
        LiveFields::LeelaZero => text.to_ascii_uppercase(),
    };
    let mut text = String::new();
    for (order, line) in analysis.lines.iter().enumerate() {
        let score = match line.score {
            Score::Exact(discs) => discs.to_string(),
            Score::Estimate(units) => format!("{:.2}", f64::from(units) / 100.0),
        };
        let pv: Vec<String> = line.pv.iter().map(|mv| square(mv.to_string())).collect();
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(&format!("info move {} ", square(line.mv.to_string())));
        if fields == LiveFields::LeelaZero {
            text.push_str(&format!(
                "visits {} winrate {} ",
                analysis.nodes.min(VISITS_CAP),
                winrate(line.score)
            ));
        }
        text.push_str(&format!(
            "order {order} score {score} exact {} depth {} nodes {} pv {}",
            matches!(line.score, Score::Exact(_)),
            analysis.depth,
            analysis.nodes,
            pv.join(" ")
        ));
    }
    text
}

/// The largest `visits` written: GUIs read the field as a 32-bit signed integer.
const VISITS_CAP: u64 = i32::MAX as u64;

/// The discs of an estimate that make a winrate of 1/(1 + e⁻¹) ≈ 73 %.
const WINRATE_SCALE: f64 = 5.0;

/// The chance that the side to move wins, in hundredths of a percent (Leela Zero's
/// unit): certain for an exact score (10000 a win, 5000 a draw, 0 a loss), and a
/// logistic curve of the estimated disc difference otherwise (5000 at 0, 7311 at
/// +5, 9820 at +20).
fn winrate(score: Score) -> u32 {
    match score {
        Score::Exact(discs) => match discs.signum() {
            1 => 10_000,
            0 => 5_000,
            _ => 0,
        },
        Score::Estimate(units) => {
            let discs = f64::from(units) / 100.0;
            let chance = 1.0 / (1.0 + (-discs / WINRATE_SCALE).exp());
            // In 0..=10000 by construction.
            (chance * 10_000.0).round() as u32
        }
    }
}

/// Battleship's and What the Shell's update: every cell with a positive value,
/// the largest first (equal ones in the given order), as `KEY value`.
fn cells_line(cells: impl Iterator<Item = (String, f64)>, key: &str) -> String {
    let mut cells: Vec<(String, f64)> = cells.filter(|(_, p)| *p > 0.0).collect();
    cells.sort_by(|a, b| b.1.total_cmp(&a.1));
    let entries: Vec<String> = cells
        .iter()
        .enumerate()
        .map(|(order, (cell, p))| format!("info move {cell} order {order} {key} {p:.4}"))
        .collect();
    entries.join(" ")
}
