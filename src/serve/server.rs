//! The HTTP side of `tabula serve`: routes, seats' WebSockets, clocks and limits.
//!
//! Routes: `GET /` (the page), `POST /api/tables` (open a table), `GET /ws?token=T`
//! (a seat's WebSocket). Every table is a [`Room`] behind a mutex with the senders of
//! the connections of each seat; a command is handled with the room locked, and its
//! answer and events are queued to the connections before the lock is released, so
//! every seat sees the table's events in one order.
//!
//! Limits that keep one client from hurting the others: a bounded request body and
//! WebSocket message, a per-connection rate limit, bounded outgoing queues (a
//! connection that does not read is dropped), a cap on tables and connections, and
//! tables that nobody is at expire after an idle time. Tokens are never logged.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::SinkExt;
use serde::Deserialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

use super::engine::{self, Engines};
use super::room::{Event, Reply, Room, parse_clock};
use super::token;
use crate::games::battleship::TimeControl;
use crate::games::{Color, GameKind};
use crate::protocol::Response as GtpResponse;

/// The page, embedded at build time.
const PAGE: &str = include_str!("page.html");

/// The limits of one server.
#[derive(Clone, Debug)]
pub struct Limits {
    /// A table nobody is connected to is dropped after this long without activity.
    pub idle: Duration,
    pub max_tables: usize,
    pub max_connections: usize,
    /// Longest WebSocket message from a client, in bytes.
    pub max_message: usize,
    /// Commands a connection may send in a burst, and per second after it.
    pub burst: u32,
    pub per_second: u32,
    /// Frames queued for a connection before it counts as not reading and is dropped.
    pub queue: usize,
    /// Engine seats (each a child process) at once.
    pub max_engines: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            idle: Duration::from_secs(3600),
            max_tables: 10_000,
            max_connections: 10_000,
            max_message: 4096,
            burst: 40,
            per_second: 20,
            queue: 512,
            max_engines: 8,
        }
    }
}

/// One connection's outgoing queue.
type Outbox = mpsc::Sender<String>;

struct TableState {
    room: Room,
    /// When the clocks were last brought up to date.
    ticked: Instant,
    /// The last command or connection.
    active: Instant,
    /// The connections of each seat (by colour index), with an id each.
    outboxes: [Vec<(u64, Outbox)>; 2],
    /// The seat an engine plays, whose connection does not keep the table alive.
    engine: Option<Color>,
}

struct Table {
    id: String,
    tokens: [String; 2],
    state: Mutex<TableState>,
}

