//! The referee: plays one game between two engines and judges every move with our own
//! rules code ([`crate::games`]); an engine is never trusted.
//!
//! Every game ends with a [`GameResult`]: the outcome, a [`Termination`] and a reason
//! for people. An engine that crashes, stalls, overruns its time, plays an illegal
//! move, lies about a shot or breaks the protocol loses the game; when both fail in
//! the same Shell turn the game is drawn. The referee tells the caller what each
//! engine needs before its next game ([`Fate`]): nothing, the late answer drained
//! (after a time forfeit), or a restart (after a crash, a stall or a protocol error,
//! when the process can no longer be trusted to be in step).

use std::fmt;
use std::time::{Duration, Instant};

use super::engine::{Engine, Failure, clip};
use crate::games::battleship::{Cell as SeaCell, Fleet, ShotResult, Table};
use crate::games::othello::{Move, Position as OthelloPosition};
use crate::games::shell::{Cell as ShellCell, Position as ShellPosition};
use crate::games::{Color, GameKind, Outcome};
use crate::protocol::Command;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The rules ended it.
    Normal,
    /// `--max-turns` was reached.
    Adjudication,
    /// An engine overran its clock or its move time (plus the margin).
    TimeForfeit,
    /// An engine played a move the rules refuse, gave an invalid fleet, or reported
    /// a shot at its own fleet falsely.
    IllegalMove,
    /// An engine's process could not start, exited or closed a pipe.
    Crash,
    /// An engine gave no answer within the stall timeout.
    Stall,
    /// An engine answered outside the protocol, refused a command it had to accept,
    /// or disagreed with the referee's turn report.
    ProtocolError,
}

impl Termination {
    pub const ALL: [Termination; 7] = [
        Termination::Normal,
        Termination::Adjudication,
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::Crash,
        Termination::Stall,
        Termination::ProtocolError,
    ];

    /// The record's word for it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Crash => "crash",
            Termination::Stall => "stall",
            Termination::ProtocolError => "protocol error",
        }
    }

    /// The termination written as `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.name() == name)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The time control the arena keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// No clock: a move may take up to the stall timeout.
    None,
    /// A fixed time per move (`set_option movetime`).
    MoveTime { ms: u64 },
    /// A clock per side: main time plus an increment per move, told with `time_left`;
    /// with `moves`, the main time is given again after every `moves` moves of the
    /// side (cutechess-cli's `moves/time+inc`).
    Clock {
        main_ms: u64,
        increment_ms: u64,
        moves: Option<u32>,
    },
}

/// What a game is played under.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// Black's and white's time controls.
    pub time: [TimeControl; 2],
    /// Grace over the clock or move time before a time forfeit.
    pub margin: Duration,
    /// How long any answer may take when no clock applies.
    pub stall: Duration,
    /// Turns after which the game is adjudicated.
    pub max_turns: Option<u32>,
}

/// Where a game starts.
#[derive(Clone, Debug, PartialEq)]
pub enum Opening {
    /// An Othello position, with the plies from the start that reach it when known
    /// (then an engine without `set_position` is sent them as moves).
    Othello {
        position: OthelloPosition,
        moves: Option<Vec<Move>>,
    },
    /// A Shell position, with the turns (black, white picks) that reach it when known.
    Shell {
        position: ShellPosition,
        turns: Option<Vec<(ShellCell, ShellCell)>>,
    },
    /// Battleship starts from the fleets each engine places.
    Battleship,
}

impl Opening {
    /// The opening in the game's notation (`-` for Battleship).
    #[must_use]
    pub fn notation(&self) -> String {
        match self {
            Opening::Othello { position, .. } => position.to_notation(),
            Opening::Shell { position, .. } => position.to_notation(),
            Opening::Battleship => "-".into(),
        }
    }

    /// Whether the opening is the game's start position.
    #[must_use]
    pub fn from_start(&self) -> bool {
        match self {
            Opening::Othello { position, .. } => *position == OthelloPosition::start(),
            Opening::Shell { position, .. } => *position == ShellPosition::new(),
            Opening::Battleship => true,
        }
    }

