//! `tabula bench shell`: What the Shell figures — resolved turns per second in uniform
//! and guided playouts (one thread), search iterations per second (20,000 iterations
//! from the start and from a middle game; then the mean over the games), the
//! exploitability of its mixed strategy on small endgames solved exactly, and the search
//! player's results against the threat-builder, the greedy and the uniformly random
//! players, played in
//! process with the rules library (both picks, then `resolve_turn`; colours alternate
//! game by game). Prints the command line that reproduces the run.

use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use clap::Args;

use tabula::ai::Limits;
use tabula::ai::shell::Eval;
use tabula::ai::shell::candidates::{Tactics, candidates};
use tabula::ai::shell::endgame::Endgame;
use tabula::ai::shell::exact::{self, Exact};
use tabula::ai::shell::model::{ALL_STYLES, Model, STYLES, style_name};
use tabula::ai::shell::playout::Policy;
use tabula::ai::shell::solver::{self, Solver};
use tabula::ai::shell::{Selection, Settings, greedy, playout, search, tactician, windows};
use tabula::games::shell::{Cell, Position};
use tabula::games::{Color, Outcome};
use tabula::rng::Rng;

use super::shell_exploit::Victim;
use crate::values::named;

/// The names of the search's selections, as `Selection::from_name` reads them.
const SELECTIONS: [&str; 2] = ["rm", "uct"];
/// The names of the playout policies, as `Policy::from_name` reads them.
const PLAYOUTS: [&str; 2] = ["fours", "threes"];

