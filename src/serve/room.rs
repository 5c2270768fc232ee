//! One table of `tabula serve`, without any networking: the game, who may do what,
//! and which seat is told what.
//!
//! A [`Room`] takes one protocol command line from one seat ([`Room::handle`]) and
//! answers it, plus the events the line caused, each addressed to both seats or to
//! one ([`Audience`]). This is where hidden information is kept hidden: an event that
//! carries a fleet or a sealed pick is addressed only to the seat that owns it, until
//! the rules make it public (the end of a Battleship game, the reveal of a Shell
//! turn). The server only delivers what this module addresses.
//!
//! Black is the host (the seat that opened the table), white the guest. The rules
//! are the project's own: [`Table`] for Battleship (ready, start, offers, clocks,
//! again, score), [`othello::Position`] and [`shell::Position::resolve_turn`].
//!
//! Time is given by the caller ([`Room::elapse`]); nothing here reads a clock, so the
//! whole module is deterministic and tested without a server.

use std::fmt::Write as _;

use crate::games::battleship::{
    self, Clock, Fleet, Offer, Phase, Score, ShotResult, Table, TimeControl,
};
use crate::games::{Color, GameKind, Outcome, Status, othello, shell};
use crate::protocol::Command;
use crate::protocol::parse::{self, Line};
use crate::rng::Rng;

/// Who receives an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    Both,
    Seat(Color),
}

impl Audience {
    /// Whether `seat` receives events addressed to this audience.
    #[must_use]
    pub fn includes(self, seat: Color) -> bool {
        match self {
            Audience::Both => true,
            Audience::Seat(color) => color == seat,
        }
    }
}

/// An event line (without the `event ` prefix) and who receives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub to: Audience,
    pub text: String,
}

/// The answer to one command line and the events it caused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// `Ok(text)` is framed `= text`, `Err(message)` `? message`.
    pub answer: Result<String, String>,
    pub events: Vec<Event>,
    /// When the line changed the table: the line to store, which replayed by
    /// [`Room::handle`] on a room in the same state changes it the same way. It is the
    /// line itself, except that `genfleet` is stored as the `fleet` it placed (the
    /// random generator is not replayed).
    pub change: Option<String>,
}

/// A game of the table that is over, as its record needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The game's number at the table, from 1.
    pub number: u32,
    pub outcome: Outcome,
    /// Whether a flag fell.
    pub on_time: bool,
    /// How it ended, for people: `fleet sunk`, `agreed`, `on time`, the disc count.
    pub detail: String,
    /// The moves as the arena's records write them: Othello squares and `pass`,
    /// Shell `black/white` pick pairs, Battleship `CELL:RESULT` shots.
    pub moves: Vec<String>,
    /// Battleship: both fleets.
    pub fleets: [Option<String>; 2],
}

/// The game of a room.
#[derive(Clone, Debug)]
enum Game {
    Othello(othello::Position),
    Shell {
        position: shell::Position,
        /// The sealed picks of the turn in progress, by colour index.
        picks: [Option<shell::Cell>; 2],
    },
    Battleship(Box<Table>),
}

/// A time control given as `MAIN+INC` in seconds (`300+5`, `60`).
///
/// # Errors
/// Text that is not one or two non-negative numbers, or zero main time.
pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
    let (main, increment) = text.split_once('+').unwrap_or((text, "0"));
    let seconds = |part: &str| {
        part.trim()
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0 && *s <= 1e7)
            .ok_or_else(|| format!("clock {text:?}: expected MAIN+INC in seconds"))
    };
    let (main, increment) = (seconds(main)?, seconds(increment)?);
    // Whole milliseconds: the values are bounded above, so the casts are exact enough.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let (main_ms, increment_ms) = ((main * 1000.0) as u64, (increment * 1000.0) as u64);
    if main_ms == 0 {
        return Err(format!("clock {text:?}: main time must be positive"));
    }
    Ok(TimeControl::Timed {
        main_ms,
        increment_ms,
    })
}

