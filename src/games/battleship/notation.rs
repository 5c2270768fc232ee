//! The table notation: the whole session on one line, for `position` /
//! `set_position`, and `undo`-free storage of a game.
//!
//! Grammar (fields in this order, separated by single spaces; keywords lowercase on
//! output, read in any case; cells uppercase on output, read in any case):
//!
//! ```text
//! table   = "game=" NUM " stage=" STAGE " black=" FLEET " white=" FLEET
//!           " shots=" SHOTS " offers=" OFFER OFFER " score=" NUM "," NUM "," NUM
//!           " clocks=" CLOCK "," CLOCK
//! NUM     = decimal digits, no sign (a u32; game >= 1)
//! STAGE   = "setup" | "ready" | "black" | "white" | "black_wins" | "white_wins" | "draw"
//! FLEET   = "-" | SHIP "," SHIP "," … (the ten ships of the fleet notation, joined by
//!           commas, canonical order on output)
//! SHIP    = CELL "-" CELL | CELL
//! SHOTS   = "-" | SHOT ("," SHOT)*          every shot of this game, in the order fired
//! SHOT    = CELL ":" RESULT
//! RESULT  = "miss" | "hit" | "sunk-" TYPE   TYPE = battleship|cruiser|destroyer|boat
//! OFFER   = "-" (unused) | "p" (pending) | "d" (offered and declined since the last
//!           shot); black's first, then white's
//! CLOCK   = "-" (unlimited) | LEFT "/" MAIN "+" INC   milliseconds, black's first
//! ```
//!
//! Meaning. `stage` is `setup` (white not ready), `ready` (white ready, not started),
//! `black`/`white` (started, that colour shoots), or the result of a finished game.
//! Shots carry no shooter: the first shooter is black in odd games and white in even
//! ones (B7 RULING), and the turn passes after each miss (B4), so replaying the list
//! from the start gives every shot's shooter, every ring (B6) and the turn. The score
//! counts every finished game of the table, this one included when it is over.
//!
//! Example, black to shoot after black missed, white hit and missed:
//! `game=1 stage=black black=- white=A1-D1,A3-C3,E3-G3,A5-B5,D5-E5,G5-H5,A7,C7,E7,G7
//! shots=J10:miss,A1:hit,B2:miss offers=-- score=0,0,0 clocks=-,-` (one line).
//!
//! Validation by [`Table::from_notation`]: every field must parse; fleets must be legal
//! (B3); the shots are replayed through the table's own `shoot_reported`, so each must
//! be legal and its result judged right (known fleet) or possible (unknown fleet);
//! no shots before the start; `stage` must agree with the replay (the shooter to move,
//! or a win by sinking all ten, or a win on the flag — the loser was to shoot and has a
//! timed clock at 0 — or a draw); offers only while shooting, at most one pending;
//! clocks full (`LEFT` = `MAIN`) before the start, positive `MAIN`, `LEFT` 0 only for a
//! flag loss; a finished game is counted in the score.

use std::fmt;

use super::cell::Cell;
use super::fleet::{Fleet, FleetError, ShipType};
use super::sea::{Shot, ShotResult};
use super::table::{Clock, Offer, Phase, Score, Table, TableError, TimeControl};
use crate::games::{Color, Outcome};