#[derive(Args, Clone, Debug)]
pub struct ShellArgs {
    /// Games against each baseline (shell).
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Milliseconds per move of the search player (shell; 0: use --iterations only).
    #[arg(long, default_value_t = 100)]
    pub(super) movetime: u64,
    /// Iteration cap per move of the search player (shell; 0: no cap).
    #[arg(long, default_value_t = 0)]
    pub(super) iterations: u64,
    /// Selection of the search player: rm (regret matching) or uct (shell).
    #[arg(long, default_value = "rm", value_parser = named(SELECTIONS, Selection::from_name))]
    selection: Selection,
    /// Root-parallel trees of the search player: the bench's `--threads`.
    #[arg(skip)]
    pub threads: u32,
    /// The search player's opponents, comma-separated: windows, windows1 …
    /// windows7 (the threat-builders), tactician, greedy, random (shell).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "windows,tactician,greedy,random",
        value_parser = named(OPPONENT_NAMES, Opponent::from_name)
    )]
    opponents: Vec<Opponent>,
    /// Playouts for the playout-speed figures (shell).
    #[arg(long, default_value_t = 20_000)]
    playouts: u32,
    /// Empty cells of the solved endgames for the exploitability figure (shell).
    #[arg(long, default_value_t = 6)]
    endgame_empty: u32,
    /// Candidate cells per colour at the search's root (shell; 0: the player's default).
    #[arg(long, default_value_t = 0)]
    root_width: usize,
    /// Candidate cells per colour in the search's other nodes (shell; 0: the default).
    #[arg(long, default_value_t = 0)]
    width: usize,
    /// Cells per colour and node the search adds by a threat-builder's steep score
    /// (shell; 0: none).
    #[arg(long, default_value_t = 0)]
    builder_cells: usize,
    /// Facing the opponent's double four, the search lists only the answers (shell).
    #[arg(long)]
    strict_blocks: bool,
    /// Power the root's shares are raised to in quiet positions (shell; 0: default).
    #[arg(long, default_value_t = 0)]
    sharpen: u32,
    /// Threat games in the search player's tree (shell; off by default).
    #[arg(long)]
    threat_games: bool,
    /// Lone winning cells' double-four answers in the candidate lists (shell).
    #[arg(long)]
    threat_answers: bool,
    /// Forcing-line first picks in the root's candidate lists (shell).
    #[arg(long)]
    root_forcing: bool,
    /// The threat-space search's advice at the root: `true` or `false` (shell; the
    /// player's default when not given).
    #[arg(long)]
    threat_search: Option<bool>,
    /// Shares of the final strategy dropped below this (shell; 0: the default).
    #[arg(long, default_value_t = 0.0)]
    threshold: f64,
    /// The same cut on boards with more than 20 empty cells, where it is the larger
    /// (shell; the player's default when not given, 0 for none).
    #[arg(long)]
    open_threshold: Option<f64>,
    /// The leaves' playout policy: fours (the default) or threes (also makes and
    /// blocks open fours) (shell).
    #[arg(long, default_value = "fours", value_parser = named(PLAYOUTS, Policy::from_name))]
    playout: Policy,
    /// How the search values a new leaf: playout (the default), learned or mixed
    /// (shell).
    #[arg(long, default_value = "playout", value_parser = named(Eval::NAMES, Eval::from_name))]
    leaf: Eval,
    /// Regret each node starts its threat cells with (shell; the player's default
    /// when not given, 0 for none).
    #[arg(long)]
    threat_prior: Option<f64>,
    /// γ, the search's share of uniform exploration (shell; 0: the default).
    #[arg(long, default_value_t = 0.0)]
    exploration: f64,
    /// Uniformly random turns (both picks random near the centre) opening each pair
    /// of games against a baseline; both games of a pair share them (shell).
    #[arg(long, default_value_t = 0)]
    opening_turns: u32,
    /// Print every game the search player does not win to stderr, turn by turn (its
    /// pick, its strategy, the opponent's pick, the board after), for reading losses
    /// (shell; against the exploiter both picks and the board after each turn).
    #[arg(long)]
    pub(super) show_losses: bool,
    /// What a draw costs the search player in its tree's values, −1..1 (shell; the
    /// player's default when not given).
    #[arg(long)]
    contempt: Option<f64>,
    /// Boards with more empty cells than this take the open-board cut (shell; the
    /// player's default when not given).
    #[arg(long)]
    open_empty: Option<u32>,
    /// Boards with at most this many empty cells are solved exactly at the search
    /// player's root first (shell; 0: never; the player's default when not given).
    #[arg(long)]
    endgame: Option<u32>,
    /// Games of the exploiter against the search player, and against each
    /// deterministic baseline to calibrate it (shell; 0: no exploiter; when given,
    /// only the exploiter's figures are measured).
    #[arg(long, default_value_t = 0)]
    pub(super) exploit: u32,
    /// Searches (different seeds) the exploiter runs to estimate the search player's
    /// mixed strategy each turn (shell).
    #[arg(long, default_value_t = 8)]
    pub(super) exploit_samples: u32,
    /// Turns the exploiter searches, the opponent's later picks chance nodes drawn
    /// from its strategy estimated again in each position (shell; 1: one turn).
    #[arg(long, default_value_t = 2)]
    pub(super) exploit_depth: u32,
    /// Own cells the exploiter searches deeper at each turn above its last (shell).
    #[arg(long, default_value_t = 4)]
    pub(super) exploit_breadth: usize,
    /// The exploiter's opponents, comma-separated: windows, greedy, search (shell).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "windows,greedy,search",
        value_parser = named(Victim::NAMES, Victim::from_name)
    )]
    pub(super) exploit_against: Vec<Victim>,
    /// Exploiter games played at once, each on its own thread (shell).
    #[arg(long, default_value_t = 1)]
    pub(super) exploit_jobs: u32,
    /// The exploiter's first game number (shell): `--exploit N --exploit-from K`
    /// plays games K to K + N − 1 of the seeded series, so a long match can be run
    /// in parts.
    #[arg(long, default_value_t = 0)]
    pub(super) exploit_from: u32,
    /// Instead of games, the exploiter's value against the search player in this many
    /// positions from the search's self-play at 20,000 iterations (shell): a local
    /// best response, each position's value and their mean. The positions depend on
    /// `--seed` only, so runs with different player flags are paired.
    #[arg(long, default_value_t = 0)]
    pub(super) exploit_positions: u32,
    /// With `--exploit-positions`: an earlier run's output (same `--seed`), read
    /// before the run; the report ends with this run's value minus that one's,
    /// paired position by position, with its standard error.
    #[arg(long, value_name = "FILE", requires = "exploit_positions")]
    pub(super) exploit_baseline: Option<std::path::PathBuf>,
    /// Measure only the exploitability of the search's played root strategy on a
    /// fixed set of endgames solved exactly (shell): at the player's budget
    /// (`--movetime`/`--iterations`), then at fixed iterations for both selections.
    #[arg(long)]
    exploitability: bool,
    /// Endgames in the exploitability set (shell, `--exploitability`).
    #[arg(long, default_value_t = 8)]
    solve_positions: usize,
    /// Fewest empty cells of the exploitability set's endgames (shell).
    #[arg(long, default_value_t = 10)]
    solve_min_empty: u32,
    /// Most empty cells of the exploitability set's endgames (shell).
    #[arg(long, default_value_t = 14)]
    solve_max_empty: u32,
    /// Nodes the exact solver may search per endgame before skipping it (shell).
    #[arg(long, default_value_t = 20_000_000)]
    solve_budget: u64,
    /// Turns past the root's empty cells at which the solved game is cut as a draw
    /// (shell, `--exploitability`).
    #[arg(long, default_value_t = exact::EXTRA_DEPTH)]
    solve_extra: u32,
    /// Turns from the root at which the solved game is cut as a draw, in place of
    /// the root's empty cells plus `--solve-extra` (shell, `--exploitability`; 0: off).
    #[arg(long, default_value_t = 0)]
    solve_horizon: u32,
    /// Where the exploitability set's endgames come from: defenders (greedy play, then
    /// two players that only block) or tactician (the tactician on both sides).
    #[arg(long, default_value = "defenders", value_parser = named(exact::Sampler::NAMES, exact::Sampler::from_name))]
    solve_sampler: exact::Sampler,
    /// Sampling games tried for the exploitability set (seeds 0, 1, …; shell).
    #[arg(long, default_value_t = 200)]
    solve_seeds: u64,
    /// With `--exploitability`: also time the player's endgame solve of each root
    /// this many turns deep, fresh tables each time (median of five; 0: not timed).
    #[arg(long, default_value_t = 4)]
    endgame_turns: u32,
    /// The search player models its opponent ([`tabula::ai::shell::model`]): a model
    /// per opponent, kept across its games (shell).
    #[arg(long)]
    pub(super) model: bool,
    /// Styles the model does not know, comma-separated (windows … windows7,
    /// tactician), to measure it against a player it has no style for (shell).
    #[arg(long, value_delimiter = ',')]
    pub(super) model_without: Vec<String>,
    /// With `--model`, the open board's cut only on the turns the model predicts the
    /// opponent; the other turns at `--threshold` (shell; `Settings::modelled`).
    #[arg(long)]
    pub(super) open_cut_predicted: bool,
    /// Seed of every random choice: the bench's `--seed`.
    #[arg(skip)]
    pub seed: u64,
}

