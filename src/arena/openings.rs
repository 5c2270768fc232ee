//! Openings: where each pair of games starts. Either random legal plies drawn from the
//! seed (the same opening for the same seed and round, whatever order games run in),
//! or the lines of a file, used in turn or in an order shuffled by the seed.
//! Battleship has no opening: its fleets are the engines' own.
//!
//! A file's line is a position in the game's notation, or a move sequence from the
//! start: an Othello transcript (`f5d6c3d3c4`, the XOT list's format; squares may be
//! separated by spaces, a forced pass is implied and may be written `pass`), or Shell
//! turns as `black/white` pick pairs separated by spaces (`e5/e6 d4/d4`). A move
//! sequence can be played in as moves to an engine without `set_position`.

use anyhow::{Context, Result, anyhow, bail};

use super::referee::Opening;
use crate::games::GameKind;
use crate::games::othello::{Move, Position as OthelloPosition, random_play};
use crate::games::shell::{Cell as ShellCell, Position as ShellPosition};
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
    /// The openings of a file, in turn.
    Listed(Vec<Opening>),
}

/// The order a file's openings are used in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// In file order, from the first line.
    Sequential,
    /// Shuffled by the seed.
    Random,
}

/// Tries to draw a non-finished opening this many times before the start position.
const ATTEMPTS: usize = 100;

/// Reads an Othello transcript: squares from the start, a forced pass implied.
fn othello_transcript(line: &str) -> Result<Opening> {
    let mut position = OthelloPosition::start();
    let mut moves = Vec::new();
    let text: String = line
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .collect();
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let (word, tail) = if rest.len() >= 4 && rest[..4].eq_ignore_ascii_case("pass") {
            rest.split_at(4)
        } else if rest.is_char_boundary(2) && rest.len() >= 2 {
            rest.split_at(2)
        } else {
            bail!("{rest:?} is no square");
        };
        rest = tail;
        let mv = Move::parse(word).ok_or_else(|| anyhow!("{word:?} is no square"))?;
        if mv != Move::Pass && position.legal_moves() == [Move::Pass] {
            position
                .play(position.side_to_move(), Move::Pass)
                .map_err(|e| anyhow!("move {}: {e}", moves.len() + 1))?;
            moves.push(Move::Pass);
        }
        position
            .play(position.side_to_move(), mv)
            .map_err(|e| anyhow!("move {} ({mv}): {e}", moves.len() + 1))?;
        moves.push(mv);
    }
    Ok(Opening::Othello {
        position,
        moves: Some(moves),
    })
}

/// Reads Shell turns: `black/white` pick pairs from the empty board.
fn shell_transcript(line: &str) -> Result<Opening> {
    let mut position = ShellPosition::new();
    let mut turns = Vec::new();
    for word in line.split_whitespace() {
        let (black, white) = word
            .split_once('/')
            .and_then(|(b, w)| Some((ShellCell::parse(b)?, ShellCell::parse(w)?)))
            .ok_or_else(|| anyhow!("{word:?} is not a BLACK/WHITE pick pair"))?;
        position
            .resolve_turn_quiet(black, white)
            .map_err(|e| anyhow!("turn {} ({word}): {e}", turns.len() + 1))?;
        turns.push((black, white));
    }
    Ok(Opening::Shell {
        position,
        turns: Some(turns),
    })
}

/// Reads one line of an openings file of `kind`: a position, else a move sequence.
fn parse_line(kind: GameKind, line: &str) -> Result<Opening> {
    match kind {
        GameKind::Othello => match OthelloPosition::from_notation(line) {
            Ok(position) => Ok(Opening::Othello {
                position,
                moves: None,
            }),
            Err(position_error) => othello_transcript(line).map_err(|e| {
                anyhow!("neither a position ({position_error}) nor a transcript ({e})")
            }),
        },
        GameKind::Shell => match ShellPosition::from_notation(line) {
            Ok(position) => Ok(Opening::Shell {
                position,
                turns: None,
            }),
            Err(position_error) => shell_transcript(line)
                .map_err(|e| anyhow!("neither a position ({position_error}) nor pick pairs ({e})")),
        },
        GameKind::Battleship => {
            bail!("battleship has no openings (fleets are placed by the engines)")
        }
    }
}

impl Openings {
    /// Reads a file of openings of `kind` (blank lines and `#` comments skipped),
    /// in file order or shuffled by `seed`.
    pub fn from_file(kind: GameKind, path: &str, order: Order, seed: u64) -> Result<Openings> {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
        let mut openings = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let opening =
                parse_line(kind, line).with_context(|| format!("{path}:{}", number + 1))?;
            openings.push(opening);
        }
        if openings.is_empty() {
            bail!("{path}: no opening");
        }
        if order == Order::Random {
            let mut rng = Rng::new(seed ^ 0x5EED_0F0F_09E1_1165);
            for i in (1..openings.len()).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                openings.swap(i, j);
            }
        }
        Ok(Openings::Listed(openings))
    }

    /// Whether some opening is a position given without the moves that reach it
    /// (an engine without `set_position` cannot take it).
    #[must_use]
    pub fn has_bare_positions(&self) -> bool {
        match self {
            Openings::Random { .. } => false,
            Openings::Listed(list) => list.iter().any(|o| !o.from_start() && o.moves().is_none()),
        }
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
                    GameKind::Othello => random_othello(*plies, &mut rng),
                    GameKind::Shell => random_shell(*plies, &mut rng),
                    GameKind::Battleship => Opening::Battleship,
                }
            }
        }
    }
}

