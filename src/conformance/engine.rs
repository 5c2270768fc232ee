//! One engine under test as a child process, driven through the [`crate::client`]:
//! commands go to its stdin, every answer is awaited with a deadline and read by its
//! strict GTP 2 framing, its stderr goes to the log, and the child is always reaped
//! (dropping the client kills and waits for it).

use std::fmt;
use std::path::Path;
use std::time::Duration;

use super::suite::{Answer, AnswerStatus};
use crate::client::{self, Client, Echo, Launch};

/// Why an engine can answer no more: the rest of its file cannot run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The process could not be started.
    Spawn(String),
    /// The engine closed its output (it crashed or quit): its exit status if known,
    /// and the last line it wrote on stderr, if any (often the reason).
    Exited {
        status: Option<String>,
        stderr: Option<String>,
    },
    /// No complete answer within the per-command timeout; the engine was killed.
    Timeout(Duration),
    /// A line that is not GTP 2 framing where an answer was due.
    Garbage(String),
    /// A whole, well-framed answer whose id is not the command's (`= 1 2` for
    /// `1 protocol_version`, where GTP 2 writes `=1 2`). Only its case fails: the
    /// answer was read to its end, so the exchange is still in step.
    WrongId { head: String, expected: u64 },
}

impl Fault {
    /// Whether the engine can go on answering after this fault.
    #[must_use]
    pub fn is_fatal(&self) -> bool {
        !matches!(self, Fault::WrongId { .. })
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Spawn(why) => write!(f, "the engine did not start: {why}"),
            Fault::Exited { status, stderr } => {
                match status {
                    Some(status) => write!(f, "the engine exited ({status})")?,
                    None => f.write_str("the engine closed its output")?,
                }
                match stderr {
                    Some(line) => write!(f, "; its stderr ends {line:?}"),
                    None => Ok(()),
                }
            }
            Fault::Timeout(limit) => {
                write!(f, "timeout: no answer within {} s", limit.as_secs_f64())
            }
            Fault::Garbage(line) => write!(f, "garbage answer {line:?}"),
            Fault::WrongId { head, expected } => write!(
                f,
                "the answer {head:?} does not carry the command's id right after its mark \
                 (GTP 2: \"={expected} …\")"
            ),
        }
    }
}

/// A running engine.
pub struct Engine {
    client: Client,
}

impl Engine {
    /// Starts `program` with `args` in `dir`, stdin and stdout piped, stderr to the log.
    pub fn start(program: &Path, args: &[String], dir: &Path) -> Result<Engine, Fault> {
        let launch = Launch {
            dir: Some(dir.to_path_buf()),
            ..Launch::new("engine", program, args)
        };
        match Client::spawn(&launch) {
            Ok(client) => Ok(Engine { client }),
            Err(error) => Err(Fault::Spawn(format!("{}: {error}", program.display()))),
        }
    }

    /// Sends one command line and reads its whole answer (up to the empty line).
    /// `id` is the command's id: a numbered command's answer must echo it.
    pub fn ask(
        &mut self,
        command: &str,
        id: Option<u64>,
        timeout: Duration,
    ) -> Result<Answer, Fault> {
        // Read whatever id the answer carries, then check it, so that a wrong one
        // fails only this case.
        match self.client.ask(command, Echo::Any, timeout) {
            Ok(reply) if id.is_some() && reply.id != id => Err(Fault::WrongId {
                head: reply.head,
                expected: id.unwrap_or_default(),
            }),
            Ok(reply) => Ok(Answer {
                status: if reply.ok {
                    AnswerStatus::Success
                } else {
                    AnswerStatus::Failure
                },
                text: reply.text.trim().to_string(),
            }),
            Err(client::Error::Stall) => Err(Fault::Timeout(timeout)),
            Err(client::Error::Garbage(line) | client::Error::WrongId(line)) => {
                Err(Fault::Garbage(line))
            }
            Err(
                client::Error::Spawn(_)
                | client::Error::Write(_)
                | client::Error::Closed
                | client::Error::Aborted,
            ) => Err(self.exited()),
        }
    }

    /// Ends the engine politely: `quit`, then EOF, then a kill after `grace`.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.ask("quit", None, grace);
        self.client.close_input();
        self.client.wait_exit(grace);
        // Drop kills and reaps it.
    }

    /// The fault for an engine whose pipes closed, with its exit status when it ends
    /// soon enough to tell.
    fn exited(&mut self) -> Fault {
        let status = self.client.wait_exit(Duration::from_millis(500));
        // The stderr reader may still be on the last lines of a process that is gone.
        let mut stderr = self.client.stderr_tail();
        for _ in 0..20 {
            if !stderr.is_empty() || status.is_none() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
            stderr = self.client.stderr_tail();
        }
        Fault::Exited {
            status: status.map(|status| status.to_string()),
            stderr: stderr
                .into_iter()
                .rev()
                .find(|line| !line.trim().is_empty()),
        }
    }
}
