//! `tabula bench`: figures for people, never assertions. Prints what it measured and
//! how, so a run can be reproduced and compared. One submodule per benchmark family;
//! `tabula bench WHAT` picks one.

mod battleship;
mod clock;
mod othello;

use tabula::ai::othello::eval::Evaluation;

use anyhow::Result;
use clap::{Args, ValueEnum};

use crate::values::{EVALUATIONS, named};
use tabula::games::othello::Position;

mod serve;
mod shell;
mod shell_exploit;

#[derive(Args)]
pub struct BenchArgs {
    /// What to measure.
    #[arg(value_enum, default_value_t = What::Perft)]
    what: What,
    /// Perft depth.
    #[arg(long, default_value_t = 11)]
    depth: u32,
    /// Battleship: how many fleets of each kind.
    #[arg(long, default_value_t = 1000)]
    fleets: usize,
    /// Battleship: the hunters to play on the same fleets, comma-separated
    /// (`default`, `rollout`, `learned`, `quick`, `simulated`, `finish`, or
    /// `finish@P` for the finisher with probe credit P); each after the first is
    /// compared with the first.
    #[arg(long, default_value = "default")]
    hunters: String,
    /// Battleship: each shot's time limit in milliseconds (0: none).
    #[arg(long, default_value_t = 0)]
    move_ms: u64,
    /// Battleship: play the uniform fleets only (not the placer's).
    #[arg(long)]
    uniform_only: bool,
    /// Battleship: also play each placement style's fleets with the first hunter,
    /// with the uniform and the adaptive prior.
    #[arg(long)]
    styles: bool,
    /// Battleship learned hunter: candidate shots scored.
    #[arg(long, default_value_t = 4)]
    learned_candidates: usize,
    /// Battleship learned hunter: misses by which a candidate must beat the hunter's
    /// own shot.
    #[arg(long, default_value_t = 0.2)]
    learned_margin: f64,
    /// Battleship rollout hunter: candidate shots scored.
    #[arg(long, default_value_t = 4)]
    rollout_candidates: usize,
    /// Battleship rollout hunter: fleets drawn per shot.
    #[arg(long, default_value_t = 48)]
    rollout_fleets: usize,
    /// Battleship rollout hunter: chain sweeps gathered per simulated shot.
    #[arg(long, default_value_t = 20)]
    rollout_sweeps: usize,
    /// Battleship rollout hunter: standard errors by which a candidate must beat the
    /// hunter's own shot.
    #[arg(long, default_value_t = 1.0)]
    rollout_margin: f64,
    /// Battleship quick rollout hunter: candidate shots scored.
    #[arg(long, default_value_t = 4)]
    quick_candidates: usize,
    /// Battleship quick rollout hunter: fleets drawn per shot.
    #[arg(long, default_value_t = 60)]
    quick_fleets: usize,
    /// Battleship quick rollout hunter: standard errors by which a candidate must beat
    /// the hunter's own shot.
    #[arg(long, default_value_t = 1.0)]
    quick_margin: f64,
    /// Battleship quick rollout hunter: how its simulated hunter weighs placements
    /// (`alone`: each ship on its own; `room`: by the room left to the other ships).
    #[arg(long, default_value = "alone", value_parser = parse_quick_model)]
    quick_model: tabula::ai::battleship::quick::Model,
    /// Battleship quick rollout hunter: further fleets from the belief as particles,
    /// its simulated hunter firing by those that agree with each rollout (0: none).
    #[arg(long, default_value_t = 0)]
    quick_particles: usize,
    /// Battleship finisher: the credit for a miss outside the wounded ship's ring, in
    /// misses to come per open water cell.
    #[arg(long, default_value_t = 2.0)]
    finish_probe: f64,
    /// Battleship finisher: fleets drawn from the belief to weigh the wounded ship's
    /// placements.
    #[arg(long, default_value_t = 500)]
    finish_draws: usize,
    /// Battleship and shell: the seed of every random choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Battleship: games played in parallel (each shot timed on its own thread);
    /// shell: root-parallel search trees; othello: search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    #[command(flatten)]
    shell: shell::ShellArgs,
    #[command(flatten)]
    clock: clock::ClockArgs,
    #[command(flatten)]
    serve: serve::ServeBenchArgs,
    /// `othello`: the perft depth to time (0 skips it).
    #[arg(long, default_value_t = 12)]
    perft: u32,
    /// `othello`: the problems to solve, `FIRST-LAST`, `N` or `all` (`none` skips
    /// them). The built-in FFO suite numbers its problems #40-#59 (default 40-49); an
    /// `--ffo-file` numbers them by their line in the file, from 1 (default all).
    #[arg(long)]
    ffo: Option<String>,
    /// `othello`: a file of endgame problems in place of the built-in FFO suite, one a
    /// line: a position, then `;` and its moves' exact scores (`A2:+38;`), best first.
    #[arg(long)]
    ffo_file: Option<String>,
    /// `othello`: the midgame search depth (0 skips it).
    #[arg(long, default_value_t = 9)]
    midgame: u32,
    /// `othello`: how many random endgames to solve (0 skips them).
    #[arg(long, default_value_t = 20)]
    endgames: u64,
    /// `othello`: the empties of the random endgames.
    #[arg(long, default_value_t = 20)]
    empties: u32,
    /// `othello`: transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: u32,
    /// `othello`: the midgame search's evaluation, hand (whose node count is the
    /// signature) or pattern (the player's default).
    #[arg(long, default_value = "hand", ignore_case = true,
          value_parser = named(EVALUATIONS, Evaluation::from_name))]
    eval: Evaluation,
}

