//! Game records: one PGN record per game, read back by `--resume`, in the form PGN
//! tools read right (the tests check every result with pgn-extract).
//!
//! A record is tag lines `[Name "value"]` (backslash and quote escaped as in PGN), an
//! empty line, the movetext, and an empty line. The tags, the seven-tag roster first:
//!
//! - `Event` (`tabula arena`), `Site` (`?`), `Date` (`YYYY.MM.DD`, UTC, when the game
//!   started), `Round` (the game pair, from 1: both games of a pair start from the
//!   same opening with colours swapped);
//! - `White`, `Black`: the engines' names, as seated;
//! - `Result`: as PGN means it, `1-0` when the engine in the `White` tag won, `0-1`
//!   when the one in the `Black` tag won, `1/2-1/2` for a draw. (In our games black
//!   moves first, so a first-player win is `0-1`.)
//! - `Number` (the game's number in the schedule, from 1: sort by it), `Game` and
//!   `Variant` (the game's name, `othello`, `shell` or `battleship`: a chess tool sees
//!   a variant it does not play), `Seed` (the game's seed: the arena sent black
//!   `set_option seed SEED` and white `set_option seed SEED+1`, so the game can be
//!   replayed), `TimeControl` (PGN's forms: `-` none, `1/S` S seconds a move,
//!   `S` or `S+I` a clock of S seconds plus I a move, `M/S` or `M/S+I` S seconds
//!   again every M moves; when the engines' differ, `WhiteTimeControl` and
//!   `BlackTimeControl` instead, as cutechess-cli writes them), `Termination` (`normal`,
//!   `adjudication`, `time forfeit`, `illegal move`, `crash`, `stall`,
//!   `protocol error`), `Reason` (for people), `Opening` (the start position in the
//!   game's notation, `-` for Battleship), and for Battleship `BlackFleet` and
//!   `WhiteFleet`.
//!
//! The movetext is the game's moves in the game's own notation inside one PGN comment
//! `{…}` (wrapped at 80 columns), then the result: chess tools keep the game instead of
//! rejecting moves that are not chess moves. Othello moves are squares (`f5`,
//! `pass`); Shell moves are `black/white` pick pairs (`e5/e6`); Battleship moves are
//! `CELL:RESULT` shots (`E5:miss`, `F6:sunk-destroyer`), the shooter following from
//! the misses. The arena writes records in game-number order.

use std::collections::HashMap;
use std::fmt::Write as _;

use anyhow::{Context, Result};

use super::referee::Termination;
use crate::games::{Color, Outcome};

/// The result as PGN writes it: `1-0` when white wins, `0-1` when black (the first
/// player in our games) wins, `1/2-1/2` for a draw.
#[must_use]
pub fn result_code(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Won(Color::White) => "1-0",
        Outcome::Won(Color::Black) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

/// The outcome PGN writes as `code`.
#[must_use]
pub fn outcome_of_code(code: &str) -> Option<Outcome> {
    [
        Outcome::Won(Color::Black),
        Outcome::Won(Color::White),
        Outcome::Draw,
    ]
    .into_iter()
    .find(|&outcome| result_code(outcome) == code)
}

/// Everything a record holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Where the game was played: PGN's `Event`, GGF's `PC` (`tabula arena`,
    /// `tabula serve`).
    pub event: String,
    pub game: String,
    pub number: usize,
    pub round: usize,
    /// `YYYY.MM.DD`.
    pub date: String,
    pub seed: u64,
    /// PGN's `TimeControl` values of black and white.
    pub time_controls: [String; 2],
    pub black: String,
    pub white: String,
    pub outcome: Outcome,
    pub termination: Termination,
    pub reason: String,
    pub opening: String,
    pub moves: Vec<String>,
    pub fleets: [Option<String>; 2],
    /// The match the game belongs to: its `--seed` and its number of games (the
    /// whole schedule, whatever part of it a shard plays).
    pub match_seed: u64,
    pub match_games: usize,
}

fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

