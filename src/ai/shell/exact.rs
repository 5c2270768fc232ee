//! An exact solver for What the Shell endgames, built for positions of 10 to 14
//! empty cells (on positions carried on from real play it finishes 4 empty cells
//! within its budget today: docs/shell-player.md): backward induction over the
//! simultaneous turns, each node's matrix game solved by *double
//! oracle* inside bounds from the *serialized* games (Bošanský, Lisý, Lanctot, Čermák,
//! Winands, AIJ 2016), with a transposition table over the board's symmetries.
//!
//! - **Serialized bounds.** Let one colour commit first and the other answer knowing
//!   the pick, at every turn: black committing first can only lose value, white
//!   committing first can only gain black value, so the two serialized games' values
//!   (plain alpha-beta over values −1, 0, 1) bound the simultaneous value from below
//!   and above. Where they meet, the node is solved without any matrix game. The
//!   first mover never wins a serialized game (the second can collide with its every
//!   pick), so each search's window closes at 0, and a shallower solve's best pick
//!   is tried first.
//! - **Double oracle.** Otherwise the node's matrix game is solved on a small
//!   restricted game, starting with each serialized game's first pick; each colour's
//!   best response to the other's restricted equilibrium is added, until neither
//!   improves on the restricted value. A best-response candidate is first bounded with
//!   its children's serialized bounds and skipped when even that bound cannot improve,
//!   so most children are never solved. Restricted games are solved exactly
//!   ([`super::lp`]).
//! - **Transpositions.** Exact values are remembered per position and turns left in
//!   a canonical form: the rules are the same under the board's eight symmetries and
//!   under exchanging the colours (black's value negates). Serialized bounds are
//!   remembered per exact position, turns left and first mover, with the first
//!   mover's best pick, tried first when the position comes back.
//! - **Line analysis** ([`reach`]): turtles that can never be captured block windows
//!   for good, and a colour with no window it can still fill in the turns left cannot
//!   win; where neither colour can, the node is a draw without search.
//!
//! Captures reopen cells, so a game need not end: the solved game is cut after the
//! root's empty cells plus [`EXTRA_DEPTH`] turns, an unfinished line there counting
//! as a draw; [`Stats::horizon`] counts the cut lines the solver met. Values are
//! black's: +1 a black win, −1 a white win, 0 a draw. Pure and deterministic: the same
//! position gives the same values, strategies and counts.

use std::collections::HashMap;

use super::candidates::{WINDOWS, capture_cells, five_holes, weighted_window_scores};
use super::greedy;
use super::last_turn::LastTurn;
use super::lp;
use super::matrix::Solution;
use super::playout;
use super::solver::Solved;
use super::tactician;
use crate::ai::key_hash::MixMap;
use crate::games::Color;
use crate::games::shell::cell::{BOARD, Dir};
use crate::games::shell::{Cell, Position};
use crate::rng::Rng;

/// Turns allowed beyond the root's empty cells before a line counts as a draw.
pub const EXTRA_DEPTH: u32 = 4;
/// Best-response gains at most this small count as none.
const EPS: f64 = 1e-9;

/// What a solve did, for measuring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes whose exact value was computed (not found in the table).
    pub exact_nodes: u64,
    /// Of those, the nodes whose serialized bounds met (no matrix game solved).
    pub bounds_met: u64,
    /// Serialized alpha-beta nodes searched.
    pub serial_nodes: u64,
    /// Restricted matrix games solved by linear programming.
    pub programs: u64,
    /// Exact child values a double-oracle node asked for (its matrix entries).
    pub entries: u64,
    /// Table hits (exact values and serialized bounds).
    pub hits: u64,
    /// Lines cut at the turn horizon (valued as draws).
    pub horizon: u64,
    /// Serialized nodes settled by the line analysis ([`reach`]) without a search.
    pub proven: u64,
    /// Nodes one turn from the cut valued by [`LastTurn`] (serialized or exact).
    pub last_turns: u64,
}

impl Stats {
    /// All nodes searched, the budget's measure.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.exact_nodes + self.serial_nodes + self.last_turns
    }
}

/// The eight symmetries of the square board, as cell permutations.
const SYMMETRIES: [[u8; 81]; 8] = {
    let mut all = [[0u8; 81]; 8];
    let mut s = 0;
    while s < 8 {
        let mut i = 0;
        while i < 81 {
            let (c, r) = (i % 9, i / 9);
            let (c, r) = if s & 4 != 0 { (r, c) } else { (c, r) };
            let c = if s & 1 != 0 { 8 - c } else { c };
            let r = if s & 2 != 0 { 8 - r } else { r };
            all[s][i] = (r * 9 + c) as u8;
            i += 1;
        }
        s += 1;
    }
    all
};

fn map_mask(mask: u128, perm: &[u8; 81]) -> u128 {
    let mut out = 0u128;
    let mut rest = mask;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out |= 1u128 << perm[i];
    }
    out
}

/// `position` under symmetry `perm`, the colours exchanged when `swap`.
fn transformed(position: &Position, perm: &[u8; 81], swap: bool) -> Position {
    let mut out = *position;
    let (black, white) = if swap {
        (position.white, position.black)
    } else {
        (position.black, position.white)
    };
    out.black = map_mask(black, perm);
    out.white = map_mask(white, perm);
    out.eggs = map_mask(position.eggs, perm);
    for (slot, cell) in out.queue.iter_mut().zip(position.eggs()) {
        *slot = Cell::from_index(usize::from(perm[cell.index()])).unwrap_or(*cell);
    }
    out
}

/// The canonical form of `position` (the least of its images under the symmetries,
/// and under exchanging colours when `symmetric`) and whether the colours were
/// exchanged to reach it.
fn canonical(position: &Position, symmetric: bool) -> (Position, bool) {
    if !symmetric {
        return (*position, false);
    }
    let order = |p: &Position| {
        (
            p.black,
            p.white,
            p.eggs().iter().map(|c| c.index()).collect::<Vec<_>>(),
        )
    };
    let mut best: Option<((u128, u128), bool, usize)> = None;
    let mut ties = Vec::new();
    for (s, perm) in SYMMETRIES.iter().enumerate() {
        for swap in [false, true] {
            let (b, w) = if swap {
                (position.white, position.black)
            } else {
                (position.black, position.white)
            };
            let pair = (map_mask(b, perm), map_mask(w, perm));
            match best {
                Some((p, _, _)) if pair > p => {}
                Some((p, _, _)) if pair == p => ties.push((swap, s)),
                _ => {
                    best = Some((pair, swap, s));
                    ties.clear();
                    ties.push((swap, s));
                }
            }
        }
    }
    let Some((_, swap, s)) = best else {
        return (*position, false);
    };
    if ties.len() == 1 {
        return (transformed(position, &SYMMETRIES[s], swap), swap);
    }
    // Same stones: the egg order decides (the least, then black's view first).
    let mut chosen = transformed(position, &SYMMETRIES[s], swap);
    let mut chosen_swap = swap;
    for &(swap, s) in &ties {
        let image = transformed(position, &SYMMETRIES[s], swap);
        if order(&image) < order(&chosen) || (order(&image) == order(&chosen) && !swap) {
            chosen = image;
            chosen_swap = swap;
        }
    }
    (chosen, chosen_swap)
}

/// The exact solver; keeps its tables from position to position.
pub struct Exact {
    exact: MixMap<(Position, u8), f64>,
    serial: MixMap<Key, Bound>,
    last: MixMap<Key, Last>,
    /// The last turn being valued, reused.
    last_turn: Box<LastTurn>,
    /// The key of the position `last_turn` holds.
    held: Option<Key>,
    /// What it did so far.
    pub stats: Stats,
    /// The most nodes ([`Stats::nodes`]) one solve may search before it gives up.
    budget: u64,
    /// The node count at which the current solve gives up.
    limit: u64,
    /// Set when the budget ran out: the answer is `None` and the tables are cleared.
    aborted: bool,
    /// Canonical forms under the symmetries and the colour exchange.
    pub symmetric: bool,
    /// Serialized bounds used (off: every node solved by double oracle alone).
    pub bounds: bool,
    /// Turns beyond the root's empty cells before a line is cut as a draw.
    pub extra: u32,
    /// When set, the turns from the root before a line is cut as a draw, in place of
    /// the root's empty cells plus [`Exact::extra`].
    pub horizon: Option<u32>,
    /// When set, a solve gives up at this instant as when its budget runs out.
    pub deadline: Option<std::time::Instant>,
    /// Per turns left, the answer that last refuted a first pick (a cell index,
    /// `u8::MAX` for none), tried first by the second mover.
    killers: [u8; 256],
}

