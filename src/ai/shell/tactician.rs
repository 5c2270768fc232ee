//! The sequential tactician: a deterministic What the Shell player that searches the
//! game as if turns were serial, the strong but predictable kind of opponent a
//! simultaneous player must punish.
//!
//! Each turn is serialised: the tactician picks, then the opponent answers knowing
//! the pick (a minimum over the opponent's candidate cells, [`super::candidates`], taken
//! from the position before the turn, so that it can collide with the pick or take a
//! cell the tactician wanted, but cannot see a threat the pick creates before the
//! turn resolves). Three rules give threats their simultaneous meaning:
//! - a side facing a winning cell (S2, S9) that neither picks it nor breaks the line
//!   by a capture (S5) is treated as lost: the threatening side would have taken it;
//! - at the start of a turn, two or more winning cells against none (and no capture
//!   for the defender) count as a double threat, worth [`DOUBLE`]: one guess blocks
//!   one cell by collision (S4), so the attacker wins at least half the time;
//! - positions where a side can win at once are searched on past the nominal depth
//!   (up to [`EXTENSION`] turns), so forcing sequences are followed to their end.
//!
//! Before the alpha-beta search, a threat-space search ([`forcing_line`]) looks for a
//! sequence of threats — each pick leaving a winning cell the opponent must block
//! while the next pick makes another — that ends in a double threat. Leaves are
//! valued by the five-cell windows (stones of one colour only, steeply weighted) and
//! the turtle count. It never draws a random number: without a clock, the same
//! position gives the same cell.
//!
//! Under a clock ([`pick_within`]) it deepens: a shallow alpha-beta first (no
//! forcing extension), then the threat-space search, then the full search, each
//! looking at the limits every [`CHECK_EVERY`] nodes and called off when they expire;
//! the answer is the deepest stage that finished (the first candidate if none did).

use super::after_turn;
use super::candidates::{Tactics, WINDOWS, candidates};
use crate::ai::Limits;
use crate::games::shell::cell::BOARD;
use crate::games::shell::{Cell, CellSet, Position};
use crate::games::{Color, Status};

/// A win, in evaluation units.
pub const WIN: i32 = 1_000_000;
/// A double threat at the start of a turn (at least half a win).
pub const DOUBLE: i32 = 400_000;
/// Full turns searched by the alpha-beta.
pub const DEPTH: i32 = 2;
/// Extra turns searched while a side can win at once.
pub const EXTENSION: u32 = 2;
/// Turns the threat-space search looks ahead.
pub const THREAT_DEPTH: u32 = 4;
/// Candidate cells per side beyond the tactical ones, at the root and below.
const ROOT_WIDTH: usize = 5;
const WIDTH: usize = 3;
/// Weight of a window holding `n` turtles of one colour only (n = 0..=5).
const LINE: [i32; 6] = [0, 1, 6, 40, 300, 0];
/// Weight of one turtle on the board.
const TURTLE: i32 = 20;
/// A value worse than any.
const INFINITE: i32 = i32::MAX / 2;
/// Nodes between two looks at the limits (a node resolves up to a few dozen turns).
pub const CHECK_EVERY: u32 = 4;

/// The work of one pick: nodes counted against the limits, and whether they ran out
/// (every search below then returns at once and its result is not used).
struct Budget<'a> {
    limits: &'a Limits<'a>,
    countdown: u32,
    nodes: u64,
    stopped: bool,
}

impl<'a> Budget<'a> {
    fn new(limits: &'a Limits<'a>) -> Budget<'a> {
        Budget {
            limits,
            countdown: CHECK_EVERY,
            nodes: 0,
            stopped: false,
        }
    }

    /// Counts a node; true once the limits have expired.
    fn spend(&mut self) -> bool {
        self.nodes += 1;
        if !self.stopped
            && self
                .limits
                .due_after(&mut self.countdown, CHECK_EVERY, self.nodes)
        {
            self.stopped = true;
        }
        self.stopped
    }
}

