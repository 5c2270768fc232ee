//! The session: one game of the moment, its history for `undo`, the engine options
//! and the clock, and the one exhaustive `match` that dispatches every [`Command`].
//!
//! Invariant: a command that fails changes nothing. Game handlers check before they
//! change, and every successful move pushes the state it replaced onto `history`, so
//! `undo` restores exactly. The session knows no rule: it hands game-specific text to
//! the game's own handler module (`othello`, `shell`, `battleship`).

mod battleship;
mod clock;
mod gogui;
mod live;
mod options;
mod othello;
mod records;
mod shell;

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

pub use clock::Clock;
pub use live::Out;
pub use options::Options;
/// Othello's search settings from the options (NBoard mode shares them).
pub use othello::settings as othello_settings;

use super::command::{Command, TimeSystem};
use super::parse::COMMANDS;
use crate::ai::{self, Limits};
use crate::games::battleship::Table;
use crate::games::othello::Position as OthelloPosition;
use crate::games::shell::Position as ShellPosition;
use crate::games::{Color, GameKind, Status};
use crate::rng::Rng;

/// A refused command's message (GTP's error text, with a reason where useful).
pub type Refusal = String;

/// What a command answers: a success text or a refusal.
pub type Answer = Result<String, Refusal>;

/// The state of the game being played, one variant per game.
#[derive(Clone, Debug, PartialEq)]
pub enum Game {
    Othello(OthelloPosition),
    Shell(ShellPosition),
    Battleship(Box<Table>),
}

impl Game {
    /// A fresh game of `kind`.
    fn new(kind: GameKind) -> Game {
        match kind {
            GameKind::Othello => Game::Othello(OthelloPosition::start()),
            GameKind::Shell => Game::Shell(ShellPosition::new()),
            GameKind::Battleship => Game::Battleship(Box::default()),
        }
    }

    fn kind(&self) -> GameKind {
        match self {
            Game::Othello(_) => GameKind::Othello,
            Game::Shell(_) => GameKind::Shell,
            Game::Battleship(_) => GameKind::Battleship,
        }
    }
}

/// The items' texts joined by `separator`: the shape of every list answer.
fn joined<T: std::fmt::Display>(items: impl IntoIterator<Item = T>, separator: &str) -> String {
    let mut text = String::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            text.push_str(separator);
        }
        text.push_str(&item.to_string());
    }
    text
}

/// What a thinking command may use: the options, the clock's budget and the
/// interrupt flag.
pub struct Think<'a> {
    pub limits: Limits<'a>,
    pub rng: &'a mut Rng,
    pub options: &'a Options,
}

/// The search memory kept from move to move (Othello's transposition tables, What
/// the Shell's tree storage), made when the engine starts and when an option changes
/// it, never inside a move. A cache: clones of a session share it, and it takes no
/// part in equality.
#[derive(Clone, Default)]
struct Tables(Arc<Mutex<Memory>>);

/// The memory of the game being played (the other game's is freed).
#[derive(Default)]
struct Memory {
    othello: Option<ai::othello::Memory>,
    /// The storage and the (threads, nodes) it was reserved for.
    shell: Option<(ai::shell::Memory, (u32, usize))>,
}

impl Tables {
    fn lock(&self) -> MutexGuard<'_, Memory> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl PartialEq for Tables {
    fn eq(&self, _: &Tables) -> bool {
        true
    }
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tables")
    }
}

/// One protocol session. Two sessions are equal when every part of their state is
/// (the search memory, a cache, aside).
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    game: Game,
    history: Vec<Game>,
    options: Options,
    clock: Clock,
    rng: Rng,
    tables: Tables,
}

impl Session {
    /// A session playing a fresh game of `kind`, its seed drawn from the system
    /// (`set_option seed` makes it reproducible).
    #[must_use]
    pub fn new(kind: GameKind) -> Session {
        Session::with_options(
            kind,
            Options {
                seed: crate::rng::system_seed(),
                ..Options::default()
            },
        )
    }

    /// A session playing a fresh game of `kind` with `options`.
    #[must_use]
    pub fn with_options(kind: GameKind, options: Options) -> Session {
        let session = Session {
            game: Game::new(kind),
            history: Vec::new(),
            rng: Rng::new(options.seed),
            options,
            clock: Clock::default(),
            tables: Tables::default(),
        };
        session.prepare_tables();
        session
    }

