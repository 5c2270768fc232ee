//! Simultaneous-move Monte Carlo tree search with decoupled selection (Lisý, Kovařík,
//! Lanctot, Bošanský 2013; Lanctot, Lisý, Winands 2013).
//!
//! Each node holds a position and, once it is selected from, each colour's candidate
//! cells ([`super::candidates`]) with per-cell statistics. Both colours choose
//! independently ("decoupled"):
//! - regret matching (default): σ = (1 − γ)·RM(regrets) + γ·uniform; after the
//!   playout, every cell's regret moves by x̂ − u, where u is the colour's value and
//!   x̂ = u / σ(a) for the sampled cell `a`, 0 for the others (the sampled estimate of
//!   what each cell would have earned); the average of the unmixed RM strategies is
//!   the answer;
//! - decoupled UCT: each colour takes the best mean + c·√(ln N / n) of its own cells;
//!   the visit counts are the answer.
//!
//! The joint choice (black's cell, white's cell) leads to a child created on its first
//! visit and kept in one arena (`Vec<Node>`), found through a map from (node, black
//! index, white index); a leaf is valued by a guided playout ([`super::playout`]).
//! When the arena is full the search keeps running, valuing new joint choices by
//! playouts without storing them.
//!
//! With [`Settings::threat_games`], where a colour has two or more winning cells,
//! the node's turn is a threat game ([`ThreatGame`]) solved as the node is visited:
//! both colours sample from its equilibrium. At a root without one, when a colour can win at once, the matrix game of the cells both
//! colours still play (root shares of 2 % or more; a pair tried fewer than 12 times
//! drops the rarer of its two cells) is solved on the pairs' mean values when it is
//! small ([`super::matrix`]), and the move is drawn from its equilibrium instead. The played
//! cell is always *sampled* from the final mixed strategy with the caller's random
//! generator (cells below a small share are dropped first), so the player mixes and is
//! reproducible for a seed when the search is bounded by iterations.
//!
//! Values are black's (+1 win, −1 loss, 0 draw); white's are their negation.

use std::thread;
use std::time::Instant;

use super::candidates::{
    ListOptions, Tactics, candidates_both, candidates_with, capture_cells, five_holes,
};
use super::endgame::Endgame;
use super::matrix;
use super::model::Prediction;
use super::playout;
use super::threats;
use crate::ai::Limits;
use crate::ai::key_hash::KeyMap;
use crate::games::Color;
use crate::games::shell::cell::BOARD;
use crate::games::shell::{Cell, Position};
use crate::rng::Rng;

/// How a colour chooses among its cells in a node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Selection {
    /// Regret matching with γ-exploration; the answer is the average strategy.
    #[default]
    RegretMatching,
    /// Decoupled UCT; the answer follows the visit counts.
    Uct,
}

impl Selection {
    /// The option value naming it: `rm` or `uct`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Selection::RegretMatching => "rm",
            Selection::Uct => "uct",
        }
    }

    /// Reads `rm` or `uct`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Selection> {
        match name {
            "rm" => Some(Selection::RegretMatching),
            "uct" => Some(Selection::Uct),
            _ => None,
        }
    }
}

/// What the search may use, besides the [`Limits`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// How a colour chooses in a node.
    pub selection: Selection,
    /// The most iterations in all (shared out among the threads); 0 for no cap.
    pub iterations: u64,
    /// Independent root-parallel trees, merged at the end.
    pub threads: u32,
    /// The most nodes kept, in all trees together.
    pub max_nodes: usize,
    /// γ, the share of uniform exploration in regret matching.
    pub exploration: f64,
    /// c, the exploration constant of UCT (values in −1..1).
    pub uct_c: f64,
    /// Candidate cells per colour at the root, beyond the tactical ones. Narrow: at
    /// the iterations a move gets on a loaded machine (one or two thousand), a wide
    /// root mixes over cells the search never had time to tell apart, which a
    /// threat-builder punishes (measured in docs/shell-player.md).
    pub root_width: usize,
    /// Candidate cells per colour in other nodes, beyond the tactical ones.
    pub width: usize,
    /// Solve the turn of a node where a colour has two or more winning cells as a
    /// threat game ([`ThreatGame`]). Off by default: in a refereed match at 100 ms a
    /// move the player with them scored 18 – 38 – 4 against the player without
    /// (docs/shell-player.md), though they mix pure guessing turns exactly.
    pub threat_games: bool,
    /// Cells per colour and node added to the quiet ones by a one-ply threat-builder's
    /// steep score ([`super::candidates::candidates_with`]), when not listed already.
    pub builder_cells: usize,
    /// Facing the opponent's double four with none of its own, a colour lists only
    /// the answers ([`super::candidates::candidates_with`]'s `strict`).
    pub strict_blocks: bool,
    /// Where a colour holds a lone winning cell and the other none, both list the
    /// holder's double-four cells too ([`super::candidates::candidates_with`]'s
    /// `answers`): the holder may make a second threat instead of the guess, and the
    /// other may take that cell first.
    pub threat_answers: bool,
    /// At the root, each colour's first pick of a forcing line
    /// ([`super::tactician::forcing_line`], threats answered by forced blocks ending
    /// in a double threat) joins both colours' candidates: the attacker's start, and
    /// the cell the defender takes first to break it.
    pub root_forcing: bool,
    /// At the root, the simultaneous threat-space search's advice
    /// ([`super::threats::advise`]): a forcing line is played, a threat no cell
    /// breaks is answered by the threat game's exact mix, and facing threats that
    /// some cells break the strategy keeps to those cells.
    pub threat_search: bool,
    /// Shares of the final strategy below this (and below half the largest) are
    /// dropped before the pick is drawn.
    pub threshold: f64,
    /// The cut on an open board (more than [`OPEN_EMPTY`] empty cells) when it is
    /// larger than [`Settings::threshold`]. At the iterations a move gets there the
    /// small shares are mostly regret matching not yet settled, and a deterministic
    /// opponent punishes the poor cells they draw; on smaller boards the tree reaches
    /// the end and its mix is the equilibrium's (docs/shell-player.md).
    pub open_threshold: f64,
    /// Where no colour can win at once, the root's shares are raised to this power
    /// before the pick is drawn (1: the search's mix as it is).
    pub sharpen: u32,
    /// The regret a colour's threat cells start with in a new node (its winning
    /// cells, the opponent's, and both colours' double-four cells), so that regret
    /// matching tries them first; 0 for none. At 1,000 iterations, 30 scored 3.9
    /// points more than none against windows, windows4, windows5 and the tactician
    /// over 960 games (docs/shell-player.md).
    pub threat_prior: f64,
    /// The policy of the leaves' guided playouts.
    pub playout: playout::Policy,
    /// How a new leaf is valued: a guided playout (the default), the learned value
    /// ([`super::value`]), or the mean of both.
    pub eval: Eval,
    /// What a draw (S9: a full board, or a playout's last turn) costs the searching
    /// colour in its tree's values (−1..1): a draw counts −`contempt` to it and
    /// +`contempt` to the opponent; 0 for a draw worth nothing to either.
    pub contempt: f64,
    /// Boards with more empty cells than this are open for
    /// [`Settings::open_threshold`].
    pub open_empty: u32,
    /// The opponent's likely pick at the root, from the opponent model
    /// ([`super::model`]): the root's opponent plays it with the prediction's
    /// probability (and its own regret-matched strategy otherwise), so the searching
    /// colour's average strategy there learns the answer to that mix.
    pub prediction: Option<Prediction>,
    /// The open board's cut ([`Settings::open_threshold`]) is kept for the turns an
    /// opponent model predicts the opponent, and the other turns are played at
    /// [`Settings::threshold`] (off by default; `bench shell --open-cut-predicted`).
    /// The cut pays against deterministic players, which the model names; against a
    /// player it cannot name, an almost pure pick on the open board is what a
    /// look-ahead exploiter punishes (docs/shell-player.md).
    pub modelled: bool,
    /// Boards with at most this many empty cells are solved exactly at the root
    /// first ([`super::endgame`]), one turn deeper at a time within a share of the
    /// move: a root that is a simultaneous game within [`ENDGAME_MIN_TURNS`] turns or
    /// more is played at the deepest solve's equilibrium; otherwise the tree search
    /// plays among the picks that hold the solved value. 0: never.
    pub endgame_empty: u32,
}

/// The shallowest solved cut whose simultaneous root the endgame plays as solved: a
/// shallower equilibrium sees too little past the next turn (its mix measured more
/// exploitable than the tree search's, docs/shell-player.md).
pub const ENDGAME_MIN_TURNS: u32 = 3;
/// Solver nodes per search iteration when the move is bounded by iterations, not by
/// a clock: the endgame's first share (the tree search has the iterations).
const ENDGAME_NODES: u64 = 2;
/// Of a clocked move, the share the endgame's deepening may take before it decides
/// whether the tree search plays (with the rest of the move).
const ENDGAME_SHARE: f64 = 0.7;

/// The probability the opponent's root choice `chosen` had when the predicted cell
/// `predicted` replaces its regret-matched draw (`drawn`, of probability `p`) with
/// probability `q`: (1 − q)·p for another cell, q + (1 − q)·p for the predicted cell
/// drawn on its own, and at least q when the prediction replaced another cell (the
/// predicted cell's own regret-matched share is not known then).
fn predicted_probability(chosen: u8, drawn: u8, p: f64, predicted: u8, q: f64) -> f64 {
    if chosen != predicted {
        (1.0 - q) * p
    } else if drawn == predicted {
        q + (1.0 - q) * p
    } else {
        q
    }
    .max(f64::MIN_POSITIVE)
}

