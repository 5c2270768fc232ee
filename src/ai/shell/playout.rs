//! Playouts: a game finished from a position by cheap policies, for the search's leaf
//! values and for the benchmark.
//!
//! The guided policy, per colour and turn, from bitboards only: a cell that completes
//! our five (15 times in 16), else one that completes the opponent's (to block, 7 in
//! 8), else a capture (1 in 2), else a cell within distance 2 of the stones (7 in 8),
//! else any empty cell. The uniform policy picks any empty cell. Both only ever pick
//! empty cells, so every turn resolves; a playout stops after [`MAX_TURNS`] turns and
//! counts as a draw then.
//!
//! Values are black's: +1 a black win, −1 a white win, 0 a draw.

use super::candidates::{capture_cells, double_fours, five_holes, grow};
use crate::games::shell::Cell;
use crate::games::shell::Position;
use crate::games::shell::cell::BOARD;
use crate::games::{Color, Status};
use crate::rng::Rng;

/// The longest playout, in turns (a board fills in at most 81 turns unless captures
/// keep emptying it).
pub const MAX_TURNS: u32 = 160;

/// Black's value of a finished game: +1, −1 or 0.
#[must_use]
pub fn value(status: Status) -> f64 {
    match status.winner() {
        Some(Color::Black) => 1.0,
        Some(Color::White) => -1.0,
        None => 0.0,
    }
}

/// The cell of the `k`-th set bit of `mask` (lowest first), if there are that many.
#[inline]
fn nth_cell(mask: u128, k: u32) -> Option<Cell> {
    let low = mask as u64;
    let low_count = low.count_ones();
    let (mut word, base, mut k) = if k < low_count {
        (low, 0, k)
    } else {
        ((mask >> 64) as u64, 64, k - low_count)
    };
    while k > 0 {
        word &= word.wrapping_sub(1);
        k -= 1;
    }
    if word == 0 {
        return None;
    }
    Cell::from_index(base + word.trailing_zeros() as usize)
}

/// A uniformly chosen cell of `mask`, or `None` when it is empty.
#[inline]
pub(crate) fn random_cell(mask: u128, rng: &mut Rng) -> Option<Cell> {
    let n = mask.count_ones();
    if n == 0 {
        return None;
    }
    nth_cell(mask, rng.below(u64::from(n)) as u32)
}

/// What both policies read from the board once per turn.
struct Board {
    empty: u128,
    near: u128,
    holes: [u128; 2],
    captures: [u128; 2],
    doubles: [u128; 2],
}

/// What the guided policy plays for besides fives and captures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Policy {
    /// Fives (to complete or block), captures, cells near the stones.
    #[default]
    Fours,
    /// Also, while no cell completes a five, the double-four cells
    /// ([`double_fours`]): a colour makes its open four (3 in 4) or else takes the
    /// opponent's cell first (3 in 4), so that a playout answers a lone open three
    /// and a fork of two is still lost. Twice the instructions of [`Policy::Fours`]
    /// per search.
    Threes,
}

impl Policy {
    /// The policy named `fours` or `threes`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Policy> {
        match name {
            "fours" => Some(Policy::Fours),
            "threes" => Some(Policy::Threes),
            _ => None,
        }
    }

    /// The policy's name, as [`Policy::from_name`] reads it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Policy::Fours => "fours",
            Policy::Threes => "threes",
        }
    }
}

impl Board {
    fn of(position: &Position, policy: Policy) -> Board {
        let occupied = position.occupied();
        let empty = BOARD & !occupied;
        let black = position.turtle_mask(Color::Black);
        let white = position.turtle_mask(Color::White);
        let holes = [five_holes(black, empty), five_holes(white, empty)];
        let doubles = if policy == Policy::Threes && holes == [0, 0] {
            [
                double_fours(black, occupied & !black, empty),
                double_fours(white, occupied & !white, empty),
            ]
        } else {
            [0, 0]
        };
        Board {
            empty,
            near: grow(grow(occupied)) & empty,
            holes,
            captures: [
                capture_cells(black, occupied),
                capture_cells(white, occupied),
            ],
            doubles,
        }
    }