    /// Makes the search memory the game and options need now, outside any clock
    /// (kept when it already suits; the other games' memory is freed first).
    fn prepare_tables(&self) {
        let mut memory = self.tables.lock();
        if !matches!(self.game, Game::Othello(_)) {
            memory.othello = None;
        }
        if !matches!(self.game, Game::Shell(_)) {
            memory.shell = None;
        }
        match self.game {
            Game::Othello(_) => {
                let settings = othello::settings(&self.options);
                if !memory.othello.as_ref().is_some_and(|t| t.suits(&settings)) {
                    memory.othello = None;
                    memory.othello = Some(ai::othello::Memory::new(&settings));
                }
            }
            Game::Shell(_) => {
                let key = (self.options.threads, shell::max_nodes(&self.options));
                if memory.shell.as_ref().is_none_or(|(_, made)| *made != key) {
                    memory.shell = None;
                    memory.shell = Some((ai::shell::Memory::new(key.0, key.1), key));
                }
            }
            Game::Battleship(_) => {}
        }
    }

    /// Refuses options whose search memory the machine cannot give (checked before
    /// anything is allocated; the tables held now count as free).
    fn check_memory(&self, options: &Options) -> Result<(), Refusal> {
        let needed = ai::othello::Memory::bytes_for(&othello::settings(options));
        let held = if self.tables.lock().othello.is_some() {
            ai::othello::Memory::bytes_for(&othello::settings(&self.options))
        } else {
            0
        };
        match crate::machine::available_memory() {
            Some(free) if needed > (free + held) / 10 * 9 => Err(format!(
                "invalid value for hash: {} MiB of tables is more memory than the machine has free ({} MiB)",
                needed >> 20,
                (free + held) >> 20
            )),
            _ => Ok(()),
        }
    }

    /// The game of the moment.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Handles one command. `stop` is raised from outside to cut a search short.
    /// A refused command leaves the whole session as it was, its random stream
    /// included.
    pub fn handle(&mut self, command: &Command, stop: &AtomicBool) -> Answer {
        let rng = self.rng.clone();
        let answer = gogui::dispatch_in_rows(self, command, stop);
        if answer.is_err() {
            self.rng = rng;
        }
        answer
    }

