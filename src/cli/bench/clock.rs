//! `tabula bench clock`: how late `genmove` answers, measured as a controller sees
//! it. Each game starts a fresh engine process (this binary), sets `hash` and
//! `movetime` with `set_option`, and plays through the real protocol loop; the time
//! of a move runs from writing `genmove` to reading the first line of its answer.
//! The overshoot is that time less `movetime` (negative when early). The first move
//! of each process is reported apart, since set-up costs used to land there.

use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};
use clap::Args;

use crate::values::named;
use tabula::arena::engine::{Engine, EngineSpec, Failure};
use tabula::games::GameKind;

#[derive(Args, Clone, Debug)]
pub struct ClockArgs {
    /// Games (fresh processes) per game kind, move time and hash size (clock).
    #[arg(long, default_value_t = 3)]
    clock_games: u32,
    /// At most this many `genmove`s per game (clock).
    #[arg(long, default_value_t = 30)]
    clock_moves: u32,
    /// Move times in milliseconds, comma-separated (clock).
    #[arg(long, default_value = "20,50,100")]
    movetimes: String,
    /// Hash sizes in MiB, comma-separated (clock).
    #[arg(long, default_value = "16,256,1024")]
    hashes: String,
    /// The games to play, comma-separated (clock).
    #[arg(long, default_value = "othello,shell,battleship", value_delimiter = ',',
          ignore_case = true,
          value_parser = named(GameKind::ALL.map(GameKind::name), GameKind::from_name))]
    clock_for: Vec<GameKind>,
}

fn list<T: std::str::FromStr>(flag: &str, text: &str) -> Result<Vec<T>> {
    text.split(',')
        .map(|item| {
            item.trim()
                .parse()
                .map_err(|_| anyhow!("--{flag}: {item:?} is not a valid value"))
        })
        .collect()
}

/// Answers of commands outside any clock may take this long (a large hash is
/// allocated when it is set).
const SETUP: Duration = Duration::from_secs(120);

/// One engine process playing one game, timing its moves.
struct Game {
    engine: Engine,
    movetime: Duration,
    /// Overshoots in milliseconds, in move order.
    overshoots: Vec<f64>,
}

impl Game {
    fn start(kind: GameKind, movetime_ms: u64, hash_mib: u32) -> Result<Game> {
        let program = std::env::current_exe()?;
        let spec = EngineSpec {
            name: "tabula".into(),
            program: program.to_string_lossy().into_owned(),
            args: vec!["--log-level".into(), "error".into()],
        };
        let options = [
            ("hash".to_string(), hash_mib.to_string()),
            ("movetime".to_string(), movetime_ms.to_string()),
        ];
        let engine =
            Engine::start(&spec, kind, &options, SETUP).map_err(|e| anyhow!("the engine {e}"))?;
        Ok(Game {
            engine,
            movetime: Duration::from_millis(movetime_ms),
            overshoots: Vec::new(),
        })
    }

    fn ask(&mut self, line: &str) -> Result<String> {
        self.engine
            .ask(line, SETUP)
            .map_err(|e| anyhow!("{line}: the engine {e}"))
    }

    /// `genmove COLOR`, timed.
    fn genmove(&mut self, color: &str) -> Result<String> {
        let line = format!("genmove {color}");
        let sent = self
            .engine
            .send(&line)
            .map_err(|e| anyhow!("the engine {e}"))?;
        let (answer, at) = self
            .engine
            .receive(sent + self.movetime + SETUP)
            .map_err(|e: Failure| anyhow!("{line}: the engine {e}"))?;
        let took = at.duration_since(sent).as_secs_f64() - self.movetime.as_secs_f64();
        self.overshoots.push(took * 1000.0);
        Ok(answer)
    }

    fn over(&mut self) -> Result<bool> {
        Ok(self.ask("status")? != "ongoing")
    }

    /// Plays up to `moves` genmoves of `kind` from the start.
    fn play(&mut self, kind: GameKind, moves: u32) -> Result<()> {
        match kind {
            GameKind::Othello => {
                while (self.overshoots.len() as u32) < moves && !self.over()? {
                    let position = self.ask("position")?;
                    let color = if position.ends_with('X') {
                        "black"
                    } else {
                        "white"
                    };
                    self.genmove(color)?;
                }
            }
            GameKind::Shell => {
                while (self.overshoots.len() as u32) + 2 <= moves && !self.over()? {
                    let black = self.genmove("black")?;
                    let white = self.genmove("white")?;
                    self.ask(&format!("resolve_turn {black} {white}"))?;
                }
            }
            GameKind::Battleship => {
                self.ask("genfleet black")?;
                self.ask("genfleet white")?;
                self.ask("ready white")?;
                let mut color = self.ask("start")?;
                while (self.overshoots.len() as u32) < moves && !self.over()? {
                    let answer = self.genmove(&color)?;
                    if answer.ends_with("miss") {
                        color = if color == "black" { "white" } else { "black" }.into();
                    }
                }
            }
        }
        Ok(())
    }
}

/// The value at quantile `q` (0 to 1) of sorted `values`.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let at = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

pub fn run(args: &ClockArgs) -> Result<()> {
    let movetimes: Vec<u64> = list("movetimes", &args.movetimes)?;
    let hashes: Vec<u32> = list("hashes", &args.hashes)?;
    let kinds = &args.clock_for;
    if args.clock_games == 0 || args.clock_moves == 0 || movetimes.contains(&0) {
        bail!("--clock-games, --clock-moves and every move time must be at least 1");
    }
    println!(
        "tabula bench clock --clock-games {} --clock-moves {} --movetimes {} --hashes {} --clock-for {}",
        args.clock_games,
        args.clock_moves,
        args.movetimes,
        args.hashes,
        kinds
            .iter()
            .map(|kind| kind.name())
            .collect::<Vec<_>>()
            .join(",")
    );
    println!("overshoot = answer time - movetime, in ms, as the controller measures it");
    println!(
        "{:<10} {:>8} {:>6} {:>6} | {:>8} {:>8} | {:>8} {:>8} {:>8}",
        "game", "movetime", "hash", "moves", "1st med", "1st max", "med", "p99", "max"
    );
    for &kind in kinds {
        for &movetime in &movetimes {
            for &hash in &hashes {
                let started = Instant::now();
                let mut first = Vec::new();
                let mut later = Vec::new();
                for _ in 0..args.clock_games {
                    let mut game = Game::start(kind, movetime, hash)?;
                    game.play(kind, args.clock_moves)?;
                    game.engine.quit();
                    if let Some((&head, tail)) = game.overshoots.split_first() {
                        first.push(head);
                        later.extend_from_slice(tail);
                    }
                }
                for values in [&mut first, &mut later] {
                    values.sort_by(f64::total_cmp);
                }
                println!(
                    "{:<10} {:>8} {:>6} {:>6} | {:>8.1} {:>8.1} | {:>8.1} {:>8.1} {:>8.1}   ({:.0} s)",
                    kind.name(),
                    movetime,
                    hash,
                    first.len() + later.len(),
                    quantile(&first, 0.5),
                    quantile(&first, 1.0),
                    quantile(&later, 0.5),
                    quantile(&later, 0.99),
                    quantile(&later, 1.0),
                    started.elapsed().as_secs_f64()
                );
            }
        }
    }
    Ok(())
}
