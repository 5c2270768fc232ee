//! Game knowledge for the search: which cells are worth picking.
//!
//! Everything here works on the position's bitboards and never allocates except the
//! candidate list it returns:
//! - `five_holes`: empty cells that would complete a line of five for a colour (a
//!   fast over-approximation of the winning cells, used by playouts);
//! - `capture_cells`: empty cells where a new turtle would capture (S5);
//! - [`Tactics`]: the verified winning cells and the capture cells of both colours;
//! - [`candidates`]: the cells a colour considers in a tree node — every tactical cell
//!   first, then the best cells within distance 2 of the stones by a line-window score
//!   (the five-cell windows through a cell that the opponent has not spoiled, weighted
//!   by how many of our turtles they hold; and the same for the opponent, to block).
//!
//! Invariant: every cell returned is empty in the position it was computed from.

use crate::games::shell::cell::{BOARD, Dir, adjacent};
use crate::games::shell::{Cell, Position};
use crate::games::{Color, Status};

/// The cells within (Chebyshev) distance 1 of `mask`, `mask` included.
#[inline]
pub(crate) fn grow(mask: u128) -> u128 {
    mask | adjacent(mask)
}

/// Moves `mask` `steps` cells along `dir` (no wrapping).
#[inline]
fn shift_by(dir: Dir, mut mask: u128, steps: u32) -> u128 {
    for _ in 0..steps {
        mask = dir.shift(mask);
    }
    mask
}

/// The empty cells `x` such that a turtle of the colour owning `own` on `x` would lie
/// in five in a row of that colour (four of the five cells already `own`).
#[inline]
pub(crate) fn five_holes(own: u128, empty: u128) -> u128 {
    if own.count_ones() < 4 {
        return 0;
    }
    // One direction, inlined with a constant `dir` so that every shift is a plain one.
    #[inline(always)]
    fn along(own: u128, dir: Dir) -> u128 {
        let back = dir.opposite();
        // a_j = cells x with x + j·dir in own; b_j likewise backwards.
        let a1 = back.shift(own);
        let a2 = back.shift(a1);
        let a3 = back.shift(a2);
        let a4 = back.shift(a3);
        let b1 = dir.shift(own);
        let b2 = dir.shift(b1);
        let b3 = dir.shift(b2);
        let b4 = dir.shift(b3);
        // The hole is the k-th cell of the window: k cells of own behind it, 4 − k
        // ahead (a1a2a3a4, b1a1a2a3, b1b2a1a2, b1b2b3a1, b1b2b3b4), factored.
        let (a12, b12) = (a1 & a2, b1 & b2);
        (a12 & ((a3 & (a4 | b1)) | b12)) | (b12 & b3 & (a1 | b4))
    }
    let holes = along(own, Dir::East)
        | along(own, Dir::South)
        | along(own, Dir::SouthEast)
        | along(own, Dir::SouthWest);
    holes & empty
}

/// The empty cells where a new turtle of the colour owning `own` would capture (S5):
/// two stones not its own, then one of its turtles.
#[inline]
pub(crate) fn capture_cells(own: u128, occupied: u128) -> u128 {
    capture_rays(own, occupied)
        .iter()
        .fold(0, |cells, &ray| cells | ray)
}

/// [`capture_cells`] one direction at a time ([`Dir::ALL`] order): the empty cells
/// whose new turtle would capture along that direction.
#[inline]
pub(crate) fn capture_rays(own: u128, occupied: u128) -> [u128; 8] {
    let others = occupied & !own;
    let empty = BOARD & !occupied;
    Dir::ALL.map(|dir| {
        let back = dir.opposite();
        let other1 = back.shift(others);
        let other2 = back.shift(other1);
        let own3 = shift_by(back, own, 3);
        other1 & other2 & own3 & empty
    })
}

/// The empty cells where a new turtle of the colour owning `own` would leave two or
/// more cells that complete its five (an open four, or two fours at once), so that one
/// block cannot stop it; `blocked` holds the stones that spoil a line (the opponent's
/// turtles and the eggs). Like [`five_holes`] it ignores captures.
#[must_use]
pub(crate) fn double_fours(own: u128, blocked: u128, empty: u128) -> u128 {
    let mut suspects = 0u128;
    for window in WINDOWS {
        if window & blocked == 0 && (window & own).count_ones() == 3 {
            suspects |= window & empty;
        }
    }
    let mut doubles = 0u128;
    while suspects != 0 {
        let bit = suspects & suspects.wrapping_neg();
        suspects &= suspects - 1;
        if five_holes(own | bit, empty & !bit).count_ones() >= 2 {
            doubles |= bit;
        }
    }
    doubles
}

