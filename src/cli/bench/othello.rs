//! `tabula bench othello`: perft leaves per second from the start, the FFO endgame
//! suite (built in; or one's own file of problems) solved exactly (time, nodes, nodes
//! per second, move, score, match), random endgames at 20 empties solved exactly
//! (average time), and midgame nodes per second at a fixed depth on a fixed position
//! set with its node-count signature (a one-thread figure); searches run on the
//! bench's `--threads`. Figures for people; nothing here asserts a time.

use std::time::Instant;

use anyhow::{Context, Result, bail};

use tabula::ai::Limits;
use tabula::ai::othello::eval::Evaluation;
use tabula::ai::othello::{Memory, Score, Settings, signature, solve_in};
use tabula::games::othello::{Board, Move, Position, perft};

/// What to run, from the command line.
pub struct Plan<'a> {
    /// Perft depth (0 = skip).
    pub perft: u32,
    /// The endgame problems to solve (None = skip).
    pub ffo: Option<Selection>,
    /// A file of problems in place of the built-in FFO suite.
    pub ffo_file: Option<&'a str>,
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

/// Which problems of a suite to solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    All,
    /// The problems numbered FIRST to LAST.
    Range(u32, u32),
}

/// `FIRST-LAST` or `N`.
pub fn parse_range(text: &str) -> Result<Selection> {
    let (first, last) = text.split_once('-').unwrap_or((text, text));
    let first: u32 = first.trim().parse().context("--ffo FIRST-LAST")?;
    let last: u32 = last.trim().parse().context("--ffo FIRST-LAST")?;
    if first > last {
        bail!("--ffo {text}: the first number is after the last");
    }
    Ok(Selection::Range(first, last))
}

/// The FFO endgame suite, problems #40-#59 (`data/ffo.obf`, see `data/README.md`),
/// built into the binary so that the bench runs from any folder.
const FFO_SUITE: &str = include_str!("../../../data/ffo.obf");
/// The FFO number of the suite's first line.
const FFO_FIRST: u32 = 40;

/// One FFO problem: its position and the exact scores of its moves, best first.
struct Problem {
    number: u32,
    position: Position,
    scores: Vec<(String, i32)>,
}

