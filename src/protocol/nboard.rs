//! NBoard mode (`tabula --protocol nboard`): the line protocol of the NBoard Othello
//! GUI, specified in `protocol/nboard.md`.
//!
//! The GUI sends one command a line and expects no reply to most of them; the engine
//! answers `go` with `=== MOVE/EVAL/TIME`, `hint N` with `search` lines, `ping N` with
//! `pong N`, and sends `status` lines around its thinking. There is no error reply:
//! a command the engine cannot follow (a malformed game, an illegal move) is logged
//! on stderr and changes nothing.
//!
//! As in GTP mode a reader thread keeps reading while a command thinks: a `ping` (the
//! GUI's way to say the position is about to change) or a `quit` line stops the
//! thinking command, which answers at once with what it has; the `pong` follows that
//! answer, so everything printed before `pong N` belongs to the earlier position.
//! The end of input is a `quit` after the commands already read.
//!
//! The search is the GTP mode's (`ai::othello`), with the same options and search
//! memory kept from move to move.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::engine::{Interrupt, RawLine, read_line};
use super::parse::MAX_LINE;
use super::session::{Options, othello_settings};
use crate::ai::othello::{Memory, Score};
use crate::ai::{self, Limits};
use crate::games::othello::Position;
use crate::games::othello::ggf::{self, Game};

/// The engine's name as it announces it (`set myname`).
const NAME: &str = "tabula";

/// The state of an NBoard session: the game (start and moves) and the search.
pub struct Nboard {
    game: Game,
    position: Position,
    /// The midgame depth `set depth` asked for.
    depth: u32,
    /// `set contempt`, kept for the record: the search values draws at zero.
    contempt: f64,
    options: Options,
    memory: Memory,
}