    /// The commands that play the opening in from the start, for an engine without
    /// `set_position`: `play COLOR MOVE` (Othello), `resolve_turn BLACK WHITE` (Shell);
    /// `None` when the moves are not known.
    #[must_use]
    pub fn moves(&self) -> Option<Vec<Command>> {
        match self {
            Opening::Othello { moves, .. } => {
                let mut position = OthelloPosition::start();
                let mut lines = Vec::new();
                for &mv in moves.as_ref()? {
                    let color = position.side_to_move();
                    position.play(color, mv).ok()?;
                    lines.push(Command::Play {
                        color,
                        mv: mv.to_string(),
                        claim: None,
                    });
                }
                Some(lines)
            }
            Opening::Shell { turns, .. } => Some(
                turns
                    .as_ref()?
                    .iter()
                    .map(|(black, white)| Command::ResolveTurn {
                        black: black.to_string(),
                        white: white.to_string(),
                    })
                    .collect(),
            ),
            Opening::Battleship => Some(Vec::new()),
        }
    }
}

/// What an engine needs after a game before it plays the next one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// It is in step: the next game's set-up follows.
    Keep,
    /// It still owes the answer to a thinking command that overran its time: that
    /// answer must be read (or the engine interrupted) first.
    Drain,
    /// It crashed, stalled or broke the protocol: a fresh process replaces it.
    Restart,
}

impl Fate {
    /// The fate of an engine whose fault ended a game by `termination`.
    fn after(termination: Termination) -> Fate {
        match termination {
            Termination::Crash | Termination::Stall | Termination::ProtocolError => Fate::Restart,
            _ => Fate::Keep,
        }
    }
}

/// A finished game as the referee saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    pub outcome: Outcome,
    pub termination: Termination,
    pub reason: String,
    /// The moves after the opening, in the game's notation.
    pub moves: Vec<String>,
    /// Battleship: the black and white fleets, when placed.
    pub fleets: [Option<String>; 2],
    /// What each engine (black, white) needs before its next game.
    pub fates: [Fate; 2],
}

/// An ending found in the middle of play.
struct Ending {
    outcome: Outcome,
    termination: Termination,
    reason: String,
    fates: [Fate; 2],
}

impl Ending {
    fn loss(color: Color, termination: Termination, reason: String) -> Ending {
        let mut fates = [Fate::Keep; 2];
        fates[color.index()] = Fate::after(termination);
        Ending {
            outcome: Outcome::Won(color.opponent()),
            termination,
            reason: format!("{} {reason}", capital(color)),
            fates,
        }
    }

    /// `color` failed an exchange.
    fn failure(color: Color, failure: &Failure) -> Ending {
        let termination = match failure {
            Failure::Crash(_) | Failure::Aborted => Termination::Crash,
            Failure::Stall => Termination::Stall,
            Failure::Garbage(_) | Failure::Refused(_) | Failure::WrongId(_) => {
                Termination::ProtocolError
            }
        };
        Ending::loss(color, termination, failure.to_string())
    }

    fn normal(outcome: Outcome, termination: Termination, reason: String) -> Ending {
        Ending {
            outcome,
            termination,
            reason,
            fates: [Fate::Keep; 2],
        }
    }

    /// Both sides failed in the same turn: a draw, termed by black's failure.
    fn both(black: Ending, white: &Ending) -> Ending {
        Ending {
            outcome: Outcome::Draw,
            termination: black.termination,
            reason: format!("{}; {}", black.reason, white.reason),
            fates: [black.fates[0], white.fates[1]],
        }
    }
}