/// The opponents of the search player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Opponent {
    Greedy,
    Random,
    /// A threat-builder, by its index in `windows::FAMILY`.
    Windows(u8),
    Tactician,
}

/// The opponents' names, as `--opponents` takes them.
const OPPONENT_NAMES: [&str; 11] = [
    "windows",
    "windows1",
    "windows2",
    "windows3",
    "windows4",
    "windows5",
    "windows6",
    "windows7",
    "tactician",
    "greedy",
    "random",
];

impl Opponent {
    fn name(self) -> &'static str {
        match self {
            Opponent::Greedy => "greedy",
            Opponent::Random => "random",
            Opponent::Windows(member) => windows::FAMILY
                .get(usize::from(member))
                .map_or("windows", |style| style.name),
            Opponent::Tactician => "tactician",
        }
    }

    fn from_name(name: &str) -> Option<Opponent> {
        match name.to_ascii_lowercase().as_str() {
            "greedy" => Some(Opponent::Greedy),
            "random" => Some(Opponent::Random),
            "tactician" => Some(Opponent::Tactician),
            name => windows::FAMILY
                .iter()
                .position(|style| style.name == name)
                .map(|member| Opponent::Windows(member as u8)),
        }
    }

    fn pick(self, position: &Position, color: Color, rng: &mut Rng) -> Option<Cell> {
        match self {
            Opponent::Greedy => greedy::pick(position, color, rng),
            Opponent::Windows(member) => {
                let style = windows::FAMILY.get(usize::from(member))?;
                windows::pick_styled(position, color, style, rng)
            }
            Opponent::Tactician => tactician::pick(position, color),
            Opponent::Random => {
                let empty = position.empty_cells();
                empty.iter().nth(rng.below(u64::from(empty.len())) as usize)
            }
        }
    }
}

