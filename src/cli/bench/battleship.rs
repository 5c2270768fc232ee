//! `tabula bench battleship`: the hunter against a fixed, seeded set of uniformly
//! random legal fleets, then against the placer's fleets. For each set: shots and
//! misses to sink the whole fleet (mean, median, standard deviation, min, max), and
//! time per shot (mean, max). The hunter assumes uniform placement, so "our hunter"
//! and "the uniform-assuming hunter" are the same player here.
//!
//! The uniform set also reports the misses with a control variate: a game's misses
//! until only unwounded boats are afloat, plus the exact expected misses of the greedy
//! search for those boats from there ([`LastBoats`]). The same mean as the misses
//! played out (the hunter is greedy in that phase; only its tie-breaks differ), a
//! smaller spread: the figure to compare two hunters by.
//!
//! Several hunters (`--hunters default,rollout`) each play the same fleets with the
//! same generator seeds, and every hunter after the first is compared with it fleet
//! by fleet: the mean paired difference of misses, played out and with the control
//! variate, with its standard error. `--move-ms` gives each shot a deadline (the
//! misses then depend on the machine's load; without it they depend only on the
//! seed). Each set reports the wall time per shot and the process's CPU time per
//! shot (the figure to trust on a loaded machine; with `--threads` above 1 it sums
//! the threads, still per shot).
//!
//! `--styles` adds the placement styles: fleets of each style of
//! [`styles::Style`] and of the placer, each played by the first hunter with the
//! uniform prior, with the mixture prior (the posterior over the mixture weights,
//! updated with each fleet after its game, as at one table) and with the adaptive
//! prior (the mixture prior updated within each game by its shots), with each
//! style's cost to the uniform-prior hunter and the share of it each prior recovers.

use super::mean_se;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use tabula::ai::Limits;
use tabula::ai::battleship::boats::{LastBoats, last_boats};
use tabula::ai::battleship::styles::{Posterior, Style, StyleTables, Tilt};
use tabula::ai::battleship::{finish, learned, quick, rollout, styles};
use tabula::ai::battleship::{hunt, place, random_fleet};
use tabula::games::battleship::{Cell, Fleet, ShotResult, View};
use tabula::rng::Rng;

/// A hunter the bench can play.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Hunter {
    /// The engine's hunter ([`hunt`]).
    Default,
    /// The rollout hunter ([`rollout::hunt`]) with its settings.
    Rollout(rollout::Settings),
    /// The learned hunter ([`learned::hunt`]) with the built-in value.
    Learned(learned::Settings),
    /// The quick rollout hunter ([`quick::hunt`]) with its settings.
    Quick(quick::Settings),
    /// The quick hunter's simulated hunter on its own ([`quick::simulated_hunt`]).
    Simulated(quick::Model),
    /// The finisher ([`finish::hunt`]) with its settings.
    Finish(finish::Settings),
}

impl Hunter {
    /// The hunter named `name` (`default`, `rollout`, `learned`, `quick`,
    /// `simulated`, the quick hunter's simulated hunter, or `finish`, `finish@P` with
    /// probe credit P), each with its settings.
    ///
    /// # Errors
    /// An unknown name.
    pub fn named(
        name: &str,
        settings: rollout::Settings,
        learned: learned::Settings,
        quick: quick::Settings,
        finish: finish::Settings,
    ) -> Result<Hunter> {
        match name {
            "default" | "greedy" => Ok(Hunter::Default),
            "rollout" => Ok(Hunter::Rollout(settings)),
            "learned" => Ok(Hunter::Learned(learned)),
            "quick" => Ok(Hunter::Quick(quick)),
            "simulated" => Ok(Hunter::Simulated(quick.model)),
            "finish" | "finish@" => finisher(finish),
            other if other.starts_with("finish@") => {
                let probe = other["finish@".len()..]
                    .parse()
                    .map_err(|_| anyhow::anyhow!("finish@P needs a number, not {other:?}"))?;
                finisher(finish::Settings { probe, ..finish })
            }
            other => bail!(
                "unknown hunter {other:?} (hunters: default, rollout, learned, quick, simulated, finish)"
            ),
        }
    }

