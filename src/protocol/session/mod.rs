//! The session: one game of the moment, its history for `undo`, the engine options
//! and the clock, and the one exhaustive `match` that dispatches every [`Command`].
//!
//! Invariant: a command that fails changes nothing. Game handlers check before they
//! change, and every successful move pushes the state it replaced onto `history`, so
//! `undo` restores exactly. The session knows no rule: it hands game-specific text to
//! the game's own handler module ([`othello`]).

mod clock;
mod options;
mod othello;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

pub use clock::Clock;
pub use options::Options;

use super::command::Command;
use super::parse::COMMANDS;
use crate::ai::Limits;
use crate::games::{Color, GameKind, Status, othello::Position as OthelloPosition};
use crate::rng::Rng;

/// A refused command's message (GTP's error text, with a reason where useful).
pub type Refusal = String;

/// What a command answers: a success text or a refusal.
pub type Answer = Result<String, Refusal>;

/// The state of the game being played, one variant per game.
#[derive(Clone, Debug, PartialEq)]
pub enum Game {
    Othello(OthelloPosition),
}

impl Game {
    /// A fresh game of `kind`.
    fn new(kind: GameKind) -> Result<Game, Refusal> {
        match kind {
            GameKind::Othello => Ok(Game::Othello(OthelloPosition::start())),
            GameKind::Battleship | GameKind::Shell => {
                Err(format!("{} is not available in this build", kind.name()))
            }
        }
    }

    fn kind(&self) -> GameKind {
        match self {
            Game::Othello(_) => GameKind::Othello,
        }
    }
}

/// What a thinking command may use: the options, the clock's budget and the
/// interrupt flag.
pub struct Think<'a> {
    pub limits: Limits<'a>,
    pub rng: &'a mut Rng,
    pub options: &'a Options,
}

/// One protocol session. Two sessions are equal when every part of their state is.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    game: Game,
    history: Vec<Game>,
    options: Options,
    clock: Clock,
    rng: Rng,
}

impl Session {
    /// A session playing a fresh game of `kind`.
    pub fn new(kind: GameKind) -> Result<Session, Refusal> {
        let options = Options::default();
        Ok(Session {
            game: Game::new(kind)?,
            history: Vec::new(),
            rng: Rng::new(options.seed),
            options,
            clock: Clock::default(),
        })
    }

