//! `tabula serve`: tables two people (or programs) play by a link, over HTTP and
//! WebSocket.
//!
//! - [`room`]: one table without networking: the game, who may do what, which seat
//!   is told what (hidden information is decided there).
//! - [`server`]: the HTTP routes, the seats' WebSockets, clocks ticking, idle tables
//!   expiring, limits.
//! - [`store`]: `--db FILE`, every table's log in SQLite, read back on start.
//! - [`engine`]: engine seats, an engine child process playing one colour.
//! - [`token`]: unguessable seat tokens from the operating system's generator.
//! - [`bench`]: `tabula bench serve`, bots playing whole games against a real server.
//!
//! The page at `/` is `page.html`, embedded in the binary. The protocol spoken over
//! a seat's WebSocket is `protocol/serve.md`; how to run the server is
//! `docs/serve.md`.

pub mod bench;
pub mod engine;
pub mod room;
pub mod server;
pub mod store;
pub mod token;

use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

/// The options of `tabula serve`.
#[derive(Args, Clone, Debug)]
pub struct ServeArgs {
    /// The address to listen on (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: String,
    /// The address the links start with (`https://example.org`); by default the
    /// request's Host header over http.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Minutes after which a table nobody is connected to and nobody acted at is
    /// dropped.
    #[arg(long, default_value_t = 60)]
    pub idle_minutes: u64,
    /// The most tables open at once.
    #[arg(long, default_value_t = 10_000)]
    pub max_tables: usize,
    /// The most WebSocket connections open at once.
    #[arg(long, default_value_t = 10_000)]
    pub max_connections: usize,
    /// Keep every table in this SQLite database (created if missing): a server
    /// started again on it has every table back. Without it, tables live in memory.
    #[arg(long, value_name = "FILE")]
    pub db: Option<String>,
    /// Commands a connection may send per second (and twice as many in a burst);
    /// beyond it a command is answered `? too many commands: slow down`.
    #[arg(long, default_value_t = 20)]
    pub commands_per_second: u32,
    /// An engine a table may seat as the host's opponent (`"opponent": NAME` when
    /// opening it): `NAME=COMMAND ARGS…`, repeatable. `tabula` (this program) is
    /// there unless given otherwise.
    #[arg(long = "engine", value_name = "NAME=CMD")]
    pub engines: Vec<String>,
    /// The most engine seats (child processes) at once.
    #[arg(long, default_value_t = 8)]
    pub max_engines: usize,
}

impl ServeArgs {
    fn limits(&self) -> server::Limits {
        server::Limits {
            idle: Duration::from_secs(self.idle_minutes.saturating_mul(60)),
            max_tables: self.max_tables,
            max_connections: self.max_connections,
            max_engines: self.max_engines,
            per_second: self.commands_per_second.max(1),
            burst: self.commands_per_second.max(1).saturating_mul(2),
            ..server::Limits::default()
        }
    }
}

/// Runs the server until the process is stopped.
///
/// # Errors
/// The address cannot be bound, or the runtime cannot start.
pub fn run(args: &ServeArgs) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    let engines = engine::Engines::configure(&args.engines)?;
    runtime.block_on(server::serve_with(
        &args.listen,
        args.url.clone(),
        args.limits(),
        engines,
        args.db.as_deref(),
    ))
}