impl Default for Exact {
    fn default() -> Exact {
        Exact::new(u64::MAX)
    }
}

/// Black's value of a finished position.
fn over_value(position: &Position) -> Option<f64> {
    position
        .status()
        .is_over()
        .then(|| playout::value(position.status()))
}

/// The position after black picks `black` and white `white`.
fn child(position: &Position, black: Cell, white: Cell) -> Position {
    let mut next = *position;
    // Both picks are empty cells of an ongoing position: the turn resolves.
    let _ = next.resolve_turn_quiet(black, white);
    next
}

/// A position's key in the serialized table, exact: the three masks, the egg order
/// (up to nine eggs packed exactly, seven bits each; more are hashed, with the top bit
/// set), the turns left and the first mover.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    black: u128,
    white: u128,
    eggs: u128,
    order: u64,
    turns: u8,
    first: u8,
}

impl Key {
    fn of(position: &Position, turns: u32, first: Color) -> Key {
        let eggs = position.eggs();
        let order = if eggs.len() <= 9 {
            eggs.iter()
                .fold(0u64, |o, c| (o << 7) | (c.index() as u64 + 1))
        } else {
            let h = eggs.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, c| {
                (h ^ (c.index() as u64 + 1)).wrapping_mul(0x0100_0000_01b3)
            });
            h | 1 << 63
        };
        Key {
            black: position.black,
            white: position.white,
            eggs: position.eggs,
            order,
            turns: turns.min(255) as u8,
            first: first.index() as u8,
        }
    }
}

/// A position one turn from the cut: its serialized values (black first, white first;
/// [`UNKNOWN`] until asked for) and its exact value (NaN until known).
#[derive(Clone, Copy)]
struct Last {
    lo: i8,
    hi: i8,
    value: f64,
}

/// A serialized value of [`Last`] not valued yet.
const UNKNOWN: i8 = i8::MIN;

/// A serialized value's bounds (`lo..=hi`, black's) and the first mover's best pick
/// (a cell index, `u8::MAX` for none).
#[derive(Clone, Copy)]
struct Bound {
    lo: i8,
    hi: i8,
    best: u8,
}

/// The empty cells of a position in the order a colour tries them: the table's best
/// pick, then cells completing its five, cells completing the opponent's (blocks), its
/// captures, the opponent's captures, then the rest; board order within each group.
struct Picks {
    cells: [Cell; 81],
    len: usize,
}

impl Picks {
    fn ordered(position: &Position, color: Color, hint: Option<Cell>) -> Picks {
        let occupied = position.occupied();
        let empty = BOARD & !occupied;
        let own = position.turtle_mask(color);
        let other = position.turtle_mask(color.opponent());
        let hint = hint.map_or(0, Cell::bit) & empty;
        let groups = [
            hint,
            five_holes(own, empty),
            five_holes(other, empty),
            capture_cells(own, occupied),
            capture_cells(other, occupied),
            empty,
        ];
        let mut picks = Picks {
            cells: [Cell::ALL[0]; 81],
            len: 0,
        };
        let mut left = empty;
        for group in groups {
            let mut rest = group & left;
            left &= !rest;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                picks.cells[picks.len] = Cell::ALL[i];
                picks.len += 1;
            }
        }
        picks
    }

    fn cells(&self) -> &[Cell] {
        &self.cells[..self.len]
    }
}

/// Of the turtles `mine`, those an opponent whose turtles are `theirs` might still
/// capture, with `mine` and `theirs` taken to stay on the board for good: a turtle is
/// safe when every four-cell segment holding it as a flanked cell (S5) either leaves
/// the board or can never make the pattern, because the other flanked cell is one of
/// `theirs` (flanked stones are never the capturer's), or an end is one of `mine` (the
/// ends must be the capturer's), or both ends are `theirs` (a capture needs a new
/// turtle at an end, and a turtle that stays is never new again).
fn exposed(mine: u128, theirs: u128) -> u128 {
    let mut out = 0u128;
    for dir in Dir::FORWARD {
        let back = dir.opposite();
        // a(m, k): the cells x with x + k·dir in m.
        let t1 = back.shift(theirs);
        let t2 = back.shift(t1);
        let t3 = back.shift(t2);
        let m3 = back.shift(back.shift(back.shift(mine)));
        let on_board = back.shift(back.shift(back.shift(BOARD)));
        let ends = mine | m3 | (theirs & t3);
        let open_first = on_board & !(ends | t2);
        let open_second = on_board & !(ends | t1);
        out |= dir.shift(open_first) | dir.shift(dir.shift(open_second));
    }
    out & mine
}

/// The turtles that can never be captured (black's, white's): the largest sets each of
/// whose turtles is safe ([`exposed`]) while the sets stay. Sound: before the first of
/// them left the board, all were there, and then none could be flanked.
fn stable(position: &Position) -> (u128, u128) {
    let (mut black, mut white) = (position.black, position.white);
    loop {
        let gone_black = exposed(black, white);
        let gone_white = exposed(white, black);
        if gone_black | gone_white == 0 {
            return (black, white);
        }
        black &= !gone_black;
        white &= !gone_white;
    }
}

/// Bounds on black's value (`lo`, `hi` in −1, 0, 1) of an ongoing `position` with
/// `turns` turns left, from the lines alone, true of the simultaneous game and of both
/// serialized ones. A colour can still win only through a five-cell window holding none
/// of the opponent's stable turtles ([`stable`]) in which it can get a turtle onto
/// every cell that holds neither its turtle nor an egg within the turns left: such a
/// cell gets its turtle only by the colour picking it (placing there, or colliding
/// there and hatching the egg later), and a colour picks one cell a turn, an empty
/// one: when every such cell holds an enemy turtle, none can be picked before a
/// capture has emptied it, so the first turn is lost to them. A colour that cannot
/// win leaves the other at least a draw.
fn reach(position: &Position, turns: u32) -> (i8, i8) {
    let (black, white) = stable(position);
    let eggs = position.eggs;
    let empty = BOARD & !position.occupied();
    let can_win = |own: u128, blockers: u128| {
        WINDOWS.iter().any(|&w| {
            let needed = w & !(own | eggs);
            // With no needed cell empty, the first turn's pick cannot fill one.
            let late = u32::from(needed != 0 && needed & empty == 0);
            w & blockers == 0 && needed.count_ones() + late <= turns
        })
    };
    let lo = if can_win(position.white, black) {
        -1
    } else {
        0
    };
    let hi = if can_win(position.black, white) { 1 } else { 0 };
    (lo, hi)
}

impl Exact {
    /// A solver that gives up after `budget` nodes per [`Exact::value`] or
    /// [`Exact::root`] call (`u64::MAX`: never).
    #[must_use]
    pub fn new(budget: u64) -> Exact {
        Exact {
            exact: MixMap::default(),
            serial: MixMap::default(),
            last: MixMap::default(),
            last_turn: Box::new(LastTurn::new(&Position::new())),
            held: None,
            stats: Stats::default(),
            budget,
            limit: u64::MAX,
            aborted: false,
            symmetric: false,
            bounds: true,
            extra: EXTRA_DEPTH,
            horizon: None,
            deadline: None,
            killers: [u8::MAX; 256],
        }
    }

    /// The turns a solve from `position` looks ahead before cutting a line as a draw.
    #[must_use]
    pub fn turns(&self, position: &Position) -> u32 {
        self.horizon
            .unwrap_or(position.empty_cells().len() + self.extra)
            .max(1)
    }