fn capital(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// One game in progress: the two engines (black, white), the clocks and the moves.
struct Match<'a> {
    engines: [&'a mut Engine; 2],
    rules: Rules,
    left_ms: [f64; 2],
    /// Moves each side made (for clocks with a move count).
    made: [u32; 2],
    moves: Vec<String>,
}

type Step<T> = Result<T, Ending>;

impl Match<'_> {
    /// A command to `color` that must succeed within the stall timeout.
    fn ask(&mut self, color: Color, line: impl fmt::Display) -> Step<String> {
        let stall = self.rules.stall;
        self.engines[color.index()]
            .ask(line, stall)
            .map_err(|f| Ending::failure(color, &f))
    }

    /// Tells `color` its clock, then sends `line` (a thinking command); answers the
    /// moment it was sent.
    fn send_think(&mut self, color: Color, line: impl fmt::Display) -> Step<Instant> {
        let engine = &*self.engines[color.index()];
        if let TimeControl::Clock { moves, .. } = self.rules.time[color.index()]
            && engine.knows("time_left")
        {
            // GTP 2: a count of moves left means a period of that many moves.
            let stones = moves.map_or(0, |m| m - self.made[color.index()] % m);
            let ms = self.left_ms[color.index()].max(0.0);
            let seconds = if engine.decimal_times() {
                format!("{:.3}", ms / 1000.0)
            } else {
                ((ms / 1000.0).floor() as u64).to_string()
            };
            self.ask(
                color,
                format!("time_left {} {seconds} {stones}", color.name()),
            )?;
        }
        self.engines[color.index()]
            .send(line)
            .map_err(|f| Ending::failure(color, &f))
    }

    /// Waits for the answer to a thinking command sent at `sent`, and charges its
    /// time: overrunning the clock or move time by more than the margin forfeits.
    fn await_think(&mut self, color: Color, sent: Instant) -> Step<String> {
        let margin = self.rules.margin;
        let allowed = match self.rules.time[color.index()] {
            TimeControl::None => None,
            TimeControl::MoveTime { ms } => Some(Duration::from_millis(ms)),
            TimeControl::Clock { .. } => Some(Duration::from_secs_f64(
                self.left_ms[color.index()].max(0.0) / 1000.0,
            )),
        };
        let deadline = sent + allowed.map_or(self.rules.stall, |a| a + margin);
        let forfeit = |spent: Duration| {
            Ending::loss(
                color,
                Termination::TimeForfeit,
                format!("loses on time ({} ms)", spent.as_millis()),
            )
        };
        let (text, at) = match self.engines[color.index()].receive(deadline) {
            Ok(answer) => answer,
            Err(Failure::Stall) if allowed.is_some() => {
                // The answer is still on its way: read it before the next game.
                let mut ending = forfeit(sent.elapsed());
                ending.fates[color.index()] = Fate::Drain;
                return Err(ending);
            }
            Err(failure) => return Err(Ending::failure(color, &failure)),
        };
        let spent = at.saturating_duration_since(sent);
        if let Some(allowed) = allowed
            && spent > allowed + margin
        {
            return Err(forfeit(spent));
        }
        if let TimeControl::Clock {
            main_ms,
            increment_ms,
            moves,
        } = self.rules.time[color.index()]
        {
            let made = &mut self.made[color.index()];
            *made += 1;
            let period = moves.is_some_and(|m| made.is_multiple_of(m));
            let left = &mut self.left_ms[color.index()];
            *left = (*left - spent.as_secs_f64() * 1000.0).max(0.0) + increment_ms as f64;
            if period {
                *left += main_ms as f64;
            }
        }
        Ok(text)
    }

    fn think(&mut self, color: Color, line: impl fmt::Display) -> Step<String> {
        let sent = self.send_think(color, line)?;
        self.await_think(color, sent)
    }

    fn turns_done(&self) -> bool {
        self.rules
            .max_turns
            .is_some_and(|max| self.moves.len() >= max as usize)
    }

    fn adjudicated(&self, outcome: Outcome, why: &str) -> Ending {
        Ending::normal(
            outcome,
            Termination::Adjudication,
            format!("Adjudication after {} turns: {why}", self.moves.len()),
        )
    }

    fn othello(&mut self, mut position: OthelloPosition) -> Step<Ending> {
        loop {
            let (black, white) = position.counts();
            if position.is_over() {
                let outcome = Outcome::by_margin(position.final_margin());
                let reason = match outcome {
                    Outcome::Won(Color::Black) => format!("Black wins {black}-{white}"),
                    Outcome::Won(Color::White) => format!("White wins {white}-{black}"),
                    Outcome::Draw => format!("Draw {black}-{white}"),
                };
                return Ok(Ending::normal(outcome, Termination::Normal, reason));
            }
            if self.turns_done() {
                let outcome = Outcome::by_margin(black as i32 - white as i32);
                return Ok(self.adjudicated(outcome, &format!("discs {black}-{white}")));
            }
            let mover = position.side_to_move();
            let text = self.think(mover, Command::Genmove(mover))?;
            let mv = Move::parse(text.trim()).ok_or_else(|| {
                Ending::loss(
                    mover,
                    Termination::ProtocolError,
                    format!("answers genmove with {:?}", clip(&text)),
                )
            })?;
            position.play(mover, mv).map_err(|e| {
                Ending::loss(
                    mover,
                    Termination::IllegalMove,
                    format!("makes an illegal move: {mv} ({e})"),
                )
            })?;
            self.moves.push(mv.to_string());
            let play = Command::Play {
                color: mover,
                mv: mv.to_string(),
                claim: None,
            };
            self.ask(mover.opponent(), play)?;
        }
    }

    /// Reads `color`'s Shell pick from a `genmove` answer and checks it.
    fn shell_pick(position: &ShellPosition, color: Color, answer: Step<String>) -> Step<ShellCell> {
        let text = answer?;
        let cell = ShellCell::parse(text.trim()).ok_or_else(|| {
            Ending::loss(
                color,
                Termination::ProtocolError,
                format!("answers genmove with {:?}", clip(&text)),
            )
        })?;
        if position.is_empty(cell) {
            Ok(cell)
        } else {
            Err(Ending::loss(
                color,
                Termination::IllegalMove,
                format!("makes an illegal move: {cell} is not empty"),
            ))
        }
    }

    fn shell(&mut self, mut position: ShellPosition) -> Step<Ending> {
        loop {
            let status = position.status();
            if status.is_over() {
                let outcome = status.outcome().unwrap_or(Outcome::Draw);
                let reason = match outcome {
                    Outcome::Draw => "Draw: the board is full".to_string(),
                    Outcome::Won(winner) => format!(
                        "{} wins with {}-{} winning turtles",
                        capital(winner),
                        position.winning_turtles(Color::Black),
                        position.winning_turtles(Color::White)
                    ),
                };
                return Ok(Ending::normal(outcome, Termination::Normal, reason));
            }
            if self.turns_done() {
                return Ok(self.adjudicated(Outcome::Draw, "a draw"));
            }
            // Both picks are asked for before either is read: neither engine sees the
            // other's, and both think at the same time.
            let black_sent = self.send_think(Color::Black, Command::Genmove(Color::Black));
            let white_sent = self.send_think(Color::White, Command::Genmove(Color::White));
            let black = black_sent.and_then(|sent| self.await_think(Color::Black, sent));
            let white = white_sent.and_then(|sent| self.await_think(Color::White, sent));
            let black = Self::shell_pick(&position, Color::Black, black);
            let white = Self::shell_pick(&position, Color::White, white);
            let (black, white) = match (black, white) {
                (Ok(b), Ok(w)) => (b, w),
                (Err(b), Err(w)) => return Err(Ending::both(b, &w)),
                (Err(e), _) | (_, Err(e)) => return Err(e),
            };
            let report = position.resolve_turn(black, white).map_err(|e| {
                Ending::normal(
                    Outcome::Draw,
                    Termination::Normal,
                    format!("internal error: {e}"),
                )
            })?;
            self.moves.push(format!("{black}/{white}"));
            let expected = report.to_string();
            for color in Color::ALL {
                let turn = Command::ResolveTurn {
                    black: black.to_string(),
                    white: white.to_string(),
                };
                let answer = self.ask(color, turn)?;
                if answer.trim() != expected {
                    return Err(Ending::loss(
                        color,
                        Termination::ProtocolError,
                        format!(
                            "reports {:?} for turn {black}/{white}; the referee says {expected:?}",
                            clip(&answer)
                        ),
                    ));
                }
            }
        }
    }

    fn battleship(&mut self, fleets: &mut [Option<String>; 2]) -> Step<Ending> {
        let mut table = Table::new();
        for color in Color::ALL {
            let text = self.ask(color, Command::GenFleet(color))?;
            let fleet = Fleet::parse(text.trim()).map_err(|e| {
                Ending::loss(
                    color,
                    Termination::IllegalMove,
                    format!("places an invalid fleet: {e}"),
                )
            })?;
            fleets[color.index()] = Some(fleet.to_string());
            table.place_fleet(color, fleet).map_err(|e| {
                Ending::normal(
                    Outcome::Draw,
                    Termination::Normal,
                    format!("internal error: {e}"),
                )
            })?;
        }
        let started = table.ready(Color::White).and_then(|()| table.start());
        if let Err(e) = started {
            return Ok(Ending::normal(
                Outcome::Draw,
                Termination::Normal,
                format!("internal error: {e}"),
            ));
        }
        for color in Color::ALL {
            self.ask(color, Command::Ready(Color::White))?;
            self.ask(color, Command::Start)?;
        }
        loop {
            let status = table.status();
            if status.is_over() {
                let outcome = status.outcome().unwrap_or(Outcome::Draw);
                let reason = match outcome {
                    Outcome::Won(color) => format!("{} sinks the whole fleet", capital(color)),
                    Outcome::Draw => "Draw".to_string(),
                };
                return Ok(Ending::normal(outcome, Termination::Normal, reason));
            }
            if self.turns_done() {
                return Ok(self.adjudicated(Outcome::Draw, "a draw"));
            }
            let Some(shooter) = table.turn() else {
                return Ok(Ending::normal(
                    Outcome::Draw,
                    Termination::Normal,
                    "internal error: nobody to shoot".into(),
                ));
            };
            let text = self.think(shooter, Command::Genmove(shooter))?;
            let cell = SeaCell::parse(text.trim()).ok_or_else(|| {
                Ending::loss(
                    shooter,
                    Termination::ProtocolError,
                    format!("answers genmove with {:?}", clip(&text)),
                )
            })?;
            let result = table.shoot(shooter, cell).map_err(|e| {
                Ending::loss(
                    shooter,
                    Termination::IllegalMove,
                    format!("makes an illegal move: {cell} ({e})"),
                )
            })?;
            self.moves.push(match result {
                ShotResult::Sunk(kind) => format!("{cell}:sunk-{kind}"),
                other => format!("{cell}:{other}"),
            });
            let name = shooter.name();
            self.ask(shooter, format!("play {name} {cell} {result}"))?;
            let target = shooter.opponent();
            let shot = Command::Play {
                color: shooter,
                mv: cell.to_string(),
                claim: None,
            };
            let claim = self.ask(target, shot)?;
            if ShotResult::parse(&claim) != Some(result) {
                return Err(Ending::loss(
                    target,
                    Termination::IllegalMove,
                    format!(
                        "reports a false result for {cell}: {:?}, the referee says {result}",
                        clip(&claim)
                    ),
                ));
            }
        }
    }
}

