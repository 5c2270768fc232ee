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

use super::command::{Command, LiveFields, ShotClaim, TimeSystem};
use super::parse::COMMANDS;
use crate::ai::{self, Limits};
use crate::games::battleship::{Cell as SeaCell, Table};
use crate::games::othello::{Move as OthelloMove, Position as OthelloPosition};
use crate::games::shell::{Cell as ShellCell, Position as ShellPosition};
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

/// A move a player chose for the game of the moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    Othello(OthelloMove),
    Shell(ShellCell),
    Battleship(SeaCell),
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Choice::Othello(mv) => mv.fmt(f),
            Choice::Shell(cell) => cell.fmt(f),
            Choice::Battleship(cell) => cell.fmt(f),
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
    /// Battleship: per fleet owner (by color index), the posterior over its placement
    /// styles from the fleets it placed in the games at this table so far.
    styles: [ai::battleship::styles::Posterior; 2],
    /// What the Shell: the model of the opponent's picks at this table (kept across
    /// its games, made afresh when `set_game` changes the game).
    opponent: ai::shell::model::Model,
    /// What the Shell: the opponent model as it was before each turn it scored, with
    /// the length `history` had once that turn was pushed, so `undo` unscores it.
    unscored: Vec<(usize, ai::shell::model::Model)>,
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
            styles: Default::default(),
            opponent: ai::shell::model::Model::default(),
            unscored: Vec::new(),
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
            Command::LiveAnalyze {
                color,
                interval,
                fields,
            } => {
                if *fields == LiveFields::LeelaZero && !matches!(self.game, Game::Othello(_)) {
                    return Err(self.not_in_this_game(command));
                }
                live::stream(self, *color, *interval, *fields, over, out)
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
            Command::SetGame(kind) => self.set_game(*kind),
            Command::ClearBoard => self.clear_board(),
            Command::BoardSize(size) => self.board_size(*size),
            Command::ShowBoard(view) => {
                Ok(format!("\n{}", self.picture(view.unwrap_or(Color::Black))))
            }
            Command::Position => Ok(self.notation()),
            Command::SetPosition(text) => self.set_position(text),
            Command::Play { color, mv, claim } => self.play(*color, mv, claim.as_ref()),
            Command::Genmove(color) => self.genmove(*color, stop),
            Command::RegGenmove(color) => self.choose(*color, stop).map(|c| c.to_string()),
            Command::AllLegal(color) => Ok(self.all_legal(*color)),
            Command::IsLegal(color, mv) => Ok(self.is_legal(*color, mv).to_string()),
            Command::Undo => self.undo(),
            Command::Status => Ok(self.status().name().into()),
            Command::FinalScore => Ok(self.final_score()),
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
            } => self.time_left(*color, *seconds, *stones),
            Command::SetOption { name, value } => self.set_option(name, value),
            Command::Perft(depth) => othello::perft(self.othello(command)?, *depth, stop),
            Command::Solve(_) | Command::Hint(_) | Command::Analyze(_) => {
                self.analyze(command, stop)
            }
            Command::ResolveTurn { black, white } => self.resolve_turn(command, black, white),
            Command::Fleet { color, ships } => {
                self.table(command, |t| battleship::fleet(t, *color, ships))
            }
            Command::GenFleet(color) => self.genfleet(command, *color),
            Command::Ready(color) => {
                self.table(command, |t| t.ready(*color).map(|()| String::new()))
            }
            Command::Start => {
                self.table(command, |t| t.start().map(|first| first.name().to_string()))
            }
            Command::Again => self.again(command),
            Command::Score => self.table(command, |t| Ok::<_, Refusal>(t.score().to_string())),
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

    /// `set_game`: a fresh game of `kind`, its search memory made now.
    fn set_game(&mut self, kind: GameKind) -> Answer {
        if kind != self.game.kind() {
            self.opponent = ai::shell::model::Model::default();
        }
        self.game = Game::new(kind);
        self.forget_history();
        self.prepare_tables();
        Ok(String::new())
    }

    /// `clear_board`: the game from its start; Battleship's table keeps its fleets'
    /// score and clocks as `Table::clear` says.
    fn clear_board(&mut self) -> Answer {
        self.game = match &self.game {
            Game::Battleship(table) => {
                let mut table = table.clone();
                table.clear();
                Game::Battleship(table)
            }
            other => Game::new(other.kind()),
        };
        self.forget_history();
        Ok(String::new())
    }

    fn board_size(&self, size: u32) -> Answer {
        if size == self.game.kind().board_size() {
            Ok(String::new())
        } else {
            Err("unacceptable size".into())
        }
    }

    /// The game in its notation (`position`).
    fn notation(&self) -> String {
        match &self.game {
            Game::Othello(p) => p.to_notation(),
            Game::Shell(p) => p.to_notation(),
            Game::Battleship(t) => t.to_notation(),
        }
    }

    fn set_position(&mut self, text: &str) -> Answer {
        self.game = match &self.game {
            Game::Othello(_) => Game::Othello(othello::set_position(text)?),
            Game::Shell(_) => Game::Shell(shell::set_position(text)?),
            Game::Battleship(_) => Game::Battleship(Box::new(battleship::set_position(text)?)),
        };
        self.forget_history();
        Ok(String::new())
    }

    /// `play COLOR MOVE [RESULT]`: the move played, the state it replaced kept for
    /// `undo`.
    fn play(&mut self, color: Color, mv: &str, claim: Option<&ShotClaim>) -> Answer {
        let before = self.game.clone();
        let answer = match &mut self.game {
            Game::Othello(_) if claim.is_some() => {
                Err("syntax error (usage: play COLOR MOVE)".into())
            }
            Game::Othello(p) => othello::play(p, color, mv),
            Game::Shell(_) => Err(
                "play is not used in shell: both picks are resolved together with resolve_turn BLACK WHITE"
                    .into(),
            ),
            Game::Battleship(t) => battleship::play(t, color, mv, claim),
        }?;
        self.history.push(before);
        Ok(answer)
    }

    fn all_legal(&self, color: Color) -> String {
        match &self.game {
            Game::Othello(p) => othello::all_legal(p, color),
            Game::Shell(p) => shell::all_legal(p),
            Game::Battleship(t) => battleship::all_legal(t, color),
        }
    }

    fn is_legal(&self, color: Color, mv: &str) -> bool {
        match &self.game {
            Game::Othello(p) => othello::is_legal(p, color, mv),
            Game::Shell(p) => shell::is_legal(p, mv),
            Game::Battleship(t) => battleship::is_legal(t, color, mv),
        }
    }

    fn undo(&mut self) -> Answer {
        let depth = self.history.len();
        let previous = self.history.pop().ok_or("cannot undo")?;
        self.game = previous;
        if let Some(&(at, model)) = self.unscored.last()
            && at == depth
        {
            self.opponent = model;
            self.unscored.pop();
        }
        Ok(String::new())
    }

    /// Forgets every move there was to undo.
    fn forget_history(&mut self) {
        self.history.clear();
        self.unscored.clear();
    }

    fn final_score(&self) -> String {
        match &self.game {
            Game::Othello(p) => othello::final_score(p),
            Game::Shell(_) | Game::Battleship(_) => shell::final_score(self.status()),
        }
    }

    /// `time_left`: the clock's report for `color`; Battleship's table clock too (B11).
    fn time_left(&mut self, color: Color, seconds: f64, stones: u32) -> Answer {
        if let Game::Battleship(t) = &mut self.game {
            battleship::time_left(t, color, seconds);
        }
        self.clock.left(color, seconds, stones);
        Ok(String::new())
    }

    /// `set_option NAME VALUE`, on a copy of the options kept only when valid.
    fn set_option(&mut self, name: &str, value: &str) -> Answer {
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

    /// Othello's position; other games refuse `command`.
    fn othello(&self, command: &Command) -> Result<&OthelloPosition, Refusal> {
        match &self.game {
            Game::Othello(position) => Ok(position),
            _ => Err(self.not_in_this_game(command)),
        }
    }

    /// `solve`, `hint` and `analyze` (Othello): searches of the side to move that play
    /// nothing and leave the session's random stream as it was.
    fn analyze(&self, command: &Command, stop: &AtomicBool) -> Answer {
        let position = self.othello(command)?;
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

    /// `resolve_turn BLACK WHITE` (What the Shell).
    fn resolve_turn(&mut self, command: &Command, black: &str, white: &str) -> Answer {
        let before = self.game.clone();
        let answer = match &mut self.game {
            Game::Shell(p) => shell::resolve_turn(p, black, white)?,
            _ => return Err(self.not_in_this_game(command)),
        };
        if let Game::Shell(position) = &before {
            let model = self.opponent;
            shell::observe(&mut self.opponent, position, black, white);
            if self.opponent != model {
                self.unscored.push((self.history.len() + 1, model));
            }
        }
        self.history.push(before);
        Ok(answer)
    }

    /// `genfleet COLOR` (Battleship): a fleet drawn with the session's seeded stream.
    fn genfleet(&mut self, command: &Command, color: Color) -> Answer {
        let Game::Battleship(table) = &mut self.game else {
            return Err(self.not_in_this_game(command));
        };
        let mut think = Think {
            limits: Limits::depth(self.options.depth_limit(false)),
            rng: &mut self.rng,
            options: &self.options,
        };
        battleship::genfleet(table, color, &mut think)
    }

    /// `again` (Battleship): the next game at the table, with no history to undo.
    /// Each fleet of the game that ended, if known (placed here, or every ship sunk),
    /// first updates its owner's placement-style posterior.
    fn again(&mut self, command: &Command) -> Answer {
        let fleets = match &self.game {
            Game::Battleship(t) => Color::ALL.map(|owner| battleship::known_fleet(t, owner)),
            _ => [None, None],
        };
        let answer = self.table(command, |t| t.again().map(|()| String::new()))?;
        if let Some(tables) = ai::battleship::styles::StyleTables::builtin() {
            for (posterior, fleet) in self.styles.iter_mut().zip(&fleets) {
                if let Some(fleet) = fleet {
                    posterior.update(fleet, tables);
                }
            }
        }
        self.forget_history();
        Ok(answer)
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

    /// `reg_genmove`'s answer and `genmove`'s move: what the player chooses for
    /// `color`, its thinking time charged to `color`'s clock. Changes nothing but the
    /// random stream, the search memory and the clock.
    fn choose(&mut self, color: Color, stop: &AtomicBool) -> Result<Choice, Refusal> {
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
        let choice = match &self.game {
            Game::Othello(p) => Choice::Othello(othello::choose(
                p,
                color,
                &mut think,
                &mut self.tables.lock().othello,
            )?),
            Game::Shell(p) => {
                let memory = &mut self.tables.lock().shell;
                Choice::Shell(shell::choose(
                    p,
                    color,
                    &mut think,
                    memory.as_mut().map(|(m, _)| m),
                    &mut self.opponent,
                )?)
            }
            Game::Battleship(t) => {
                let owner = color.opponent().index();
                let posterior = self.styles.get(owner);
                Choice::Battleship(battleship::choose(t, color, &mut think, posterior)?)
            }
        };
        let spent = started.elapsed();
        log::info!(
            "genmove {}: {choice} after {:.1} ms",
            color.name(),
            spent.as_secs_f64() * 1000.0
        );
        self.clock.spent(color, spent);
        Ok(choice)
    }

    /// `genmove`: the player's choice, played as the game's semantics say (What the
    /// Shell's pick is secret and waits for `resolve_turn`; a Battleship shot is fired
    /// when the session knows the target fleet), the replaced state kept for `undo`.
    fn genmove(&mut self, color: Color, stop: &AtomicBool) -> Answer {
        let choice = self.choose(color, stop)?;
        let before = self.game.clone();
        let answer = match (&mut self.game, choice) {
            (Game::Othello(p), Choice::Othello(mv)) => othello::play_chosen(p, color, mv),
            (Game::Battleship(t), Choice::Battleship(cell)) => {
                battleship::play_chosen(t, color, cell)
            }
            // What the Shell's pick (the only other pair `choose` makes) is secret.
            (_, choice) => Ok(choice.to_string()),
        }?;
        if self.game != before {
            self.history.push(before);
        }
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

#[cfg(test)]
mod tests;
