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
use crate::games::{Color, Outcome, Status};

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
    /// The game is over: won by sinking the whole enemy fleet (B7) or on the enemy's
    /// flag (B11), or drawn by agreement (B8).
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
            Outcome::Draw => &mut self.draws,
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
            Phase::Over(outcome) => Status::over(outcome),
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

    /// `loser` can no longer play (a program at the table failed): the game ends as
    /// a win for the other colour, whatever its phase, and is counted in the score.
    ///
    /// # Errors
    /// The game is over already.
    pub fn forfeit(&mut self, loser: Color) -> Result<(), TableError> {
        if matches!(self.phase, Phase::Over(_)) {
            return Err(TableError::GameOver);
        }
        self.finish(Outcome::Won(loser.opponent()));
        Ok(())
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
        self.finish(Outcome::Draw);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::battleship::fleet::ShipType;
    use crate::games::battleship::testing::cell as c;

    const BLACK_FLEET: &str = "A1-D1 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7 G7";
    const WHITE_FLEET: &str = "J1-J4 H1-H3 A10-C10 E10-F10 H10-I10 A8-B8 E1 E7 G7 C5";

    /// Both fleets known, started: referee mode.
    fn refereed() -> Table {
        let mut t = Table::new();
        t.place_fleet(Color::Black, Fleet::parse(BLACK_FLEET).unwrap())
            .unwrap();
        t.place_fleet(Color::White, Fleet::parse(WHITE_FLEET).unwrap())
            .unwrap();
        t.ready(Color::White).unwrap();
        t.start().unwrap();
        t
    }

    /// Shoot every cell of `target`'s fleet with `shooter`, in fleet order.
    fn sink_all(t: &mut Table, shooter: Color) {
        let fleet = t.fleet(shooter.opponent()).unwrap().clone();
        for ship in fleet.ships() {
            for cell in ship.cells() {
                t.shoot(shooter, cell).unwrap();
            }
        }
    }

    /// A refused call leaves the table as it was.
    fn refused<T: fmt::Debug>(
        t: &mut Table,
        call: impl FnOnce(&mut Table) -> Result<T, TableError>,
    ) -> TableError {
        let before = t.clone();
        let e = call(t).unwrap_err();
        assert_eq!(*t, before, "refused call changed the table");
        e
    }

    #[test]
    fn b9_start_needs_the_guest_ready_and_only_the_guest_readies() {
        let mut t = Table::new();
        assert_eq!(refused(&mut t, |t| t.start()), TableError::GuestNotReady);
        assert_eq!(
            refused(&mut t, |t| t.ready(Color::Black)),
            TableError::OnlyGuestReadies
        );
        t.ready(Color::White).unwrap();
        assert_eq!(
            refused(&mut t, |t| t.ready(Color::White)),
            TableError::AlreadyReady
        );
        assert_eq!(t.start(), Ok(Color::Black));
        assert_eq!(refused(&mut t, |t| t.start()), TableError::AlreadyStarted);
    }

    #[test]
    fn b9_no_shot_before_start_and_no_fleet_after() {
        let mut t = Table::new();
        t.place_fleet(Color::White, Fleet::parse(WHITE_FLEET).unwrap())
            .unwrap();
        assert_eq!(
            refused(&mut t, |t| t.shoot(Color::Black, c("A1"))),
            TableError::NotStarted
        );
        assert_eq!(refused(&mut t, |t| t.elapse(5)), TableError::NotStarted);
        assert_eq!(
            refused(&mut t, |t| t.offer_draw(Color::Black)),
            TableError::NotStarted
        );
        // Replacing before the start is fine.
        t.place_fleet(Color::White, Fleet::parse(BLACK_FLEET).unwrap())
            .unwrap();
        t.ready(Color::White).unwrap();
        t.start().unwrap();
        let fleet = Fleet::parse(WHITE_FLEET).unwrap();
        assert_eq!(
            refused(&mut t, |t| t.place_fleet(Color::White, fleet)),
            TableError::AlreadyStarted
        );
    }

    #[test]
    fn b4_extra_shot_after_hit_turn_passes_after_miss() {
        let mut t = refereed();
        assert_eq!(t.shoot(Color::Black, c("J1")), Ok(ShotResult::Hit));
        assert_eq!(t.turn(), Some(Color::Black));
        assert_eq!(
            t.shoot(Color::Black, c("E1")),
            Ok(ShotResult::Sunk(ShipType::Boat))
        );
        assert_eq!(t.turn(), Some(Color::Black));
        assert_eq!(t.shoot(Color::Black, c("A1")), Ok(ShotResult::Miss));
        assert_eq!(t.turn(), Some(Color::White));
        assert_eq!(
            refused(&mut t, |t| t.shoot(Color::Black, c("A2"))),
            TableError::NotYourTurn {
                to_shoot: Color::White
            }
        );
    }

    #[test]
    fn b5_repeat_and_ring_refused_nothing_changes() {
        let mut t = refereed();
        t.shoot(Color::Black, c("E1")).unwrap(); // sunk boat, ring D1 F1 D2 E2 F2
        assert_eq!(
            refused(&mut t, |t| t.shoot(Color::Black, c("E1"))),
            TableError::Shot(ShotError::Spent(c("E1")))
        );
        assert_eq!(
            refused(&mut t, |t| t.shoot(Color::Black, c("F2"))),
            TableError::Shot(ShotError::Spent(c("F2")))
        );
        assert_eq!(t.turn(), Some(Color::Black));
        assert!(!t.is_legal(Color::Black, c("D1")));
        assert!(t.is_legal(Color::Black, c("A1")));
        assert!(!t.is_legal(Color::White, c("A1")));
        assert_eq!(t.legal_shots(Color::Black).len(), 100 - 6);
    }

    #[test]
    fn b6_ring_marked_around_a_sunk_ship_at_the_edge() {
        let mut t = refereed();
        for cell in ["J1", "J2", "J3", "J4"] {
            t.shoot(Color::Black, c(cell)).unwrap();
        }
        let view = t.target_view(Color::Black);
        for cell in ["I1", "I2", "I3", "I4", "I5", "J5"] {
            assert_eq!(view.mark(c(cell)), Mark::Ring, "{cell}");
        }
    }

    #[test]
    fn b7_sinking_all_ten_wins_and_scores() {
        let mut t = refereed();
        sink_all(&mut t, Color::Black);
        assert_eq!(t.status(), Status::BlackWins);
        assert_eq!(
            t.score(),
            Score {
                black: 1,
                white: 0,
                draws: 0
            }
        );
        assert_eq!(
            refused(&mut t, |t| t.shoot(Color::Black, c("J10"))),
            TableError::GameOver
        );
    }

    #[test]
    fn b7_b10_again_alternates_first_shooter_and_keeps_score() {
        let mut t = refereed();
        assert_eq!(refused(&mut t, |t| t.again()), TableError::NotOver);
        sink_all(&mut t, Color::Black);
        t.again().unwrap();
        assert_eq!(t.game(), 2);
        assert_eq!(t.phase(), Phase::Setup);
        assert_eq!(t.fleet(Color::Black), None);
        assert_eq!(t.score().black, 1);
        t.place_fleet(Color::Black, Fleet::parse(BLACK_FLEET).unwrap())
            .unwrap();
        t.place_fleet(Color::White, Fleet::parse(WHITE_FLEET).unwrap())
            .unwrap();
        t.ready(Color::White).unwrap();
        assert_eq!(t.start(), Ok(Color::White));
        assert_eq!(
            refused(&mut t, |t| t.shoot(Color::Black, c("A1"))),
            TableError::NotYourTurn {
                to_shoot: Color::White
            }
        );
        sink_all(&mut t, Color::White);
        assert_eq!(
            t.score(),
            Score {
                black: 1,
                white: 1,
                draws: 0
            }
        );
        t.again().unwrap();
        t.ready(Color::White).unwrap();
        assert_eq!(t.start(), Ok(Color::Black));
    }

    #[test]
    fn b8_offer_limits() {
        let mut t = refereed();
        t.offer_draw(Color::Black).unwrap();
        // The offerer cannot accept its own offer, nor offer twice.
        assert_eq!(
            refused(&mut t, |t| t.accept_draw(Color::Black)),
            TableError::NoOffer
        );
        assert_eq!(
            refused(&mut t, |t| t.offer_draw(Color::Black)),
            TableError::OfferPending(Color::Black)
        );
        assert_eq!(
            refused(&mut t, |t| t.offer_draw(Color::White)),
            TableError::OfferPending(Color::Black)
        );
        t.decline_draw(Color::White).unwrap();
        // Declined: black may not offer again before the next shot; white may.
        assert_eq!(
            refused(&mut t, |t| t.offer_draw(Color::Black)),
            TableError::AlreadyOffered(Color::Black)
        );
        t.offer_draw(Color::White).unwrap();
        // A shot lapses the pending offer and renews both allowances.
        t.shoot(Color::Black, c("A1")).unwrap();
        assert_eq!(
            refused(&mut t, |t| t.accept_draw(Color::Black)),
            TableError::NoOffer
        );
        t.offer_draw(Color::Black).unwrap();
        t.accept_draw(Color::White).unwrap();
        assert_eq!(t.status(), Status::Draw);
        assert_eq!(
            t.score(),
            Score {
                black: 0,
                white: 0,
                draws: 1
            }
        );
        assert_eq!(
            refused(&mut t, |t| t.offer_draw(Color::White)),
            TableError::GameOver
        );
    }

    #[test]
    fn b11_flag_fall_loses_and_only_the_shooter_clock_runs() {
        let mut t = Table::new();
        let control = TimeControl::Timed {
            main_ms: 1000,
            increment_ms: 100,
        };
        t.set_time_control(Color::Black, control).unwrap();
        t.set_time_control(Color::White, control).unwrap();
        assert_eq!(
            refused(&mut t, |t| t.set_time_control(
                Color::White,
                TimeControl::Timed {
                    main_ms: 0,
                    increment_ms: 0
                }
            )),
            TableError::ZeroMainTime
        );
        t.place_fleet(Color::White, Fleet::parse(WHITE_FLEET).unwrap())
            .unwrap();
        t.ready(Color::White).unwrap();
        t.start().unwrap();
        assert_eq!(t.elapse(300), Ok(Status::Ongoing));
        assert_eq!(t.clock(Color::Black).left_ms(), Some(700));
        assert_eq!(t.clock(Color::White).left_ms(), Some(1000));
        t.shoot(Color::Black, c("A1")).unwrap(); // miss; +100
        assert_eq!(t.clock(Color::Black).left_ms(), Some(800));
        assert_eq!(t.elapse(999), Ok(Status::Ongoing));
        assert_eq!(t.clock(Color::White).left_ms(), Some(1));
        assert_eq!(t.elapse(1), Ok(Status::BlackWins));
        assert_eq!(t.score().black, 1);
        assert_eq!(refused(&mut t, |t| t.elapse(1)), TableError::GameOver);
        t.again().unwrap();
        assert_eq!(t.clock(Color::White).left_ms(), Some(1000));
    }

    #[test]
    fn player_mode_needs_a_result_and_checks_it() {
        let mut t = Table::new();
        t.place_fleet(Color::Black, Fleet::parse(BLACK_FLEET).unwrap())
            .unwrap();
        t.ready(Color::White).unwrap();
        t.start().unwrap();
        assert_eq!(
            refused(&mut t, |t| t.shoot(Color::Black, c("E5"))),
            TableError::ResultNeeded
        );
        assert_eq!(
            t.shoot_reported(Color::Black, c("E5"), ShotResult::Hit),
            Ok(ShotResult::Hit)
        );
        assert_eq!(
            refused(&mut t, |t| t.shoot_reported(
                Color::Black,
                c("F6"),
                ShotResult::Hit
            )),
            TableError::Shot(ShotError::Corner {
                cell: c("F6"),
                other: c("E5")
            })
        );
        t.shoot_reported(Color::Black, c("E6"), ShotResult::Sunk(ShipType::Destroyer))
            .unwrap();
        t.shoot_reported(Color::Black, c("A1"), ShotResult::Miss)
            .unwrap();
        // White shoots at the known black fleet: judged, and a report must agree.
        assert_eq!(
            refused(&mut t, |t| t.shoot_reported(
                Color::White,
                c("A1"),
                ShotResult::Miss
            )),
            TableError::Disagrees
        );
        assert_eq!(
            t.shoot_reported(Color::White, c("A1"), ShotResult::Hit),
            Ok(ShotResult::Hit)
        );
    }

    #[test]
    fn picture_has_no_empty_lines_and_hides_the_enemy_fleet() {
        let mut t = refereed();
        t.shoot(Color::Black, c("J1")).unwrap();
        let p = t.picture(Color::Black);
        assert!(p.lines().all(|l| !l.trim().is_empty()), "{p}");
        assert_eq!(p.lines().count(), 14);
        let row1 = p.lines().nth(2).unwrap();
        assert!(row1.starts_with(" 1 # # # # . ."), "{row1}");
        assert!(row1.ends_with(". . . x"), "{row1}");
        assert_eq!(row1.matches('#').count(), 4);
    }
}