    fn spend(&mut self) {
        if self.stats.nodes() > self.limit {
            self.aborted = true;
        }
        if self.stats.nodes().is_multiple_of(256)
            && self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    /// Starts a solve: the budget counts from here.
    fn begin(&mut self) {
        self.aborted = false;
        self.limit = self.stats.nodes().saturating_add(self.budget);
    }

    /// Ends a solve: true when it finished within the budget; otherwise the tables,
    /// which may hold values cut short, are forgotten.
    fn finish(&mut self) -> bool {
        if self.aborted {
            self.forget();
            return false;
        }
        true
    }

    /// The serialized game's value (`first` commits, the other answers) with `turns`
    /// turns left, searched with the window `alpha..beta` (fail-soft, values −1, 0, 1),
    /// and the first mover's best pick (`None` when the value needed no search).
    fn serial(
        &mut self,
        position: &Position,
        turns: u32,
        first: Color,
        mut alpha: i8,
        mut beta: i8,
    ) -> (i8, Option<Cell>) {
        if let Some(v) = over_value(position) {
            return (v as i8, None);
        }
        if turns == 0 {
            self.stats.horizon += 1;
            return (0, None);
        }
        if self.aborted {
            return (0, None);
        }
        if turns == 1 {
            return (self.last_serial(position, first), None);
        }
        let (mut lo, mut hi) = reach(position, turns);
        if lo == hi {
            self.stats.proven += 1;
            return (lo, None);
        }
        // The first mover never wins: the second can collide with its every pick.
        if first == Color::Black {
            hi = hi.min(0);
        } else {
            lo = lo.max(0);
        }
        if lo == hi {
            return (lo, None);
        }
        let key = Key::of(position, turns, first);
        let mut hint = None;
        if let Some(entry) = self.serial.get(&key) {
            self.stats.hits += 1;
            lo = lo.max(entry.lo);
            hi = hi.min(entry.hi);
            hint = Cell::from_index(usize::from(entry.best));
        } else if let Some(entry) = self.serial.get(&Key {
            turns: key.turns - 1,
            ..key
        }) {
            // A shallower solve's best pick (iterative deepening) is tried first.
            hint = Cell::from_index(usize::from(entry.best));
        }
        // The other order bounds this one: black committing first is worth at most
        // what white committing first is, at every node.
        let other = Key {
            first: first.opponent().index() as u8,
            ..key
        };
        if let Some(entry) = self.serial.get(&other) {
            if first == Color::White {
                lo = lo.max(entry.lo);
            } else {
                hi = hi.min(entry.hi);
            }
        }
        if lo == hi || lo >= beta {
            return (lo, hint);
        }
        if hi <= alpha {
            return (hi, hint);
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        self.stats.serial_nodes += 1;
        self.spend();
        let second = first.opponent();
        let outer = Picks::ordered(position, first, hint);
        let killer = Cell::from_index(usize::from(self.killers[turns.min(255) as usize]));
        let inner = Picks::ordered(position, second, killer);
        // Black maximises: in black's view the first mover's best is the max over its
        // picks of the min over the answers; white's the min of the max.
        let maximise = first == Color::Black;
        let (a0, b0) = (alpha, beta);
        let mut best: i8 = if maximise { -2 } else { 2 };
        let mut best_pick = outer.cells().first().copied();
        for &i in outer.cells() {
            let mut answer: i8 = if maximise { 2 } else { -2 };
            for &j in inner.cells() {
                let (b, w) = if maximise { (i, j) } else { (j, i) };
                let next = child(position, b, w);
                let (window_lo, window_hi) = if maximise {
                    (alpha, beta.min(answer))
                } else {
                    (alpha.max(answer), beta)
                };
                let (v, _) = self.serial(&next, turns - 1, first, window_lo, window_hi);
                let refuted = if maximise {
                    answer = answer.min(v);
                    answer <= alpha
                } else {
                    answer = answer.max(v);
                    answer >= beta
                };
                if refuted {
                    self.killers[turns.min(255) as usize] = j.index() as u8;
                    break;
                }
            }
            let improves = if maximise {
                answer > best
            } else {
                answer < best
            };
            if improves {
                best = answer;
                best_pick = Some(i);
            }
            if maximise {
                alpha = alpha.max(best);
                if best >= beta {
                    break;
                }
            } else {
                beta = beta.min(best);
                if best <= alpha {
                    break;
                }
            }
        }
        if self.aborted {
            return (0, best_pick);
        }
        if best <= a0 {
            hi = hi.min(best);
        } else if best >= b0 {
            lo = lo.max(best);
        } else {
            (lo, hi) = (best, best);
        }
        let best_index = best_pick.map_or(u8::MAX, |c| c.index() as u8);
        self.serial.insert(
            key,
            Bound {
                lo,
                hi,
                best: best_index,
            },
        );
        (best, best_pick)
    }

    /// Bounds on black's simultaneous value of `position` with `turns` turns left:
    /// the black-first and white-first serialized values, and their best first picks.
    fn bounds_of(
        &mut self,
        position: &Position,
        turns: u32,
    ) -> (f64, f64, Option<Cell>, Option<Cell>) {
        if let Some(v) = over_value(position) {
            return (v, v, None, None);
        }
        if turns == 0 {
            return (0.0, 0.0, None, None);
        }
        if turns == 1 && self.bounds {
            let (lo, hi) = self.last_bounds(position);
            return (f64::from(lo), f64::from(hi), None, None);
        }
        if let Some(v) = self.lookup(position, turns) {
            return (v, v, None, None);
        }
        if !self.bounds {
            return (-1.0, 1.0, None, None);
        }
        let (lo, black_pick) = self.serial(position, turns, Color::Black, -1, 1);
        let (hi, white_pick) = self.serial(position, turns, Color::White, -1, 1);
        (f64::from(lo), f64::from(hi), black_pick, white_pick)
    }

    /// One end of [`Exact::bounds_of`]: the white-first serialized value when
    /// `upper`, else the black-first one.
    fn bound_of(&mut self, position: &Position, turns: u32, upper: bool) -> f64 {
        if let Some(v) = over_value(position) {
            return v;
        }
        if turns == 0 {
            return 0.0;
        }
        let first = if upper { Color::White } else { Color::Black };
        if self.bounds && turns == 1 {
            return f64::from(self.last_serial(position, first));
        }
        if let Some(v) = self.lookup(position, turns) {
            return v;
        }
        if !self.bounds {
            return if upper { 1.0 } else { -1.0 };
        }
        f64::from(self.serial(position, turns, first, -1, 1).0)
    }

    fn lookup(&mut self, position: &Position, turns: u32) -> Option<f64> {
        let (image, swap) = canonical(position, self.symmetric);
        let v = *self.exact.get(&(image, turns as u8))?;
        self.stats.hits += 1;
        Some(if swap { -v } else { v })
    }

    /// Black's exact value of `position` with `turns` turns left.
    fn value_at(&mut self, position: &Position, turns: u32) -> f64 {
        if let Some(v) = over_value(position) {
            return v;
        }
        if turns == 0 {
            self.stats.horizon += 1;
            return 0.0;
        }
        if self.aborted {
            return 0.0;
        }
        if turns == 1 {
            return self.last_turn(position);
        }
        let (lo, hi) = reach(position, turns);
        if lo == hi {
            self.stats.proven += 1;
            return f64::from(lo);
        }
        let (image, swap) = canonical(position, self.symmetric);
        let key = (image, turns as u8);
        if let Some(&v) = self.exact.get(&key) {
            self.stats.hits += 1;
            return if swap { -v } else { v };
        }
        self.stats.exact_nodes += 1;
        self.spend();
        let value = self.solve_node(position, turns);
        if !self.aborted {
            self.exact.insert(key, if swap { -value } else { value });
        }
        value
    }

    /// The serialized value of `position` with one turn left when `first` commits
    /// first ([`LastTurn`]), remembered; the other order is valued only when asked for.
    fn last_serial(&mut self, position: &Position, first: Color) -> i8 {
        let key = Key::of(position, 1, Color::Black);
        let mut entry = match self.last.get(&key) {
            Some(&entry) => {
                let known = if first == Color::Black {
                    entry.lo
                } else {
                    entry.hi
                };
                if known != UNKNOWN {
                    self.stats.hits += 1;
                    return known;
                }
                entry
            }
            None => {
                self.stats.last_turns += 1;
                Last {
                    lo: UNKNOWN,
                    hi: UNKNOWN,
                    value: f64::NAN,
                }
            }
        };
        // The first mover never wins: where it can keep the second from winning
        // (told without building the turn), it is a draw.
        let v = if LastTurn::held(position, first.opponent()) {
            0
        } else {
            self.hold(position, key);
            self.last_turn.serial(first)
        };
        if first == Color::Black {
            entry.lo = v;
        } else {
            entry.hi = v;
        }
        if entry.lo == entry.hi {
            entry.value = f64::from(v);
        }
        self.last.insert(key, entry);
        v
    }

    /// Makes the reused [`LastTurn`] that of `position` (with `key`) unless it is
    /// already.
    fn hold(&mut self, position: &Position, key: Key) {
        if self.held != Some(key) {
            self.last_turn.set(position);
            self.held = Some(key);
        }
    }

    /// The serialized values (black first, white first) of `position` with one turn
    /// left ([`LastTurn`]), remembered.
    fn last_bounds(&mut self, position: &Position) -> (i8, i8) {
        (
            self.last_serial(position, Color::Black),
            self.last_serial(position, Color::White),
        )
    }

    /// Black's exact value of `position` with one turn left ([`LastTurn`]): the
    /// serialized values where they meet, else the matrix game of the joint picks.
    fn last_turn(&mut self, position: &Position) -> f64 {
        self.last_bounds(position);
        let key = Key::of(position, 1, Color::Black);
        let Some(&entry) = self.last.get(&key) else {
            return 0.0;
        };
        if !entry.value.is_nan() {
            return entry.value;
        }
        self.hold(position, key);
        let cells: Vec<Cell> = position.empty_cells().iter().collect();
        let (value, programs) = self.last_turn.solve(&cells);
        self.stats.programs += programs;
        self.last.insert(key, Last { value, ..entry });
        value
    }

    /// Double oracle at one node, inside its serialized bounds.
    fn solve_node(&mut self, position: &Position, turns: u32) -> f64 {
        let (lo, hi, black_pick, white_pick) = self.bounds_of(position, turns);
        if hi - lo <= EPS {
            self.stats.bounds_met += 1;
            return lo;
        }
        let cells: Vec<Cell> = position.empty_cells().iter().collect();
        let mut node = Node::new(self, position, &cells, turns);
        let n = cells.len();
        let index = |pick: Option<Cell>| {
            pick.and_then(|c| cells.iter().position(|&x| x == c))
                .unwrap_or(0)
        };
        let start = (index(black_pick), index(white_pick));
        let (solution, programs) = double_oracle(&mut node, n, n, start);
        self.stats.programs += programs;
        solution.value.clamp(lo, hi)
    }

    /// An equilibrium of `position`'s game cut `turns` turns ahead: black's value and
    /// both colours' strategies (cells with their shares), found by double oracle at
    /// the root (pure when the serialized bounds meet: each colour's serialized first
    /// pick then holds the value). `None` when the game is over or the budget or the
    /// deadline runs out first; unlike [`Exact::value`] the tables are kept then (every
    /// value in them was finished before the solve stopped), so a solve that follows,
    /// deeper or from a later position, starts from them.
    pub fn equilibrium(&mut self, position: &Position, turns: u32) -> Option<Equilibrium> {
        if position.status().is_over() || turns == 0 {
            return None;
        }
        self.begin();
        let cells: Vec<Cell> = position.empty_cells().iter().collect();
        let n = cells.len();
        let (lo, hi, black_pick, white_pick) = self.bounds_of(position, turns);
        let index = |pick: Option<Cell>| {
            pick.and_then(|c| cells.iter().position(|&x| x == c))
                .unwrap_or(0)
        };
        let start = (index(black_pick), index(white_pick));
        let solution = if hi - lo <= EPS && black_pick.is_some() && white_pick.is_some() {
            let pure = |k: usize| (0..n).map(|i| f64::from(u8::from(i == k))).collect();
            Solution {
                rows: pure(start.0),
                cols: pure(start.1),
                value: lo,
            }
        } else {
            let mut node = Node::new(self, position, &cells, turns);
            let (solution, programs) = double_oracle(&mut node, n, n, start);
            self.stats.programs += programs;
            solution
        };
        if self.aborted {
            self.aborted = false;
            return None;
        }
        let mix = |shares: &[f64]| {
            cells
                .iter()
                .copied()
                .zip(shares.iter().copied())
                .filter(|m| m.1 > 0.0)
                .collect()
        };
        Some(Equilibrium {
            bounds: (lo, hi),
            value: solution.value.clamp(lo, hi),
            black: mix(&solution.rows),
            white: mix(&solution.cols),
        })
    }

    /// Sets the nodes one solve may search before it gives up.
    pub fn set_budget(&mut self, nodes: u64) {
        self.budget = nodes;
    }

    /// Positions remembered in the tables (exact values and serialized bounds).
    #[must_use]
    pub fn remembered(&self) -> usize {
        self.exact.len() + self.serial.len() + self.last.len()
    }

    /// Forgets every remembered value.
    pub fn forget(&mut self) {
        self.exact.clear();
        self.serial.clear();
        self.last.clear();
    }

    /// Black's exact value of `position` (the game cut at its empty cells plus
    /// [`EXTRA_DEPTH`] turns), `None` when the budget runs out.
    pub fn value(&mut self, position: &Position) -> Option<f64> {
        let turns = self.turns(position);
        self.begin();
        let v = self.value_at(position, turns);
        self.finish().then_some(v)
    }

    /// The root of `position` with the exact value of every joint pick's successor and
    /// the matrix game solved exactly. `None` when the game is over or the budget runs
    /// out.
    pub fn root(&mut self, position: &Position) -> Option<Solved> {
        if position.status().is_over() {
            return None;
        }
        let cells: Vec<Cell> = position.empty_cells().iter().collect();
        let turns = self.turns(position);
        self.begin();
        let mut matrix = Vec::with_capacity(cells.len() * cells.len());
        for &b in &cells {
            for &w in &cells {
                let next = child(position, b, w);
                matrix.push(self.value_at(&next, turns - 1));
            }
        }
        if !self.finish() {
            return None;
        }
        let solution = lp::solve(&matrix, cells.len(), cells.len());
        Some(Solved {
            cells,
            matrix,
            solution,
        })
    }

    /// The serialized bounds of `position` (black first, white first) with the same
    /// turn horizon as [`Exact::value`].
    pub fn serialized_bounds(&mut self, position: &Position) -> Option<(f64, f64)> {
        let turns = self.turns(position);
        self.begin();
        let (lo, _) = self.serial(position, turns, Color::Black, -1, 1);
        let (hi, _) = self.serial(position, turns, Color::White, -1, 1);
        self.finish().then_some((f64::from(lo), f64::from(hi)))
    }
}

/// A solved root: black's value and an equilibrium strategy of each colour.
#[derive(Clone, Debug, PartialEq)]
pub struct Equilibrium {
    /// The serialized values, black committing first and white committing first.
    pub bounds: (f64, f64),
    /// Black's value.
    pub value: f64,
    /// Black's strategy: cells with positive shares.
    pub black: Vec<(Cell, f64)>,
    /// White's strategy.
    pub white: Vec<(Cell, f64)>,
}

/// The entries of a matrix game as double oracle sees them: exact values, computed
/// on demand, and cheaper bounds on them.
pub trait Entries {
    /// The exact value of row `i`, column `j`.
    fn exact(&mut self, i: usize, j: usize) -> f64;
    /// An upper bound on that value when `upper`, else a lower one.
    fn bound(&mut self, i: usize, j: usize, upper: bool) -> f64;
    /// True when the work must stop (the answer will be discarded).
    fn stopped(&self) -> bool {
        false
    }
}

/// One node's children as matrix entries.
struct Node<'a, 'p> {
    solver: &'a mut Exact,
    position: &'p Position,
    cells: &'p [Cell],
    turns: u32,
    /// The children resolved so far, by entry (row · cells + column).
    children: Vec<Option<Position>>,
}

impl<'a, 'p> Node<'a, 'p> {
    fn new(solver: &'a mut Exact, position: &'p Position, cells: &'p [Cell], turns: u32) -> Self {
        Node {
            solver,
            position,
            cells,
            turns,
            children: vec![None; cells.len() * cells.len()],
        }
    }

    /// The position after row `i`'s and column `j`'s picks, resolved once.
    fn child(&mut self, i: usize, j: usize) -> Position {
        let (position, cells) = (self.position, self.cells);
        *self.children[i * cells.len() + j]
            .get_or_insert_with(|| child(position, cells[i], cells[j]))
    }
}

impl Entries for Node<'_, '_> {
    fn exact(&mut self, i: usize, j: usize) -> f64 {
        self.solver.stats.entries += 1;
        let next = self.child(i, j);
        self.solver.value_at(&next, self.turns - 1)
    }

    fn bound(&mut self, i: usize, j: usize, upper: bool) -> f64 {
        let next = self.child(i, j);
        self.solver.bound_of(&next, self.turns - 1, upper)
    }

    fn stopped(&self) -> bool {
        self.solver.aborted
    }
}

/// Solves the `rows × cols` game of `game` by double oracle from the restricted game
/// `start` (one row, one column): solve the restricted game exactly, add each side's
/// best response to the other's restricted equilibrium when it improves on the
/// restricted value, until neither does. A candidate response is first valued with
/// the entries' bounds (its optimistic end) and dropped when even that cannot improve;
/// its exact entries are asked for, most probable first, only while it still might.
/// Returns the solution (strategies over all rows and columns) and the number of
/// restricted games solved.
pub fn double_oracle(
    game: &mut impl Entries,
    rows: usize,
    cols: usize,
    start: (usize, usize),
) -> (Solution, u64) {
    double_oracle_from(game, rows, cols, &[start.0], &[start.1])
}

/// [`double_oracle`] from a restricted game of several rows and columns (each set
/// not empty; indices past the end are taken as the last).
pub fn double_oracle_from(
    game: &mut impl Entries,
    rows: usize,
    cols: usize,
    start_rows: &[usize],
    start_cols: &[usize],
) -> (Solution, u64) {
    let mut exact: Vec<Option<f64>> = vec![None; rows * cols];
    let mut bounds: Vec<(Option<f64>, Option<f64>)> = vec![(None, None); rows * cols];
    let (mut in_rows, mut in_cols) = (vec![false; rows], vec![false; cols]);
    let taken = |set: &[usize], len: usize, seen: &mut [bool]| {
        let mut out = Vec::with_capacity(len);
        for &k in set {
            let k = k.min(len.saturating_sub(1));
            if !seen[k] {
                seen[k] = true;
                out.push(k);
            }
        }
        out
    };
    let mut row_set = taken(start_rows, rows, &mut in_rows);
    let mut col_set = taken(start_cols, cols, &mut in_cols);
    let mut restricted = Vec::with_capacity(rows * cols);
    let mut col_mix: Vec<(usize, f64)> = Vec::with_capacity(cols);
    let mut row_mix: Vec<(usize, f64)> = Vec::with_capacity(rows);
    let mut scratch = vec![0.0; rows.max(cols)];
    let mut programs = 0;
    loop {
        restricted.clear();
        for &i in &row_set {
            for &j in &col_set {
                let k = i * cols + j;
                let v = match exact[k] {
                    Some(v) => v,
                    None => {
                        let v = game.exact(i, j);
                        exact[k] = Some(v);
                        v
                    }
                };
                restricted.push(v);
            }
        }
        programs += 1;
        let solution = lp::solve(&restricted, row_set.len(), col_set.len());
        let v = solution.value;
        // Each mix most probable first: those entries move an estimate most.
        let mix = |set: &[usize], shares: &[f64], out: &mut Vec<(usize, f64)>| {
            out.clear();
            out.extend(
                set.iter()
                    .copied()
                    .zip(shares.iter().copied())
                    .filter(|m| m.1 > 0.0),
            );
            out.sort_by(|a, b| b.1.total_cmp(&a.1));
        };
        mix(&col_set, &solution.cols, &mut col_mix);
        mix(&row_set, &solution.rows, &mut row_mix);
        let mut scan = Scan {
            cols,
            exact: &mut exact,
            bounds: &mut bounds,
            optimistic: &mut scratch,
        };
        let best_row = scan.best(game, &in_rows, &col_mix, v + EPS, true, |i, j| i * cols + j);
        let best_col = scan.best(game, &in_cols, &row_mix, v - EPS, false, |j, i| {
            i * cols + j
        });
        // A stopped solve ends here too: its answer is discarded.
        if best_row.is_none() && best_col.is_none() || game.stopped() {
            let full = |set: &[usize], mix: &[f64], len: usize| {
                let mut all = vec![0.0; len];
                for (&i, &p) in set.iter().zip(mix) {
                    all[i] = p;
                }
                all
            };
            let (r, c) = (
                full(&row_set, &solution.rows, rows),
                full(&col_set, &solution.cols, cols),
            );
            return (
                Solution {
                    rows: r,
                    cols: c,
                    value: v,
                },
                programs,
            );
        }
        if let Some(i) = best_row {
            row_set.push(i);
            in_rows[i] = true;
        }
        if let Some(j) = best_col {
            col_set.push(j);
            in_cols[j] = true;
        }
    }
}

/// Double oracle's tables during one solve: the known entries, their bounds, and
/// scratch room for one candidate's optimistic entries.
struct Scan<'t> {
    cols: usize,
    exact: &'t mut [Option<f64>],
    bounds: &'t mut [(Option<f64>, Option<f64>)],
    optimistic: &'t mut [f64],
}

impl Scan<'_> {
    /// The best response outside the restricted game (`taken`) to the other side's
    /// `mix` (its picks with their shares, most probable first) when it beats
    /// `best` (more for the rows, `maximise`; less for the columns); `at` gives the
    /// entry index of a candidate against one of the other side's picks.
    fn best(
        &mut self,
        game: &mut impl Entries,
        taken: &[bool],
        mix: &[(usize, f64)],
        mut best: f64,
        maximise: bool,
        at: impl Fn(usize, usize) -> usize,
    ) -> Option<usize> {
        let mut found = None;
        for candidate in (0..taken.len()).filter(|&c| !taken[c]) {
            if let Some(u) = self.response(game, mix, |other| at(candidate, other), best, maximise)
            {
                best = u;
                found = Some(candidate);
            }
        }
        found
    }

