//! A handle on a running `tabula` engine, driven through the library's client: send
//! lines, read GTP 2 answers. Every read has a generous ceiling so a hung engine fails
//! the test instead of hanging it; a failure names the engine's last stderr lines.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tabula::client::{self, Client, Echo, Launch};

/// How long any single answer may take before the test fails.
pub const CEILING: Duration = Duration::from_secs(60);

pub struct Engine {
    client: Client,
}

/// One answer: success or failure, the id, and the text after the id and space.
#[derive(Debug, PartialEq, Eq)]
pub struct Answer {
    pub ok: bool,
    pub id: Option<u64>,
    pub text: String,
}

/// True when `python3` runs here. When it does not, says on stderr that `test`
/// skipped, unless `TABULA_REQUIRE_PYTHON=1` (set by `.ci/run`), which makes its
/// absence a failure.
pub fn python3_present(test: &str) -> bool {
    let python = Command::new("python3").arg("--version").output();
    if python.is_ok_and(|o| o.status.success()) {
        return true;
    }
    assert!(
        std::env::var("TABULA_REQUIRE_PYTHON").as_deref() != Ok("1"),
        "python3 is not installed and TABULA_REQUIRE_PYTHON=1: `apt-get install python3` \
         (.ci/run does)"
    );
    eprintln!("SKIPPED {test}: python3 is not installed");
    false
}

/// The command that starts `examples/shell_builder.py` (an absolute path, so it
/// runs from any folder).
pub fn shell_builder() -> String {
    format!(
        "python3 {}/examples/shell_builder.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Runs `tabula ARGS` once with `input` piped to its stdin (closed at once) and
/// waits for it: its exit status, stdout and stderr.
pub fn run_with_input(args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin.write_all(input).expect("the input is written");
    drop(stdin);
    child.wait_with_output().expect("tabula ends")
}

impl Engine {
    /// Starts `tabula ARGS`, stdin and stdout piped, stderr kept by the client.
    pub fn start(args: &[&str]) -> Engine {
        let args: Vec<String> = args.iter().map(|a| (*a).to_string()).collect();
        let launch = Launch::new("tabula", env!("CARGO_BIN_EXE_tabula"), &args);
        Engine {
            client: Client::spawn(&launch).expect("the tabula binary starts"),
        }
    }

    pub fn othello() -> Engine {
        Engine::start(&[])
    }

    /// Writes raw bytes (no newline added).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.client.write_raw(bytes).expect("write to the engine");
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Closes the engine's stdin (EOF).
    pub fn close(&mut self) {
        self.client.close_input();
    }

    /// The next raw output line, or `None` when the engine closed stdout.
    pub fn line(&mut self) -> Option<String> {
        match self.client.line(Instant::now() + CEILING) {
            Ok((_, line)) => Some(line),
            Err(client::Error::Closed) => None,
            Err(error) => panic!(
                "the engine did not answer within {CEILING:?} ({error}); stderr: {:?}",
                self.client.stderr_tail()
            ),
        }
    }

    /// True when the engine prints nothing for `quiet` (it is still thinking).
    pub fn silent_for(&mut self, quiet: Duration) -> bool {
        matches!(
            self.client.line(Instant::now() + quiet),
            Err(client::Error::Stall)
        )
    }

    /// Reads one whole answer (up to its empty line) and checks its framing: a mark,
    /// the id if any, and always a space.
    pub fn answer(&mut self) -> Answer {
        let reply = match self.client.answer(Instant::now() + CEILING, Echo::Any) {
            Ok(reply) => reply,
            Err(error) => panic!(
                "no well-framed answer: {error}; stderr: {:?}",
                self.client.stderr_tail()
            ),
        };
        let digits = reply.id.map(|id| id.to_string()).unwrap_or_default();
        assert!(
            reply.head[1 + digits.len()..].starts_with(' '),
            "a space follows the mark and id: {:?}",
            reply.head
        );
        Answer {
            ok: reply.ok,
            id: reply.id,
            text: reply.text,
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

    /// Undoes the game back to its start: `history` holds the positions from the start
    /// to the current one; each `undo` must show the one before, and at the start
    /// `undo` is refused.
    pub fn undo_to_start(&mut self, mut history: Vec<String>) {
        history.pop();
        while let Some(previous) = history.pop() {
            self.ok("undo");
            assert_eq!(self.ok("position"), previous);
        }
        assert_eq!(self.refused("undo"), "cannot undo");
    }

    /// Waits for the process to end and returns its exit code.
    pub fn wait(mut self) -> Option<i32> {
        self.client.close_input();
        match self.client.wait_exit(CEILING) {
            Some(status) => status.code(),
            None => panic!("the engine did not exit"),
        }
    }
}
