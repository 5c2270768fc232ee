//! One client for child engines: the arena's players, the conformance runner's engine
//! under test, the fake engines' relays and the integration tests all drive a child
//! process through it.
//!
//! A child is spawned with piped stdin and stdout. Commands are written as lines
//! (through their `Display`, so a [`crate::protocol::Command`] goes as it prints). A
//! reader thread turns stdout into timestamped lines on a bounded channel, so every
//! read has a deadline and a hung engine never hangs its controller; answers are read
//! by their GTP 2 framing ([`framing`]). A second thread reads stderr, so a chatty
//! engine never blocks on a full pipe: its lines go to the `log` crate (or to our own
//! stderr) and, with a transcript, into it; the last few are kept for messages. The
//! child is killed and reaped when the [`Client`] drops, so none outlives its
//! controller.
//!
//! Command lines are split into words with the `shell-words` crate (POSIX shell
//! quoting), the one splitter for every engine command the project reads.

pub mod framing;

use std::collections::VecDeque;
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

pub use framing::{Echo, Head, Reply, parse_head};

/// Set once the run is interrupted: every wait for every child ends with
/// [`Error::Aborted`].
static ABORT: AtomicBool = AtomicBool::new(false);

/// How often a wait looks at [`ABORT`].
const ABORT_POLL: Duration = Duration::from_millis(50);

/// Lines read ahead from a child's stdout; a flooding child then waits on its pipe.
const LINES_QUEUED: usize = 4096;

/// The longest line kept whole; a longer one is cut there (and is garbage anyway).
const LINE_LIMIT: u64 = 1 << 20;

/// The stderr bytes a transcript keeps per process.
const TRANSCRIPT_STDERR_LIMIT: usize = 10 << 20;

/// The stderr lines kept for messages ([`Client::stderr_tail`]).
const TAIL_LINES: usize = 20;

/// Stops every wait for every child (Ctrl-C in the arena).
pub fn abort_all() {
    ABORT.store(true, Ordering::SeqCst);
}

/// Whether [`abort_all`] was called.
#[must_use]
pub fn aborted() -> bool {
    ABORT.load(Ordering::SeqCst)
}

/// How an engine spells `game` in its `list_games` answer (one name a line, compared
/// without case, as GoGui's engines list them: Edax says `Othello`), if it lists it.
#[must_use]
pub fn listed_spelling<'a>(list: &'a str, game: &str) -> Option<&'a str> {
    list.lines()
        .map(str::trim)
        .find(|listed| listed.eq_ignore_ascii_case(game))
}

/// Splits a command line into words as a POSIX shell does (quotes group, a backslash
/// escapes), without expanding anything.
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    shell_words::split(text).map_err(|e| e.to_string())
}

/// Where a child's stderr lines go (besides the transcript, when there is one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stderr {
    /// To the `log` crate at debug level, tagged with the child's name.
    #[default]
    Log,
    /// Straight to our own stderr (a relay passing its engine's output on).
    Inherit,
}

/// Which process group the child joins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Group {
    /// Ours: a Ctrl-C at the terminal reaches the child too.
    #[default]
    Shared,
    /// Its own (Unix): a Ctrl-C reaches the controller alone, which then stops the
    /// child itself.
    Own,
}

/// How GTP 2 answers are read where one must start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Framing {
    /// Only `=` or `?` may start an answer: a stray empty line is garbage.
    #[default]
    Strict,
    /// Empty lines before an answer are passed over (engines from elsewhere print
    /// them).
    Lenient,
}

/// A log of the exchange shared by several children: lines `NAME PID DIRECTION LINE`
/// (`>` sent, `<` read, `!` stderr).
#[derive(Clone, Debug)]
pub struct Transcript(pub Arc<Mutex<File>>);

impl Transcript {
    fn write(&self, tag: &str, direction: char, line: &str) {
        if let Ok(mut file) = self.0.lock() {
            let _ = writeln!(file, "{tag} {direction} {line}");
        }
    }
}

/// How to start a child.
#[derive(Clone, Debug, Default)]
pub struct Launch {
    /// Its name, for logs and messages.
    pub name: String,
    pub program: PathBuf,
    pub args: Vec<String>,
    /// Its working folder (ours when `None`).
    pub dir: Option<PathBuf>,
    pub stderr: Stderr,
    pub group: Group,
    pub framing: Framing,
    pub transcript: Option<Transcript>,
}

