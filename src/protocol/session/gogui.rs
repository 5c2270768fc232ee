//! GoGui's side of the session: the referee queries (`gogui-rules_*`) GoGui sends a
//! program that knows a game other than Go, the analyses it offers in its menu
//! (`gogui-analyze_commands`, drawn with its `gfx` commands), and its coordinates.
//!
//! GoGui numbers rows from the bottom (its `A1` is the bottom-left corner) while
//! Othello's notation numbers them from the top. With `set_option coordinates gogui`
//! every Othello square read or written through the protocol is mirrored top to
//! bottom (`a1` ↔ `a8`), so that GoGui's labels, its moves and its picture agree with
//! the real board. Without it the squares are the engine's own, and
//! `gogui-rules_board` lists the rows so that GoGui's labels still name the right
//! squares (the picture is then upside down). Position notation and `showboard` are
//! never mirrored.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::{Answer, Game, Session, joined, othello};
use crate::ai;
use crate::ai::othello::{Memory, Score};
use crate::games::othello::{Move, Position, Square};
use crate::games::{Color, GameKind};
use crate::protocol::command::{Command, RulesQuery};

/// Handles `command`, mirrored to and from GoGui's rows when the option asks for it.
pub(super) fn dispatch_in_rows(
    session: &mut Session,
    command: &Command,
    stop: &AtomicBool,
) -> Answer {
    let mirrored = session.options.gogui_rows && matches!(session.game, Game::Othello(_));
    if !mirrored {
        return session.dispatch(command, stop);
    }
    let inbound = match command {
        Command::Play { color, mv, claim } => Command::Play {
            color: *color,
            mv: mirror_squares(mv),
            claim: claim.clone(),
        },
        Command::IsLegal(color, mv) => Command::IsLegal(*color, mirror_squares(mv)),
        Command::PlaySequence(moves) => Command::PlaySequence(mirror_squares(moves)),
        other => other.clone(),
    };
    let answer = session.dispatch(&inbound, stop);
    let names_squares = matches!(
        command,
        Command::Play { .. }
            | Command::IsLegal(..)
            | Command::PlaySequence(_)
            | Command::Genmove(_)
            | Command::RegGenmove(_)
            | Command::AllLegal(_)
            | Command::Solve(_)
            | Command::Hint(_)
            | Command::Analyze(_)
            | Command::ScoresGfx
            | Command::GoguiRules(RulesQuery::LegalMoves)
    );
    if names_squares {
        answer
            .map(|text| mirror_squares(&text))
            .map_err(|text| mirror_squares(&text))
    } else {
        answer
    }
}

/// `text` with every word that is an Othello square mirrored top to bottom, in the
/// word's case; everything else as it was.
pub(super) fn mirror_squares(text: &str) -> String {
    let lines = text.split('\n').map(|line| {
        let words = line.split(' ').map(|word| match Square::parse(word) {
            Some(square) => {
                let mirrored = Square::new(square.index() ^ 56)
                    .map_or_else(|| word.to_string(), |s| s.to_string());
                if word.starts_with(|c: char| c.is_ascii_uppercase()) {
                    mirrored.to_ascii_uppercase()
                } else {
                    mirrored
                }
            }
            None => word.to_string(),
        });
        joined(words, " ")
    });
    joined(lines, "\n")
}

/// A `gogui-rules_*` query about the Othello game being played.
pub(super) fn rules(session: &Session, query: RulesQuery) -> Answer {
    let Game::Othello(position) = &session.game else {
        return Err(session.not_in_this_game(&Command::GoguiRules(query)));
    };
    Ok(match query {
        RulesQuery::GameId => "Othello".into(),
        RulesQuery::BoardSize => "8".into(),
        RulesQuery::Board => board(position, session.options.gogui_rows),
        RulesQuery::SideToMove => position.side_to_move().name().into(),
        RulesQuery::LegalMoves => {
            if position.is_over() {
                String::new()
            } else {
                // Squares in capitals (GoGui matches its own `D3` against the
                // list); `pass` in lowercase, the spelling GoGui looks for.
                joined(
                    position.legal_moves().into_iter().map(|mv| match mv {
                        Move::Place(square) => square.to_string().to_ascii_uppercase(),
                        Move::Pass => mv.to_string(),
                    }),
                    " ",
                )
            }
        }
        RulesQuery::FinalResult => final_result(position),
    })
}

/// The board as GoGui reads it: its top row first, `X` black, `O` white, `.` empty.
/// GoGui's top row is its row 8: the engine's row 1 when rows are mirrored, else
/// its row 8.
fn board(position: &Position, mirrored: bool) -> String {
    let notation = position.to_notation();
    let cells: Vec<char> = notation
        .chars()
        .take(64)
        .map(|c| if c == '-' { '.' } else { c })
        .collect();
    let mut rows: Vec<String> = cells.chunks(8).map(|row| joined(row, " ")).collect();
    if !mirrored {
        rows.reverse();
    }
    rows.join("\n")
}