/// The static value of `position` for `color`: line windows and turtles.
#[must_use]
pub fn evaluate(position: &Position, color: Color) -> i32 {
    match position.status() {
        Status::BlackWins | Status::WhiteWins => {
            return if position.status() == Status::win_for(color) {
                WIN
            } else {
                -WIN
            };
        }
        Status::Draw => return 0,
        _ => {}
    }
    let own = position.turtle_mask(color);
    let theirs = position.turtle_mask(color.opponent());
    let eggs = position.egg_cells().bits();
    let mut score = 0;
    for window in WINDOWS {
        if window & eggs != 0 {
            continue;
        }
        let mine = (window & own).count_ones() as usize;
        let their = (window & theirs).count_ones() as usize;
        match (mine, their) {
            (n, 0) => score += LINE.get(n).copied().unwrap_or(0),
            (0, n) => score -= LINE.get(n).copied().unwrap_or(0),
            _ => {}
        }
    }
    score + TURTLE * (own.count_ones() as i32 - theirs.count_ones() as i32)
}

/// True when a winning cell of `color` in `threats` is still one after the turn.
fn threat_stands(after: &Position, color: Color, threats: u128) -> bool {
    CellSet::from_bits(threats).iter().any(|cell| {
        after
            .imagine_lone_turtle(color, cell)
            .is_some_and(|(p, _)| p.status() == Status::win_for(color))
    })
}

/// The empty cells where a turtle of `color` would leave a window of four of its
/// turtles and one empty cell: the cells that make a threat (captures aside).
#[must_use]
pub fn threat_cells(position: &Position, color: Color) -> u128 {
    let own = position.turtle_mask(color);
    let blocked = position.occupied() & !own;
    let empty = BOARD & !position.occupied();
    WINDOWS
        .iter()
        .filter(|&&w| w & blocked == 0 && (w & own).count_ones() == 3)
        .fold(0, |cells, &w| cells | (w & empty))
}

/// True when `color`, on turn to pick in `position`, has a forcing line: a sequence
/// of threats, each answered by the opponent's forced block (or a capture), that
/// reaches a won game or a double threat within `depth` turns.
fn forced_win(position: &Position, color: Color, depth: u32, budget: &mut Budget<'_>) -> bool {
    if budget.spend() {
        return false;
    }
    if position.status().is_over() {
        return position.status() == Status::win_for(color);
    }
    let tactics = Tactics::of(position);
    let (me, them) = (color.index(), color.opponent().index());
    let mine = tactics.wins[me];
    if tactics.wins[them] != 0 || mine == 0 {
        return false;
    }
    if mine.count_ones() >= 2 && tactics.captures[them] == 0 {
        return true;
    }
    if depth == 0 {
        return false;
    }
    let replies = mine | tactics.captures[them];
    let picks = threat_cells(position, color) | mine;
    CellSet::from_bits(picks).iter().any(|pick| {
        CellSet::from_bits(replies).iter().all(|reply| {
            after_turn(position, color, pick, reply)
                .is_some_and(|next| forced_win(&next, color, depth - 1, budget))
        })
    })
}

/// The first pick of a forcing line for `color` within `depth` turns
/// ([`forced_win`]), if there is one. From a quiet position the first threat must
/// work against every candidate answer of the opponent's.
#[must_use]
pub fn forcing_line(position: &Position, color: Color, depth: u32) -> Option<Cell> {
    forcing_line_within(position, color, depth, &mut Budget::new(&Limits::depth(0)))
}