/// The empty cells where a new turtle of the colour owning `own` would leave a cell
/// that completes its five (a four): the empty cells of the windows holding three of
/// its turtles and nothing of `blocked`.
#[must_use]
pub(crate) fn four_cells(own: u128, blocked: u128, empty: u128) -> u128 {
    WINDOWS
        .iter()
        .filter(|&&window| window & blocked == 0 && (window & own).count_ones() == 3)
        .fold(0, |cells, window| cells | (window & empty))
}

/// The tactical cells of a position, per colour (indexed by [`Color::index`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tactics {
    /// Cells where a lone turtle of that colour wins at once (verified with
    /// [`Position::imagine_lone_turtle`], hatching chains included).
    pub wins: [u128; 2],
    /// Cells where a new turtle of that colour captures.
    pub captures: [u128; 2],
    /// Cells where a turtle of that colour would make a double four
    /// ([`double_fours`]): the threats to make, or to block before they are made.
    pub doubles: [u128; 2],
}

impl Tactics {
    /// The tactics of `position` (all empty when the game is over).
    #[must_use]
    pub fn of(position: &Position) -> Tactics {
        let mut tactics = Tactics::default();
        if position.status().is_over() {
            return tactics;
        }
        let occupied = position.occupied();
        let empty = BOARD & !occupied;
        for color in Color::ALL {
            let own = position.turtle_mask(color);
            let captures = capture_cells(own, occupied);
            let suspects = five_holes(own, empty) | captures;
            let mut wins = 0u128;
            for cell in crate::games::shell::CellSet::from_bits(suspects) {
                if let Some((after, _)) = position.imagine_lone_turtle(color, cell)
                    && after.status() == Status::win_for(color)
                {
                    wins |= cell.bit();
                }
            }
            tactics.wins[color.index()] = wins;
            tactics.captures[color.index()] = captures;
            let blocked = occupied & !own;
            tactics.doubles[color.index()] = double_fours(own, blocked, empty);
        }
        tactics
    }

    /// True when either colour can win at once.
    #[must_use]
    pub fn is_sharp(&self) -> bool {
        self.wins != [0, 0]
    }
}

/// Every five-cell window of the board (140 of them), as masks.
pub(crate) const WINDOWS: [u128; 140] = {
    let mut windows = [0u128; 140];
    let mut n = 0;
    // (dc, dr) per forward line: east, south, south-east, south-west.
    let deltas: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];
    let mut d = 0;
    while d < 4 {
        let (dc, dr) = deltas[d];
        let mut row = 0;
        while row < 9 {
            let mut col = 0;
            while col < 9 {
                let end_col = col + 4 * dc;
                let end_row = row + 4 * dr;
                if end_col >= 0 && end_col < 9 && end_row >= 0 && end_row < 9 {
                    let mut mask = 0u128;
                    let mut k = 0;
                    while k < 5 {
                        mask |= 1u128 << ((row + k * dr) * 9 + col + k * dc);
                        k += 1;
                    }
                    windows[n] = mask;
                    n += 1;
                }
                col += 1;
            }
            row += 1;
        }
        d += 1;
    }
    windows
};

/// Weight of a window holding `n` of our turtles and nothing of the opponent's.
const OWN_WEIGHT: [i32; 5] = [1, 4, 20, 100, 2000];
/// Weight of a window holding `n` opponent turtles and nothing of ours (to block).
const THEIR_WEIGHT: [i32; 5] = [0, 3, 15, 80, 1500];

/// The line-window score of every cell for `color` (0 for occupied cells).
#[must_use]
pub fn window_scores(position: &Position, color: Color) -> [i32; 81] {
    weighted_window_scores(position, color, &OWN_WEIGHT, &THEIR_WEIGHT)
}