/// `ms` milliseconds as seconds, in the shortest decimal form (`60`, `0.5`).
#[must_use]
pub fn seconds(ms: u64) -> String {
    (ms as f64 / 1000.0).to_string()
}

/// `ms` as the seconds `engine` reads: decimal for an engine of Tabula's dialect,
/// else whole seconds (GTP 2's integers), rounded down but at least `floor`.
fn engine_seconds(engine: &Engine, ms: u64, floor: u64) -> String {
    if engine.decimal_times() {
        seconds(ms)
    } else {
        (ms / 1000).max(floor).to_string()
    }
}

/// The command that sets `engine`'s clock for a game under `time`, if any it knows
/// means that clock: KGS's `kgs-time_settings fischer MAIN INC` for a main time plus an
/// increment; else GTP 2's `time_settings MAIN 0 0` (absolute time) when there is no
/// increment. GTP 2 has no increment (`time_settings MAIN BYO 0` means no limit at
/// all), so an engine with neither gets no clock settings, only `time_left`. A clock
/// of `moves` moves in a time repeating, without increment, is Canadian byo-yomi
/// with no main time (`kgs-time_settings canadian 0 TIME MOVES`, GTP 2's
/// `time_settings 0 TIME MOVES`); with an increment nothing says it but `time_left`. A move
/// time goes by `set_option movetime` at start when the engine knows it; otherwise it
/// is GTP 2's byo-yomi of S seconds for every single move, `time_settings 0 S 1` (whole
/// seconds, at least 1: the referee still holds the engine to the move time itself).
fn clock_settings(engine: &Engine, time: TimeControl) -> Option<String> {
    match time {
        TimeControl::None => None,
        TimeControl::MoveTime { ms } => (!engine.knows("set_option")
            && engine.knows("time_settings"))
        .then(|| format!("time_settings 0 {} 1", engine_seconds(engine, ms, 1))),
        TimeControl::Clock {
            main_ms,
            increment_ms: 0,
            moves: Some(moves),
        } => {
            // Canadian byo-yomi with no main time: `moves` moves in `main` seconds,
            // again and again.
            if engine.knows("kgs-time_settings") {
                Some(format!(
                    "kgs-time_settings canadian 0 {} {moves}",
                    seconds(main_ms)
                ))
            } else if engine.knows("time_settings") {
                Some(format!(
                    "time_settings 0 {} {moves}",
                    engine_seconds(engine, main_ms, 1)
                ))
            } else {
                None
            }
        }
        TimeControl::Clock { moves: Some(_), .. } => None,
        TimeControl::Clock {
            main_ms,
            increment_ms,
            moves: None,
        } => {
            if engine.knows("kgs-time_settings") {
                Some(format!(
                    "kgs-time_settings fischer {} {}",
                    seconds(main_ms),
                    seconds(increment_ms)
                ))
            } else if increment_ms == 0 && engine.knows("time_settings") {
                Some(format!(
                    "time_settings {} 0 0",
                    engine_seconds(engine, main_ms, 1)
                ))
            } else {
                None
            }
        }
    }
}

