//! `tabula arena`: the tournament manager. Runs games between engines (child
//! processes speaking our protocol), referees every move with our own rules, and
//! reports like cutechess-cli.
//!
//! - [`engine`]: a child engine with a reader thread, deadlines and a clean end;
//! - [`referee`]: one game of any of the three games, judged move by move, ending
//!   with a result and a termination reason whatever the engines do;
//! - [`schedule`]: game pairs with colours swapped, round robin for more engines;
//! - [`openings`]: random plies from the seed, or a file of positions;
//! - [`stats`]: W/L/D, pentanomial pairs, Elo, error bar, LOS, SPRT;
//! - [`record`]: PGN records, appended in game-number order, read back by `--resume`.
//!
//! Threads: `--concurrency` workers each own one process per engine, kept from game
//! to game, and take fixtures from one queue; the main thread alone writes stdout
//! (the report, in the order games finish) and the records. Logs and the progress bar
//! go to stderr.
//!
//! Engine lifetime: a process plays game after game (each starts with `set_game`). It
//! is replaced only when it crashed, stalled or broke the protocol. After a time
//! forfeit its late answer is drained first (`# interrupt` if it lists
//! `gogui-interrupt`, then the answer is awaited for up to `--timeout`); an engine that
//! does not answer by then is replaced as stalled. An illegal move leaves the process
//! in step: it just plays on in the next game.
//!
//! Seeds: game N's seed is drawn from `--seed` and N alone (whatever the concurrency or
//! a resume), written in its record; an engine that lists `set_option` is sent
//! `set_option seed S` before the game (black S, white S + 1, so two copies of one
//! engine do not mirror each other).

pub mod cluster;
pub mod engine;
pub mod merge;
pub mod nboard;
pub mod openings;
pub mod record;
pub mod referee;
pub mod schedule;
pub mod settings;
pub mod stats;

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fs::OpenOptions;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, SystemTime};

use anyhow::{Context, Result, anyhow, bail};

use crate::games::{Color, GameKind, Outcome};
use crate::rng::Rng;
use engine::Engine;
use openings::Openings;
use record::Record;
use referee::{Fate, GameResult, Rules, TimeControl};
use schedule::{Fixture, Tournament};
use settings::{Participant, Proto};
use stats::{Sprt, Tally, Verdict};

/// What an arena run plays: the engines, the schedule, the time, the openings and
/// the outputs, checked and read into their types before anything runs (`tabula
/// arena`'s flags, whose help tells each one).
#[derive(Clone, Debug)]
pub struct Plan {
    /// The game every match plays.
    pub kind: GameKind,
    /// Each engine's settings words (`name=N cmd=C …`, or `NAME=COMMAND ARGS…`).
    pub engines: Vec<Vec<String>>,
    /// Settings for every engine, beneath each engine's own.
    pub each: Vec<String>,
    pub tournament: Tournament,
    /// Games per pair of engines (rounded up to an even number).
    pub games: usize,
    /// Games played at the same time.
    pub concurrency: usize,
    /// The match's own time control, beneath `each` and each engine's settings.
    pub time: TimeControl,
    /// Grace in milliseconds over the clock or move time before a time forfeit.
    pub timemargin: u64,
    /// Milliseconds any answer may take when no clock applies.
    pub timeout: u64,
    pub openings: Openings,
    /// The seed of every game's own seed.
    pub seed: u64,
    /// Adjudicate after this many turns.
    pub max_turns: Option<u32>,
    /// Stop when this test decides (two engines).
    pub sprt: Option<Sprt>,
    /// The PGN records file.
    pub records: Option<String>,
    /// Write the records as GGF lines instead of PGN (Othello).
    pub ggf_records: bool,
    /// Continue from the records file.
    pub resume: bool,
    /// Print the ratings every this many games (0: only at the end).
    pub rating_interval: usize,
    /// The folder of the engines' logs.
    pub engine_log: Option<String>,
    /// The JSON results file.
    pub json: Option<String>,
    /// Play only this part of the match.
    pub shard: Option<Shard>,
}

