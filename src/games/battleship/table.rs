//! The table (B7–B11): both seas, the phase of the game, whose shot it is, draw
//! offers, the running score and the clocks.
//!
//! Black is the host, white the guest. Each protocol command is one method that
//! returns `Result<answer, TableError>`; a refused call changes nothing (every method
//! checks everything before it writes).
//!
//! Phases: [`Phase::Setup`] (fleets being placed) → [`Phase::Ready`] (the guest has
//! declared ready) → [`Phase::Shooting`] (after `start`) → [`Phase::Over`]. `again`
//! goes from `Over` to the next game's `Setup`.
//!
//! Known and unknown fleets. A session may know both fleets (referee mode: shots at a
//! known fleet are judged), one, or none (player mode: the caller reports each result
//! and [`View::check`] refuses impossible ones). A fleet the session does not know is
//! taken to be placed out of its sight by its owner, so `ready` and `start` are the
//! players' own declarations that their fleets are placed: `ready(White)` needs only
//! the setup phase (B9: only the guest declares ready, once), and `start()` needs the
//! guest to be ready. Placing or replacing a fleet is allowed until `start`.
//!
//! Invariants: the turn and the draw offers exist only while shooting, so they cannot
//! outlive the game; at most one offer is pending; the first shooter is a function of
//! the game number (black in odd games, B7 RULING); the score counts every game that
//! ended on this table, the current one included once it is over. Clocks (B11) hold
//! milliseconds given by the caller ([`Table::elapse`]); nothing here reads a clock.

use std::fmt;

use super::cell::Cell;
use super::fleet::Fleet;
use super::sea::{Mark, ShotError, ShotResult, View};
use crate::games::{Color, Status};

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// By sinking the whole enemy fleet (B7) or on the enemy's flag (B11).
    Won(Color),
    /// By agreement (B8).
    Drawn,
}

/// One player's draw offer since the last shot (B8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Offer {
    /// Not offered since the last shot.
    Unused,
    /// Offered, waiting for the other player.
    Pending,
    /// Offered and declined since the last shot: no second offer before the next.
    Spent,
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Fleets being placed; the guest has not declared ready.
    Setup,
    /// The guest has declared ready; the host may start.
    Ready,
    /// Started: `turn` shoots; `offers` per colour (index by `Color::index`).
    Shooting { turn: Color, offers: [Offer; 2] },
    /// The game is over.
    Over(Outcome),
}

/// The running score of the table (B10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    pub black: u32,
    pub white: u32,
    pub draws: u32,
}

impl Score {
    /// The wins of `color`.
    #[must_use]
    pub fn wins(self, color: Color) -> u32 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    fn count(&mut self, outcome: Outcome) {
        let slot = match outcome {
            Outcome::Won(Color::Black) => &mut self.black,
            Outcome::Won(Color::White) => &mut self.white,
            Outcome::Drawn => &mut self.draws,
        };
        *slot = slot.saturating_add(1);
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "black {} white {} draws {}",
            self.black, self.white, self.draws
        )
    }
}

/// A time control (B11 RULING), set per player before the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    Unlimited,
    /// `main_ms` (positive) to start with, `increment_ms` added after each own shot.
    Timed {
        main_ms: u64,
        increment_ms: u64,
    },
}

/// One player's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Clock {
    Unlimited,
    Timed {
        main_ms: u64,
        increment_ms: u64,
        left_ms: u64,
    },
}

impl Clock {
    /// A clock for `control`, full.
    #[must_use]
    pub fn fresh(control: TimeControl) -> Clock {
        match control {
            TimeControl::Unlimited => Clock::Unlimited,
            TimeControl::Timed {
                main_ms,
                increment_ms,
            } => Clock::Timed {
                main_ms,
                increment_ms,
                left_ms: main_ms,
            },
        }
    }

    /// The time control this clock was set to.
    #[must_use]
    pub fn control(self) -> TimeControl {
        match self {
            Clock::Unlimited => TimeControl::Unlimited,
            Clock::Timed {
                main_ms,
                increment_ms,
                ..
            } => TimeControl::Timed {
                main_ms,
                increment_ms,
            },
        }
    }