/// How the search values a new leaf.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Eval {
    /// A guided playout ([`playout::guided_with`]).
    #[default]
    Playout,
    /// The learned value of the position ([`super::value::value`]).
    Learned,
    /// The mean of a guided playout's value and the learned value.
    Mixed,
}

impl Eval {
    /// The names, in order.
    pub const NAMES: [&'static str; 3] = ["playout", "learned", "mixed"];

    /// The evaluation named `playout`, `learned` or `mixed`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Eval> {
        match name {
            "playout" => Some(Eval::Playout),
            "learned" => Some(Eval::Learned),
            "mixed" => Some(Eval::Mixed),
            _ => None,
        }
    }

    /// The name of the evaluation.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Eval::Playout => "playout",
            Eval::Learned => "learned",
            Eval::Mixed => "mixed",
        }
    }
}

impl Settings {
    /// The candidate lists' options these settings ask for.
    fn list_options(&self) -> ListOptions {
        ListOptions {
            builders: self.builder_cells,
            strict: self.strict_blocks,
            answers: self.threat_answers,
        }
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            selection: Selection::RegretMatching,
            iterations: 20_000,
            threads: 1,
            max_nodes: 1 << 16,
            exploration: 0.1,
            uct_c: 1.0,
            root_width: 4,
            width: 3,
            threat_games: false,
            builder_cells: 0,
            strict_blocks: false,
            threat_answers: false,
            root_forcing: false,
            threat_search: false,
            threshold: THRESHOLD,
            open_threshold: OPEN_THRESHOLD,
            sharpen: 1,
            threat_prior: 30.0,
            playout: playout::Policy::Fours,
            eval: Eval::Playout,
            contempt: 0.0,
            open_empty: OPEN_EMPTY,
            prediction: None,
            modelled: false,
            endgame_empty: ENDGAME_EMPTY,
        }
    }
}

/// Roughly the bytes one node takes, with its statistics (for sizing from MiB).
pub const NODE_BYTES: usize = 640;

/// The answer of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The cell picked.
    pub cell: Cell,
    /// The mixed strategy it was drawn from (cells with their probabilities).
    pub strategy: Vec<(Cell, f64)>,
    /// Iterations run, all threads together.
    pub iterations: u64,
    /// Nodes stored, all trees together.
    pub nodes: usize,
    /// True when the root matrix game was solved to give the strategy.
    pub solved_root: bool,
}

/// Statistics of one candidate cell of one colour in one node.
#[derive(Clone, Copy, Debug)]
struct Stat {
    cell: Cell,
    regret: f64,
    strategy: f64,
    visits: u32,
    value: f64,
}

/// One node: a position reached by a joint choice, with that choice's statistics.
#[derive(Clone, Copy, Debug)]
struct Node {
    position: Position,
    /// Visits and black's value sum of the joint choice leading here.
    visits: u32,
    value: f64,
    /// Candidates: black's at `stats[first..first + len[0]]`, white's right after.
    first: u32,
    len: [u8; 2],
    expanded: bool,
    /// Times the colours have chosen here (the weight of the next average update).
    selections: u32,
    /// Index of the node's threat game in [`Tree::games`], or [`NO_GAME`].
    game: u32,
}

/// No threat game at a node.
const NO_GAME: u32 = u32::MAX;

impl Node {
    /// An unvisited node of `position`, its candidates not yet listed.
    fn fresh(position: Position) -> Node {
        Node {
            position,
            visits: 0,
            value: 0.0,
            first: 0,
            len: [0, 0],
            expanded: false,
            selections: 0,
            game: NO_GAME,
        }
    }
}

/// One step of an iteration's path.
#[derive(Clone, Copy, Debug)]
struct Visit {
    node: u32,
    choice: [u8; 2],
    prob: [f64; 2],
    child: Option<u32>,
}

type ChildMap = KeyMap<u32>;

/// One search tree.
struct Tree {
    settings: Settings,
    max_nodes: usize,
    nodes: Vec<Node>,
    stats: Vec<Stat>,
    children: ChildMap,
    path: Vec<Visit>,
    /// The threat games of the sharp nodes ([`ThreatGame`]).
    games: Vec<ThreatGame>,
    rng: Rng,
    /// Black's value of a draw ([`Settings::contempt`] in the searching colour's view).
    draw: f64,
    /// The predicted root pick: the opponent's side, the cell's index in its root
    /// list and the probability it is played ([`Settings::prediction`]).
    predicted: Option<(usize, u8, f64)>,
}

fn key(node: u32, choice: [u8; 2]) -> u64 {
    (u64::from(node) << 16) | (u64::from(choice[0]) << 8) | u64::from(choice[1])
}

/// The storage of one tree, kept from search to search (see [`Memory`]).
#[derive(Default)]
struct Buffers {
    nodes: Vec<Node>,
    stats: Vec<Stat>,
    children: ChildMap,
    path: Vec<Visit>,
}

/// The trees' storage kept from move to move: emptied, never freed, by each new
/// search, so that a move grows into memory it already has instead of allocating
/// and copying as the tree grows, and frees nothing before it answers.
///
/// It also keeps the endgame solver's tables ([`super::endgame`]).
#[derive(Default)]
pub struct Memory {
    buffers: Vec<Buffers>,
    endgame: Endgame,
}

impl Memory {
    /// Storage for `threads` trees of `max_nodes` nodes in all, reserved now.
    #[must_use]
    pub fn new(threads: u32, max_nodes: usize) -> Memory {
        let threads = threads.max(1) as usize;
        let per_tree = (max_nodes / threads).max(1);
        let buffers = (0..threads)
            .map(|_| Buffers {
                nodes: Vec::with_capacity(per_tree),
                stats: Vec::with_capacity(per_tree),
                children: ChildMap::with_capacity_and_hasher(per_tree, Default::default()),
                path: Vec::with_capacity(128),
            })
            .collect();
        Memory {
            buffers,
            endgame: Endgame::default(),
        }
    }

    fn take(&mut self) -> Buffers {
        let mut buffers = self.buffers.pop().unwrap_or_default();
        buffers.nodes.clear();
        buffers.stats.clear();
        buffers.children.clear();
        buffers.path.clear();
        buffers
    }
}

impl Tree {
    fn new(
        root: Position,
        settings: Settings,
        max_nodes: usize,
        rng: Rng,
        buffers: Buffers,
        extra: u128,
    ) -> Tree {
        let mut tree = Tree {
            settings,
            max_nodes: max_nodes.max(1),
            nodes: buffers.nodes,
            stats: buffers.stats,
            children: buffers.children,
            path: buffers.path,
            games: Vec::new(),
            rng,
            draw: 0.0,
            predicted: None,
        };
        tree.nodes.push(Node::fresh(root));
        tree.expand_with(0, settings.root_width, extra);
        tree
    }

    /// Gives node `index` its candidates (both colours) and fresh statistics.
    fn expand(&mut self, index: usize, width: usize) {
        self.expand_with(index, width, 0);
    }

    /// [`Tree::expand`], with the empty cells of `extra` added to both colours' lists
    /// (as threat cells) where missing.
    fn expand_with(&mut self, index: usize, width: usize, extra: u128) {
        let Some(node) = self.nodes.get(index) else {
            return;
        };
        let position = node.position;
        let tactics = Tactics::of(&position);
        let first = self.stats.len() as u32;
        let mut len = [0u8; 2];
        let mut lists = candidates_both(&position, &tactics, width, self.settings.list_options());
        let extra = extra & BOARD & !position.occupied();
        for list in &mut lists {
            for cell in crate::games::shell::CellSet::from_bits(extra) {
                if !list.contains(&cell) {
                    list.push(cell);
                }
            }
        }
        let threats =
            tactics.wins[0] | tactics.wins[1] | tactics.doubles[0] | tactics.doubles[1] | extra;
        for (color, list) in Color::ALL.into_iter().zip(lists) {
            len[color.index()] = list.len().min(usize::from(u8::MAX)) as u8;
            for cell in list.into_iter().take(usize::from(u8::MAX)) {
                let prior = if threats & cell.bit() != 0 {
                    self.settings.threat_prior
                } else {
                    0.0
                };
                self.stats.push(Stat {
                    cell,
                    regret: prior,
                    strategy: 0.0,
                    visits: 0,
                    value: 0.0,
                });
            }
        }
        let pairs = usize::from(len[0]) * usize::from(len[1]);
        // Only a colour with two or more winning cells makes the turn a guessing
        // game; a lone winning cell is left to the regret matching.
        let guessing =
            self.settings.threat_games && tactics.wins.iter().any(|w| w.count_ones() >= 2);
        let game = if guessing && pairs > 1 && pairs <= GAME_PAIRS {
            let cells = |side: usize| {
                let start = first as usize + if side == 1 { usize::from(len[0]) } else { 0 };
                self.stats
                    .get(start..start + usize::from(len[side]))
                    .unwrap_or(&[])
                    .iter()
                    .map(|s| s.cell)
                    .collect::<Vec<Cell>>()
            };
            self.games
                .push(ThreatGame::new(&position, &cells(0), &cells(1)));
            (self.games.len() - 1) as u32
        } else {
            NO_GAME
        };
        if let Some(node) = self.nodes.get_mut(index) {
            node.first = first;
            node.len = len;
            node.expanded = true;
            node.game = game;
        }
    }