struct Shared {
    tables: Mutex<HashMap<String, Arc<Table>>>,
    seats: Mutex<HashMap<String, (Arc<Table>, Color)>>,
    connections: Arc<Semaphore>,
    next_connection: Mutex<u64>,
    base_url: Option<String>,
    limits: Limits,
    engines: Engines,
    engine_slots: Arc<Semaphore>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding a lock cannot leave a room half-changed (rooms check
    // before they write), so a poisoned lock is still usable.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Queues `text` to every connection of `seat`; connections whose queue is full or
/// closed are dropped from the table.
fn send_seat(state: &mut TableState, seat: Color, text: &str) {
    state.outboxes[seat.index()].retain(|(_, outbox)| outbox.try_send(text.to_string()).is_ok());
}

fn deliver(state: &mut TableState, events: &[Event]) {
    for event in events {
        let line = format!("event {}", event.text);
        for seat in Color::ALL {
            if event.to.includes(seat) {
                send_seat(state, seat, &line);
            }
        }
    }
}

/// Brings the clocks up to date and delivers what that caused.
fn tick(state: &mut TableState, now: Instant) {
    let elapsed = now.saturating_duration_since(state.ticked);
    state.ticked = now;
    let ms = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
    let events = state.room.elapse(ms);
    deliver(state, &events);
}

/// Binds `listen`, prints `listening on http://ADDR` on stdout, and serves.
///
/// # Errors
/// The address cannot be bound or the server fails.
pub async fn serve(
    listen: &str,
    base_url: Option<String>,
    limits: Limits,
    engines: Engines,
) -> Result<()> {
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .with_context(|| format!("listening on {listen}"))?;
    let address: SocketAddr = listener.local_addr().context("the bound address")?;
    println!("listening on http://{address}");
    log::info!("listening on http://{address}");
    let shared = Arc::new(Shared {
        tables: Mutex::new(HashMap::new()),
        seats: Mutex::new(HashMap::new()),
        connections: Arc::new(Semaphore::new(limits.max_connections)),
        next_connection: Mutex::new(0),
        base_url: base_url.map(|url| url.trim_end_matches('/').to_string()),
        engine_slots: Arc::new(Semaphore::new(limits.max_engines)),
        limits,
        engines,
    });
    tokio::spawn(clock_loop(Arc::clone(&shared)));
    let app = Router::new()
        .route("/", get(page))
        .route("/api/tables", post(open_table))
        .route("/ws", get(seat_socket))
        .layer(DefaultBodyLimit::max(4096))
        .with_state(shared);
    // Frames are small and an answer is followed at once by its events: without
    // TCP_NODELAY the events wait for the client's delayed acknowledgement (tens of
    // milliseconds per move).
    let listener = axum::serve::ListenerExt::tap_io(listener, |stream| {
        let _ = stream.set_nodelay(true);
    });
    axum::serve(listener, app).await.context("serving")
}

async fn page() -> impl IntoResponse {
    (
        [
            (header::CACHE_CONTROL, "no-store"),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        Html(PAGE),
    )
}

/// Clocks tick and idle tables expire, a few times a second.
async fn clock_loop(shared: Arc<Shared>) {
    let mut interval = tokio::time::interval(Duration::from_millis(100));
    loop {
        interval.tick().await;
        let now = Instant::now();
        let tables: Vec<Arc<Table>> = lock(&shared.tables).values().cloned().collect();
        let mut expired = Vec::new();
        for table in tables {
            let mut state = lock(&table.state);
            if state.room.clock_running() {
                tick(&mut state, now);
            }
            let nobody = Color::ALL
                .iter()
                .all(|&c| state.engine == Some(c) || state.outboxes[c.index()].is_empty());
            if nobody && now.saturating_duration_since(state.active) > shared.limits.idle {
                // An engine's seat reads the end of its queue and stops.
                state.outboxes = [Vec::new(), Vec::new()];
                expired.push(Arc::clone(&table));
            }
        }
        if !expired.is_empty() {
            let mut tables = lock(&shared.tables);
            let mut seats = lock(&shared.seats);
            for table in expired {
                log::info!("table {} expired", table.id);
                tables.remove(&table.id);
                for token in &table.tokens {
                    seats.remove(token);
                }
            }
        }
    }
}

#[derive(Deserialize)]
struct NewTable {
    game: String,
    clock: Option<String>,
    opponent: Option<String>,
}

fn refuse(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(serde_json::json!({ "error": message }))).into_response()
}

async fn open_table(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: axum::Json<NewTable>,
) -> Response {
    let Some(kind) = GameKind::from_name(&body.game) else {
        return refuse(
            StatusCode::BAD_REQUEST,
            "unknown game (games: othello, shell, battleship)",
        );
    };
    let control = match body.clock.as_deref() {
        None | Some("") => TimeControl::Unlimited,
        Some(text) => match parse_clock(text) {
            Ok(control) => control,
            Err(message) => return refuse(StatusCode::BAD_REQUEST, &message),
        },
    };
    let opponent = match body.opponent.as_deref() {
        None => None,
        Some(name) => match shared.engines.get(name) {
            Some(spec) => Some(spec.clone()),
            None => {
                let names = shared.engines.names().join(", ");
                return refuse(
                    StatusCode::BAD_REQUEST,
                    &format!("no engine {name:?} on this server (engines: {names})"),
                );
            }
        },
    };
    let engine_slot = match opponent {
        Some(_) => match Arc::clone(&shared.engine_slots).try_acquire_owned() {
            Ok(permit) => Some(permit),
            Err(_) => {
                return refuse(StatusCode::SERVICE_UNAVAILABLE, "too many engine seats");
            }
        },
        None => None,
    };
    let base = match &shared.base_url {
        Some(url) => url.clone(),
        None => {
            let host = headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .filter(|h| h.bytes().all(|b| b.is_ascii_graphic()) && !h.contains('/'));
            match host {
                Some(host) => format!("http://{host}"),
                None => return refuse(StatusCode::BAD_REQUEST, "no Host header"),
            }
        }
    };
    let created = (|| -> Result<(String, [String; 2], u64)> {
        Ok((
            token::table_id()?,
            [token::seat_token()?, token::seat_token()?],
            token::seed()?,
        ))
    })();
    let Ok((id, tokens, seed)) = created else {
        return refuse(StatusCode::INTERNAL_SERVER_ERROR, "no randomness available");
    };
    let now = Instant::now();
    let table = Arc::new(Table {
        id: id.clone(),
        tokens: tokens.clone(),
        state: Mutex::new(TableState {
            room: Room::new(kind, control, seed),
            ticked: now,
            active: now,
            outboxes: [Vec::new(), Vec::new()],
            engine: opponent.as_ref().map(|_| Color::White),
        }),
    });
    {
        let mut tables = lock(&shared.tables);
        if tables.len() >= shared.limits.max_tables {
            return refuse(StatusCode::SERVICE_UNAVAILABLE, "too many tables open");
        }
        tables.insert(id.clone(), Arc::clone(&table));
        let mut seats = lock(&shared.seats);
        for (token, color) in tokens.iter().zip(Color::ALL) {
            seats.insert(token.clone(), (Arc::clone(&table), color));
        }
    }
    log::info!("table {id} opened: {}", kind.name());
    let link = |token: &str| format!("{base}/#seat={token}");
    if let (Some(spec), Some(slot)) = (opponent, engine_slot) {
        let name = spec.name.clone();
        if let Err(e) = seat_engine(&shared, &table, spec, slot) {
            log::warn!("table {id}: no thread for the engine: {e}");
            return refuse(StatusCode::SERVICE_UNAVAILABLE, "cannot seat the engine");
        }
        return axum::Json(serde_json::json!({
            "table": id,
            "game": kind.name(),
            "host": link(&tokens[0]),
            "opponent": name,
        }))
        .into_response();
    }
    axum::Json(serde_json::json!({
        "table": id,
        "game": kind.name(),
        "host": link(&tokens[0]),
        "invite": link(&tokens[1]),
    }))
    .into_response()
}

async fn seat_socket(
    State(shared): State<Arc<Shared>>,
    Query(query): Query<HashMap<String, String>>,
    upgrade: WebSocketUpgrade,
) -> Response {
    // Unknown, malformed and missing tokens get one and the same answer.
    let seat = query
        .get("token")
        .filter(|t| token::looks_like_token(t))
        .and_then(|t| lock(&shared.seats).get(t.as_str()).cloned());
    let Some((table, color)) = seat else {
        return (StatusCode::NOT_FOUND, "no such seat").into_response();
    };
    let Ok(permit) = Arc::clone(&shared.connections).try_acquire_owned() else {
        return (StatusCode::SERVICE_UNAVAILABLE, "too many connections").into_response();
    };
    let max = shared.limits.max_message;
    // Messages are small: a read buffer of 128 KiB (the default) per connection
    // would be most of the server's memory.
    upgrade
        .read_buffer_size(2 * max)
        .max_message_size(max)
        .max_frame_size(max)
        .on_upgrade(move |socket| play_seat(shared, socket, table, color, permit))
}

/// A token bucket: `burst` commands at once, refilled at `per_second`.
struct RateLimit {
    tokens: f64,
    burst: f64,
    per_second: f64,
    last: Instant,
}

impl RateLimit {
    fn allow(&mut self, now: Instant) -> bool {
        let refill = now.saturating_duration_since(self.last).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

fn presence(state: &mut TableState, color: Color, word: &str) {
    let line = format!("event {word} {}", color.name());
    send_seat(state, color.opponent(), &line);
}

/// Registers connection `id` of `color` with its queue: answers its greeting (the
/// seat, the game so far, the other seat's presence). The greeting is gathered and
/// the connection registered under one lock, so no event falls between them; it is
/// sent directly, whatever its length.
fn attach(table: &Table, color: Color, id: u64, outbox: Outbox) -> Vec<String> {
    let mut state = lock(&table.state);
    state.active = Instant::now();
    let first = state.outboxes[color.index()].is_empty();
    let mut greeting = vec![format!(
        "event seat {} {}",
        color.name(),
        state.room.kind().name()
    )];
    greeting.extend(
        state
            .room
            .history(color)
            .iter()
            .map(|e| format!("event {e}")),
    );
    if !state.outboxes[color.opponent().index()].is_empty() {
        greeting.push(format!("event present {}", color.opponent().name()));
    }
    state.outboxes[color.index()].push((id, outbox));
    if first {
        presence(&mut state, color, "present");
    }
    greeting
}

async fn play_seat(
    shared: Arc<Shared>,
    mut socket: WebSocket,
    table: Arc<Table>,
    color: Color,
    _permit: OwnedSemaphorePermit,
) {
    let id = connection_id(&shared);
    let (outbox, mut inbox) = mpsc::channel::<String>(shared.limits.queue);
    let greeting = attach(&table, color, id, outbox.clone());
    for line in greeting {
        if socket.send(Message::Text(line.into())).await.is_err() {
            forget(&table, color, id);
            return;
        }
    }
    log::debug!("table {}: {} connected", table.id, color.name());
    let mut rate = RateLimit {
        tokens: f64::from(shared.limits.burst),
        burst: f64::from(shared.limits.burst),
        per_second: f64::from(shared.limits.per_second),
        last: Instant::now(),
    };
    let mut refused_in_a_row = 0u32;
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => Some(text.to_string()),
                    Some(Ok(Message::Binary(_))) => None,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                };
                let now = Instant::now();
                let answer = if rate.allow(now) {
                    refused_in_a_row = 0;
                    handle_line(&table, color, text.as_deref(), id, now)
                } else {
                    refused_in_a_row += 1;
                    Some(frame(Err("too many commands: slow down".to_string())))
                };
                if refused_in_a_row > 200 {
                    break;
                }
                if let Some(answer) = answer {
                    // The answer goes through the same queue as the events, after
                    // the events the command caused were queued.
                    if outbox.try_send(answer).is_err() {
                        break;
                    }
                }
            }
            outgoing = inbox.recv() => {
                let Some(line) = outgoing else { break };
                // The frames queued together (an answer and its events) go out in one
                // write.
                let mut sent = socket.feed(Message::Text(line.into())).await;
                while sent.is_ok() {
                    let Ok(line) = inbox.try_recv() else { break };
                    sent = socket.feed(Message::Text(line.into())).await;
                }
                if sent.is_err() || socket.flush().await.is_err() {
                    break;
                }
            }
        }
    }
    forget(&table, color, id);
    log::debug!("table {}: {} disconnected", table.id, color.name());
}

