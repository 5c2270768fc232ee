//! `tabula bench serve`: a real server under load on loopback.
//!
//! The server runs as its own process (`tabula serve --listen 127.0.0.1:0`), so its
//! peak memory (`VmHWM` in `/proc/PID/status`) and open descriptors are its own, and
//! the bots do not share its threads. The bots open N tables through the HTTP API
//! (`POST /api/tables`), connect two seats per table at `/ws?token=…`, wait until every
//! seat is connected, then play one whole game per table at once, as any client
//! would: each seat reads its events and acts on its own turn (`all_legal`, then
//! `play`). They run as tokio tasks on a small runtime of their own (one thread by
//! default), so a few threads drive every connection and the server keeps the cores.
//!
//! A move's latency is the time from sending its `play` frame to receiving that
//! command's `=` answer. The figures are printed by [`Report`]'s `Display`.

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

use crate::games::{Color, GameKind};
use crate::rng::Rng;

/// The most tables one run opens: two connections each, on both ends of loopback.
pub const MAX_TABLES: usize = 4000;

/// How long a bot waits for any one frame before the run fails.
const FRAME_TIMEOUT: Duration = Duration::from_secs(120);

/// The games the tables play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Games {
    One(GameKind),
    /// Othello, Shell and Battleship in turn, table by table.
    Mixed,
}

impl Games {
    /// `othello`, `shell`, `battleship` or `mixed`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Games> {
        if name.eq_ignore_ascii_case("mixed") {
            Some(Games::Mixed)
        } else {
            GameKind::from_name(&name.to_ascii_lowercase()).map(Games::One)
        }
    }

    fn name(self) -> &'static str {
        match self {
            Games::One(kind) => kind.name(),
            Games::Mixed => "mixed",
        }
    }

    fn of_table(self, table: usize) -> GameKind {
        match self {
            Games::One(kind) => kind,
            Games::Mixed => [GameKind::Othello, GameKind::Shell, GameKind::Battleship][table % 3],
        }
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The `tabula` binary that serves.
    pub program: PathBuf,
    pub tables: usize,
    pub games: Games,
    /// Each bot waits this long (on average, from half to one and a half times) before
    /// each move: 0 plays as fast as the server answers.
    pub think_ms: u64,
    /// Threads of the bots' runtime.
    pub client_threads: usize,
    pub seed: u64,
    /// More arguments for `tabula serve` (`--db FILE`).
    pub server_args: Vec<String>,
}

impl Plan {
    /// `tables` tables of `games`, bots at full speed on one thread.
    #[must_use]
    pub fn new(program: impl Into<PathBuf>, tables: usize, games: Games) -> Plan {
        Plan {
            program: program.into(),
            tables,
            games,
            think_ms: 0,
            client_threads: 1,
            seed: 1,
            server_args: Vec::new(),
        }
    }

    fn check(&self) -> Result<()> {
        if self.tables == 0 || self.tables > MAX_TABLES {
            bail!(
                "--tables {}: between 1 and {MAX_TABLES} (two connections each, on loopback)",
                self.tables
            );
        }
        if self.client_threads == 0 || self.client_threads > 64 {
            bail!("--client-threads {}: between 1 and 64", self.client_threads);
        }
        if self.think_ms > 60_000 {
            bail!("--think-ms {}: at most 60000", self.think_ms);
        }
        // Each process holds a descriptor per connection, plus a few of its own.
        let needed = 2 * self.tables + 64;
        if let Some(limit) = descriptor_limit()
            && needed > limit
        {
            bail!(
                "--tables {} needs {needed} open files per process; the limit is {limit} (ulimit -n)",
                self.tables
            );
        }
        Ok(())
    }
}

/// The soft limit on open files, where the system says it.
fn descriptor_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// What a run measured.
#[derive(Clone, Debug)]
pub struct Report {
    pub tables: usize,
    pub games: Games,
    pub think_ms: u64,
    pub client_threads: usize,
    pub finished: usize,
    /// `play` commands answered `=`.
    pub moves: usize,
    /// From the moment every seat was connected to the last game's end.
    pub elapsed: Duration,
    /// Every move's latency, sorted.
    pub latencies: Vec<Duration>,
    /// The server's peak resident memory in KiB (`VmHWM`), when the system says it.
    pub peak_kib: Option<u64>,
    /// The most descriptors the server held open at once (sampled), when known.
    pub peak_descriptors: Option<usize>,
    /// Processor time of the server and of the bots over the run, when known.
    pub server_cpu: Option<Duration>,
    pub bots_cpu: Option<Duration>,
}

