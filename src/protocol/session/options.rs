//! Engine options set with `set_option NAME VALUE`, each validated; a refused value
//! leaves every option as it was (the session sets a copy and keeps it on success).

use super::Refusal;

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
            endgame: 20,
        }
    }
}

/// The option names, for the specification and error messages.
pub const OPTION_NAMES: [&str; 6] = ["movetime", "depth", "threads", "hash", "seed", "endgame"];

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
