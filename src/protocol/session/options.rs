//! Engine options set with `set_option NAME VALUE`, each validated; a refused value
//! leaves every option as it was (the session sets a copy and keeps it on success).

use super::Refusal;
use crate::ai::baseline::Player;
use crate::ai::battleship::HunterKind;
use crate::ai::othello::eval::Evaluation;
use crate::ai::shell::Selection;

/// The options every game's players read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Milliseconds per move; 0 means no fixed move time.
    pub movetime_ms: u64,
    /// The deepest search iteration; `None` (auto): as deep as the time allows when
    /// a move time or a clock is set, else [`Options::UNTIMED_DEPTH`].
    pub depth: Option<u32>,
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
    /// What the Shell: cells per colour and node the search adds by a one-ply
    /// threat-builder's steep score.
    pub shell_builders: usize,
    /// What the Shell: facing the opponent's double four, the search lists only the
    /// answers (`shell_blocks strict`).
    pub shell_strict_blocks: bool,
    /// What the Shell: the power the search's root shares are raised to in quiet
    /// positions before the pick is drawn.
    pub shell_sharpen: u32,
    /// What the Shell: the share (per cent) below which a cell of the search's final
    /// strategy is dropped before the pick is drawn (and below half the largest).
    pub shell_threshold: u32,
    /// What the Shell: the same cut (per cent) on an open board (more than 20 empty
    /// cells) where it is the larger; 0 leaves open boards to `shell_threshold`.
    pub shell_open_threshold: u32,
    /// What the Shell: with the opponent model on, the open board's cut only on the
    /// turns the model predicts the opponent (`shell_open_cut predicted`, the
    /// default), the other turns at `shell_threshold`; `always` cuts every open board.
    pub shell_open_cut_predicted: bool,
    /// What the Shell: the threat-space search's advice at the search's root
    /// (`shell_threats on`).
    pub shell_threats: bool,
    /// What the Shell: how the search values a new leaf (`shell_eval playout`,
    /// `learned` or `mixed`).
    pub shell_eval: crate::ai::shell::Eval,
    /// What the Shell: the search models its opponent from the picks it made at this
    /// table (`shell_model on`, [`crate::ai::shell::model`]).
    pub shell_model: bool,
    /// What the Shell: at this many empty cells or fewer the search solves the game
    /// cut a few turns ahead exactly and plays its equilibrium (`shell_endgame`; 0
    /// never).
    pub shell_endgame: u32,
    /// Othello: at this many empties or fewer the player solves exactly.
    pub endgame: u32,
    /// Othello: the midgame evaluation.
    pub evaluation: Evaluation,
    /// Othello: squares as GoGui numbers them (row 1 at the bottom) in every move
    /// read and written, so GoGui draws the board the right way up.
    pub gogui_rows: bool,
    /// Othello: `genmove` picks at random (seeded) among the moves within this many
    /// hundredths of a disc of the best; 0 plays the best.
    pub randomness_centi: u32,
    /// Battleship: which hunter answers `genmove` (for the `default` player).
    pub hunter: HunterKind,
    /// Battleship: whether the hunter's belief leans towards the placement style the
    /// opponent's earlier fleets at the table showed (`placement_prior adaptive`).
    pub adaptive_prior: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            movetime_ms: 0,
            depth: None,
            threads: 1,
            hash_mib: 16,
            seed: 0,
            player: Player::Search,
            iterations: 0,
            shell_selection: Selection::RegretMatching,
            shell_builders: ai_default_builders(),
            shell_strict_blocks: crate::ai::shell::Settings::default().strict_blocks,
            shell_sharpen: crate::ai::shell::Settings::default().sharpen,
            shell_threshold: (crate::ai::shell::Settings::default().threshold * 100.0).round()
                as u32,
            shell_open_threshold: (crate::ai::shell::Settings::default().open_threshold * 100.0)
                .round() as u32,
            // The search's own default cuts every open board (it knows of no model);
            // beside the model, only the predicted turns (docs/shell-player.md).
            shell_open_cut_predicted: true,
            shell_threats: crate::ai::shell::Settings::default().threat_search,
            shell_eval: crate::ai::shell::Settings::default().eval,
            shell_model: true,
            shell_endgame: crate::ai::shell::Settings::default().endgame_empty,
            endgame: 20,
            evaluation: Evaluation::Pattern,
            gogui_rows: false,
            randomness_centi: 0,
            hunter: HunterKind::Greedy,
            adaptive_prior: false,
        }
    }
}

/// The search's default `shell_builders`.
fn ai_default_builders() -> usize {
    crate::ai::shell::Settings::default().builder_cells
}