/// Sets up a fresh game of `opening` on `color`'s engine: `set_game` when it knows
/// it (followed by `clear_board` unless the engine speaks Tabula's dialect, where
/// `set_game` itself starts a fresh game), else plain GTP 2's `boardsize 8` and `clear_board` (Othello only: GTP 2 has no
/// way to name another game); the opening by `set_position` when it knows it, else
/// played in as moves from the start; then its clock.
fn set_up(game: &mut Match, color: Color, opening: &Opening, time: TimeControl) -> Step<()> {
    let engine = &*game.engines[color.index()];
    let (knows_game, knows_position) = (engine.knows("set_game"), engine.knows("set_position"));
    let clock = clock_settings(engine, time);
    let kind = match opening {
        Opening::Othello { .. } => GameKind::Othello,
        Opening::Shell { .. } => GameKind::Shell,
        Opening::Battleship => GameKind::Battleship,
    };
    let name = kind.name();
    if knows_game {
        let line = engine.set_game(kind);
        let fresh = engine.tabula_dialect() || !engine.knows("clear_board");
        game.ask(color, line)?;
        if !fresh {
            // GoGui's `set_game` names the game; `clear_board` starts it afresh.
            game.ask(color, Command::ClearBoard)?;
        }
    } else if kind == GameKind::Othello {
        game.ask(color, Command::BoardSize(8))?;
        game.ask(color, Command::ClearBoard)?;
    } else {
        return Err(Ending::loss(
            color,
            Termination::ProtocolError,
            format!("does not know set_game: it cannot be set up for {name}"),
        ));
    }
    if !opening.from_start() {
        if knows_position {
            game.ask(color, Command::SetPosition(opening.notation()))?;
        } else if let Some(moves) = opening.moves() {
            for command in moves {
                game.ask(color, command)?;
            }
        } else {
            return Err(Ending::loss(
                color,
                Termination::ProtocolError,
                "does not know set_position and the opening is a bare position".into(),
            ));
        }
    }
    if let Some(line) = clock {
        game.ask(color, &line)?;
    }
    Ok(())
}

