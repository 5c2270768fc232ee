//! `tabula train`: makes the Othello pattern weights, and the Battleship hunter's
//! (`tabula train battleship --out src/ai/battleship/hunter.weights`).
//!
//! `tabula train selfplay --games N --out FILE` plays self-play games on several
//! threads and appends their labelled positions to a data file (17 bytes a sample);
//! `tabula train fit --data FILE... --out WEIGHTS` fits the weights and writes them in
//! the engine's format. docs/training.md gives the commands that made the committed
//! `src/ai/othello/weights.bin`. Progress goes to stderr; the figures of the fit to
//! stdout.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};

use crate::values::{EVALUATIONS, named};
use tabula::ai::othello::eval::Evaluation;
use tabula::ai::othello::train::{Fit, SAMPLE_BYTES, Sample, SelfPlay, fit, self_play_game};

#[derive(Args)]
pub struct TrainArgs {
    #[command(subcommand)]
    step: Step,
}

#[derive(Subcommand)]
enum Step {
    /// Plays self-play games and writes their labelled positions.
    Selfplay(SelfplayArgs),
    /// Fits pattern weights to labelled positions.
    Fit(FitArgs),
    /// Battleship: fits the learned hunter's value of the misses to come on the
    /// hunter's own games, samples the placement styles' tables, and writes both
    /// (the format of `src/ai/battleship/hunter.weights`, built into the engine).
    Battleship(BattleshipArgs),
    /// What the Shell: fits the learned leaf value on training games and writes it
    /// (the format of `src/ai/shell/value.weights`, built into the engine).
    Shell(ShellArgs),
}

#[derive(Args)]
struct ShellArgs {
    /// Training games (game i from seed SEED + i).
    #[arg(long, default_value_t = 2000)]
    games: u64,
    /// Seed of the games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Newton steps of the fit.
    #[arg(long, default_value_t = 12)]
    steps: usize,
    /// Ridge penalty.
    #[arg(long, default_value_t = 1e-4)]
    ridge: f64,
    /// Where to write the weights.
    #[arg(long)]
    out: String,
}

#[derive(Args)]
struct BattleshipArgs {
    /// Games of the hunter against uniform fleets (game i from seed SEED + i).
    #[arg(long, default_value_t = 300)]
    games: u64,
    /// Fleets of each placement style for the style tables.
    #[arg(long, default_value_t = 1000)]
    style_fleets: usize,
    /// Seed of the fleets and the hunter.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads playing games.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Ridge penalty per sample.
    #[arg(long, default_value_t = 1e-4)]
    ridge: f64,
    /// Where to write the weights.
    #[arg(long)]
    out: String,
}

#[derive(Args)]
struct SelfplayArgs {
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// The data file to append to.
    #[arg(long)]
    out: String,
    /// Game i is played from seed SEED + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads playing games.
    #[arg(long, default_value_t = 2)]
    threads: u64,
    /// Play only shard K of N: games i with i mod N = K − 1 (N shards together
    /// play the games of one run; `train fit` takes their files together).
    #[arg(long, value_name = "K/N", value_parser = tabula::arena::Shard::parse)]
    shard: Option<tabula::arena::Shard>,
    /// Random moves at the start: a uniform number in MIN-MAX.
    #[arg(long, default_value = "6-20")]
    random_plies: String,
    /// Search depth before the exact part.
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// Every move with this many empties or fewer is solved exactly.
    #[arg(long, default_value_t = 16)]
    exact: u32,
    /// The evaluation of the searches: hand or pattern (the committed weights).
    #[arg(long, default_value = "hand", ignore_case = true,
          value_parser = named(EVALUATIONS, Evaluation::from_name))]
    eval: Evaluation,
}