impl Launch {
    /// `program ARGS` named `name`, with the defaults for everything else.
    pub fn new(name: &str, program: impl Into<PathBuf>, args: &[String]) -> Launch {
        Launch {
            name: name.to_string(),
            program: program.into(),
            args: args.to_vec(),
            ..Launch::default()
        }
    }
}

/// Why an exchange with a child failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The process could not be started (the system's reason).
    Spawn(String),
    /// Its input is closed or a write failed (what happened).
    Write(String),
    /// Its output closed (it exited or crashed).
    Closed,
    /// Nothing complete by the deadline.
    Stall,
    /// A line that is not an answer's first line where one was due.
    Garbage(String),
    /// A well-framed first line with an id other than the command's.
    WrongId(String),
    /// The run was interrupted ([`abort_all`]).
    Aborted,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Spawn(why) => write!(f, "cannot start: {why}"),
            Error::Write(why) => f.write_str(why),
            Error::Closed => f.write_str("its output closed"),
            Error::Stall => f.write_str("no answer in time"),
            Error::Garbage(line) => write!(f, "garbage {line:?}"),
            Error::WrongId(line) => write!(f, "a wrong id in {line:?}"),
            Error::Aborted => f.write_str("interrupted"),
        }
    }
}

impl std::error::Error for Error {}

/// An answer begun but not finished when its deadline passed.
struct Partial {
    ok: bool,
    id: Option<u64>,
    text: String,
    head: String,
    at: Instant,
}

/// A running child.
pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    framing: Framing,
    /// `NAME PID`, on log and transcript lines.
    tag: String,
    transcript: Option<Transcript>,
    tail: Arc<Mutex<VecDeque<String>>>,
    /// The answer whose end a deadline cut off; the next read finishes it.
    partial: Option<Partial>,
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