/// Removes `color`'s connection `id` from the table, telling the other seat when it
/// was the last one of its seat.
fn forget(table: &Table, color: Color, id: u64) {
    let mut state = lock(&table.state);
    state.outboxes[color.index()].retain(|(other, _)| *other != id);
    state.active = Instant::now();
    if state.outboxes[color.index()].is_empty() {
        presence(&mut state, color, "absent");
    }
}

/// An answer as one frame: GTP framing without the response's closing empty line.
fn frame(answer: Result<String, String>) -> String {
    let response = match answer {
        Ok(text) => GtpResponse::success(None, text),
        Err(message) => GtpResponse::failure(None, message),
    };
    response.to_string().trim_end_matches('\n').to_string()
}

/// Handles one command line of `color`'s connection `id`: the answer (queued by the
/// caller) and the events (queued here, to every connection they are for).
fn handle_line(
    table: &Table,
    color: Color,
    text: Option<&str>,
    id: u64,
    now: Instant,
) -> Option<String> {
    let mut state = lock(&table.state);
    state.active = now;
    tick(&mut state, now);
    let Reply { answer, events } = match text {
        Some(text) => state.room.handle(color, text),
        None => Reply {
            answer: Err("send text frames, one command each".to_string()),
            events: Vec::new(),
        },
    };
    // The answer first to the acting connection, then the events to everyone: a
    // client reads the answer to its command before what followed from it.
    let framed = frame(answer);
    let mine = state.outboxes[color.index()]
        .iter()
        .find(|(other, _)| *other == id)
        .map(|(_, outbox)| outbox.clone());
    match mine {
        Some(outbox) => {
            if outbox.try_send(framed).is_err() {
                return None;
            }
            deliver(&mut state, &events);
            None
        }
        None => {
            deliver(&mut state, &events);
            Some(framed)
        }
    }
}

