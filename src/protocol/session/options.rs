//! Engine options set with `set_option NAME VALUE`, each validated; a refused value
//! leaves every option as it was (the session sets a copy and keeps it on success).

use super::Refusal;
use crate::ai::baseline::Player;
use crate::ai::shell::Selection;

/// The options every game's players read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Milliseconds per move; 0 means no fixed move time.
    pub movetime_ms: u64,
    /// The deepest search iteration.
    pub depth: u32,
    /// Search threads.
    pub threads: u32,
    /// Transposition table size in MiB.
    pub hash_mib: u32,
    /// Seed of every random choice.
    pub seed: u64,
    /// Who answers `genmove`: the engine's own player or a baseline.
    pub player: Player,
    /// Search iterations per move (What the Shell); 0 means automatic.
    pub iterations: u64,
    /// How What the Shell's search chooses in a node.
    pub shell_selection: Selection,
    /// Othello: at this many empties or fewer the player solves exactly.
    pub endgame: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            movetime_ms: 0,
            depth: 6,
            threads: 1,
            hash_mib: 16,
            seed: 0,
            player: Player::Default,
            iterations: 0,
            shell_selection: Selection::RegretMatching,
            endgame: 20,
        }
    }
}

/// The option names, for the specification and error messages.
pub const OPTION_NAMES: [&str; 9] = [
    "movetime",
    "depth",
    "threads",
    "hash",
    "seed",
    "iterations",
    "shell_selection",
    "player",
    "endgame",
];

fn number<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    name: &str,
    value: &str,
    min: T,
    max: T,
) -> Result<T, Refusal> {
    match value.parse::<T>() {
        Ok(n) if n >= min && n <= max => Ok(n),
        _ => Err(format!(
            "invalid value for {name}: expected an integer from {min} to {max}"
        )),
    }
}

impl Options {
    /// Sets option `name` (lowercase) to `value`.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), Refusal> {
        match name {
            "movetime" => self.movetime_ms = number(name, value, 0, 86_400_000)?,
            "depth" => self.depth = number(name, value, 1, 64)?,
            "threads" => self.threads = number(name, value, 1, 256)?,
            "hash" => self.hash_mib = number(name, value, 1, 65_536)?,
            "seed" => self.seed = number(name, value, 0, u64::MAX)?,
            "player" => {
                self.player = Player::from_name(value).ok_or_else(|| {
                    "invalid value for player: expected default, random, greedy or simple"
                        .to_string()
                })?;
            }
            "iterations" => self.iterations = number(name, value, 0, 1_000_000_000)?,
            "shell_selection" => {
                self.shell_selection = Selection::from_name(value)
                    .ok_or_else(|| format!("invalid value for {name}: expected rm or uct"))?;
            }
            "endgame" => self.endgame = number(name, value, 0, 60)?,
            _ => {
                return Err(format!(
                    "unknown option (options: {})",
                    OPTION_NAMES.join(", ")
                ));
            }
        }
        Ok(())
    }
}
