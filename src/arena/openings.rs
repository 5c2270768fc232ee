//! Openings: where each pair of games starts. Either random legal plies drawn from the
//! seed (the same opening for the same seed and round, whatever order games run in),
//! or the positions of a file, one a line in the game's notation, used in turn.
//! Battleship has no opening: its fleets are the engines' own.

use anyhow::{Context, Result, bail};

use super::referee::Opening;
use crate::games::GameKind;
use crate::games::othello::Position as OthelloPosition;
use crate::games::shell::Position as ShellPosition;
use crate::rng::Rng;

/// Where openings come from.
#[derive(Clone, Debug)]
pub enum Openings {
    /// `plies` random legal plies from `seed` (0 plies: the start position).
    Random {
        kind: GameKind,
        plies: u32,
        seed: u64,
    },
    /// The positions of a file, in turn.
    Listed(Vec<Opening>),
}

/// Tries to draw a non-finished opening this many times before the start position.
const ATTEMPTS: usize = 100;

impl Openings {
    /// Reads a file of positions of `kind` (blank lines and `#` comments skipped).
    pub fn from_file(kind: GameKind, path: &str) -> Result<Openings> {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
        let mut openings = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let opening = match kind {
                GameKind::Othello => OthelloPosition::from_notation(line)
                    .map(Opening::Othello)
                    .map_err(|e| e.to_string()),
                GameKind::Shell => ShellPosition::from_notation(line)
                    .map(Opening::Shell)
                    .map_err(|e| e.to_string()),
                GameKind::Battleship => {
                    bail!("battleship has no openings (fleets are placed by the engines)")
                }
            };
            match opening {
                Ok(opening) => openings.push(opening),
                Err(e) => bail!("{path}:{}: {e}", number + 1),
            }
        }
        if openings.is_empty() {
            bail!("{path}: no position");
        }
        Ok(Openings::Listed(openings))
    }

    /// The opening of game pair `round` (from 0).
    #[must_use]
    pub fn get(&self, round: usize) -> Opening {
        match self {
            Openings::Listed(list) => list
                .get(round % list.len().max(1))
                .cloned()
                .unwrap_or(Opening::Battleship),
            Openings::Random { kind, plies, seed } => {
                let mut rng =
                    Rng::new(seed ^ (round as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                match kind {
                    GameKind::Othello => Opening::Othello(random_othello(*plies, &mut rng)),
                    GameKind::Shell => Opening::Shell(random_shell(*plies, &mut rng)),
                    GameKind::Battleship => Opening::Battleship,
                }
            }
        }
    }
}

fn random_othello(plies: u32, rng: &mut Rng) -> OthelloPosition {
    'attempt: for _ in 0..ATTEMPTS {
        let mut position = OthelloPosition::start();
        for _ in 0..plies {
            let moves = position.legal_moves();
            let Some(&mv) = rng.choose(&moves) else {
                continue 'attempt;
            };
            if position.play(position.side_to_move(), mv).is_err() {
                continue 'attempt;
            }
        }
        if !position.is_over() {
            return position;
        }
    }
    OthelloPosition::start()
}

fn random_shell(plies: u32, rng: &mut Rng) -> ShellPosition {
    'attempt: for _ in 0..ATTEMPTS {
        let mut position = ShellPosition::new();
        for _ in 0..plies {
            let empty: Vec<_> = position.empty_cells().iter().collect();
            let (Some(&black), Some(&white)) = (rng.choose(&empty), rng.choose(&empty)) else {
                continue 'attempt;
            };
            if position.resolve_turn_quiet(black, white).is_err() {
                continue 'attempt;
            }
        }
        if !position.status().is_over() {
            return position;
        }
    }
    ShellPosition::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_reproducible_and_have_the_plies() {
        let openings = Openings::Random {
            kind: GameKind::Othello,
            plies: 6,
            seed: 42,
        };
        assert_eq!(openings.get(3), openings.get(3));
        assert_ne!(openings.get(3), openings.get(4));
        let Opening::Othello(position) = openings.get(0) else {
            panic!("an othello opening");
        };
        let (black, white) = position.counts();
        assert_eq!(black + white, 4 + 6, "six plies, no pass this early");
        let shell = Openings::Random {
            kind: GameKind::Shell,
            plies: 3,
            seed: 1,
        };
        let Opening::Shell(position) = shell.get(0) else {
            panic!("a shell opening");
        };
        assert!(
            position.empty_cells().len() <= 81 - 3,
            "three turns fill cells"
        );
    }
}