    fn name(&self) -> String {
        match self {
            Hunter::Default => "default".to_string(),
            Hunter::Rollout(s) => format!(
                "rollout (candidates {}, fleets {}, sweeps {}+{}, margin {})",
                s.candidates, s.fleets, s.effort.burn_in, s.effort.sweeps, s.margin
            ),
            Hunter::Learned(s) => {
                format!("learned (candidates {}, margin {})", s.candidates, s.margin)
            }
            Hunter::Quick(s) => format!(
                "quick (candidates {}, fleets {}, margin {}, model {}, particles {})",
                s.candidates,
                s.fleets,
                s.margin,
                s.model.name(),
                s.particles
            ),
            Hunter::Simulated(model) => format!("simulated (model {})", model.name()),
            Hunter::Finish(s) => format!("finish (probe {}, draws {})", s.probe, s.draws),
        }
    }

    fn shoot(
        &self,
        view: &View,
        rng: &mut Rng,
        limits: &Limits<'_>,
        tilt: Option<&Tilt>,
    ) -> Option<Cell> {
        match (self, tilt) {
            (Hunter::Default, None) => hunt(view, rng, limits),
            (Hunter::Default, Some(tilt)) => styles::hunt(view, rng, limits, tilt),
            (Hunter::Rollout(settings), _) => rollout::hunt(view, rng, limits, settings),
            (Hunter::Learned(settings), tilt) => {
                learned::hunt(view, rng, limits, learned::Value::builtin(), settings, tilt)
            }
            (Hunter::Quick(settings), _) => quick::hunt(view, rng, limits, settings),
            (Hunter::Simulated(model), _) => quick::simulated_hunt(view, *model),
            (Hunter::Finish(settings), _) => finish::hunt(view, rng, limits, settings),
        }
    }
}

/// The finisher with `settings`, refused when its probe credit is not a finite number
/// of at least 0.
fn finisher(settings: finish::Settings) -> Result<Hunter> {
    if !(settings.probe.is_finite() && settings.probe >= 0.0) {
        bail!(
            "the finisher's probe credit must be a number of at least 0, not {}",
            settings.probe
        );
    }
    Ok(Hunter::Finish(settings))
}

/// The settings of one run.
pub struct Settings {
    pub fleets: usize,
    pub seed: u64,
    pub threads: usize,
    /// The hunters, each on the same fleets; the first is the reference.
    pub hunters: Vec<Hunter>,
    /// Each shot's time limit in milliseconds (0: none).
    pub move_ms: u64,
    /// Whether the placer's fleets are played too.
    pub placer: bool,
    /// Whether each placement style's fleets are played by the first hunter with the
    /// uniform and with the adaptive prior.
    pub styles: bool,
}

/// One game's figures.
#[derive(Clone, Copy, Default)]
struct Game {
    shots: u32,
    misses: u32,
    /// Misses until the last boats, plus their exact expectation from there.
    expected: f64,
    seconds: f64,
    slowest: f64,
}