/// [`window_scores`] of both colours (indexed by [`Color::index`]) in one pass over
/// the windows.
#[must_use]
pub fn window_scores_both(position: &Position) -> [[i32; 81]; 2] {
    let black = position.turtle_mask(Color::Black);
    let white = position.turtle_mask(Color::White);
    let eggs = position.egg_cells().bits();
    let empty = BOARD & !position.occupied();
    let weight = |mine: usize, their: usize| match (mine, their) {
        (n, 0) => OWN_WEIGHT.get(n).copied().unwrap_or(0),
        (0, n) => THEIR_WEIGHT.get(n).copied().unwrap_or(0),
        _ => 0,
    };
    let mut scores = [[0i32; 81]; 2];
    for window in WINDOWS {
        if window & eggs != 0 {
            continue;
        }
        let b = (window & black).count_ones() as usize;
        let w = (window & white).count_ones() as usize;
        let weights = [weight(b, w), weight(w, b)];
        if weights == [0, 0] {
            continue;
        }
        let mut free = window & empty;
        while free != 0 {
            let index = free.trailing_zeros() as usize;
            free &= free - 1;
            for (side, add) in scores.iter_mut().zip(weights) {
                if let Some(score) = side.get_mut(index) {
                    *score += add;
                }
            }
        }
    }
    scores
}

/// The line-window score of every cell for `color` with the given weights: each
/// five-cell window without eggs through an empty cell adds `own[n]` when it holds `n`
/// of our turtles and none of the opponent's, `their[n]` for `n` of theirs and none of
/// ours (0 for occupied cells).
#[must_use]
pub fn weighted_window_scores(
    position: &Position,
    color: Color,
    own_weight: &[i32; 5],
    their_weight: &[i32; 5],
) -> [i32; 81] {
    let own = position.turtle_mask(color);
    let theirs = position.turtle_mask(color.opponent());
    let eggs = position.egg_cells().bits();
    let empty = BOARD & !position.occupied();
    let mut scores = [0i32; 81];
    for window in WINDOWS {
        if window & eggs != 0 {
            continue;
        }
        let mine = (window & own).count_ones() as usize;
        let their = (window & theirs).count_ones() as usize;
        let weight = match (mine, their) {
            (n, 0) => own_weight.get(n).copied().unwrap_or(0),
            (0, n) => their_weight.get(n).copied().unwrap_or(0),
            _ => 0,
        };
        if weight == 0 {
            continue;
        }
        let mut free = window & empty;
        while free != 0 {
            let index = free.trailing_zeros() as usize;
            free &= free - 1;
            if let Some(score) = scores.get_mut(index) {
                *score += weight;
            }
        }
    }
    scores
}

/// Appends to `list` the `k` cells of `mask` with the highest `scores`, best first,
/// ties to the lower index: the first `k` of `mask` sorted by (score descending,
/// index), without sorting it all.
fn best_cells(mask: u128, scores: &[i32; 81], k: usize, list: &mut Vec<Cell>) {
    let start = list.len();
    for cell in crate::games::shell::CellSet::from_bits(mask) {
        let score = scores.get(cell.index()).copied().unwrap_or(0);
        let better = |c: &Cell| scores.get(c.index()).copied().unwrap_or(0) < score;
        // Cells come in index order, so an equal score already listed stays ahead.
        let at = start
            + list
                .get(start..)
                .map_or(0, |best| best.iter().position(better).unwrap_or(best.len()));
        if at - start < k {
            list.insert(at, cell);
            list.truncate(start + k);
        }
    }
}

/// The cells near the stones (distance ≤ 2), or around the centre on a board without
/// stones; always empty cells, and never none while an empty cell exists.
#[must_use]
pub fn near_cells(position: &Position) -> u128 {
    let occupied = position.occupied();
    let empty = BOARD & !occupied;
    let seed = if occupied == 0 {
        Cell::new(4, 4).map_or(0, Cell::bit)
    } else {
        occupied
    };
    let near = grow(grow(seed)) & empty;
    if near == 0 { empty } else { near }
}

/// The cells `color` considers in a tree node, best first, at most `width` of them
/// beyond the tactical ones (which are always all included):
/// - when a colour can win at once: our winning cells, the opponent's (to block by
///   collision) and our captures (which may break the opponent's line); when only
///   we can win, also the best few quiet cells;
/// - when a colour can make a double four: both colours' double-four cells (ours to
///   make, theirs to take first), both colours' captures, and the best few quiet
///   cells;
/// - otherwise: both colours' capture cells, then the best-scored cells near the
///   stones.
///
/// Empty when the game is over or the board is full.
#[must_use]
pub fn candidates(position: &Position, tactics: &Tactics, color: Color, width: usize) -> Vec<Cell> {
    candidates_with(position, tactics, color, width, ListOptions::default())
}

