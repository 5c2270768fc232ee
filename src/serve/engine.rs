//! Engine seats: "play against the computer".
//!
//! `tabula serve --engine NAME=CMD` names engine commands; a table opened with
//! `"opponent": NAME` seats that engine as white (the invitation's colour). The engine
//! is a child process driven through the arena's [`Engine`] (the project's child
//! client: every read has a deadline, the process is killed when dropped), on a
//! thread of its own, so the server's runtime never waits for it.
//!
//! The seat is driven like any other: it reads the events its colour is sent and
//! answers with seat commands through a [`Link`], so it sees only what a person in
//! that seat would. The engine is told the game as it goes: `set_game` at each game,
//! the other side's moves (`play`), each Shell turn's picks (`resolve_turn`) once
//! revealed, and asked `genmove` on its turn. A Shell pick is asked for at the start
//! of the turn, from the position before it; the other pick reaches the seat only in
//! the reveal. In Battleship the engine places its fleet (`genfleet`), the seat
//! presses ready, and the host still starts; a draw offer is declined.
//!
//! An engine that cannot be started, exits, stalls or answers what the table refuses
//! forfeits the game in progress ([`Link::forfeit`]): both seats are told why in the
//! `over` event. The engine is started afresh for the next game (`again`).

use std::collections::HashMap;
use std::time::Duration;

use anyhow::{Result, bail};

use crate::arena::engine::{Engine, EngineSpec, Failure, clip};
use crate::games::{Color, GameKind};

/// How long an engine may take for anything but a move.
const ANSWER: Duration = Duration::from_secs(20);

/// How long an engine may think over a move on an untimed table.
const THINK: Duration = Duration::from_secs(60);

/// The engines a server may seat, by name.
#[derive(Clone, Debug, Default)]
pub struct Engines {
    specs: HashMap<String, EngineSpec>,
}

impl Engines {
    /// `tabula` (this program, with no arguments: the engine on stdin and stdout),
    /// then each `NAME=COMMAND ARGS…` of `--engine`, a later one replacing an
    /// earlier one of the same name.
    ///
    /// # Errors
    /// A malformed `--engine`.
    pub fn configure(engines: &[String]) -> Result<Engines> {
        let mut specs = HashMap::new();
        if let Ok(program) = std::env::current_exe() {
            specs.insert(
                "tabula".to_string(),
                EngineSpec {
                    name: "tabula".to_string(),
                    program: program.to_string_lossy().into_owned(),
                    args: Vec::new(),
                },
            );
        }
        for text in engines {
            let spec = EngineSpec::parse(text)?;
            if spec.name.contains(char::is_whitespace) {
                bail!("--engine {text:?}: the name must be one word");
            }
            specs.insert(spec.name.clone(), spec);
        }
        Ok(Engines { specs })
    }

    /// The engine named `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&EngineSpec> {
        self.specs.get(name)
    }

    /// The names, sorted.
    #[must_use]
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.specs.keys().map(String::as_str).collect();
        names.sort_unstable();
        names
    }
}

/// A seat at a table as the engine's driver uses it.
pub trait Link {
    /// Runs one seat command: `Ok(text)` for `=`, `Err(message)` for `?`.
    fn command(&mut self, line: &str) -> Result<String, String>;
    /// The next event the seat was sent, without `event `; `None` once the table is
    /// gone.
    fn event(&mut self) -> Option<String>;
    /// The seat forfeits the game in progress for `reason`.
    fn forfeit(&mut self, reason: &str);
}

/// Why a step of the engine's seat failed: said in the `over` event.
type Step = Result<(), String>;

fn failed(name: &str, failure: &Failure) -> String {
    format!("engine {name} {failure}")
}

/// The engine's seat at one table.
struct Seat<'a, L: Link> {
    link: &'a mut L,
    spec: &'a EngineSpec,
    kind: GameKind,
    color: Color,
    engine: Option<Engine>,
    /// The seat's time left as the last `clock` event said, in seconds.
    clock: Option<f64>,
}

