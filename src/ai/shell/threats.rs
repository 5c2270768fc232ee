//! Threat-space search for the simultaneous game: the forcing lines of threats that
//! win whatever the defender picks, and the defender's cells that break them.
//!
//! In What the Shell a *four* — a lone empty cell completing the attacker's five (S2)
//! — forces the defender: it must pick that cell too (the collision lays an egg there,
//! S4, and the line is dead) or capture out of the line (S5), or the attacker takes the
//! cell and wins (S9). The attacker's own pick that turn is free, so a standing four
//! is a tempo: it can make the next four while the defender blocks the last. An *open
//! four* — two or more cells completing five, against none of the defender's and no
//! capture — cannot be blocked by one pick: the defender guesses one cell in k (S4), a
//! wrong guess loses, a right one leaves another standing four. And a *double-four
//! cell* (an end of an open three) makes an open four unless the defender picks that
//! cell or one of the fives it would open, the same turn.
//!
//! [`Search::forced`] reads the game serially, the attacker first (the defender sees
//! the attacker's pick before answering, which only helps the defender): a line is
//! forcing when, at each turn, some pick of the attacker wins against every answer
//! that does not lose at once —
//! - with a standing four, the picks are the cells that make another four and the
//!   answers the four's cell and the defender's captures;
//! - without one, the picks are the double-four cells and the answers the pick itself
//!   (a collision), the cells completing five it would open, the defender's captures
//!   and the defender's own fours (a counter-threat, which ends the line);
//!
//! and it ends in an open four (or a won game) within the depth. A defender's winning
//! cell ends any line. So a line found is a win against any defender (up to the last
//! guess, and to captures the windows do not see), and a line missed may still exist.
//!
//! At the root of a quiet position the attacker's first pick is free and so is the
//! defender's answer: [`attack`] checks a first four or double four against the pick,
//! the fives it opens, the defender's captures, fours, double fours and its best
//! quiet cells; [`defense`] finds the attacker's first picks that win if the defender
//! plays elsewhere, and then the defender's cells that break all of them — when none
//! does, the matrix of (defender's cell, attacker's pick) → lost is a small game the
//! defender solves exactly ([`Defense::mix`]).
//!
//! Every search counts its nodes against a budget and gives up (no line) when it runs
//! out, so a root spends a bounded, load-independent amount of work.

use super::after_turn;
use super::candidates::{Tactics, candidates, five_holes, four_cells};
use crate::games::shell::cell::BOARD;
use crate::games::shell::{Cell, CellSet, Position};
use crate::games::{Color, Status};

/// Turns a forcing line may take, the first pick included.
pub const DEPTH: u32 = 4;
/// Nodes one root's searches may visit in all.
pub const BUDGET: u64 = 6_000;
/// Quiet cells of the defender's candidates that [`attack`] also answers with.
const QUIET_REPLIES: usize = 4;

/// The work of one root's threat searches.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Nodes visited so far.
    pub nodes: u64,
    limit: u64,
}

impl Budget {
    /// A budget of `limit` nodes.
    #[must_use]
    pub fn new(limit: u64) -> Budget {
        Budget { nodes: 0, limit }
    }

    /// True when the budget ran out (every search then answers "no line").
    #[must_use]
    pub fn is_spent(&self) -> bool {
        self.nodes >= self.limit
    }
}

/// A forcing-line search for one attacker.
struct Search<'b> {
    attacker: Color,
    budget: &'b mut Budget,
}