/// The option names, for the specification and error messages.
pub const OPTION_NAMES: [&str; 24] = [
    "movetime",
    "depth",
    "threads",
    "hash",
    "seed",
    "iterations",
    "shell_selection",
    "shell_builders",
    "shell_blocks",
    "shell_sharpen",
    "shell_threshold",
    "shell_open_threshold",
    "shell_open_cut",
    "shell_threats",
    "shell_eval",
    "shell_model",
    "shell_endgame",
    "player",
    "endgame",
    "eval",
    "coordinates",
    "randomness",
    "hunter",
    "placement_prior",
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

/// A two-valued option: `off` (false) or `on` (true), any case.
fn switch(name: &str, value: &str, off: &str, on: &str) -> Result<bool, Refusal> {
    match value.to_ascii_lowercase() {
        v if v == off => Ok(false),
        v if v == on => Ok(true),
        _ => Err(format!("invalid value for {name}: expected {off} or {on}")),
    }
}

impl Options {
    /// The depth of a search with neither a move time nor a clock, when `depth` is
    /// auto.
    pub const UNTIMED_DEPTH: u32 = 6;

    /// The deepest iteration of a search, given whether it has a time budget.
    #[must_use]
    pub fn depth_limit(&self, timed: bool) -> u32 {
        match self.depth {
            Some(depth) => depth,
            None if timed => 64,
            None => Self::UNTIMED_DEPTH,
        }
    }

    /// Sets option `name` (lowercase) to `value`.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), Refusal> {
        match name {
            "movetime" => self.movetime_ms = number(name, value, 0, 86_400_000)?,
            "depth" => {
                self.depth = if value.eq_ignore_ascii_case("auto") {
                    None
                } else {
                    Some(number(name, value, 1, 64).map_err(|e| format!("{e}, or auto"))?)
                };
            }
            "threads" => self.threads = number(name, value, 1, 256)?,
            "hash" => self.hash_mib = number(name, value, 1, 65_536)?,
            "seed" => self.seed = number(name, value, 0, u64::MAX)?,
            "player" => {
                self.player = Player::from_name(value).ok_or_else(|| {
                    "invalid value for player: expected default, random, greedy, simple, windows, windows1 to windows7 or tactician"
                        .to_string()
                })?;
            }
            "iterations" => self.iterations = number(name, value, 0, 1_000_000_000)?,
            "shell_selection" => {
                self.shell_selection = Selection::from_name(value)
                    .ok_or_else(|| format!("invalid value for {name}: expected rm or uct"))?;
            }
            "shell_builders" => self.shell_builders = number(name, value, 0, 8)?,
            "shell_sharpen" => self.shell_sharpen = number(name, value, 1, 8)?,
            "shell_threshold" => self.shell_threshold = number(name, value, 1, 50)?,
            "shell_open_threshold" => self.shell_open_threshold = number(name, value, 0, 50)?,
            "shell_open_cut" => {
                self.shell_open_cut_predicted = switch(name, value, "always", "predicted")?;
            }
            "shell_blocks" => self.shell_strict_blocks = switch(name, value, "open", "strict")?,
            "shell_threats" => self.shell_threats = switch(name, value, "off", "on")?,
            "shell_model" => self.shell_model = switch(name, value, "off", "on")?,
            "shell_eval" => {
                self.shell_eval = crate::ai::shell::Eval::from_name(value).ok_or_else(|| {
                    format!("invalid value for {name}: expected playout, learned or mixed")
                })?;
            }
            "shell_endgame" => self.shell_endgame = number(name, value, 0, 30)?,
            "endgame" => self.endgame = number(name, value, 0, 60)?,
            "eval" => {
                self.evaluation = Evaluation::from_name(value)
                    .ok_or_else(|| format!("invalid value for {name}: expected hand or pattern"))?;
            }
            "randomness" => {
                self.randomness_centi = match value.parse::<f64>() {
                    Ok(discs) if (0.0..=64.0).contains(&discs) => (discs * 100.0).round() as u32,
                    _ => {
                        return Err(format!(
                            "invalid value for {name}: expected discs from 0 to 64"
                        ));
                    }
                };
            }
            "hunter" => {
                self.hunter = HunterKind::from_name(value).ok_or_else(|| {
                    format!("invalid value for {name}: expected greedy, rollout, learned or quick")
                })?;
            }
            "placement_prior" => self.adaptive_prior = switch(name, value, "uniform", "adaptive")?,
            "coordinates" => self.gogui_rows = switch(name, value, "standard", "gogui")?,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_is_time_bound_when_auto_and_fixed_when_set() {
        let mut options = Options::default();
        assert_eq!(options.depth_limit(true), 64);
        assert_eq!(options.depth_limit(false), Options::UNTIMED_DEPTH);
        options.set("depth", "9").expect("valid");
        assert_eq!(
            (options.depth_limit(true), options.depth_limit(false)),
            (9, 9)
        );
        let refused = options.set("depth", "0").expect_err("out of range");
        assert!(refused.ends_with("or auto"), "{refused}");
        assert_eq!(options.depth, Some(9));
        options.set("depth", "AUTO").expect("valid");
        assert_eq!(options, Options::default());
    }

    #[test]
    fn the_shell_endgame_takes_a_cell_count_up_to_30() {
        let mut options = Options::default();
        assert_eq!(options.shell_endgame, 14);
        options.set("shell_endgame", "0").expect("valid");
        assert_eq!(options.shell_endgame, 0);
        let refused = options
            .set("shell_endgame", "31")
            .expect_err("out of range");
        assert!(refused.contains("from 0 to 30"), "{refused}");
        assert_eq!(options.shell_endgame, 0);
        options.set("shell_endgame", "30").expect("valid");
        assert_eq!(options.shell_endgame, 30);
    }
}
