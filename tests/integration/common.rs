//! A handle on a running `tabula` engine: send lines, read GTP 2 answers. Every read
//! has a generous ceiling so a hung engine fails the test instead of hanging it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

/// How long any single answer may take before the test fails.
pub const CEILING: Duration = Duration::from_secs(60);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

/// One answer: success or failure, the id, and the text after the id and space.
#[derive(Debug, PartialEq, Eq)]
pub struct Answer {
    pub ok: bool,
    pub id: Option<u64>,
    pub text: String,
}

/// Starts `tabula ARGS` with stdin and stdout piped, stderr dropped.
pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the tabula binary starts")
}

impl Engine {
    pub fn start(args: &[&str]) -> Engine {
        let mut child = spawn(args);
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn othello() -> Engine {
        Engine::start(&[])
    }

    /// Writes raw bytes (no newline added).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("write to the engine");
        stdin.flush().expect("flush to the engine");
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Closes the engine's stdin (EOF).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// The next raw output line, or `None` when the engine closed stdout.
    pub fn line(&mut self) -> Option<String> {
        match self.lines.recv_timeout(CEILING) {
            Ok(line) => Some(line),
            Err(mpsc::RecvTimeoutError::Disconnected) => None,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!("the engine did not answer within {CEILING:?}")
            }
        }
    }

    /// True when the engine prints nothing for `quiet` (it is still thinking).
    pub fn silent_for(&mut self, quiet: Duration) -> bool {
        matches!(
            self.lines.recv_timeout(quiet),
            Err(mpsc::RecvTimeoutError::Timeout)
        )
    }

    /// Reads one whole answer (up to its empty line) and checks its framing.
    pub fn answer(&mut self) -> Answer {
        let first = self.line().expect("an answer");
        let mut rest = Vec::new();
        loop {
            let line = self.line().expect("the answer ends with an empty line");
            if line.is_empty() {
                break;
            }
            rest.push(line);
        }
        let (mark, tail) = first.split_at(1);
        let ok = match mark {
            "=" => true,
            "?" => false,
            other => panic!("an answer starts with = or ?, not {other:?} in {first:?}"),
        };
        let digits: String = tail.chars().take_while(char::is_ascii_digit).collect();
        let after = &tail[digits.len()..];
        assert!(
            after.starts_with(' '),
            "a space follows the mark and id: {first:?}"
        );
        let mut text = after[1..].to_string();
        for line in rest {
            text.push('\n');
            text.push_str(&line);
        }
        Answer {
            ok,
            id: digits.parse().ok(),
            text,
        }
    }

    /// Sends a command and returns its answer.
    pub fn ask(&mut self, line: &str) -> Answer {
        self.send(line);
        self.answer()
    }

    /// Sends a command that must succeed; returns its text.
    pub fn ok(&mut self, line: &str) -> String {
        let answer = self.ask(line);
        assert!(answer.ok, "{line:?} failed: {:?}", answer.text);
        answer.text
    }

    /// Sends a command that must fail; returns its message.
    pub fn refused(&mut self, line: &str) -> String {
        let answer = self.ask(line);
        assert!(
            !answer.ok,
            "{line:?} should fail but answered {:?}",
            answer.text
        );
        answer.text
    }

    /// Waits for the process to end and returns its exit code.
    pub fn wait(mut self) -> Option<i32> {
        self.stdin = None;
        for _ in 0..600 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        panic!("the engine did not exit");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
