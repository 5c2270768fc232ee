//! The HTTP side of `tabula serve`: routes, seats' WebSockets, clocks and limits.
//!
//! Routes: `GET /` (the page), `POST /api/tables` (open a table), `GET /ws?token=T`
//! (a seat's WebSocket), `GET /api/tables/{id}/record?token=T` (the finished games'
//! records). Every table is a [`Room`] behind a mutex with the senders of the
//! connections of each seat; a command is handled with the room locked, and its
//! answer and events are queued for delivery before the lock is released, so every
//! seat sees the table's events in one order.
//!
//! With a database ([`Store`]), a command that changed the table is written to the
//! table's log before anything it caused is sent: its answer and events wait in the
//! table's queue of deliveries until the writer reports the entry on disk, and so
//! does everything queued behind them (the answer to a later `status` included).
//! Nothing awaits the disk on the runtime's threads: the writer thread delivers.
//!
//! Limits that keep one client from hurting the others: a bounded request body and
//! WebSocket message, a per-connection rate limit, bounded outgoing queues (a
//! connection that does not read is dropped), a cap on tables and connections, and
//! tables that nobody is at expire after an idle time. Tokens are never logged.

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::SinkExt;
use serde::Deserialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

use super::engine::{self, Engines};
use super::room::{Event, Finished, Reply, Room, parse_clock};
use super::store::{Entry, Opening, Store, Stored, token_hash};
use super::token;
use crate::arena::record::{self, Record};
use crate::arena::referee::Termination;
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

/// What a command or a clock caused, sent once the log entry numbered `after` is
/// on disk (at once without a database).
struct Delivery {
    after: u64,
    /// The answer and the connection it is for.
    answer: Option<(u64, String)>,
    events: Vec<Event>,
}

struct TableState {
    room: Room,
    /// When the clocks were last brought up to date.
    ticked: Instant,
    /// The milliseconds given to the room since the last log entry.
    unlogged_ms: u64,
    /// The number of the last log entry, and of the last one on disk.
    logged: u64,
    durable: u64,
    /// Deliveries waiting for their entry to be on disk, in order.
    pending: VecDeque<Delivery>,
    /// The last command or connection.
    active: Instant,
    /// The connections of each seat (by colour index), with an id each.
    outboxes: [Vec<(u64, Outbox)>; 2],
    /// The seat an engine plays, whose connection does not keep the table alive.
    engine: Option<Color>,
}

struct Table {
    id: String,
    /// The hashes of the seats' tokens, black's first.
    token_hashes: [String; 2],
    /// The clock as opened (`300+5`, empty when untimed), the generator's seed, and
    /// when the table was opened (seconds since the Unix epoch): for the records.
    clock: String,
    seed: u64,
    opened: u64,
    /// Whether the table is in the database (`--db`, and no engine seat: an engine's
    /// process cannot be brought back after a restart).
    kept: bool,
    state: Mutex<TableState>,
}

/// The database `table` is kept in, if any.
fn store_for<'a>(shared: &'a Shared, table: &Table) -> Option<&'a Store> {
    shared.store.as_ref().filter(|_| table.kept)
}