fn settings(args: &ShellArgs) -> Result<Settings> {
    if args.movetime == 0 && args.iterations == 0 {
        bail!("give --movetime or --iterations a positive value");
    }
    let defaults = Settings::default();
    let or_default = |n: usize, default: usize| if n == 0 { default } else { n };
    Ok(Settings {
        selection: args.selection,
        iterations: args.iterations,
        threads: args.threads.max(1),
        root_width: or_default(args.root_width, defaults.root_width),
        width: or_default(args.width, defaults.width),
        threat_games: args.threat_games,
        builder_cells: args.builder_cells,
        strict_blocks: args.strict_blocks,
        threat_answers: args.threat_answers,
        root_forcing: args.root_forcing,
        threat_search: args.threat_search.unwrap_or(defaults.threat_search),
        threshold: if args.threshold > 0.0 {
            args.threshold
        } else {
            defaults.threshold
        },
        open_threshold: args.open_threshold.unwrap_or(defaults.open_threshold),
        playout: args.playout,
        eval: args.leaf,
        sharpen: or_default(args.sharpen as usize, defaults.sharpen as usize) as u32,
        threat_prior: args.threat_prior.unwrap_or(defaults.threat_prior),
        contempt: args.contempt.unwrap_or(defaults.contempt),
        open_empty: args.open_empty.unwrap_or(defaults.open_empty),
        endgame_empty: args.endgame.unwrap_or(defaults.endgame_empty),
        exploration: if args.exploration > 0.0 {
            args.exploration
        } else {
            defaults.exploration
        },
        modelled: args.model && args.open_cut_predicted,
        ..defaults
    })
}

/// One playout kind's speed: playouts, resolved turns, seconds.
fn playout_speed(
    name: &str,
    count: u32,
    seed: u64,
    run: fn(Position, &mut Rng) -> (f64, u32),
) -> (u64, f64) {
    let mut rng = Rng::new(seed);
    let started = Instant::now();
    let mut turns = 0u64;
    let mut black = 0.0;
    for _ in 0..count {
        let (value, n) = run(Position::new(), &mut rng);
        turns += u64::from(n);
        black += value;
    }
    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    println!(
        "playouts {name:<8} {count} playouts {turns} turns {seconds:.3} s {:.2} M turns/s \
         ({:.1} turns/playout, black's mean value {:+.3})",
        turns as f64 / seconds / 1e6,
        turns as f64 / f64::from(count.max(1)),
        black / f64::from(count.max(1))
    );
    (turns, seconds)
}

/// Search speed: `iterations` iterations (one thread) from the empty board and from
/// the first position of a greedy self-play game, after 8 turns or more, where black
/// has a choice to search.
fn search_speed(settings: &Settings, iterations: u64, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut middle = Position::new();
    for turn in 0..40 {
        let tactics = Tactics::of(&middle);
        if turn >= 8 && candidates(&middle, &tactics, Color::Black, settings.root_width).len() > 1 {
            break;
        }
        let black = greedy::pick(&middle, Color::Black, &mut rng);
        let white = greedy::pick(&middle, Color::White, &mut rng);
        let (Some(black), Some(white)) = (black, white) else {
            break;
        };
        if middle.resolve_turn(black, white).is_err() || middle.status().is_over() {
            break;
        }
    }
    let bounded = Settings {
        iterations,
        threads: 1,
        ..*settings
    };
    for (name, position) in [("start", Position::new()), ("middle", middle)] {
        let started = Instant::now();
        let limits = Limits::depth(1);
        let outcome = search(&position, Color::Black, &bounded, &limits, &mut rng);
        let seconds = started.elapsed().as_secs_f64().max(1e-9);
        let (done, nodes) = outcome.map_or((0, 0), |o| (o.iterations, o.nodes));
        println!(
            "search   {name:<8} {done} iterations {nodes} nodes {seconds:.3} s {:.0} iterations/s",
            done as f64 / seconds
        );
    }
}

