//! Random play from the start: the one generator of random Othello positions, for
//! random openings (`tabula arena --random-plies`) and for tests.

use super::{Move, Position};
use crate::rng::Rng;

/// Plays uniformly random legal moves from the start (a forced pass is a move), each
/// drawn with `rng`, until `stop` holds for the position and the moves so far or the
/// game is over; answers the position reached and the moves.
pub fn random_play(
    rng: &mut Rng,
    mut stop: impl FnMut(&Position, &[Move]) -> bool,
) -> (Position, Vec<Move>) {
    let mut position = Position::start();
    let mut moves = Vec::new();
    while !stop(&position, &moves) {
        let legal = position.legal_moves();
        let Some(&mv) = rng.choose(&legal) else {
            break;
        };
        if position.play(position.side_to_move(), mv).is_err() {
            break;
        }
        moves.push(mv);
    }
    (position, moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_play_stops_where_asked_or_at_the_end_and_repeats_per_seed() {
        let (position, moves) = random_play(&mut Rng::new(7), |_, moves| moves.len() == 10);
        assert_eq!(moves.len(), 10);
        let mut replayed = Position::start();
        for &mv in &moves {
            replayed.play(replayed.side_to_move(), mv).expect("legal");
        }
        assert_eq!(replayed, position);
        assert_eq!(
            random_play(&mut Rng::new(7), |_, moves| moves.len() == 10),
            (position, moves)
        );
        let (end, _) = random_play(&mut Rng::new(7), |_, _| false);
        assert!(end.is_over());
    }
}