    /// Whether one pick beats `best` against the other side's `mix`, its entries
    /// at `at`: its expected value if it does, `None` otherwise. Each entry is first
    /// taken at its optimistic end (exact when known, else its bound); the exact
    /// values are asked for, most probable first, only while the pick still might.
    fn response(
        &mut self,
        game: &mut impl Entries,
        mix: &[(usize, f64)],
        at: impl Fn(usize) -> usize,
        best: f64,
        maximise: bool,
    ) -> Option<f64> {
        let cols = self.cols;
        let mut estimate = 0.0;
        for (m, &(other, p)) in mix.iter().enumerate() {
            let k = at(other);
            let o = match self.exact[k] {
                Some(v) => v,
                None => {
                    let end = if maximise {
                        &mut self.bounds[k].1
                    } else {
                        &mut self.bounds[k].0
                    };
                    let b = *end.get_or_insert_with(|| game.bound(k / cols, k % cols, maximise));
                    if let (Some(lo), Some(hi)) = self.bounds[k]
                        && hi - lo <= EPS
                    {
                        self.exact[k] = Some(lo);
                    }
                    b
                }
            };
            self.optimistic[m] = o;
            estimate += p * o;
        }
        let beats = |u: f64| if maximise { u > best } else { u < best };
        if !beats(estimate) {
            return None;
        }
        for (m, &(other, p)) in mix.iter().enumerate() {
            let k = at(other);
            let v = match self.exact[k] {
                Some(v) => v,
                None => {
                    let v = game.exact(k / cols, k % cols);
                    self.exact[k] = Some(v);
                    v
                }
            };
            estimate += p * (v - self.optimistic[m]);
            if !beats(estimate) {
                return None;
            }
        }
        Some(estimate)
    }
}