/// Exploitability of the search's mixed strategy (both colours) on `count` solved
/// endgames with `empty` empty cells, as a share of the value range (−1..1).
fn exploitability(settings: &Settings, empty: u32, count: usize, seed: u64) {
    let bounded = Settings {
        iterations: if settings.iterations > 0 {
            settings.iterations
        } else {
            4000
        },
        threads: 1,
        ..*settings
    };
    let mut rng = Rng::new(seed);
    let mut gaps = Vec::new();
    let started = Instant::now();
    for position in solver::endgames(empty, count) {
        let Some(solved) = Solver::new().root(&position) else {
            continue;
        };
        for (side, color) in [(0, Color::Black), (1, Color::White)] {
            let limits = Limits::depth(1);
            if let Some(outcome) = search(&position, color, &bounded, &limits, &mut rng) {
                gaps.push(solved.exploitability(side, &outcome.strategy) / 2.0);
            }
        }
    }
    if gaps.is_empty() {
        println!(
            "exploitability: no sampled endgame with {empty} empty cells stayed within the \
             solver's bounds"
        );
        return;
    }
    let n = gaps.len() as f64;
    println!(
        "exploitability {} endgames with {empty} empty cells, {} iterations: mean {:.4} max \
         {:.4} of the value range ({:.1} s)",
        gaps.len() / 2,
        bounded.iterations,
        gaps.iter().sum::<f64>() / n,
        gaps.iter().copied().fold(0.0, f64::max),
        started.elapsed().as_secs_f64()
    );
}

/// A mixed strategy as its cells with shares of at least 1 %, most played first.
fn mix_text(strategy: &[(Cell, f64)]) -> String {
    let mut shown: Vec<&(Cell, f64)> = strategy.iter().filter(|m| m.1 >= 0.01).collect();
    shown.sort_by(|a, b| b.1.total_cmp(&a.1));
    let words: Vec<String> = shown.iter().map(|(c, p)| format!("{c} {p:.2}")).collect();
    words.join(" ")
}

/// Mean and max of `gaps`, 0 for none.
fn mean_max(gaps: &[f64]) -> (f64, f64) {
    let n = gaps.len().max(1) as f64;
    (
        gaps.iter().sum::<f64>() / n,
        gaps.iter().copied().fold(0.0, f64::max),
    )
}

