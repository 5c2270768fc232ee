//! A child engine: a process speaking our protocol (or NBoard's) through the
//! [`crate::client`], which gives every read a deadline, reads answers by their GTP 2
//! framing (`=`/`?`, text, empty line; empty lines before an answer are passed over),
//! keeps the engine's stderr and kills the process when the handle drops, so no engine
//! outlives the arena.
//!
//! At start the arena reads the engine's `list_commands` (or, if refused, asks
//! `known_command`), so it sends only what the engine knows: an engine without
//! Tabula's extensions gets plain GTP 2 (`boardsize`, `clear_board`, `play`,
//! `genmove`, `time_settings`, `time_left`, `quit`); `set_game` (the game's set-up),
//! `set_position` (openings), `set_option` (options, the game's seed),
//! `kgs-time_settings` (a clock with an increment) and `gogui-interrupt` (a late
//! answer is cut short with `# interrupt`) only when known.
//!
//! `set_game` is GoGui's command too, and engines from elsewhere spell the game as
//! their `list_games` does (Edax: `Othello`); the arena uses that spelling. Only an
//! engine that lists `set_position` speaks Tabula's dialect, where `set_game` starts a
//! fresh game and times are decimal seconds; any other engine also gets `clear_board`
//! after `set_game`, and whole seconds.

use std::fmt;
use std::fs::File;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};

use crate::client::{self, Client, Echo, Framing, Group, Stderr, Transcript};
pub use crate::client::{abort_all, aborted, split_words};
use crate::games::GameKind;
use crate::protocol::Command;

/// The commands beyond GTP 2's required ones that the arena uses when an engine has
/// them; asked one by one with `known_command` when `list_commands` is refused.
const USEFUL: [&str; 9] = [
    "set_game",
    "list_games",
    "set_position",
    "set_option",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "gogui-interrupt",
    "boardsize",
];

/// How to start an engine's process.
#[derive(Clone, Debug, Default)]
pub struct Launch {
    /// Its working folder.
    pub dir: Option<String>,
    /// A log of its exchange and its stderr (`--engine-log`).
    pub log: Option<Arc<Mutex<File>>>,
}

/// An engine as given on the command line: `NAME=COMMAND ARGS…`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub program: String,
    pub args: Vec<String>,
}

impl EngineSpec {
    /// Reads `NAME=COMMAND ARGS…`.
    pub fn parse(text: &str) -> Result<EngineSpec> {
        let (name, command) = text
            .split_once('=')
            .ok_or_else(|| anyhow!("--engine {text:?}: expected NAME=COMMAND"))?;
        let name = name.trim();
        if name.is_empty() || name.contains(['"', '\n']) {
            bail!("--engine {text:?}: the name must be non-empty, without quotes");
        }
        let mut words = split_words(command).map_err(|e| anyhow!("--engine {text:?}: {e}"))?;
        if words.is_empty() {
            bail!("--engine {text:?}: the command is empty");
        }
        let program = words.remove(0);
        Ok(EngineSpec {
            name: name.to_string(),
            program,
            args: words,
        })
    }
}

/// Why an exchange with an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process could not start, exited, or closed a pipe.
    Crash(String),
    /// No answer before the deadline.
    Stall,
    /// Output that is not a GTP 2 answer.
    Garbage(String),
    /// A well-framed `?` answer to a command that had to succeed.
    Refused(String),
    /// An answer carrying an id the command did not have (the arena sends none).
    WrongId(String),
    /// The run was interrupted (Ctrl-C) while waiting.
    Aborted,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Crash(why) => write!(f, "disconnects ({why})"),
            Failure::Stall => f.write_str("stalls (no answer in time)"),
            Failure::Garbage(line) => write!(f, "answers garbage {:?}", clip(line)),
            Failure::Refused(message) => write!(f, "refuses a command: {:?}", clip(message)),
            Failure::WrongId(line) => write!(
                f,
                "answers with an id the command did not have: {:?}",
                clip(line)
            ),
            Failure::Aborted => f.write_str("was stopped (the run was interrupted)"),
        }
    }
}

/// At most 60 characters of `text`, for messages.
pub fn clip(text: &str) -> String {
    let mut clipped: String = text.chars().take(60).collect();
    if clipped.len() < text.len() {
        clipped.push('…');
    }
    clipped
}

/// The failure for an error of the client.
impl From<client::Error> for Failure {
    fn from(error: client::Error) -> Failure {
        match error {
            client::Error::Spawn(why) => Failure::Crash(format!("cannot start: {why}")),
            client::Error::Write(why) => Failure::Crash(why),
            client::Error::Closed => Failure::Crash("its output closed".into()),
            client::Error::Stall => Failure::Stall,
            client::Error::Garbage(line) => Failure::Garbage(line),
            client::Error::WrongId(line) => Failure::WrongId(line),
            client::Error::Aborted => Failure::Aborted,
        }
    }
}