    /// The current matrix of node `index`'s threat game: exact values where the turn
    /// ends the game, else the pair's mean value so far blended with its prior.
    fn game_matrix(&self, index: usize) -> Option<(&ThreatGame, Vec<f64>)> {
        let node = self.nodes.get(index)?;
        let game = self.games.get(node.game as usize)?;
        let mut matrix = Vec::with_capacity(game.rows * game.cols);
        for a in 0..game.rows {
            for b in 0..game.cols {
                let i = a * game.cols + b;
                let exact = game.exact.get(i).copied().unwrap_or(f64::NAN);
                if exact.is_finite() {
                    matrix.push(exact);
                    continue;
                }
                let (prior, weight) = game.prior.get(i).copied().unwrap_or((0.0, 1.0));
                let child = self
                    .children
                    .get(&key(index as u32, [a as u8, b as u8]))
                    .and_then(|&c| self.nodes.get(c as usize));
                // A child that is itself a threat game passes up its solved value.
                if let Some(value) = child
                    .and_then(|c| self.games.get(c.game as usize))
                    .and_then(|g| g.value)
                {
                    matrix.push(value);
                    continue;
                }
                let (visits, sum) = child.map_or((0, 0.0), |n| (n.visits, n.value));
                matrix.push((prior * weight + sum) / (weight + f64::from(visits)));
            }
        }
        Some((game, matrix))
    }

    /// Solves node `index`'s threat game afresh and keeps the mixes.
    fn solve_game(&mut self, index: usize, iterations: u32) {
        let Some((game, matrix)) = self.game_matrix(index) else {
            return;
        };
        let solution = matrix::solve(&matrix, game.rows, game.cols, iterations);
        let Some(game) = self
            .nodes
            .get(index)
            .and_then(|n| self.games.get_mut(n.game as usize))
        else {
            return;
        };
        game.mix = [solution.rows, solution.cols];
        game.value = Some(solution.value);
    }

    /// Both colours' choices at a node with a threat game: each drawn from the
    /// game's equilibrium, re-solved while the node is young and then every
    /// [`GAME_REFRESH`] visits, mixed with γ-uniform exploration so that the
    /// estimated pairs keep being tried.
    fn select_in_game(&mut self, index: usize) -> ([u8; 2], [f64; 2]) {
        let selections = self.nodes.get(index).map_or(0, |n| n.selections);
        if selections <= GAME_REFRESH || selections.is_multiple_of(GAME_REFRESH) {
            self.solve_game(index, GAME_ITERATIONS);
        }
        let gamma = self.settings.exploration;
        let mut choice = [0u8; 2];
        let mut prob = [1.0; 2];
        for side in 0..2 {
            let target = self.rng.unit();
            let Some(mix) = self
                .nodes
                .get(index)
                .and_then(|n| self.games.get(n.game as usize))
                .and_then(|g| g.mix.get(side))
            else {
                continue;
            };
            let n = mix.len().max(1) as f64;
            let mut left = target;
            for (i, p) in mix.iter().enumerate() {
                let mixed = (1.0 - gamma) * p + gamma / n;
                choice[side] = i as u8;
                prob[side] = mixed.max(f64::MIN_POSITIVE);
                if left < mixed {
                    break;
                }
                left -= mixed;
            }
        }
        (choice, prob)
    }

    /// The statistics range of `side` (0 black, 1 white) in `node`.
    fn range(node: &Node, side: usize) -> std::ops::Range<usize> {
        let start = node.first as usize
            + if side == 1 {
                usize::from(node.len[0])
            } else {
                0
            };
        let len = usize::from(node.len[side.min(1)]);
        start..start + len
    }

    /// Chooses `side`'s candidate in `node`: its index and the probability it had.
    /// The average strategy grows by the node's selection count times the current
    /// strategy (linear averaging: later, better-informed strategies weigh more).
    fn select(&mut self, node: usize, side: usize) -> (u8, f64) {
        let Some((range, weight)) = self
            .nodes
            .get(node)
            .map(|n| (Tree::range(n, side), f64::from(n.selections)))
        else {
            return (0, 1.0);
        };
        let Some(stats) = self.stats.get_mut(range) else {
            return (0, 1.0);
        };
        let n = stats.len();
        if n <= 1 {
            if let Some(stat) = stats.first_mut() {
                stat.strategy += weight;
            }
            return (0, 1.0);
        }
        match self.settings.selection {
            Selection::RegretMatching => {
                let gamma = self.settings.exploration;
                let positive: f64 = stats.iter().map(|s| s.regret.max(0.0)).sum();
                let uniform = 1.0 / n as f64;
                let sigma = |s: &Stat| {
                    if positive > 0.0 {
                        s.regret.max(0.0) / positive
                    } else {
                        uniform
                    }
                };
                let mut target = self.rng.unit();
                let mut chosen = (n - 1, 0.0);
                let mut picked = false;
                for (i, stat) in stats.iter_mut().enumerate() {
                    let plain = sigma(stat);
                    stat.strategy += weight * plain;
                    let mixed = (1.0 - gamma) * plain + gamma * uniform;
                    if !picked {
                        if target < mixed {
                            chosen = (i, mixed);
                            picked = true;
                        } else {
                            target -= mixed;
                            chosen = (i, mixed);
                        }
                    }
                }
                (chosen.0 as u8, chosen.1.max(f64::MIN_POSITIVE))
            }
            Selection::Uct => {
                let unvisited = stats.iter().filter(|s| s.visits == 0).count();
                if unvisited > 0 {
                    let k = self.rng.below(unvisited as u64) as usize;
                    let index = stats
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| s.visits == 0)
                        .nth(k)
                        .map_or(0, |(i, _)| i);
                    return (index as u8, 1.0);
                }
                let total: u32 = stats.iter().map(|s| s.visits).sum();
                let log = f64::from(total.max(1)).ln();
                let c = self.settings.uct_c;
                let mut best = (0, f64::NEG_INFINITY);
                for (i, stat) in stats.iter().enumerate() {
                    let n = f64::from(stat.visits);
                    let score = stat.value / n + c * (log / n).sqrt();
                    if score > best.1 {
                        best = (i, score);
                    }
                }
                (best.0 as u8, 1.0)
            }
        }
    }

    /// One iteration: select down the tree, add one child, play out, back up.
    fn iterate(&mut self) {
        self.path.clear();
        let mut node = 0usize;
        let value = loop {
            let Some(current) = self.nodes.get(node) else {
                break 0.0;
            };
            let position = current.position;
            if position.status().is_over() {
                break self.drawn(playout::value(position.status()));
            }
            if !current.expanded {
                self.expand(node, self.settings.width);
            }
            if let Some(current) = self.nodes.get_mut(node) {
                current.selections += 1;
            }
            let has_game = self.nodes.get(node).is_some_and(|n| n.game != NO_GAME);
            let (choice, [pa, pb]) = if has_game {
                self.select_in_game(node)
            } else {
                let (a, pa) = self.select(node, 0);
                let (b, pb) = self.select(node, 1);
                ([a, b], [pa, pb])
            };
            let (choice, [pa, pb]) = if node == 0 {
                self.predicted_at_root(choice, [pa, pb])
            } else {
                (choice, [pa, pb])
            };
            let [a, b] = choice;
            let k = key(node as u32, choice);
            if let Some(&child) = self.children.get(&k) {
                self.path.push(Visit {
                    node: node as u32,
                    choice,
                    prob: [pa, pb],
                    child: Some(child),
                });
                node = child as usize;
                continue;
            }
            let Some(current) = self.nodes.get(node) else {
                break 0.0;
            };
            let black = self
                .stats
                .get(Tree::range(current, 0).start + usize::from(a));
            let white = self
                .stats
                .get(Tree::range(current, 1).start + usize::from(b));
            let (Some(black), Some(white)) = (black.map(|s| s.cell), white.map(|s| s.cell)) else {
                break 0.0;
            };
            let mut next = position;
            if next.resolve_turn_quiet(black, white).is_err() {
                break 0.0;
            }
            let child = if self.nodes.len() < self.max_nodes {
                let index = self.nodes.len() as u32;
                self.nodes.push(Node::fresh(next));
                self.children.insert(k, index);
                Some(index)
            } else {
                None
            };
            self.path.push(Visit {
                node: node as u32,
                choice,
                prob: [pa, pb],
                child,
            });
            break self.leaf_value(next);
        };
        self.back_up(value);
    }

    /// The root's joint choice with the opponent's replaced by the predicted cell
    /// with the prediction's probability ([`Tree::predicted`]), and the probability
    /// each side's choice then had (for the predicted cell, at least the
    /// prediction's: its regret-matched share is not known when another cell was
    /// drawn). Only the opponent's root regrets use it.
    fn predicted_at_root(&mut self, choice: [u8; 2], prob: [f64; 2]) -> ([u8; 2], [f64; 2]) {
        let Some((side, index, q)) = self.predicted else {
            return (choice, prob);
        };
        let (mut choice, mut prob) = (choice, prob);
        if let (Some(c), Some(p)) = (choice.get_mut(side), prob.get_mut(side)) {
            let drawn = *c;
            if self.rng.unit() < q {
                *c = index;
            }
            *p = predicted_probability(*c, drawn, *p, index, q);
        }
        (choice, prob)
    }

    /// Marks `prediction` as the root pick of `side` (0 black, 1 white), when its cell
    /// is in that side's root list.
    fn predict(&mut self, side: usize, prediction: Option<Prediction>) {
        self.predicted = prediction.and_then(|p| {
            let root = self.nodes.first()?;
            let stats = self.stats.get(Tree::range(root, side))?;
            let index = stats.iter().position(|s| s.cell == p.cell)?;
            Some((
                side,
                u8::try_from(index).ok()?,
                p.confidence.clamp(0.0, 1.0),
            ))
        });
    }

    /// `value` (black's, of a finished game) with a draw valued [`Tree::draw`].
    fn drawn(&self, value: f64) -> f64 {
        if value == 0.0 { self.draw } else { value }
    }

    /// Black's value of a new leaf, by [`Settings::eval`].
    fn leaf_value(&mut self, position: Position) -> f64 {
        match self.settings.eval {
            Eval::Playout => {
                let value = playout::guided_with(position, &mut self.rng, self.settings.playout).0;
                self.drawn(value)
            }
            Eval::Learned => super::value::value(&position),
            Eval::Mixed => {
                let played = playout::guided_with(position, &mut self.rng, self.settings.playout).0;
                (played + super::value::value(&position)) / 2.0
            }
        }
    }

    /// Adds `value` (black's) to every node and choice on the path.
    fn back_up(&mut self, value: f64) {
        let selection = self.settings.selection;
        let path = std::mem::take(&mut self.path);
        for visit in &path {
            if let Some(child) = visit.child.and_then(|c| self.nodes.get_mut(c as usize)) {
                child.visits += 1;
                child.value += value;
            }
            let Some(node) = self.nodes.get(visit.node as usize).copied() else {
                continue;
            };
            if node.game != NO_GAME {
                // Its choices come from the solved threat game, valued by the
                // children's means.
                continue;
            }
            for side in 0..2 {
                let u = if side == 0 { value } else { -value };
                let chosen = usize::from(visit.choice[side]);
                let Some(stats) = self.stats.get_mut(Tree::range(&node, side)) else {
                    continue;
                };
                match selection {
                    Selection::RegretMatching => {
                        if stats.len() <= 1 {
                            continue;
                        }
                        for (i, stat) in stats.iter_mut().enumerate() {
                            let estimate = if i == chosen {
                                u / visit.prob[side]
                            } else {
                                0.0
                            };
                            stat.regret += estimate - u;
                        }
                    }
                    Selection::Uct => {
                        if let Some(stat) = stats.get_mut(chosen) {
                            stat.visits += 1;
                            stat.value += u;
                        }
                    }
                }
            }
        }
        self.path = path;
    }

    /// What the root says for `side`: each candidate's weight (average strategy or
    /// visits).
    fn root_weights(&self, side: usize) -> Vec<(Cell, f64)> {
        let Some(root) = self.nodes.first() else {
            return Vec::new();
        };
        if let Some(mix) = self
            .games
            .get(root.game as usize)
            .and_then(|g| g.mix.get(side))
        {
            return self
                .stats
                .get(Tree::range(root, side))
                .unwrap_or(&[])
                .iter()
                .zip(mix)
                .map(|(s, &p)| (s.cell, p))
                .collect();
        }
        self.stats
            .get(Tree::range(root, side))
            .unwrap_or(&[])
            .iter()
            .map(|s| {
                let weight = match self.settings.selection {
                    Selection::RegretMatching => s.strategy,
                    Selection::Uct => f64::from(s.visits),
                };
                (s.cell, weight)
            })
            .collect()
    }

    /// The root's joint choices: (visits, black's value sum), row-major black × white.
    fn root_pairs(&self) -> Vec<(u32, f64)> {
        let Some(root) = self.nodes.first() else {
            return Vec::new();
        };
        let mut pairs = Vec::with_capacity(usize::from(root.len[0]) * usize::from(root.len[1]));
        for a in 0..root.len[0] {
            for b in 0..root.len[1] {
                let child = self.children.get(&key(0, [a, b]));
                pairs.push(
                    child
                        .and_then(|&c| self.nodes.get(c as usize))
                        .map_or((0, 0.0), |n| (n.visits, n.value)),
                );
            }
        }
        pairs
    }
}