/// `tabula bench shell --exploitability`: solves a fixed set of endgames from
/// sampled play exactly, then measures the exploitability of the search's played root
/// strategy (the purified mix it samples its pick from) on them, both colours: at the
/// player's budget, then at fixed iterations for regret matching and decoupled UCT.
fn exploitability_set(args: &ShellArgs, settings: &Settings) -> Result<()> {
    println!(
        "command: tabula bench shell --exploitability --movetime {} --iterations {}{} \
         --solve-positions {} --solve-min-empty {} --solve-max-empty {} \
         --solve-budget {} --solve-extra {} --solve-horizon {} --solve-sampler {} \
         --solve-seeds {} --endgame-turns {} --seed {}",
        args.movetime,
        args.iterations,
        player_flags(args, settings),
        args.solve_positions,
        args.solve_min_empty,
        args.solve_max_empty,
        args.solve_budget,
        args.solve_extra,
        args.solve_horizon,
        args.solve_sampler.name(),
        args.solve_seeds,
        args.endgame_turns,
        args.seed
    );
    let mut solver = Exact::new(args.solve_budget);
    solver.extra = args.solve_extra;
    solver.horizon = (args.solve_horizon > 0).then_some(args.solve_horizon);
    let started = Instant::now();
    let set = exact::solved_set(
        &mut solver,
        args.solve_sampler,
        args.solve_positions,
        args.solve_min_empty,
        args.solve_max_empty,
        args.solve_seeds,
    );
    for (seed, position, solved, stats, seconds) in &set {
        println!(
            "solved   seed {seed} empty {} value {:+.4} {:.2} s: {} exact nodes ({} by \
             bounds), {} serialized nodes, {} programs, {} entries, {} table hits, {} \
             horizon cuts, {} settled by the lines  {}",
            position.empty_cells().len(),
            solved.solution.value,
            seconds,
            stats.exact_nodes,
            stats.bounds_met,
            stats.serial_nodes,
            stats.programs,
            stats.entries,
            stats.hits,
            stats.horizon,
            stats.proven,
            position.to_notation()
        );
    }
    println!(
        "solved   {} endgames in {:.1} s CPU ({} tried seeds)",
        set.len(),
        started.elapsed().as_secs_f64(),
        args.solve_seeds
    );
    if set.is_empty() {
        bail!("no endgame solved within the budget");
    }
    if args.endgame_turns > 0 {
        for (seed, position, _, _, _) in &set {
            let (ms, stats) = endgame_time(position, args.endgame_turns);
            println!(
                "endgame  seed {seed}: {} turns in {ms:.1} ms (median of 5), {} solver nodes",
                args.endgame_turns,
                stats.nodes()
            );
        }
    }
    let mut rng = Rng::new(args.seed);
    let mut measure = |settings: &Settings, movetime: u64, show: bool| {
        let mut gaps = Vec::new();
        let mut iterations = 0u64;
        for (seed, position, solved, _, _) in &set {
            for color in Color::ALL {
                let limits = Limits {
                    depth: 1,
                    deadline: (movetime > 0)
                        .then(|| Instant::now() + Duration::from_millis(movetime)),
                    stop: None,
                    cancel: None,
                    nodes: None,
                };
                if let Some(outcome) = search(position, color, settings, &limits, &mut rng) {
                    iterations += outcome.iterations;
                    let gap = exact::exploitability(solved, color, &outcome.strategy);
                    if show {
                        println!(
                            "root     seed {seed} {}: {:.2} %  played {}  equilibrium {}",
                            color.name(),
                            100.0 * gap,
                            mix_text(&outcome.strategy),
                            mix_text(&solved.strategy(color.index())),
                        );
                    }
                    gaps.push(gap);
                }
            }
        }
        let (mean, max) = mean_max(&gaps);
        (mean, max, iterations as f64 / gaps.len().max(1) as f64)
    };
    let single = Settings {
        threads: 1,
        ..*settings
    };
    let (mean, max, its) = measure(&single, args.movetime, true);
    println!(
        "played   {} selection, budget {} ms / {} iterations: mean {:.2} % max {:.2} % of the \
         value range ({:.0} iterations a search, {} searches)",
        settings.selection.name(),
        args.movetime,
        settings.iterations,
        100.0 * mean,
        100.0 * max,
        its,
        2 * set.len()
    );
    for iterations in [100u64, 300, 1000, 3000, 10_000] {
        let mut line = format!("curve    {iterations:>6} iterations:");
        for selection in [Selection::RegretMatching, Selection::Uct] {
            let bounded = Settings {
                selection,
                iterations,
                threads: 1,
                ..*settings
            };
            let (mean, max, _) = measure(&bounded, 0, false);
            line.push_str(&format!(
                "  {} mean {:.2} % max {:.2} %",
                selection.name(),
                100.0 * mean,
                100.0 * max
            ));
        }
        println!("{line}");
    }
    Ok(())
}

/// The median over five runs of the player's endgame solve of `position` `turns`
/// turns deep (one turn deeper at a time, fresh tables), in milliseconds, and what
/// the solver did in the last run.
fn endgame_time(position: &Position, turns: u32) -> (f64, exact::Stats) {
    let mut times = Vec::with_capacity(5);
    let mut stats = exact::Stats::default();
    for _ in 0..5 {
        let mut endgame = Endgame::default();
        let started = Instant::now();
        endgame.deepen(position, None, u64::MAX, turns, None);
        times.push(started.elapsed().as_secs_f64() * 1e3);
        stats = endgame.stats();
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], stats)
}