impl Search<'_> {
    /// True when the attacker, at the start of a turn in `position`, wins by a
    /// forcing line within `depth` turns (module docs).
    fn forced(&mut self, position: &Position, depth: u32) -> bool {
        if self.budget.is_spent() {
            return false;
        }
        self.budget.nodes += 1;
        let attacker = self.attacker;
        if position.status().is_over() {
            return position.status() == Status::win_for(attacker);
        }
        let tactics = Tactics::of(position);
        let (me, them) = (attacker.index(), attacker.opponent().index());
        if tactics.wins[them] != 0 {
            return false;
        }
        let mine = tactics.wins[me];
        if mine.count_ones() >= 2 && tactics.captures[them] == 0 {
            return true;
        }
        if depth == 0 {
            return false;
        }
        let own = position.turtle_mask(attacker);
        let empty = BOARD & !position.occupied();
        if mine != 0 {
            let replies = mine | tactics.captures[them];
            let picks = four_cells(own, position.occupied() & !own, empty) & !mine;
            self.any_pick(position, picks, depth, |_| replies)
        } else {
            let theirs = position.turtle_mask(attacker.opponent());
            let counters =
                four_cells(theirs, position.occupied() & !theirs, empty) | tactics.captures[them];
            self.any_pick(position, tactics.doubles[me], depth, |pick| {
                pick.bit() | five_holes(own | pick.bit(), empty & !pick.bit()) | counters
            })
        }
    }

    /// True when some cell of `picks` wins (a forcing line of `depth − 1` more turns)
    /// against every answer in `replies(pick)`.
    fn any_pick(
        &mut self,
        position: &Position,
        picks: u128,
        depth: u32,
        replies: impl Fn(Cell) -> u128,
    ) -> bool {
        CellSet::from_bits(picks)
            .iter()
            .any(|pick| self.wins_against(position, pick, replies(pick), depth))
    }

    /// True when the attacker's `pick` wins against every answer in `replies`.
    fn wins_against(&mut self, position: &Position, pick: Cell, replies: u128, depth: u32) -> bool {
        CellSet::from_bits(replies).iter().all(|reply| {
            after_turn(position, self.attacker, pick, reply)
                .is_some_and(|next| self.forced(&next, depth - 1))
        })
    }
}

/// The attacker's picks that may start a line from `position`: its standing fours'
/// follow-ups when it has one, else the cells making a four or an open four.
fn first_picks(position: &Position, tactics: &Tactics, attacker: Color) -> u128 {
    let own = position.turtle_mask(attacker);
    let empty = BOARD & !position.occupied();
    let fours = four_cells(own, position.occupied() & !own, empty);
    fours & !tactics.wins[attacker.index()]
}

/// The first pick of a forcing line for `attacker` within `depth` turns, checked
/// against every answer that might break it (module docs), or `None`: when the
/// defender can win at once, when there is no line, or when the budget ran out.
#[must_use]
pub fn attack(
    position: &Position,
    attacker: Color,
    depth: u32,
    budget: &mut Budget,
) -> Option<Cell> {
    if position.status().is_over() || depth == 0 {
        return None;
    }
    let tactics = Tactics::of(position);
    let (me, them) = (attacker.index(), attacker.opponent().index());
    if tactics.wins[them] != 0 {
        return None;
    }
    let own = position.turtle_mask(attacker);
    let theirs = position.turtle_mask(attacker.opponent());
    let empty = BOARD & !position.occupied();
    let standing = tactics.wins[me];
    let broad = if standing != 0 {
        standing | tactics.captures[them]
    } else {
        let quiet = candidates(position, &tactics, attacker.opponent(), QUIET_REPLIES)
            .into_iter()
            .fold(0u128, |m, c| m | c.bit());
        quiet
            | tactics.captures[them]
            | tactics.doubles[them]
            | tactics.doubles[me]
            | four_cells(theirs, position.occupied() & !theirs, empty)
    };
    let mut search = Search { attacker, budget };
    let found = CellSet::from_bits(first_picks(position, &tactics, attacker))
        .iter()
        .find(|&pick| {
            let opened = five_holes(own | pick.bit(), empty & !pick.bit());
            let replies = if standing != 0 {
                broad
            } else {
                broad | opened | pick.bit()
            };
            // The defender may also play anywhere else: the attacker's turtle lands
            // alone.
            let alone = standing != 0
                || position
                    .imagine_lone_turtle(attacker, pick)
                    .is_some_and(|(next, _)| search.forced(&next, depth - 1));
            alone && search.wins_against(position, pick, replies, depth)
        });
    found.filter(|_| !search.budget.is_spent())
}