struct Shared {
    tables: Mutex<HashMap<String, Arc<Table>>>,
    /// The seats by the hash of their token.
    seats: Mutex<HashMap<String, (Arc<Table>, Color)>>,
    connections: Arc<Semaphore>,
    next_connection: Mutex<u64>,
    base_url: Option<String>,
    limits: Limits,
    store: Option<Store>,
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

/// Sends the deliveries whose log entries are on disk, in order.
fn flush(state: &mut TableState) {
    while state
        .pending
        .front()
        .is_some_and(|delivery| delivery.after <= state.durable)
    {
        let Some(delivery) = state.pending.pop_front() else {
            break;
        };
        if let Some((id, answer)) = delivery.answer {
            // A connection that cannot take its answer is not reading: dropped.
            for seat in &mut state.outboxes {
                seat.retain(|(other, outbox)| {
                    *other != id || outbox.try_send(answer.clone()).is_ok()
                });
            }
        }
        deliver(state, &delivery.events);
    }
}

/// Queues what a command or a clock caused behind everything queued before it.
fn queue(state: &mut TableState, answer: Option<(u64, String)>, events: Vec<Event>) {
    if answer.is_none() && events.is_empty() {
        return;
    }
    state.pending.push_back(Delivery {
        after: state.logged,
        answer,
        events,
    });
    flush(state);
}

/// Appends a change to the table's log: `command`, or time alone. Without a database
/// it counts as on disk at once.
fn log_change(
    store: Option<&Store>,
    table: &Arc<Table>,
    state: &mut TableState,
    command: Option<(Color, String)>,
) {
    state.logged += 1;
    let entry = Entry {
        elapsed_ms: std::mem::take(&mut state.unlogged_ms),
        command,
    };
    let Some(store) = store else {
        state.durable = state.logged;
        return;
    };
    let seq = state.logged;
    let written = Arc::clone(table);
    store.append(
        &table.id,
        seq,
        entry,
        Box::new(move || {
            let mut state = lock(&written.state);
            state.durable = state.durable.max(seq);
            flush(&mut state);
        }),
    );
}

/// Brings the clocks up to date; a flag that fell is logged and told.
fn tick(store: Option<&Store>, table: &Arc<Table>, state: &mut TableState, now: Instant) {
    let elapsed = now.saturating_duration_since(state.ticked);
    state.ticked = now;
    let ms = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
    state.unlogged_ms = state.unlogged_ms.saturating_add(ms);
    let events = state.room.elapse(ms);
    if !events.is_empty() {
        log_change(store, table, state, None);
        queue(state, None, events);
    }
}

/// How often a running clock's reading is saved when nothing else is: after a
/// restart, a clock goes on from its last saved reading.
const CLOCK_SAVE: u64 = 10_000;

/// The tables of a database, rebuilt by replaying their logs through [`Room`].
fn restore(stored: Vec<Stored>, now: Instant) -> Vec<Arc<Table>> {
    let mut tables = Vec::new();
    for Stored { opening, log } in stored {
        let Some(kind) = GameKind::from_name(&opening.game) else {
            log::warn!(
                "table {}: unknown game {:?}, skipped",
                opening.id,
                opening.game
            );
            continue;
        };
        let control = match opening.clock.as_str() {
            "" => Ok(TimeControl::Unlimited),
            text => parse_clock(text),
        };
        let (Ok(control), Ok(seed)) = (control, token::seed()) else {
            log::warn!("table {}: cannot be rebuilt, skipped", opening.id);
            continue;
        };
        // A new seed for the generator: fleets placed at random were stored as placed,
        // and the next ones should not repeat them.
        let mut room = Room::new(kind, control, seed);
        for (n, entry) in log.iter().enumerate() {
            room.elapse(entry.elapsed_ms);
            if let Some((seat, line)) = &entry.command
                && room.handle(*seat, line).change.is_none()
            {
                log::warn!("table {}: log entry {} changed nothing", opening.id, n + 1);
            }
        }
        let logged = u64::try_from(log.len()).unwrap_or(u64::MAX);
        tables.push(Arc::new(Table {
            id: opening.id,
            token_hashes: opening.token_hashes,
            clock: opening.clock,
            seed: opening.seed,
            opened: opening.opened,
            kept: true,
            state: Mutex::new(TableState {
                room,
                ticked: now,
                unlogged_ms: 0,
                logged,
                durable: logged,
                pending: VecDeque::new(),
                active: now,
                outboxes: [Vec::new(), Vec::new()],
                engine: None,
            }),
        }));
    }
    tables
}

/// Binds `listen`, prints `listening on http://ADDR` on stdout, and serves, keeping
/// tables in memory only.
///
/// # Errors
/// The address cannot be bound or the server fails.
pub async fn serve(
    listen: &str,
    base_url: Option<String>,
    limits: Limits,
    engines: Engines,
) -> Result<()> {
    serve_with(listen, base_url, limits, engines, None).await
}

/// [`serve`], with every table kept in the SQLite database at `db` when given: the
/// tables in it are back before the address is printed.
///
/// # Errors
/// The database cannot be opened, the address cannot be bound, or the server fails.
pub async fn serve_with(
    listen: &str,
    base_url: Option<String>,
    limits: Limits,
    engines: Engines,
    db: Option<&str>,
) -> Result<()> {
    let (store, stored) = match db {
        Some(path) => {
            let (store, stored) = Store::open(path)?;
            (Some(store), stored)
        }
        None => (None, Vec::new()),
    };
    let restored = restore(stored, Instant::now());
    let mut tables = HashMap::new();
    let mut seats = HashMap::new();
    for table in restored {
        for (hash, color) in table.token_hashes.iter().zip(Color::ALL) {
            seats.insert(hash.clone(), (Arc::clone(&table), color));
        }
        tables.insert(table.id.clone(), table);
    }
    if let Some(path) = db {
        log::info!("{} tables restored from {path}", tables.len());
    }
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .with_context(|| format!("listening on {listen}"))?;
    let address: SocketAddr = listener.local_addr().context("the bound address")?;
    println!("listening on http://{address}");
    log::info!("listening on http://{address}");
    let shared = Arc::new(Shared {
        tables: Mutex::new(tables),
        seats: Mutex::new(seats),
        connections: Arc::new(Semaphore::new(limits.max_connections)),
        next_connection: Mutex::new(0),
        base_url: base_url.map(|url| url.trim_end_matches('/').to_string()),
        engine_slots: Arc::new(Semaphore::new(limits.max_engines)),
        limits,
        store,
        engines,
    });
    tokio::spawn(clock_loop(Arc::clone(&shared)));
    let app = Router::new()
        .route("/", get(page))
        .route("/api/tables", post(open_table))
        .route("/api/tables/{id}/record", get(records))
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
            let store = store_for(&shared, &table);
            let mut state = lock(&table.state);
            if state.room.clock_running() {
                tick(store, &table, &mut state, now);
                if store.is_some() && state.unlogged_ms >= CLOCK_SAVE {
                    log_change(store, &table, &mut state, None);
                }
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
                for hash in &table.token_hashes {
                    seats.remove(hash);
                }
                if let Some(store) = store_for(&shared, &table) {
                    store.drop_table(&table.id);
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
    if lock(&shared.tables).len() >= shared.limits.max_tables {
        return refuse(StatusCode::SERVICE_UNAVAILABLE, "too many tables open");
    }
    let opened = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let token_hashes = tokens.clone().map(|token| token_hash(&token));
    let clock = body.clock.clone().unwrap_or_default();
    let kept = shared.store.is_some() && opponent.is_none();
    if let Some(store) = shared.store.as_ref().filter(|_| kept) {
        // The links are answered only once the table is on disk.
        let (written, on_disk) = tokio::sync::oneshot::channel();
        let opening = Opening {
            id: id.clone(),
            game: kind.name().to_string(),
            clock: clock.clone(),
            seed,
            opened,
            token_hashes: token_hashes.clone(),
        };
        store.open_table(
            opening,
            Box::new(move || {
                let _ = written.send(());
            }),
        );
        if on_disk.await.is_err() {
            return refuse(StatusCode::INTERNAL_SERVER_ERROR, "the table was not saved");
        }
    }
    let now = Instant::now();
    let table = Arc::new(Table {
        id: id.clone(),
        token_hashes,
        clock,
        seed,
        opened,
        kept,
        state: Mutex::new(TableState {
            room: Room::new(kind, control, seed),
            ticked: now,
            unlogged_ms: 0,
            logged: 0,
            durable: 0,
            pending: VecDeque::new(),
            active: now,
            outboxes: [Vec::new(), Vec::new()],
            engine: opponent.as_ref().map(|_| Color::White),
        }),
    });
    {
        let mut tables = lock(&shared.tables);
        tables.insert(id.clone(), Arc::clone(&table));
        let mut seats = lock(&shared.seats);
        for (hash, color) in table.token_hashes.iter().zip(Color::ALL) {
            seats.insert(hash.clone(), (Arc::clone(&table), color));
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

/// The seat whose token is the query's `token`. Unknown, malformed and missing
/// tokens are all `None`.
fn find_seat(shared: &Shared, query: &HashMap<String, String>) -> Option<(Arc<Table>, Color)> {
    let token = query.get("token").filter(|t| token::looks_like_token(t))?;
    lock(&shared.seats).get(&token_hash(token)).cloned()
}

fn no_such_seat() -> Response {
    (StatusCode::NOT_FOUND, "no such seat").into_response()
}

async fn seat_socket(
    State(shared): State<Arc<Shared>>,
    Query(query): Query<HashMap<String, String>>,
    upgrade: WebSocketUpgrade,
) -> Response {
    // Unknown, malformed and missing tokens get one and the same answer.
    let Some((table, color)) = find_seat(&shared, &query) else {
        return no_such_seat();
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
        "event seat {} {} {}",
        color.name(),
        state.room.kind().name(),
        table.id
    )];
    // Events still waiting for the disk are left out: they follow once written.
    let waiting = state
        .pending
        .iter()
        .flat_map(|delivery| &delivery.events)
        .filter(|event| event.to.includes(color))
        .count();
    let history = state.room.history(color);
    greeting.extend(
        history[..history.len().saturating_sub(waiting)]
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
                if rate.allow(now) {
                    refused_in_a_row = 0;
                    handle_line(&shared, &table, color, text.as_deref(), id, now);
                } else {
                    refused_in_a_row += 1;
                    // Behind the answers still waiting, so that answers keep the
                    // order of the commands.
                    let refusal = frame(Err("too many commands: slow down".to_string()));
                    queue(&mut lock(&table.state), Some((id, refusal)), Vec::new());
                }
                if refused_in_a_row > 200 {
                    break;
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

/// Handles one command line of `color`'s connection `id`: a change is logged, and
/// the answer (to that connection) and the events (to every connection they are
/// for) are queued behind it.
fn handle_line(
    shared: &Shared,
    table: &Arc<Table>,
    color: Color,
    text: Option<&str>,
    id: u64,
    now: Instant,
) {
    let store = store_for(shared, table);
    let mut state = lock(&table.state);
    state.active = now;
    tick(store, table, &mut state, now);
    let Reply {
        answer,
        events,
        change,
    } = match text {
        Some(text) => state.room.handle(color, text),
        None => Reply::refused("send text frames, one command each"),
    };
    if let Some(line) = change {
        log_change(store, table, &mut state, Some((color, line)));
    }
    // The answer first to the acting connection, then the events to everyone: a
    // client reads the answer to its command before what followed from it.
    queue(&mut state, Some((id, frame(answer))), events);
}

/// PGN's `TimeControl` of a table's clock: `-`, `S` or `S+I`.
fn pgn_time_control(control: TimeControl) -> String {
    match control {
        TimeControl::Unlimited => "-".to_string(),
        TimeControl::Timed {
            main_ms,
            increment_ms,
        } => {
            #[allow(clippy::cast_precision_loss)]
            let seconds = |ms: u64| ms as f64 / 1000.0;
            if increment_ms == 0 {
                format!("{}", seconds(main_ms))
            } else {
                format!("{}+{}", seconds(main_ms), seconds(increment_ms))
            }
        }
    }
}

/// A finished game of `table` as the arena's record: the host plays black, the
/// guest white; `Round` and `Number` are the game's number at the table, `Date` the
/// day the table was opened, `Seed` the table's.
fn to_record(
    table: &Table,
    kind: GameKind,
    opening: &str,
    game: &Finished,
    games: usize,
) -> Record {
    let control = match table.clock.as_str() {
        "" => TimeControl::Unlimited,
        text => parse_clock(text).unwrap_or(TimeControl::Unlimited),
    };
    let number = usize::try_from(game.number).unwrap_or(usize::MAX);
    Record {
        event: "tabula serve".into(),
        game: kind.name().to_string(),
        number,
        round: number.saturating_sub(1),
        date: record::date(std::time::UNIX_EPOCH + Duration::from_secs(table.opened)),
        seed: table.seed,
        time_controls: [pgn_time_control(control), pgn_time_control(control)],
        black: "host".to_string(),
        white: "guest".to_string(),
        outcome: game.outcome,
        termination: if game.on_time {
            Termination::TimeForfeit
        } else {
            Termination::Normal
        },
        reason: game.detail.clone(),
        opening: opening.to_string(),
        moves: game.moves.clone(),
        fleets: game.fleets.clone(),
        match_seed: table.seed,
        match_games: games,
    }
}

/// `GET /api/tables/{id}/record?token=T[&format=pgn|ggf]`: the records of the
/// table's finished games, oldest first. The token must be one of the table's seats
/// (anything else is `no such seat`, as for the WebSocket). The game in progress is
/// not included: what it hides is still hidden.
async fn records(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let Some((table, _)) = find_seat(&shared, &query).filter(|(table, _)| table.id == id) else {
        return no_such_seat();
    };
    let (kind, opening, finished) = {
        let state = lock(&table.state);
        (
            state.room.kind(),
            state.room.opening(),
            state.room.finished().to_vec(),
        )
    };
    let records: Vec<Record> = finished
        .iter()
        .map(|game| to_record(&table, kind, &opening, game, finished.len()))
        .collect();
    let (text, extension, content_type) = match query.get("format").map(String::as_str) {
        None | Some("pgn") => (
            records.iter().map(Record::to_pgn).collect::<String>(),
            "pgn",
            "application/x-chess-pgn",
        ),
        Some("ggf") if kind == GameKind::Othello => (
            records
                .iter()
                .filter_map(Record::to_ggf)
                .map(|line| format!("{line}\n"))
                .collect::<String>(),
            "ggf",
            "text/plain; charset=utf-8",
        ),
        Some("ggf") => {
            return (StatusCode::BAD_REQUEST, "GGF records Othello games only").into_response();
        }
        Some(_) => {
            return (StatusCode::BAD_REQUEST, "format: pgn or ggf").into_response();
        }
    };
    let disposition = format!("attachment; filename=\"tabula-{}.{extension}\"", table.id);
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, "no-store".to_string()),
            (header::REFERRER_POLICY, "no-referrer".to_string()),
        ],
        text,
    )
        .into_response()
}

fn connection_id(shared: &Shared) -> u64 {
    let mut next = lock(&shared.next_connection);
    *next += 1;
    *next
}

/// An engine's seat: a connection inside the server, read by the engine's thread.
struct EngineSeat {
    shared: Arc<Shared>,
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
        handle_line(
            &self.shared,
            &self.table,
            self.color,
            Some(line),
            self.id,
            Instant::now(),
        );
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
        // An engine's table is not in the database: nothing to log.
        tick(None, &self.table, &mut state, Instant::now());
        let events = state.room.forfeit(self.color, reason);
        deliver(&mut state, &events);
    }
}

/// Seats the engine `spec` as white at `table`, on a thread of its own that holds
/// `slot` until the table is gone.
fn seat_engine(
    shared: &Arc<Shared>,
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
        shared: Arc::clone(shared),
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