/// One of N parts of a match (see `--shard`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, from 1.
    pub k: usize,
    /// How many parts.
    pub n: usize,
}

impl Shard {
    /// Reads `K/N` (1 ≤ K ≤ N).
    pub fn parse(text: &str) -> std::result::Result<Shard, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("{text:?}: K/N, as 2/8"))?;
        let number = |word: &str| {
            word.trim()
                .parse::<usize>()
                .map_err(|_| format!("{text:?}: K/N, as 2/8"))
        };
        let (k, n) = (number(k)?, number(n)?);
        if n == 0 || k == 0 || k > n {
            return Err(format!("{text:?}: K from 1 to N"));
        }
        Ok(Shard { k, n })
    }

    /// True when game `number` (from 1) is this shard's: games pair up (1 and 2, 3
    /// and 4, …, a pair's colours swapped), and pairs are dealt out in turn.
    #[must_use]
    pub fn holds(&self, number: usize) -> bool {
        self.deals(number.saturating_sub(1) / 2)
    }

    /// True when the `index`-th unit of work (from 0) dealt out in turn to the N
    /// shards is this shard's (a game pair of a match, a self-play game).
    #[must_use]
    pub fn deals(&self, index: usize) -> bool {
        index % self.n == self.k - 1
    }
}

/// PGN's `TimeControl` value for `time`.
fn pgn_time_control(time: TimeControl) -> String {
    use referee::seconds;
    match time {
        TimeControl::None => "-".into(),
        TimeControl::MoveTime { ms } => format!("1/{}", seconds(ms)),
        TimeControl::Clock {
            main_ms,
            increment_ms,
            moves,
        } => {
            let moves = moves.map_or(String::new(), |m| format!("{m}/"));
            match increment_ms {
                0 => format!("{moves}{}", seconds(main_ms)),
                _ => format!("{moves}{}+{}", seconds(main_ms), seconds(increment_ms)),
            }
        }
    }
}