    /// Milliseconds left, `None` when unlimited.
    #[must_use]
    pub fn left_ms(self) -> Option<u64> {
        match self {
            Clock::Unlimited => None,
            Clock::Timed { left_ms, .. } => Some(left_ms),
        }
    }
}

/// One player's sea: the fleet if this session knows it, and the shots at it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sea {
    /// `None`: placed out of this session's sight, or not yet placed.
    pub fleet: Option<Fleet>,
    /// The shots fired at this sea.
    pub view: View,
}

/// Why the table refused a call. Nothing was changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// Fleets, readiness and time controls are set before the start (B9).
    AlreadyStarted,
    /// No shot, offer or clock before the start (B9).
    NotStarted,
    /// The game is over; `again` prepares the next one (B10).
    GameOver,
    /// `again` only after a game is over (B10).
    NotOver,
    /// Only the guest (white) declares ready (B9).
    OnlyGuestReadies,
    /// The guest declared ready already.
    AlreadyReady,
    /// `start` needs the guest to be ready (B9).
    GuestNotReady,
    /// It is the other colour's shot (B4).
    NotYourTurn { to_shoot: Color },
    /// The target fleet is unknown here: the result must be reported.
    ResultNeeded,
    /// The reported result disagrees with the known target fleet.
    Disagrees,
    /// The cell cannot be shot (B5) or the reported result is impossible.
    Shot(ShotError),
    /// A draw offer is pending already (by this colour).
    OfferPending(Color),
    /// This colour has offered since the last shot already (B8).
    AlreadyOffered(Color),
    /// No offer of the other colour is pending (B8).
    NoOffer,
    /// A timed control needs positive main time.
    ZeroMainTime,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::AlreadyStarted => f.write_str("the game has started"),
            TableError::NotStarted => f.write_str("the game has not started"),
            TableError::GameOver => f.write_str("the game is over"),
            TableError::NotOver => f.write_str("the game is not over"),
            TableError::OnlyGuestReadies => f.write_str("only the guest (white) declares ready"),
            TableError::AlreadyReady => f.write_str("white is ready already"),
            TableError::GuestNotReady => f.write_str("white (the guest) is not ready"),
            TableError::NotYourTurn { to_shoot } => {
                write!(f, "it is {}'s shot", to_shoot.name())
            }
            TableError::ResultNeeded => {
                f.write_str("the target fleet is unknown: give the result (miss, hit, sunk TYPE)")
            }
            TableError::Disagrees => f.write_str("the result disagrees with the known fleet"),
            TableError::Shot(e) => write!(f, "{e}"),
            TableError::OfferPending(c) => write!(f, "{}'s draw offer is pending", c.name()),
            TableError::AlreadyOffered(c) => {
                write!(f, "{} has offered a draw since the last shot", c.name())
            }
            TableError::NoOffer => f.write_str("no draw offer of the opponent is pending"),
            TableError::ZeroMainTime => f.write_str("main time must be positive"),
        }
    }
}

impl std::error::Error for TableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TableError::Shot(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ShotError> for TableError {
    fn from(e: ShotError) -> TableError {
        TableError::Shot(e)
    }
}

/// A table: one game at a time, and the score across its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// 1 for the first game of the table.
    pub(super) game: u32,
    pub(super) score: Score,
    pub(super) clocks: [Clock; 2],
    pub(super) seas: [Sea; 2],
    pub(super) phase: Phase,
}

impl Default for Table {
    fn default() -> Table {
        Table::new()
    }
}

/// How a shot's result is obtained.
#[derive(Clone, Copy)]
enum Report {
    Judge,
    Given(ShotResult),
}

impl Table {
    /// A new table: game 1, setup, no fleets, no clocks, score 0.
    #[must_use]
    pub fn new() -> Table {
        Table {
            game: 1,
            score: Score::default(),
            clocks: [Clock::Unlimited; 2],
            seas: [Sea::default(), Sea::default()],
            phase: Phase::Setup,
        }
    }

    /// The number of this game at the table, from 1.
    #[must_use]
    pub fn game(&self) -> u32 {
        self.game
    }

