//! The `tabula` binary: the engine (no subcommand) and its tools, each a module here
//! holding its clap arguments and its entry point (`arena`, `bench`, `conformance`,
//! `train`); the work itself is the library's.
//!
//! Exit codes: 0 on success (a closed stdout counts as success), 1 on an error or
//! when a conformance case failed unexpectedly, 2 on bad command-line arguments
//! (clap's own).

use std::io::{self, BufReader};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use anyhow::{Context, Result, anyhow};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use tabula::ai::baseline::Player;
use tabula::games::GameKind;
use tabula::protocol::session::Options;
use tabula::protocol::{Command, Session, engine, nboard};

mod arena;
mod bench;
mod cluster;
mod conformance;
mod train;
mod values;

use values::named;

#[derive(Parser)]
#[command(
    name = "tabula",
    version,
    about = "A GTP-style engine for Othello, Battleship and What the Shell"
)]
struct Cli {
    /// The game the engine starts with (and the arena's, unless `arena --game` says).
    #[arg(long, default_value = "othello", ignore_case = true,
          value_parser = named(GameKind::ALL.map(GameKind::name), GameKind::from_name))]
    game: GameKind,
    /// Log level on stderr; RUST_LOG overrides it.
    #[arg(long, default_value = "warn", global = true, ignore_case = true,
          value_parser = named(LOG_LEVELS, |name| name.parse::<log::LevelFilter>().ok()))]
    log_level: log::LevelFilter,
    /// The engine's player: default (its own search), random, greedy, simple, windows,
    /// windows1 to windows7 (the threat-builders) or tactician
    /// (baselines); the same as `set_option player NAME` at the start.
    #[arg(long, default_value = "default", ignore_case = true,
          value_parser = named(Player::ALL.map(Player::name), Player::from_name))]
    player: Player,
    /// An engine option to set at the start, as `set_option NAME VALUE` would
    /// (repeatable): `--set eval=pattern --set depth=8`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// The engine's protocol: gtp, or nboard (the NBoard Othello GUI's).
    #[arg(long, value_enum, default_value_t = Protocol::Gtp)]
    protocol: Protocol,
    #[command(subcommand)]
    tool: Option<Tool>,
}

/// The log levels, as `log::LevelFilter` reads them.
const LOG_LEVELS: [&str; 6] = ["off", "error", "warn", "info", "debug", "trace"];

/// The protocols the engine speaks on stdin and stdout.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Protocol {
    /// The GTP 2 style protocol of `protocol/`.
    Gtp,
    /// NBoard's engine protocol (Othello only).
    Nboard,
}

#[derive(Subcommand)]
enum Tool {
    /// Benchmarks: perft speed and more.
    Bench(Box<bench::BenchArgs>),
    /// Runs the conformance suite (`.tst` files) against an engine command.
    Conformance(conformance::ConformanceArgs),
    /// The tournament manager: matches between engines, refereed move by move.
    Arena(Box<arena::ArenaArgs>),
    /// Runs a match on a Slurm cluster: its shards as one job array, then the merge.
    Cluster(cluster::ClusterArgs),
    /// Makes the Othello pattern weights: self-play data, then a least-squares fit.
    Train(train::TrainArgs),
    /// Serves tables two people (or programs) play by a link, over HTTP and WebSocket.
    Serve(tabula::serve::ServeArgs),
}

/// The `--set NAME=VALUE` options as (lowercase name, value) pairs.
fn option_pairs(options: &[String]) -> Result<Vec<(String, String)>> {
    options
        .iter()
        .map(|option| {
            let (name, value) = option
                .split_once('=')
                .ok_or_else(|| anyhow!("--set {option}: expected NAME=VALUE"))?;
            Ok((name.trim().to_ascii_lowercase(), value.trim().to_string()))
        })
        .collect()
}

fn run(cli: Cli) -> Result<ExitCode> {
    let kind = cli.game;
    match cli.tool {
        None if cli.protocol == Protocol::Nboard => {
            if kind != GameKind::Othello {
                return Err(anyhow!("--protocol nboard plays othello only"));
            }
            let mut options = Options {
                seed: tabula::rng::system_seed(),
                ..Options::default()
            };
            for (name, value) in option_pairs(&cli.options)? {
                options
                    .set(&name, &value)
                    .map_err(|refusal| anyhow!("--set: {refusal}"))?;
            }
            let stdin = BufReader::new(io::stdin());
            nboard::run(stdin, io::stdout(), options).context("engine input/output")?;
            Ok(ExitCode::SUCCESS)
        }
        None => {
            let mut session = Session::new(kind);
            let mut options = vec![("player".to_string(), cli.player.name().to_string())];
            options.extend(option_pairs(&cli.options)?);
            for (name, value) in options {
                let flag = if name == "player" {
                    "--player"
                } else {
                    "--set"
                };
                let option = Command::SetOption { name, value };
                session
                    .handle(&option, &AtomicBool::new(false))
                    .map_err(|refusal| anyhow!("{flag}: {refusal}"))?;
            }
            let stdin = BufReader::new(io::stdin());
            engine::run(stdin, io::stdout(), session).context("engine input/output")?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Tool::Bench(args)) => bench::run(&args).map(|()| ExitCode::SUCCESS),
        Some(Tool::Conformance(args)) => conformance::run(args),
        Some(Tool::Arena(args)) => arena::run(*args, kind).map(|()| ExitCode::SUCCESS),
        Some(Tool::Train(args)) => train::run(&args).map(|()| ExitCode::SUCCESS),
        Some(Tool::Cluster(args)) => cluster::run(&args).map(|()| ExitCode::SUCCESS),
        Some(Tool::Serve(args)) => tabula::serve::run(&args).map(|()| ExitCode::SUCCESS),
    }
}

fn main() -> ExitCode {
    let args = conformance::gogui_regress_spellings(std::env::args_os().collect());
    let matches = Cli::command().get_matches_from(args);
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    // The arena's `--engine` takes several words per occurrence: clap's derived field
    // holds them flattened, the matches by occurrence.
    if let Some(Tool::Arena(args)) = &mut cli.tool
        && let Some(("arena", arena)) = matches.subcommand()
    {
        args.group_engines(arena);
    }
    env_logger::Builder::new()
        .filter_level(cli.log_level)
        .parse_default_env()
        .target(env_logger::Target::Stderr)
        .init();
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("tabula: {error:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap's own consistency checks (duplicate argument names across the flattened
    /// bench options were a real bug).
    #[test]
    fn command_line_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