#[derive(Args)]
struct FitArgs {
    /// Data files written by `selfplay`.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<String>,
    /// Where to write the weights.
    #[arg(long)]
    out: String,
    /// Passes over the samples.
    #[arg(long, default_value_t = 40)]
    epochs: u32,
    /// The first step (fraction of a sample's error corrected per update).
    #[arg(long, default_value_t = 0.1)]
    rate: f32,
    /// L2 pull towards zero.
    #[arg(long, default_value_t = 0.05)]
    decay: f32,
    /// The tail of the samples held out to measure the error.
    #[arg(long, default_value_t = 0.05)]
    holdout: f64,
    /// Seed of the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn range(text: &str) -> Result<(u32, u32)> {
    let (low, high) = text.split_once('-').unwrap_or((text, text));
    let low: u32 = low.trim().parse().context("--random-plies MIN-MAX")?;
    let high: u32 = high.trim().parse().context("--random-plies MIN-MAX")?;
    if low > high {
        bail!("--random-plies {text}: MIN is above MAX");
    }
    Ok((low, high))
}

pub fn run(args: &TrainArgs) -> Result<()> {
    match &args.step {
        Step::Selfplay(args) => selfplay(args),
        Step::Fit(args) => fit_files(args),
        Step::Battleship(args) => battleship(args),
        Step::Shell(args) => shell(args),
    }
}

fn shell(args: &ShellArgs) -> Result<()> {
    use tabula::ai::shell::value::{FEATURE_NAMES, fit, loss, training_data, weights_text};
    let samples = training_data(args.games, args.seed);
    // The last tenth held out to measure the fit.
    let cut = samples.len() - samples.len() / 10;
    let (train, held) = samples.split_at(cut);
    let (weights, losses) = fit(train, args.steps, args.ridge);
    let zero = loss(train, &[0.0; FEATURE_NAMES.len()], 0.0);
    println!(
        "{} games, {} samples: loss {zero:.4} → {:.4}, held out {:.4} ({} samples)",
        args.games,
        samples.len(),
        losses.last().copied().unwrap_or(zero),
        loss(held, &weights, 0.0),
        held.len()
    );
    for (name, w) in FEATURE_NAMES.iter().zip(weights) {
        println!("  {name:>18} {w:+.4}");
    }
    let notes = format!(
        "The learned What the Shell leaf value: tabula train shell --games {} --seed {} --steps {} --ridge {}",
        args.games, args.seed, args.steps, args.ridge
    );
    std::fs::write(&args.out, weights_text(&weights, &notes))
        .with_context(|| format!("writing {}", args.out))?;
    Ok(())
}