/// What the defender of a quiet position faces: the attacker's first picks that win
/// by a forcing line if the defender plays elsewhere, and which of the defender's
/// cells break them.
#[derive(Clone, Debug, PartialEq)]
pub struct Defense {
    /// The attacker's winning first picks (the columns).
    pub threats: Vec<Cell>,
    /// The defender's cells tried (the rows).
    pub cells: Vec<Cell>,
    /// Row-major: true when the attacker's line still wins after the joint pick.
    pub lost: Vec<bool>,
}

impl Defense {
    /// The defender's cells that break every threat.
    #[must_use]
    pub fn safe(&self) -> Vec<Cell> {
        let cols = self.threats.len();
        self.cells
            .iter()
            .enumerate()
            .filter(|(i, _)| {
                self.lost
                    .get(i * cols..(i + 1) * cols)
                    .is_some_and(|row| row.iter().all(|&l| !l))
            })
            .map(|(_, &c)| c)
            .collect()
    }

    /// The matrix game where the defender (rows) loses exactly the pairs marked lost,
    /// solved exactly: the row player's payoff is −1 on a lost pair, else 0.
    fn solve(&self) -> super::matrix::Solution {
        let (rows, cols) = (self.cells.len(), self.threats.len());
        let matrix: Vec<f64> = self
            .lost
            .iter()
            .map(|&l| if l { -1.0 } else { 0.0 })
            .collect();
        super::lp::solve(&matrix, rows, cols)
    }

    /// The defender's equilibrium mix over its cells in the matrix game where it
    /// loses exactly the pairs marked lost (solved exactly), with the chance that
    /// the attacker's line then wins.
    #[must_use]
    pub fn mix(&self) -> (Vec<(Cell, f64)>, f64) {
        let solution = self.solve();
        (support_of(&self.cells, &solution.rows), -solution.value)
    }

    /// The attacker's equilibrium mix over its threats in the same game, with the
    /// chance that its line wins.
    #[must_use]
    pub fn attack_mix(&self) -> (Vec<(Cell, f64)>, f64) {
        let solution = self.solve();
        (support_of(&self.threats, &solution.cols), -solution.value)
    }
}

/// The cells of `cells` with a positive share in `shares`, with their shares.
fn support_of(cells: &[Cell], shares: &[f64]) -> Vec<(Cell, f64)> {
    cells
        .iter()
        .zip(shares)
        .filter(|(_, p)| **p > 1e-9)
        .map(|(&c, &p)| (c, p))
        .collect()
}

/// The threats `defender` faces in a quiet `position` ([`Defense`]), its cells tried
/// being `cells` plus the attacker's threats, the fives they would open and the
/// defender's own fours and captures; `None` when either colour can win at once (the
/// search's own tactics) or the attacker has no line within `depth` turns (or the
/// budget ran out before one was found).
#[must_use]
pub fn defense(
    position: &Position,
    defender: Color,
    cells: &[Cell],
    depth: u32,
    budget: &mut Budget,
) -> Option<Defense> {
    if position.status().is_over() || depth == 0 {
        return None;
    }
    let tactics = Tactics::of(position);
    if tactics.is_sharp() {
        return None;
    }
    let attacker = defender.opponent();
    let own = position.turtle_mask(attacker);
    let mine = position.turtle_mask(defender);
    let occupied = position.occupied();
    let empty = BOARD & !occupied;
    let mut search = Search { attacker, budget };
    let mut threats = Vec::new();
    let mut opened = 0u128;
    for pick in CellSet::from_bits(first_picks(position, &tactics, attacker)) {
        if position
            .imagine_lone_turtle(attacker, pick)
            .is_some_and(|(next, _)| search.forced(&next, depth - 1))
        {
            threats.push(pick);
            opened |= five_holes(own | pick.bit(), empty & !pick.bit());
        }
    }
    if threats.is_empty() || search.budget.is_spent() {
        return None;
    }
    let threat_mask = threats.iter().fold(0u128, |m, c| m | c.bit());
    let tried = cells.iter().fold(0u128, |m, c| m | c.bit())
        | threat_mask
        | opened
        | four_cells(mine, occupied & !mine, empty)
        | tactics.captures[defender.index()];
    let rows: Vec<Cell> = CellSet::from_bits(tried & empty).iter().collect();
    let mut lost = Vec::with_capacity(rows.len() * threats.len());
    for &cell in &rows {
        for &pick in &threats {
            let wins = after_turn(position, attacker, pick, cell)
                .is_some_and(|next| search.forced(&next, depth - 1));
            lost.push(wins);
        }
    }
    if search.budget.is_spent() {
        return None;
    }
    Some(Defense {
        threats,
        cells: rows,
        lost,
    })
}

