//! `tabula bench serve`: a real `tabula serve` on loopback, N tables of bots playing
//! whole games over WebSocket at once; games/s, moves/s, the latency of a move, and
//! the server's memory and connections. The work is `tabula::serve::bench`.

use anyhow::{Context, Result, anyhow};
use clap::Args;
use tabula::serve::bench::{Games, Plan, run as bench};

#[derive(Args, Clone, Debug)]
pub struct ServeBenchArgs {
    /// Tables open and playing at once (serve).
    #[arg(long, default_value_t = 500)]
    tables: usize,
    /// The tables' games: othello, shell, battleship or mixed (serve; `--game` is the
    /// engine's and the arena's flag).
    #[arg(long, default_value = "mixed")]
    serve_games: String,
    /// Milliseconds each bot waits before a move, on average (serve; 0: as fast as the
    /// server answers).
    #[arg(long, default_value_t = 0)]
    think_ms: u64,
    /// Threads driving every bot's connection (serve).
    #[arg(long, default_value_t = 1)]
    client_threads: usize,
    /// Serve with `--db FILE` (serve): every move is on disk before its answer. The
    /// file must not be in use; it is left as the run leaves it.
    #[arg(long, value_name = "FILE")]
    db: Option<String>,
}

pub fn run(args: &ServeBenchArgs, seed: u64) -> Result<()> {
    let games = Games::from_name(&args.serve_games).ok_or_else(|| {
        anyhow!(
            "--serve-games {:?}: othello, shell, battleship or mixed",
            args.serve_games
        )
    })?;
    let program = std::env::current_exe().context("finding this program")?;
    let mut plan = Plan::new(program, args.tables, games);
    plan.think_ms = args.think_ms;
    plan.client_threads = args.client_threads;
    plan.seed = seed;
    if let Some(db) = &args.db {
        plan.server_args = vec!["--db".into(), db.clone()];
    }
    let report = bench(&plan)?;
    println!("{report}");
    if report.finished < report.tables {
        return Err(anyhow!(
            "{} of {} games did not finish",
            report.tables - report.finished,
            report.tables
        ));
    }
    Ok(())
}