/// Plays one game; `search_color` is the search player's colour. Black's value.
fn play_game(
    settings: &Settings,
    movetime: u64,
    opponent: Opponent,
    search_color: Color,
    rng: &mut Rng,
    iterations: &mut (u64, f64),
    mut position: Position,
    record: &mut Vec<String>,
    mut model: Option<&mut Model>,
) -> Outcome {
    record.clear();
    record.push(format!("start {}", position.to_notation()));
    for turn in 0..playout::MAX_TURNS {
        if position.status().is_over() {
            break;
        }
        let started = Instant::now();
        let limits = Limits {
            depth: 1,
            deadline: (movetime > 0).then(|| started + Duration::from_millis(movetime)),
            stop: None,
            cancel: None,
            nodes: None,
        };
        let mut settings = *settings;
        if let Some(model) = model.as_deref_mut() {
            // The model's tactician gets a quarter of the move's time (all of it at
            // fixed iterations, as the in-process tactician has).
            let quarter = Limits {
                deadline: (movetime > 0).then(|| started + Duration::from_millis(movetime / 4)),
                ..limits
            };
            settings.prediction = model.predict(&position, search_color.opponent(), &quarter);
        }
        let Some(outcome) = search(&position, search_color, &settings, &limits, rng) else {
            break;
        };
        iterations.0 += outcome.iterations;
        iterations.1 += started.elapsed().as_secs_f64();
        let Some(other) = opponent.pick(&position, search_color.opponent(), rng) else {
            break;
        };
        let (black, white) = match search_color {
            Color::Black => (outcome.cell, other),
            Color::White => (other, outcome.cell),
        };
        if let Some(model) = model.as_deref_mut() {
            model.observe(&position, search_color.opponent(), other);
        }
        if position.resolve_turn(black, white).is_err() {
            break;
        }
        let strategy: Vec<String> = outcome
            .strategy
            .iter()
            .map(|(c, p)| format!("{c}:{p:.2}"))
            .collect();
        record.push(format!(
            "turn {turn:2} me {} them {other} predicted {} mix [{}] eggs {}",
            outcome.cell,
            settings.prediction.map_or("-".to_string(), |p| format!(
                "{}:{:.2}",
                p.cell, p.confidence
            )),
            strategy.join(" "),
            position.to_notation().split(' ').nth(1).unwrap_or("-")
        ));
        let board = position.to_notation();
        for row in 0..9 {
            let line: String = board
                .chars()
                .skip(row * 9)
                .take(9)
                .flat_map(|c| [c, ' '])
                .collect();
            record.push(format!("   {} {line}", row + 1));
        }
    }
    // A game cut short (no pick, or the turn cap) counts as drawn.
    position.status().outcome().unwrap_or(Outcome::Draw)
}

/// The position after `turns` turns from the empty board, each turn's picks from
/// `picks` (black's, white's), stopping early, at the last position still being
/// played, when `picks` has none or a turn would end the game.
pub(super) fn played(
    turns: u64,
    mut picks: impl FnMut(&Position) -> Option<(Cell, Cell)>,
) -> Position {
    let mut position = Position::new();
    for _ in 0..turns {
        let Some((black, white)) = picks(&position) else {
            break;
        };
        let mut next = position;
        if next.resolve_turn_quiet(black, white).is_err() || next.status().is_over() {
            break;
        }
        position = next;
    }
    position
}

/// A position after `turns` turns of uniformly random picks within distance 2 of the
/// centre (fewer when the game ends or the area fills), from `seed`.
fn opening(turns: u32, seed: u64) -> Position {
    let mut rng = Rng::new(seed);
    played(u64::from(turns), |position| {
        let area: Vec<Cell> = position
            .empty_cells()
            .iter()
            .filter(|c| c.col().abs_diff(4) <= 2 && c.row().abs_diff(4) <= 2)
            .collect();
        Some((*rng.choose(&area)?, *rng.choose(&area)?))
    })
}

/// The search player's flags as `settings` (made from `args` by [`settings`]) hold
/// them, each with a leading space, for the command line a bench prints: run again,
/// it plays the same player.
pub(super) fn player_flags(args: &ShellArgs, settings: &Settings) -> String {
    let mut flags = format!(
        " --selection {} --root-width {} --width {} --threat-prior {} --threat-search {} \
         --leaf {} --playout {} --contempt {} --open-empty {} --threshold {} \
         --open-threshold {} --exploration {} --sharpen {} --endgame {}",
        settings.selection.name(),
        settings.root_width,
        settings.width,
        settings.threat_prior,
        settings.threat_search,
        settings.eval.name(),
        settings.playout.name(),
        settings.contempt,
        settings.open_empty,
        settings.threshold,
        settings.open_threshold,
        settings.exploration,
        settings.sharpen,
        settings.endgame_empty
    );
    if settings.builder_cells > 0 {
        flags.push_str(&format!(" --builder-cells {}", settings.builder_cells));
    }
    for (on, flag) in [
        (settings.strict_blocks, " --strict-blocks"),
        (settings.threat_games, " --threat-games"),
        (settings.threat_answers, " --threat-answers"),
        (settings.root_forcing, " --root-forcing"),
    ] {
        if on {
            flags.push_str(flag);
        }
    }
    flags + &model_flags(args)
}

