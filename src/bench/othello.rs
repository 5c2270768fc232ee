//! `tabula bench othello`: perft leaves per second from the start, the FFO endgame
//! suite solved exactly (time, nodes, nodes per second, move, score, match), random
//! endgames at 20 empties solved exactly (average time), and midgame nodes per
//! second at a fixed depth on a fixed position set with its node-count signature (a
//! one-thread figure); searches run on the bench's `--threads`. Figures for people;
//! nothing here asserts a time.

use std::time::Instant;

use anyhow::{Context, Result, bail};

use tabula::ai::Limits;
use tabula::ai::othello::eval::Evaluation;
use tabula::ai::othello::{Score, Settings, signature, solve};
use tabula::games::othello::{Board, Move, Position, perft};

/// What to run, from the command line.
pub struct Plan<'a> {
    /// Perft depth (0 = skip).
    pub perft: u32,
    /// FFO numbers, first and last (None = skip).
    pub ffo: Option<(u32, u32)>,
    pub ffo_file: &'a str,
    /// Midgame depth (0 = skip).
    pub midgame: u32,
    /// Random endgames to solve at `empties` empties (0 = skip).
    pub endgames: u64,
    pub empties: u32,
    pub hash_mib: u32,
    /// Search threads (the signature is a one-thread figure).
    pub threads: u32,
    /// The midgame search's evaluation (the signature is the hand-tuned one's).
    pub evaluation: Evaluation,
}

/// `FIRST-LAST` or `N`.
pub fn parse_range(text: &str) -> Result<(u32, u32)> {
    let (first, last) = text.split_once('-').unwrap_or((text, text));
    let first: u32 = first.trim().parse().context("--ffo FIRST-LAST")?;
    let last: u32 = last.trim().parse().context("--ffo FIRST-LAST")?;
    if first > last {
        bail!("--ffo {text}: the first number is after the last");
    }
    Ok((first, last))
}

/// One FFO problem: its position and the exact scores of its moves, best first.
struct Problem {
    number: u32,
    position: Position,
    scores: Vec<(String, i32)>,
}

fn read_problems(path: &str, first: u32, last: u32) -> Result<Vec<Problem>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let mut problems = Vec::new();
    for (number, line) in (40..).zip(text.lines().filter(|l| !l.trim().is_empty())) {
        if number < first || number > last {
            continue;
        }
        let (board, moves) = line.split_once(';').unwrap_or((line, ""));
        let position = Position::from_notation(board.trim())
            .map_err(|e| anyhow::anyhow!("FFO #{number}: {e}"))?;
        let mut scores = Vec::new();
        for item in moves.split(';') {
            if let Some((mv, score)) = item.trim().split_once(':')
                && let Ok(score) = score.trim().trim_start_matches('+').parse::<i32>()
            {
                scores.push((mv.trim().to_ascii_lowercase(), score));
            }
        }
        problems.push(Problem {
            number,
            position,
            scores,
        });
    }
    Ok(problems)
}

/// Perft of `board` to `depth` and the seconds it took.
pub fn timed_perft(board: Board, depth: u32) -> (u64, f64) {
    let started = Instant::now();
    let leaves = perft(board, depth);
    (leaves, started.elapsed().as_secs_f64())
}

fn bench_perft(depth: u32) {
    let board = Position::start().board();
    let (leaves, seconds) = timed_perft(board, depth);
    println!(
        "perft {depth}: {leaves} leaves in {seconds:.3} s, {:.1} M leaves/s",
        leaves as f64 / seconds.max(1e-9) / 1e6
    );
}