/// The problems of `selection` in the built-in suite or in `file`: the built-in
/// suite's lines are FFO #40-#59, a file's lines are numbered from 1 (blank lines are
/// no problems but keep their numbers). A selection outside the suite's numbers, or
/// with no problem, is an error.
fn read_problems(file: Option<&str>, selection: Selection) -> Result<Vec<Problem>> {
    let (text, name, first_number) = match file {
        Some(path) => (
            std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?,
            path.to_string(),
            1,
        ),
        None => (
            FFO_SUITE.to_string(),
            "the built-in FFO suite".to_string(),
            FFO_FIRST,
        ),
    };
    let lines: Vec<(u32, &str)> = (first_number..)
        .zip(text.lines())
        .filter(|(_, line)| !line.trim().is_empty())
        .collect();
    let (Some(&(low, _)), Some(&(high, _))) = (lines.first(), lines.last()) else {
        bail!("{name}: no problem in it");
    };
    let (first, last) = match selection {
        Selection::All => (low, high),
        Selection::Range(first, last) => (first, last),
    };
    let asked = if first == last {
        first.to_string()
    } else {
        format!("{first}-{last}")
    };
    if first < low || last > high {
        bail!("--ffo {asked}: {name} has problems {low}-{high} only");
    }
    let mut problems = Vec::new();
    for &(number, line) in lines.iter().filter(|(n, _)| (first..=last).contains(n)) {
        let (board, moves) = line.split_once(';').unwrap_or((line, ""));
        let position = Position::from_notation(board.trim())
            .map_err(|e| anyhow::anyhow!("{name}: problem {number}: {e}"))?;
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
    if problems.is_empty() {
        bail!("--ffo {asked}: {name} has no problem there (blank lines)");
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

fn bench_ffo(plan: &Plan<'_>, selection: Selection) -> Result<()> {
    let problems = read_problems(plan.ffo_file, selection)?;
    let (first, last) = (
        problems.first().map_or(0, |p| p.number),
        problems.last().map_or(0, |p| p.number),
    );
    let suite = plan.ffo_file.unwrap_or("FFO");
    let settings = Settings {
        hash_mib: plan.hash_mib,
        endgame_empties: 64,
        threads: plan.threads,
        ..Settings::default()
    };
    println!(
        "{:>4} {:>7} {:>10} {:>7} {:>14} {:>14} {:>10} {:>10} {:>5} {:>6} {:>6}  match",
        "ffo",
        "empties",
        "seconds",
        "CPU s",
        "nodes",
        "span",
        "M nodes/s",
        "M n/CPU-s",
        "move",
        "score",
        "known"
    );
    let (mut total_nodes, mut total_span, mut total_seconds, mut matched) = (0u64, 0u64, 0f64, 0);
    // The tables are made once, before the clocks start, and kept from problem to
    // problem as a player keeps them from move to move (each solve ages them).
    let mut memory = Memory::new(&settings);
    let cpu_before = tabula::cpu::process_seconds();
    for problem in &problems {
        let started = Instant::now();
        let cpu_started = tabula::cpu::process_seconds();
        let Some(result) = solve_in(&problem.position, Limits::depth(64), &settings, &mut memory)
        else {
            println!("#{}: the game is over", problem.number);
            continue;
        };
        let seconds = started.elapsed().as_secs_f64();
        // CPU time is counted in ticks of 1/100 s: short solves read coarsely.
        let cpu = cpu_started
            .zip(tabula::cpu::process_seconds())
            .map(|(a, b)| b - a);
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
            "{:>4} {:>7} {:>10.3} {:>7} {:>14} {:>14} {:>10.1} {:>10} {:>5} {:>+6} {:>+6}  {}",
            problem.number,
            problem.position.board().empty().count_ones(),
            seconds,
            cpu.map_or("-".into(), |cpu| format!("{cpu:.2}")),
            result.nodes,
            result.span,
            result.nodes as f64 / seconds.max(1e-9) / 1e6,
            cpu.filter(|cpu| *cpu > 0.0)
                .map_or("-".into(), |cpu| format!(
                    "{:.1}",
                    result.nodes as f64 / cpu / 1e6
                )),
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
        "{suite} #{first}-#{last}: {matched}/{} exact, {total_nodes} nodes (span {total_span}), {total_seconds:.3} s, {:.1} M nodes/s, {}",
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
    let mut memory = Memory::new(&settings);
    for position in &positions {
        let started = Instant::now();
        let Some(result) = solve_in(position, Limits::depth(64), &settings, &mut memory) else {
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
    if let Some(selection) = plan.ffo {
        bench_ffo(plan, selection)?;
    }
    if plan.endgames > 0 {
        bench_endgames(plan)?;
    }
    if plan.midgame > 0 {
        bench_midgame(plan, plan.midgame, plan.threads);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(problems: &[Problem]) -> Vec<u32> {
        problems.iter().map(|p| p.number).collect()
    }

    #[test]
    fn the_built_in_suite_is_ffo_40_to_59() {
        let all = read_problems(None, Selection::All).unwrap_or_default();
        assert_eq!(numbers(&all), (40..=59).collect::<Vec<_>>());
        assert_eq!(all[0].scores[0], ("a2".to_string(), 38));
        let some = read_problems(None, Selection::Range(41, 42)).unwrap_or_default();
        assert_eq!(numbers(&some), [41, 42]);
        let error = read_problems(None, Selection::Range(1, 1)).err();
        assert_eq!(
            error.map(|e| e.to_string()),
            Some("--ffo 1: the built-in FFO suite has problems 40-59 only".to_string())
        );
    }

    #[test]
    fn a_file_numbers_its_problems_by_line_and_refuses_an_empty_selection() {
        let path = std::env::temp_dir().join(format!("tabula-ffo-{}.obf", std::process::id()));
        let line = "OO--XOX-OOOOOOO-OOXXXO-OOOXXOOOO-OXXXXOOOXOOXOXOX-XXXXXXXXXX--O- X; B7:+4;";
        assert!(std::fs::write(&path, format!("\n{line}\n\n{line}\n")).is_ok());
        let file = path.to_str();
        let read = |selection| read_problems(file, selection).map_err(|e| e.to_string());
        let all = read(Selection::All);
        assert_eq!(all.as_deref().map(numbers), Ok(vec![2, 4]));
        assert_eq!(
            read(Selection::Range(2, 2)).as_deref().map(numbers),
            Ok(vec![2])
        );
        let shown = file.unwrap_or_default();
        assert_eq!(
            read(Selection::Range(3, 3)).err(),
            Some(format!(
                "--ffo 3: {shown} has no problem there (blank lines)"
            ))
        );
        assert_eq!(
            read(Selection::Range(1, 2)).err(),
            Some(format!("--ffo 1-2: {shown} has problems 2-4 only"))
        );
        assert_eq!(
            read(Selection::Range(5, 5)).err(),
            Some(format!("--ffo 5: {shown} has problems 2-4 only"))
        );
        let _ = std::fs::remove_file(&path);
    }
}