impl Report {
    /// The latency at quantile `q` (0 to 1).
    #[must_use]
    pub fn latency(&self, q: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let last = self.latencies.len() - 1;
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let index = ((last as f64) * q.clamp(0.0, 1.0)).round() as usize;
        self.latencies[index.min(last)]
    }
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.elapsed.as_secs_f64().max(1e-9);
        writeln!(
            f,
            "tables {} ({}), connections {}, bots thinking {} ms, client threads {}",
            self.tables,
            self.games.name(),
            2 * self.tables,
            self.think_ms,
            self.client_threads
        )?;
        #[allow(clippy::cast_precision_loss)]
        let (games, moves) = (self.finished as f64, self.moves as f64);
        writeln!(
            f,
            "games {} of {} finished in {:.2} s: {:.1} games/s; moves {}: {:.0} moves/s",
            self.finished,
            self.tables,
            seconds,
            games / seconds,
            self.moves,
            moves / seconds
        )?;
        writeln!(
            f,
            "move latency (play sent to its answer): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(self.latency(0.5)),
            ms(self.latency(0.99)),
            ms(self.latency(1.0))
        )?;
        let memory = self.peak_kib.map_or("unknown".to_string(), |kib| {
            #[allow(clippy::cast_precision_loss)]
            let mib = kib as f64 / 1024.0;
            format!("{mib:.1} MiB")
        });
        let descriptors = self
            .peak_descriptors
            .map_or("unknown".to_string(), |n| n.to_string());
        writeln!(
            f,
            "server: peak resident memory {memory} (VmHWM), open descriptors at most {descriptors}"
        )?;
        let cpu = |time: Option<Duration>| {
            time.map_or("unknown".to_string(), |t| {
                format!("{:.2} s", t.as_secs_f64())
            })
        };
        write!(
            f,
            "processor time: server {}, bots {}",
            cpu(self.server_cpu),
            cpu(self.bots_cpu)
        )
    }
}

/// The processor time (user and system) of process `pid` (`self` for this one).
fn cpu_time(pid: &str) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name, which is in parentheses.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // Linux reports in USER_HZ, 100 a second on every architecture it runs on.
    Some(Duration::from_millis(ticks * 10))
}

