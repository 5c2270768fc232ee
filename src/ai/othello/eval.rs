//! The midgame evaluation: an estimate of the final disc difference for the side to
//! move in hundredths of a disc ([`DISC`]).
//!
//! Two evaluations ([`Evaluation`]): the learned pattern weights
//! ([`super::pattern`], made by `tabula train`), the midgame search's default; and
//! [`hand_tuned`], a sum of the seed's strategy ideas (side-relative, mine minus
//! theirs): mobility with corners counted twice, potential mobility (empties next
//! to the other side's discs), corners, X- and C-squares next to an empty corner,
//! stable discs, and the parity of the empties. The patterns cost more time per
//! node and more nodes per depth but win at equal time (docs/training.md has the
//! measurements); they also order the exact solver's moves ([`evaluate_with`]), where
//! they need far fewer nodes than the hand-tuned features.

use crate::games::othello::Board;
use crate::games::othello::properties::{frontier, stable_discs};

/// One disc of final margin, in evaluation units.
pub const DISC: i32 = 100;

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Each corner with its X-square and its two C-squares.
const CORNER_ZONES: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, (1 << 1) | (1 << 8)),
    (1 << 7, 1 << 14, (1 << 6) | (1 << 15)),
    (1 << 56, 1 << 49, (1 << 57) | (1 << 48)),
    (1 << 63, 1 << 54, (1 << 62) | (1 << 55)),
];

#[inline]
fn weighted(moves: u64) -> i32 {
    (moves.count_ones() + (moves & CORNERS).count_ones()) as i32
}

/// Which evaluation a search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// [`hand_tuned`].
    Hand,
    /// The learned pattern weights (the hand-tuned one should they not load).
    #[default]
    Pattern,
}

impl Evaluation {
    /// `hand` or `pattern` (any case).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Evaluation> {
        match name.to_ascii_lowercase().as_str() {
            "hand" => Some(Evaluation::Hand),
            "pattern" => Some(Evaluation::Pattern),
            _ => None,
        }
    }

    /// The estimated final margin of `board` for the side to move, in [`DISC`]
    /// units. The game must not be over (the search scores finished games exactly).
    #[inline]
    #[must_use]
    pub fn score(self, board: &Board) -> i32 {
        self.score_with(board, board.moves(), board.passed().moves())
    }

    /// [`Evaluation::score`] with the legal moves of the side to move (`mine`) and
    /// of its opponent (`theirs`) given (the hand-tuned evaluation computes its
    /// own).
    #[inline(always)]
    #[must_use]
    pub fn score_with(self, board: &Board, mine: u64, theirs: u64) -> i32 {
        match (self, super::pattern::trained()) {
            (Evaluation::Pattern, Some(weights)) => weights.evaluate_with(board, mine, theirs),
            _ => hand_tuned(board),
        }
    }
}

/// The evaluation that orders the solver's moves: the learned patterns (the
/// hand-tuned features should they not load), in [`DISC`] units, with the legal
/// moves of the side to move (`mine`) and of its opponent (`theirs`) given by the
/// caller's move generator (the hand-tuned evaluation computes its own). Always
/// inlined, so the solver's per-instruction-set copies compile their own.
#[inline(always)]
#[must_use]
pub fn evaluate_with(board: &Board, mine: u64, theirs: u64) -> i32 {
    Evaluation::Pattern.score_with(board, mine, theirs)
}

/// The hand-tuned evaluation, in [`DISC`] units (see the module notes).
#[must_use]
pub fn hand_tuned(board: &Board) -> i32 {
    let (me, them) = (board.player, board.opponent);
    let empty = board.empty();
    let empties = empty.count_ones() as i32;
    let mobility = weighted(board.moves()) - weighted(board.passed().moves());
    let potential =
        frontier(them, empty).count_ones() as i32 - frontier(me, empty).count_ones() as i32;
    let corners = (me & CORNERS).count_ones() as i32 - (them & CORNERS).count_ones() as i32;
    let mut x_squares = 0;
    let mut c_squares = 0;
    for (corner, x, c) in CORNER_ZONES {
        if empty & corner != 0 {
            x_squares += i32::from(me & x != 0) - i32::from(them & x != 0);
            c_squares += (me & c).count_ones() as i32 - (them & c).count_ones() as i32;
        }
    }
    let stable = if (me | them) & CORNERS != 0 {
        stable_discs(me, them).count_ones() as i32 - stable_discs(them, me).count_ones() as i32
    } else {
        0
    };
    let discs = me.count_ones() as i32 - them.count_ones() as i32;
    // Early, fewer discs is better (more mobility to come); late, discs count.
    let disc_weight = if empties > 40 { -4 } else { 20 - empties / 2 };
    let parity = if empties % 2 == 1 { 60 } else { -60 };
    mobility * 90 + potential * 30 + corners * 550 - x_squares * 300 - c_squares * 80
        + stable * 90
        + discs * disc_weight
        + parity * i32::from(empties < 20)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::Position;

    /// The committed weights load, and judge like an Othello player: in random
    /// midgame positions, a corner of one's own is mostly worth more than the same
    /// corner for the opponent.
    #[test]
    fn the_committed_pattern_weights_load_and_judge_sensibly() {
        assert!(super::super::pattern::trained().is_some());
        let pattern = Evaluation::Pattern;
        let mut rng = crate::rng::Rng::new(4);
        let (mut tried, mut agreed) = (0, 0);
        while tried < 200 {
            let mut position = Position::start();
            let plies = 20 + rng.below(20);
            for _ in 0..plies {
                let moves = position.legal_moves();
                let Some(&mv) = rng.choose(&moves) else { break };
                let side = position.side_to_move();
                position.play(side, mv).expect("legal");
            }
            let board = position.board();
            let free = board.empty() & CORNERS;
            if free == 0 || position.is_over() {
                continue;
            }
            let corner = 1u64 << free.trailing_zeros();
            let mine = Board {
                player: board.player | corner,
                opponent: board.opponent,
            };
            let theirs = Board {
                player: board.player,
                opponent: board.opponent | corner,
            };
            tried += 1;
            agreed += i32::from(pattern.score(&mine) > pattern.score(&theirs));
        }
        // Discs dropped on a corner make positions no game reaches, so a learned
        // evaluation may err on some (the committed weights agree on 172 of 200).
        assert!(agreed >= 160, "{agreed} of {tried}");
        assert_eq!(Evaluation::from_name("PATTERN"), Some(Evaluation::Pattern));
        assert_eq!(Evaluation::from_name("hand"), Some(Evaluation::Hand));
        assert_eq!(Evaluation::from_name("edax"), None);
    }

    #[test]
    fn the_start_is_balanced_and_a_corner_is_good() {
        let start = Position::start().board();
        let with_corner = Board {
            player: start.player | 1,
            opponent: start.opponent,
        };
        assert!(hand_tuned(&start).abs() < DISC);
        assert!(hand_tuned(&with_corner) > hand_tuned(&start) + 3 * DISC);
    }
}