/// What the threat searches advise the search's root for one colour.
#[derive(Clone, Debug, PartialEq)]
pub enum Advice {
    /// Play this mix without searching: the first pick of a forcing line, or the
    /// threat game of a quiet position (one colour's threats against the other's
    /// cells) solved exactly when no cell of the defender breaks every threat.
    Play(Vec<(Cell, f64)>),
    /// Search, with `extra` joining both colours' root lists (threats to make and
    /// the cells that break them), and play only cells of `keep` (when the search's
    /// strategy holds none, the cells of `keep` evenly).
    Search {
        /// Cells added to the root's lists.
        extra: u128,
        /// The cells the final strategy keeps ([`BOARD`] for all).
        keep: u128,
    },
}

/// The threat searches' advice to `color` at the root of `position`, whose root lists
/// are `mine` and `theirs`, within `budget`:
/// - a forcing line of its own ([`attack`]) is played;
/// - facing the opponent's threats ([`defense`]), it keeps to the cells that break
///   them all, or, when none does, plays the defender's exact mix;
/// - holding threats of its own that some cell breaks, the threats and those cells
///   join the lists; when no cell breaks them all, it plays the attacker's exact mix.
#[must_use]
pub fn advise(
    position: &Position,
    color: Color,
    mine: &[Cell],
    theirs: &[Cell],
    budget: &mut Budget,
) -> Advice {
    if let Some(cell) = attack(position, color, DEPTH, budget) {
        return Advice::Play(vec![(cell, 1.0)]);
    }
    if let Some(facing) = defense(position, color, mine, DEPTH, budget) {
        return facing.advice(Role::Defender);
    }
    if let Some(holding) = defense(position, color.opponent(), theirs, DEPTH, budget) {
        return holding.advice(Role::Attacker);
    }
    Advice::Search {
        extra: 0,
        keep: BOARD,
    }
}

/// Which side of a [`Defense`] the advised colour is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// The colour whose threats they are.
    Attacker,
    /// The colour facing them.
    Defender,
}