/// One table: its game, score and clocks, and what each seat has been told of the
/// game in progress (replayed to a seat that connects again).
#[derive(Clone, Debug)]
pub struct Room {
    kind: GameKind,
    game: Game,
    /// The number of the game at this table, from 1.
    number: u32,
    /// The score of Othello and Shell tables (Battleship's is the table's own).
    score: Score,
    /// Othello and Shell clocks (Battleship's are the table's own).
    clocks: [Clock; 2],
    /// Whether the Othello or Shell clocks run: from the first move of a game on.
    clocks_running: bool,
    /// Every event each seat received since the current game began, by colour index.
    logs: [Vec<String>; 2],
    /// The moves of the game in progress, as [`Finished::moves`].
    moves: Vec<String>,
    /// The games of this table that are over, in order.
    finished: Vec<Finished>,
    /// The colour that forfeited the game in progress (its engine failed), and why.
    forfeited: Option<(Color, String)>,
    rng: Rng,
}

type Answer = Result<String, String>;

impl Reply {
    /// A refused line: the message, no event, no change.
    #[must_use]
    pub fn refused(message: &str) -> Reply {
        Reply {
            answer: Err(message.to_string()),
            events: Vec::new(),
            change: None,
        }
    }
}

fn seat_check(seat: Color, color: Color) -> Result<(), String> {
    if seat == color {
        Ok(())
    } else {
        Err(format!("this seat plays {}", seat.name()))
    }
}

fn seconds(ms: u64) -> String {
    format!("{}.{}", ms / 1000, (ms % 1000) / 100)
}

impl Room {
    /// A new table for `kind` with `control` for both players; `seed` drives the
    /// random fleets of `genfleet`.
    #[must_use]
    pub fn new(kind: GameKind, control: TimeControl, seed: u64) -> Room {
        let game = match kind {
            GameKind::Othello => Game::Othello(othello::Position::start()),
            GameKind::Shell => Game::Shell {
                position: shell::Position::new(),
                picks: [None; 2],
            },
            GameKind::Battleship => {
                let mut table = Table::new();
                for color in Color::ALL {
                    // A control from `parse_clock` has positive main time: accepted.
                    let _ = table.set_time_control(color, control);
                }
                Game::Battleship(Box::new(table))
            }
        };
        let mut room = Room {
            kind,
            game,
            number: 1,
            score: Score::default(),
            clocks: [Clock::fresh(control); 2],
            clocks_running: false,
            logs: [Vec::new(), Vec::new()],
            moves: Vec::new(),
            finished: Vec::new(),
            forfeited: None,
            rng: Rng::new(seed),
        };
        let opening = room.opening_events();
        room.log(&opening);
        room
    }

    /// The game played here.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// What `seat` has been told of the game in progress, in order: sent again to a
    /// seat that connects.
    #[must_use]
    pub fn history(&self, seat: Color) -> &[String] {
        &self.logs[seat.index()]
    }

    /// The games of this table that are over, oldest first. Both fleets of a
    /// Battleship game are in its record: they are public once the game is over.
    #[must_use]
    pub fn finished(&self) -> &[Finished] {
        &self.finished
    }

    /// The start position of every game at this table in the game's notation (`-` for
    /// Battleship), as a record's `Opening`.
    #[must_use]
    pub fn opening(&self) -> String {
        match self.kind {
            GameKind::Othello => othello::Position::start().to_notation(),
            GameKind::Shell => shell::Position::new().to_notation(),
            GameKind::Battleship => "-".to_string(),
        }
    }