/// `hunter` against `fleet` until it sinks, with its own seeded generator and each
/// shot limited to `move_ms` milliseconds (0: no limit).
fn play(
    hunter: &Hunter,
    fleet: &Fleet,
    seed: u64,
    move_ms: u64,
    tilt: Option<&Tilt>,
) -> Result<Game> {
    let mut rng = Rng::new(seed);
    let mut view = View::new();
    let mut game = Game::default();
    let mut expected = None;
    while !view.all_sunk() {
        if expected.is_none()
            && let Some((open, boats)) = last_boats(&view)
        {
            let rest = LastBoats::new().greedy_misses(open, boats);
            expected = Some(f64::from(game.misses) + rest);
        }
        let started = Instant::now();
        let limits = Limits {
            depth: 1,
            deadline: (move_ms > 0).then(|| started + Duration::from_millis(move_ms)),
            stop: None,
            cancel: None,
            nodes: None,
        };
        let Some(cell) = hunter.shoot(&view, &mut rng, &limits, tilt) else {
            bail!("the hunter found no open cell with ships afloat");
        };
        let seconds = started.elapsed().as_secs_f64();
        game.seconds += seconds;
        game.slowest = game.slowest.max(seconds);
        let result = view.record_judged(fleet, cell)?;
        game.shots += 1;
        if result == ShotResult::Miss {
            game.misses += 1;
        }
    }
    game.expected = expected.unwrap_or(f64::from(game.misses));
    Ok(game)
}

/// Plays every fleet, spread over `threads` threads; results in fleet order. With
/// `tilts`, fleet `i` is hunted with the belief tilted by `tilts[i]`.
fn play_all(
    hunter: &Hunter,
    fleets: &[Fleet],
    seed: u64,
    threads: usize,
    move_ms: u64,
    tilts: Option<&[Tilt]>,
) -> Result<Vec<Game>> {
    let threads = threads.clamp(1, fleets.len().max(1));
    let chunk = fleets.len().div_ceil(threads).max(1);
    let results: Vec<Result<Vec<Game>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = fleets
            .chunks(chunk)
            .enumerate()
            .map(|(part, fleets)| {
                scope.spawn(move || {
                    fleets
                        .iter()
                        .enumerate()
                        .map(|(i, fleet)| {
                            let k = part * chunk + i;
                            let tilt = tilts.and_then(|t| t.get(k));
                            play(hunter, fleet, seed ^ k as u64, move_ms, tilt)
                        })
                        .collect::<Result<Vec<Game>>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a bench thread panicked")))
            })
            .collect()
    });
    let mut games = Vec::with_capacity(fleets.len());
    for part in results {
        games.extend(part?);
    }
    Ok(games)
}

/// Mean, median, standard deviation, min and max.
fn summary(values: &[u32]) -> String {
    let n = values.len().max(1) as f64;
    let mean = values.iter().map(|&v| f64::from(v)).sum::<f64>() / n;
    let var = values
        .iter()
        .map(|&v| (f64::from(v) - mean).powi(2))
        .sum::<f64>()
        / n;
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let median = match sorted.len() {
        0 => 0.0,
        len if len % 2 == 1 => f64::from(sorted.get(len / 2).copied().unwrap_or(0)),
        len => {
            let a = sorted.get(len / 2 - 1).copied().unwrap_or(0);
            let b = sorted.get(len / 2).copied().unwrap_or(0);
            f64::from(a + b) / 2.0
        }
    };
    let min = sorted.first().copied().unwrap_or(0);
    let max = sorted.last().copied().unwrap_or(0);
    format!(
        "mean {mean:6.2}  median {median:5.1}  sd {:5.2}  min {min:3}  max {max:3}",
        var.sqrt()
    )
}

/// Prints one set's figures; `uniform`: the fleets are uniform, so the control variate
/// (which assumes uniformly placed boats) has the played-out mean and is printed.
fn report(title: &str, games: &[Game], uniform: bool, cpu: Option<f64>) {
    let shots: Vec<u32> = games.iter().map(|g| g.shots).collect();
    let misses: Vec<u32> = games.iter().map(|g| g.misses).collect();
    let total_shots: u32 = shots.iter().sum();
    let seconds: f64 = games.iter().map(|g| g.seconds).sum();
    let slowest = games.iter().map(|g| g.slowest).fold(0.0, f64::max);
    println!("{title} ({} games)", games.len());
    println!("  shots   {}", summary(&shots));
    println!("  misses  {}", summary(&misses));
    if uniform {
        let n = games.len().max(1) as f64;
        let mean = games.iter().map(|g| g.expected).sum::<f64>() / n;
        let sd = (games
            .iter()
            .map(|g| (g.expected - mean).powi(2))
            .sum::<f64>()
            / n)
            .sqrt();
        println!(
            "  misses with the last boats at their exact expectation: mean {mean:6.2}  sd {sd:5.2}  se {:4.2}",
            sd / n.sqrt()
        );
    }
    print!(
        "  time per shot: mean {:.3} ms  max {:.1} ms",
        seconds * 1000.0 / f64::from(total_shots.max(1)),
        slowest * 1000.0
    );
    match cpu {
        Some(cpu) => println!(
            "; CPU {:.3} ms a shot",
            cpu * 1000.0 / f64::from(total_shots.max(1))
        ),
        None => println!(),
    }
}