/// Plain backward induction, the reference: every node's full matrix of exact child
/// values solved by linear programming, no bounds, no symmetry; lines cut as draws
/// after the empty cells plus `extra` turns, as [`Exact`] with the same `extra`.
/// `None` after `budget` nodes.
#[must_use]
pub fn brute_force(position: &Position, extra: u32, budget: u64) -> Option<f64> {
    type Memo = HashMap<(Position, u32), f64>;
    fn value(p: &Position, turns: u32, memo: &mut Memo, budget: &mut u64) -> Option<f64> {
        if let Some(v) = over_value(p) {
            return Some(v);
        }
        if turns == 0 {
            return Some(0.0);
        }
        if let Some(&v) = memo.get(&(*p, turns)) {
            return Some(v);
        }
        *budget = budget.checked_sub(1)?;
        let cells: Vec<Cell> = p.empty_cells().iter().collect();
        let mut m = Vec::with_capacity(cells.len() * cells.len());
        for &b in &cells {
            for &w in &cells {
                m.push(value(&child(p, b, w), turns - 1, memo, budget)?);
            }
        }
        let v = lp::solve(&m, cells.len(), cells.len()).value;
        memo.insert((*p, turns), v);
        Some(v)
    }
    let turns = position.empty_cells().len() + extra;
    value(position, turns, &mut HashMap::new(), &mut { budget })
}