/// The server process, killed when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(plan: &Plan) -> Result<Server> {
        let mut child = Command::new(&plan.program)
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(["--max-tables", &(plan.tables + 16).to_string()])
            .args(["--max-connections", &(2 * plan.tables + 64).to_string()])
            // Bots at full speed send more than a person's 20 commands a second.
            .args(["--commands-per-second", "1000"])
            .args(&plan.server_args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("starting {}", plan.program.display()))?;
        let mut line = String::new();
        if let Some(stdout) = child.stdout.take() {
            BufReader::new(stdout)
                .read_line(&mut line)
                .context("reading the server's address")?;
        }
        let Some(address) = line.trim().strip_prefix("listening on http://") else {
            let _ = child.kill();
            let _ = child.wait();
            bail!("the server did not start: {line:?}");
        };
        Ok(Server {
            address: address.to_string(),
            child,
        })
    }

    fn status_field(&self, field: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with(field))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    fn descriptors(&self) -> Option<usize> {
        std::fs::read_dir(format!("/proc/{}/fd", self.child.id()))
            .ok()
            .map(Iterator::count)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Opens a table by `POST /api/tables`: the host's and the guest's tokens.
///
/// # Errors
/// The connection fails or the server refuses.
pub async fn open_table(address: &str, body: &str) -> Result<(String, String)> {
    let mut stream = TcpStream::connect(address).await?;
    let request = format!(
        "POST /api/tables HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    let mut response = String::new();
    stream.read_to_string(&mut response).await?;
    let (head, json) = response
        .split_once("\r\n\r\n")
        .ok_or_else(|| anyhow!("no HTTP answer: {response:?}"))?;
    if !head.starts_with("HTTP/1.1 200") {
        bail!("opening a table: {head:?} {json}");
    }
    let json: serde_json::Value = serde_json::from_str(json).context("the table's JSON")?;
    let token = |key: &str| -> Result<String> {
        let link = json[key]
            .as_str()
            .ok_or_else(|| anyhow!("no {key} link in {json}"))?;
        let (_, token) = link
            .split_once("#seat=")
            .ok_or_else(|| anyhow!("no token in {link}"))?;
        Ok(token.to_string())
    };
    Ok((token("host")?, token("invite")?))
}

/// One seat's WebSocket, as a bot reads it: answers to its commands, and events kept
/// in order until the bot looks at them.
pub struct Seat {
    ws: WebSocketStream<TcpStream>,
    /// Events read while waiting for an answer, without `event `.
    pending: VecDeque<String>,
}

impl Seat {
    /// Connects to `/ws?token=TOKEN`.
    ///
    /// # Errors
    /// The connection or the handshake fails.
    pub async fn connect(address: &str, token: &str) -> Result<Seat> {
        let stream = TcpStream::connect(address).await?;
        stream.set_nodelay(true)?;
        let url = format!("ws://{address}/ws?token={token}");
        let (ws, _) = tokio_tungstenite::client_async(url, stream)
            .await
            .context("the WebSocket handshake")?;
        Ok(Seat {
            ws,
            pending: VecDeque::new(),
        })
    }

    async fn frame(&mut self) -> Result<String> {
        loop {
            let next = tokio::time::timeout(FRAME_TIMEOUT, self.ws.next())
                .await
                .map_err(|_| anyhow!("no frame from the server within {FRAME_TIMEOUT:?}"))?;
            match next {
                Some(Ok(Message::Text(text))) => return Ok(text.to_string()),
                Some(Ok(Message::Close(_))) | None => bail!("the server closed the connection"),
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e.into()),
            }
        }
    }

    /// Sends one command line and reads up to its answer: `Ok(text)` for `=`,
    /// `Err(message)` for `?`. Events read meanwhile wait for [`Seat::event`].
    ///
    /// # Errors
    /// The connection fails, or a frame is neither an answer nor an event.
    pub async fn command(&mut self, line: &str) -> Result<Result<String, String>> {
        self.ws.send(Message::text(line)).await?;
        loop {
            let frame = self.frame().await?;
            if let Some(event) = frame.strip_prefix("event ") {
                self.pending.push_back(event.to_string());
            } else if let Some(text) = frame.strip_prefix('=') {
                return Ok(Ok(text.strip_prefix(' ').unwrap_or(text).to_string()));
            } else if let Some(text) = frame.strip_prefix('?') {
                return Ok(Err(text.trim_start().to_string()));
            } else {
                bail!("neither an answer nor an event: {frame:?}");
            }
        }
    }

    /// The next event, without `event `.
    ///
    /// # Errors
    /// The connection fails, or an answer comes with no command sent.
    pub async fn event(&mut self) -> Result<String> {
        if let Some(event) = self.pending.pop_front() {
            return Ok(event);
        }
        let frame = self.frame().await?;
        frame
            .strip_prefix("event ")
            .map(str::to_string)
            .ok_or_else(|| anyhow!("an answer to no command: {frame:?}"))
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// What one seat's bot did in its game.
#[derive(Debug, Default)]
pub struct Played {
    /// Whether it saw the game's `over` event.
    pub over: bool,
    pub latencies: Vec<Duration>,
}

/// A bot at `seat`, playing `color` at a table of `kind` until the game's end: it
/// acts on its own events (Othello: `turn COLOR`; Battleship: `start COLOR`, `turn
/// COLOR`; Shell: the start of each turn), choosing at random among `all_legal`, and times each `play`.
///
/// # Errors
/// The connection fails, or the server refuses what a bot sends.
pub async fn play_game(
    seat: &mut Seat,
    kind: GameKind,
    color: Color,
    rng: &mut Rng,
    think_ms: u64,
) -> Result<Played> {
    let me = color.name();
    let mut played = Played::default();
    loop {
        let event = seat.event().await?;
        let words: Vec<&str> = event.split(' ').collect();
        let act = match (kind, words.as_slice()) {
            (_, ["over", ..]) => {
                played.over = true;
                return Ok(played);
            }
            (GameKind::Othello | GameKind::Battleship, ["turn", turn]) => *turn == me,
            (GameKind::Battleship, ["start", first]) => *first == me,
            (GameKind::Shell, ["game", ..]) => true,
            (GameKind::Shell, ["revealed", .., status]) => {
                matches!(*status, "ongoing" | "sudden_death")
            }
            (GameKind::Battleship, ["game", ..]) => {
                ask(seat, &format!("genfleet {me}")).await?;
                if color == Color::White {
                    ask(seat, "ready white").await?;
                }
                false
            }
            (GameKind::Battleship, ["ready", "white"]) if color == Color::Black => {
                ask(seat, "start").await?;
                false
            }
            _ => false,
        };
        if act {
            if think_ms > 0 {
                let wait = think_ms / 2 + rng.below(think_ms + 1);
                tokio::time::sleep(Duration::from_millis(wait)).await;
            }
            let legal = ask(seat, &format!("all_legal {me}")).await?;
            let moves: Vec<&str> = legal.split(' ').filter(|m| !m.is_empty()).collect();
            let Some(choice) = rng.choose(&moves) else {
                bail!("{me} has no move at its turn ({event})");
            };
            let line = format!("play {me} {choice}");
            let sent = Instant::now();
            ask(seat, &line).await?;
            played.latencies.push(sent.elapsed());
        }
    }
}

/// A command that must succeed; a rate-limited one is sent again after a pause.
async fn ask(seat: &mut Seat, line: &str) -> Result<String> {
    for _ in 0..100 {
        match seat.command(line).await? {
            Ok(text) => return Ok(text),
            Err(message) if message.starts_with("too many commands") => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(message) => bail!("{line}: refused: {message}"),
        }
    }
    bail!("{line}: refused by the rate limit a hundred times")
}

/// Runs the plan: starts the server, plays, measures.
///
/// # Errors
/// A bad plan, a server that does not start, or a bot that fails.
pub fn run(plan: &Plan) -> Result<Report> {
    plan.check()?;
    let server = Server::start(plan)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(plan.client_threads)
        .enable_all()
        .build()
        .context("the bots' runtime")?;
    // The server's descriptors, sampled while the games run.
    let sampling = Arc::new(AtomicBool::new(true));
    let peak_descriptors = Arc::new(AtomicUsize::new(0));
    let pid = server.child.id();
    let sample = {
        let peak = Arc::clone(&peak_descriptors);
        move || {
            if let Ok(dir) = std::fs::read_dir(format!("/proc/{pid}/fd")) {
                peak.fetch_max(dir.count(), Ordering::Relaxed);
            }
        }
    };
    let sampler = {
        let (sampling, sample) = (Arc::clone(&sampling), sample.clone());
        std::thread::spawn(move || {
            while sampling.load(Ordering::Relaxed) {
                sample();
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let server_pid = pid.to_string();
    let cpu_before = (cpu_time(&server_pid), cpu_time("self"));
    // Once more when every seat is connected, before any game can end: the peak is
    // then at least the connections, however short the games.
    let played = runtime.block_on(play_tables(plan, &server.address, &sample));
    let cpu_after = (cpu_time(&server_pid), cpu_time("self"));
    let spent =
        |before: Option<Duration>, after: Option<Duration>| Some(after?.saturating_sub(before?));
    sampling.store(false, Ordering::Relaxed);
    let _ = sampler.join();
    let (elapsed, played) = played?;
    let mut latencies = Vec::new();
    let mut finished = 0;
    for (black, white) in played {
        finished += usize::from(black.over && white.over);
        latencies.extend(black.latencies);
        latencies.extend(white.latencies);
    }
    latencies.sort();
    let sampled = peak_descriptors.load(Ordering::Relaxed);
    let peak_descriptors = server.descriptors().map(|now| now.max(sampled));
    Ok(Report {
        tables: plan.tables,
        games: plan.games,
        think_ms: plan.think_ms,
        client_threads: plan.client_threads,
        finished,
        moves: latencies.len(),
        elapsed,
        latencies,
        peak_kib: server.status_field("VmHWM:"),
        peak_descriptors,
        server_cpu: spent(cpu_before.0, cpu_after.0),
        bots_cpu: spent(cpu_before.1, cpu_after.1),
    })
}

/// Opens the tables, connects every seat, then plays every game at once.
async fn play_tables(
    plan: &Plan,
    address: &str,
    all_connected: &dyn Fn(),
) -> Result<(Duration, Vec<(Played, Played)>)> {
    let mut seats = Vec::with_capacity(plan.tables);
    for table in 0..plan.tables {
        let kind = plan.games.of_table(table);
        let body = format!(r#"{{"game": "{}"}}"#, kind.name());
        let (host, invite) = open_table(address, &body).await?;
        let black = Seat::connect(address, &host).await?;
        let white = Seat::connect(address, &invite).await?;
        seats.push((kind, black, white));
    }
    all_connected();
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(2 * plan.tables);
    for (table, (kind, black, white)) in seats.into_iter().enumerate() {
        for (color, mut seat) in [(Color::Black, black), (Color::White, white)] {
            let think_ms = plan.think_ms;
            let seed = plan.seed ^ ((table as u64) << 1 | color.index() as u64);
            tasks.push(tokio::spawn(async move {
                let mut rng = Rng::new(seed);
                let played = play_game(&mut seat, kind, color, &mut rng, think_ms).await;
                seat.close().await;
                played
            }));
        }
    }
    let mut results = Vec::with_capacity(tasks.len());
    for task in tasks {
        results.push(task.await.context("a bot")??);
    }
    let elapsed = started.elapsed();
    let mut pairs = Vec::with_capacity(plan.tables);
    let mut results = results.into_iter();
    while let (Some(black), Some(white)) = (results.next(), results.next()) {
        pairs.push((black, white));
    }
    Ok((elapsed, pairs))
}
