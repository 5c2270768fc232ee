//! `tabula serve`: tables two people (or programs) play by a link, over HTTP and
//! WebSocket.
//!
//! - [`room`]: one table without networking: the game, who may do what, which seat
//!   is told what (hidden information is decided there).
//! - [`server`]: the HTTP routes, the seats' WebSockets, clocks ticking, idle tables
//!   expiring, limits.
//! - [`store`]: `--db FILE`, every table's log in SQLite, read back on start.
//! - [`token`]: unguessable seat tokens from the operating system's generator.
//!
//! The page at `/` is `page.html`, embedded in the binary. The protocol spoken over
//! a seat's WebSocket is `protocol/serve.md`; how to run the server is
//! `docs/serve.md`.

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
}

impl ServeArgs {
    fn limits(&self) -> server::Limits {
        server::Limits {
            idle: Duration::from_secs(self.idle_minutes.saturating_mul(60)),
            max_tables: self.max_tables,
            max_connections: self.max_connections,
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
    runtime.block_on(server::serve_with(
        &args.listen,
        args.url.clone(),
        args.limits(),
        args.db.as_deref(),
    ))
}
