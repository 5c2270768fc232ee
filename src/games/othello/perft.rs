//! Perft: the number of move sequences of a given length from a position.
//!
//! Convention (CONTRACT.md): a forced pass counts as a move (one ply), and a position
//! where the game is over before the depth is reached counts as one leaf. The last
//! ply is counted in bulk from the move set.
//!
//! The recursion is compiled once per instruction set (see [`crate::cpu`]) and
//! [`perft`] runs the copy for the detected one. [`perft_until`] is the same count
//! with a way out for long ones: it splits the top plies itself and asks a stop
//! condition before each subtree of [`POLL_DEPTH`] plies, which the fast recursion
//! then counts whole.

use super::bitboard::{self, Board};
use crate::cpu::{Isa, dispatch, isa_copies};

/// The number of move sequences of length `depth` from `board` (side to move =
/// `board.player`), on the best instruction set of this machine.
#[must_use]
pub fn perft(board: Board, depth: u32) -> u64 {
    perft_on(Isa::detected(), board, depth)
}

/// The plies left below which [`perft_until`] counts a subtree in one go, without
/// asking the stop condition: from any position a few million leaves at most, a few
/// milliseconds. Above it the condition is asked once per subtree, a cost lost in the
/// noise (perft 12 from the start asks it about 10,000 times for 2 billion leaves).
pub const POLL_DEPTH: u32 = 6;

/// [`perft`], given up (`None`) soon after `stopped` answers true: it is asked before
/// every subtree of more than [`POLL_DEPTH`] plies and before the last split, so a
/// condition already true answers `None` at once.
pub fn perft_until(board: Board, depth: u32, stopped: &impl Fn() -> bool) -> Option<u64> {
    split(Isa::detected(), board, depth, stopped)
}

fn split(isa: Isa, board: Board, depth: u32, stopped: &impl Fn() -> bool) -> Option<u64> {
    if stopped() {
        return None;
    }
    let moves = board.moves();
    if moves == 0 && depth > POLL_DEPTH && board.passed().moves() != 0 {
        // A forced pass is a ply of its own.
        return split(isa, board.passed(), depth - 1, stopped);
    }
    if depth <= POLL_DEPTH || moves == 0 {
        // Shallow enough to count whole, or the game is over (the recursion's leaf).
        return Some(perft_on(isa, board, depth));
    }
    (0..64)
        .filter(|square| moves >> square & 1 != 0)
        .map(|square| {
            let child = board.after(
                square,
                bitboard::flips(board.player, board.opponent, square),
            );
            split(isa, child, depth - 1, stopped)
        })
        .sum()
}

/// [`perft`] with the compiled copy for `isa`, which must be [`Isa::Portable`] or one
/// [`Isa::detected`] returned.
fn perft_on(isa: Isa, board: Board, depth: u32) -> u64 {
    dispatch!(isa, perft(board, depth))
}

/// The recursion, once per instruction set (`$isa`: the copy's name, whose kernels it
/// uses; `$feature`: the attributes of the copy).
macro_rules! perft_recursion {
    ($isa:ident $(#[$feature:meta])*) => {
        use crate::games::othello::bitboard::$isa::{flips, moves};

        $(#[$feature])*
        pub(super) fn perft(board: Board, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let legal = moves(board.player, board.opponent);
            if legal == 0 {
                let passed = board.passed();
                if moves(passed.player, passed.opponent) == 0 {
                    return 1; // The game is over: one leaf.
                }
                return perft(passed, depth - 1);
            }
            if depth == 1 {
                return u64::from(legal.count_ones());
            }
            let mut total = 0;
            let mut rest = legal;
            while rest != 0 {
                let square = rest.trailing_zeros();
                rest &= rest - 1;
                let flipped = flips(board.player, board.opponent, square);
                total += perft(board.after(square, flipped), depth - 1);
            }
            total
        }
    };
}
isa_copies!(perft_recursion);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::Position;

    #[test]
    fn start_position_depths_1_to_9_match_published_counts() {
        // Aart Bik's published counts (passes as moves), also in shared/data.
        let expected = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
        let board = Position::start().board();
        for (depth, &count) in (1..).zip(expected.iter()) {
            assert_eq!(perft(board, depth), count, "depth {depth}");
        }
    }

    #[test]
    fn perft_until_counts_the_same_and_stops_when_asked() {
        let never = || false;
        for board in sample_boards() {
            for depth in [0, 1, POLL_DEPTH, POLL_DEPTH + 2] {
                assert_eq!(
                    perft_until(board, depth, &never),
                    Some(perft(board, depth)),
                    "depth {depth} on {board:?}"
                );
            }
        }
        let start = Position::start().board();
        assert_eq!(perft_until(start, 1, &|| true), None);
        // Stopped after a few questions: far fewer than a whole perft 14 asks.
        let asked = std::cell::Cell::new(0u32);
        let stopped = || {
            asked.set(asked.get() + 1);
            asked.get() > 100
        };
        assert_eq!(perft_until(start, 14, &stopped), None);
        assert_eq!(asked.get(), 101);
    }

    #[test]
    fn every_instruction_set_counts_the_same_as_the_portable_copy() {
        for board in sample_boards() {
            let expected = perft_on(Isa::Portable, board, 7);
            for isa in Isa::available() {
                assert_eq!(perft_on(isa, board, 7), expected, "{isa:?} on {board:?}");
            }
        }
    }

    /// The start and positions after random plies, where passes and finished games
    /// occur within a few plies.
    fn sample_boards() -> Vec<Board> {
        let mut rng = crate::rng::Rng::new(31);
        let mut boards = vec![Position::start().board()];
        for plies in [10, 20, 30, 40, 50] {
            let mut board = Position::start().board();
            for _ in 0..plies {
                let mut moves = board.moves();
                if moves == 0 {
                    board = board.passed();
                    moves = board.moves();
                    if moves == 0 {
                        break;
                    }
                }
                let mut pick = rng.below(u64::from(moves.count_ones()));
                while pick > 0 {
                    moves &= moves - 1;
                    pick -= 1;
                }
                let square = moves.trailing_zeros();
                board = board.after(
                    square,
                    crate::games::othello::bitboard::flips(board.player, board.opponent, square),
                );
            }
            boards.push(board);
        }
        boards
    }
}
