//! One engine under test as a child process: commands go to its stdin; a reader thread
//! turns its stdout into lines on a channel, so every answer can be awaited with a
//! deadline. The child is always reaped: [`Drop`] kills and waits for it.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use super::suite::{Answer, AnswerStatus};

/// Why an engine can answer no more: the rest of its file cannot run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The process could not be started.
    Spawn(String),
    /// The engine closed its output (it crashed or quit); its exit status if known.
    Exited(Option<String>),
    /// No complete answer within the per-command timeout; the engine was killed.
    Timeout(Duration),
    /// A line that is not GTP 2 framing where an answer was due.
    Garbage(String),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Spawn(why) => write!(f, "the engine did not start: {why}"),
            Fault::Exited(Some(status)) => write!(f, "the engine exited ({status})"),
            Fault::Exited(None) => f.write_str("the engine closed its output"),
            Fault::Timeout(limit) => {
                write!(f, "timeout: no answer within {} s", limit.as_secs_f64())
            }
            Fault::Garbage(line) => write!(f, "garbage answer {line:?}"),
        }
    }
}

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts `program` with `args` in `dir`, stdin and stdout piped, stderr discarded.
    pub fn start(program: &Path, args: &[String], dir: &Path) -> Result<Engine, Fault> {
        let mut child = Command::new(program)
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| Fault::Spawn(format!("{}: {error}", program.display())))?;
        let stdin = child.stdin.take();
        let Some(stdout) = child.stdout.take() else {
            return Err(Fault::Spawn("no pipe to the engine's output".into()));
        };
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match reader.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&bytes);
                        let line = line.trim_end_matches('\n').trim_end_matches('\r');
                        if sender.send(line.to_string()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Engine {
            child,
            stdin,
            lines,
        })
    }

    /// Sends one command line and reads its whole answer (up to the empty line).
    /// `id` is the command's id: a numbered command's answer must echo it.
    pub fn ask(
        &mut self,
        command: &str,
        id: Option<u64>,
        timeout: Duration,
    ) -> Result<Answer, Fault> {
        let deadline = Instant::now() + timeout;
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(format!("{command}\n").as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        if written.is_err() {
            return Err(self.exited());
        }
        let first = self.line(deadline, timeout)?;
        let (status, text) = parse_first_line(&first, id).ok_or(Fault::Garbage(first.clone()))?;
        let mut text = text.to_string();
        loop {
            let line = self.line(deadline, timeout)?;
            if line.is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(&line);
        }
        Ok(Answer {
            status,
            text: text.trim().to_string(),
        })
    }

    /// Ends the engine politely: `quit`, then EOF, then a kill after `grace`.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.ask("quit", None, grace);
        self.stdin = None;
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        // Drop kills and reaps it.
    }

    /// The next output line, before `deadline`.
    fn line(&mut self, deadline: Instant, timeout: Duration) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Timeout(timeout)),
            Err(RecvTimeoutError::Disconnected) => Err(self.exited()),
        }
    }

    /// The fault for an engine whose pipes closed, with its exit status when it ends
    /// soon enough to tell.
    fn exited(&mut self) -> Fault {
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Fault::Exited(Some(status.to_string()));
            }
            thread::sleep(Duration::from_millis(10));
        }
        Fault::Exited(None)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Reads an answer's first line: `=` or `?`, the id (required and equal when the
/// command had one), then nothing or a space and the text. `None` for anything else.
fn parse_first_line(line: &str, id: Option<u64>) -> Option<(AnswerStatus, &str)> {
    let status = match line.chars().next()? {
        '=' => AnswerStatus::Success,
        '?' => AnswerStatus::Failure,
        _ => return None,
    };
    let rest = &line[1..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (echoed, text) = rest.split_at(digits);
    if let Some(id) = id
        && echoed.parse::<u64>().ok() != Some(id)
    {
        return None;
    }
    if text.is_empty() {
        return Some((status, ""));
    }
    let text = text.strip_prefix([' ', '\t'])?;
    Some((status, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_lines_are_read_per_gtp_2() {
        use AnswerStatus::{Failure, Success};
        assert_eq!(parse_first_line("= 2", None), Some((Success, "2")));
        assert_eq!(parse_first_line("=12 e5", Some(12)), Some((Success, "e5")));
        assert_eq!(
            parse_first_line("?3 illegal move", Some(3)),
            Some((Failure, "illegal move"))
        );
        assert_eq!(parse_first_line("=4", Some(4)), Some((Success, "")));
        assert_eq!(parse_first_line("= ", None), Some((Success, "")));
        assert_eq!(parse_first_line("=", None), Some((Success, "")));
    }

    #[test]
    fn garbage_and_wrong_ids_are_refused() {
        assert_eq!(parse_first_line("hello", None), None);
        assert_eq!(parse_first_line("", None), None);
        assert_eq!(parse_first_line("=5 e5", Some(12)), None);
        assert_eq!(parse_first_line("= e5", Some(12)), None);
        assert_eq!(parse_first_line("=e5", None), None);
    }
}
