//! `tabula arena`: the tournament manager's command line; the arena itself is
//! [`tabula::arena`].

use anyhow::{Result, anyhow, bail};
use clap::Args;

use crate::values::named;
use tabula::arena::openings::{self, Openings};
use tabula::arena::referee::TimeControl;
use tabula::arena::schedule::Tournament;
use tabula::arena::stats::Sprt;
use tabula::arena::{self, Plan, Shard};
use tabula::games::GameKind;

/// The arena's command line. Flag names are cutechess-cli's, with two dashes.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ArenaArgs {
    /// The game to play (default: the one `tabula --game` names, othello unless said).
    #[arg(long, ignore_case = true,
          value_parser = named(GameKind::ALL.map(GameKind::name), GameKind::from_name))]
    game: Option<GameKind>,
    /// An engine: `name=N cmd=C [arg=A]… [dir=D] [proto=gtp|nboard] [option.X=V]…
    /// [tc=…] [st=S]`, or the short form NAME=COMMAND [ARGS…] (quotes group words).
    /// Two or more.
    #[arg(long = "engine", value_name = "KEY=VALUE", num_args = 1.., required = true)]
    engines: Vec<String>,
    /// The `--engine` words by occurrence ([`ArenaArgs::group_engines`]).
    #[arg(skip)]
    engine_groups: Vec<Vec<String>>,
    /// Settings for every engine, as `--engine` takes them (an engine's own win).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    each: Vec<String>,
    /// round-robin (every pair of engines) or gauntlet (the first engine against
    /// each other one).
    #[arg(long, default_value = "round-robin",
          value_parser = named(Tournament::ALL.map(Tournament::name), Tournament::from_name))]
    tournament: Tournament,
    /// Games per pair of engines (rounded up to an even number: colour-swapped pairs).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Games played at the same time. Each slot keeps one process per engine from game
    /// to game, restarted only after a crash, a stall or a protocol error.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Milliseconds per move: `set_option movetime` if the engine knows it, else GTP
    /// 2's `time_settings 0 S 1`; the referee holds every engine to it.
    #[arg(long, conflicts_with = "tc")]
    movetime: Option<u64>,
    /// A clock per side in seconds: `time+inc` (`60+0.5`), `moves/time+inc` (the time
    /// again every `moves` moves), `time` or `inf`. Set before each game with
    /// `kgs-time_settings` if the engine lists it, else GTP 2's `time_settings` where
    /// it can say the clock; told with `time_left` before every move.
    #[arg(long)]
    tc: Option<String>,
    /// Grace in milliseconds over the clock or move time before a time forfeit.
    #[arg(long, default_value_t = 50)]
    timemargin: u64,
    /// Milliseconds any answer may take when no clock applies (then: stall), and how
    /// long a late answer is awaited after a time forfeit before the engine is
    /// restarted.
    #[arg(long, default_value_t = 10_000)]
    timeout: u64,
    /// Random legal plies (Shell: turns) from the start, drawn from the seed.
    #[arg(long, default_value_t = 0, conflicts_with = "openings")]
    random_plies: u32,
    /// Openings: `file=FILE [order=sequential|random]` or just FILE. One a line: a
    /// position in the game's notation, or moves from the start (`f5d6c3d3c4`; Shell
    /// `e5/e6 d4/d5`). `order=random` shuffles them by the seed.
    #[arg(long, value_name = "file=FILE", num_args = 1..)]
    openings: Vec<String>,
    /// Seed of the random openings and of every game's own seed (sent as
    /// `set_option seed` and written in the records).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Adjudicate after N turns (Othello plies, Shell turns, Battleship shots):
    /// Othello by disc count, the others as a draw.
    #[arg(long)]
    max_turns: Option<u32>,
    /// elo0=A,elo1=B,alpha=X,beta=Y[,model=normalized|logistic]: stop when the SPRT
    /// decides (two engines). The bounds are normalised Elo unless `model=logistic`.
    #[arg(long)]
    sprt: Option<String>,
    /// Append one PGN record per game to FILE, in game-number order (`Result` as PGN
    /// has it: `1-0` means the `White` tag's engine won).
    #[arg(long)]
    records: Option<String>,
    /// The records' format: pgn, or ggf (Othello: one GGF game a line, as Othello
    /// servers and GUIs read them; not resumable or mergeable).
    #[arg(long, default_value = "pgn", value_parser = ["pgn", "ggf"])]
    records_format: String,
    /// Continue from the records file without replaying its games.
    #[arg(long, requires = "records")]
    resume: bool,
    /// Print the Elo, LOS and SPRT lines every N games (0: only at the end).
    #[arg(long, default_value_t = 0)]
    rating_interval: usize,
    /// Keep each engine's stderr and its protocol exchange in DIR/NAME.log, every
    /// line starting with the engine's name and process id (`>` sent, `<` read, `!`
    /// stderr).
    #[arg(long, value_name = "DIR")]
    engine_log: Option<String>,
    /// Write the results, per game and the summary, to FILE as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Play only shard K of N: the colour-swapped pairs of games whose index (from
    /// 0) leaves K − 1 over by N. N shards play exactly the games of one run (their
    /// openings, colours and seeds follow from the game numbers and `--seed`);
    /// `tabula arena merge` sums their records.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    #[command(subcommand)]
    action: Option<Action>,
}