/// What the loop does after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The first word of a line.
fn verb(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// True for the commands that think (and that `ping` interrupts).
#[must_use]
pub fn thinks(line: &str) -> bool {
    matches!(verb(line), "go" | "hint" | "analyze")
}

/// True for the lines that stop a thinking command.
#[must_use]
pub fn interrupts(line: &str) -> bool {
    matches!(verb(line), "ping" | "quit")
}

/// An evaluation as NBoard reads it: discs for the side to move, a decimal number.
fn eval_text(score: Score) -> String {
    match score {
        Score::Exact(discs) => format!("{discs}.00"),
        Score::Estimate(units) => format!("{:.2}", f64::from(units) / 100.0),
    }
}

impl Nboard {
    /// A session at the standard start with `options` (the GTP mode's options).
    #[must_use]
    pub fn new(options: Options) -> Nboard {
        let start = Position::start();
        Nboard {
            game: Game::new(start, Vec::new()),
            position: start,
            depth: options.depth_limit(false),
            contempt: 0.0,
            memory: Memory::new(&othello_settings(&options)),
            options,
        }
    }

    /// The position the next command is about.
    #[must_use]
    pub fn position(&self) -> Position {
        self.position
    }

    /// The game so far: its start and moves.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Handles one command line, writing its answer lines to `out` (flushed).
    pub fn handle(
        &mut self,
        line: &str,
        stop: &AtomicBool,
        out: &mut dyn Write,
    ) -> io::Result<Flow> {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let verb = words.next().unwrap_or("");
        let rest = line[verb.len()..].trim();
        match verb {
            "" => {}
            "nboard" => {
                if rest.parse::<u32>().is_err() {
                    log::warn!("nboard: expected a version number, got {rest:?}");
                }
                writeln!(out, "set myname {NAME}")?;
            }
            "set" => self.set(rest),
            "move" => self.play(rest),
            "hint" => match rest.parse::<u32>() {
                Ok(count) if count >= 1 => self.hint(count, stop, out)?,
                _ => log::warn!("hint: expected a number of moves (1 or more), got {rest:?}"),
            },
            "go" => self.go(stop, out)?,
            "analyze" => self.analyze(stop, out)?,
            "ping" => writeln!(out, "pong {rest}")?,
            "learn" => writeln!(out, "learned")?,
            "quit" => return Ok(Flow::Quit),
            // NBoard 1.1 sent a bare move.
            _ if verb.len() == 2 && rest.is_empty() && ggf::parse_move(verb).is_some() => {
                self.play(verb);
            }
            _ => log::info!("nboard: ignored {line:?}"),
        }
        out.flush()?;
        Ok(Flow::Continue)
    }

    /// `set depth N`, `set game GGF`, `set contempt N`; other settings are ignored.
    fn set(&mut self, rest: &str) {
        let (name, value) = rest.split_once(' ').unwrap_or((rest, ""));
        let value = value.trim();
        match name {
            "depth" => match value.parse::<u32>() {
                Ok(depth) if (1..=64).contains(&depth) => self.depth = depth,
                _ => log::warn!(
                    "set depth: expected 1 to 64, got {value:?}; depth stays {}",
                    self.depth
                ),
            },
            "game" => match ggf::read(value) {
                Ok(game) => {
                    self.position = game.final_position();
                    self.game = game;
                }
                Err(error) => log::warn!("set game: {error}; the game is unchanged"),
            },
            "contempt" => match value.parse::<f64>() {
                Ok(contempt) if contempt.is_finite() => {
                    self.contempt = contempt;
                    log::info!("set contempt {contempt}: draws are valued at zero");
                }
                _ => log::warn!("set contempt: expected a number, got {value:?}"),
            },
            _ => log::info!("set {name}: not a setting of this engine, ignored"),
        }
    }

    /// `move MOVE[/EVAL/TIME]`: the move of the side to move.
    fn play(&mut self, text: &str) {
        let Some(mv) = ggf::parse_move(text) else {
            log::warn!("move {text:?}: not a square or PA; the position is unchanged");
            return;
        };
        match ggf::play_lenient(&mut self.position, mv) {
            Ok(played) => self.game.moves.extend(played),
            Err(error) => log::warn!("move {text}: {error}; the position is unchanged"),
        }
    }

    fn limits<'a>(&self, stop: &'a AtomicBool) -> Limits<'a> {
        let deadline = (self.options.movetime_ms > 0)
            .then(|| Instant::now() + Duration::from_millis(self.options.movetime_ms));
        Limits {
            depth: self.depth,
            deadline,
            stop: Some(stop),
            cancel: None,
            nodes: None,
        }
    }

    /// The depth a score was searched to: the empties when exact.
    fn depth_of(&self, position: &Position, score: Score) -> u32 {
        match score {
            Score::Exact(_) => position.board().empty().count_ones(),
            Score::Estimate(_) => self.depth,
        }
    }

    /// `hint N`: the N best moves, one `search MOVE EVAL 0 DEPTH` line each, between
    /// status lines.
    fn hint(&mut self, count: u32, stop: &AtomicBool, out: &mut dyn Write) -> io::Result<()> {
        if self.position.is_over() {
            log::warn!("hint: the game is over");
            return writeln!(out, "status");
        }
        writeln!(out, "status {NAME} is thinking")?;
        out.flush()?;
        let settings = othello_settings(&self.options);
        let scores = ai::othello::hint_in(
            &self.position,
            self.limits(stop),
            &settings,
            count as usize,
            &mut self.memory,
        );
        for (mv, score) in scores {
            let depth = self.depth_of(&self.position, score);
            writeln!(
                out,
                "search {} {} 0 {depth}",
                ggf::move_text(mv),
                eval_text(score)
            )?;
        }
        writeln!(out, "status")
    }

    /// `go`: the move the engine would play, `nodestats NODES SECONDS` then
    /// `=== MOVE/EVAL/TIME`; the position is not changed (the GUI sends the move back with `move`).
    fn go(&mut self, stop: &AtomicBool, out: &mut dyn Write) -> io::Result<()> {
        if self.position.is_over() {
            log::warn!("go: the game is over");
            return writeln!(out, "status");
        }
        writeln!(out, "status {NAME} is thinking")?;
        out.flush()?;
        let started = Instant::now();
        let settings = othello_settings(&self.options);
        let found = ai::othello::search_in(
            &self.position,
            self.limits(stop),
            &settings,
            &mut self.memory,
        );
        let seconds = started.elapsed().as_secs_f64();
        match found {
            Some(result) => {
                log::info!(
                    "nboard go: {} score {} depth {} nodes {}",
                    result.best,
                    result.score,
                    result.depth,
                    result.nodes
                );
                writeln!(out, "nodestats {} {seconds:.2}", result.nodes)?;
                writeln!(
                    out,
                    "=== {}/{}/{seconds:.2}",
                    ggf::move_text(result.best),
                    eval_text(result.score)
                )?;
            }
            None => log::warn!("go: no move"),
        }
        writeln!(out, "status")
    }

    /// `analyze`: every position of the game from the last back to the start,
    /// `analysis N EVAL` (N moves played before it, the evaluation for the side to
    /// move there); a `ping` ends it early.
    fn analyze(&mut self, stop: &AtomicBool, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "status {NAME} is analysing")?;
        out.flush()?;
        let settings = othello_settings(&self.options);
        let mut positions = vec![self.game.start];
        for &mv in &self.game.moves {
            let mut next = *positions.last().unwrap_or(&self.game.start);
            let side = next.side_to_move();
            if next.play(side, mv).is_err() {
                break;
            }
            positions.push(next);
        }
        for (number, position) in positions.iter().enumerate().rev() {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            if position.is_over() {
                continue;
            }
            if let Some(result) =
                ai::othello::search_in(position, self.limits(stop), &settings, &mut self.memory)
            {
                writeln!(out, "analysis {number} {}", eval_text(result.score))?;
                out.flush()?;
            }
        }
        writeln!(out, "status")
    }
}