/// Plays one game from `opening` between `black` and `white`, each set up afresh
/// ([`set_up`]).
pub fn play(opening: &Opening, black: &mut Engine, white: &mut Engine, rules: Rules) -> GameResult {
    let main_ms = rules.time.map(|time| match time {
        TimeControl::Clock { main_ms, .. } => main_ms as f64,
        _ => 0.0,
    });
    let mut game = Match {
        engines: [black, white],
        rules,
        left_ms: main_ms,
        made: [0; 2],
        moves: Vec::new(),
    };
    let mut fleets = [None, None];
    let played = (|| {
        for color in Color::ALL {
            set_up(&mut game, color, opening, rules.time[color.index()])?;
        }
        match opening {
            Opening::Othello { position, .. } => game.othello(*position),
            Opening::Shell { position, .. } => game.shell(*position),
            Opening::Battleship => game.battleship(&mut fleets),
        }
    })();
    let ending = played.unwrap_or_else(|ending| ending);
    GameResult {
        outcome: ending.outcome,
        termination: ending.termination,
        reason: ending.reason,
        moves: game.moves,
        fleets,
        fates: ending.fates,
    }
}

/// A game that could not begin because an engine failed to start: lost by the
/// engine that failed, drawn when both did.
#[must_use]
pub fn unstarted(failures: [Option<Failure>; 2]) -> GameResult {
    let endings = Color::ALL.map(|c| failures[c.index()].as_ref().map(|f| Ending::failure(c, f)));
    let ending = match endings {
        [Some(black), Some(white)] => Ending::both(black, &white),
        [Some(one), None] | [None, Some(one)] => one,
        [None, None] => Ending::normal(
            Outcome::Draw,
            Termination::Crash,
            "internal error: no failure".into(),
        ),
    };
    GameResult {
        outcome: ending.outcome,
        termination: ending.termination,
        reason: ending.reason,
        moves: Vec::new(),
        fleets: [None, None],
        fates: ending.fates,
    }
}