/// Empty cells at which the sampling games stop playing to win and start defending.
pub const DEFEND_FROM: u32 = 36;

/// The defender's weights on the opponent's five-cell windows holding 0–4 of its
/// turtles (its own windows weigh nothing).
const DEFENCE: [i32; 5] = [0, 1, 10, 100, 1000];

/// A defender's pick: the cell that blocks the most opponent line windows, weighted
/// steeply by the turtles already in them (ties drawn at random). It never plays for
/// its own lines, so two defenders fill the board far beyond where real games end.
fn defend(position: &Position, color: Color, rng: &mut Rng) -> Option<Cell> {
    let scores = weighted_window_scores(position, color, &[0; 5], &DEFENCE);
    let empty: Vec<Cell> = position.empty_cells().iter().collect();
    let top = empty.iter().map(|c| scores[c.index()]).max()?;
    let best: Vec<Cell> = empty
        .into_iter()
        .filter(|c| scores[c.index()] == top)
        .collect();
    rng.choose(&best).copied()
}

/// The position of sampling game `seed` at the first turn with at most `max_empty`
/// empty cells, if the game gets there still ongoing with at least `min_empty`. The
/// game is played from the empty board by the greedy player on both sides (win, block,
/// capture, else near the stones) down to [`DEFEND_FROM`] empty cells, then by two
/// [`defend`]ers: real games end with 20 or more empty cells, and the defenders carry
/// a real middle game on into the endgame with every rule at work (captures reopen
/// cells, collisions lay eggs, captures hatch them), unlike random fillings.
#[must_use]
pub fn played_position(seed: u64, min_empty: u32, max_empty: u32) -> Option<Position> {
    sampled(seed, min_empty, max_empty, |position, _, rng| {
        if position.empty_cells().len() > DEFEND_FROM {
            Some((
                greedy::pick(position, Color::Black, rng)?,
                greedy::pick(position, Color::White, rng)?,
            ))
        } else {
            Some((
                defend(position, Color::Black, rng)?,
                defend(position, Color::White, rng)?,
            ))
        }
    })
}

/// The position of tactician game `seed` at the first turn with at most `max_empty`
/// empty cells, if the game gets there still ongoing with at least `min_empty`: three
/// random picks a side, then the tactician ([`super::tactician`], alpha-beta with
/// threat-space search) on both sides. Two players who block every line they see
/// reach 10–14 empty cells in about half their games, with threats still on the board
/// and many eggs.
#[must_use]
pub fn tactician_position(seed: u64, min_empty: u32, max_empty: u32) -> Option<Position> {
    sampled(seed, min_empty, max_empty, |position, turn, rng| {
        if turn < 3 {
            let empty: Vec<Cell> = position.empty_cells().iter().collect();
            Some((*rng.choose(&empty)?, *rng.choose(&empty)?))
        } else {
            Some((
                tactician::pick(position, Color::Black)?,
                tactician::pick(position, Color::White)?,
            ))
        }
    })
}

/// Game `seed` from the empty board, each turn's picks from `picks` (the position,
/// the turn, the game's generator), at the first turn with at most `max_empty` empty
/// cells, if it gets there ongoing with at least `min_empty`.
fn sampled(
    seed: u64,
    min_empty: u32,
    max_empty: u32,
    mut picks: impl FnMut(&Position, u32, &mut Rng) -> Option<(Cell, Cell)>,
) -> Option<Position> {
    let mut rng = Rng::new(seed);
    let mut position = Position::new();
    for turn in 0..2 * playout::MAX_TURNS {
        if position.status().is_over() {
            return None;
        }
        let empty = position.empty_cells().len();
        if empty <= max_empty {
            return (empty >= min_empty).then_some(position);
        }
        let (black, white) = picks(&position, turn, &mut rng)?;
        position.resolve_turn_quiet(black, white).ok()?;
    }
    None
}

/// Where the exploitability set's endgames come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampler {
    /// [`played_position`]: greedy play, then two defenders.
    Defenders,
    /// [`tactician_position`]: the tactician on both sides.
    Tactician,
}

impl Sampler {
    /// The names `--solve-sampler` takes.
    pub const NAMES: [&'static str; 2] = ["defenders", "tactician"];

    /// The sampler of a name in [`Sampler::NAMES`].
    #[must_use]
    pub fn from_name(name: &str) -> Option<Sampler> {
        match name {
            "defenders" => Some(Sampler::Defenders),
            "tactician" => Some(Sampler::Tactician),
            _ => None,
        }
    }

    /// Its name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Sampler::Defenders => "defenders",
            Sampler::Tactician => "tactician",
        }
    }

    /// Game `seed`'s first position with `min_empty..=max_empty` empty cells.
    #[must_use]
    pub fn position(self, seed: u64, min_empty: u32, max_empty: u32) -> Option<Position> {
        match self {
            Sampler::Defenders => played_position(seed, min_empty, max_empty),
            Sampler::Tactician => tactician_position(seed, min_empty, max_empty),
        }
    }
}

/// A fixed set of `count` endgames with `min_empty..=max_empty` empty cells from the
/// sampling games (seeds 0, 1, …, the same set every time) whose root is a genuine
/// simultaneous game (the serialized bounds differ) and which `solver` solves within
/// its budget, each with its solved root, the solver's counts and seconds.
pub fn solved_set(
    solver: &mut Exact,
    sampler: Sampler,
    count: usize,
    min_empty: u32,
    max_empty: u32,
    seeds: u64,
) -> Vec<(u64, Position, Solved, Stats, f64)> {
    let mut set = Vec::new();
    for seed in 0..seeds {
        if set.len() >= count {
            break;
        }
        let Some(position) = sampler.position(seed, min_empty, max_empty) else {
            continue;
        };
        let started = std::time::Instant::now();
        let before = solver.stats;
        let Some((lo, hi)) = solver.serialized_bounds(&position) else {
            continue;
        };
        if hi - lo <= EPS {
            continue;
        }
        if let Some(solved) = solver.root(&position) {
            let mut stats = solver.stats;
            stats.exact_nodes -= before.exact_nodes;
            stats.bounds_met -= before.bounds_met;
            stats.serial_nodes -= before.serial_nodes;
            stats.programs -= before.programs;
            stats.entries -= before.entries;
            stats.hits -= before.hits;
            stats.horizon -= before.horizon;
            stats.proven -= before.proven;
            stats.last_turns -= before.last_turns;
            set.push((
                seed,
                position,
                solved,
                stats,
                started.elapsed().as_secs_f64(),
            ));
        }
    }
    set
}

