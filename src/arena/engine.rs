//! A child engine: a process speaking our protocol on piped stdin/stdout.
//!
//! A reader thread turns the engine's stdout into timestamped lines on a channel, so
//! every read has a deadline and a hung engine never hangs the arena. Answers are read
//! by their GTP 2 framing (`=`/`?`, optional id, text, empty line); anything else is a
//! protocol error. The process is killed when the handle drops, so no engine outlives
//! the arena.
//!
//! At start the arena reads the engine's `list_commands` (or, if refused, asks
//! `known_command`), so it sends only what the engine knows: an engine without
//! Tabula's extensions gets plain GTP 2 (`boardsize`, `clear_board`, `play`,
//! `genmove`, `time_settings`, `time_left`, `quit`); `set_game` (the game's set-up),
//! `set_position` (openings), `set_option` (options, the game's seed),
//! `kgs-time_settings` (a clock with an increment) and `gogui-interrupt` (a late
//! answer is cut short with `# interrupt`) only when known.

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};

use crate::games::GameKind;

/// The commands beyond GTP 2's required ones that the arena uses when an engine has
/// them; asked one by one with `known_command` when `list_commands` is refused.
const USEFUL: [&str; 8] = [
    "set_game",
    "set_position",
    "set_option",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "gogui-interrupt",
    "boardsize",
];

/// Set once the run is interrupted: every wait for an engine ends with
/// [`Failure::Aborted`].
static ABORT: AtomicBool = AtomicBool::new(false);

/// How often a wait for an engine looks at [`ABORT`].
const ABORT_POLL: Duration = Duration::from_millis(50);

/// Lines read ahead from an engine's stdout; a flooding engine then waits on its pipe.
const LINES_QUEUED: usize = 4096;

/// The longest line kept whole; a longer one is cut there (and is garbage anyway).
const LINE_LIMIT: u64 = 1 << 20;

/// The stderr bytes an engine log keeps per process.
const LOG_LIMIT: usize = 10 << 20;

/// Stops every wait for every engine (Ctrl-C).
pub fn abort_all() {
    ABORT.store(true, Ordering::SeqCst);
}

/// Whether [`abort_all`] was called.
#[must_use]
pub fn aborted() -> bool {
    ABORT.load(Ordering::SeqCst)
}

/// How to start an engine's process.
#[derive(Clone, Debug, Default)]
pub struct Launch {
    /// Its working folder.
    pub dir: Option<String>,
    /// A log of its exchange and its stderr (`--engine-log`).
    pub log: Option<Arc<Mutex<File>>>,
}

/// Reads `input` line by line (a line cut at [`LINE_LIMIT`], without its end of
/// line, invalid UTF-8 replaced) into `each`, until the end or `each` answers false.
fn read_lines(input: impl Read, mut each: impl FnMut(&str) -> bool) {
    let mut reader = BufReader::new(input);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match reader
            .by_ref()
            .take(LINE_LIMIT)
            .read_until(b'\n', &mut buffer)
        {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&buffer);
        if !each(text.trim_end_matches(['\n', '\r'])) {
            break;
        }
    }
}

/// One line of an engine log: `TAG DIRECTION LINE` (`>` sent, `<` read, `!` stderr).
fn write_log(file: &Mutex<File>, tag: &str, direction: char, line: &str) {
    if let Ok(mut file) = file.lock() {
        let _ = writeln!(file, "{tag} {direction} {line}");
    }
}

/// An engine as given on the command line: `NAME=COMMAND ARGS…`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub program: String,
    pub args: Vec<String>,
}