/// [`forcing_line`] within `budget`; `None` (and the budget stopped) when it ran out.
fn forcing_line_within(
    position: &Position,
    color: Color,
    depth: u32,
    budget: &mut Budget<'_>,
) -> Option<Cell> {
    if position.status().is_over() || depth == 0 {
        return None;
    }
    let tactics = Tactics::of(position);
    let (me, them) = (color.index(), color.opponent().index());
    if tactics.wins[them] != 0 {
        return None;
    }
    let replies: u128 = if tactics.wins[me] != 0 {
        tactics.wins[me] | tactics.captures[them]
    } else {
        candidates(position, &tactics, color.opponent(), WIDTH)
            .into_iter()
            .fold(0, |m, c| m | c.bit())
    };
    let picks = threat_cells(position, color) | tactics.wins[me];
    let mut ordered: Vec<Cell> = CellSet::from_bits(picks).iter().collect();
    ordered.sort_by_key(|&c| std::cmp::Reverse(pick_order(position, color, c)));
    let found = ordered.into_iter().find(|&pick| {
        CellSet::from_bits(replies).iter().all(|reply| {
            after_turn(position, color, pick, reply)
                .is_some_and(|next| forced_win(&next, color, depth - 1, budget))
        })
    });
    found.filter(|_| !budget.stopped)
}

/// Orders picks: the value of the position with only our turtle landed.
fn pick_order(position: &Position, color: Color, cell: Cell) -> i32 {
    position
        .imagine_lone_turtle(color, cell)
        .map_or(-INFINITE, |(after, _)| evaluate(&after, color))
}

/// The alpha-beta search over serialised turns, for one colour.
struct Search<'b, 'a> {
    color: Color,
    budget: &'b mut Budget<'a>,
}

impl Search<'_, '_> {
    /// The value for the searching colour of `position` at the start of a turn,
    /// `depth` turns deep with `extension` forcing turns to spare, in (alpha, beta).
    fn value(
        &mut self,
        position: &Position,
        depth: i32,
        extension: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.budget.spend() {
            return 0;
        }
        let color = self.color;
        if position.status().is_over() {
            return evaluate(position, color);
        }
        let tactics = Tactics::of(position);
        let (me, them) = (color.index(), color.opponent().index());
        let (mine, theirs) = (tactics.wins[me], tactics.wins[them]);
        if mine.count_ones() >= 2 && theirs == 0 && tactics.captures[them] == 0 {
            return DOUBLE;
        }
        if theirs.count_ones() >= 2 && mine == 0 && tactics.captures[me] == 0 {
            return -DOUBLE;
        }
        let sharp = mine != 0 || theirs != 0;
        let (depth, extension) = match (depth > 0, sharp && extension > 0) {
            (true, _) => (depth - 1, extension),
            (false, true) => (0, extension - 1),
            (false, false) => return evaluate(position, color),
        };
        let picks = candidates(position, &tactics, color, WIDTH);
        let replies = candidates(position, &tactics, color.opponent(), WIDTH);
        self.best(
            position,
            &picks,
            &replies,
            [mine, theirs],
            depth,
            extension,
            alpha,
            beta,
        )
        .1
    }