fn bench_ffo(plan: &Plan<'_>, first: u32, last: u32) -> Result<()> {
    let problems = read_problems(plan.ffo_file, first, last)?;
    let settings = Settings {
        hash_mib: plan.hash_mib,
        endgame_empties: 64,
        threads: plan.threads,
        ..Settings::default()
    };
    println!(
        "{:>4} {:>7} {:>10} {:>14} {:>14} {:>10} {:>5} {:>6} {:>6}  match",
        "ffo", "empties", "seconds", "nodes", "span", "M nodes/s", "move", "score", "known"
    );
    let (mut total_nodes, mut total_span, mut total_seconds, mut matched) = (0u64, 0u64, 0f64, 0);
    let cpu_before = tabula::cpu::process_seconds();
    for problem in &problems {
        let started = Instant::now();
        let Some(result) = solve(&problem.position, Limits::depth(64), &settings) else {
            println!("#{}: the game is over", problem.number);
            continue;
        };
        let seconds = started.elapsed().as_secs_f64();
        let known = problem.scores.first().map(|(_, s)| *s);
        let score = match result.score {
            Score::Exact(s) => s,
            Score::Estimate(_) => bail!("FFO #{}: no exact score", problem.number),
        };
        let mv = match result.best {
            Move::Place(square) => square.to_string(),
            Move::Pass => "pass".into(),
        };
        let move_ok = problem
            .scores
            .iter()
            .any(|(m, s)| *m == mv && Some(*s) == known);
        let ok = known == Some(score) && move_ok;
        matched += usize::from(ok);
        total_nodes += result.nodes;
        total_span += result.span;
        total_seconds += seconds;
        println!(
            "{:>4} {:>7} {:>10.3} {:>14} {:>14} {:>10.1} {:>5} {:>+6} {:>+6}  {}",
            problem.number,
            problem.position.board().empty().count_ones(),
            seconds,
            result.nodes,
            result.span,
            result.nodes as f64 / seconds.max(1e-9) / 1e6,
            mv,
            score,
            known.unwrap_or(0),
            if ok { "yes" } else { "NO" }
        );
    }
    let cpu = cpu_before
        .zip(tabula::cpu::process_seconds())
        .map(|(a, b)| b - a);
    println!(
        "FFO #{first}-#{last}: {matched}/{} exact, {total_nodes} nodes (span {total_span}), {total_seconds:.3} s, {:.1} M nodes/s, {}",
        problems.len(),
        total_nodes as f64 / total_seconds.max(1e-9) / 1e6,
        cpu.map_or("CPU time unknown".into(), |cpu| format!(
            "{cpu:.2} CPU s, {:.1} M nodes per CPU-second",
            total_nodes as f64 / cpu.max(1e-9) / 1e6
        ))
    );
    Ok(())
}

fn bench_midgame(plan: &Plan<'_>, depth: u32, threads: u32) {
    let positions = signature::positions(signature::POSITIONS);
    let started = Instant::now();
    let (nodes, span) = positions
        .iter()
        .map(|p| signature::work_with(&p.board(), depth, threads, plan.evaluation))
        .fold((0, 0), |(n, s), (nodes, span)| (n + nodes, s + span));
    let seconds = started.elapsed().as_secs_f64();
    let signature = match (threads, plan.evaluation) {
        (1, Evaluation::Hand) => format!(" (signature {nodes})"),
        (1, Evaluation::Pattern) => " (pattern evaluation)".to_string(),
        _ => format!(" (span {span})"),
    };
    println!(
        "midgame: {} positions at depth {depth}: {nodes} nodes in {seconds:.3} s, {:.2} M nodes/s{signature}",
        positions.len(),
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
}

fn bench_endgames(plan: &Plan<'_>) -> Result<()> {
    let positions = signature::endgames(plan.endgames, plan.empties);
    let settings = Settings {
        hash_mib: plan.hash_mib,
        endgame_empties: 64,
        threads: plan.threads,
        ..Settings::default()
    };
    let (mut nodes, mut seconds, mut slowest) = (0u64, 0f64, 0f64);
    for position in &positions {
        let started = Instant::now();
        let Some(result) = solve(position, Limits::depth(64), &settings) else {
            continue;
        };
        let elapsed = started.elapsed().as_secs_f64();
        if !matches!(result.score, Score::Exact(_)) {
            bail!("{}: no exact score", position.to_notation());
        }
        nodes += result.nodes;
        seconds += elapsed;
        slowest = slowest.max(elapsed);
    }
    let count = positions.len().max(1) as f64;
    println!(
        "endgames: {} random positions at {} empties solved exactly: {:.3} s average, {:.3} s slowest, {:.0} nodes average, {:.1} M nodes/s",
        positions.len(),
        plan.empties,
        seconds / count,
        slowest,
        nodes as f64 / count,
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}

pub fn run(plan: &Plan<'_>) -> Result<()> {
    let command: Vec<String> = std::env::args().collect();
    println!("command: {}", command.join(" "));
    println!(
        "threads: {}, hash: {} MiB, build: {}",
        plan.threads,
        plan.hash_mib,
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );
    if plan.perft > 0 {
        bench_perft(plan.perft);
    }
    if let Some((first, last)) = plan.ffo {
        bench_ffo(plan, first, last)?;
    }
    if plan.endgames > 0 {
        bench_endgames(plan)?;
    }
    if plan.midgame > 0 {
        bench_midgame(plan, plan.midgame, plan.threads);
    }
    Ok(())
}