fn connection_id(shared: &Shared) -> u64 {
    let mut next = lock(&shared.next_connection);
    *next += 1;
    *next
}

/// An engine's seat: a connection inside the server, read by the engine's thread.
struct EngineSeat {
    table: Arc<Table>,
    color: Color,
    id: u64,
    inbox: mpsc::Receiver<String>,
    /// Frames of the greeting, then events read while waiting for an answer.
    pending: std::collections::VecDeque<String>,
}

impl engine::Link for EngineSeat {
    fn command(&mut self, line: &str) -> Result<String, String> {
        // The answer is queued to this connection before the events it caused.
        handle_line(&self.table, self.color, Some(line), self.id, Instant::now());
        while let Some(frame) = self.inbox.blocking_recv() {
            if frame.starts_with("event ") {
                self.pending.push_back(frame);
            } else if let Some(text) = frame.strip_prefix('=') {
                return Ok(text.strip_prefix(' ').unwrap_or(text).to_string());
            } else {
                return Err(frame.trim_start_matches('?').trim_start().to_string());
            }
        }
        Err("the table is gone".to_string())
    }

    fn event(&mut self) -> Option<String> {
        loop {
            let frame = match self.pending.pop_front() {
                Some(frame) => frame,
                None => self.inbox.blocking_recv()?,
            };
            if let Some(event) = frame.strip_prefix("event ") {
                return Some(event.to_string());
            }
        }
    }

