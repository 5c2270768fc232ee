//! The engine's input/output loop.
//!
//! A reader thread reads raw lines (at most [`MAX_LINE`] bytes kept; longer lines are
//! refused whole), preprocesses and parses them, and sends them to the main loop,
//! which answers each in order and flushes stdout after every answer. The reader
//! keeps reading while a command thinks: a `# interrupt` line (GoGui's convention,
//! advertised as `gogui-interrupt`) then raises the stop flag, and the search answers
//! at once with its best result so far. Nothing else interrupts: empty lines and other
//! comments are ignored, so a script full of them gets full answers.
//!
//! The end of input is a `quit` after the last command read: every command already
//! read is answered in full, in order, then the loop ends (GNU Go does the same), so
//! a piped script gets the answers it would get typed line by line. Nothing else ends
//! the process; a panic inside a command (a bug) is caught and answered as an
//! internal error.

use std::io::{self, BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;

use super::command::Command;
use super::parse::{Line, MAX_LINE, ParseError, parse_line, preprocess};
use super::response::Response;
use super::session::{Out, Session};

/// One raw input line.
pub(super) enum RawLine {
    Bytes(Vec<u8>),
    TooLong,
}

/// Reads up to and without the next LF. `None` at the end of input.
pub(super) fn read_line(reader: &mut impl BufRead, max: usize) -> io::Result<Option<RawLine>> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut read_any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read_any.then_some({
                if too_long {
                    RawLine::TooLong
                } else {
                    RawLine::Bytes(line)
                }
            }));
        }
        read_any = true;
        let (chunk, used, done) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (&available[..at], at + 1, true),
            None => (available, available.len(), false),
        };
        if !too_long {
            if line.len() + chunk.len() > max {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        reader.consume(used);
        if done {
            return Ok(Some(if too_long {
                RawLine::TooLong
            } else {
                RawLine::Bytes(line)
            }));
        }
    }
}

/// What the reader sends to the main loop.
enum Event {
    Command(Option<u64>, Result<Command, ParseError>),
    End,
}

/// Shared between a reader thread and its main loop (GTP and NBoard modes): how
/// many thinking commands are queued or running, and the flag that stops the
/// running one.
#[derive(Default)]
pub(super) struct Interrupt {
    thinking: Mutex<u32>,
    pub(super) stop: AtomicBool,
    /// Streaming commands read so far, and how many of them a later line (or the
    /// end of input) has followed: the K-th streams until `followed` reaches K.
    streams: AtomicU64,
    followed: AtomicU64,
}

/// True for GoGui's interrupt line: a comment whose text is `interrupt` (any case,
/// any spacing around it).
fn is_interrupt(raw: &[u8]) -> bool {
    let text = raw.trim_ascii();
    text.strip_prefix(b"#")
        .is_some_and(|rest| rest.trim_ascii().eq_ignore_ascii_case(b"interrupt"))
}