/// The largest threat game kept at a node, in joint choices.
const GAME_PAIRS: usize = 96;
/// A threat game is re-solved at each of its first visits up to this many, then
/// every this many visits.
const GAME_REFRESH: u32 = 16;
/// Regret-matching rounds per solve of a threat game (and the final root solve).
const GAME_ITERATIONS: u32 = 300;
const FINAL_GAME_ITERATIONS: u32 = 4000;
/// Pseudo-visits of a double threat's prior value ([`ThreatGame::new`]).
const DOUBLE_PRIOR: f64 = 8.0;

/// The turn of a node where a colour can win at once, as a matrix game over both
/// colours' candidates (black's rows, white's columns, black's values).
///
/// A pair whose turn ends the game has its exact value (a lone winning cell is
/// blocked only by the opponent picking it too, S4; k disjoint winning cells leave
/// the defender one guess in k). Every other pair is valued by the mean of the
/// playouts through it (or, when the turn leads to another threat game, by that
/// game's solved value), starting from a prior: when the turn leaves one colour k ≥ 2
/// cells completing five and the other none and no capture, the pair is the threat
/// two turns deep — worth about (k − 1)/k to the attacker (the defender's one guess
/// blocks one cell; a collision leaves the rest for later) — with [`DOUBLE_PRIOR`]
/// pseudo-visits; otherwise a draw with one. The game is solved by regret
/// matching⁺ ([`matrix::solve`]) as the node is visited, and both colours sample
/// from its equilibrium instead of learning it by sampled regrets.
struct ThreatGame {
    rows: usize,
    cols: usize,
    /// Black's exact value of each pair when its turn ends the game, else NaN.
    exact: Vec<f64>,
    /// (value, weight) of each other pair's prior.
    prior: Vec<(f64, f64)>,
    /// The latest equilibrium: black's mix, white's mix.
    mix: [Vec<f64>; 2],
    /// Its value for black, once solved.
    value: Option<f64>,
}

impl ThreatGame {
    fn new(position: &Position, black: &[Cell], white: &[Cell]) -> ThreatGame {
        let (rows, cols) = (black.len(), white.len());
        let mut exact = Vec::with_capacity(rows * cols);
        let mut prior = Vec::with_capacity(rows * cols);
        for &b in black {
            for &w in white {
                let mut next = *position;
                let status = next.resolve_turn_quiet(b, w);
                match status {
                    Ok(status) if status.is_over() => {
                        exact.push(playout::value(status));
                        prior.push((0.0, 1.0));
                    }
                    Ok(_) => {
                        exact.push(f64::NAN);
                        prior.push(double_threat(&next).map_or((0.0, 1.0), |v| (v, DOUBLE_PRIOR)));
                    }
                    Err(_) => {
                        exact.push(0.0);
                        prior.push((0.0, 1.0));
                    }
                }
            }
        }
        ThreatGame {
            rows,
            cols,
            exact,
            prior,
            mix: [
                vec![1.0 / rows.max(1) as f64; rows],
                vec![1.0 / cols.max(1) as f64; cols],
            ],
            value: None,
        }
    }
}

/// Black's value of a double threat in `position`: ±(k − 1)/k when one colour has
/// k ≥ 2 cells completing five and the other none and no capture cell.
fn double_threat(position: &Position) -> Option<f64> {
    let occupied = position.occupied();
    let empty = BOARD & !occupied;
    let black = position.turtle_mask(Color::Black);
    let white = position.turtle_mask(Color::White);
    let holes = [five_holes(black, empty), five_holes(white, empty)];
    let captures = [
        capture_cells(black, occupied),
        capture_cells(white, occupied),
    ];
    for (side, sign) in [(0usize, 1.0), (1, -1.0)] {
        let k = holes[side].count_ones();
        if k >= 2 && holes[1 - side] == 0 && captures[1 - side] == 0 {
            return Some(sign * f64::from(k - 1) / f64::from(k));
        }
    }
    None
}

/// The largest root matrix solved exactly, in joint choices.
const MATRIX_PAIRS: usize = 64;
/// Visits each joint choice needs before the root matrix is trusted.
const MATRIX_VISITS: u32 = 12;
/// Root shares below this leave a cell out of the root matrix game.
const SUPPORT: f64 = 0.02;
/// Strategy shares below this (and below half the largest) are dropped before sampling.
const THRESHOLD: f64 = 0.05;
/// The cut on an open board ([`Settings::open_threshold`]).
const OPEN_THRESHOLD: f64 = 0.35;
/// Boards with more empty cells than this are open for [`Settings::open_threshold`].
pub const OPEN_EMPTY: u32 = 20;

/// The default [`Settings::endgame_empty`].
pub const ENDGAME_EMPTY: u32 = 14;

/// The indices of `weights` whose share reaches [`SUPPORT`].
fn support(weights: &[(Cell, f64)]) -> Vec<usize> {
    let total: f64 = weights.iter().map(|w| w.1.max(0.0)).sum();
    (0..weights.len())
        .filter(|&i| total > 0.0 && weights.get(i).is_some_and(|w| w.1 / total >= SUPPORT))
        .collect()
}