/// What `tabula arena` does besides playing a match.
#[derive(clap::Subcommand, Debug)]
enum Action {
    /// Sum the records of a match's shards (any order) and print the summary one
    /// run would print
    Merge(MergeArgs),
}

/// `tabula arena merge`'s command line.
#[derive(Args, Debug)]
struct MergeArgs {
    /// PGN records written by `tabula arena --records` (one per shard, any order).
    #[arg(value_name = "RECORDS", required = true)]
    records: Vec<String>,
    /// The SPRT of the match: elo0=A,elo1=B,alpha=X,beta=Y[,model=normalized|logistic]
    #[arg(long)]
    sprt: Option<String>,
    /// Write the summary to FILE as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Merge a match with games still missing (shards running or failed).
    #[arg(long)]
    partial: bool,
}

impl ArenaArgs {
    /// Groups the `--engine` words by occurrence, from the matches clap parsed the
    /// arena's arguments into (the derived fields hold them flattened).
    pub fn group_engines(&mut self, matches: &clap::ArgMatches) {
        if let Ok(Some(occurrences)) = matches.try_get_occurrences::<String>("engines") {
            self.engine_groups = occurrences.map(|words| words.cloned().collect()).collect();
        }
    }
}

/// Runs the arena; `game` is `tabula --game`, which the arena's own `--game` overrides.
/// The flags are read into the arena's [`Plan`] first: a bad time control, SPRT or
/// openings file stops the run before any engine starts.
pub fn run(args: ArenaArgs, game: GameKind) -> Result<()> {
    if let Some(Action::Merge(merge)) = &args.action {
        let sprt = merge.sprt.as_deref().map(Sprt::parse).transpose()?;
        return arena::merge::run(
            &merge.records,
            sprt.as_ref(),
            merge.json.as_deref(),
            merge.partial,
        );
    }
    let kind = args.game.unwrap_or(game);
    let time = time_control(&args)?;
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let openings = openings(&args, kind)?;
    let engines = if args.engine_groups.is_empty() {
        args.engines.into_iter().map(|word| vec![word]).collect()
    } else {
        args.engine_groups
    };
    arena::run(&Plan {
        kind,
        engines,
        each: args.each,
        tournament: args.tournament,
        games: args.games,
        concurrency: args.concurrency,
        time,
        timemargin: args.timemargin,
        timeout: args.timeout,
        openings,
        seed: args.seed,
        max_turns: args.max_turns,
        sprt,
        records: args.records,
        ggf_records: args.records_format == "ggf",
        resume: args.resume,
        rating_interval: args.rating_interval,
        engine_log: args.engine_log,
        json: args.json,
        shard: args.shard,
    })
}

/// The match's own time control, beneath `--each` and each engine's settings.
fn time_control(args: &ArenaArgs) -> Result<TimeControl> {
    if let Some(ms) = args.movetime {
        if ms == 0 {
            bail!("--movetime must be positive");
        }
        return Ok(TimeControl::MoveTime { ms });
    }
    match &args.tc {
        Some(tc) => arena::settings::parse_tc(tc).map_err(|e| anyhow!("--{e}")),
        None => Ok(TimeControl::None),
    }
}

/// Reads `--openings`.
fn openings(args: &ArenaArgs, kind: GameKind) -> Result<Openings> {
    if args.openings.is_empty() {
        return Ok(Openings::Random {
            kind,
            plies: args.random_plies,
            seed: args.seed,
        });
    }
    let mut file = None;
    let mut order = openings::Order::Sequential;
    for word in &args.openings {
        match word.split_once('=') {
            Some(("file", path)) => file = Some(path.to_string()),
            Some(("order", "random")) => order = openings::Order::Random,
            Some(("order", "sequential")) => order = openings::Order::Sequential,
            Some((key, _)) if ["order", "format", "policy", "plies", "start"].contains(&key) => {
                bail!("--openings {word}: not supported (file=FILE, order=sequential|random)")
            }
            _ if file.is_none() => file = Some(word.clone()),
            _ => bail!("--openings {word}: expected file=FILE [order=sequential|random]"),
        }
    }
    let file = file.ok_or_else(|| anyhow!("--openings: file=FILE is missing"))?;
    Openings::from_file(kind, &file, order, args.seed)
}
