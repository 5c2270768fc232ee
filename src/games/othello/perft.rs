//! Perft: the number of move sequences of a given length from a position.
//!
//! Convention (CONTRACT.md): a forced pass counts as a move (one ply), and a position
//! where the game is over before the depth is reached counts as one leaf. The last
//! ply is counted in bulk from the move set.

use super::bitboard::{self, Board};

/// The number of move sequences of length `depth` from `board` (side to move =
/// `board.player`).
#[must_use]
pub fn perft(board: Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves();
    if moves == 0 {
        let passed = board.passed();
        if passed.moves() == 0 {
            return 1; // The game is over: one leaf.
        }
        return perft(passed, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    let mut rest = moves;
    while rest != 0 {
        let square = rest.trailing_zeros();
        rest &= rest - 1;
        let flipped = bitboard::flips(board.player, board.opponent, square);
        total += perft(board.after(square, flipped), depth - 1);
    }
    total
}

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
}