/// Weights of the steep line-window score ([`candidates_with`]'s builder cells): a
/// one-ply threat-builder's, steps of ten, the opponent's windows at 0.8 of ours.
const STEEP_OWN: [i32; 5] = [1, 10, 100, 1_000, 10_000];
const STEEP_THEIRS: [i32; 5] = [0, 8, 80, 800, 8_000];

/// The options of [`candidates_with`]; the default lists as [`candidates`] does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ListOptions {
    /// Where quiet cells are listed, also the best this many cells by the steep
    /// score of a one-ply threat-builder ([`STEEP_OWN`]) that the list lacks: the
    /// cells such a player would pick, so that the search models them for the
    /// opponent (and weighs them for itself) even where its own blended score ranks
    /// them lower.
    pub builders: usize,
    /// A colour facing a double four of the opponent's (and with none of its own)
    /// lists only the opponent's double-four cells, both colours' captures and its
    /// own four-making cells ([`four_cells`]), no quiet cell.
    pub strict: bool,
    /// Where a colour holds a lone winning cell (and the other none), both colours
    /// also list the holder's double-four cells.
    pub answers: bool,
}

/// [`candidates`], with [`ListOptions`].
#[must_use]
pub fn candidates_with(
    position: &Position,
    tactics: &Tactics,
    color: Color,
    width: usize,
    options: ListOptions,
) -> Vec<Cell> {
    let scores = window_scores(position, color);
    candidates_scored(position, tactics, color, width, options, &scores)
}

/// [`candidates_with`] for both colours (indexed by [`Color::index`]), the line
/// windows scored once for both.
#[must_use]
pub fn candidates_both(
    position: &Position,
    tactics: &Tactics,
    width: usize,
    options: ListOptions,
) -> [Vec<Cell>; 2] {
    let scores = window_scores_both(position);
    Color::ALL.map(|color| {
        let own = scores.get(color.index()).unwrap_or(&[0; 81]);
        candidates_scored(position, tactics, color, width, options, own)
    })
}