/// The styles the opponent model knows: all but `--model-without`'s.
pub(super) fn model_styles(args: &ShellArgs) -> Result<u32> {
    let mut known = ALL_STYLES;
    for name in &args.model_without {
        let style = (0..STYLES)
            .find(|&s| style_name(s) == name)
            .ok_or_else(|| anyhow::anyhow!("no style {name:?} in the opponent model"))?;
        known &= !(1 << style);
    }
    Ok(known)
}

/// Plays the search player against each opponent and prints the figures.
pub fn run(args: &ShellArgs) -> Result<()> {
    let settings = settings(args)?;
    if args.exploit_positions > 0 {
        return super::shell_exploit::positions(args, &settings);
    }
    if args.exploit > 0 {
        return super::shell_exploit::run(args, &settings);
    }
    if args.exploitability {
        return exploitability_set(args, &settings);
    }
    println!(
        "command: tabula bench shell --games {} --movetime {} --iterations {} --threads {} \
         --playouts {} --endgame-empty {} --opening-turns {}{} --seed {}",
        args.games,
        args.movetime,
        args.iterations,
        args.threads,
        args.playouts,
        args.endgame_empty,
        args.opening_turns,
        player_flags(args, &settings),
        args.seed
    );
    playout_speed("uniform", args.playouts, args.seed, playout::uniform);
    playout_speed("guided", args.playouts, args.seed, playout::guided);
    search_speed(&settings, 20_000, args.seed);
    exploitability(&settings, args.endgame_empty, 12, args.seed);
    let mut rng = Rng::new(args.seed);
    if args.games == 0 {
        return Ok(());
    }
    for &opponent in &args.opponents {
        let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
        let mut iterations = (0u64, 0.0f64);
        let started = Instant::now();
        let mut record = Vec::new();
        let mut model = Model::knowing(model_styles(args)?);
        for game in 0..args.games {
            let color = if game % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let opening = opening(args.opening_turns, args.seed ^ u64::from(game / 2));
            let outcome = play_game(
                &settings,
                args.movetime,
                opponent,
                color,
                &mut rng,
                &mut iterations,
                opening,
                &mut record,
                args.model.then_some(&mut model),
            );
            if args.show_losses && outcome.winner() != Some(color) {
                eprintln!(
                    "game {game} vs {} as {color:?}: {:?}",
                    opponent.name(),
                    outcome.winner()
                );
                for line in &record {
                    eprintln!("  {line}");
                }
            }
            match outcome.winner() {
                Some(winner) if winner == color => wins += 1,
                Some(_) => losses += 1,
                None => draws += 1,
            }
        }
        let games = f64::from(args.games.max(1));
        println!(
            "vs {:<6} {} games: {wins} wins {draws} draws {losses} losses, score {:.1} % \
             ({:.0} iterations/s, {:.1} s)",
            opponent.name(),
            args.games,
            100.0 * (f64::from(wins) + 0.5 * f64::from(draws)) / games,
            iterations.0 as f64 / iterations.1.max(1e-9),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// The `--model` flags of the command line a bench prints: none without the model,
/// and `--model-without` only when it names styles.
fn model_flags(args: &ShellArgs) -> String {
    let flags = match (args.model, args.model_without.is_empty()) {
        (false, _) => String::new(),
        (true, true) => " --model".to_string(),
        (true, false) => format!(" --model --model-without {}", args.model_without.join(",")),
    };
    if args.model && args.open_cut_predicted {
        flags + " --open-cut-predicted"
    } else {
        flags
    }
}