/// Splits a command line into words: spaces separate, single or double quotes group,
/// a backslash escapes the next character outside single quotes.
pub fn split_words(text: &str) -> Result<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => word.push(c),
            (_, '\\') => {
                word.push(
                    chars
                        .next()
                        .ok_or_else(|| anyhow!("a trailing backslash"))?,
                );
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        bail!("an unclosed quote");
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
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

/// One running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    /// The names its `list_commands` gave (empty if it refused the command).
    commands: Vec<String>,
    /// An answer's first line was read but not its end (a deadline fell in between).
    in_answer: bool,
    /// The exchange's log, and this process's tag on each line (`NAME PID`).
    log: Option<(Arc<Mutex<File>>, String)>,
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

    /// Starts the engine's process as `launch` says, with a reader thread on its
    /// stdout (and on its stderr when there is a log).
    pub fn spawn(spec: &EngineSpec, launch: &Launch) -> Result<Engine, Failure> {
        let mut command = Command::new(&spec.program);
        if let Some(dir) = &launch.dir {
            command.current_dir(dir);
        }
        // Its own process group: a Ctrl-C at the terminal reaches the arena alone,
        // which then stops the engines itself (an engine killed by the signal first
        // would lose its game for a crash).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if launch.log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .spawn()
            .map_err(|e| Failure::Crash(format!("cannot start {:?}: {e}", spec.program)))?;
        let log = launch
            .log
            .clone()
            .map(|file| (file, format!("{} {}", spec.name, child.id())));
        if let (Some((file, tag)), Some(stderr)) = (&log, child.stderr.take()) {
            let (file, tag) = (Arc::clone(file), tag.clone());
            thread::spawn(move || {
                let mut written = 0;
                read_lines(stderr, |line| {
                    if written < LOG_LIMIT {
                        written += line.len();
                        write_log(&file, &tag, '!', line);
                        if written >= LOG_LIMIT {
                            write_log(&file, &tag, '!', "(stderr past 10 MB: the rest is dropped)");
                        }
                    }
                    true
                });
            });
        }
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| Failure::Crash("no stdout".into()))?;
        let (sender, lines) = mpsc::sync_channel(LINES_QUEUED);
        let stdout_log = log.clone();
        thread::spawn(move || {
            read_lines(stdout, |line| {
                if let Some((file, tag)) = &stdout_log {
                    write_log(file, tag, '<', line);
                }
                sender.send((Instant::now(), line.to_string())).is_ok()
            });
        });
        let stdin = child.stdin.take();
        Ok(Engine {
            child,
            stdin,
            lines,
            commands: Vec::new(),
            in_answer: false,
            log,
            nboard: None,
        })
    }

    /// Shakes hands: `protocol_version` must answer `2`, `name` must answer,
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
        let version = self.ask("protocol_version", timeout)?;
        if version.trim() != "2" {
            return Err(Failure::Garbage(format!("protocol_version {version}")));
        }
        self.ask("name", timeout)?;
        self.commands = match self.ask("list_commands", timeout) {
            Ok(list) => list.split_whitespace().map(str::to_string).collect(),
            Err(Failure::Refused(_)) => {
                let mut known = Vec::new();
                for name in USEFUL {
                    match self.ask(&format!("known_command {name}"), timeout) {
                        Ok(answer) if answer.trim() == "true" => known.push(name.to_string()),
                        Ok(_) | Err(Failure::Refused(_)) => {}
                        Err(failure) => return Err(failure),
                    }
                }
                known
            }
            Err(failure) => return Err(failure),
        };
        if self.knows("set_game") {
            self.ask(&format!("set_game {}", game.name()), timeout)?;
        }
        Ok(())
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
            self.ask(&format!("set_option {name} {value}"), timeout)?;
        }
        Ok(())
    }

    /// Whether the engine reads times in decimal seconds: one that knows `set_game`
    /// speaks Tabula's dialect; a plain GTP 2 engine gets whole seconds, as GTP 2's
    /// `time_settings` and `time_left` have them.
    #[must_use]
    pub fn decimal_times(&self) -> bool {
        self.knows("set_game")
    }

    /// Whether the engine's `list_commands` named `command`.
    #[must_use]
    pub fn knows(&self, command: &str) -> bool {
        self.commands.iter().any(|c| c == command)
    }

    /// The engine's process id (for logs).
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.child.id()
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
        let deadline = Instant::now() + timeout;
        if !self.in_answer {
            self.receive(deadline)
                .map(|_| ())
                .or_else(|failure| match failure {
                    Failure::Refused(_) => Ok(()),
                    other => Err(other),
                })
        } else {
            while !self.line(deadline)?.1.is_empty() {}
            self.in_answer = false;
            Ok(())
        }
    }

    /// Sends one command line; answers the moment it was sent.
    pub fn send(&mut self, line: &str) -> Result<Instant, Failure> {
        if let Some(mut state) = self.nboard.take() {
            let sent = super::nboard::send(self, &mut state, line);
            self.nboard = Some(state);
            return sent;
        }
        self.write_line(line)
    }

    /// Speaks the NBoard protocol from now on (before the handshake).
    pub fn use_nboard(&mut self) {
        self.nboard = Some(super::nboard::State::default());
    }

    /// Writes one line to the engine as it is; answers the moment it was sent.
    pub(super) fn write_line(&mut self, line: &str) -> Result<Instant, Failure> {
        log::debug!("arena > {line}");
        if let Some((file, tag)) = &self.log {
            write_log(file, tag, '>', line);
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Failure::Crash("input closed".into()))?;
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| Failure::Crash(format!("cannot write: {e}")))?;
        Ok(Instant::now())
    }

    /// The next line by `deadline`, waiting in short slices so that an abort
    /// ([`abort_all`]) stops the wait at once.
    pub(super) fn next_line(&mut self, deadline: Instant) -> Result<(Instant, String), Failure> {
        self.line(deadline)
    }

    fn line(&mut self, deadline: Instant) -> Result<(Instant, String), Failure> {
        loop {
            if aborted() {
                return Err(Failure::Aborted);
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait.min(ABORT_POLL)) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) if wait > ABORT_POLL => {}
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Stall),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::Crash("its output closed".into()));
                }
            }
        }
    }

    /// Reads one answer by `deadline`: the success text and when its first line
    /// arrived, or the failure (`?` answers are [`Failure::Refused`]).
    pub fn receive(&mut self, deadline: Instant) -> Result<(String, Instant), Failure> {
        if let Some(mut state) = self.nboard.take() {
            let answer = super::nboard::receive(self, &mut state, deadline);
            self.nboard = Some(state);
            return answer;
        }
        let (at, first) = loop {
            let (at, line) = self.line(deadline)?;
            if !line.trim().is_empty() {
                break (at, line);
            }
        };
        log::debug!("arena < {first}");
        self.in_answer = true;
        let ok = match first.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => return Err(Failure::Garbage(first)),
        };
        let tail = first.get(1..).unwrap_or("");
        // GTP 2: an answer carries the command's id, and the arena sends none.
        if tail.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(Failure::WrongId(first));
        }
        let mut text = match tail.strip_prefix(' ') {
            Some(rest) => rest.to_string(),
            None if tail.is_empty() => String::new(),
            None => return Err(Failure::Garbage(first)),
        };
        loop {
            let (_, line) = self.line(deadline)?;
            if line.is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(&line);
        }
        self.in_answer = false;
        if ok {
            Ok((text, at))
        } else {
            Err(Failure::Refused(text))
        }
    }

    /// Sends a command and reads its answer within `timeout`.
    pub fn ask(&mut self, line: &str, timeout: Duration) -> Result<String, Failure> {
        if let Some(mut state) = self.nboard.take() {
            let answer = super::nboard::ask(self, &mut state, line);
            self.nboard = Some(state);
            return answer;
        }
        let sent = self.send(line)?;
        self.receive(sent + timeout).map(|(text, _)| text)
    }

    /// Ends the engine: `quit`, a moment to exit, then a kill.
    pub fn quit(mut self) {
        if self.write_line("quit").is_ok() {
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
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