fn reader_loop(mut input: impl BufRead, lines: mpsc::Sender<String>, interrupt: Arc<Interrupt>) {
    loop {
        let line = match read_line(&mut input, MAX_LINE) {
            Ok(Some(RawLine::Bytes(bytes))) => String::from_utf8_lossy(&bytes).trim().to_string(),
            Ok(Some(RawLine::TooLong)) => {
                log::warn!("nboard: a line longer than {MAX_LINE} bytes, ignored");
                continue;
            }
            Ok(None) | Err(_) => return,
        };
        interrupt.read(interrupts(&line), thinks(&line));
        if lines.send(line).is_err() {
            return;
        }
    }
}

/// Runs NBoard mode on `input` and `output` until `quit` or the end of input. A
/// closed output ends it quietly.
pub fn run<R, W>(input: R, mut output: W, options: Options) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let mut session = Nboard::new(options);
    let interrupt = Arc::new(Interrupt::default());
    let (sender, lines) = mpsc::channel();
    let reader_interrupt = Arc::clone(&interrupt);
    thread::Builder::new()
        .name("input".into())
        .spawn(move || reader_loop(input, sender, reader_interrupt))?;
    for line in lines {
        let flow = session.handle(&line, &interrupt.stop, &mut output);
        if thinks(&line) {
            interrupt.finished();
        }
        match flow {
            Ok(Flow::Quit) => break,
            Ok(Flow::Continue) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Nboard {
        Nboard::new(Options {
            hash_mib: 1,
            ..Options::default()
        })
    }

    fn say(session: &mut Nboard, line: &str) -> String {
        let mut out = Vec::new();
        session
            .handle(line, &AtomicBool::new(false), &mut out)
            .expect("writes to memory");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn moves_follow_the_game_and_refusals_change_nothing() {
        let mut s = session();
        assert_eq!(say(&mut s, "move F5"), "");
        assert_eq!(say(&mut s, "move d6/-1.5/2.0"), "");
        let before = (s.position(), s.game().clone());
        for bad in [
            "move A1",
            "move F5",
            "move zz",
            "move",
            "set game (;GM[Othello];)",
            "set game garbage",
        ] {
            assert_eq!(say(&mut s, bad), "", "{bad}");
            assert_eq!((s.position(), s.game().clone()), before, "{bad}");
        }
        let ten = "(;GM[Othello]TY[10]BO[8 ---------------------------O*------*O--------------------------- *];)";
        say(&mut s, &format!("set game {ten}"));
        assert_eq!((s.position(), s.game().clone()), before);
        assert_eq!(s.game().moves.len(), 2);
    }

    #[test]
    fn set_game_replaces_the_game_and_a_bare_move_is_a_move() {
        let mut s = session();
        say(&mut s, "move F5");
        let ggf = "(;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4];)";
        say(&mut s, &format!("set game {ggf}"));
        assert_eq!(s.game().moves.len(), 4);
        say(&mut s, "E3");
        assert_eq!(s.game().moves.len(), 5);
        assert_eq!(s.position().side_to_move(), crate::games::Color::White);
    }

    #[test]
    fn settings_and_small_talk() {
        let mut s = session();
        assert_eq!(say(&mut s, "nboard 2"), "set myname tabula\n");
        assert_eq!(say(&mut s, "ping 7"), "pong 7\n");
        assert_eq!(say(&mut s, "learn"), "learned\n");
        say(&mut s, "set depth 3");
        assert_eq!(s.depth, 3);
        say(&mut s, "set depth 0");
        assert_eq!(s.depth, 3, "a refused depth keeps the old one");
        say(&mut s, "set contempt 2.5");
        assert!((s.contempt - 2.5).abs() < 1e-9);
        assert_eq!(say(&mut s, "frobnicate 1 2"), "");
        assert_eq!(
            s.handle("quit", &AtomicBool::new(false), &mut Vec::new())
                .ok(),
            Some(Flow::Quit)
        );
    }

    #[test]
    fn evals_are_decimal_discs() {
        assert_eq!(eval_text(Score::Exact(-4)), "-4.00");
        assert_eq!(eval_text(Score::Exact(6)), "6.00");
        assert_eq!(eval_text(Score::Estimate(-125)), "-1.25");
        assert_eq!(eval_text(Score::Estimate(7)), "0.07");
    }
}