impl<L: Link> Seat<'_, L> {
    fn engine(&mut self) -> Result<&mut Engine, String> {
        if self.engine.is_none() {
            let engine = Engine::start(self.spec, self.kind, &[], ANSWER)
                .map_err(|f| failed(&self.spec.name, &f))?;
            self.engine = Some(engine);
        }
        self.engine
            .as_mut()
            .ok_or_else(|| format!("engine {} is not running", self.spec.name))
    }

    fn ask(&mut self, command: &str) -> Result<String, String> {
        let name = self.spec.name.clone();
        let answer = self.engine()?.ask(command, ANSWER);
        answer
            .map(|text| text.trim().to_string())
            .map_err(|f| failed(&name, &f))
    }

    /// The engine's move for its colour (`genmove`), told its time left first on a
    /// timed table.
    fn genmove(&mut self) -> Result<String, String> {
        let name = self.spec.name.clone();
        let me = self.color.name();
        let think = match self.clock {
            Some(left) => {
                self.ask(&format!("time_left {me} {left} 0"))?;
                Duration::from_secs_f64(left.max(0.0) + 5.0)
            }
            None => THINK,
        };
        let answer = self.engine()?.ask(format!("genmove {me}"), think);
        let text = answer.map_err(|f| failed(&name, &f))?;
        let mv = text.trim().split(' ').next().unwrap_or("").to_string();
        if mv.is_empty() || mv.len() > 8 {
            return Err(format!(
                "engine {name} answers genmove with {:?}",
                clip(&text)
            ));
        }
        Ok(mv)
    }

    /// A seat command the engine's choice led to; refused, the engine answered junk.
    fn table(&mut self, line: &str) -> Step {
        self.link.command(line).map(|_| ()).map_err(|message| {
            format!(
                "engine {} plays what the table refuses ({line}: {message})",
                self.spec.name
            )
        })
    }

    fn new_game(&mut self, number: u32) -> Step {
        self.ask(&format!("set_game {}", self.kind.name()))?;
        match self.kind {
            GameKind::Shell => self.pick(),
            GameKind::Battleship => {
                let me = self.color.name();
                let fleet = self.ask(&format!("genfleet {me}"))?;
                // The engine's session numbers the game as the table does, so the
                // first shooter (B7) agrees when both start.
                let ships = fleet.replace(' ', ",");
                let (black, white) = match self.color {
                    Color::Black => (ships.as_str(), "-"),
                    Color::White => ("-", ships.as_str()),
                };
                self.ask(&format!(
                    "set_position game={number} stage=setup black={black} white={white} \
                     shots=- offers=-- score=0,0,0 clocks=-,-"
                ))?;
                self.table(&format!("fleet {me} {fleet}"))?;
                if self.color == Color::White {
                    self.table("ready white")?;
                }
                Ok(())
            }
            GameKind::Othello => Ok(()),
        }
    }

    fn pick(&mut self) -> Step {
        let cell = self.genmove()?;
        self.table(&format!("play {} {cell}", self.color.name()))
    }

    fn shoot(&mut self) -> Step {
        let me = self.color.name();
        let cell = self.genmove()?;
        let line = format!("play {me} {cell}");
        let result = self.link.command(&line).map_err(|message| {
            format!(
                "engine {} plays what the table refuses ({line}: {message})",
                self.spec.name
            )
        })?;
        self.ask(&format!("play {me} {cell} {result}")).map(|_| ())
    }

    /// What the event `words` asks of the seat.
    fn on(&mut self, words: &[&str]) -> Step {
        let me = self.color.name();
        match (self.kind, words) {
            (_, ["clock", color, seconds]) if *color == me => {
                self.clock = seconds.parse().ok();
                Ok(())
            }
            (GameKind::Othello, ["played", color, mv]) if *color != me => {
                self.ask(&format!("play {color} {mv}")).map(|_| ())
            }
            (GameKind::Othello, ["turn", color]) if *color == me => {
                let mv = self.genmove()?;
                self.table(&format!("play {me} {mv}"))
            }
            (GameKind::Shell, ["revealed", black, white, .., status]) => {
                self.ask(&format!("resolve_turn {black} {white}"))?;
                if matches!(*status, "ongoing" | "sudden_death") {
                    self.pick()
                } else {
                    Ok(())
                }
            }
            (GameKind::Battleship, ["start", first]) => {
                self.ask("ready white")?;
                self.ask("start")?;
                if *first == me { self.shoot() } else { Ok(()) }
            }
            (GameKind::Battleship, ["turn", color]) if *color == me => self.shoot(),
            (GameKind::Battleship, ["shot", color, cell, ..]) if *color != me => {
                self.ask(&format!("play {color} {cell}")).map(|_| ())
            }
            (GameKind::Battleship, ["offer", color]) if *color != me => {
                // A refusal here only means the offer lapsed meanwhile.
                let _ = self.link.command(&format!("decline_draw {me}"));
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// Plays `color` at a table of `kind` with the engine `spec` until the table is gone.
pub fn play(link: &mut impl Link, spec: &EngineSpec, kind: GameKind, color: Color) {
    let mut seat = Seat {
        link,
        spec,
        kind,
        color,
        engine: None,
        clock: None,
    };
    // Whether the engine failed in the game in progress: it sits out until the next.
    let mut out = false;
    while let Some(event) = seat.link.event() {
        let words: Vec<&str> = event.split(' ').collect();
        let step = match words.as_slice() {
            ["game", _, number] => {
                out = false;
                seat.clock = None;
                seat.new_game(number.parse().unwrap_or(1))
            }
            _ if out => Ok(()),
            _ => seat.on(&words),
        };
        if let Err(reason) = step {
            log::info!("{reason}: the seat forfeits");
            seat.link.forfeit(&reason);
            // Stopped (killed when dropped); started afresh for the next game.
            seat.engine = None;
            out = true;
        }
    }
    if let Some(engine) = seat.engine.take() {
        engine.quit();
    }
}