    /// Whether the game in progress is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.status().is_over()
    }

    fn status(&self) -> Status {
        if let Some((loser, _)) = &self.forfeited {
            return Status::over(Outcome::Won(loser.opponent()));
        }
        match &self.game {
            Game::Othello(position) if self.flagged().is_none() => position.status(),
            Game::Shell { position, .. } if self.flagged().is_none() => position.status(),
            Game::Battleship(table) => table.status(),
            _ => self.flag_status(),
        }
    }

    fn clock(&self, color: Color) -> Clock {
        match &self.game {
            Game::Battleship(table) => table.clock(color),
            _ => self.clocks[color.index()],
        }
    }

    /// Othello and Shell: the colours whose clock reached zero.
    fn flagged(&self) -> Option<[bool; 2]> {
        let flags = Color::ALL.map(|c| self.clocks[c.index()].left_ms() == Some(0));
        flags.contains(&true).then_some(flags)
    }

    fn flag_status(&self) -> Status {
        match self.flagged() {
            Some([true, true]) => Status::Draw,
            Some([true, false]) => Status::WhiteWins,
            Some([false, true]) => Status::BlackWins,
            _ => Status::Ongoing,
        }
    }

    fn opening_events(&self) -> Vec<Event> {
        let mut events = vec![Event {
            to: Audience::Both,
            text: format!("game {} {}", self.kind.name(), self.number),
        }];
        events.push(self.score_event());
        events.extend(self.clock_events());
        events.extend(self.position_event());
        if let Game::Othello(position) = &self.game {
            events.push(Event {
                to: Audience::Both,
                text: format!("turn {}", position.side_to_move().name()),
            });
        }
        events
    }

    /// `position NOTATION` for Othello and Shell, whose whole board is public.
    fn position_event(&self) -> Option<Event> {
        let text = match &self.game {
            Game::Othello(position) => position.to_notation(),
            Game::Shell { position, .. } => position.to_notation(),
            Game::Battleship(_) => return None,
        };
        Some(Event {
            to: Audience::Both,
            text: format!("position {text}"),
        })
    }

    fn score_event(&self) -> Event {
        let score = match &self.game {
            Game::Battleship(table) => table.score(),
            _ => self.score,
        };
        Event {
            to: Audience::Both,
            text: format!("score {score}"),
        }
    }

    /// `clock COLOR SECONDS` for both colours, when the table is timed.
    fn clock_events(&self) -> Vec<Event> {
        Color::ALL
            .iter()
            .filter_map(|&color| {
                self.clock(color).left_ms().map(|ms| Event {
                    to: Audience::Both,
                    text: format!("clock {} {}", color.name(), seconds(ms)),
                })
            })
            .collect()
    }

    fn log(&mut self, events: &[Event]) {
        for event in events {
            for color in Color::ALL {
                if event.to.includes(color) {
                    self.logs[color.index()].push(event.text.clone());
                }
            }
        }
    }

    /// Whether time passing would change anything (a clock is running).
    #[must_use]
    pub fn clock_running(&self) -> bool {
        if self.is_over() {
            return false;
        }
        match &self.game {
            Game::Battleship(table) => table
                .turn()
                .is_some_and(|c| table.clock(c).left_ms().is_some()),
            _ => self.clocks_running && self.clocks[0].left_ms().is_some(),
        }
    }

    /// `ms` milliseconds pass. Answers the events it caused: when a flag falls, the
    /// clocks and the end of the game.
    pub fn elapse(&mut self, ms: u64) -> Vec<Event> {
        if !self.clock_running() || ms == 0 {
            return Vec::new();
        }
        match &mut self.game {
            Game::Battleship(table) => {
                // Only while shooting, which `clock_running` checked.
                let _ = table.elapse(ms);
            }
            Game::Othello(position) => {
                let turn = position.side_to_move();
                Self::charge(&mut self.clocks[turn.index()], ms);
            }
            Game::Shell { picks, .. } => {
                for color in Color::ALL {
                    if picks[color.index()].is_none() {
                        Self::charge(&mut self.clocks[color.index()], ms);
                    }
                }
            }
        }
        if self.is_over() {
            let mut events = self.clock_events();
            events.extend(self.game_over_events());
            self.log(&events);
            events
        } else {
            Vec::new()
        }
    }

    fn charge(clock: &mut Clock, ms: u64) {
        if let Clock::Timed { left_ms, .. } = clock {
            *left_ms = left_ms.saturating_sub(ms);
        }
    }

    fn credit(clock: &mut Clock) {
        if let Clock::Timed {
            left_ms,
            increment_ms,
            ..
        } = clock
        {
            *left_ms = left_ms.saturating_add(*increment_ms);
        }
    }

    /// The events of a game that just ended: the result, the score, and for
    /// Battleship both fleets, now public.
    fn game_over_events(&mut self) -> Vec<Event> {
        let status = self.status();
        let detail = match &self.game {
            _ if self.forfeited.is_some() => {
                let reason = self.forfeited.as_ref().map_or("", |(_, why)| why.as_str());
                format!(" forfeit: {reason}")
            }
            Game::Othello(_) | Game::Shell { .. } if self.flagged().is_some() => {
                " on time".to_string()
            }
            Game::Othello(position) => {
                let (black, white) = position.counts();
                format!(" {black}-{white}")
            }
            Game::Shell { .. } => String::new(),
            Game::Battleship(table) => match table.phase() {
                Phase::Over(Outcome::Won(winner)) if table.target_view(winner).all_sunk() => {
                    " fleet sunk".to_string()
                }
                Phase::Over(Outcome::Draw) => " agreed".to_string(),
                _ => " on time".to_string(),
            },
        };
        let fleets = match &self.game {
            Game::Battleship(table) => {
                Color::ALL.map(|color| table.fleet(color).map(|fleet| fleet.joined(" ")))
            }
            _ => [None, None],
        };
        self.finished.push(Finished {
            number: self.number,
            outcome: status.winner().map_or(Outcome::Draw, Outcome::Won),
            on_time: detail == " on time",
            detail: detail.trim_start().to_string(),
            moves: std::mem::take(&mut self.moves),
            fleets,
        });
        let mut events = Vec::new();
        events.push(Event {
            to: Audience::Both,
            text: format!("over {}{detail}", status.name()),
        });
        match &self.game {
            Game::Battleship(table) => {
                for color in Color::ALL {
                    if let Some(fleet) = table.fleet(color) {
                        events.push(Event {
                            to: Audience::Both,
                            text: format!("fleet {} {}", color.name(), fleet.joined(" ")),
                        });
                    }
                }
            }
            _ => match status.winner() {
                Some(Color::Black) => self.score.black = self.score.black.saturating_add(1),
                Some(Color::White) => self.score.white = self.score.white.saturating_add(1),
                None => self.score.draws = self.score.draws.saturating_add(1),
            },
        }
        events.push(self.score_event());
        events
    }

    /// `loser` can no longer play (the engine at its seat failed): the game in
    /// progress ends as a win for the other colour, `reason` told to both seats in
    /// the `over` event. Answers the events; none when the game is over already.
    pub fn forfeit(&mut self, loser: Color, reason: &str) -> Vec<Event> {
        if self.is_over() {
            return Vec::new();
        }
        if let Game::Battleship(table) = &mut self.game {
            // Not over, checked above.
            let _ = table.forfeit(loser);
        }
        let reason: String = reason
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(200)
            .collect();
        self.forfeited = Some((loser, reason));
        let events = self.game_over_events();
        self.log(&events);
        events
    }

    /// Handles one command line from `seat`. A refused line changes nothing.
    pub fn handle(&mut self, seat: Color, raw: &str) -> Reply {
        let line = match parse::preprocess(raw.as_bytes()) {
            Line::Empty => return Reply::refused("empty command"),
            Line::InvalidUtf8 => return Reply::refused("syntax error: input is not valid UTF-8"),
            Line::Text(text) => text,
        };
        let (_, command) = parse::parse_line(&line);
        let mut events = Vec::new();
        let answer = match &command {
            Ok(command) => self.dispatch(seat, command, &mut events),
            Err(error) => Err(error.to_string()),
        };
        if answer.is_err() {
            events.clear();
        }
        self.log(&events);
        // Every command that changes the table tells someone: one without events
        // only read it.
        let change = match (&command, &answer) {
            _ if events.is_empty() => None,
            (Ok(Command::GenFleet(color)), Ok(fleet)) => {
                Some(format!("fleet {} {fleet}", color.name()))
            }
            _ => Some(line.clone()),
        };
        Reply {
            answer,
            events,
            change,
        }
    }

    fn dispatch(&mut self, seat: Color, command: &Command, events: &mut Vec<Event>) -> Answer {
        match command {
            Command::ProtocolVersion => Ok("2".to_string()),
            Command::Name => Ok("tabula serve".to_string()),
            Command::ShowBoard(_) => Ok(format!("\n{}", self.picture(seat))),
            Command::Status => Ok(self.status().name().to_string()),
            Command::Position => match self.position_event() {
                Some(event) => Ok(event.text["position ".len()..].to_string()),
                None => Err("a battleship table shows each seat its own view: showboard".into()),
            },
            Command::Score => Ok(self.score_event().text["score ".len()..].to_string()),
            Command::Again => self.again(events),
            Command::Play { color, mv, claim } => {
                seat_check(seat, *color)?;
                if claim.is_some() {
                    return Err("the server judges every shot: give no result".to_string());
                }
                match &self.game {
                    Game::Othello(_) => self.othello_play(seat, mv, events),
                    Game::Shell { .. } => self.shell_pick(seat, mv, events),
                    Game::Battleship(_) => self.shoot(seat, mv, events),
                }
            }
            Command::AllLegal(color) => Ok(self.all_legal(*color)),
            Command::Fleet { color, ships } => {
                seat_check(seat, *color)?;
                let fleet = Fleet::parse(ships).map_err(|e| format!("invalid fleet: {e}"))?;
                self.place(seat, fleet, events)
            }
            Command::GenFleet(color) => {
                seat_check(seat, *color)?;
                self.battleship()?;
                let fleet = crate::ai::battleship::random_fleet(&mut self.rng);
                self.place(seat, fleet, events)
            }
            Command::Ready(color) => {
                seat_check(seat, *color)?;
                let table = self.battleship()?;
                if table.fleet(seat).is_none() {
                    return Err("place your fleet first".to_string());
                }
                table.ready(seat).map_err(|e| e.to_string())?;
                events.push(Event {
                    to: Audience::Both,
                    text: format!("ready {}", seat.name()),
                });
                Ok(String::new())
            }
            Command::Start => {
                if seat != Color::Black {
                    return Err("only the host (black) starts".to_string());
                }
                let table = self.battleship()?;
                if table.fleet(Color::Black).is_none()
                    && matches!(table.phase(), Phase::Setup | Phase::Ready)
                {
                    return Err("place your fleet first".to_string());
                }
                let first = table.start().map_err(|e| e.to_string())?;
                events.push(Event {
                    to: Audience::Both,
                    text: format!("start {}", first.name()),
                });
                events.extend(self.clock_events());
                Ok(first.name().to_string())
            }
            Command::OfferDraw(color) => self.draw(seat, *color, Table::offer_draw, events),
            Command::AcceptDraw(color) => self.draw(seat, *color, Table::accept_draw, events),
            Command::DeclineDraw(color) => self.draw(seat, *color, Table::decline_draw, events),
            other => Err(format!("{} is not a table command", other.name())),
        }
    }

    /// A draw offer, its acceptance or its refusal (B8), told to both seats.
    fn draw(
        &mut self,
        seat: Color,
        color: Color,
        act: fn(&mut Table, Color) -> Result<(), battleship::TableError>,
        events: &mut Vec<Event>,
    ) -> Answer {
        seat_check(seat, color)?;
        let table = self.battleship()?;
        act(table, seat).map_err(|e| e.to_string())?;
        let word = match table.phase() {
            Phase::Over(_) => "accepted",
            Phase::Shooting { offers, .. } if offers[seat.index()] == Offer::Pending => "offer",
            _ => "declined",
        };
        events.push(Event {
            to: Audience::Both,
            text: format!("{word} {}", seat.name()),
        });
        if word == "accepted" {
            events.extend(self.game_over_events());
        }
        Ok(String::new())
    }

    fn battleship(&mut self) -> Result<&mut Table, String> {
        match &mut self.game {
            Game::Battleship(table) => Ok(table),
            _ => Err(format!("not a battleship table ({})", self.kind.name())),
        }
    }

    fn picture(&self, seat: Color) -> String {
        match &self.game {
            Game::Othello(position) => position.picture(),
            Game::Shell { position, .. } => position.picture(),
            // The table draws the other sea with the seat's shots only, never the
            // other fleet.
            Game::Battleship(table) => table.picture(seat),
        }
    }

    fn all_legal(&self, color: Color) -> String {
        match &self.game {
            Game::Othello(position) if !self.is_over() && position.side_to_move() == color => {
                let moves: Vec<String> = position
                    .legal_moves()
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                moves.join(" ")
            }
            Game::Shell { position, picks } if !self.is_over() => {
                if picks[color.index()].is_some() {
                    String::new()
                } else {
                    let cells: Vec<String> = position
                        .empty_cells()
                        .iter()
                        .map(|c| c.to_string())
                        .collect();
                    cells.join(" ")
                }
            }
            Game::Battleship(table) => {
                let cells: Vec<String> = table
                    .legal_shots(color)
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                cells.join(" ")
            }
            _ => String::new(),
        }
    }

    fn othello_play(&mut self, seat: Color, mv: &str, events: &mut Vec<Event>) -> Answer {
        if self.is_over() {
            return Err("the game is over".to_string());
        }
        let Game::Othello(position) = &mut self.game else {
            return Err("not an othello table".to_string());
        };
        let parsed = othello::Move::parse(mv)
            .ok_or_else(|| format!("syntax error: {mv:?} is not a move (a1 to h8, pass)"))?;
        if position.side_to_move() != seat {
            return Err(format!("it is {}'s move", position.side_to_move().name()));
        }
        position
            .play(seat, parsed)
            .map_err(|e| format!("illegal move: {e}"))?;
        self.moves.push(parsed.to_string());
        let next = position.side_to_move();
        let over = position.status().is_over();
        if self.clocks_running {
            Self::credit(&mut self.clocks[seat.index()]);
        }
        self.clocks_running = true;
        events.push(Event {
            to: Audience::Both,
            text: format!("played {} {parsed}", seat.name()),
        });
        events.extend(self.position_event());
        events.extend(self.clock_events());
        if over {
            events.extend(self.game_over_events());
        } else {
            events.push(Event {
                to: Audience::Both,
                text: format!("turn {}", next.name()),
            });
        }
        Ok(String::new())
    }

    fn shell_pick(&mut self, seat: Color, mv: &str, events: &mut Vec<Event>) -> Answer {
        if self.is_over() {
            return Err("the game is over".to_string());
        }
        let Game::Shell { position, picks } = &mut self.game else {
            return Err("not a shell table".to_string());
        };
        let cell = shell::Cell::parse(mv)
            .ok_or_else(|| format!("syntax error: {mv:?} is not a cell (a1 to i9)"))?;
        if picks[seat.index()].is_some() {
            return Err("you have picked this turn already".to_string());
        }
        if !position.is_empty(cell) {
            return Err(format!("illegal move: {cell} is not empty"));
        }
        picks[seat.index()] = Some(cell);
        events.push(Event {
            to: Audience::Seat(seat),
            text: format!("picked {} {cell}", seat.name()),
        });
        events.push(Event {
            to: Audience::Seat(seat.opponent()),
            text: format!("picked {}", seat.name()),
        });
        if self.clocks_running {
            Self::credit(&mut self.clocks[seat.index()]);
        }
        let [Some(black), Some(white)] = *picks else {
            return Ok(String::new());
        };
        *picks = [None; 2];
        let report = position
            .resolve_turn(black, white)
            .map_err(|e| format!("illegal move: {e}"))?;
        self.clocks_running = true;
        self.moves.push(format!("{black}/{white}"));
        events.push(Event {
            to: Audience::Both,
            text: format!("revealed {black} {white} {report}"),
        });
        events.extend(self.position_event());
        events.extend(self.clock_events());
        if report.status().is_over() {
            events.extend(self.game_over_events());
        }
        Ok(String::new())
    }

    fn shoot(&mut self, seat: Color, mv: &str, events: &mut Vec<Event>) -> Answer {
        let table = self.battleship()?;
        let cell = battleship::Cell::parse(mv)
            .ok_or_else(|| format!("syntax error: {mv:?} is not a cell (A1 to J10)"))?;
        let result = table.shoot(seat, cell).map_err(|e| e.to_string())?;
        let mut text = format!("shot {} {cell} {result}", seat.name());
        if let ShotResult::Sunk(_) = result
            && let Some(ship) = table.target_view(seat).sunk().last()
        {
            let _ = write!(text, " {ship}");
        }
        let next = table.turn();
        self.moves.push(match result {
            ShotResult::Sunk(kind) => format!("{cell}:sunk-{kind}"),
            other => format!("{cell}:{other}"),
        });
        events.push(Event {
            to: Audience::Both,
            text,
        });
        events.extend(self.clock_events());
        match next {
            Some(turn) => events.push(Event {
                to: Audience::Both,
                text: format!("turn {}", turn.name()),
            }),
            None => events.extend(self.game_over_events()),
        }
        Ok(result.to_string())
    }

    fn place(&mut self, seat: Color, fleet: Fleet, events: &mut Vec<Event>) -> Answer {
        let text = fleet.joined(" ");
        self.battleship()?
            .place_fleet(seat, fleet)
            .map_err(|e| e.to_string())?;
        events.push(Event {
            to: Audience::Seat(seat),
            text: format!("fleet {} {text}", seat.name()),
        });
        events.push(Event {
            to: Audience::Both,
            text: format!("placed {}", seat.name()),
        });
        Ok(text)
    }

    fn again(&mut self, events: &mut Vec<Event>) -> Answer {
        if !self.is_over() {
            return Err("the game is not over".to_string());
        }
        match &mut self.game {
            Game::Battleship(table) => table.again().map_err(|e| e.to_string())?,
            Game::Othello(position) => *position = othello::Position::start(),
            Game::Shell { position, picks } => {
                *position = shell::Position::new();
                *picks = [None; 2];
            }
        }
        for clock in &mut self.clocks {
            *clock = Clock::fresh(clock.control());
        }
        self.clocks_running = false;
        self.forfeited = None;
        self.number = self.number.saturating_add(1);
        self.logs = [Vec::new(), Vec::new()];
        self.moves.clear();
        events.extend(self.opening_events());
        Ok(String::new())
    }
}

#[cfg(test)]
mod tests;