/// [`candidates_with`] given `color`'s [`window_scores`].
fn candidates_scored(
    position: &Position,
    tactics: &Tactics,
    color: Color,
    width: usize,
    ListOptions {
        builders,
        strict,
        answers,
    }: ListOptions,
    scores: &[i32; 81],
) -> Vec<Cell> {
    if position.status().is_over() {
        return Vec::new();
    }
    let me = color.index();
    let them = color.opponent().index();
    let empty = BOARD & !position.occupied();
    let (forced, quiet) = if tactics.wins[them] != 0 {
        // With `answers`, facing a lone winning cell (and none of ours), also the
        // opponent's double-four cells: the attacker may leave its four standing and
        // make a double four instead, which only taking that cell first stops.
        let preempt = if answers && tactics.wins[me] == 0 && tactics.wins[them].count_ones() == 1 {
            tactics.doubles[them]
        } else {
            0
        };
        (
            tactics.wins[me] | tactics.wins[them] | tactics.captures[me] | preempt,
            0,
        )
    } else if tactics.wins[me] != 0 {
        // With `answers`, a lone winning cell's holder also lists its double-four
        // cells: a second threat instead of the guess the opponent blocks.
        let second = if answers && tactics.wins[me].count_ones() == 1 {
            tactics.doubles[me]
        } else {
            0
        };
        (
            tactics.wins[me] | tactics.captures[me] | second,
            width.min(4),
        )
    } else if strict && tactics.doubles[me] == 0 && tactics.doubles[them] != 0 {
        // Only the opponent can make a double four: take its cells first, capture,
        // or answer with a four of ours; nothing quiet.
        let own = position.turtle_mask(color);
        let fours = four_cells(own, position.occupied() & !own, empty);
        (
            tactics.doubles[them] | tactics.captures[me] | tactics.captures[them] | fours,
            0,
        )
    } else if tactics.doubles != [0, 0] {
        (
            tactics.doubles[me]
                | tactics.doubles[them]
                | tactics.captures[me]
                | tactics.captures[them],
            width.min(4),
        )
    } else {
        (tactics.captures[me] | tactics.captures[them], width)
    };
    let forced = forced & empty;
    let score = |cell: &Cell| scores.get(cell.index()).copied().unwrap_or(0);
    let mut list: Vec<Cell> = Vec::with_capacity(forced.count_ones() as usize + quiet + builders);
    list.extend(crate::games::shell::CellSet::from_bits(forced).iter());
    // Keys are unique (the index breaks ties), so an unstable sort gives the order.
    list.sort_unstable_by_key(|c| (std::cmp::Reverse(score(c)), c.index()));
    if quiet > 0 {
        best_cells(near_cells(position) & !forced, scores, quiet, &mut list);
        if builders > 0 {
            let steep = weighted_window_scores(position, color, &STEEP_OWN, &STEEP_THEIRS);
            let steep_score = |cell: &Cell| steep.get(cell.index()).copied().unwrap_or(0);
            let mut more: Vec<Cell> =
                crate::games::shell::CellSet::from_bits(near_cells(position) & !forced)
                    .iter()
                    .filter(|c| !list.contains(c))
                    .collect();
            more.sort_by_key(|c| (std::cmp::Reverse(steep_score(c)), c.index()));
            more.truncate(builders);
            list.extend(more);
        }
    }
    if list.is_empty()
        && let Some(cell) = crate::games::shell::CellSet::from_bits(empty).iter().next()
    {
        list.push(cell);
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::shell::testing::position;
    use crate::games::shell::CellSet;

    fn set(names: &[&str]) -> u128 {
        names
            .iter()
            .filter_map(|n| Cell::parse(n))
            .fold(0, |m, c| m | c.bit())
    }

    #[test]
    fn best_cells_are_the_head_of_the_sorted_list() {
        let mut rng = crate::rng::Rng::new(9);
        for _ in 0..200 {
            let mask = (u128::from(rng.next_u64()) | (u128::from(rng.next_u64()) << 64)) & BOARD;
            let mut scores = [0i32; 81];
            for score in &mut scores {
                // Few distinct values, so that ties are common.
                *score = rng.below(6) as i32;
            }
            let k = rng.below(6) as usize;
            let mut sorted: Vec<Cell> = CellSet::from_bits(mask).iter().collect();
            sorted.sort_by_key(|c| (std::cmp::Reverse(scores[c.index()]), c.index()));
            sorted.truncate(k);
            let head = Cell::new(0, 0).map_or(Vec::new(), |c| vec![c]);
            let mut got = head.clone();
            best_cells(mask, &scores, k, &mut got);
            assert_eq!(got.get(..head.len()), Some(&head[..]));
            assert_eq!(got.get(head.len()..), Some(&sorted[..]));
        }
    }

    #[test]
    fn five_holes_and_both_scores_agree_with_the_windows() {
        let mut rng = crate::rng::Rng::new(4);
        for _ in 0..100 {
            let mut marks = Vec::new();
            for cell in Cell::ALL {
                match rng.below(8) {
                    0 | 1 => marks.push((cell, 'X')),
                    2 | 3 => marks.push((cell, 'O')),
                    _ => {}
                }
            }
            let names: Vec<(String, char)> =
                marks.iter().map(|(c, m)| (c.to_string(), *m)).collect();
            let refs: Vec<(&str, char)> = names.iter().map(|(n, m)| (n.as_str(), *m)).collect();
            let p = position(&refs, "-");
            let empty = BOARD & !p.occupied();
            for color in Color::ALL {
                let own = p.turtle_mask(color);
                let naive = WINDOWS
                    .iter()
                    .filter(|&&w| (w & own).count_ones() == 4 && w & empty != 0)
                    .fold(0, |m, &w| m | (w & empty));
                assert_eq!(five_holes(own, empty), naive);
                assert_eq!(
                    window_scores_both(&p)[color.index()],
                    window_scores(&p, color)
                );
            }
        }
    }

    #[test]
    fn windows_are_all_distinct_fives() {
        assert!(WINDOWS.iter().all(|w| w.count_ones() == 5));
        let mut sorted = WINDOWS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 140);
    }

    #[test]
    fn five_holes_find_every_gap_of_a_four() {
        let own = set(&["b5", "c5", "d5", "e5"]);
        let empty = BOARD & !own;
        assert_eq!(five_holes(own, empty), set(&["a5", "f5"]));
        let split = set(&["b2", "c3", "e5", "f6"]);
        assert_eq!(five_holes(split, BOARD & !split), set(&["d4"]));
        // No wrap: g1 h1 i1 a2 is no line.
        let edge = set(&["g1", "h1", "i1", "a2"]);
        assert_eq!(five_holes(edge, BOARD & !edge), 0);
    }

    #[test]
    fn capture_cells_follow_s5() {
        let p = position(&[("b1", 'O'), ("c1", 'E'), ("d1", 'X'), ("e1", 'O')], "c1");
        let black = p.turtle_mask(Color::Black);
        assert_eq!(capture_cells(black, p.occupied()), set(&["a1"]));
        let white = p.turtle_mask(Color::White);
        assert_eq!(capture_cells(white, p.occupied()), 0);
    }

    #[test]
    fn tactics_verify_wins_and_candidates_block_them() {
        let p = position(
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
            ],
            "-",
        );
        let t = Tactics::of(&p);
        assert_eq!(t.wins[0], set(&["e1", "e9"]));
        assert_eq!(t.wins[1], 0);
        let white = candidates(&p, &t, Color::White, 12);
        assert_eq!(CellSet::from_iter(white).bits(), set(&["e1", "e9"]));
        let black = candidates(&p, &t, Color::Black, 12);
        assert!(black.len() >= 2 && black.len() <= 6, "{black:?}");
        assert!(black.iter().all(|&c| p.is_empty(c)));
    }

    #[test]
    fn double_fours_are_the_open_ends_of_a_three() {
        // Black's open three d5 e6 f7 on the diagonal: c4 or g8 makes an open four
        // (two cells complete five); b3 and h9 make a broken four with one such cell.
        let p = position(&[("d5", 'X'), ("e6", 'X'), ("f7", 'X'), ("e4", 'O')], "-");
        let t = Tactics::of(&p);
        assert_eq!(t.doubles, [set(&["c4", "g8"]), 0]);
        // White, who cannot win or make a double four, considers taking both first.
        let white = candidates(&p, &t, Color::White, 8);
        assert!(white.contains(&Cell::parse("c4").unwrap()), "{white:?}");
        assert!(white.contains(&Cell::parse("g8").unwrap()), "{white:?}");
        assert!(white.len() <= 6, "{white:?}");
        // An egg on b3 spoils the windows through it: only g8 is left.
        let spoiled = position(&[("d5", 'X'), ("e6", 'X'), ("f7", 'X'), ("b3", 'E')], "b3");
        assert_eq!(Tactics::of(&spoiled).doubles, [set(&["g8"]), 0]);
    }

    #[test]
    fn quiet_candidates_are_empty_near_cells_and_bounded() {
        let p = position(&[("e5", 'X'), ("d4", 'O'), ("f6", 'E')], "f6");
        let t = Tactics::of(&p);
        let list = candidates(&p, &t, Color::Black, 10);
        // White's capture g7 (over f6, e5 to d4) is tactical, on top of ten quiet cells.
        assert_eq!(t.captures[1], set(&["g7"]));
        assert_eq!(list.len(), 11);
        assert_eq!(list.first(), Cell::parse("g7").as_ref());
        let near = near_cells(&p);
        assert!(list.iter().all(|c| p.is_empty(*c) && near & c.bit() != 0));
        let start = candidates(&Position::new(), &Tactics::default(), Color::White, 30);
        assert_eq!(start.len(), 25);
        assert!(
            start
                .iter()
                .all(|c| c.col().abs_diff(4) <= 2 && c.row().abs_diff(4) <= 2)
        );
    }

    #[test]
    fn builder_cells_add_the_threat_builders_pick() {
        // Black's three c3 d3 e3 with an egg spoiling nothing near, white scattered:
        // white's blended list is narrow; with one builder cell it also holds the
        // near cell a steep threat-builder would take, and nothing twice.
        let p = position(
            &[
                ("c3", 'X'),
                ("d3", 'X'),
                ("e3", 'X'),
                ("e5", 'O'),
                ("f6", 'O'),
                ("d6", 'O'),
                ("g2", 'E'),
            ],
            "g2",
        );
        let t = Tactics::of(&p);
        for color in Color::ALL {
            let plain = candidates(&p, &t, color, 1);
            let wider = candidates_with(
                &p,
                &t,
                color,
                1,
                ListOptions {
                    builders: 2,
                    ..ListOptions::default()
                },
            );
            assert!(
                plain.iter().all(|c| wider.contains(c)),
                "{plain:?} {wider:?}"
            );
            assert!(wider.len() <= plain.len() + 2);
            let mut unique = wider.clone();
            unique.sort_by_key(|c| c.index());
            unique.dedup();
            assert_eq!(unique.len(), wider.len());
            assert!(wider.iter().all(|&c| p.is_empty(c)));
            let steep = weighted_window_scores(&p, color, &STEEP_OWN, &STEEP_THEIRS);
            let best = CellSet::from_bits(near_cells(&p))
                .iter()
                .max_by_key(|c| (steep[c.index()], std::cmp::Reverse(c.index())))
                .expect("a near cell");
            assert!(wider.contains(&best), "{best:?} not in {wider:?}");
        }
        assert_eq!(
            candidates_with(&p, &t, Color::White, 1, ListOptions::default()),
            candidates(&p, &t, Color::White, 1)
        );
    }

    #[test]
    fn strict_lists_answer_a_double_four_without_quiet_cells() {
        const STRICT: ListOptions = ListOptions {
            builders: 0,
            strict: true,
            answers: false,
        };
        // White's open three c5 d5 e5 (b5 and f5 make open fours); black has a
        // three of its own with one end spoiled: g1 h1 i1 is no window, so black's
        // d8 e8 f8 (c8 and g8 make fours, b8... too) gives four-making cells only.
        let p = position(
            &[
                ("c5", 'O'),
                ("d5", 'O'),
                ("e5", 'O'),
                ("d8", 'X'),
                ("e8", 'X'),
                ("f8", 'X'),
                ("c8", 'O'),
            ],
            "-",
        );
        let t = Tactics::of(&p);
        assert_eq!(t.doubles, [0, set(&["b5", "f5"])]);
        let strict = candidates_with(&p, &t, Color::Black, 4, STRICT);
        let cells = CellSet::from_iter(strict.iter().copied()).bits();
        assert_eq!(cells & set(&["b5", "f5"]), set(&["b5", "f5"]));
        assert_eq!(
            cells & !set(&["b5", "f5"]),
            set(&["g8", "h8"]),
            "{strict:?}"
        );
        let own = p.turtle_mask(Color::Black);
        assert_eq!(
            four_cells(own, p.occupied() & !own, BOARD & !p.occupied()),
            set(&["g8", "h8"])
        );
        // White, who has the double fours, is not narrowed.
        assert_eq!(
            candidates_with(&p, &t, Color::White, 4, STRICT),
            candidates(&p, &t, Color::White, 4)
        );
    }

    #[test]
    fn answers_list_the_double_four_beside_a_lone_winning_cell() {
        // Black's four a1 b1 c1 d1 leaves one winning cell, e1 (S2, S9); its open
        // three c5 d5 e5 makes double fours at b5 and f5. White has no line.
        let p = position(
            &[
                ("a1", 'X'),
                ("b1", 'X'),
                ("c1", 'X'),
                ("d1", 'X'),
                ("c5", 'X'),
                ("d5", 'X'),
                ("e5", 'X'),
                ("h8", 'O'),
                ("i9", 'O'),
                ("g7", 'O'),
            ],
            "-",
        );
        let t = Tactics::of(&p);
        assert_eq!(t.wins, [set(&["e1"]), 0]);
        // b5 and f5 make open fours; a5 and g5 make a four beside e1's, two cells
        // completing five as well.
        assert_eq!(t.doubles[0], set(&["a5", "b5", "f5", "g5"]));
        let doubles = t.doubles[0];
        let bits = |list: Vec<Cell>| CellSet::from_iter(list).bits();
        for color in Color::ALL {
            let plain = bits(candidates(&p, &t, color, 0));
            let answers = bits(candidates_with(
                &p,
                &t,
                color,
                0,
                ListOptions {
                    answers: true,
                    ..ListOptions::default()
                },
            ));
            assert_eq!(plain & doubles, 0, "{color:?}");
            assert_eq!(answers & doubles, doubles, "{color:?}");
            assert_eq!(answers & !doubles, plain, "{color:?}");
        }
    }
}
