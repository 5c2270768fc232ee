//! Property tests of the Othello rules (O2–O4) over random games.

use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use tabula::games::GameKind;
use tabula::games::othello::{Move, Position, random_play};
use tabula::protocol::Session;
use tabula::protocol::parse::parse_line;
use tabula::rng::Rng;

/// A position reached by `plies` random legal moves from the start.
fn random_position(seed: u64, plies: usize) -> Position {
    random_play(&mut Rng::new(seed), |_, moves| moves.len() >= plies).0
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_generated_move_flips_and_adds_one_disc(seed in any::<u64>(), plies in 0usize..60) {
        let position = random_position(seed, plies);
        let (b, w) = position.counts();
        for mv in position.legal_moves() {
            let flipped = position.check(mv).expect("generated moves are legal");
            let mut after = position;
            after.play(position.side_to_move(), mv).expect("legal");
            let (b2, w2) = after.counts();
            match mv {
                Move::Place(_) => {
                    prop_assert!(flipped != 0, "O2: a move flips at least one disc");
                    prop_assert_eq!(b2 + w2, b + w + 1);
                    let mover_gain = flipped.count_ones() + 1;
                    let (mine_before, mine_after) = if position.side_to_move() == tabula::games::Color::Black { (b, b2) } else { (w, w2) };
                    prop_assert_eq!(mine_after, mine_before + mover_gain);
                }
                Move::Pass => prop_assert_eq!((b2, w2), (b, w)),
            }
        }
    }

    #[test]
    fn notation_round_trips(seed in any::<u64>(), plies in 0usize..70) {
        let position = random_position(seed, plies);
        let text = position.to_notation();
        let parsed = Position::from_notation(&text).expect("a reached position parses");
        prop_assert_eq!(parsed, position);
        prop_assert_eq!(parsed.to_notation(), text);
    }

    #[test]
    fn a_pass_is_legal_exactly_when_no_move_exists(seed in any::<u64>(), plies in 0usize..70) {
        let position = random_position(seed, plies);
        let pass_ok = position.check(Move::Pass).is_ok();
        prop_assert_eq!(pass_ok, position.moves() == 0 && !position.is_over());
        prop_assert_eq!(position.legal_moves().is_empty(), position.is_over());
    }

    #[test]
    fn illegal_moves_change_nothing(seed in any::<u64>(), plies in 0usize..60, square in 0u32..64) {
        let position = random_position(seed, plies);
        let mut copy = position;
        let square = tabula::games::othello::Square::new(square).expect("on the board");
        let side = position.side_to_move();
        if copy.play(side, Move::Place(square)).is_err() {
            prop_assert_eq!(copy, position);
        }
        let mut copy = position;
        prop_assert!(copy.play(side.opponent(), Move::Place(square)).is_err() || position.is_over());
        if !position.is_over() { prop_assert_eq!(copy, position); }
    }

    #[test]
    fn play_then_undo_restores_the_session(seed in any::<u64>(), plies in 1usize..61) {
        let stop = AtomicBool::new(false);
        let mut session = Session::new(GameKind::Othello);
        let mut rng = Rng::new(seed);
        let mut position = Position::start();
        let mut before = Vec::new();
        for _ in 0..plies {
            let moves = position.legal_moves();
            let Some(&mv) = rng.choose(&moves) else { break };
            let side = position.side_to_move();
            before.push(session.clone());
            let (_, command) = parse_line(&format!("play {} {mv}", side.name()));
            prop_assert!(session.handle(&command.expect("parses"), &stop).is_ok());
            position.play(side, mv).expect("legal");
        }
        while let Some(previous) = before.pop() {
            let (_, undo) = parse_line("undo");
            prop_assert!(session.handle(&undo.expect("parses"), &stop).is_ok());
            prop_assert_eq!(&session, &previous);
        }
    }
}