    /// The game of the moment.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Handles one command. `stop` is raised from outside to cut a search short.
    pub fn handle(&mut self, command: &Command, stop: &AtomicBool) -> Answer {
        match command {
            Command::ProtocolVersion => Ok("2".into()),
            Command::Name => Ok("tabula".into()),
            Command::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            Command::KnownCommand(name) => Ok(super::parse::spec(name).is_some().to_string()),
            Command::ListCommands => Ok(COMMANDS
                .iter()
                .map(|s| s.name)
                .collect::<Vec<_>>()
                .join("\n")),
            Command::Quit => Ok(String::new()),
            Command::ListGames => Ok(GameKind::ALL.map(GameKind::name).join("\n")),
            Command::SetGame(kind) => {
                self.game = Game::new(*kind)?;
                self.history.clear();
                Ok(String::new())
            }
            Command::ClearBoard => {
                self.game = Game::new(self.game.kind())?;
                self.history.clear();
                Ok(String::new())
            }
            Command::BoardSize(size) => {
                if *size == self.game.kind().board_size() {
                    Ok(String::new())
                } else {
                    Err("unacceptable size".into())
                }
            }
            Command::ShowBoard => Ok(format!("\n{}", self.picture())),
            Command::Position => Ok(match &self.game {
                Game::Othello(p) => p.to_notation(),
            }),
            Command::SetPosition(text) => {
                let game = match &self.game {
                    Game::Othello(_) => Game::Othello(othello::set_position(text)?),
                };
                self.game = game;
                self.history.clear();
                Ok(String::new())
            }
            Command::Play { color, mv, claim } => {
                let before = self.game.clone();
                let answer = match &mut self.game {
                    Game::Othello(p) => {
                        if claim.is_some() {
                            return Err("syntax error (usage: play COLOR MOVE)".into());
                        }
                        othello::play(p, *color, mv)
                    }
                }?;
                self.history.push(before);
                Ok(answer)
            }
            Command::Genmove(color) => self.genmove(*color, stop, true),
            Command::RegGenmove(color) => self.genmove(*color, stop, false),
            Command::AllLegal(color) => Ok(match &self.game {
                Game::Othello(p) => othello::all_legal(p, *color),
            }),
            Command::IsLegal(color, mv) => Ok(match &self.game {
                Game::Othello(p) => othello::is_legal(p, *color, mv),
            }
            .to_string()),
            Command::Undo => match self.history.pop() {
                Some(previous) => {
                    self.game = previous;
                    Ok(String::new())
                }
                None => Err("cannot undo".into()),
            },
            Command::Status => Ok(self.status().name().into()),
            Command::FinalScore => Ok(match &self.game {
                Game::Othello(p) => othello::final_score(p),
            }),
            Command::TimeSettings {
                main,
                byo_yomi,
                stones,
            } => {
                self.clock.set(*main, *byo_yomi, *stones);
                Ok(String::new())
            }
            Command::TimeLeft {
                color,
                seconds,
                stones,
            } => {
                self.clock.left(*color, *seconds, *stones);
                Ok(String::new())
            }
            Command::SetOption { name, value } => {
                let mut options = self.options.clone();
                options.set(name, value)?;
                if options.seed != self.options.seed {
                    self.rng = Rng::new(options.seed);
                }
                self.options = options;
                Ok(String::new())
            }
            Command::Perft(depth) => match &self.game {
                Game::Othello(p) => othello::perft(p, *depth),
            },
            Command::ResolveTurn { .. }
            | Command::Fleet { .. }
            | Command::GenFleet(_)
            | Command::Ready(_)
            | Command::Start
            | Command::Again
            | Command::Score
            | Command::OfferDraw(_)
            | Command::AcceptDraw(_)
            | Command::DeclineDraw(_) => Err(self.not_in_this_game(command)),
        }
    }

    fn not_in_this_game(&self, command: &Command) -> Refusal {
        format!(
            "{} is not a command of {}",
            command.name(),
            self.game.kind().name()
        )
    }

    fn status(&self) -> Status {
        match &self.game {
            Game::Othello(p) => p.status(),
        }
    }

    fn picture(&self) -> String {
        match &self.game {
            Game::Othello(p) => p.picture(),
        }
    }

    /// `genmove` (`commit` = true, the move is played when the game's semantics say
    /// so) and `reg_genmove` (never played).
    fn genmove(&mut self, color: Color, stop: &AtomicBool, commit: bool) -> Answer {
        let started = Instant::now();
        let moves_left = match &self.game {
            Game::Othello(p) => (p.board().empty().count_ones() / 2).max(1),
        };
        let deadline = self
            .think_time(color, moves_left)
            .map(|budget| started + budget);
        let limits = Limits {
            depth: self.options.depth,
            deadline,
            stop: Some(stop),
        };
        let mut think = Think {
            limits,
            rng: &mut self.rng,
            options: &self.options,
        };
        let before = self.game.clone();
        let answer = match &mut self.game {
            Game::Othello(p) => othello::genmove(p, color, &mut think, commit),
        }?;
        if self.game != before {
            self.history.push(before);
        }
        self.clock.spent(color, started.elapsed());
        Ok(answer)
    }

    /// How long one move may take: the `movetime` option, the clock's share, or the
    /// smaller of both; `None` when neither is set (the search is depth-bound).
    fn think_time(&self, color: Color, moves_left: u32) -> Option<Duration> {
        let movetime =
            (self.options.movetime_ms > 0).then(|| Duration::from_millis(self.options.movetime_ms));
        let clock = self.clock.budget(color, moves_left);
        match (movetime, clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}