/// One running engine.
pub struct Engine {
    client: Client,
    /// The names its `list_commands` gave (empty if it refused the command).
    commands: Vec<String>,
    /// Its `list_games` answer (empty if it has none).
    games: String,
    /// For an NBoard engine: the game the adapter keeps ([`super::nboard`]).
    nboard: Option<super::nboard::State>,
}

impl Engine {
    /// Starts the engine, shakes hands ([`Engine::handshake`]) and sets `options`
    /// ([`Engine::set_options`]).
    pub fn start(
        spec: &EngineSpec,
        game: GameKind,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<Engine, Failure> {
        let mut engine = Engine::spawn(spec, &Launch::default())?;
        engine.handshake(game, timeout)?;
        engine.set_options(options, timeout)?;
        Ok(engine)
    }

    /// Starts the engine's process as `launch` says. It gets its own process group: a
    /// Ctrl-C at the terminal reaches the arena alone, which then stops the engines
    /// itself (an engine killed by the signal first would lose its game for a crash).
    pub fn spawn(spec: &EngineSpec, launch: &Launch) -> Result<Engine, Failure> {
        let client = Client::spawn(&client::Launch {
            name: spec.name.clone(),
            program: spec.program.clone().into(),
            args: spec.args.clone(),
            dir: launch.dir.clone().map(Into::into),
            stderr: Stderr::Log,
            group: Group::Own,
            framing: Framing::Lenient,
            transcript: launch.log.clone().map(Transcript),
        })
        .map_err(|error| match error {
            client::Error::Spawn(why) => {
                Failure::Crash(format!("cannot start {:?}: {why}", spec.program))
            }
            other => other.into(),
        })?;
        Ok(Engine {
            client,
            commands: Vec::new(),
            games: String::new(),
            nboard: None,
        })
    }

    /// Shakes hands: `protocol_version` must answer `2` (or `2.0`), `name` must answer,
    /// `list_commands` is read (if refused, `known_command` is asked about each
    /// command the arena can use instead), and `set_game GAME` must succeed if the
    /// engine knows it.
    pub fn handshake(&mut self, game: GameKind, timeout: Duration) -> Result<(), Failure> {
        if let Some(mut state) = self.nboard.take() {
            let done = super::nboard::handshake(self, &mut state, timeout);
            self.nboard = Some(state);
            self.commands = vec!["set_position".into()];
            if game != GameKind::Othello {
                return Err(Failure::Refused(format!(
                    "an NBoard engine plays only othello, not {}",
                    game.name()
                )));
            }
            return done;
        }
        let version = self.ask(Command::ProtocolVersion, timeout)?;
        // GTP 2 answers `2`; some engines (Egaroucid) write `2.0`.
        let version = version.trim();
        if version != "2"
            && version
                .strip_prefix("2.")
                .is_none_or(|minor| !minor.trim_end_matches('0').is_empty())
        {
            return Err(Failure::Garbage(format!("protocol_version {version}")));
        }
        self.ask(Command::Name, timeout)?;
        self.commands = match self.ask(Command::ListCommands, timeout) {
            Ok(list) => list.split_whitespace().map(str::to_string).collect(),
            Err(Failure::Refused(_)) => {
                let mut known = Vec::new();
                for name in USEFUL {
                    match self.ask(Command::KnownCommand(name.into()), timeout) {
                        Ok(answer) if answer.trim() == "true" => known.push(name.to_string()),
                        Ok(_) | Err(Failure::Refused(_)) => {}
                        Err(failure) => return Err(failure),
                    }
                }
                known
            }
            Err(failure) => return Err(failure),
        };
        if self.knows("list_games") {
            match self.ask("list_games", timeout) {
                Ok(list) => self.games = list,
                Err(Failure::Refused(_)) => {}
                Err(failure) => return Err(failure),
            }
        }
        if self.knows("set_game") {
            self.ask(self.set_game(game), timeout)?;
        }
        Ok(())
    }

    /// The `set_game` line for `game`, in the spelling of the engine's `list_games`
    /// (compared without case), else in ours.
    #[must_use]
    pub fn set_game(&self, game: GameKind) -> String {
        let name = client::listed_spelling(&self.games, game.name()).unwrap_or(game.name());
        format!("set_game {name}")
    }

    /// Whether the engine speaks Tabula's dialect (it lists `set_position`): there
    /// `set_game` starts a fresh game and times are decimal seconds.
    #[must_use]
    pub fn tabula_dialect(&self) -> bool {
        self.knows("set_position")
    }

    /// Sets `options` with `set_option NAME VALUE`; the engine must know `set_option`
    /// if there is any.
    pub fn set_options(
        &mut self,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<(), Failure> {
        if self.nboard.is_some() {
            for (name, value) in options {
                super::nboard::set_option(self, name, value)?;
            }
            return Ok(());
        }
        if !options.is_empty() && !self.knows("set_option") {
            let names: Vec<&str> = options.iter().map(|(name, _)| name.as_str()).collect();
            return Err(Failure::Refused(format!(
                "it does not know set_option, needed for {}",
                names.join(", ")
            )));
        }
        for (name, value) in options {
            let option = Command::SetOption {
                name: name.clone(),
                value: value.clone(),
            };
            self.ask(option, timeout)?;
        }
        Ok(())
    }

    /// Whether the engine reads times in decimal seconds: one of Tabula's dialect
    /// does; any other gets whole seconds, as GTP 2's `time_settings` and `time_left`
    /// have them.
    #[must_use]
    pub fn decimal_times(&self) -> bool {
        self.tabula_dialect()
    }

    /// Whether the engine's `list_commands` named `command`.
    #[must_use]
    pub fn knows(&self, command: &str) -> bool {
        self.commands.iter().any(|c| c == command)
    }

    /// The engine's process id (for logs).
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.client.pid()
    }

    /// Reads and drops the answer the engine still owes (to a thinking command whose
    /// deadline passed), within `timeout`; an engine that lists `gogui-interrupt` is
    /// first sent `# interrupt` so that it answers at once. Afterwards the engine is in
    /// step again; an error means it is not (it stalls or crashed).
    pub fn drain(&mut self, timeout: Duration) -> Result<(), Failure> {
        if let Some(mut state) = self.nboard.take() {
            let done = super::nboard::drain(self, &mut state, timeout);
            self.nboard = Some(state);
            return done;
        }
        if self.knows("gogui-interrupt") {
            self.send("# interrupt")?;
        }
        // A `?` answer is an answer too: the engine is in step after it.
        self.client
            .answer(Instant::now() + timeout, Echo::Nothing)?;
        Ok(())
    }

    /// Sends one command; answers the moment it was sent.
    pub fn send(&mut self, command: impl fmt::Display) -> Result<Instant, Failure> {
        if let Some(mut state) = self.nboard.take() {
            let sent = super::nboard::send(self, &mut state, &command.to_string());
            self.nboard = Some(state);
            return sent;
        }
        self.write_line(command)
    }

    /// Speaks the NBoard protocol from now on (before the handshake).
    pub fn use_nboard(&mut self) {
        self.nboard = Some(super::nboard::State::default());
    }

    /// Writes one line to the engine as it is; answers the moment it was sent.
    pub(super) fn write_line(&mut self, line: impl fmt::Display) -> Result<Instant, Failure> {
        Ok(self.client.send(line)?)
    }

    /// The next line by `deadline` (a wait that [`abort_all`] ends at once).
    pub(super) fn next_line(&mut self, deadline: Instant) -> Result<(Instant, String), Failure> {
        Ok(self.client.line(deadline)?)
    }

    /// Reads one answer by `deadline`: the success text and when its first line
    /// arrived, or the failure (`?` answers are [`Failure::Refused`]; an answer with
    /// an id is [`Failure::WrongId`], as the arena sends none).
    pub fn receive(&mut self, deadline: Instant) -> Result<(String, Instant), Failure> {
        if let Some(mut state) = self.nboard.take() {
            let answer = super::nboard::receive(self, &mut state, deadline);
            self.nboard = Some(state);
            return answer;
        }
        let reply = self.client.answer(deadline, Echo::Nothing)?;
        if reply.ok {
            Ok((reply.text, reply.at))
        } else {
            Err(Failure::Refused(reply.text))
        }
    }

    /// Sends a command and reads its answer within `timeout`.
    pub fn ask(
        &mut self,
        command: impl fmt::Display,
        timeout: Duration,
    ) -> Result<String, Failure> {
        if let Some(mut state) = self.nboard.take() {
            let answer = super::nboard::ask(self, &mut state, &command.to_string());
            self.nboard = Some(state);
            return answer;
        }
        let sent = self.send(command)?;
        self.receive(sent + timeout).map(|(text, _)| text)
    }

    /// Ends the engine: `quit`, a moment to exit, then a kill (when it drops).
    pub fn quit(mut self) {
        if self.write_line(Command::Quit).is_ok() {
            self.client.wait_exit(Duration::from_millis(500));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_split_like_a_shell() {
        let spec = EngineSpec::parse("b=target/release/tabula --player greedy").ok();
        assert_eq!(
            spec,
            Some(EngineSpec {
                name: "b".into(),
                program: "target/release/tabula".into(),
                args: vec!["--player".into(), "greedy".into()],
            })
        );
        let spec = EngineSpec::parse(r#"x=python3 "my fake.py" 'a b' c\ d"#).ok();
        assert_eq!(
            spec.map(|s| s.args),
            Some(vec!["my fake.py".into(), "a b".into(), "c d".into()])
        );
        assert!(EngineSpec::parse("nocommand").is_err());
        assert!(EngineSpec::parse("a=").is_err());
        assert!(EngineSpec::parse("a=x 'open").is_err());
    }
}