/// The root's matrix game restricted to the cells both colours still play (shares of
/// at least [`SUPPORT`]), solved when it is small and every pair in it has been tried
/// [`MATRIX_VISITS`] times: `side`'s equilibrium share of each of its cells.
fn solve_root(
    mine: &[(Cell, f64)],
    theirs: &[(Cell, f64)],
    side: usize,
    pairs: &[(u32, f64)],
    rows: usize,
    cols: usize,
) -> Option<Vec<f64>> {
    let (black_weights, white_weights) = if side == 0 {
        (mine, theirs)
    } else {
        (theirs, mine)
    };
    let share = |weights: &[(Cell, f64)], i: usize| {
        let total: f64 = weights.iter().map(|w| w.1.max(0.0)).sum();
        weights
            .get(i)
            .map_or(0.0, |w| w.1 / total.max(f64::MIN_POSITIVE))
    };
    let mut black = support(black_weights);
    let mut white = support(white_weights);
    // A pair tried too rarely leaves the game with the rarer of its two cells.
    loop {
        let thin = black.iter().find_map(|&a| {
            white.iter().find_map(|&b| {
                let visits = pairs.get(a * cols + b).map_or(0, |p| p.0);
                (visits < MATRIX_VISITS).then_some((a, b))
            })
        });
        let Some((a, b)) = thin else {
            break;
        };
        if share(black_weights, a) <= share(white_weights, b) {
            black.retain(|&i| i != a);
        } else {
            white.retain(|&i| i != b);
        }
    }
    if black.is_empty() || white.is_empty() || black.len() * white.len() > MATRIX_PAIRS {
        return None;
    }
    let mut values = Vec::with_capacity(black.len() * white.len());
    for &a in &black {
        for &b in &white {
            let (visits, sum) = *pairs.get(a * cols + b)?;
            if a >= rows {
                return None;
            }
            values.push(sum / f64::from(visits.max(1)));
        }
    }
    let solution = matrix::solve(&values, black.len(), white.len(), 4000);
    let (kept, mix) = if side == 0 {
        (black, solution.rows)
    } else {
        (white, solution.cols)
    };
    let mut shares = vec![0.0; mine.len()];
    for (&i, p) in kept.iter().zip(mix) {
        if let Some(share) = shares.get_mut(i) {
            *share = p;
        }
    }
    Some(shares)
}

/// `weights` normalised, with small shares (below [`THRESHOLD`] and below half the
/// largest share) dropped and the rest normalised again.
fn purified(weights: &[(Cell, f64)], threshold: f64) -> Vec<(Cell, f64)> {
    let total: f64 = weights.iter().map(|w| w.1.max(0.0)).sum();
    if total <= 0.0 {
        let n = weights.len().max(1) as f64;
        return weights.iter().map(|w| (w.0, 1.0 / n)).collect();
    }
    let largest = weights.iter().map(|w| w.1).fold(0.0, f64::max) / total;
    let cut = threshold.min(largest / 2.0);
    let kept: Vec<(Cell, f64)> = weights
        .iter()
        .map(|w| (w.0, w.1.max(0.0) / total))
        .filter(|w| w.1 >= cut)
        .collect();
    let sum: f64 = kept.iter().map(|w| w.1).sum();
    kept.into_iter().map(|w| (w.0, w.1 / sum)).collect()
}

/// The share below which [`purified`] drops a cell of the final strategy in
/// `position`: [`Settings::open_threshold`] on an open board (more than
/// [`Settings::open_empty`] empty cells) when it is the larger, else [`Settings::threshold`].
fn final_threshold(position: &Position, settings: &Settings) -> f64 {
    let unpredicted = settings.modelled && settings.prediction.is_none();
    if !unpredicted && position.empty_cells().len() > settings.open_empty {
        settings.threshold.max(settings.open_threshold)
    } else {
        settings.threshold
    }
}

/// The root's `weights` without the cells outside `keep`; the cells of `keep` evenly
/// when none of them has weight (and `weights` as they are when `keep` is empty).
fn kept(weights: Vec<(Cell, f64)>, keep: u128) -> Vec<(Cell, f64)> {
    if keep == 0 || weights.iter().all(|w| keep & w.0.bit() != 0) {
        return weights;
    }
    let inside: Vec<(Cell, f64)> = weights
        .into_iter()
        .filter(|w| keep & w.0.bit() != 0 && w.1 > 0.0)
        .collect();
    if !inside.is_empty() {
        return inside;
    }
    let n = f64::from(keep.count_ones());
    crate::games::shell::CellSet::from_bits(keep)
        .iter()
        .map(|c| (c, 1.0 / n))
        .collect()
}

/// Black's value of a draw in the tree of a search for `color` that counts a draw
/// −`contempt` to itself ([`Settings::contempt`]).
fn draw_value(color: Color, contempt: f64) -> f64 {
    if color == Color::Black {
        -contempt
    } else {
        contempt
    }
}

/// A cell drawn from `strategy` (probabilities summing to 1).
fn sample(strategy: &[(Cell, f64)], rng: &mut Rng) -> Option<Cell> {
    let mut target = rng.unit();
    for &(cell, p) in strategy {
        if target < p {
            return Some(cell);
        }
        target -= p;
    }
    strategy.last().map(|w| w.0)
}

/// Runs one tree until the limits or `iterations` (0: no cap), then hands it back.
fn grow_tree(mut tree: Tree, iterations: u64, limits: &Limits<'_>) -> (Tree, u64) {
    let mut done = 0u64;
    loop {
        if iterations > 0 && done >= iterations {
            break;
        }
        if done.is_multiple_of(8) && limits.expired() {
            break;
        }
        tree.iterate();
        done += 1;
    }
    (tree, done)
}

/// Searches `position` for `color` and samples its pick. `None` when the game is over
/// or no cell is empty. Without a deadline and without an iteration cap the search
/// stops after [`Settings::default`]'s iterations.
#[must_use]
pub fn search(
    position: &Position,
    color: Color,
    settings: &Settings,
    limits: &Limits<'_>,
    rng: &mut Rng,
) -> Option<Outcome> {
    search_in(
        position,
        color,
        settings,
        limits,
        rng,
        &mut Memory::default(),
    )
}

/// What the endgame solve tells the search.
enum Ended {
    /// Play this mix (a simultaneous root, solved).
    Play(Vec<(Cell, f64)>),
    /// Search as usual (nothing solved in time).
    Search,
}

/// The endgame's part of a move ([`Settings::endgame_empty`]): deepen within the
/// first share of the move. A root solved fewer than [`ENDGAME_MIN_TURNS`] turns deep,
/// or one the solve shows lost to `color`, is left to the tree search (with the rest
/// of the move); otherwise the solve deepens on to the end of the move and its
/// deepest equilibrium is played: a simultaneous root's mix, or a settled root's pick
/// that holds its value even against an opponent who knew it.
fn endgame(
    position: &Position,
    color: Color,
    settings: &Settings,
    limits: &Limits<'_>,
    endgame: &mut Endgame,
) -> Ended {
    let now = Instant::now();
    let at = |share: f64| {
        limits
            .deadline
            .map(|d| now + d.saturating_duration_since(now).mul_f64(share))
    };
    // Bounded by iterations alone: a node budget, so the move does not depend on
    // the machine.
    let nodes = if limits.deadline.is_some() {
        u64::MAX
    } else {
        settings.iterations.max(1).saturating_mul(ENDGAME_NODES)
    };
    // The tables take at most the trees' memory again.
    endgame.bound_memory(settings.max_nodes.saturating_mul(NODE_BYTES));
    let max_turns = position.empty_cells().len() + 4;
    let Some(plan) = endgame.deepen(position, at(ENDGAME_SHARE), nodes, max_turns, None) else {
        return Ended::Search;
    };
    log::debug!(
        "endgame for {color:?}: {} turns solved, bounds {:?}, value {:.3}, {:.1} ms",
        plan.turns,
        plan.equilibrium.bounds,
        plan.equilibrium.value,
        now.elapsed().as_secs_f64() * 1e3
    );
    let lost = match color {
        Color::Black => plan.equilibrium.bounds.1 <= -1.0,
        Color::White => plan.equilibrium.bounds.0 >= 1.0,
    };
    if plan.turns < ENDGAME_MIN_TURNS || lost {
        return Ended::Search;
    }
    let plan = endgame
        .deepen(
            position,
            limits.deadline,
            nodes,
            max_turns,
            Some(plan.clone()),
        )
        .unwrap_or(plan);
    log::debug!(
        "endgame: deepened to {} turns, value {:.3}, {:.1} ms",
        plan.turns,
        plan.equilibrium.value,
        now.elapsed().as_secs_f64() * 1e3
    );
    Ended::Play(plan.strategy(color).to_vec())
}

/// Whether a search with [`Settings::endgame_empty`] at `endgame_empty` starts
/// `position`'s move with the endgame solve (a board of that many empty cells or
/// fewer; 0 never).
#[must_use]
pub fn solves_endgame(endgame_empty: u32, position: &Position) -> bool {
    endgame_empty > 0 && position.empty_cells().len() <= endgame_empty
}

/// The answer of a root solved without the tree: `strategy`, and a pick drawn from it.
fn solved(strategy: Vec<(Cell, f64)>, rng: &mut Rng) -> Option<Outcome> {
    let cell = sample(&strategy, rng)?;
    Some(Outcome {
        cell,
        strategy,
        iterations: 0,
        nodes: 0,
        solved_root: true,
    })
}