    /// The best of `picks` against the worst of `replies` and its value; `threats`
    /// are the winning cells (ours, theirs) at the start of the turn.
    #[allow(clippy::too_many_arguments)]
    fn best(
        &mut self,
        position: &Position,
        picks: &[Cell],
        replies: &[Cell],
        threats: [u128; 2],
        depth: i32,
        extension: u32,
        mut alpha: i32,
        beta: i32,
    ) -> (Option<Cell>, i32) {
        let color = self.color;
        let mut best = (None, -INFINITE);
        for &pick in picks {
            let mut worst = INFINITE;
            for &reply in replies {
                let Some(next) = after_turn(position, color, pick, reply) else {
                    continue;
                };
                let value = if next.status().is_over() {
                    evaluate(&next, color)
                } else if threats[0] & (pick.bit() | reply.bit()) == 0
                    && threat_stands(&next, color, threats[0])
                {
                    // The opponent left our winning cell open: we would have won.
                    WIN / 2
                } else if threats[1] & (pick.bit() | reply.bit()) == 0
                    && threat_stands(&next, color.opponent(), threats[1])
                {
                    -WIN / 2
                } else {
                    self.value(&next, depth, extension, alpha, worst.min(beta))
                };
                worst = worst.min(value);
                if worst <= alpha {
                    break;
                }
            }
            if worst > best.1 {
                best = (Some(pick), worst);
            }
            alpha = alpha.max(worst);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// The tactician's pick for `color`, or `None` when the game is over or no cell is
/// empty, with no bound on its work: [`pick_within`] without limits.
#[must_use]
pub fn pick(position: &Position, color: Color) -> Option<Cell> {
    pick_within(position, color, &Limits::depth(0))
}

/// The tactician's pick for `color` within `limits`, or `None` when the game is over
/// or no cell is empty. In order: when the opponent cannot win at once, the first
/// pick of a forcing line ([`forcing_line`]) if it holds a lone winning cell, else a
/// winning cell (the first in board order); the first pick of a forcing line; else
/// the best pick of the serialised alpha-beta search (the first of equals in
/// candidate order). Each stage that the limits call off leaves the answer of the
/// stage before: a winning cell, or the shallow search's pick, or the first candidate.
#[must_use]
pub fn pick_within(position: &Position, color: Color, limits: &Limits<'_>) -> Option<Cell> {
    let mut budget = Budget::new(limits);
    let answer = pick_in(position, color, &mut budget);
    log::debug!(
        "tactician: {} nodes{}",
        budget.nodes,
        if budget.stopped { ", stopped" } else { "" }
    );
    answer
}

/// [`pick_within`] counting its work in `budget`.
fn pick_in(position: &Position, color: Color, budget: &mut Budget<'_>) -> Option<Cell> {
    if position.status().is_over() || position.empty_cells().is_empty() {
        return None;
    }
    let limits = budget.limits;
    let tactics = Tactics::of(position);
    let (me, them) = (color.index(), color.opponent().index());
    if tactics.wins[me] != 0 && tactics.wins[them] == 0 {
        // A lone winning cell is blocked by a guess; a forcing line that makes a
        // double threat while the opponent blocks it is worth more.
        if tactics.wins[me].count_ones() == 1
            && let Some(cell) = forcing_line_within(position, color, THREAT_DEPTH, budget)
        {
            return Some(cell);
        }
        return CellSet::from_bits(tactics.wins[me]).iter().next();
    }
    let picks = candidates(position, &tactics, color, ROOT_WIDTH);
    let replies = candidates(position, &tactics, color.opponent(), ROOT_WIDTH);
    let threats = [tactics.wins[me], tactics.wins[them]];
    let search = |budget: &mut Budget<'_>, depth: i32, extension: u32| {
        let mut search = Search { color, budget };
        let (best, _) = search.best(
            position, &picks, &replies, threats, depth, extension, -INFINITE, INFINITE,
        );
        best.filter(|_| !search.budget.stopped)
    };
    let mut answer = picks.first().copied();
    if limits.deadline.is_some() || limits.nodes.is_some() {
        // Under a clock, a shallow answer first, in case the deeper stages run out.
        answer = search(budget, 0, 0).or(answer);
    }
    if !budget.stopped
        && let Some(cell) = forcing_line_within(position, color, THREAT_DEPTH, budget)
    {
        return Some(cell);
    }
    if !budget.stopped {
        answer = search(budget, DEPTH - 1, EXTENSION).or(answer);
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::shell::testing::{cell, four_and_open_three, position, won_by_black};

    #[test]
    fn wins_at_once_and_blocks_a_lone_threat() {
        // Black's four a1-d1 (S2): e1 wins.
        let p = position(
            &[
                ("a1", 'X'),
                ("b1", 'X'),
                ("c1", 'X'),
                ("d1", 'X'),
                ("e5", 'O'),
            ],
            "-",
        );
        assert_eq!(pick(&p, Color::Black), Some(cell("e1")));
        // White cannot win and must take e1 (a collision there blocks it too, S4).
        assert_eq!(pick(&p, Color::White), Some(cell("e1")));
    }

    #[test]
    fn plays_a_forced_threat_sequence_instead_of_the_blocked_win() {
        //    a b c d e f g h i
        // 1  X X X X . . . . .     black's four a1-d1: e1 completes five (S2)
        // 5  . . . . X X X . .     black's open three e5-g5
        // 9  . . . . . . . . O
        //
        // White has no line, so it must pick e1 (a collision there lays an egg and
        // blocks it, S4). Taking e1 is a guess white wins; d5 or h5 instead makes an
        // open four on row 5 while white's turtle blocks e1, leaving black two cells
        // completing five (c5 and h5, or d5 and i5) against none: a double threat
        // (S9: one guess cannot block both).
        let p = four_and_open_three();
        let first = forcing_line(&p, Color::Black, THREAT_DEPTH).expect("a forcing line");
        assert!(first == cell("d5") || first == cell("h5"), "{first}");
        assert_eq!(pick(&p, Color::Black), Some(first));
        let mut after = p;
        assert!(after.resolve_turn_quiet(first, cell("e1")).is_ok());
        assert_eq!(Tactics::of(&after).wins[0].count_ones(), 2);
        assert_eq!(Tactics::of(&after).wins[1], 0);
        // Without the open three no threat follows: the tactician takes its win.
        let bare = position(
            &[
                ("a1", 'X'),
                ("b1", 'X'),
                ("c1", 'X'),
                ("d1", 'X'),
                ("i9", 'O'),
            ],
            "-",
        );
        assert_eq!(forcing_line(&bare, Color::Black, THREAT_DEPTH), None);
        assert_eq!(pick(&bare, Color::Black), Some(cell("e1")));
        // White, to pick in the first position, blocks e1.
        assert_eq!(pick(&p, Color::White), Some(cell("e1")));
    }

    /// A middle-game position from play: the greedy player on both sides.
    fn middle_game(seed: u64) -> Position {
        let mut rng = crate::rng::Rng::new(seed);
        let mut p = Position::new();
        for _ in 0..12 {
            let black = crate::ai::shell::greedy::pick(&p, Color::Black, &mut rng);
            let white = crate::ai::shell::greedy::pick(&p, Color::White, &mut rng);
            let (Some(black), Some(white)) = (black, white) else {
                break;
            };
            let mut next = p;
            if next.resolve_turn_quiet(black, white).is_err() || next.status().is_over() {
                break;
            }
            p = next;
        }
        p
    }

    #[test]
    fn a_node_budget_calls_the_search_off_and_still_answers() {
        let tiny = Limits {
            nodes: Some(1),
            ..Limits::depth(0)
        };
        let free = Limits::depth(0);
        for seed in 1..=6 {
            let p = middle_game(seed);
            assert!(!p.status().is_over());
            let mut unbounded = Budget::new(&free);
            let full = pick_in(&p, Color::Black, &mut unbounded);
            assert!(!unbounded.stopped);
            let mut cut = Budget::new(&tiny);
            let quick = pick_in(&p, Color::Black, &mut cut);
            assert!(
                quick.is_some_and(|c| p.is_empty(c)),
                "seed {seed}: {quick:?}"
            );
            // Called off at the first look at the limits; the stages after it return
            // at once, so the work is a small part of the full search's.
            assert!(cut.stopped, "seed {seed}");
            assert!(
                cut.nodes * 2 < unbounded.nodes,
                "seed {seed}: {} of {} nodes",
                cut.nodes,
                unbounded.nodes
            );
            // A budget the full search fits in gives its answer.
            let roomy = Limits {
                nodes: Some(unbounded.nodes * 2 + 100),
                ..Limits::depth(0)
            };
            assert_eq!(pick_within(&p, Color::Black, &roomy), full, "seed {seed}");
            assert_eq!(pick(&p, Color::Black), full);
        }
    }

    #[test]
    fn is_deterministic_and_none_when_over() {
        let p = position(&[("e5", 'X'), ("d4", 'O'), ("f6", 'E')], "f6");
        assert_eq!(pick(&p, Color::White), pick(&p, Color::White));
        assert!(pick(&p, Color::White).is_some_and(|c| p.is_empty(c)));
        let won = won_by_black();
        assert_eq!(pick(&won, Color::White), None);
    }
}