/// The final count in words, the empties given to the winner (O4): `Black wins
/// 35:29`, `White wins 29:35`, `Draw 32:32`; the count so far while the game goes on.
fn final_result(position: &Position) -> String {
    let (mut black, mut white) = position.counts();
    if !position.is_over() {
        return format!("The game is not over: black {black}, white {white}");
    }
    let empty = 64 - black - white;
    match black.cmp(&white) {
        std::cmp::Ordering::Greater => black += empty,
        std::cmp::Ordering::Less => white += empty,
        std::cmp::Ordering::Equal => {
            black += empty / 2;
            white += empty / 2;
        }
    }
    match black.cmp(&white) {
        std::cmp::Ordering::Greater => format!("Black wins {black}:{white}"),
        std::cmp::Ordering::Less => format!("White wins {black}:{white}"),
        std::cmp::Ordering::Equal => format!("Draw {black}:{white}"),
    }
}

/// `gogui-analyze_commands`: the analyses of the game being played, one
/// `TYPE/LABEL/COMMAND` a line.
pub(super) fn analyze_commands(kind: GameKind) -> String {
    // One entry a colour: `LABEL (COLOUR…)/COMMAND COLOUR`.
    let per_colour = |label: &str, suffix: &str, command: &str| {
        let entries = [Color::Black, Color::White]
            .map(|c| format!("gfx/{label} ({}{suffix})/{command} {}", c.name(), c.name()));
        joined(entries, "\n")
    };
    match kind {
        GameKind::Othello => "gfx/Move scores/tabula-scores_gfx".into(),
        GameKind::Battleship => per_colour("Hunter heat map", " shoots", "tabula-heat_gfx"),
        GameKind::Shell => per_colour("Mixed strategy", "", "tabula-mix_gfx"),
    }
}

/// A score as a short board label: whole discs when exact (`+6`), tenths when
/// estimated (`+6.1`).
fn label(score: Score) -> String {
    match score {
        Score::Exact(discs) => format!("{discs:+}"),
        Score::Estimate(units) => format!("{:+.1}", f64::from(units) / 100.0),
    }
}

/// `tabula-scores_gfx`: every legal move of the side to move labelled with its score
/// (as `analyze` finds it, interruptible), the best one coloured, and a status line.
pub(super) fn scores_gfx(session: &Session, stop: &AtomicBool) -> Answer {
    let Game::Othello(position) = &session.game else {
        return Err(session.not_in_this_game(&Command::ScoresGfx));
    };
    if position.is_over() {
        return Ok("TEXT the game is over".into());
    }
    let side = position.side_to_move();
    let limits = session.limits(side, stop, 30, Instant::now());
    let settings = othello::settings(&session.options);
    let mut tables = session.tables.lock();
    let memory = tables.othello.get_or_insert_with(|| Memory::new(&settings));
    let scores = ai::othello::hint_in(position, limits, &settings, usize::MAX, memory);
    let mut lines: Vec<String> = scores
        .iter()
        .map(|(mv, score)| format!("LABEL {mv} {}", label(*score)))
        .collect();
    if let Some((best, score)) = scores.first() {
        if *best != Move::Pass {
            lines.push(format!("COLOR green {best}"));
        }
        lines.push(format!("TEXT {} to move: best {best} {score}", side.name()));
    }
    Ok(joined(lines, "\n"))
}

/// GoGui's name of the cell at 0-based `column` and `row` (row 0 the engine's row 1)
/// on a `size` board: no `I` column, and rows counted from the bottom when
/// `mirrored` (GoGui's picture the right way up) or the engine's otherwise.
fn gogui_point(column: u8, row: u8, size: u8, mirrored: bool) -> String {
    let letter = char::from(b'A' + column + u8::from(column >= 8));
    let number = if mirrored { size - row } else { row + 1 };
    format!("{letter}{number}")
}

/// The gfx of a probability per cell: shaded squares scaled to the largest, a
/// percentage label on each cell of at least half a percent, the best cell
/// coloured, and a status line.
fn probability_gfx(cells: &[(String, f64)], title: &str) -> String {
    let top = cells.iter().map(|(_, p)| *p).fold(0.0, f64::max);
    let mut lines = Vec::new();
    if top > 0.0 {
        let shades = cells
            .iter()
            .filter(|(_, p)| *p > 0.0)
            .map(|(point, p)| format!("{point} {:.3}", p / top));
        lines.push(format!("INFLUENCE {}", joined(shades, " ")));
    }
    let labels = cells
        .iter()
        .filter(|(_, p)| *p >= 0.005)
        .map(|(point, p)| format!("{point} {:.0}", p * 100.0));
    lines.push(format!("LABEL {}", joined(labels, " ")));
    let best = cells
        .iter()
        .filter(|(_, p)| *p > 0.0)
        .max_by(|a, b| a.1.total_cmp(&b.1));
    match best {
        Some((point, p)) => {
            lines.push(format!("COLOR green {point}"));
            lines.push(format!("TEXT {title}: best {point} {:.0}%", p * 100.0));
        }
        None => lines.push(format!("TEXT {title}: no cell left")),
    }
    joined(lines, "\n")
}