/// [`search`] growing its trees in the storage of `memory` (same results).
#[must_use]
pub fn search_in(
    position: &Position,
    color: Color,
    settings: &Settings,
    limits: &Limits<'_>,
    rng: &mut Rng,
    memory: &mut Memory,
) -> Option<Outcome> {
    if position.status().is_over() || position.empty_cells().is_empty() {
        return None;
    }
    let mut settings = *settings;
    if settings.iterations == 0 && limits.deadline.is_none() {
        settings.iterations = Settings::default().iterations;
    }
    if solves_endgame(settings.endgame_empty, position) {
        match endgame(position, color, &settings, limits, &mut memory.endgame) {
            Ended::Play(strategy) => return solved(strategy, rng),
            Ended::Search => {}
        }
    }
    let side = color.index();
    let tactics = Tactics::of(position);
    let mine = candidates_with(
        position,
        &tactics,
        color,
        settings.root_width,
        settings.list_options(),
    );
    if mine.len() == 1 {
        let cell = *mine.first()?;
        return Some(Outcome {
            cell,
            strategy: vec![(cell, 1.0)],
            iterations: 0,
            nodes: 0,
            solved_root: false,
        });
    }
    let mut extra = if settings.root_forcing && !tactics.is_sharp() {
        Color::ALL
            .into_iter()
            .filter_map(|c| {
                super::tactician::forcing_line(position, c, super::tactician::THREAT_DEPTH)
            })
            .fold(0u128, |m, c| m | c.bit())
    } else {
        0
    };
    if let Some(p) = settings.prediction
        && position.is_empty(p.cell)
    {
        extra |= p.cell.bit();
    }
    let mut keep = BOARD;
    if settings.threat_search {
        let theirs = candidates_with(
            position,
            &tactics,
            color.opponent(),
            settings.root_width,
            settings.list_options(),
        );
        let mut budget = threats::Budget::new(threats::BUDGET);
        match threats::advise(position, color, &mine, &theirs, &mut budget) {
            threats::Advice::Play(strategy) => return solved(strategy, rng),
            threats::Advice::Search {
                extra: cells,
                keep: kept,
            } => {
                extra |= cells;
                keep = kept;
            }
        }
    }
    let threads = settings.threads.max(1) as usize;
    let per_tree_nodes = (settings.max_nodes / threads).max(1);
    let per_tree_iterations = settings.iterations.div_ceil(threads as u64);
    let seeds: Vec<u64> = (0..threads).map(|_| rng.next_u64()).collect();
    let draw = draw_value(color, settings.contempt);
    let plant = |seed: u64, buffers: Buffers| {
        let mut tree = Tree::new(
            *position,
            settings,
            per_tree_nodes,
            Rng::new(seed),
            buffers,
            extra,
        );
        tree.draw = draw;
        tree.predict(1 - side, settings.prediction);
        tree
    };
    let mut trees: Vec<(Tree, u64)> = if threads == 1 {
        let tree = plant(seeds[0], memory.take());
        vec![grow_tree(tree, per_tree_iterations, limits)]
    } else {
        thread::scope(|scope| {
            let handles: Vec<_> = seeds
                .iter()
                .map(|&seed| {
                    let tree = plant(seed, memory.take());
                    scope.spawn(move || grow_tree(tree, per_tree_iterations, limits))
                })
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        })
    };
    // A root where a colour can win at once is its threat game, solved to the end.
    for (tree, _) in &mut trees {
        tree.solve_game(0, FINAL_GAME_ITERATIONS);
    }
    let first = &trees.first()?.0;
    let root_game = first.nodes.first().is_some_and(|n| n.game != NO_GAME);
    let mut weights = first.root_weights(side);
    let mut opponent_weights = first.root_weights(1 - side);
    let mut pairs = first.root_pairs();
    let rows = first.nodes.first().map_or(0, |n| usize::from(n.len[0]));
    let cols = first.nodes.first().map_or(0, |n| usize::from(n.len[1]));
    for (tree, _) in trees.iter().skip(1) {
        for (w, extra) in weights.iter_mut().zip(tree.root_weights(side)) {
            w.1 += extra.1;
        }
        for (w, extra) in opponent_weights.iter_mut().zip(tree.root_weights(1 - side)) {
            w.1 += extra.1;
        }
        for (p, extra) in pairs.iter_mut().zip(tree.root_pairs()) {
            p.0 += extra.0;
            p.1 += extra.1;
        }
    }
    let iterations = trees.iter().map(|t| t.1).sum();
    let nodes = trees.iter().map(|t| t.0.nodes.len()).sum();
    let mut solved_root = root_game;
    let predicted = trees.first().is_some_and(|t| t.0.predicted.is_some());
    // Against a predicted opponent the root's average strategy is already the answer
    // to the prediction's mix; the root matrix's equilibrium would ignore it.
    if !predicted
        && tactics.is_sharp()
        && !root_game
        && let Some(mix) = solve_root(&weights, &opponent_weights, side, &pairs, rows, cols)
    {
        for (w, p) in weights.iter_mut().zip(mix) {
            w.1 = p;
        }
        solved_root = true;
    }
    for (tree, _) in trees {
        memory.buffers.push(Buffers {
            nodes: tree.nodes,
            stats: tree.stats,
            children: tree.children,
            path: tree.path,
        });
    }
    if settings.sharpen > 1 && !tactics.is_sharp() {
        // Quiet position: lean on the search's preferences (shares to a power).
        let total: f64 = weights
            .iter()
            .map(|w| w.1.max(0.0))
            .sum::<f64>()
            .max(f64::MIN_POSITIVE);
        for w in &mut weights {
            w.1 = (w.1.max(0.0) / total).powi(settings.sharpen as i32);
        }
    }
    let weights = kept(weights, keep & BOARD & !position.occupied());
    let strategy = purified(&weights, final_threshold(position, &settings));
    let cell = sample(&strategy, rng)?;
    Some(Outcome {
        cell,
        strategy,
        iterations,
        nodes,
        solved_root,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::shell::greedy;
    use crate::ai::shell::testing::{cell, crowded, position, won_by_black};
    use crate::games::Status;

    fn bounded(iterations: u64, selection: Selection) -> Settings {
        Settings {
            selection,
            iterations,
            ..Settings::default()
        }
    }

    /// Games the search wins against the deterministic threat-builder in `games`
    /// games, colours alternating, each pair opening with the same two random turns
    /// near the centre.
    fn wins_against_the_threat_builder(games: u64, settings: &Settings) -> u32 {
        wins_against(games, settings, crate::ai::shell::windows::pick)
    }

    /// As [`wins_against_the_threat_builder`], against the deterministic `opponent`.
    fn wins_against(
        games: u64,
        settings: &Settings,
        opponent: fn(&Position, Color) -> Option<Cell>,
    ) -> u32 {
        let mut wins = 0;
        for game in 0..games {
            let mut rng = Rng::new(100 + game);
            let me = if game % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let mut p = Position::new();
            let mut opening = Rng::new(game / 2);
            for _ in 0..2 {
                let area: Vec<Cell> = p
                    .empty_cells()
                    .iter()
                    .filter(|c| c.col().abs_diff(4) <= 2 && c.row().abs_diff(4) <= 2)
                    .collect();
                if let (Some(&b), Some(&w)) = (opening.choose(&area), opening.choose(&area)) {
                    assert!(p.resolve_turn_quiet(b, w).is_ok());
                }
            }
            for _ in 0..playout::MAX_TURNS {
                let mine = search(&p, me, settings, &Limits::depth(1), &mut rng);
                let theirs = opponent(&p, me.opponent());
                let (Some(mine), Some(theirs)) = (mine, theirs) else {
                    break;
                };
                let (black, white) = match me {
                    Color::Black => (mine.cell, theirs),
                    Color::White => (theirs, mine.cell),
                };
                assert!(p.resolve_turn_quiet(black, white).is_ok());
            }
            wins += u32::from(p.status().winner() == Some(me));
        }
        wins
    }

    #[test]
    fn punishes_the_threat_builder_at_a_small_budget() {
        // Seeded and bounded by iterations, so the count is fixed; with a wide root
        // (16 cells, 8 below) the search wins 17 of these 24, with the default 22.
        let settings = bounded(1500, Selection::RegretMatching);
        let wins = wins_against_the_threat_builder(24, &settings);
        assert!(wins >= 20, "{wins} wins of 24");
    }

    /// Black has two separate fours, e1 and e9 complete them; the board is symmetric
    /// under the row mirror, which swaps e1 and e9.
    fn two_threats() -> Position {
        position(
            &[
                ("a1", 'X'),
                ("b1", 'X'),
                ("c1", 'X'),
                ("d1", 'X'),
                ("a9", 'X'),
                ("b9", 'X'),
                ("c9", 'X'),
                ("d9", 'X'),
                ("e5", 'O'),
                ("f5", 'O'),
            ],
            "-",
        )
    }

    /// Picks of `color` in `position` over `samples` seeds, with `iterations` each.
    fn picks(position: &Position, color: Color, samples: u64, iterations: u64) -> Vec<Cell> {
        let settings = bounded(iterations, Selection::RegretMatching);
        (0..samples)
            .filter_map(|seed| {
                let limits = Limits::depth(1);
                search(position, color, &settings, &limits, &mut Rng::new(seed)).map(|o| o.cell)
            })
            .collect()
    }

    /// Pearson's chi-square of two counts against an even split (1 degree of freedom;
    /// 6.635 is the 1 % critical value).
    fn chi_square_even(a: usize, b: usize) -> f64 {
        let expected = (a + b) as f64 / 2.0;
        let (a, b) = (a as f64, b as f64);
        (a - expected).powi(2) / expected + (b - expected).powi(2) / expected
    }

    #[test]
    fn blocking_two_threats_mixes_evenly() {
        let p = two_threats();
        let got = picks(&p, Color::White, 400, 1500);
        let e1 = got.iter().filter(|&&c| c == cell("e1")).count();
        let e9 = got.iter().filter(|&&c| c == cell("e9")).count();
        assert_eq!(e1 + e9, got.len(), "white must guess one of the two blocks");
        let chi = chi_square_even(e1, e9);
        eprintln!("e1 {e1} e9 {e9} chi-square {chi:.2}");
        assert!(chi < 6.635, "e1 {e1} e9 {e9} chi-square {chi:.2}");
    }

    /// Picks of `color` over `samples` seeds when the opponent is predicted to pick
    /// `predicted` with probability `confidence`.
    fn picks_predicted(
        position: &Position,
        color: Color,
        samples: u64,
        predicted: &str,
        confidence: f64,
    ) -> Vec<Cell> {
        let settings = Settings {
            prediction: Some(Prediction {
                cell: cell(predicted),
                confidence,
            }),
            ..bounded(1500, Selection::RegretMatching)
        };
        (0..samples)
            .filter_map(|seed| {
                search(
                    position,
                    color,
                    &settings,
                    &Limits::depth(1),
                    &mut Rng::new(seed),
                )
                .map(|o| o.cell)
            })
            .collect()
    }

    #[test]
    fn a_predicted_guess_is_answered() {
        // Black's two fours (e1 and e9 complete five, S2): against a white predicted
        // to block e1, black takes e9; against a black predicted to take e9, white
        // blocks e9 (S4). Without a prediction both mix evenly (the tests above).
        let p = two_threats();
        let black = picks_predicted(&p, Color::Black, 40, "e1", 0.95);
        assert!(black.iter().all(|&c| c == cell("e9")), "black {black:?}");
        let white = picks_predicted(&p, Color::White, 40, "e9", 0.95);
        assert!(white.iter().all(|&c| c == cell("e9")), "white {white:?}");
        // A prediction below certainty still tips the guess its way.
        let white = picks_predicted(&p, Color::White, 40, "e1", 0.7);
        assert!(white.iter().all(|&c| c == cell("e1")), "white {white:?}");
    }

    #[test]
    fn attacking_with_two_threats_takes_one_and_mixes() {
        let p = two_threats();
        let got = picks(&p, Color::Black, 400, 1500);
        let e1 = got.iter().filter(|&&c| c == cell("e1")).count();
        let e9 = got.iter().filter(|&&c| c == cell("e9")).count();
        // Any other pick forgoes a half chance to win now. A search sampled from an
        // approximate equilibrium may stray rarely (2 of these 400 seeds do), never
        // more than 1 %.
        let others: Vec<String> = got
            .iter()
            .filter(|&&c| c != cell("e1") && c != cell("e9"))
            .map(ToString::to_string)
            .collect();
        assert!(
            others.len() * 100 <= got.len(),
            "black strays to {others:?}"
        );
        let chi = chi_square_even(e1, e9);
        eprintln!("e1 {e1} e9 {e9} chi-square {chi:.2}");
        assert!(chi < 6.635, "e1 {e1} e9 {e9} chi-square {chi:.2}");
    }

    /// Black's fours a1-d1, i1-i4, f9-i9 and a6-a9, white's turtle on e5, the
    /// first `k` of the cells completing them (e1, i5, e9, a5) empty and every other
    /// cell an egg: nothing captures (S5 needs a turtle of the capturer's colour three
    /// cells on), so each turn is a pure guessing game over the k cells. A collision
    /// lays one more egg (S4); the last cell is a forced collision and a full board, a
    /// draw (S9). Black's value with k cells is V(k) = (k − 1)/k + V(k − 1)/k, V(1) =
    /// 0, and a quarter turn about e5 maps the position to itself (k = 4), or the row
    /// mirror (k = 2): the equilibrium is uniform over the k cells for both colours.
    fn k_threats(k: usize) -> Position {
        let black = [
            "a1", "b1", "c1", "d1", "i1", "i2", "i3", "i4", "f9", "g9", "h9", "i9", "a6", "a7",
            "a8", "a9",
        ];
        let open = ["e1", "e9", "i5", "a5"];
        let open = &open[..k.min(4)];
        let mut board = String::new();
        let mut eggs = Vec::new();
        for cell in Cell::ALL {
            let name = cell.to_string();
            let name = name.as_str();
            if black.contains(&name) {
                board.push('X');
            } else if name == "e5" {
                board.push('O');
            } else if open.contains(&name) {
                board.push('-');
            } else {
                board.push('E');
                eggs.push(name.to_string());
            }
        }
        Position::from_notation(&format!("{board} {}", eggs.join(","))).expect("valid")
    }

    /// The root's mix over `cells` (0 for a cell left out).
    fn shares(outcome: &Outcome, cells: &[&str]) -> Vec<f64> {
        cells
            .iter()
            .map(|&name| {
                outcome
                    .strategy
                    .iter()
                    .find(|s| s.0 == cell(name))
                    .map_or(0.0, |s| s.1)
            })
            .collect()
    }

    #[test]
    fn the_threat_game_gives_one_guess_in_k() {
        // k disjoint winning cells (S2, S9): the defender blocks one only by picking
        // it too (S4). The matrix game of the turn is symmetric under the board's
        // symmetry, so its equilibrium is uniform over the k cells for both colours:
        // 1/2 each for two cells, 1/4 each for four. At 200 iterations the solved
        // threat games give it; sampled regrets alone are still far off.
        let limits = Limits::depth(1);
        for (p, cells) in [
            (k_threats(2), vec!["e1", "e9"]),
            (k_threats(4), vec!["e1", "e9", "i5", "a5"]),
        ] {
            let k = cells.len() as f64;
            for seed in 0..4 {
                for color in Color::ALL {
                    let settings = Settings {
                        threat_games: true,
                        ..bounded(200, Selection::RegretMatching)
                    };
                    let outcome =
                        search(&p, color, &settings, &limits, &mut Rng::new(seed)).expect("a pick");
                    assert!(outcome.solved_root, "{color:?} seed {seed}");
                    let got = shares(&outcome, &cells);
                    let total: f64 = got.iter().sum();
                    assert!(total > 0.99, "{color:?} {:?}", outcome.strategy);
                    for share in got {
                        assert!(
                            (share - 1.0 / k).abs() < 0.03,
                            "{color:?} seed {seed}: {:?}",
                            outcome.strategy
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn punishes_the_tactician_at_a_small_budget() {
        // Seeded and bounded by iterations, so the count is fixed: with threat games,
        // 6 of these 12 at 1,500 iterations (4 without), short of the 95 % the player
        // is meant to reach; the test keeps the count from falling.
        let settings = Settings {
            threat_games: true,
            ..bounded(1500, Selection::RegretMatching)
        };
        let wins = wins_against(12, &settings, crate::ai::shell::tactician::pick);
        eprintln!("{wins} wins of 12 against the tactician");
        assert!(wins >= 6, "{wins} wins of 12");
    }

    #[test]
    fn an_open_board_drops_the_unsettled_shares() {
        //    a b c d e f g h i
        // 3  . . . . . . O . .
        // 4  . . . . . X . . .
        // 5  . . . . X . O . .     white's open three e7-f6-g5 (d8 and h4 make it
        // 6  . . . X . O . . .     an open four), g3 and g5 a column g4 fills;
        // 7  . . X . O . . . .     black's c7-f4 blocked by the egg at b8 and by g3
        // 8  . E . . . . . . .
        //
        // A middle-game root from play (the bench against the tactician, where
        // black drew i3 from a 7 % share): at 25,000 iterations the search's mix
        // over h4, d8, c9 and i3 changes from seed to seed, its small shares are not
        // settled, and the played strategy keeps none of them.
        let p = position(
            &[
                ("g3", 'O'),
                ("f4", 'X'),
                ("e5", 'X'),
                ("g5", 'O'),
                ("d6", 'X'),
                ("f6", 'O'),
                ("c7", 'X'),
                ("e7", 'O'),
                ("b8", 'E'),
            ],
            "b8",
        );
        assert!(p.empty_cells().len() > OPEN_EMPTY);
        let open = bounded(25_000, Selection::RegretMatching);
        let mixed = Settings {
            open_threshold: 0.0,
            ..open
        };
        assert!((final_threshold(&p, &open) - OPEN_THRESHOLD).abs() < 1e-12);
        assert!((final_threshold(&p, &mixed) - THRESHOLD).abs() < 1e-12);
        // With an opponent model beside the search the open board's cut is kept for
        // the turns it predicts the opponent.
        let modelled = Settings {
            modelled: true,
            ..open
        };
        assert!((final_threshold(&p, &modelled) - THRESHOLD).abs() < 1e-12);
        let predicted = Settings {
            prediction: Some(Prediction {
                cell: cell("e6"),
                confidence: 0.9,
            }),
            ..modelled
        };
        assert!((final_threshold(&p, &predicted) - OPEN_THRESHOLD).abs() < 1e-12);
        let mut small_shares = 0;
        for seed in 0..4 {
            let limits = Limits::depth(1);
            let played = search(&p, Color::Black, &open, &limits, &mut Rng::new(seed))
                .expect("an ongoing game");
            let largest = played.strategy.iter().map(|s| s.1).fold(0.0, f64::max);
            let cut = OPEN_THRESHOLD.min(largest / 2.0);
            assert!(
                played.strategy.iter().all(|s| s.1 >= cut - 1e-9),
                "seed {seed}: {:?}",
                played.strategy
            );
            assert!(played.strategy.iter().any(|s| s.0 == played.cell));
            let unsettled = search(&p, Color::Black, &mixed, &limits, &mut Rng::new(seed))
                .expect("an ongoing game");
            small_shares += unsettled.strategy.iter().filter(|s| s.1 < 0.3).count();
        }
        // The same searches with the endgame's cut keep small shares.
        assert!(small_shares > 0);
        // Near the end (at most OPEN_EMPTY empty cells) the cut is the endgame's.
        let late = crowded(62, &[]);
        assert!(late.empty_cells().len() <= OPEN_EMPTY);
        assert!((final_threshold(&late, &open) - THRESHOLD).abs() < 1e-12);
        // With the open board's bound lowered to 8 empty cells, these 19 take the
        // open board's cut.
        let lowered = Settings {
            open_empty: 8,
            ..open
        };
        assert_eq!(late.empty_cells().len(), 19);
        assert!((final_threshold(&late, &lowered) - OPEN_THRESHOLD).abs() < 1e-12);
    }

    #[test]
    fn the_predicted_choice_weighs_the_prediction_and_the_regret_matched_draw() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        // Another cell drawn and kept: only the draw's share of the time.
        assert!(close(predicted_probability(3, 3, 0.5, 7, 0.6), 0.2));
        // The predicted cell drawn on its own: the prediction or the draw.
        assert!(close(predicted_probability(7, 7, 0.5, 7, 0.6), 0.8));
        // The prediction replaced another cell's draw.
        assert!(close(predicted_probability(7, 3, 0.5, 7, 0.6), 0.6));
        // Never zero: the regrets divide by it.
        assert!(predicted_probability(3, 3, 0.0, 7, 0.6) > 0.0);
    }

    #[test]
    fn contempt_values_a_full_board_draw_against_the_searcher() {
        // One empty cell: both colours must pick it, the collision lays an egg (S4),
        // the board is full and the game a draw (S9).
        let p = crowded(80, &[]);
        assert_eq!(p.empty_cells().len(), 1);
        assert!(!p.status().is_over());
        assert!((draw_value(Color::Black, 0.3) + 0.3).abs() < 1e-12);
        assert!((draw_value(Color::White, 0.3) - 0.3).abs() < 1e-12);
        for (draw, expected) in [(0.0, 0.0), (draw_value(Color::Black, 0.3), -0.3)] {
            let settings = bounded(50, Selection::RegretMatching);
            let mut tree = Tree::new(p, settings, 64, Rng::new(1), Buffers::default(), 0);
            tree.draw = draw;
            for _ in 0..50 {
                tree.iterate();
            }
            let child = tree.nodes.get(1).expect("the collision's child");
            assert!(child.position.status().is_over());
            assert_eq!(child.visits, 50);
            let mean = child.value / f64::from(child.visits);
            assert!((mean - expected).abs() < 1e-12, "{mean} against {expected}");
        }
    }

    #[test]
    fn blocks_a_lone_threat_every_time() {
        // White threatens f5 only; black cannot win and has no capture.
        let p = position(
            &[
                ("b5", 'O'),
                ("c5", 'O'),
                ("d5", 'O'),
                ("e5", 'O'),
                ("a5", 'X'),
                ("e7", 'X'),
            ],
            "-",
        );
        for selection in [Selection::RegretMatching, Selection::Uct] {
            let settings = bounded(400, selection);
            for seed in 0..10 {
                let limits = Limits::depth(1);
                let pick = search(&p, Color::Black, &settings, &limits, &mut Rng::new(seed))
                    .map(|o| o.cell);
                assert_eq!(pick, Some(cell("f5")), "{selection:?} seed {seed}");
            }
        }
    }

    #[test]
    fn same_seed_same_search_and_none_when_over() {
        let p = position(&[("e5", 'X'), ("d4", 'O'), ("f4", 'E')], "f4");
        for selection in [Selection::RegretMatching, Selection::Uct] {
            for threads in [1, 2] {
                let settings = Settings {
                    threads,
                    ..bounded(600, selection)
                };
                let run = |seed| {
                    search(
                        &p,
                        Color::White,
                        &settings,
                        &Limits::depth(1),
                        &mut Rng::new(seed),
                    )
                };
                let a = run(7).expect("a pick");
                assert_eq!(Some(&a), run(7).as_ref());
                assert_eq!(a.iterations, 600);
                // Storage kept from earlier searches (of another position, with
                // room reserved or not) changes nothing.
                for mut memory in [Memory::default(), Memory::new(threads, 1 << 12)] {
                    let other = position(&[("a1", 'X')], "-");
                    let limits = Limits::depth(1);
                    let earlier = search_in(
                        &other,
                        Color::Black,
                        &settings,
                        &limits,
                        &mut Rng::new(3),
                        &mut memory,
                    );
                    assert!(earlier.is_some());
                    let again = search_in(
                        &p,
                        Color::White,
                        &settings,
                        &limits,
                        &mut Rng::new(7),
                        &mut memory,
                    );
                    assert_eq!(again.as_ref(), Some(&a));
                }
            }
        }
        let won = won_by_black();
        let settings = bounded(100, Selection::RegretMatching);
        assert_eq!(
            search(
                &won,
                Color::White,
                &settings,
                &Limits::depth(1),
                &mut Rng::new(1)
            ),
            None
        );
    }

    #[test]
    fn picks_only_empty_cells_in_random_games() {
        for seed in 0..12u64 {
            let mut rng = Rng::new(seed);
            let mut p = Position::new();
            let selection = if seed % 2 == 0 {
                Selection::RegretMatching
            } else {
                Selection::Uct
            };
            let settings = Settings {
                max_nodes: 64,
                ..bounded(150, selection)
            };
            for _ in 0..60 {
                if p.status().is_over() {
                    break;
                }
                let limits = Limits::depth(1);
                let mine = search(&p, Color::Black, &settings, &limits, &mut rng)
                    .expect("a pick while the game goes on");
                assert!(p.is_empty(mine.cell), "{p:?} {}", mine.cell);
                let total: f64 = mine.strategy.iter().map(|s| s.1).sum();
                assert!((total - 1.0).abs() < 1e-9);
                let theirs = greedy::pick(&p, Color::White, &mut rng).expect("greedy pick");
                p.resolve_turn(mine.cell, theirs).expect("legal turn");
            }
        }
    }

    #[test]
    fn beats_the_greedy_player_more_often_than_not() {
        let settings = bounded(800, Selection::RegretMatching);
        let mut rng = Rng::new(2024);
        let mut score = 0.0;
        let games = 20;
        for game in 0..games {
            let me = if game % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let mut p = Position::new();
            for _ in 0..playout::MAX_TURNS {
                if p.status().is_over() {
                    break;
                }
                let limits = Limits::depth(1);
                let mine = search(&p, me, &settings, &limits, &mut rng).expect("a pick");
                let theirs = greedy::pick(&p, me.opponent(), &mut rng).expect("a pick");
                let (black, white) = if me == Color::Black {
                    (mine.cell, theirs)
                } else {
                    (theirs, mine.cell)
                };
                p.resolve_turn(black, white).expect("legal turn");
            }
            score += match p.status() {
                Status::BlackWins if me == Color::Black => 1.0,
                Status::WhiteWins if me == Color::White => 1.0,
                Status::BlackWins | Status::WhiteWins => 0.0,
                _ => 0.5,
            };
        }
        eprintln!("score against greedy: {score} / {games}");
        assert!(score >= 0.6 * f64::from(games), "{score} / {games}");
    }

    #[test]
    fn a_small_simultaneous_endgame_is_played_at_its_solved_equilibrium() {
        use crate::ai::shell::exact::{self, Exact};
        let settings = bounded(1000, Selection::RegretMatching);
        let mut checked = 0;
        for seed in 0..60 {
            let Some(p) = exact::tactician_position(seed, 10, 14) else {
                continue;
            };
            // Simultaneous within three turns, and not lost for white there.
            let mut probe = Exact::new(u64::MAX);
            probe.symmetric = false;
            let Some(shallow) = probe.equilibrium(&p, 3) else {
                continue;
            };
            let (lo, hi) = shallow.bounds;
            if hi <= lo || lo >= 1.0 {
                continue;
            }
            let mut rng = Rng::new(seed);
            let played =
                search(&p, Color::White, &settings, &Limits::depth(1), &mut rng).expect("a pick");
            assert!(played.solved_root && played.iterations == 0, "seed {seed}");
            // An exact equilibrium of the game cut at some depth the budget reaches.
            let exact_at = (3..=4).find(|&turns| {
                let mut reference = Exact::new(u64::MAX);
                reference.horizon = Some(turns);
                let solved = reference.root(&p).expect("solves");
                exact::exploitability(&solved, Color::White, &played.strategy) < 1e-7
            });
            assert!(exact_at.is_some(), "seed {seed}: {:?}", played.strategy);
            // Without the endgame the tree search answers.
            let off = Settings {
                endgame_empty: 0,
                ..settings
            };
            let searched =
                search(&p, Color::White, &off, &Limits::depth(1), &mut rng).expect("a pick");
            assert!(searched.iterations > 0, "seed {seed}");
            checked += 1;
            if checked == 2 {
                break;
            }
        }
        assert_eq!(checked, 2);
    }
}