    fn forfeit(&mut self, reason: &str) {
        let mut state = lock(&self.table.state);
        tick(&mut state, Instant::now());
        let events = state.room.forfeit(self.color, reason);
        deliver(&mut state, &events);
    }
}

/// Seats the engine `spec` as white at `table`, on a thread of its own that holds
/// `slot` until the table is gone.
fn seat_engine(
    shared: &Shared,
    table: &Arc<Table>,
    spec: crate::arena::engine::EngineSpec,
    slot: OwnedSemaphorePermit,
) -> std::io::Result<()> {
    let color = Color::White;
    let id = connection_id(shared);
    // A queue like a connection's: the engine's thread reads it between moves, and
    // the other seat cannot cause many events while it thinks.
    let (outbox, inbox) = mpsc::channel::<String>(shared.limits.queue);
    let greeting = attach(table, color, id, outbox);
    let mut seat = EngineSeat {
        table: Arc::clone(table),
        color,
        id,
        inbox,
        pending: greeting.into(),
    };
    let kind = lock(&table.state).room.kind();
    let tag = format!("engine {} at table {}", spec.name, table.id);
    std::thread::Builder::new()
        .name(format!("engine {}", spec.name))
        .spawn(move || {
            log::info!("{tag}: seated");
            engine::play(&mut seat, &spec, kind, color);
            forget(&seat.table, color, id);
            drop(slot);
            log::info!("{tag}: left");
        })
        .map(|_| ())
}