/// The limits of an analysis: the session's clock and options, the interrupt.
fn analysis_limits<'a>(session: &Session, color: Color, stop: &'a AtomicBool) -> ai::Limits<'a> {
    session.limits(color, stop, 30, Instant::now())
}

/// `tabula-heat_gfx COLOR` (Battleship): the hunter's probability of a ship on every
/// open cell of the sea COLOR shoots at, from COLOR's view alone.
pub(super) fn heat_gfx(session: &Session, color: Color, stop: &AtomicBool) -> Answer {
    let Game::Battleship(table) = &session.game else {
        return Err(session.not_in_this_game(&Command::HeatGfx(color)));
    };
    let view = table.target_view(color);
    let limits = analysis_limits(session, color, stop);
    let (p, _) = ai::battleship::hunter::weights(view, &mut session.rng.clone(), &limits);
    let mirrored = session.options.gogui_rows;
    let cells: Vec<(String, f64)> = crate::games::battleship::Cell::all()
        .map(|cell| {
            let index = cell.index();
            let point = gogui_point((index % 10) as u8, (index / 10) as u8, 10, mirrored);
            (point, p[index])
        })
        .collect();
    Ok(probability_gfx(&cells, &format!("{} shoots", color.name())))
}

/// `tabula-mix_gfx COLOR` (What the Shell): the search's mixed strategy for COLOR,
/// the probability of each cell it may pick.
pub(super) fn mix_gfx(session: &Session, color: Color, stop: &AtomicBool) -> Answer {
    let Game::Shell(position) = &session.game else {
        return Err(session.not_in_this_game(&Command::MixGfx(color)));
    };
    let limits = analysis_limits(session, color, stop);
    let mut think = super::Think {
        limits,
        rng: &mut session.rng.clone(),
        options: &session.options,
    };
    let mut tables = session.tables.lock();
    let memory = tables.shell.as_mut().map(|(m, _)| m);
    let outcome = super::shell::search(position, color, &mut think, memory)?;
    let mirrored = session.options.gogui_rows;
    let cells: Vec<(String, f64)> = outcome
        .strategy
        .iter()
        .map(|(cell, p)| (gogui_point(cell.col(), cell.row(), 9, mirrored), *p))
        .collect();
    Ok(probability_gfx(&cells, &format!("{} picks", color.name())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_mirrored_top_to_bottom_in_their_case() {
        assert_eq!(mirror_squares("d3"), "d6");
        assert_eq!(mirror_squares("A1 H8 pass"), "A8 H1 pass");
        assert_eq!(mirror_squares("d3 ~+6.12\nc4 -2"), "d6 ~+6.12\nc5 -2");
        assert_eq!(mirror_squares("LABEL e6 +1"), "LABEL e3 +1");
        assert_eq!(
            mirror_squares("i9 d33 illegal move: d3 is occupied"),
            "i9 d33 illegal move: d6 is occupied"
        );
    }

    #[test]
    fn gogui_points_skip_i_and_count_rows_as_asked() {
        assert_eq!(gogui_point(0, 0, 10, false), "A1");
        assert_eq!(gogui_point(0, 0, 10, true), "A10");
        assert_eq!(gogui_point(8, 4, 9, false), "J5");
        assert_eq!(gogui_point(9, 9, 10, false), "K10");
        assert_eq!(gogui_point(9, 9, 10, true), "K1");
    }

    #[test]
    fn probabilities_are_shaded_labelled_and_the_best_coloured() {
        let cells = vec![
            ("A1".to_string(), 0.5),
            ("B1".to_string(), 0.25),
            ("C1".to_string(), 0.001),
            ("D1".to_string(), 0.0),
        ];
        assert_eq!(
            probability_gfx(&cells, "black picks"),
            "INFLUENCE A1 1.000 B1 0.500 C1 0.002\nLABEL A1 50 B1 25\nCOLOR green A1\nTEXT black picks: best A1 50%"
        );
    }

    #[test]
    fn scores_are_short_labels() {
        assert_eq!(label(Score::Exact(6)), "+6");
        assert_eq!(label(Score::Exact(-4)), "-4");
        assert_eq!(label(Score::Exact(0)), "+0");
        assert_eq!(label(Score::Estimate(612)), "+6.1");
        assert_eq!(label(Score::Estimate(-250)), "-2.5");
    }
}