/// The benchmark families.
#[derive(Clone, Copy, ValueEnum)]
enum What {
    /// Othello perft from the start position, depth by depth.
    Perft,
    /// Perft, the FFO endgame suite and midgame search speed.
    Othello,
    /// The hunter against uniform and placer fleets.
    Battleship,
    /// What the Shell playouts and the search player's results.
    Shell,
    /// How late `genmove` answers through the protocol, per game, move time and
    /// hash size.
    Clock,
    /// A `tabula serve` on loopback with N tables of bots playing whole games at once
    /// over WebSocket: games/s, moves/s, move latency, server memory.
    Serve,
}

pub fn run(args: &BenchArgs) -> Result<()> {
    if !matches!(args.what, What::Clock | What::Serve) {
        end_quietly_on_a_closed_pipe();
    }
    match args.what {
        What::Othello => othello::run(&othello::Plan {
            perft: args.perft,
            ffo: match args.ffo.as_deref() {
                Some("none") => None,
                Some("all") => Some(othello::Selection::All),
                Some(range) => Some(othello::parse_range(range)?),
                None if args.ffo_file.is_some() => Some(othello::Selection::All),
                None => Some(othello::Selection::Range(40, 49)),
            },
            ffo_file: args.ffo_file.as_deref(),
            midgame: args.midgame,
            endgames: args.endgames,
            empties: args.empties,
            hash_mib: args.hash,
            threads: u32::try_from(args.threads).unwrap_or(u32::MAX).max(1),
            evaluation: args.eval,
        }),
        What::Perft => {
            let board = Position::start().board();
            for depth in 1..=args.depth {
                let (leaves, seconds) = othello::timed_perft(board, depth);
                println!(
                    "perft {depth:>2} {leaves:>16} leaves {seconds:>9.3} s {:>8.1} M leaves/s",
                    leaves as f64 / seconds.max(1e-9) / 1e6
                );
            }
            Ok(())
        }
        What::Battleship => {
            let mut rollout = tabula::ai::battleship::rollout::Settings {
                candidates: args.rollout_candidates,
                fleets: args.rollout_fleets,
                margin: args.rollout_margin,
                ..Default::default()
            };
            rollout.effort.sweeps = args.rollout_sweeps;
            let hunters = args
                .hunters
                .split(',')
                .map(|name| {
                    let learned = tabula::ai::battleship::learned::Settings {
                        candidates: args.learned_candidates,
                        margin: args.learned_margin,
                    };
                    let quick = tabula::ai::battleship::quick::Settings {
                        candidates: args.quick_candidates,
                        fleets: args.quick_fleets,
                        margin: args.quick_margin,
                        model: args.quick_model,
                        particles: args.quick_particles,
                    };
                    let finish = tabula::ai::battleship::finish::Settings {
                        probe: args.finish_probe,
                        draws: args.finish_draws,
                    };
                    battleship::Hunter::named(name.trim(), rollout, learned, quick, finish)
                })
                .collect::<Result<Vec<_>>>()?;
            battleship::run(&battleship::Settings {
                fleets: args.fleets,
                seed: args.seed,
                threads: args.threads,
                hunters,
                move_ms: args.move_ms,
                placer: !args.uniform_only,
                styles: args.styles,
            })
        }
        What::Shell => {
            let mut shell = args.shell.clone();
            shell.seed = args.seed;
            shell.threads = u32::try_from(args.threads).unwrap_or(u32::MAX);
            shell::run(&shell)
        }
        What::Clock => clock::run(&args.clock),
        What::Serve => serve::run(&args.serve, args.seed),
    }
}

/// Mean and standard error of `values` (an infinite error for fewer than two).
pub(super) fn mean_se(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    if n < 2.0 {
        return (values.first().copied().unwrap_or(0.0), f64::INFINITY);
    }
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// The quick hunter's simulated-hunter model named `name`.
fn parse_quick_model(name: &str) -> Result<tabula::ai::battleship::quick::Model, String> {
    tabula::ai::battleship::quick::Model::from_name(name)
        .ok_or_else(|| format!("unknown model {name:?} (models: alone, room)"))
}

/// A report piped into `head` ends the bench as it ends `cat`: quietly, when the
/// reader closes the pipe. Rust starts programs with SIGPIPE ignored, and `println!`
/// then panics on the closed pipe instead. Only for the benches that write their
/// report alone: `clock` and `serve` drive child engines and sockets, whose closed
/// pipes they handle as errors.
fn end_quietly_on_a_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: `signal` with the default disposition and a valid signal number has
    // no memory effects; it runs before the bench starts any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