/// Why a notation was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// A field missing, extra, out of order or malformed; names the field.
    Field { field: &'static str, text: String },
    /// An illegal fleet.
    Fleet { color: Color, error: FleetError },
    /// Shot number `number` (from 1) was refused on replay.
    Shot { number: usize, error: TableError },
    /// The fields parse but contradict each other.
    Inconsistent(&'static str),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Field { field, text } => write!(f, "bad {field} field: {text:?}"),
            NotationError::Fleet { color, error } => {
                write!(f, "{}'s fleet: {error}", color.name())
            }
            NotationError::Shot { number, error } => write!(f, "shot {number}: {error}"),
            NotationError::Inconsistent(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for NotationError {}

const FIELDS: [&str; 8] = [
    "game", "stage", "black", "white", "shots", "offers", "score", "clocks",
];

impl Table {
    /// The one-line notation of the whole session (module doc).
    #[must_use]
    pub fn to_notation(&self) -> String {
        let stage = match self.phase {
            Phase::Setup => "setup",
            Phase::Ready => "ready",
            Phase::Shooting { turn, .. } => turn.name(),
            Phase::Over(_) => self.status().name(),
        };
        let fleet = |c: Color| match self.fleet(c) {
            Some(f) => f.joined(","),
            None => "-".to_string(),
        };
        let shots = self.shots_in_order();
        let shots = if shots.is_empty() {
            "-".to_string()
        } else {
            shots
                .iter()
                .map(|s| format!("{}:{}", s.cell, result_word(s.result)))
                .collect::<Vec<_>>()
                .join(",")
        };
        let offers: String = match self.phase {
            Phase::Shooting { offers, .. } => offers.iter().map(|&o| offer_char(o)).collect(),
            _ => "--".to_string(),
        };
        let clock = |c: Color| match self.clock(c) {
            Clock::Unlimited => "-".to_string(),
            Clock::Timed {
                main_ms,
                increment_ms,
                left_ms,
            } => format!("{left_ms}/{main_ms}+{increment_ms}"),
        };
        let Score {
            black,
            white,
            draws,
        } = self.score;
        format!(
            "game={} stage={stage} black={} white={} shots={shots} offers={offers} \
             score={black},{white},{draws} clocks={},{}",
            self.game,
            fleet(Color::Black),
            fleet(Color::White),
            clock(Color::Black),
            clock(Color::White),
        )
    }

    /// Every shot of this game in the order fired, merged from the two seas by the
    /// turn rule (B4): the first shooter shoots until a miss, and so on.
    fn shots_in_order(&self) -> Vec<Shot> {
        let lists = [
            self.target_view(Color::Black).shots(),
            self.target_view(Color::White).shots(),
        ];
        let mut next = [0usize; 2];
        let mut shooter = self.first_shooter();
        let mut out = Vec::new();
        while let Some(&shot) = lists[shooter.index()].get(next[shooter.index()]) {
            next[shooter.index()] += 1;
            out.push(shot);
            if !shot.result.shoots_again() {
                shooter = shooter.opponent();
            }
        }
        out
    }

    /// Reads and validates the notation (module doc).
    ///
    /// # Errors
    /// The first malformed field or contradiction found.
    pub fn from_notation(text: &str) -> Result<Table, NotationError> {
        let mut values = Vec::with_capacity(FIELDS.len());
        let mut tokens = text.split_whitespace();
        for field in FIELDS {
            let token = tokens.next().ok_or_else(|| bad(field, "missing"))?;
            let value = token
                .split_once('=')
                .filter(|(key, _)| key.eq_ignore_ascii_case(field))
                .map(|(_, value)| value)
                .ok_or_else(|| bad(field, token))?;
            values.push(value);
        }
        if let Some(extra) = tokens.next() {
            return Err(bad("end", extra));
        }
        let [game, stage, black, white, shots, offers, score, clocks] = values[..] else {
            return Err(bad("game", text));
        };

        let game = number(game)
            .filter(|&g| g >= 1)
            .ok_or_else(|| bad("game", game))?;
        let stage_word = stage.to_ascii_lowercase();
        let fleets = [
            parse_fleet(Color::Black, black)?,
            parse_fleet(Color::White, white)?,
        ];
        let shots = parse_shots(shots)?;
        let offers = parse_offers(offers)?;
        let score = parse_score(score)?;
        let clocks = parse_clocks(clocks)?;

        let mut table = Table::new();
        table.game = game;
        for color in Color::ALL {
            let (left, control) = clocks[color.index()];
            table
                .set_time_control(color, control)
                .map_err(|_| bad("clocks", "main time must be positive"))?;
            if let Some(fleet) = fleets[color.index()].clone() {
                table
                    .place_fleet(color, fleet)
                    .map_err(|_| NotationError::Inconsistent("cannot place fleets"))?;
            }
            let before_start = matches!(stage_word.as_str(), "setup" | "ready");
            if before_start && left != Clock::fresh(control).left_ms() {
                return Err(NotationError::Inconsistent(
                    "clocks must be full before the start",
                ));
            }
        }
        let started = match stage_word.as_str() {
            "setup" => false,
            "ready" => {
                table.ready(Color::White).map_err(|_| bad("stage", stage))?;
                false
            }
            "black" | "white" | "black_wins" | "white_wins" | "draw" => {
                table.ready(Color::White).map_err(|_| bad("stage", stage))?;
                table.start().map_err(|_| bad("stage", stage))?;
                true
            }
            _ => return Err(bad("stage", stage)),
        };
        if !started && !shots.is_empty() {
            return Err(NotationError::Inconsistent("shots before the start"));
        }
        for (i, &(cell, result)) in shots.iter().enumerate() {
            let Some(shooter) = table.turn() else {
                return Err(NotationError::Inconsistent("shots after the game ended"));
            };
            table
                .shoot_reported(shooter, cell, result)
                .map_err(|error| NotationError::Shot {
                    number: i + 1,
                    error,
                })?;
        }
        // Clocks as written (the replay added increments).
        for color in Color::ALL {
            let (left, _) = clocks[color.index()];
            if let (Clock::Timed { left_ms, .. }, Some(l)) =
                (&mut table.clocks[color.index()], left)
            {
                *left_ms = l;
            }
        }
        let flagged = |t: &Table, c: Color| t.clock(c).left_ms() == Some(0);
        table.phase = match (table.phase, stage_word.as_str()) {
            (Phase::Setup, "setup") | (Phase::Ready, "ready") => table.phase,
            (Phase::Shooting { turn, .. }, word) if word == turn.name() => {
                let pending = offers.iter().filter(|&&o| o == Offer::Pending).count();
                if pending > 1 {
                    return Err(NotationError::Inconsistent("two draw offers pending"));
                }
                Phase::Shooting { turn, offers }
            }
            (Phase::Shooting { turn, .. }, "draw") if !flagged(&table, turn) => {
                Phase::Over(Outcome::Draw)
            }
            (Phase::Shooting { turn, .. }, word)
                if word == format!("{}_wins", turn.opponent().name()) && flagged(&table, turn) =>
            {
                Phase::Over(Outcome::Won(turn.opponent()))
            }
            (Phase::Over(Outcome::Won(winner)), word)
                if word == format!("{}_wins", winner.name()) =>
            {
                table.phase
            }
            _ => {
                return Err(NotationError::Inconsistent(
                    "the stage disagrees with the shots and clocks",
                ));
            }
        };
        if !matches!(table.phase, Phase::Shooting { .. }) && offers != [Offer::Unused; 2] {
            return Err(NotationError::Inconsistent(
                "draw offers exist only while shooting",
            ));
        }
        let flag_loser = match table.phase {
            Phase::Over(Outcome::Won(w)) if !table.target_view(w).all_sunk() => Some(w.opponent()),
            _ => None,
        };
        for color in Color::ALL {
            if flagged(&table, color) && flag_loser != Some(color) {
                return Err(NotationError::Inconsistent(
                    "a clock at zero but no loss on the flag",
                ));
            }
        }
        let counted = match table.phase {
            Phase::Over(Outcome::Won(c)) => score.wins(c) >= 1,
            Phase::Over(Outcome::Draw) => score.draws >= 1,
            _ => true,
        };
        if !counted {
            return Err(NotationError::Inconsistent(
                "the finished game is not counted in the score",
            ));
        }
        table.score = score;
        Ok(table)
    }
}

fn bad(field: &'static str, text: &str) -> NotationError {
    NotationError::Field {
        field,
        text: text.to_string(),
    }
}

fn number<T: std::str::FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn result_word(result: ShotResult) -> String {
    match result {
        ShotResult::Miss => "miss".to_string(),
        ShotResult::Hit => "hit".to_string(),
        ShotResult::Sunk(kind) => format!("sunk-{kind}"),
    }
}

fn offer_char(offer: Offer) -> char {
    match offer {
        Offer::Unused => '-',
        Offer::Pending => 'p',
        Offer::Spent => 'd',
    }
}

fn parse_fleet(color: Color, text: &str) -> Result<Option<Fleet>, NotationError> {
    if text == "-" {
        return Ok(None);
    }
    if text.split(',').any(str::is_empty) {
        return Err(bad(color_field(color), text));
    }
    Fleet::parse(&text.replace(',', " "))
        .map(Some)
        .map_err(|error| NotationError::Fleet { color, error })
}

fn color_field(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn parse_shots(text: &str) -> Result<Vec<(Cell, ShotResult)>, NotationError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|shot| {
            let (cell, result) = shot.split_once(':').ok_or_else(|| bad("shots", shot))?;
            let cell = Cell::parse(cell).ok_or_else(|| bad("shots", shot))?;
            let result = if result.eq_ignore_ascii_case("miss") {
                ShotResult::Miss
            } else if result.eq_ignore_ascii_case("hit") {
                ShotResult::Hit
            } else {
                let kind = result
                    .get(..5)
                    .filter(|p| p.eq_ignore_ascii_case("sunk-"))
                    .and_then(|_| result.get(5..))
                    .and_then(ShipType::parse)
                    .ok_or_else(|| bad("shots", shot))?;
                ShotResult::Sunk(kind)
            };
            Ok((cell, result))
        })
        .collect()
}

fn parse_offers(text: &str) -> Result<[Offer; 2], NotationError> {
    let offer = |b: u8| match b.to_ascii_lowercase() {
        b'-' => Some(Offer::Unused),
        b'p' => Some(Offer::Pending),
        b'd' => Some(Offer::Spent),
        _ => None,
    };
    match text.as_bytes() {
        &[b, w] => match (offer(b), offer(w)) {
            (Some(b), Some(w)) => Ok([b, w]),
            _ => Err(bad("offers", text)),
        },
        _ => Err(bad("offers", text)),
    }
}

fn parse_score(text: &str) -> Result<Score, NotationError> {
    let parts: Vec<Option<u32>> = text.split(',').map(number).collect();
    match parts[..] {
        [Some(black), Some(white), Some(draws)] => Ok(Score {
            black,
            white,
            draws,
        }),
        _ => Err(bad("score", text)),
    }
}

/// Each clock as (left, control); left is `None` for unlimited.
fn parse_clocks(text: &str) -> Result<[(Option<u64>, TimeControl); 2], NotationError> {
    let clock = |part: &str| -> Option<(Option<u64>, TimeControl)> {
        if part == "-" {
            return Some((None, TimeControl::Unlimited));
        }
        let (left, rest) = part.split_once('/')?;
        let (main, inc) = rest.split_once('+')?;
        Some((
            Some(number(left)?),
            TimeControl::Timed {
                main_ms: number(main)?,
                increment_ms: number(inc)?,
            },
        ))
    };
    let parts: Vec<&str> = text.split(',').collect();
    match parts[..] {
        [b, w] => match (clock(b), clock(w)) {
            (Some(b), Some(w)) => Ok([b, w]),
            _ => Err(bad("clocks", text)),
        },
        _ => Err(bad("clocks", text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::battleship::testing::cell as c;

    const BLACK_FLEET: &str = "A1-D1 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7 G7";

    fn round_trip(t: &Table) {
        let text = t.to_notation();
        assert!(!text.contains('\n'));
        assert_eq!(Table::from_notation(&text).as_ref(), Ok(t), "{text}");
    }

    #[test]
    fn new_table_round_trips() {
        let t = Table::new();
        assert_eq!(
            t.to_notation(),
            "game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-"
        );
        round_trip(&t);
    }

    #[test]
    fn player_mode_game_round_trips_with_offers_and_clocks() {
        let mut t = Table::new();
        t.set_time_control(
            Color::Black,
            TimeControl::Timed {
                main_ms: 5000,
                increment_ms: 10,
            },
        )
        .unwrap();
        t.place_fleet(Color::White, Fleet::parse(BLACK_FLEET).unwrap())
            .unwrap();
        t.ready(Color::White).unwrap();
        round_trip(&t);
        t.start().unwrap();
        t.elapse(123).unwrap();
        t.shoot(Color::Black, c("A1")).unwrap();
        t.shoot(Color::Black, c("J10")).unwrap();
        t.shoot_reported(Color::White, c("E5"), ShotResult::Hit)
            .unwrap();
        t.shoot_reported(Color::White, c("E6"), ShotResult::Sunk(ShipType::Destroyer))
            .unwrap();
        t.shoot_reported(Color::White, c("A1"), ShotResult::Miss)
            .unwrap();
        t.offer_draw(Color::White).unwrap();
        t.decline_draw(Color::Black).unwrap();
        t.offer_draw(Color::Black).unwrap();
        let text = t.to_notation();
        assert!(
            text.contains("shots=A1:hit,J10:miss,E5:hit,E6:sunk-destroyer,A1:miss"),
            "{text}"
        );
        assert!(text.contains("offers=pd"), "{text}");
        assert!(text.contains("clocks=4897/5000+10,-"), "{text}");
        round_trip(&t);
        t.accept_draw(Color::White).unwrap();
        round_trip(&t);
    }

    #[test]
    fn refuses_malformed_and_inconsistent() {
        let good = "game=1 stage=black black=- white=- shots=A1:miss,B2:hit offers=-- score=0,0,0 clocks=-,-";
        // After A1:miss it is white's shot: B2:hit is white's, and white shoots on.
        assert!(matches!(
            Table::from_notation(good),
            Err(NotationError::Inconsistent(_))
        ));
        let ok = good.replace("stage=black", "stage=white");
        assert!(Table::from_notation(&ok).is_ok());
        for bad in [
            "",
            "game=0 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-",
            "game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,- extra",
            "game=1 stage=setup white=- black=- shots=- offers=-- score=0,0,0 clocks=-,-",
            "game=1 stage=nope black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-",
            "game=1 stage=setup black=A1 white=- shots=- offers=-- score=0,0,0 clocks=-,-",
            "game=1 stage=setup black=- white=- shots=A1:miss offers=-- score=0,0,0 clocks=-,-",
            "game=1 stage=setup black=- white=- shots=- offers=p- score=0,0,0 clocks=-,-",
            "game=1 stage=black black=- white=- shots=- offers=pp score=0,0,0 clocks=-,-",
            "game=1 stage=black black=- white=- shots=A1:hit,A1:miss offers=-- score=0,0,0 clocks=-,-",
            "game=1 stage=black black=- white=- shots=A1:hit,B2:hit offers=-- score=0,0,0 clocks=-,-",
            "game=1 stage=black black=- white=- shots=A1:sunk-cruiser offers=-- score=0,0,0 clocks=-,-",
            "game=1 stage=draw black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-",
            "game=1 stage=black_wins black=- white=- shots=- offers=-- score=1,0,0 clocks=-,-",
            "game=1 stage=black black=- white=- shots=- offers=-- score=0,0,0 clocks=0/100+0,-",
            "game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=50/100+0,-",
            "game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=0/0+0,-",
            "game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,x clocks=-,-",
            "game=1 stage=setup black=- white=- shots=- offers=-- score=-1,0,0 clocks=-,-",
            "game=\u{e9} stage=setup",
        ] {
            assert!(Table::from_notation(bad).is_err(), "{bad}");
        }
        // A flag loss: white to shoot with 0 left, black wins.
        let flag = "game=1 stage=black_wins black=- white=- shots=A1:miss offers=-- score=1,0,0 clocks=-,0/100+0";
        let t = Table::from_notation(flag).unwrap();
        assert_eq!(t.status(), crate::games::Status::BlackWins);
        assert_eq!(t.to_notation(), flag);
        // Not counted in the score: refused.
        assert!(Table::from_notation(&flag.replace("score=1,0,0", "score=0,0,0")).is_err());
    }

    #[test]
    fn referee_mode_replay_refuses_a_wrong_judgement() {
        let text = format!(
            "game=1 stage=black black=- white={} shots=A1:miss offers=-- score=0,0,0 clocks=-,-",
            BLACK_FLEET.replace(' ', ",")
        );
        assert!(matches!(
            Table::from_notation(&text),
            Err(NotationError::Shot {
                number: 1,
                error: TableError::Disagrees
            })
        ));
    }
}