impl Interrupt {
    fn lock(&self) -> std::sync::MutexGuard<'_, u32> {
        self.thinking
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The reader read a line: an interrupt stops a thinking command (if any is
    /// queued or running); a thinking command is counted.
    pub(super) fn read(&self, interrupts: bool, thinks: bool) {
        let mut thinking = self.lock();
        if interrupts && *thinking > 0 {
            self.stop.store(true, Ordering::Relaxed);
        }
        if thinks {
            *thinking += 1;
        }
    }

    /// A command line, an interrupt or the end of input was read: every streaming
    /// command read before it ends.
    fn follow(&self) {
        self.followed
            .store(self.streams.load(Ordering::SeqCst), Ordering::SeqCst);
    }

    /// A streaming command was read (after [`Interrupt::follow`] for its line).
    fn streamed(&self) {
        self.streams.fetch_add(1, Ordering::SeqCst);
    }

    /// True once the `number`-th streaming command (from 1) must end.
    fn stream_over(&self, number: u64) -> bool {
        self.stop.load(Ordering::Relaxed) || self.followed.load(Ordering::SeqCst) >= number
    }

    /// A thinking command answered: an interrupt stops the command that was
    /// thinking, not the next.
    pub(super) fn finished(&self) {
        let mut thinking = self.lock();
        *thinking = thinking.saturating_sub(1);
        self.stop.store(false, Ordering::Relaxed);
    }
}

fn reader_loop(mut input: impl BufRead, events: mpsc::Sender<Event>, interrupt: Arc<Interrupt>) {
    loop {
        let event = match read_line(&mut input, MAX_LINE) {
            Ok(None) | Err(_) => {
                // A `quit` after everything read: the queue is answered in full.
                interrupt.follow();
                let _ = events.send(Event::End);
                return;
            }
            Ok(Some(RawLine::TooLong)) => Event::Command(None, Err(ParseError::TooLong)),
            Ok(Some(RawLine::Bytes(bytes))) => match preprocess(&bytes) {
                Line::Empty => {
                    if is_interrupt(&bytes) {
                        interrupt.follow();
                    }
                    interrupt.read(is_interrupt(&bytes), false);
                    continue;
                }
                Line::InvalidUtf8 => Event::Command(None, Err(ParseError::InvalidUtf8)),
                Line::Text(text) => {
                    let (id, command) = parse_line(&text);
                    interrupt.follow();
                    if command.as_ref().is_ok_and(Command::streams) {
                        interrupt.streamed();
                    }
                    interrupt.read(false, command.as_ref().is_ok_and(Command::thinks));
                    Event::Command(id, command)
                }
            },
        };
        if events.send(event).is_err() {
            return;
        }
    }
}

/// Answers a streaming command: `=` (with the id) on a line of its own, one line
/// per update, and the empty line that ends every answer once `over`; a refusal is
/// an ordinary `?` answer.
fn stream(
    output: &mut impl Write,
    session: &mut Session,
    id: Option<u64>,
    command: &Command,
    over: &dyn Fn() -> bool,
) -> io::Result<()> {
    let mut failed: Option<io::Error> = None;
    let mut write = |out: Out<'_>| {
        let text = match out {
            Out::Begin => match id {
                Some(id) => format!("={id}\n"),
                None => "=\n".to_string(),
            },
            Out::Line(line) => format!("{line}\n"),
        };
        match output
            .write_all(text.as_bytes())
            .and_then(|()| output.flush())
        {
            Ok(()) => true,
            Err(e) => {
                failed = Some(e);
                false
            }
        }
    };
    let answer = catch_unwind(AssertUnwindSafe(|| {
        session.stream(command, over, &mut write)
    }))
    .unwrap_or_else(|_| Err("internal error".into()));
    if let Some(e) = failed {
        return Err(e);
    }
    match answer {
        Ok(()) => writeln!(output)?,
        Err(refusal) => write!(
            output,
            "{}",
            Response {
                id,
                outcome: Err(refusal),
            }
        )?,
    }
    output.flush()
}

/// Runs the engine on `input` and `output` until `quit` or the end of input.
/// A closed output (broken pipe) ends it quietly.
pub fn run<R, W>(input: R, mut output: W, mut session: Session) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let interrupt = Arc::new(Interrupt::default());
    let (sender, events) = mpsc::channel();
    let reader_interrupt = Arc::clone(&interrupt);
    thread::Builder::new()
        .name("input".into())
        .spawn(move || reader_loop(input, sender, reader_interrupt))?;
    let mut streams = 0;
    for event in events {
        let Event::Command(id, parsed) = event else {
            break;
        };
        if let Ok(command) = &parsed
            && command.streams()
        {
            streams += 1;
            let open = stream(&mut output, &mut session, id, command, &|| {
                interrupt.stream_over(streams)
            });
            interrupt.finished();
            match open {
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
                Err(e) => return Err(e),
                Ok(()) => continue,
            }
        }
        let (response, quit) = match parsed {
            Err(error) => (Response::failure(id, error.to_string()), false),
            Ok(command) => {
                let answer = catch_unwind(AssertUnwindSafe(|| {
                    session.handle(&command, &interrupt.stop)
                }))
                .unwrap_or_else(|_| Err("internal error".into()));
                if command.thinks() {
                    interrupt.finished();
                }
                let quit = command == Command::Quit;
                (
                    Response {
                        id,
                        outcome: answer,
                    },
                    quit,
                )
            }
        };
        let written = write!(output, "{response}").and_then(|()| output.flush());
        match written {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
            Err(e) => return Err(e),
            Ok(()) => {}
        }
        if quit {
            break;
        }
    }
    Ok(())
}