impl Client {
    /// Starts the child as `launch` says, with its reader threads.
    pub fn spawn(launch: &Launch) -> Result<Client, Error> {
        let mut command = Command::new(&launch.program);
        if let Some(dir) = &launch.dir {
            command.current_dir(dir);
        }
        #[cfg(unix)]
        if launch.group == Group::Own {
            std::os::unix::process::CommandExt::process_group(&mut command, 0);
        }
        let mut child = command
            .args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match launch.stderr {
                Stderr::Log => Stdio::piped(),
                Stderr::Inherit => Stdio::inherit(),
            })
            .spawn()
            .map_err(|e| Error::Spawn(e.to_string()))?;
        let tag = format!("{} {}", launch.name, child.id());
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(stderr) = child.stderr.take() {
            let (transcript, tag, tail) = (launch.transcript.clone(), tag.clone(), tail.clone());
            thread::spawn(move || {
                let mut written = 0;
                read_lines(stderr, |line| {
                    log::debug!("{tag} ! {line}");
                    if let Ok(mut tail) = tail.lock() {
                        if tail.len() == TAIL_LINES {
                            tail.pop_front();
                        }
                        tail.push_back(line.chars().take(200).collect());
                    }
                    if let Some(transcript) = &transcript
                        && written < TRANSCRIPT_STDERR_LIMIT
                    {
                        written += line.len();
                        transcript.write(&tag, '!', line);
                        if written >= TRANSCRIPT_STDERR_LIMIT {
                            transcript.write(&tag, '!', "(stderr past 10 MB: the rest is dropped)");
                        }
                    }
                    true
                });
            });
        }
        let Some(stdout) = child.stdout.take() else {
            return Err(Error::Spawn("no pipe to its output".into()));
        };
        let (sender, lines) = mpsc::sync_channel(LINES_QUEUED);
        let (transcript, reader_tag) = (launch.transcript.clone(), tag.clone());
        thread::spawn(move || {
            read_lines(stdout, |line| {
                if let Some(transcript) = &transcript {
                    transcript.write(&reader_tag, '<', line);
                }
                sender.send((Instant::now(), line.to_string())).is_ok()
            });
        });
        let stdin = child.stdin.take();
        Ok(Client {
            child,
            stdin,
            lines,
            framing: launch.framing,
            tag,
            transcript: launch.transcript.clone(),
            tail,
            partial: None,
        })
    }

    /// The child's process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The last lines the child wrote to stderr (at most 20, each clipped).
    #[must_use]
    pub fn stderr_tail(&self) -> Vec<String> {
        self.tail
            .lock()
            .map(|tail| tail.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Writes `command` and a newline; answers the moment it was sent.
    pub fn send(&mut self, command: impl fmt::Display) -> Result<Instant, Error> {
        let line = command.to_string();
        log::debug!("{} > {line}", self.tag);
        if let Some(transcript) = &self.transcript {
            transcript.write(&self.tag, '>', &line);
        }
        self.write_raw(format!("{line}\n").as_bytes())?;
        Ok(Instant::now())
    }

    /// Writes `bytes` as they are (no newline added), and flushes.
    pub fn write_raw(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Error::Write("input closed".into()))?;
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.flush())
            .map_err(|e| Error::Write(format!("cannot write: {e}")))
    }

    /// Closes the child's input (it reads the end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next output line and when it arrived, by `deadline`, waiting in short
    /// slices so that [`abort_all`] ends the wait at once.
    pub fn line(&mut self, deadline: Instant) -> Result<(Instant, String), Error> {
        loop {
            if aborted() {
                return Err(Error::Aborted);
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait.min(ABORT_POLL)) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) if wait > ABORT_POLL => {}
                Err(RecvTimeoutError::Timeout) => return Err(Error::Stall),
                Err(RecvTimeoutError::Disconnected) => return Err(Error::Closed),
            }
        }
    }

    /// Reads one whole answer by `deadline`, its id checked against `echo`. An answer
    /// whose end the deadline cut off is finished by the next call (so reading a late
    /// answer puts the exchange back in step).
    pub fn answer(&mut self, deadline: Instant, echo: Echo) -> Result<Reply, Error> {
        let mut partial = match self.partial.take() {
            Some(partial) => partial,
            None => self.head(deadline, echo)?,
        };
        loop {
            let line = match self.line(deadline) {
                Ok((_, line)) => line,
                Err(error) => {
                    self.partial = Some(partial);
                    return Err(error);
                }
            };
            if line.is_empty() {
                break;
            }
            partial.text.push('\n');
            partial.text.push_str(&line);
        }
        Ok(Reply {
            ok: partial.ok,
            id: partial.id,
            text: partial.text,
            head: partial.head,
            at: partial.at,
        })
    }

    /// Reads an answer's first line.
    fn head(&mut self, deadline: Instant, echo: Echo) -> Result<Partial, Error> {
        let (at, head) = loop {
            let (at, line) = self.line(deadline)?;
            if self.framing == Framing::Strict || !line.trim().is_empty() {
                break (at, line);
            }
        };
        log::debug!("{} < {head}", self.tag);
        match parse_head(&head, echo) {
            Head::Answer { ok, id, text } => Ok(Partial {
                ok,
                id,
                text: text.to_string(),
                at,
                head: head.clone(),
            }),
            Head::WrongId => Err(Error::WrongId(head)),
            Head::Garbage => Err(Error::Garbage(head)),
        }
    }

    /// Sends `command` and reads its answer within `timeout` of sending.
    pub fn ask(
        &mut self,
        command: impl fmt::Display,
        echo: Echo,
        timeout: Duration,
    ) -> Result<Reply, Error> {
        let sent = self.send(command)?;
        self.answer(sent + timeout, echo)
    }

    /// The child's exit status if it ends within `grace`.
    pub fn wait_exit(&mut self, grace: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + grace;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Client {
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
    fn command_lines_split_like_a_shell() {
        assert_eq!(
            split_words(r#"python3 "my fake.py" 'a b' c\ d"#),
            Ok(vec![
                "python3".to_string(),
                "my fake.py".into(),
                "a b".into(),
                "c d".into()
            ])
        );
        assert_eq!(
            split_words(r#"engine 'a b' "c \"d\" \e" f\ g '' x"y"'z'"#),
            Ok(["engine", "a b", r#"c "d" \e"#, "f g", "", "xyz"]
                .map(String::from)
                .to_vec())
        );
        assert_eq!(
            split_words("  /usr/games/gnugo\t--mode   gtp "),
            Ok(["/usr/games/gnugo", "--mode", "gtp"]
                .map(String::from)
                .to_vec())
        );
        assert!(split_words("x 'open").is_err());
        assert!(split_words("a \"b\\\"").is_err());
        // As in a shell: a lone backslash at the end stays, `#` starts a comment.
        assert_eq!(split_words("a \\"), Ok(vec!["a".to_string(), "\\".into()]));
        assert_eq!(split_words("a #b"), Ok(vec!["a".to_string()]));
        assert_eq!(split_words("  "), Ok(Vec::new()));
    }

    /// A child running the shell script `script`.
    fn shell(script: &str, framing: Framing) -> Client {
        let launch = Launch {
            framing,
            ..Launch::new("sh", "sh", &["-c".to_string(), script.to_string()])
        };
        Client::spawn(&launch).expect("sh starts")
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(30)
    }

    #[test]
    fn an_answer_cut_off_by_its_deadline_is_finished_by_the_next_read() {
        let mut child = shell(
            r"printf '= a\n'; sleep 1; printf 'b\n\n= c\n\n'",
            Framing::Strict,
        );
        let early = Instant::now() + Duration::from_millis(300);
        assert_eq!(child.answer(early, Echo::Nothing), Err(Error::Stall));
        let late = child.answer(soon(), Echo::Nothing).map(|r| r.text);
        assert_eq!(late, Ok("a\nb".to_string()));
        let next = child.answer(soon(), Echo::Nothing).map(|r| r.text);
        assert_eq!(next, Ok("c".to_string()));
    }

    #[test]
    fn empty_lines_before_an_answer_are_garbage_unless_lenient() {
        let script = r"printf '\n= x\n\n'";
        let mut strict = shell(script, Framing::Strict);
        assert_eq!(
            strict.answer(soon(), Echo::Nothing),
            Err(Error::Garbage(String::new()))
        );
        let mut lenient = shell(script, Framing::Lenient);
        let reply = lenient
            .answer(soon(), Echo::Nothing)
            .map(|r| (r.ok, r.text));
        assert_eq!(reply, Ok((true, "x".to_string())));
    }

    #[test]
    fn ids_are_checked_against_the_command() {
        let mut child = shell(r"printf '=7 x\n\n=7 y\n\n?7 z\n\n'", Framing::Strict);
        assert_eq!(
            child.answer(soon(), Echo::Nothing),
            Err(Error::WrongId("=7 x".into()))
        );
        // The wrong head was read; the rest of that answer is an empty line.
        assert_eq!(child.line(soon()).map(|(_, line)| line), Ok(String::new()));
        let reply = child.answer(soon(), Echo::Id(7)).map(|r| (r.ok, r.id));
        assert_eq!(reply, Ok((true, Some(7))));
        let reply = child.answer(soon(), Echo::Any).map(|r| (r.ok, r.text));
        assert_eq!(reply, Ok((false, "z".to_string())));
    }

    #[test]
    fn commands_go_through_display_and_the_end_of_output_is_told() {
        let mut child = shell(r#"read line; printf '= %s\n\n' "$line""#, Framing::Strict);
        let reply = child.ask(
            crate::protocol::Command::KnownCommand("genmove".into()),
            Echo::Nothing,
            Duration::from_secs(30),
        );
        assert_eq!(
            reply.map(|r| r.text),
            Ok("known_command genmove".to_string())
        );
        assert_eq!(child.answer(soon(), Echo::Nothing), Err(Error::Closed));
        assert!(child.wait_exit(Duration::from_secs(30)).is_some());
    }

    #[test]
    fn stderr_is_kept() {
        let mut child = shell(
            "echo oops >&2; printf '= x\\n\\n'; sleep 30",
            Framing::Strict,
        );
        assert!(child.answer(soon(), Echo::Nothing).is_ok());
        let deadline = soon();
        while child.stderr_tail().is_empty() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(child.stderr_tail(), vec!["oops".to_string()]);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_dropped_client_kills_its_child() {
        let child = shell("sleep 1000", Framing::Strict);
        let proc = format!("/proc/{}", child.pid());
        assert!(std::path::Path::new(&proc).exists());
        drop(child);
        assert!(
            !std::path::Path::new(&proc).exists(),
            "{proc} outlived its client"
        );
    }

    #[test]
    fn a_program_that_does_not_exist_fails_to_spawn() {
        let launch = Launch::new("none", "/nonexistent/tabula-no-such-engine", &[]);
        assert!(matches!(Client::spawn(&launch), Err(Error::Spawn(_))));
    }
}