/// Plays every fleet as [`play_all`] does, and the process CPU seconds it took.
fn play_timed(
    hunter: &Hunter,
    fleets: &[Fleet],
    settings: &Settings,
    tilts: Option<&[Tilt]>,
) -> Result<(Vec<Game>, Option<f64>)> {
    let before = tabula::cpu::process_seconds();
    let games = play_all(
        hunter,
        fleets,
        settings.seed,
        settings.threads,
        settings.move_ms,
        tilts,
    )?;
    let cpu = match (before, tabula::cpu::process_seconds()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    Ok((games, cpu))
}

/// Prints `games`' paired differences with `reference` (same fleets, same seeds).
fn compare(games: &[Game], reference: &[Game], uniform: bool) {
    let played: Vec<f64> = games
        .iter()
        .zip(reference)
        .map(|(g, r)| f64::from(g.misses) - f64::from(r.misses))
        .collect();
    let (d, se) = mean_se(&played);
    print!("  paired difference of misses with the first hunter: {d:+.3} (se {se:.3})");
    if uniform {
        let cv: Vec<f64> = games
            .iter()
            .zip(reference)
            .map(|(g, r)| g.expected - r.expected)
            .collect();
        let (d, se) = mean_se(&cv);
        print!("; with the control variate {d:+.3} (se {se:.3})");
    }
    println!();
}

/// Runs the benchmark and prints its figures.
///
/// # Errors
/// When a game cannot be finished (a hunter bug).
pub fn run(settings: &Settings) -> Result<()> {
    println!(
        "tabula bench battleship --fleets {} --seed {} --threads {} --move-ms {}",
        settings.fleets, settings.seed, settings.threads, settings.move_ms
    );
    let mut rng = Rng::new(settings.seed);
    let uniform: Vec<Fleet> = (0..settings.fleets)
        .map(|_| random_fleet(&mut rng))
        .collect();
    let mut rng = Rng::new(settings.seed ^ 0x5EED_F1EE7);
    let placed: Vec<Fleet> = (0..settings.fleets).map(|_| place(&mut rng)).collect();
    let mut sets = vec![("uniformly random legal fleets", &uniform, true)];
    if settings.placer {
        sets.push(("placer fleets", &placed, false));
    }
    for (what, fleets, is_uniform) in sets {
        let mut reference: Option<Vec<Game>> = None;
        for hunter in &settings.hunters {
            let (games, cpu) = play_timed(hunter, fleets, settings, None)?;
            report(
                &format!("hunter vs {what}, {}", hunter.name()),
                &games,
                is_uniform,
                cpu,
            );
            match &reference {
                None => reference = Some(games),
                Some(first) => compare(&games, first, is_uniform),
            }
        }
    }
    if settings.styles {
        run_styles(settings)?;
    }
    Ok(())
}

/// Mean misses of `games`.
fn mean_misses(games: &[Game]) -> f64 {
    games.iter().map(|g| f64::from(g.misses)).sum::<f64>() / games.len().max(1) as f64
}

/// The placement styles: for each style (and the placer's mixture), its fleets played
/// by the first hunter with the uniform prior and with the adaptive one, whose
/// posterior has seen the fleets before (as at one table, game after game). Prints
/// each style's cost to the uniform-prior hunter (its misses on the style's fleets
/// less its misses on uniform fleets, two independent sets) and what the adaptive
/// prior recovers (paired, same fleets and seeds).
fn run_styles(settings: &Settings) -> Result<()> {
    let Some(tables) = StyleTables::builtin() else {
        bail!("the built-in weights have no style tables");
    };
    let hunter = settings.hunters.first().copied().unwrap_or(Hunter::Default);
    println!("placement styles, hunter {}", hunter.name());
    let mut sets: Vec<(String, Vec<Fleet>)> = Style::ALL
        .into_iter()
        .enumerate()
        .map(|(k, style)| {
            let mut rng = Rng::new(settings.seed ^ 0x57_71E5 ^ (k as u64) << 32);
            let fleets = (0..settings.fleets)
                .map(|_| style.sample(&mut rng))
                .collect();
            (style.name().to_string(), fleets)
        })
        .collect();
    let mut rng = Rng::new(settings.seed ^ 0x5EED_F1EE7);
    sets.push((
        "placer".to_string(),
        (0..settings.fleets).map(|_| place(&mut rng)).collect(),
    ));
    let mut base: Option<(f64, f64)> = None;
    for (name, fleets) in &sets {
        let mut posterior = Posterior::new();
        let mut tilts = Vec::with_capacity(fleets.len());
        for fleet in fleets {
            tilts.push(posterior.tilt(tables));
            posterior.update(fleet, tables);
        }
        let fixed: Vec<Tilt> = tilts.iter().map(Tilt::fixed).collect();
        let (plain, cpu_plain) = play_timed(&hunter, fleets, settings, None)?;
        let (mixture, cpu_mixture) = play_timed(&hunter, fleets, settings, Some(&fixed))?;
        let (adaptive, cpu_adaptive) = play_timed(&hunter, fleets, settings, Some(&tilts))?;
        let shots = |games: &[Game]| f64::from(games.iter().map(|g| g.shots).sum::<u32>().max(1));
        let cpu = match (cpu_plain, cpu_mixture, cpu_adaptive) {
            (Some(a), Some(b), Some(c)) => format!(
                "; CPU {:.2}, {:.2} and {:.2} ms a shot",
                a * 1000.0 / shots(&plain),
                b * 1000.0 / shots(&mixture),
                c * 1000.0 / shots(&adaptive)
            ),
            _ => String::new(),
        };
        let misses: Vec<f64> = plain.iter().map(|g| f64::from(g.misses)).collect();
        let (m, se) = mean_se(&misses);
        let cost = match base {
            None => {
                base = Some((m, se));
                None
            }
            Some((u, use_)) => Some((m - u, (se * se + use_ * use_).sqrt())),
        };
        let paired = |games: &[Game]| {
            let diffs: Vec<f64> = games
                .iter()
                .zip(&plain)
                .map(|(a, p)| f64::from(a.misses) - f64::from(p.misses))
                .collect();
            let (d, dse) = mean_se(&diffs);
            let recovered = match cost {
                Some((c, _)) if c > 0.0 => format!(" ({:.0} % of the cost)", -d / c * 100.0),
                _ => String::new(),
            };
            format!(
                "{:6.2}, paired {d:+.2} (se {dse:.2}){recovered}",
                mean_misses(games)
            )
        };
        println!(
            "  {name:>8}: uniform prior {m:6.2} (se {se:.2}), {}; mixture prior {}; \
             adaptive (in-game) {}; mixture weights at the end {}{cpu}",
            cost.map_or("the reference".to_string(), |(c, cse)| format!(
                "cost {c:+.2} (se {cse:.2})"
            )),
            paired(&mixture),
            paired(&adaptive),
            Style::ALL
                .into_iter()
                .map(|s| format!("{} {:.2}", s.name(), posterior.of(s)))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(())
}