    fn guided(&self, color: Color, rng: &mut Rng) -> Option<Cell> {
        let me = color.index();
        let them = color.opponent().index();
        if self.holes[me] != 0 && rng.below(16) < 15 {
            return random_cell(self.holes[me], rng);
        }
        if self.holes[them] != 0 && rng.below(8) < 7 {
            return random_cell(self.holes[them], rng);
        }
        if self.doubles[me] != 0 && rng.below(4) < 3 {
            return random_cell(self.doubles[me], rng);
        }
        if self.doubles[them] != 0 && rng.below(4) < 3 {
            return random_cell(self.doubles[them], rng);
        }
        if self.captures[me] != 0 && rng.below(2) == 0 {
            return random_cell(self.captures[me], rng);
        }
        if self.near != 0 && rng.below(8) < 7 {
            return random_cell(self.near, rng);
        }
        random_cell(self.empty, rng)
    }
}

/// Plays `position` out with the guided policy ([`Policy::Fours`]); black's value and
/// the turns played.
#[must_use]
pub fn guided(position: Position, rng: &mut Rng) -> (f64, u32) {
    guided_with(position, rng, Policy::Fours)
}

/// [`guided`] with `policy`.
#[must_use]
pub fn guided_with(mut position: Position, rng: &mut Rng, policy: Policy) -> (f64, u32) {
    for turn in 0..MAX_TURNS {
        if position.status().is_over() {
            return (value(position.status()), turn);
        }
        let board = Board::of(&position, policy);
        let (Some(black), Some(white)) = (
            board.guided(Color::Black, rng),
            board.guided(Color::White, rng),
        ) else {
            return (0.0, turn);
        };
        if position.resolve_turn_quiet(black, white).is_err() {
            return (0.0, turn);
        }
    }
    (value(position.status()), MAX_TURNS)
}

/// Plays `position` out with uniformly random picks; black's value and the turns.
#[must_use]
pub fn uniform(mut position: Position, rng: &mut Rng) -> (f64, u32) {
    for turn in 0..MAX_TURNS {
        if position.status().is_over() {
            return (value(position.status()), turn);
        }
        let empty = BOARD & !position.occupied();
        let (Some(black), Some(white)) = (random_cell(empty, rng), random_cell(empty, rng)) else {
            return (0.0, turn);
        };
        if position.resolve_turn_quiet(black, white).is_err() {
            return (0.0, turn);
        }
    }
    (value(position.status()), MAX_TURNS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_cell_walks_both_words() {
        let mask = (1u128 << 3) | (1u128 << 63) | (1u128 << 64) | (1u128 << 80);
        let got: Vec<usize> = (0..4)
            .filter_map(|k| nth_cell(mask, k).map(Cell::index))
            .collect();
        assert_eq!(got, vec![3, 63, 64, 80]);
        assert_eq!(nth_cell(mask, 4), None);
    }

    #[test]
    fn the_threes_policy_makes_and_blocks_open_fours() {
        // Black's open three c5-d5-e5 (b5 or f5 makes an open four), white's lone
        // turtle far away: no cell completes a five and none captures.
        let p = crate::ai::shell::testing::position(
            &[("c5", 'X'), ("d5", 'X'), ("e5", 'X'), ("i9", 'O')],
            "-",
        );
        let ends = ["b5", "f5"]
            .iter()
            .filter_map(|n| Cell::parse(n))
            .fold(0u128, |m, c| m | c.bit());
        let share = |policy: Policy, color: Color| {
            let board = Board::of(&p, policy);
            let mut rng = Rng::new(5);
            let hits = (0..400)
                .filter(|_| {
                    board
                        .guided(color, &mut rng)
                        .is_some_and(|c| ends & c.bit() != 0)
                })
                .count();
            hits as f64 / 400.0
        };
        for color in Color::ALL {
            // 3 in 4 by rule, plus the near cells' chance of an end.
            assert!(share(Policy::Threes, color) > 0.7, "{color:?}");
            // Near the stones there are some 30 cells: an end is a rare pick.
            assert!(share(Policy::Fours, color) < 0.2, "{color:?}");
        }
    }

    #[test]
    fn playouts_end_with_a_status_and_are_seeded() {
        for seed in 0..20 {
            let (v, turns) = guided(Position::new(), &mut Rng::new(seed));
            assert!((-1.0..=1.0).contains(&v));
            assert!(turns > 0);
            assert_eq!(guided(Position::new(), &mut Rng::new(seed)), (v, turns));
            let (t, _) = guided_with(Position::new(), &mut Rng::new(seed), Policy::Threes);
            assert!((-1.0..=1.0).contains(&t));
            let (u, _) = uniform(Position::new(), &mut Rng::new(seed));
            assert!((-1.0..=1.0).contains(&u));
        }
    }
}