fn random_othello(plies: u32, rng: &mut Rng) -> Opening {
    for _ in 0..ATTEMPTS {
        let (position, moves) = random_play(rng, |_, moves| moves.len() == plies as usize);
        if moves.len() == plies as usize && !position.is_over() {
            return Opening::Othello {
                position,
                moves: Some(moves),
            };
        }
    }
    Opening::Othello {
        position: OthelloPosition::start(),
        moves: Some(Vec::new()),
    }
}

fn random_shell(plies: u32, rng: &mut Rng) -> Opening {
    'attempt: for _ in 0..ATTEMPTS {
        let mut position = ShellPosition::new();
        let mut turns = Vec::new();
        for _ in 0..plies {
            let empty: Vec<_> = position.empty_cells().iter().collect();
            let (Some(&black), Some(&white)) = (rng.choose(&empty), rng.choose(&empty)) else {
                continue 'attempt;
            };
            if position.resolve_turn_quiet(black, white).is_err() {
                continue 'attempt;
            }
            turns.push((black, white));
        }
        if !position.status().is_over() {
            return Opening::Shell {
                position,
                turns: Some(turns),
            };
        }
    }
    Opening::Shell {
        position: ShellPosition::new(),
        turns: Some(Vec::new()),
    }
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
        let Opening::Othello { position, moves } = openings.get(0) else {
            panic!("an othello opening");
        };
        let (black, white) = position.counts();
        assert_eq!(black + white, 4 + 6, "six plies, no pass this early");
        assert_eq!(moves.map(|m| m.len()), Some(6), "the plies are kept");
        let shell = Openings::Random {
            kind: GameKind::Shell,
            plies: 3,
            seed: 1,
        };
        let Opening::Shell { position, turns } = shell.get(0) else {
            panic!("a shell opening");
        };
        assert!(
            position.empty_cells().len() <= 81 - 3,
            "three turns fill cells"
        );
        assert_eq!(turns.map(|t| t.len()), Some(3));
    }

    #[test]
    fn files_hold_positions_or_move_sequences_used_in_order_or_shuffled() {
        let dir = std::env::temp_dir().join(format!("tabula-openings-{}", std::process::id()));
        let path = dir.to_string_lossy().to_string();
        let start = OthelloPosition::start().to_notation();
        let text = format!("# XOT-style lines\nf5d6c3d3c4\nf5 f6\n\n{start}\nf5f4e3\n");
        assert!(std::fs::write(&path, text).is_ok());
        let read = |order| Openings::from_file(GameKind::Othello, &path, order, 9);
        let Ok(Openings::Listed(list)) = read(Order::Sequential) else {
            panic!("the file reads");
        };
        assert_eq!(list.len(), 4);
        let Opening::Othello { position, moves } = &list[0] else {
            panic!("othello");
        };
        assert_eq!(position.counts().0 + position.counts().1, 4 + 5);
        let names: Vec<String> = moves.iter().flatten().map(Move::to_string).collect();
        assert_eq!(names, ["f5", "d6", "c3", "d3", "c4"]);
        assert!(matches!(&list[2], Opening::Othello { moves: None, .. }));
        let Ok(Openings::Listed(shuffled)) = read(Order::Random) else {
            panic!("the file reads");
        };
        let mut a: Vec<String> = list.iter().map(Opening::notation).collect();
        let mut b: Vec<String> = shuffled.iter().map(Opening::notation).collect();
        assert_ne!(a, b, "seed 9 shuffles these four");
        a.sort();
        b.sort();
        assert_eq!(a, b, "the same openings");
        // An illegal move names the line and the move.
        assert!(std::fs::write(&path, "f5d6\nf5f5\n").is_ok());
        let error = read(Order::Sequential).err().map(|e| format!("{e:#}"));
        assert!(
            error
                .as_deref()
                .is_some_and(|e| e.contains(":2:") && e.contains("move 2")),
            "{error:?}"
        );
        let shell = "e5/e6 d4/d5\n";
        assert!(std::fs::write(&path, shell).is_ok());
        let read = Openings::from_file(GameKind::Shell, &path, Order::Sequential, 1);
        let _ = std::fs::remove_file(&path);
        let Ok(Openings::Listed(list)) = read else {
            panic!("shell turns read");
        };
        assert!(matches!(&list[0], Opening::Shell { turns: Some(t), .. } if t.len() == 2));
    }
}
