//! Game records: one PGN-style record per game, appended and flushed as each game
//! ends, and read back by `--resume`.
//!
//! A record is tag lines `[Name "value"]` (backslash and quote escaped as in PGN), an
//! empty line, the moves in the game's notation wrapped at 80 columns followed by the
//! result, and an empty line. `Result` is `1-0` when black (the first player) wins,
//! `0-1` when white wins, `1/2-1/2` for a draw. Battleship moves are `CELL:RESULT`
//! shots (`E5:miss`, `F6:sunk-destroyer`), the shooter following from the misses;
//! Shell moves are `black/white` pick pairs (`e5/e6`).

use std::collections::HashMap;
use std::fmt::Write as _;

use anyhow::{Context, Result};

use super::referee::{Outcome, Termination};

/// Everything a record holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub game: String,
    pub number: usize,
    pub round: usize,
    pub black: String,
    pub white: String,
    pub outcome: Outcome,
    pub termination: Termination,
    pub reason: String,
    pub opening: String,
    pub moves: Vec<String>,
    pub fleets: [Option<String>; 2],
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
    /// The record as text, ending with an empty line.
    #[must_use]
    pub fn to_pgn(&self) -> String {
        let mut tags = vec![
            ("Event", "tabula arena".to_string()),
            ("Game", self.game.clone()),
            ("Number", self.number.to_string()),
            ("Round", (self.round + 1).to_string()),
            ("Black", self.black.clone()),
            ("White", self.white.clone()),
            ("Result", self.outcome.code().to_string()),
            ("Termination", self.termination.name().to_string()),
            ("Reason", self.reason.clone()),
            ("Opening", self.opening.clone()),
        ];
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
        for word in self
            .moves
            .iter()
            .map(String::as_str)
            .chain([self.outcome.code()])
        {
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

/// A finished game as `--resume` needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    pub number: usize,
    pub round: usize,
    pub black: String,
    pub white: String,
    pub outcome: Outcome,
    pub termination: Termination,
}

fn finished(tags: &HashMap<String, String>) -> Option<Finished> {
    Some(Finished {
        number: tags.get("Number")?.parse().ok()?,
        round: tags.get("Round")?.parse::<usize>().ok()?.checked_sub(1)?,
        black: tags.get("Black")?.clone(),
        white: tags.get("White")?.clone(),
        outcome: Outcome::from_code(tags.get("Result")?)?,
        termination: Termination::from_name(tags.get("Termination")?)?,
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
            game: "battleship".into(),
            number: 7,
            round: 3,
            black: "a".into(),
            white: "b \"quoted\"".into(),
            outcome: Outcome::WhiteWins,
            termination: Termination::IllegalMove,
            reason: "Black says \\ \"hi\"".into(),
            opening: "-".into(),
            moves: vec!["E5:miss".into(); 30],
            fleets: [Some("A1-A4 C1".into()), Some("B2".into())],
        };
        let text = record.to_pgn();
        assert!(text.contains("[Result \"0-1\"]\n"));
        assert!(text.contains("[BlackFleet \"A1-A4 C1\"]\n"));
        assert!(text.lines().all(|l| l.len() <= 80));
        assert!(text.ends_with("0-1\n\n"));
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
                outcome: Outcome::WhiteWins,
                termination: Termination::IllegalMove,
            }
        );
    }
}