/// The exploitability of `strategy` (cells with their shares) played by `color` at
/// the solved root, as a share of the value range (−1..1): the root's value `v*` minus
/// the value a best-responding opponent gets against it, in black's view for black
/// (and white's for white), over 2.
#[must_use]
pub fn exploitability(solved: &Solved, color: Color, strategy: &[(Cell, f64)]) -> f64 {
    solved.exploitability(color.index(), strategy) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::shell::matrix;
    use crate::ai::shell::testing::crowded;

    /// Whether some joint pick at `position` captures, and whether some hatches an
    /// egg (a capture claiming an egg that stays as a turtle).
    fn rules_at_work(position: &Position) -> (bool, bool) {
        let cells: Vec<Cell> = position.empty_cells().iter().collect();
        let (mut captures, mut hatches) = (false, false);
        for &b in &cells {
            for &w in &cells {
                let mut next = *position;
                let Ok(report) = next.resolve_turn(b, w) else {
                    continue;
                };
                for step in report.steps() {
                    if step.captures(Color::Black) + step.captures(Color::White) > 0 {
                        captures = true;
                    }
                    if !(step.hatched(Color::Black).is_empty()
                        && step.hatched(Color::White).is_empty())
                    {
                        hatches = true;
                    }
                }
            }
        }
        (captures, hatches)
    }

    /// Small endgames from the sampling games, some with captures and hatching among
    /// the root's joint picks (checked: the test needs them).
    fn small_endgames(empty: u32, count: usize) -> Vec<Position> {
        let mut found = Vec::new();
        let (mut captures, mut hatches) = (false, false);
        for seed in 0..400 {
            let Some(p) = played_position(seed, empty, empty) else {
                continue;
            };
            let (c, h) = rules_at_work(&p);
            if found.len() < count || (c && !captures) || (h && !hatches) {
                captures |= c;
                hatches |= h;
                found.push(p);
            }
            if found.len() >= count && captures && hatches {
                break;
            }
        }
        assert!(
            captures && hatches,
            "no capture or no hatching among {found:?}"
        );
        found
    }

    #[test]
    fn agrees_with_brute_force_on_small_endgames() {
        // The same game for both: lines cut as draws one turn past the empty cells.
        let mut checked = 0;
        for p in small_endgames(4, 8) {
            let Some(reference) = brute_force(&p, 1, 200_000) else {
                continue;
            };
            checked += 1;
            for (symmetric, bounds) in [(true, true), (false, true), (true, false)] {
                let mut solver = Exact {
                    symmetric,
                    bounds,
                    extra: 1,
                    ..Exact::default()
                };
                let v = solver.value(&p).expect("no budget");
                assert!(
                    (v - reference).abs() < 1e-9,
                    "{p:?}: {v} against {reference}"
                );
                let root = solver.root(&p).expect("no budget");
                assert!((root.solution.value - reference).abs() < 1e-9, "{p:?}");
            }
        }
        assert!(
            checked >= 4,
            "{checked} endgames within the brute force's budget"
        );
    }

    /// How far the solver reaches (run by hand: `SURVEY=sampler,empties,count,budget,
    /// extra cargo test --lib exact::tests::survey -- --ignored --nocapture`, the
    /// sampler `d` for [`played_position`] or `t` for [`tactician_position`], the empty
    /// counts separated by `/`, `SURVEY_BOUNDS` to stop at the serialized bounds):
    /// for each empty count, how many of the first `count` sampled roots with exactly
    /// that many empty cells solve within `budget` nodes, and the nodes each took.
    #[test]
    #[ignore = "a measurement, run by hand"]
    fn survey() {
        let spec = std::env::var("SURVEY").unwrap_or_else(|_| "d,4/5,4,1000000,4".into());
        let f: Vec<&str> = spec.split(',').collect();
        assert_eq!(f.len(), 5, "SURVEY=sampler,empties,count,budget,extra");
        let tactician = f[0] == "t";
        let empties: Vec<u32> = f[1].split('/').filter_map(|x| x.parse().ok()).collect();
        let (count, budget, extra): (usize, u64, u32) = (
            f[2].parse().expect("a count"),
            f[3].parse().expect("a budget"),
            f[4].parse().expect("turns past the empty cells"),
        );
        let bounds_only = std::env::var("SURVEY_BOUNDS").is_ok();
        for empty in empties {
            let (mut tried, mut solved, mut nodes) = (0, 0, 0u64);
            let mut line = String::new();
            for seed in 0..400 {
                if tried >= count {
                    break;
                }
                let sampled = if tactician {
                    tactician_position(seed, empty, empty)
                } else {
                    played_position(seed, empty, empty)
                };
                let Some(p) = sampled else { continue };
                tried += 1;
                let mut solver = Exact {
                    extra,
                    ..Exact::new(budget)
                };
                let value = if bounds_only {
                    solver
                        .serialized_bounds(&p)
                        .map(|(lo, hi)| format!("{lo}..{hi}"))
                } else {
                    solver.root(&p).map(|r| format!("{:+.3}", r.solution.value))
                };
                let n = solver.stats.nodes();
                match value {
                    Some(v) => {
                        solved += 1;
                        nodes += n;
                        line += &format!(" seed {seed}: {n} ({v});");
                    }
                    None => line += &format!(" seed {seed}: out;"),
                }
            }
            println!("empty {empty}: {solved} of {tried} within {budget}, {nodes} nodes;{line}");
        }
    }

    fn mask(names: &[&str]) -> u128 {
        names
            .iter()
            .filter_map(|n| Cell::parse(n))
            .fold(0, |m, c| m | c.bit())
    }

    #[test]
    fn stable_turtles_and_reachable_windows() {
        // White b1 c1 between black a1 and the empty d1: black's d1 captures them. The
        // corner a1 is never a flanked cell.
        let mut p = Position::new();
        p.black = mask(&["a1"]);
        p.white = mask(&["b1", "c1"]);
        assert_eq!(stable(&p), (mask(&["a1"]), 0));
        // With d1 white, b1's only segment (a1-d1, the top edge leaves no other) ends
        // in a white turtle and can never flank; c1 and d1 likewise.
        p.white = mask(&["b1", "c1", "d1"]);
        assert_eq!(stable(&p).1, p.white);
        // Down a column: black b1, white b2 b3, b4 empty: black's b4 would capture.
        let mut c = Position::new();
        c.black = mask(&["b1"]);
        c.white = mask(&["b2", "b3"]);
        assert_eq!(exposed(c.white, c.black), c.white);
        c.white |= mask(&["b4"]);
        assert_eq!(exposed(c.white, c.black) & mask(&["b2"]), mask(&["b2"]));
        // A full row of white on the edge: every segment flanking one of them ends in
        // another.
        let mut q = Position::new();
        q.white = mask(&["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1"]);
        assert_eq!(stable(&q).1, q.white);
        // The empty board: five picks make a five, four cannot.
        assert_eq!(reach(&Position::new(), 4), (0, 0));
        assert_eq!(reach(&Position::new(), 5), (-1, 1));
        // Four black in a row, white none: black needs one pick, white five.
        let mut r = Position::new();
        r.black = mask(&["a5", "b5", "c5", "d5"]);
        assert_eq!(reach(&r, 1), (0, 1));
        // An egg counts as a cell that may hatch without a pick.
        r.black = mask(&["a5", "b5", "c5"]);
        assert_eq!(reach(&r, 1), (0, 0));
        r.lay_egg(Cell::parse("d5").expect("a cell"));
        assert_eq!(reach(&r, 1), (0, 1));
        // Black a5-d5 up to white e5, which black could capture (e5 e6 between the
        // empty e4 and e7): black must first capture it, then place there, two turns
        // at least, and the column d3-d7 needs two picks.
        let mut s = Position::new();
        s.black = mask(&["a5", "b5", "c5", "d5", "d6", "d7"]);
        s.white = mask(&["e5", "e6"]);
        assert_eq!(exposed(s.white, s.black) & mask(&["e5"]), mask(&["e5"]));
        // The row a5-e5 needs e5, held by white; other windows need two cells or more.
        assert_eq!(reach(&s, 1), (0, 0));
        assert_eq!(reach(&s, 2), (0, 1));
    }

    #[test]
    fn search_mixes_like_the_solved_root_with_captures_and_hatching() {
        // Roots from play whose joint picks capture or hatch and whose equilibrium
        // mixes unevenly, solved with lines cut one turn past the empty cells (the
        // search plays on past the cut, so a small gap is allowed): the search's
        // played strategy must be close to unexploitable.
        use crate::ai::Limits;
        use crate::ai::shell::{Settings, search};
        let settings = Settings {
            iterations: 20_000,
            threads: 1,
            ..Settings::default()
        };
        let mut rng = Rng::new(3);
        let mut checked = 0;
        for p in small_endgames(4, 12) {
            let (captures, hatches) = rules_at_work(&p);
            let mut solver = Exact {
                extra: 1,
                ..Exact::new(500_000)
            };
            let Some(solved) = solver.root(&p) else {
                continue;
            };
            let mix = &solved.solution.rows;
            let support: Vec<f64> = mix.iter().copied().filter(|&x| x > 1e-6).collect();
            let uneven =
                support.len() >= 2 && support.iter().any(|&x| (x - support[0]).abs() > 1e-3);
            if !uneven || !(captures || hatches) {
                continue;
            }
            checked += 1;
            for color in Color::ALL {
                let outcome = search(&p, color, &settings, &Limits::depth(1), &mut rng)
                    .expect("an ongoing position");
                let gap = exploitability(&solved, color, &outcome.strategy);
                assert!(gap < 0.08, "{p:?} {color:?}: {gap} {solved:?} {outcome:?}");
            }
        }
        assert!(checked >= 1, "no uneven mixed root among the endgames");
    }

    #[test]
    fn the_first_mover_of_a_serialized_game_never_wins() {
        // A full board but three cells, black holding the four b1-e1 whose a1 and f1
        // each complete five (S2). Committing first, black is answered on its own
        // cell: the collision lays an egg and nothing else happens (S4), so black never
        // places a turtle and the serialized value is at most a draw. Committing
        // first, white blocks one cell and black takes the other (a win); in the
        // simultaneous game white must guess, so the value lies strictly between.
        let p = crowded(
            81,
            &[
                ("b1", 'X'),
                ("c1", 'X'),
                ("d1", 'X'),
                ("e1", 'X'),
                ("a1", '-'),
                ("f1", '-'),
                ("i9", '-'),
            ],
        );
        assert!(!p.status().is_over(), "{p:?}");
        assert_eq!(p.empty_cells().len(), 3);
        let holes = five_holes(p.black, BOARD & !p.occupied());
        assert_eq!(holes.count_ones(), 2);
        let mut solver = Exact::new(1_000_000);
        let (lo, hi) = solver.serialized_bounds(&p).expect("within the budget");
        assert!(lo <= 0.0, "black first: {lo}");
        assert!(hi > 0.0, "white first: {hi}");
        let value = solver.value(&p).expect("within the budget");
        assert!(value > 0.0 && value < 1.0, "{value}");
    }

    #[test]
    fn symmetric_images_have_the_same_value() {
        let p = small_endgames(4, 8)
            .into_iter()
            .find(|p| brute_force(p, 1, 100_000).is_some_and(|v| v != 0.0))
            .expect("an endgame that is not a draw");
        let v = brute_force(&p, 1, u64::MAX).expect("no budget");
        for perm in &SYMMETRIES {
            let image = transformed(&p, perm, false);
            let w = brute_force(&image, 1, u64::MAX).expect("no budget");
            assert!((w - v).abs() < 1e-9, "{image:?}");
            let swapped = transformed(&p, perm, true);
            let w = brute_force(&swapped, 1, u64::MAX).expect("no budget");
            assert!((w + v).abs() < 1e-9, "{swapped:?}");
            assert_eq!(canonical(&image, true).0, canonical(&p, true).0);
        }
    }

    /// A matrix with exact entries and bounds around them (loose by a random slack).
    struct Random {
        values: Vec<f64>,
        slack: Vec<(f64, f64)>,
        cols: usize,
        asked: usize,
    }

    impl Entries for Random {
        fn exact(&mut self, i: usize, j: usize) -> f64 {
            self.asked += 1;
            self.values[i * self.cols + j]
        }
        fn bound(&mut self, i: usize, j: usize, upper: bool) -> f64 {
            let k = i * self.cols + j;
            if upper {
                self.values[k] + self.slack[k].1
            } else {
                self.values[k] - self.slack[k].0
            }
        }
    }

    #[test]
    fn double_oracle_equals_the_full_solution_on_random_matrices() {
        let mut rng = Rng::new(17);
        let mut asked = 0;
        let mut entries = 0;
        for _ in 0..300 {
            let rows = 1 + rng.below(9) as usize;
            let cols = 1 + rng.below(9) as usize;
            let values: Vec<f64> = (0..rows * cols)
                .map(|_| f64::from(rng.below(9) as u32) / 4.0 - 1.0)
                .collect();
            let slack = (0..rows * cols)
                .map(|_| {
                    let s = |rng: &mut Rng| if rng.below(3) == 0 { 0.0 } else { rng.unit() };
                    (s(&mut rng), s(&mut rng))
                })
                .collect();
            let start = (
                rng.below(rows as u64) as usize,
                rng.below(cols as u64) as usize,
            );
            let mut game = Random {
                values: values.clone(),
                slack,
                cols,
                asked: 0,
            };
            let (solution, _) = double_oracle(&mut game, rows, cols, start);
            let full = lp::solve(&values, rows, cols);
            assert!((solution.value - full.value).abs() < 1e-9, "{values:?}");
            // Its strategies are an equilibrium of the whole game.
            let gap = matrix::exploitability(&values, &solution.rows, &solution.cols);
            assert!(gap < 1e-9, "{values:?} {solution:?}");
            asked += game.asked;
            entries += rows * cols;
        }
        // It solves without asking for every entry.
        assert!(asked < entries, "{asked} of {entries}");
    }

    #[test]
    fn exploitability_is_the_hand_worked_best_response_gap() {
        // Three cells; black's payoffs [[1, −1, 0], [−1, 1, 0], [0, 0, −1/2]] (rows
        // black, columns white). By hand: black's (1/2, 1/2, 0) makes every column pay
        // 0, and white's third column makes every row pay at most 0, so v* = 0.
        let cells = vec![Cell::ALL[0], Cell::ALL[1], Cell::ALL[2]];
        let matrix = vec![1.0, -1.0, 0.0, -1.0, 1.0, 0.0, 0.0, 0.0, -0.5];
        let solution = lp::solve(&matrix, 3, 3);
        assert!(solution.value.abs() < 1e-12, "{solution:?}");
        let solved = Solved {
            cells: cells.clone(),
            matrix,
            solution,
        };
        // Black plays (3/4, 1/4, 0): column 2 pays 3/4·(−1) + 1/4·1 = −1/2, so a best
        // response gains 1/2 on v* = 0: a quarter of the value range.
        let black = [(cells[0], 0.75), (cells[1], 0.25)];
        assert!((exploitability(&solved, Color::Black, &black) - 0.25).abs() < 1e-12);
        // White plays column 3 only: black's rows pay 0, 0, −1/2; black's best gets 0,
        // white's value is 0 too: unexploitable.
        let white = [(cells[2], 1.0)];
        assert!(exploitability(&solved, Color::White, &white).abs() < 1e-12);
        // White plays column 1 only: row 1 gets 1, white loses 1 on its value 0: half
        // the range.
        let white = [(cells[0], 1.0)];
        assert!((exploitability(&solved, Color::White, &white) - 0.5).abs() < 1e-12);
    }
}