fn unescape(value: &str) -> String {
    let mut out = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl Record {
    /// The game as one GGF line (Othello only: `None` for the other games or a
    /// record whose moves do not replay): players, date, place, the start position
    /// and the moves; `RE` is black's final margin when the game was played out or
    /// adjudicated, else 64 for the winner with GGF's suffix for how it ended (`:t`
    /// time, `:r` any other forfeit).
    #[must_use]
    pub fn to_ggf(&self) -> Option<String> {
        use crate::games::othello::{Position, ggf};
        if self.game != "othello" {
            return None;
        }
        let start = match self.opening.as_str() {
            "" | "-" => Position::start(),
            text => Position::from_notation(text).ok()?,
        };
        let mut position = start;
        let mut moves = Vec::new();
        for text in &self.moves {
            let mv = ggf::parse_move(text)?;
            moves.extend(ggf::play_lenient(&mut position, mv).ok()?);
        }
        let mut game = ggf::Game::new(start, moves);
        game.properties = vec![
            ("PC".into(), self.event.clone()),
            ("DT".into(), self.date.clone()),
            ("PB".into(), self.black.clone()),
            ("PW".into(), self.white.clone()),
        ];
        let result = match self.termination {
            Termination::Normal if position.is_over() => None,
            Termination::Normal | Termination::Adjudication => {
                Some(format!("{:+}", position.final_margin()))
            }
            other => {
                let suffix = if other == Termination::TimeForfeit {
                    ":t"
                } else {
                    ":r"
                };
                Some(match self.outcome {
                    Outcome::Won(Color::Black) => format!("+64{suffix}"),
                    Outcome::Won(Color::White) => format!("-64{suffix}"),
                    Outcome::Draw => "0".to_string(),
                })
            }
        };
        if let Some(result) = result {
            game.properties.push(("RE".into(), result));
        }
        Some(ggf::write(&game))
    }

    /// The record as text, ending with an empty line.
    #[must_use]
    pub fn to_pgn(&self) -> String {
        let mut tags = vec![
            ("Event", self.event.clone()),
            ("Site", "?".to_string()),
            ("Date", self.date.clone()),
            ("Round", (self.round + 1).to_string()),
            ("White", self.white.clone()),
            ("Black", self.black.clone()),
            ("Result", result_code(self.outcome).to_string()),
            ("Number", self.number.to_string()),
            ("Game", self.game.clone()),
            ("Variant", self.game.clone()),
            ("Seed", self.seed.to_string()),
            ("MatchSeed", self.match_seed.to_string()),
            ("MatchGames", self.match_games.to_string()),
        ];
        let [black_time, white_time] = &self.time_controls;
        if black_time == white_time {
            tags.push(("TimeControl", black_time.clone()));
        } else {
            tags.push(("WhiteTimeControl", white_time.clone()));
            tags.push(("BlackTimeControl", black_time.clone()));
        }
        tags.extend([
            ("Termination", self.termination.name().to_string()),
            ("Reason", self.reason.clone()),
            ("Opening", self.opening.clone()),
        ]);
        if let [Some(black), Some(white)] = &self.fleets {
            tags.push(("BlackFleet", black.clone()));
            tags.push(("WhiteFleet", white.clone()));
        }
        let mut text = String::new();
        for (name, value) in tags {
            let _ = writeln!(text, "[{name} \"{}\"]", escape(&value));
        }
        text.push('\n');
        let mut line = String::new();
        let mut words: Vec<String> = self.moves.clone();
        if let Some(first) = words.first_mut() {
            first.insert(0, '{');
        }
        if let Some(last) = words.last_mut() {
            last.push('}');
        }
        words.push(result_code(self.outcome).to_string());
        for word in &words {
            if !line.is_empty() && line.len() + 1 + word.len() > 80 {
                text.push_str(&line);
                text.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        text.push_str(&line);
        text.push_str("\n\n");
        text
    }
}

impl Record {
    /// The record as one JSON object (for `--json`): the same fields as the PGN
    /// tags, the moves as an array of strings.
    #[must_use]
    pub fn to_json(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(|m| json_string(m)).collect();
        let fleets: Vec<String> = self
            .fleets
            .iter()
            .map(|f| f.as_deref().map_or("null".to_string(), json_string))
            .collect();
        format!(
            "{{\"number\": {}, \"round\": {}, \"game\": {}, \"date\": {}, \"seed\": {}, \"white\": {}, \"black\": {}, \"result\": {}, \"termination\": {}, \"reason\": {}, \"white_time_control\": {}, \"black_time_control\": {}, \"opening\": {}, \"moves\": [{}], \"fleets\": [{}]}}",
            self.number,
            self.round + 1,
            json_string(&self.game),
            json_string(&self.date),
            self.seed,
            json_string(&self.white),
            json_string(&self.black),
            json_string(result_code(self.outcome)),
            json_string(self.termination.name()),
            json_string(&self.reason),
            json_string(&self.time_controls[1]),
            json_string(&self.time_controls[0]),
            json_string(&self.opening),
            moves.join(", "),
            fleets.join(", ")
        )
    }
}

/// `text` as a JSON string literal.
#[must_use]
pub fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The PGN `Date` (`YYYY.MM.DD`, UTC) of `time`.
#[must_use]
pub fn date(time: std::time::SystemTime) -> String {
    let seconds = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_date(seconds / 86_400);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The Gregorian (year, month, day) of the day `days` after 1970-01-01: the day
/// count shifted to 0000-03-01 so that leap days end each 400-year era's years.
fn civil_date(days: u64) -> (u64, u64, u64) {
    let days = days + 719_468;
    let era = days / 146_097;
    let day_of_era = days % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

/// A finished game as `--resume` needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    pub number: usize,
    pub round: usize,
    pub black: String,
    pub white: String,
    pub outcome: Outcome,
    pub termination: Termination,
    /// The game's seed; records without one were written before `Result` followed
    /// PGN (it was inverted then), and `--resume` refuses them.
    pub seed: Option<u64>,
    /// The game (`othello`, …).
    pub game: Option<String>,
    /// The match's `--seed` and number of games, where recorded.
    pub match_seed: Option<u64>,
    pub match_games: Option<usize>,
}

fn finished(tags: &HashMap<String, String>) -> Option<Finished> {
    Some(Finished {
        number: tags.get("Number")?.parse().ok()?,
        round: tags.get("Round")?.parse::<usize>().ok()?.checked_sub(1)?,
        black: tags.get("Black")?.clone(),
        white: tags.get("White")?.clone(),
        outcome: outcome_of_code(tags.get("Result")?)?,
        termination: Termination::from_name(tags.get("Termination")?)?,
        seed: tags.get("Seed").and_then(|s| s.parse().ok()),
        game: tags.get("Game").cloned(),
        match_seed: tags.get("MatchSeed").and_then(|s| s.parse().ok()),
        match_games: tags.get("MatchGames").and_then(|s| s.parse().ok()),
    })
}

/// Reads the finished games of a records file (a missing file has none). Records
/// without the needed tags are skipped.
pub fn read(path: &str) -> Result<Vec<Finished>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("reading {path}")),
    };
    let mut games = Vec::new();
    let mut tags: HashMap<String, String> = HashMap::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']'))
            && let Some((name, value)) = inner.split_once(' ')
        {
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap_or(value);
            if name == "Event" && !tags.is_empty() {
                games.extend(finished(&tags));
                tags.clear();
            }
            tags.insert(name.to_string(), unescape(value));
        }
    }
    games.extend(finished(&tags));
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_what_resume_needs() {
        let record = Record {
            event: "tabula arena".into(),
            game: "battleship".into(),
            number: 7,
            round: 3,
            date: "2026.01.31".into(),
            seed: 42,
            time_controls: ["60+0.5".into(), "60+0.5".into()],
            black: "a".into(),
            white: "b \"quoted\"".into(),
            outcome: Outcome::Won(Color::White),
            termination: Termination::IllegalMove,
            reason: "Black says \\ \"hi\"".into(),
            opening: "-".into(),
            moves: vec!["E5:miss".into(); 30],
            fleets: [Some("A1-A4 C1".into()), Some("B2".into())],
            match_seed: 5,
            match_games: 40,
        };
        let text = record.to_pgn();
        assert!(
            text.starts_with(
                "[Event \"tabula arena\"]\n[Site \"?\"]\n[Date \"2026.01.31\"]\n[Round \"4\"]\n\
                 [White \"b \\\"quoted\\\"\"]\n[Black \"a\"]\n[Result \"1-0\"]\n"
            ),
            "the seven-tag roster, and 1-0 when white wins: {text}"
        );
        for tag in [
            "[Number \"7\"]",
            "[Variant \"battleship\"]",
            "[Seed \"42\"]",
            "[TimeControl \"60+0.5\"]",
            "[BlackFleet \"A1-A4 C1\"]",
            "[MatchSeed \"5\"]",
            "[MatchGames \"40\"]",
        ] {
            assert!(text.contains(&format!("{tag}\n")), "{tag}: {text}");
        }
        assert!(text.contains("\n\n{E5:miss E5:miss"), "{text}");
        assert!(text.lines().all(|l| l.len() <= 80));
        assert!(text.ends_with("E5:miss}\n1-0\n\n"), "{text}");
        let dir = std::env::temp_dir().join(format!("tabula-record-{}", std::process::id()));
        let path = dir.to_string_lossy().to_string();
        let twice = format!("{text}{text}");
        assert!(std::fs::write(&path, twice).is_ok());
        let games = read(&path).unwrap_or_default();
        let _ = std::fs::remove_file(&path);
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0],
            Finished {
                number: 7,
                round: 3,
                black: "a".into(),
                white: "b \"quoted\"".into(),
                outcome: Outcome::Won(Color::White),
                termination: Termination::IllegalMove,
                seed: Some(42),
                game: Some("battleship".into()),
                match_seed: Some(5),
                match_games: Some(40),
            }
        );
    }

    #[test]
    fn results_are_written_as_pgn_has_them() {
        let outcomes = [
            Outcome::Won(Color::White),
            Outcome::Won(Color::Black),
            Outcome::Draw,
        ];
        let codes = outcomes.map(result_code);
        assert_eq!(codes, ["1-0", "0-1", "1/2-1/2"]);
        for (outcome, code) in outcomes.into_iter().zip(codes) {
            assert_eq!(outcome_of_code(code), Some(outcome));
        }
        assert_eq!(outcome_of_code("*"), None);
    }

    #[test]
    fn dates_are_gregorian() {
        let day = |n: u64| {
            date(std::time::UNIX_EPOCH + std::time::Duration::from_secs(n * 86_400 + 3_600))
        };
        assert_eq!(day(0), "1970.01.01");
        assert_eq!(day(11_016), "2000.02.29");
        assert_eq!(day(20_787), "2026.11.30");
        assert_eq!(day(47_541), "2100.03.01");
    }
}