/// The seed of game `number`: fixed by the match's `seed` and the number alone, so any
/// game can be replayed.
#[must_use]
pub fn game_seed(seed: u64, number: usize) -> u64 {
    Rng::new(seed ^ (number as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

/// Starts an engine for games of `kind`: the handshake, its `option.X=V` settings,
/// then its move time as `set_option movetime` if the engine knows `set_option` (else
/// the referee tells it with GTP 2's `time_settings` before each game).
fn start_engine(
    participant: &Participant,
    launch: &engine::Launch,
    kind: GameKind,
    stall: Duration,
) -> Result<Engine, engine::Failure> {
    prepare(spawn(participant, launch)?, participant, kind, stall)
}

/// Starts `participant`'s process, speaking its protocol.
fn spawn(participant: &Participant, launch: &engine::Launch) -> Result<Engine, engine::Failure> {
    let mut engine = Engine::spawn(&participant.spec, launch)?;
    if participant.proto == Proto::Nboard {
        engine.use_nboard();
    }
    Ok(engine)
}

/// The start of [`start_engine`] after the process runs: handshake, options, move
/// time.
fn prepare(
    mut engine: Engine,
    participant: &Participant,
    kind: GameKind,
    stall: Duration,
) -> Result<Engine, engine::Failure> {
    engine.handshake(kind, stall)?;
    engine.set_options(&participant.options, stall)?;
    if let TimeControl::MoveTime { ms } = participant.time
        && engine.knows("set_option")
    {
        engine.set_options(&[("movetime".to_string(), ms.to_string())], stall)?;
    }
    Ok(engine)
}

/// Refuses a run that an engine cannot play: a game other than Othello without
/// `set_game` (plain GTP 2 has no way to name it), or openings given as bare
/// positions to an engine without `set_position`.
fn check_dialect(engine: &Engine, name: &str, kind: GameKind, openings: &Openings) -> Result<()> {
    if kind != GameKind::Othello && !engine.knows("set_game") {
        bail!(
            "engine {name} does not know set_game: a plain GTP 2 engine can play only othello (boardsize 8)"
        );
    }
    if openings.has_bare_positions() && !engine.knows("set_position") {
        bail!(
            "engine {name} does not know set_position: give the openings as move sequences (such as f5d6c3d3c4), not positions"
        );
    }
    Ok(())
}

/// What the workers share.
struct Shared {
    kind: GameKind,
    participants: Vec<Participant>,
    /// How each engine's processes start (folder, log).
    launches: Vec<engine::Launch>,
    /// The rules of every game but the time controls, which are the engines' own.
    rules: Rules,
    openings: Openings,
    seed: u64,
    queue: Mutex<VecDeque<Fixture>>,
    stop: AtomicBool,
}

impl Shared {
    fn next(&self) -> Option<Fixture> {
        if self.stop.load(Ordering::Relaxed) || engine::aborted() {
            return None;
        }
        self.queue.lock().ok()?.pop_front()
    }

    fn start(&self, index: usize) -> Result<Engine, engine::Failure> {
        let participant = self
            .participants
            .get(index)
            .ok_or_else(|| engine::Failure::Crash("no such engine".into()))?;
        start_engine(
            participant,
            &self.launches[index],
            self.kind,
            self.rules.stall,
        )
    }

    /// Plays `fixture` with this worker's engines, starting them as needed; after the
    /// game each engine is kept, drained of a late answer, or dropped (killed) for a
    /// fresh start, as the referee's [`Fate`] says.
    fn play(&self, engines: &mut [Option<Engine>], fixture: Fixture) -> GameResult {
        let seats = [fixture.black, fixture.white];
        let seed = game_seed(self.seed, fixture.number);
        let mut failures = [None, None];
        for (seat, &index) in seats.iter().enumerate() {
            let Some(slot) = engines.get_mut(index) else {
                continue;
            };
            if slot.is_none() {
                match self.start(index) {
                    Ok(engine) => *slot = Some(engine),
                    Err(failure) => failures[seat] = Some(failure),
                }
            }
            if let Some(engine) = slot
                && engine.knows("set_option")
            {
                let line = format!("set_option seed {}", seed.wrapping_add(seat as u64));
                match engine.ask(&line, self.rules.stall) {
                    Ok(_) | Err(engine::Failure::Refused(_)) => {}
                    Err(failure) => failures[seat] = Some(failure),
                }
            }
        }
        let mut black = engines.get_mut(fixture.black).and_then(Option::take);
        let mut white = engines.get_mut(fixture.white).and_then(Option::take);
        let result = match (&mut black, &mut white) {
            (Some(b), Some(w)) if failures.iter().all(Option::is_none) => {
                let rules = Rules {
                    time: seats.map(|i| self.participants[i].time),
                    ..self.rules
                };
                referee::play(&self.openings.get(fixture.round), b, w, rules)
            }
            _ => referee::unstarted(failures),
        };
        for (color, engine) in [(Color::Black, black), (Color::White, white)] {
            let (Some(mut engine), Some(slot)) = (engine, engines.get_mut(seats[color.index()]))
            else {
                continue;
            };
            let name = &self.participants[seats[color.index()]].spec.name;
            match result.fates[color.index()] {
                Fate::Keep => *slot = Some(engine),
                Fate::Drain => match engine.drain(self.rules.stall) {
                    Ok(()) => *slot = Some(engine),
                    Err(failure) => log::warn!(
                        "engine {name} (pid {}) {failure} after its time forfeit: restarting it",
                        engine.pid()
                    ),
                },
                Fate::Restart => log::info!(
                    "engine {name} (pid {}) is restarted for its next game",
                    engine.pid()
                ),
            }
        }
        result
    }
}

/// The progress bar on stderr (`indicatif`), drawn only when stderr is a terminal:
/// games done, the elapsed time (ticking), the time left at this run's pace, and the
/// last score. The report's lines are written with the bar lifted ([`Progress::lift`]).
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    total: usize,
    /// Games done (resumed ones) when the run started, and when.
    first: usize,
    started: std::time::Instant,
}

/// `seconds` as `H:MM:SS` (or `M:SS` under an hour).
fn clock_time(seconds: u64) -> String {
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// The time left at this run's pace, `ETA H:MM:SS` (`ETA ?` before a game is
/// played); games resumed from the records do not count towards the pace.
fn eta_text(done: usize, total: usize, first: usize, elapsed: Duration) -> String {
    let played = done.saturating_sub(first);
    match played {
        0 => "ETA ?".to_string(),
        _ => {
            let left = total.saturating_sub(done) as f64;
            let eta = clock_time((elapsed.as_secs_f64() / played as f64 * left).round() as u64);
            format!("ETA {eta}")
        }
    }
}

impl Progress {
    /// A bar for `total` games of which `first` are done, on a terminal only.
    fn new(total: usize, first: usize) -> Progress {
        let bar = (std::io::stderr().is_terminal() && total > 0).then(|| {
            let bar = indicatif::ProgressBar::with_draw_target(
                Some(total as u64),
                indicatif::ProgressDrawTarget::stderr(),
            );
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "[{bar:20}] {pos}/{len} games, {elapsed_precise}, {wide_msg}",
            ) {
                bar.set_style(style.progress_chars("#-"));
            }
            bar.enable_steady_tick(Duration::from_secs(1));
            bar
        });
        let progress = Progress {
            bar,
            total,
            first,
            started: std::time::Instant::now(),
        };
        progress.update(first, None);
        progress
    }

    /// Runs `write` (lines for stdout) with the bar lifted off the terminal.
    fn lift(&self, write: impl FnOnce()) {
        match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }

    /// Shows `done` games and the score line's counts.
    fn update(&self, done: usize, score: Option<&String>) {
        let Some(bar) = &self.bar else { return };
        let score = score
            .and_then(|line| line.split_once(": "))
            .map_or(String::new(), |(_, counts)| format!(", {counts}"));
        let eta = eta_text(done, self.total, self.first, self.started.elapsed());
        bar.set_position(done as u64);
        bar.set_message(format!("{eta}{score}"));
    }

    /// Takes the bar away for good.
    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The tallies of every pair of engines `(i, j)`, `i < j`, from `i`'s side.
type Tallies = HashMap<(usize, usize), Tally>;

fn tally_game(tallies: &mut Tallies, fixture: Fixture, outcome: Outcome) {
    let (a, a_color) = if fixture.black < fixture.white {
        (fixture.black, Color::Black)
    } else {
        (fixture.white, Color::White)
    };
    let b = fixture.black.max(fixture.white);
    tallies
        .entry((a, b))
        .or_default()
        .add(fixture.round, outcome.score(a_color));
}

fn write_record(file: &mut std::fs::File, text: &str) -> Result<()> {
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .context("writing the records")
}

/// Runs the arena as `args` plans it.
pub fn run(args: &Plan) -> Result<()> {
    let kind = args.kind;
    let time = args.time;
    let participants = args
        .engines
        .iter()
        .map(|words| settings::participant(words, &args.each, time))
        .collect::<Result<Vec<_>>>()?;
    if let Some(p) = participants.iter().find(|p| p.proto == Proto::Nboard)
        && kind != GameKind::Othello
    {
        bail!("engine {}: proto=nboard plays only othello", p.spec.name);
    }
    for p in &participants {
        if p.proto == Proto::Nboard && p.time != TimeControl::None {
            log::warn!(
                "engine {}: the NBoard protocol cannot tell an engine its time; it is held \
                 to its time all the same (set its pace with option.depth=N or its own flags)",
                p.spec.name
            );
        }
    }
    let specs: Vec<_> = participants.iter().map(|p| p.spec.clone()).collect();
    let tournament = args.tournament;
    if specs.len() < 2 {
        bail!("at least two --engine are needed");
    }
    for (i, spec) in specs.iter().enumerate() {
        if specs[..i].iter().any(|other| other.name == spec.name) {
            bail!("two engines are named {:?}", spec.name);
        }
    }
    let sprt = args.sprt;
    if sprt.is_some() && specs.len() != 2 {
        bail!("--sprt needs exactly two engines");
    }
    if args.ggf_records && kind != GameKind::Othello {
        bail!("--records-format ggf: GGF records Othello games only");
    }
    if args.ggf_records && args.resume {
        bail!("--resume reads PGN records: --records-format ggf cannot be resumed");
    }
    if sprt.is_some() && args.shard.is_some() {
        bail!(
            "--sprt with --shard: a shard plays all its games; `tabula arena merge --sprt` decides"
        );
    }
    let rules = Rules {
        time: [TimeControl::None; 2],
        margin: Duration::from_millis(args.timemargin),
        stall: Duration::from_millis(args.timeout.max(1)),
        max_turns: args.max_turns,
    };
    let openings = args.openings.clone();

    // The records file must take writes before any engine starts: each run begins
    // with an empty line there (PGN ignores it), so a file that cannot be written
    // (a missing folder, a folder, a full disk) stops the run at once.
    let mut records = match &args.records {
        Some(path) => {
            let mut file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("the records file {path} cannot be opened"))?;
            file.write_all(b"\n")
                .and_then(|()| file.flush())
                .with_context(|| format!("the records file {path} cannot be written"))?;
            Some(file)
        }
        None => None,
    };

    let schedule = schedule::fixtures(specs.len(), args.games.max(1), tournament);
    // The match's size, which the report's lines name (a shard plays a part of it).
    let scheduled = schedule.len();
    let fixtures: Vec<Fixture> = schedule
        .into_iter()
        .filter(|fixture| args.shard.is_none_or(|shard| shard.holds(fixture.number)))
        .collect();
    let total = fixtures.len();
    let mut tallies: Tallies = HashMap::new();
    let mut done = 0;
    let mut remaining: VecDeque<Fixture> = fixtures.iter().copied().collect();
    if args.resume
        && let Some(path) = &args.records
    {
        let finished = record::read(path)?;
        // The file must be this match's: the same game, and every game one of this
        // schedule's (engines, --games and --tournament make it; a larger --games
        // extends a match, and each game's pairing is checked below).
        for f in &finished {
            if f.game.as_deref().is_some_and(|g| g != kind.name()) {
                bail!(
                    "{path}: game {} is a game of {}, this run plays {}",
                    f.number,
                    f.game.as_deref().unwrap_or_default(),
                    kind.name()
                );
            }
            if f.number > scheduled {
                bail!(
                    "{path}: game {} is not in this run's schedule of {scheduled} games \
                     (check the engines, --games and --tournament)",
                    f.number
                );
            }
        }
        let by_number: HashMap<usize, &record::Finished> =
            finished.iter().map(|f| (f.number, f)).collect();
        remaining.clear();
        for fixture in &fixtures {
            match by_number.get(&fixture.number) {
                Some(f) => {
                    if f.seed != Some(game_seed(args.seed, f.number)) {
                        bail!(
                            "{path}: game {} {}; resume with the --seed of the run that wrote it, or start a new file",
                            f.number,
                            match f.seed {
                                Some(_) => "was played under another --seed",
                                None =>
                                    "has no Seed tag (an older arena's record, whose Result was inverted)",
                            }
                        );
                    }
                    let names = (&specs[fixture.black].name, &specs[fixture.white].name);
                    if (&f.black, &f.white) != names || f.round != fixture.round {
                        bail!(
                            "{path}: game {} was {} vs {} in round {}, the schedule says {} vs {} in round {}",
                            f.number,
                            f.black,
                            f.white,
                            f.round + 1,
                            names.0,
                            names.1,
                            fixture.round + 1
                        );
                    }
                    tally_game(&mut tallies, *fixture, f.outcome);
                    done += 1;
                }
                None => remaining.push_back(*fixture),
            }
        }
        log::warn!("resuming from {path}: {done} of {total} games already played");
    }

    let launches = participants
        .iter()
        .map(|participant| engine_launch(participant, args.engine_log.as_deref()))
        .collect::<Result<Vec<_>>>()?;
    // Ctrl-C stops the games in flight (every wait for an engine ends at once), and
    // the run closes as usual: records written, summary printed, a failing exit.
    if let Err(e) = ctrlc::set_handler(engine::abort_all) {
        log::warn!("Ctrl-C will not stop the run cleanly: {e}");
    }

    // Every engine's program must start before the run, and the engines that shake
    // hands must be able to play it; these processes are the first worker's. An
    // engine that starts but breaks its handshake (junk, silence, an exit) is named
    // on stderr, and its games are scored to the opponent while it keeps failing.
    let mut first_engines = Some(
        participants
            .iter()
            .zip(&launches)
            .map(|(participant, launch)| {
                let name = &participant.spec.name;
                let engine =
                    spawn(participant, launch).map_err(|f| anyhow!("engine {name} {f}"))?;
                match prepare(engine, participant, kind, rules.stall) {
                    Ok(engine) => {
                        check_dialect(&engine, name, kind, &openings)?;
                        Ok(Some(engine))
                    }
                    // A refusal at start is the settings' fault (a game, an option
                    // the engine does not take): the run stops.
                    Err(failure @ engine::Failure::Refused(_)) => {
                        bail!("engine {name} {failure}")
                    }
                    Err(failure) => {
                        log::warn!(
                            "engine {name} {failure} at start: its games are scored to the opponent while it fails"
                        );
                        Ok(None)
                    }
                }
            })
            .collect::<Result<Vec<_>>>()?,
    );
    // Records are written in game-number order: a game waits until every game before
    // it in `order` is written.
    let order: Vec<usize> = remaining.iter().map(|f| f.number).collect();
    let mut written = 0;
    let mut unwritten: BTreeMap<usize, String> = BTreeMap::new();

    let workers = args.concurrency.clamp(1, remaining.len().max(1));
    let shared = Arc::new(Shared {
        kind,
        participants,
        launches,
        rules,
        openings,
        seed: args.seed,
        queue: Mutex::new(remaining),
        stop: AtomicBool::new(false),
    });
    let (sender, events) = mpsc::channel::<Event>();
    let mut handles = Vec::new();
    for _ in 0..workers {
        let shared = Arc::clone(&shared);
        let sender = sender.clone();
        let engines = first_engines.take();
        handles.push(thread::spawn(move || {
            let mut engines: Vec<Option<Engine>> =
                engines.unwrap_or_else(|| shared.participants.iter().map(|_| None).collect());
            while let Some(fixture) = shared.next() {
                if sender.send(Event::Started(fixture)).is_err() {
                    break;
                }
                let date = record::date(SystemTime::now());
                let result = shared.play(&mut engines, fixture);
                // A game the interrupt cut short has no result.
                let event = if engine::aborted() {
                    Event::Stopped(fixture)
                } else {
                    Event::Finished(fixture, result, date)
                };
                if sender.send(event).is_err() {
                    break;
                }
            }
            for engine in engines.into_iter().flatten() {
                if engine::aborted() {
                    drop(engine);
                } else {
                    engine.quit();
                }
            }
        }));
    }
    drop(sender);

    let progress = Progress::new(total, done);
    let mut stdout = std::io::stdout();
    // The last score line printed: the summary does not repeat it.
    let mut last_score = None;
    let mut games_json = Vec::new();
    let mut stopped = Vec::new();
    for event in events {
        let (fixture, result, date) = match event {
            Event::Started(fixture) => {
                progress.lift(|| {
                    let _ = writeln!(
                        stdout,
                        "Started game {} of {scheduled} ({} vs {})",
                        fixture.number, specs[fixture.white].name, specs[fixture.black].name
                    );
                    let _ = stdout.flush();
                });
                continue;
            }
            Event::Stopped(fixture) => {
                stopped.push(fixture.number);
                continue;
            }
            Event::Finished(fixture, result, date) => (fixture, result, date),
        };
        done += 1;
        let black = &specs[fixture.black].name;
        let white = &specs[fixture.white].name;
        let record = Record {
            event: "tabula arena".into(),
            game: kind.name().to_string(),
            number: fixture.number,
            round: fixture.round,
            date,
            seed: game_seed(args.seed, fixture.number),
            time_controls: [fixture.black, fixture.white]
                .map(|i| pgn_time_control(shared.participants[i].time)),
            black: black.clone(),
            white: white.clone(),
            outcome: result.outcome,
            termination: result.termination,
            reason: result.reason.clone(),
            opening: shared.openings.get(fixture.round).notation(),
            moves: result.moves.clone(),
            fleets: result.fleets.clone(),
            match_seed: args.seed,
            match_games: scheduled,
        };
        games_json.push(record.to_json());
        if let Some(file) = &mut records {
            let text = if args.ggf_records {
                record
                    .to_ggf()
                    .map(|line| format!("{line}\n"))
                    .unwrap_or_default()
            } else {
                record.to_pgn()
            };
            unwritten.insert(fixture.number, text);
            while let Some(text) = order.get(written).and_then(|n| unwritten.remove(n)) {
                write_record(file, &text)?;
                written += 1;
            }
        }
        tally_game(&mut tallies, fixture, result.outcome);
        let pair = (
            fixture.black.min(fixture.white),
            fixture.black.max(fixture.white),
        );
        let tally = tallies.get(&pair).cloned().unwrap_or_default();
        let line = tally.score_line(&specs[pair.0].name, &specs[pair.1].name);
        let rating = args.rating_interval > 0 && done.is_multiple_of(args.rating_interval);
        progress.lift(|| {
            // cutechess-cli's line: white's name first, the result as in PGN.
            let _ = writeln!(
                stdout,
                "Finished game {} ({white} vs {black}): {} {{{}}}",
                fixture.number,
                record::result_code(result.outcome),
                result.reason
            );
            let _ = writeln!(stdout, "{line}");
            if rating {
                let _ = writeln!(stdout, "{}", tally.elo_line());
                if let Some(sprt) = &sprt {
                    let _ = writeln!(stdout, "{}", sprt.line(&tally.penta));
                }
            }
            let _ = stdout.flush();
        });
        progress.update(done, Some(&line));
        last_score = (!rating).then_some(line);
        if let Some(sprt) = &sprt
            && sprt.verdict(sprt.llr(&tally.penta)) != Verdict::Continue
        {
            shared.stop.store(true, Ordering::Relaxed);
        }
    }
    for handle in handles {
        let _ = handle.join();
    }
    // Games after one that was never played (the SPRT or an interrupt stopped the
    // run).
    if let Some(file) = &mut records {
        for text in unwritten.values() {
            write_record(file, text)?;
        }
    }
    progress.finish();

    let names: Vec<String> = specs.iter().map(|spec| spec.name.clone()).collect();
    let pairs = summary(&mut stdout, &names, tallies, sprt.as_ref(), last_score);
    let interrupted = engine::aborted();
    if let Some(path) = &args.json {
        let summary = json_summary(&pairs, &names, sprt.as_ref(), done, total, interrupted);
        let text = format!(
            "{{\"games\": [{}], \"summary\": {summary}}}\n",
            games_json.join(", ")
        );
        std::fs::write(path, text).with_context(|| format!("writing {path}"))?;
    }
    if interrupted {
        stopped.sort_unstable();
        let _ = writeln!(
            stdout,
            "Interrupted: {done} of {total} games played{}",
            match stopped.len() {
                0 => String::new(),
                n => format!(
                    ", {n} stopped unfinished (game{} {})",
                    if n == 1 { "" } else { "s" },
                    stopped
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        );
        let _ = stdout.flush();
        bail!(
            "interrupted after {done} of {total} games{}",
            if args.records.is_some() {
                "; --resume continues from the records"
            } else {
                ""
            }
        );
    }
    let _ = writeln!(stdout, "Finished match");
    let _ = stdout.flush();
    Ok(())
}

/// Writes the closing summary: per pair of engines its score line (unless it is
/// `last_score`, just printed), pentanomial counts, Elo and SPRT lines; standings
/// for more than two engines. Returns the pairs' tallies, in order.
fn summary(
    out: &mut impl Write,
    names: &[String],
    tallies: Tallies,
    sprt: Option<&Sprt>,
    mut last_score: Option<String>,
) -> Vec<((usize, usize), Tally)> {
    let mut pairs: Vec<_> = tallies.into_iter().collect();
    pairs.sort_by_key(|(pair, _)| *pair);
    for ((a, b), tally) in &pairs {
        let line = tally.score_line(&names[*a], &names[*b]);
        if last_score.take().as_ref() != Some(&line) {
            let _ = writeln!(out, "{line}");
        }
        let p = tally.penta;
        let _ = writeln!(
            out,
            "Ptnml(0-2): [{}, {}, {}, {}, {}]",
            p[0], p[1], p[2], p[3], p[4]
        );
        let _ = writeln!(out, "{}", tally.elo_line());
        if let Some(sprt) = sprt {
            let _ = writeln!(out, "{}", sprt.line(&tally.penta));
        }
    }
    if names.len() > 2 {
        let table = stats::standings(names, &pairs);
        let _ = writeln!(out, "{}", stats::standings_table(&table));
    }
    pairs
}

/// What a worker tells the main thread.
enum Event {
    Started(Fixture),
    Finished(Fixture, GameResult, String),
    /// The interrupt cut the game short: it has no result.
    Stopped(Fixture),
}

/// How `participant`'s processes start: its folder, and its log file
/// `DIR/NAME.log` when `--engine-log DIR` is given (created, then appended to).
fn engine_launch(participant: &Participant, log_dir: Option<&str>) -> Result<engine::Launch> {
    let log = match log_dir {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("--engine-log {dir}: the folder cannot be made"))?;
            let name: String = participant
                .spec
                .name
                .chars()
                .map(|c| {
                    if c.is_alphanumeric() || "-_.".contains(c) {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            let path = std::path::Path::new(dir).join(format!("{name}.log"));
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .with_context(|| format!("{} cannot be opened", path.display()))?;
            Some(Arc::new(Mutex::new(file)))
        }
        None => None,
    };
    Ok(engine::Launch {
        dir: participant.dir.clone(),
        log,
    })
}

/// The summary as JSON: games played, whether interrupted, and each pair's counts,
/// pentanomial, Elo, error bar, LOS and (with an SPRT) its LLR and verdict.
fn json_summary(
    pairs: &[((usize, usize), Tally)],
    names: &[String],
    sprt: Option<&Sprt>,
    done: usize,
    total: usize,
    interrupted: bool,
) -> String {
    use record::json_string;
    let number = |x: f64| {
        if x.is_finite() {
            format!("{x:.4}")
        } else {
            "null".to_string()
        }
    };
    let pairs: Vec<String> = pairs
        .iter()
        .map(|((a, b), tally)| {
            let e = tally.estimate();
            let sprt = sprt.map_or(String::new(), |sprt| {
                let llr = sprt.llr(&tally.penta);
                format!(
                    ", \"llr\": {}, \"sprt\": {}",
                    number(llr),
                    json_string(sprt.verdict(llr).text())
                )
            });
            format!(
                "{{\"a\": {}, \"b\": {}, \"wins\": {}, \"losses\": {}, \"draws\": {}, \"penta\": {:?}, \"elo\": {}, \"error\": {}, \"los\": {}{sprt}}}",
                json_string(&names[*a]),
                json_string(&names[*b]),
                tally.wins,
                tally.losses,
                tally.draws,
                tally.penta,
                number(e.elo),
                number(e.error),
                number(e.los * 100.0),
            )
        })
        .collect();
    format!(
        "{{\"played\": {done}, \"scheduled\": {total}, \"interrupted\": {interrupted}, \"pairs\": [{}]}}",
        pairs.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_tells_the_time_left_at_this_pace() {
        let minute = Duration::from_secs(60);
        assert_eq!(eta_text(10, 40, 0, minute), "ETA 3:00");
        // Resumed games do not count towards the pace.
        assert_eq!(eta_text(30, 40, 20, minute), "ETA 1:00");
        assert_eq!(eta_text(0, 40, 0, Duration::from_secs(3725)), "ETA ?");
        assert_eq!(eta_text(1, 40, 0, Duration::from_secs(100)), "ETA 1:05:00");
    }
}