fn battleship(args: &BattleshipArgs) -> Result<()> {
    use tabula::ai::battleship::hunter::Effort;
    use tabula::ai::battleship::learned::{FEATURE_NAMES, fit, training_data};
    use tabula::ai::battleship::styles::StyleTables;
    let started = Instant::now();
    let samples = training_data(args.games, args.seed, &Effort::FULL, args.threads.max(1));
    eprintln!(
        "{} games, {} samples in {:.0} s",
        args.games,
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    // The last tenth of the games' samples held out to measure the fit.
    let cut = samples.len() - samples.len() / 10;
    let (train, held) = samples.split_at(cut);
    let (value, rmse) = fit(train, args.ridge);
    let held_sse: f64 = held
        .iter()
        .map(|s| (value.of_features(&s.features) - s.misses).powi(2))
        .sum();
    let held_rmse = (held_sse / held.len().max(1) as f64).sqrt();
    let (value, _) = fit(&samples, args.ridge);
    println!(
        "value of the misses to come: rms error {rmse:.3} on {} samples, {held_rmse:.3} held out ({} samples)",
        train.len(),
        held.len()
    );
    for (name, w) in FEATURE_NAMES.iter().zip(value.weights) {
        println!("  {name:>18} {w:+.4}");
    }
    let started = Instant::now();
    let tables = StyleTables::sample(args.style_fleets, args.seed);
    eprintln!(
        "style tables from {} fleets each in {:.0} s",
        args.style_fleets,
        started.elapsed().as_secs_f64()
    );
    let text = format!(
        "# The Battleship hunter's weights: tabula train battleship --games {} --style-fleets {} --seed {} --ridge {}\n\
         # value: the learned hunter's misses to come, one weight per feature ({}).\n\
         # cells STYLE LEN: the share of that length's ship cells on each cell; footprint STYLE: the share of each footprint bucket.\n\
         {}\n{}",
        args.games,
        args.style_fleets,
        args.seed,
        args.ridge,
        FEATURE_NAMES.join(", "),
        value.line(),
        tables.lines()
    );
    std::fs::write(&args.out, text).with_context(|| format!("writing {}", args.out))?;
    Ok(())
}

fn selfplay(args: &SelfplayArgs) -> Result<()> {
    let options = SelfPlay {
        random_plies: range(&args.random_plies)?,
        depth: args.depth.max(1),
        exact_empties: args.exact,
        hash_mib: 4,
        evaluation: args.eval,
    };
    let threads = args.threads.max(1);
    let started = Instant::now();
    let done = AtomicU64::new(0);
    let mut file = BufWriter::new(
        File::options()
            .create(true)
            .append(true)
            .open(&args.out)
            .with_context(|| format!("opening {}", args.out))?,
    );
    let mut samples = 0u64;
    let mine: Vec<u64> = (0..args.games)
        .filter(|&game| {
            args.shard
                .is_none_or(|s| usize::try_from(game).is_ok_and(|i| s.deals(i)))
        })
        .collect();
    // Games go out in chunks so the file grows as they finish and games stay in order.
    for chunk in mine.chunks(64 * threads as usize) {
        let games: Vec<Vec<Sample>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads as usize)
                .map(|t| {
                    let done = &done;
                    let options = &options;
                    scope.spawn(move || {
                        let mut played = Vec::new();
                        for &game in chunk.iter().skip(t).step_by(threads as usize) {
                            played.push((game, self_play_game(args.seed + game, options)));
                            done.fetch_add(1, Ordering::Relaxed);
                        }
                        played
                    })
                })
                .collect();
            let mut all: Vec<(u64, Vec<Sample>)> = handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect();
            all.sort_by_key(|(game, _)| *game);
            all.into_iter().map(|(_, samples)| samples).collect()
        });
        if games.len() != chunk.len() {
            bail!("a self-play thread failed");
        }
        for sample in games.iter().flatten() {
            file.write_all(&sample.to_bytes())?;
            samples += 1;
        }
        file.flush()?;
        let finished = done.load(Ordering::Relaxed);
        eprintln!(
            "{finished}/{} games, {samples} samples, {:.0} s",
            mine.len(),
            started.elapsed().as_secs_f64()
        );
    }
    println!(
        "{} games, {samples} samples written to {} in {:.1} s",
        mine.len(),
        args.out,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn read_samples(path: &str) -> Result<Vec<Sample>> {
    let mut bytes = Vec::new();
    File::open(path)
        .with_context(|| format!("opening {path}"))?
        .read_to_end(&mut bytes)?;
    if bytes.len() % SAMPLE_BYTES != 0 {
        bail!("{path}: not a whole number of {SAMPLE_BYTES}-byte samples");
    }
    let mut samples = Vec::with_capacity(bytes.len() / SAMPLE_BYTES);
    for (i, record) in bytes.chunks_exact(SAMPLE_BYTES).enumerate() {
        let mut array = [0u8; SAMPLE_BYTES];
        array.copy_from_slice(record);
        let sample = Sample::from_bytes(&array)
            .with_context(|| format!("{path}: sample {i} is not a position"))?;
        samples.push(sample);
    }
    Ok(samples)
}

fn fit_files(args: &FitArgs) -> Result<()> {
    let mut samples = Vec::new();
    for path in &args.data {
        samples.extend(read_samples(path)?);
    }
    if samples.is_empty() {
        bail!("no samples");
    }
    let started = Instant::now();
    let options = Fit {
        epochs: args.epochs,
        rate: args.rate,
        decay: args.decay,
        holdout: args.holdout,
        seed: args.seed,
    };
    let (weights, report) = fit(&samples, &options);
    println!("phase  empties  samples  rms-learned  rms-held-out");
    for (p, (count, learned, held)) in report.phases.iter().enumerate() {
        println!(
            "{p:>5}  {:>2}-{:<2}    {count:>8}  {learned:>11.2}  {held:>12.2}",
            5 * p + 1,
            5 * p + 5
        );
    }
    let bytes = weights.to_bytes();
    std::fs::write(&args.out, &bytes).with_context(|| format!("writing {}", args.out))?;
    println!(
        "{} samples, {} weights bytes written to {} in {:.1} s",
        samples.len(),
        bytes.len(),
        args.out,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