    /// Runs a command whose answer streams ([`Command::streams`]): a refusal before
    /// anything is written, or [`Out::Begin`] and then updates through `out` (which
    /// answers false once the output is closed) until `over` answers true.
    pub fn stream(
        &mut self,
        command: &Command,
        over: &dyn Fn() -> bool,
        out: &mut dyn FnMut(Out<'_>) -> bool,
    ) -> Result<(), Refusal> {
        match command {
            Command::LiveAnalyze { color, interval } => {
                live::stream(self, *color, *interval, over, out)
            }
            _ => Err(format!("{} does not stream", command.name())),
        }
    }

    fn dispatch(&mut self, command: &Command, stop: &AtomicBool) -> Answer {
        match command {
            Command::ProtocolVersion => Ok("2".into()),
            Command::Name => Ok("tabula".into()),
            Command::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            Command::KnownCommand(name) => Ok(super::parse::spec(name).is_some().to_string()),
            Command::ListCommands => Ok(joined(COMMANDS.iter().map(|s| s.name), "\n")),
            Command::Quit | Command::GoguiInterrupt => Ok(String::new()),
            Command::Komi(_) => Ok(String::new()),
            Command::GoguiRules(query) => gogui::rules(self, *query),
            Command::GoguiAnalyzeCommands => Ok(gogui::analyze_commands(self.game.kind())),
            Command::ScoresGfx => gogui::scores_gfx(self, stop),
            Command::HeatGfx(color) => gogui::heat_gfx(self, *color, stop),
            Command::LiveAnalyze { .. } => {
                // Outside the engine loop (scripts, the conformance runner) the
                // analysis answers its first update.
                let mut first = String::new();
                self.stream(command, &|| true, &mut |out| {
                    if let Out::Line(text) = out {
                        first = text.to_string();
                    }
                    true
                })?;
                Ok(first)
            }
            Command::MixGfx(color) => gogui::mix_gfx(self, *color, stop),
            Command::PlaySequence(text) => records::play_sequence(self, text),
            Command::LoadGgf(path) => records::load(self, path),
            Command::SaveGgf => records::save(self),
            Command::ListGames => Ok(GameKind::ALL.map(GameKind::name).join("\n")),
            Command::SetGame(kind) => {
                self.game = Game::new(*kind);
                self.history.clear();
                self.prepare_tables();
                Ok(String::new())
            }
            Command::ClearBoard => {
                self.game = match &self.game {
                    Game::Battleship(table) => {
                        let mut table = table.clone();
                        table.clear();
                        Game::Battleship(table)
                    }
                    other => Game::new(other.kind()),
                };
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
            Command::ShowBoard(view) => {
                Ok(format!("\n{}", self.picture(view.unwrap_or(Color::Black))))
            }
            Command::Position => Ok(match &self.game {
                Game::Othello(p) => p.to_notation(),
                Game::Shell(p) => p.to_notation(),
                Game::Battleship(t) => t.to_notation(),
            }),
            Command::SetPosition(text) => {
                self.game = match &self.game {
                    Game::Othello(_) => Game::Othello(othello::set_position(text)?),
                    Game::Shell(_) => Game::Shell(shell::set_position(text)?),
                    Game::Battleship(_) => {
                        Game::Battleship(Box::new(battleship::set_position(text)?))
                    }
                };
                self.history.clear();
                Ok(String::new())
            }
            Command::Play { color, mv, claim } => {
                let before = self.game.clone();
                let answer = match &mut self.game {
                    Game::Othello(_) if claim.is_some() => {
                        Err("syntax error (usage: play COLOR MOVE)".into())
                    }
                    Game::Othello(p) => othello::play(p, *color, mv),
                    Game::Shell(_) => Err(
                        "play is not used in shell: both picks are resolved together with resolve_turn BLACK WHITE"
                            .into(),
                    ),
                    Game::Battleship(t) => battleship::play(t, *color, mv, claim.as_ref()),
                }?;
                self.history.push(before);
                Ok(answer)
            }
            Command::Genmove(color) => self.genmove(*color, stop, true),
            Command::RegGenmove(color) => self.genmove(*color, stop, false),
            Command::AllLegal(color) => Ok(match &self.game {
                Game::Othello(p) => othello::all_legal(p, *color),
                Game::Shell(p) => shell::all_legal(p),
                Game::Battleship(t) => battleship::all_legal(t, *color),
            }),
            Command::IsLegal(color, mv) => Ok(match &self.game {
                Game::Othello(p) => othello::is_legal(p, *color, mv),
                Game::Shell(p) => shell::is_legal(p, mv),
                Game::Battleship(t) => battleship::is_legal(t, *color, mv),
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
                Game::Shell(_) | Game::Battleship(_) => shell::final_score(self.status()),
            }),
            Command::TimeSettings {
                main,
                byo_yomi,
                stones,
            } => self.time_settings(TimeSystem::from_gtp(*main, *byo_yomi, *stones)),
            Command::KgsTimeSettings(system) => self.time_settings(*system),
            Command::TimeLeft {
                color,
                seconds,
                stones,
            } => {
                if let Game::Battleship(t) = &mut self.game {
                    battleship::time_left(t, *color, *seconds);
                }
                self.clock.left(*color, *seconds, *stones);
                Ok(String::new())
            }
            Command::SetOption { name, value } => {
                let mut options = self.options.clone();
                options.set(name, value)?;
                if options.hash_mib != self.options.hash_mib {
                    self.check_memory(&options)?;
                }
                if options.seed != self.options.seed {
                    self.rng = Rng::new(options.seed);
                }
                self.options = options;
                self.prepare_tables();
                Ok(String::new())
            }
            Command::Perft(depth) => match &self.game {
                Game::Othello(p) => othello::perft(p, *depth, stop),
                _ => Err(self.not_in_this_game(command)),
            },
            Command::Solve(_) | Command::Hint(_) | Command::Analyze(_) => {
                let Game::Othello(position) = &self.game else {
                    return Err(self.not_in_this_game(command));
                };
                let color = position.side_to_move();
                let limits = self.limits(color, stop, 30, Instant::now());
                let think = Think {
                    limits,
                    rng: &mut self.rng.clone(),
                    options: &self.options,
                };
                let memory = &mut self.tables.lock().othello;
                match command {
                    Command::Solve(asked) => othello::solve(position, *asked, &think, memory),
                    Command::Hint(count) => othello::hint(position, *count, &think, memory),
                    Command::Analyze(count) => othello::analyze(position, *count, &think, memory),
                    _ => Err(self.not_in_this_game(command)),
                }
            }
            Command::ResolveTurn { black, white } => {
                let before = self.game.clone();
                let answer = match &mut self.game {
                    Game::Shell(p) => shell::resolve_turn(p, black, white)?,
                    _ => return Err(self.not_in_this_game(command)),
                };
                self.history.push(before);
                Ok(answer)
            }
            Command::Fleet { color, ships } => match &mut self.game {
                Game::Battleship(t) => battleship::fleet(t, *color, ships),
                _ => Err(self.not_in_this_game(command)),
            },
            Command::GenFleet(color) => {
                let Game::Battleship(table) = &mut self.game else {
                    return Err(self.not_in_this_game(command));
                };
                let limits = Limits::depth(self.options.depth_limit(false));
                let mut think = Think {
                    limits,
                    rng: &mut self.rng,
                    options: &self.options,
                };
                battleship::genfleet(table, *color, &mut think)
            }
            Command::Ready(color) => {
                self.table(command, |t| t.ready(*color).map(|()| String::new()))
            }
            Command::Start => {
                self.table(command, |t| t.start().map(|first| first.name().to_string()))
            }
            Command::Again => {
                let answer = self.table(command, |t| t.again().map(|()| String::new()))?;
                self.history.clear();
                Ok(answer)
            }
            Command::Score => match &self.game {
                Game::Battleship(t) => Ok(t.score().to_string()),
                _ => Err(self.not_in_this_game(command)),
            },
            Command::OfferDraw(color) => {
                self.table(command, |t| t.offer_draw(*color).map(|()| String::new()))
            }
            Command::AcceptDraw(color) => {
                self.table(command, |t| t.accept_draw(*color).map(|()| String::new()))
            }
            Command::DeclineDraw(color) => {
                self.table(command, |t| t.decline_draw(*color).map(|()| String::new()))
            }
        }
    }

    /// Runs a table command of Battleship; other games refuse it.
    fn table<E: std::fmt::Display>(
        &mut self,
        command: &Command,
        act: impl FnOnce(&mut Table) -> Result<String, E>,
    ) -> Answer {
        match &mut self.game {
            Game::Battleship(table) => act(table).map_err(|e| e.to_string()),
            _ => Err(self.not_in_this_game(command)),
        }
    }

    /// Both clocks to `system`; Battleship's table clocks too (B11), which may refuse.
    fn time_settings(&mut self, system: TimeSystem) -> Answer {
        if let Game::Battleship(t) = &mut self.game {
            battleship::time_settings(t, system)?;
        }
        self.clock.set(system);
        Ok(String::new())
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
            Game::Shell(p) => p.status(),
            Game::Battleship(t) => t.status(),
        }
    }

    /// The board for people; Battleship draws it as `view` pictures it.
    fn picture(&self, view: Color) -> String {
        match &self.game {
            Game::Othello(p) => p.picture(),
            Game::Shell(p) => p.picture(),
            Game::Battleship(t) => t.picture(view),
        }
    }

    /// `genmove` (`commit` = true, the move is played when the game's semantics say
    /// so) and `reg_genmove` (never played).
    fn genmove(&mut self, color: Color, stop: &AtomicBool, commit: bool) -> Answer {
        let started = Instant::now();
        let moves_left = match &self.game {
            Game::Othello(p) => (p.board().empty().count_ones() / 2).max(1),
            Game::Shell(p) => shell::moves_left(p),
            Game::Battleship(t) => battleship::moves_left(t, color),
        };
        let limits = self.limits(color, stop, moves_left, started);
        let mut think = Think {
            limits,
            rng: &mut self.rng,
            options: &self.options,
        };
        let before = self.game.clone();
        let answer = match &mut self.game {
            Game::Othello(p) => othello::genmove(
                p,
                color,
                &mut think,
                commit,
                &mut self.tables.lock().othello,
            ),
            Game::Shell(p) => {
                let memory = &mut self.tables.lock().shell;
                shell::genmove(p, color, &mut think, memory.as_mut().map(|(m, _)| m))
            }
            Game::Battleship(t) => battleship::genmove(t, color, &mut think, commit),
        }?;
        if self.game != before {
            self.history.push(before);
        }
        let spent = started.elapsed();
        log::info!(
            "genmove {}: {answer} after {:.1} ms",
            color.name(),
            spent.as_secs_f64() * 1000.0
        );
        self.clock.spent(color, spent);
        Ok(answer)
    }

    /// The limits of a thinking command started at `started`: the `depth` option, the
    /// time budget for `color`, and the interrupt flag.
    fn limits<'a>(
        &self,
        color: Color,
        stop: &'a AtomicBool,
        moves_left: u32,
        started: Instant,
    ) -> Limits<'a> {
        let deadline = self
            .think_time(color, moves_left)
            .map(|budget| started + budget);
        Limits {
            depth: self.options.depth_limit(deadline.is_some()),
            deadline,
            stop: Some(stop),
            cancel: None,
            nodes: None,
        }
    }

    /// How long one move may take: the `movetime` option less a tenth (at most 50 ms)
    /// for the answer to travel, the clock's share, or the smaller of both; `None`
    /// when neither is set (the search is depth-bound).
    fn think_time(&self, color: Color, moves_left: u32) -> Option<Duration> {
        let movetime = (self.options.movetime_ms > 0).then(|| {
            let ms = self.options.movetime_ms;
            Duration::from_millis(ms - (ms / 10).min(50))
        });
        let clock = self.clock.budget(color, moves_left);
        match (movetime, clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}