impl Defense {
    /// The advice of this threat game to `role`: its exact mix when no cell breaks
    /// every threat; else a search with the breaking cells listed, kept to them for
    /// the defender, beside the threats for the attacker.
    fn advice(&self, role: Role) -> Advice {
        let mask = |cells: &[Cell]| cells.iter().fold(0u128, |m, c| m | c.bit());
        let safe = mask(&self.safe());
        if safe == 0 {
            let (mix, _) = match role {
                Role::Attacker => self.attack_mix(),
                Role::Defender => self.mix(),
            };
            if !mix.is_empty() {
                return Advice::Play(mix);
            }
        }
        match role {
            Role::Attacker => Advice::Search {
                extra: mask(&self.threats) | safe,
                keep: BOARD,
            },
            Role::Defender => Advice::Search {
                extra: safe,
                keep: if safe == 0 { BOARD } else { safe },
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::shell::testing::{cell, four_and_open_three, position};

    /// Black's four-three fork at d3: the four a3-d3 (e3 completing five, S2) and the
    /// open three d3-d5 (d2 and d6 free).
    fn fork() -> Position {
        position(
            &[
                ("a3", 'X'),
                ("b3", 'X'),
                ("c3", 'X'),
                ("d4", 'X'),
                ("d5", 'X'),
                ("i9", 'O'),
                ("h8", 'O'),
            ],
            "-",
        )
    }

    fn cells(names: &[&str]) -> Vec<Cell> {
        names.iter().map(|n| cell(n)).collect()
    }

    #[test]
    fn a_four_and_an_open_three_win_by_force() {
        //    a b c d e f g h i
        // 1  X X X X . . . . .    black's four a1-d1: e1 completes five (S2)
        // 5  . . . . X X X . .    black's open three e5-g5
        // 9  . . . . . . . . O
        // White must take e1 (a collision there lays an egg, S4); meanwhile d5 or h5
        // makes an open four: two cells completing five against one guess (S9).
        let p = four_and_open_three();
        let mut budget = Budget::new(BUDGET);
        let first = attack(&p, Color::Black, DEPTH, &mut budget).expect("a forcing line");
        assert!(first == cell("d5") || first == cell("h5"), "{first}");
        // White has no line.
        assert_eq!(
            attack(&p, Color::White, DEPTH, &mut Budget::new(BUDGET)),
            None
        );
        // Without the four the open three alone is answered by taking an end.
        let bare = position(&[("e5", 'X'), ("f5", 'X'), ("g5", 'X'), ("i9", 'O')], "-");
        assert_eq!(
            attack(&bare, Color::Black, DEPTH, &mut Budget::new(BUDGET)),
            None
        );
    }

    #[test]
    fn a_four_three_fork_is_found_from_a_quiet_position() {
        //    a b c d e f g h i
        // 3  X X X . . . . . .    d3 makes the four a3-d3 (e3 completes five, S2)
        // 4  . . . X . . . . .    and the open three d3-d5 (d2 and d6 free)
        // 5  . . . X . . . . .
        // If white plays elsewhere, it must then block e3 (a collision there lays an
        // egg, S4) while black opens the three on d2 or d6: two cells complete five
        // against one guess. But the turn is simultaneous (S3): white taking d3 or
        // e3 the same turn breaks it, so d3 is no forcing line from here.
        let p = fork();
        assert!(Tactics::of(&p).wins == [0, 0]);
        let mut budget = Budget::new(BUDGET);
        assert_eq!(attack(&p, Color::Black, DEPTH, &mut budget), None);
        assert!(!budget.is_spent());
        // White, the defender, sees the threat; taking d3 first breaks it (a
        // collision there lays an egg, S4, and a white turtle there blocks both
        // lines), a far cell does not.
        let defense = defense(
            &p,
            Color::White,
            &cells(&["h2"]),
            DEPTH,
            &mut Budget::new(BUDGET),
        )
        .expect("a threat");
        assert!(defense.threats.contains(&cell("d3")), "{defense:?}");
        let safe = defense.safe();
        assert!(safe.contains(&cell("d3")), "{safe:?}");
        assert!(safe.contains(&cell("e3")), "{safe:?}");
        assert!(!safe.contains(&cell("h2")), "{safe:?}");
        assert!(defense.cells.contains(&cell("h2")));
    }

    #[test]
    fn two_separate_threats_are_broken_only_by_counter_captures() {
        // Black has two four-three forks: d3 as above, and f8 (the four f8-i8, e8
        // completing five, and the three f6 f7 f8 opened on f5). The egg on e5
        // spoils the diagonals between them. One white pick cannot take both fork
        // cells (S3, S4); the white cells that still break both are those that leave
        // white a capture (S5) the lines cannot allow, or a four of its own.
        let p = position(
            &[
                ("a3", 'X'),
                ("b3", 'X'),
                ("c3", 'X'),
                ("d4", 'X'),
                ("d5", 'X'),
                ("i8", 'X'),
                ("h8", 'X'),
                ("g8", 'X'),
                ("f6", 'X'),
                ("f7", 'X'),
                ("e5", 'E'),
                ("a9", 'O'),
            ],
            "e5",
        );
        let defense = defense(
            &p,
            Color::White,
            &cells(&["h2"]),
            DEPTH,
            &mut Budget::new(BUDGET * 4),
        )
        .expect("threats");
        assert!(defense.threats.contains(&cell("d3")), "{defense:?}");
        assert!(defense.threats.contains(&cell("f8")), "{defense:?}");
        let safe = defense.safe();
        assert!(!safe.contains(&cell("h2")), "{safe:?}");
        let empty = BOARD & !p.occupied();
        for &c in &safe {
            let (after, _) = p.imagine_lone_turtle(Color::White, c).expect("empty cell");
            let white = after.turtle_mask(Color::White);
            let counters = Tactics::of(&after).captures[Color::White.index()]
                | four_cells(white, after.occupied() & !white, empty & !c.bit());
            assert!(counters != 0, "{c} breaks both threats without a counter");
        }
    }

    #[test]
    fn the_threat_game_is_solved_for_both_sides() {
        // Two threats, two cells, each cell breaking one threat (a hand-worked 2 × 2
        // game): each side mixes 1/2 – 1/2 and the attacker's line wins half the time.
        let d = Defense {
            threats: cells(&["d3", "f8"]),
            cells: cells(&["d3", "f8"]),
            lost: vec![false, true, true, false],
        };
        assert!(d.safe().is_empty());
        let (defend, lost) = d.mix();
        let (attack, won) = d.attack_mix();
        assert!(
            (lost - 0.5).abs() < 1e-9 && (won - 0.5).abs() < 1e-9,
            "{lost} {won}"
        );
        for mix in [defend, attack] {
            assert_eq!(mix.len(), 2, "{mix:?}");
            assert!(mix.iter().all(|(_, p)| (p - 0.5).abs() < 1e-9), "{mix:?}");
        }
        // A third threat that both cells leave standing: the defender cannot help
        // losing, and the attacker plays it alone.
        let d = Defense {
            threats: cells(&["d3", "f8", "b2"]),
            cells: cells(&["d3", "f8"]),
            lost: vec![false, true, true, true, false, true],
        };
        let (attack, won) = d.attack_mix();
        assert!((won - 1.0).abs() < 1e-9, "{won}");
        assert_eq!(attack, vec![(cell("b2"), 1.0)]);
    }

    #[test]
    fn the_root_advice_plays_a_forcing_line_and_keeps_to_the_breaking_cells() {
        // The four a1-d1 and the open three e5-g5 (first test): black plays its line.
        let forcing = four_and_open_three();
        let mut budget = Budget::new(BUDGET);
        match advise(&forcing, Color::Black, &[], &[], &mut budget) {
            Advice::Play(mix) => {
                assert_eq!(mix.len(), 1, "{mix:?}");
                assert!(mix[0].0 == cell("d5") || mix[0].0 == cell("h5"), "{mix:?}");
            }
            other => panic!("{other:?}"),
        }
        // The four-three fork at d3 (second test): white keeps to the cells that
        // break it (d3 and e3 among them, never the far h2); black lists its fork.
        let fork = fork();
        let white = cells(&["h2", "g7"]);
        match advise(&fork, Color::White, &white, &[], &mut Budget::new(BUDGET)) {
            Advice::Search { extra, keep } => {
                assert_eq!(extra, keep);
                assert!(keep & cell("d3").bit() != 0 && keep & cell("e3").bit() != 0);
                assert_eq!(keep & cell("h2").bit(), 0);
            }
            other => panic!("{other:?}"),
        }
        match advise(&fork, Color::Black, &[], &white, &mut Budget::new(BUDGET)) {
            Advice::Search { extra, keep } => {
                assert_eq!(keep, BOARD);
                assert!(extra & cell("d3").bit() != 0, "{extra:x}");
            }
            other => panic!("{other:?}"),
        }
        // A quiet board without threats: nothing to add.
        let quiet = position(&[("e5", 'X'), ("f6", 'O')], "-");
        assert_eq!(
            advise(&quiet, Color::Black, &[], &[], &mut Budget::new(BUDGET)),
            Advice::Search {
                extra: 0,
                keep: BOARD
            }
        );
    }

    #[test]
    fn the_budget_bounds_the_work() {
        // The forcing line of the first test, cut off after three nodes: no line.
        let p = four_and_open_three();
        let mut budget = Budget::new(3);
        assert_eq!(attack(&p, Color::Black, DEPTH, &mut budget), None);
        assert!(budget.nodes <= 3);
        assert!(budget.is_spent());
    }
}