    /// Who shoots first in this game: black (the host) in odd games (B7 RULING).
    #[must_use]
    pub fn first_shooter(&self) -> Color {
        if self.game % 2 == 1 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The phase.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The status; `Ongoing` until the game is over.
    #[must_use]
    pub fn status(&self) -> Status {
        match self.phase {
            Phase::Over(Outcome::Won(c)) => Status::win_for(c),
            Phase::Over(Outcome::Drawn) => Status::Draw,
            _ => Status::Ongoing,
        }
    }

    /// Who shoots now, while shooting.
    #[must_use]
    pub fn turn(&self) -> Option<Color> {
        match self.phase {
            Phase::Shooting { turn, .. } => Some(turn),
            _ => None,
        }
    }

    /// The running score (B10).
    #[must_use]
    pub fn score(&self) -> Score {
        self.score
    }

    /// `color`'s clock.
    #[must_use]
    pub fn clock(&self, color: Color) -> Clock {
        self.clocks[color.index()]
    }

    /// `color`'s sea.
    #[must_use]
    pub fn sea(&self, color: Color) -> &Sea {
        &self.seas[color.index()]
    }

    /// `color`'s fleet, if known to this session.
    #[must_use]
    pub fn fleet(&self, color: Color) -> Option<&Fleet> {
        self.sea(color).fleet.as_ref()
    }

    /// What `shooter` sees of its target, the opponent's sea.
    #[must_use]
    pub fn target_view(&self, shooter: Color) -> &View {
        &self.sea(shooter.opponent()).view
    }

    fn before_start(&self) -> Result<(), TableError> {
        match self.phase {
            Phase::Setup | Phase::Ready => Ok(()),
            Phase::Shooting { .. } => Err(TableError::AlreadyStarted),
            Phase::Over(_) => Err(TableError::GameOver),
        }
    }

    fn shooting(&self) -> Result<(Color, [Offer; 2]), TableError> {
        match self.phase {
            Phase::Setup | Phase::Ready => Err(TableError::NotStarted),
            Phase::Shooting { turn, offers } => Ok((turn, offers)),
            Phase::Over(_) => Err(TableError::GameOver),
        }
    }

    /// Places (or replaces) `color`'s fleet, before the start (B9).
    ///
    /// # Errors
    /// After the start.
    pub fn place_fleet(&mut self, color: Color, fleet: Fleet) -> Result<(), TableError> {
        self.before_start()?;
        self.seas[color.index()].fleet = Some(fleet);
        Ok(())
    }

    /// Sets `color`'s time control, before the start (B11).
    ///
    /// # Errors
    /// After the start, or a timed control without main time.
    pub fn set_time_control(
        &mut self,
        color: Color,
        control: TimeControl,
    ) -> Result<(), TableError> {
        self.before_start()?;
        if let TimeControl::Timed { main_ms: 0, .. } = control {
            return Err(TableError::ZeroMainTime);
        }
        self.clocks[color.index()] = Clock::fresh(control);
        Ok(())
    }

    /// The guest declares ready (B9).
    ///
    /// # Errors
    /// Black declaring, white declaring twice, or after the start.
    pub fn ready(&mut self, color: Color) -> Result<(), TableError> {
        if color != Color::White {
            return Err(TableError::OnlyGuestReadies);
        }
        match self.phase {
            Phase::Setup => {
                self.phase = Phase::Ready;
                Ok(())
            }
            Phase::Ready => Err(TableError::AlreadyReady),
            Phase::Shooting { .. } => Err(TableError::AlreadyStarted),
            Phase::Over(_) => Err(TableError::GameOver),
        }
    }

    /// The host starts the game (B9); answers the first shooter (B7).
    ///
    /// # Errors
    /// Before the guest is ready, or after the start.
    pub fn start(&mut self) -> Result<Color, TableError> {
        match self.phase {
            Phase::Setup => Err(TableError::GuestNotReady),
            Phase::Ready => {
                let turn = self.first_shooter();
                self.phase = Phase::Shooting {
                    turn,
                    offers: [Offer::Unused; 2],
                };
                Ok(turn)
            }
            Phase::Shooting { .. } => Err(TableError::AlreadyStarted),
            Phase::Over(_) => Err(TableError::GameOver),
        }
    }

    /// `shooter` fires at `cell`; the target fleet must be known, and judges (B4).
    ///
    /// # Errors
    /// Not shooting, out of turn, a spent cell (B5), an unknown target fleet.
    pub fn shoot(&mut self, shooter: Color, cell: Cell) -> Result<ShotResult, TableError> {
        self.fire(shooter, cell, Report::Judge)
    }

    /// `shooter` fires at `cell` and reports `result`: checked for possibility when
    /// the target fleet is unknown (player mode), compared with the judgement when it
    /// is known (referee mode).
    ///
    /// # Errors
    /// As [`Table::shoot`], or an impossible or disagreeing result.
    pub fn shoot_reported(
        &mut self,
        shooter: Color,
        cell: Cell,
        result: ShotResult,
    ) -> Result<ShotResult, TableError> {
        self.fire(shooter, cell, Report::Given(result))
    }

    /// Whether `shooter` may fire at `cell` now.
    #[must_use]
    pub fn is_legal(&self, shooter: Color, cell: Cell) -> bool {
        self.turn() == Some(shooter) && self.target_view(shooter).is_open(cell)
    }

    /// Every cell `shooter` may fire at now, in canonical order.
    #[must_use]
    pub fn legal_shots(&self, shooter: Color) -> Vec<Cell> {
        if self.turn() == Some(shooter) {
            self.target_view(shooter).open_cells().collect()
        } else {
            Vec::new()
        }
    }

    fn fire(
        &mut self,
        shooter: Color,
        cell: Cell,
        report: Report,
    ) -> Result<ShotResult, TableError> {
        let (turn, _) = self.shooting()?;
        if shooter != turn {
            return Err(TableError::NotYourTurn { to_shoot: turn });
        }
        let target = &self.seas[shooter.opponent().index()];
        if !target.view.is_open(cell) {
            return Err(TableError::Shot(ShotError::Spent(cell)));
        }
        let result = match (&target.fleet, report) {
            (Some(fleet), Report::Judge) => fleet.judge(&target.view, cell),
            (Some(fleet), Report::Given(given)) => {
                if fleet.judge(&target.view, cell) != given {
                    return Err(TableError::Disagrees);
                }
                given
            }
            (None, Report::Judge) => return Err(TableError::ResultNeeded),
            (None, Report::Given(given)) => {
                target.view.check(cell, given)?;
                given
            }
        };
        let target = &mut self.seas[shooter.opponent().index()];
        target.view.apply(cell, result);
        let all_sunk = target.view.all_sunk();
        if let Clock::Timed {
            increment_ms,
            left_ms,
            ..
        } = &mut self.clocks[shooter.index()]
        {
            *left_ms = left_ms.saturating_add(*increment_ms);
        }
        if all_sunk {
            self.finish(Outcome::Won(shooter));
        } else {
            let turn = if result.shoots_again() {
                shooter
            } else {
                shooter.opponent()
            };
            self.phase = Phase::Shooting {
                turn,
                offers: [Offer::Unused; 2],
            };
        }
        Ok(result)
    }

    fn finish(&mut self, outcome: Outcome) {
        self.phase = Phase::Over(outcome);
        self.score.count(outcome);
    }

    /// `color` offers a draw (B8): at most once between two shots, and not while an
    /// offer is pending.
    ///
    /// # Errors
    /// Not shooting, an offer pending, or `color` offered since the last shot.
    pub fn offer_draw(&mut self, color: Color) -> Result<(), TableError> {
        let (turn, mut offers) = self.shooting()?;
        if let Some(&pending) = Color::ALL
            .iter()
            .find(|c| offers[c.index()] == Offer::Pending)
        {
            return Err(TableError::OfferPending(pending));
        }
        if offers[color.index()] != Offer::Unused {
            return Err(TableError::AlreadyOffered(color));
        }
        offers[color.index()] = Offer::Pending;
        self.phase = Phase::Shooting { turn, offers };
        Ok(())
    }

    /// `color` accepts the opponent's pending offer: the game is drawn (B8).
    ///
    /// # Errors
    /// Not shooting, or no offer of the opponent pending.
    pub fn accept_draw(&mut self, color: Color) -> Result<(), TableError> {
        let (_, offers) = self.shooting()?;
        if offers[color.opponent().index()] != Offer::Pending {
            return Err(TableError::NoOffer);
        }
        self.finish(Outcome::Drawn);
        Ok(())
    }

    /// `color` declines the opponent's pending offer (B8); the offerer may not offer
    /// again before the next shot.
    ///
    /// # Errors
    /// Not shooting, or no offer of the opponent pending.
    pub fn decline_draw(&mut self, color: Color) -> Result<(), TableError> {
        let (turn, mut offers) = self.shooting()?;
        let offerer = color.opponent().index();
        if offers[offerer] != Offer::Pending {
            return Err(TableError::NoOffer);
        }
        offers[offerer] = Offer::Spent;
        self.phase = Phase::Shooting { turn, offers };
        Ok(())
    }

    /// Time passes for the shooter (B11): only after the start, only the shooter's
    /// clock runs. A clock that reaches zero loses. Answers the status.
    ///
    /// # Errors
    /// Before the start or after the end.
    pub fn elapse(&mut self, ms: u64) -> Result<Status, TableError> {
        let (turn, _) = self.shooting()?;
        if let Clock::Timed { left_ms, .. } = &mut self.clocks[turn.index()] {
            *left_ms = left_ms.saturating_sub(ms);
            if *left_ms == 0 {
                self.finish(Outcome::Won(turn.opponent()));
            }
        }
        Ok(self.status())
    }

    /// The next game at the same table (B10): fleets cleared, guest not ready,
    /// clocks full, score kept, first shooter alternates (B7).
    ///
    /// # Errors
    /// Before the game is over.
    pub fn again(&mut self) -> Result<(), TableError> {
        if !matches!(self.phase, Phase::Over(_)) {
            return Err(TableError::NotOver);
        }
        self.game = self.game.saturating_add(1);
        self.reset_game();
        Ok(())
    }

    /// This game again from its setup, whatever its phase: fleets and shots cleared,
    /// guest not ready, clocks full; the game number and the score are kept (a game
    /// that was over stays counted).
    pub fn clear(&mut self) {
        self.reset_game();
    }

    fn reset_game(&mut self) {
        self.seas = [Sea::default(), Sea::default()];
        self.phase = Phase::Setup;
        for clock in &mut self.clocks {
            *clock = Clock::fresh(clock.control());
        }
    }

    /// The seas as `me` pictures them: "my sea" with my ships (if known) and the
    /// enemy's shots, "enemy sea" with my shots; then a legend and the state. No
    /// empty lines.
    #[must_use]
    pub fn picture(&self, me: Color) -> String {
        let enemy = me.opponent();
        let mine = self.sea(me);
        let theirs = self.sea(enemy);
        let mut lines = vec![
            format!(
                "{:<26}{}",
                format!("my sea ({})", me.name()),
                format!("enemy sea ({})", enemy.name())
            ),
            format!(
                "{:<26}{}",
                "   A B C D E F G H I J", "   A B C D E F G H I J"
            ),
        ];
        for row in 0..10 {
            let draw = |sea: &Sea, show_ships: bool| {
                let cells: Vec<String> = (0..10)
                    .filter_map(|col| Cell::at(col, row))
                    .map(|cell| {
                        let ship = show_ships
                            && sea
                                .fleet
                                .as_ref()
                                .is_some_and(|f| f.ship_at(cell).is_some());
                        symbol(sea.view.mark(cell), ship).to_string()
                    })
                    .collect();
                format!("{:>2} {}", row + 1, cells.join(" "))
            };
            lines.push(format!("{:<26}{}", draw(mine, true), draw(theirs, false)));
        }
        lines.push(". water/unknown  # ship  o miss  * ring  x hit  X sunk".to_string());
        let state = match self.phase {
            Phase::Setup => "setup".to_string(),
            Phase::Ready => "setup, white ready".to_string(),
            Phase::Shooting { turn, .. } => format!("{} to shoot", turn.name()),
            Phase::Over(_) => self.status().name().to_string(),
        };
        lines.push(format!("game {}: {state}; score {}", self.game, self.score));
        lines.join("\n")
    }
}

fn symbol(mark: Mark, ship: bool) -> char {
    match mark {
        Mark::Unknown if ship => '#',
        Mark::Unknown => '.',
        Mark::Miss => 'o',
        Mark::Ring => '*',
        Mark::Hit => 'x',
        Mark::Sunk => 'X',
    }
}
