//! The Othello player: the exact solver against known scores (FFO positions and
//! their children at the easy end) and against a plain minimax on random small
//! endgames, the search under forced table collisions, the node-count signature, and
//! `solve` / `hint` / `analyze` through the real binary.

use tabula::ai::Limits;
use tabula::ai::othello::search::{Searcher, root_moves};
use tabula::ai::othello::tt::Table;
use tabula::ai::othello::{Score, Settings, hint, signature, solve};
use tabula::games::Color;
use tabula::games::othello::{Move, Position, random_play};
use tabula::rng::Rng;

use crate::common::Engine;

/// FFO #40 (from `shared/data/ffo.obf`): black to move, 20 empties, every move with
/// its exact final disc difference.
const FFO_40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36; D8:+34; C1:+30; B1:+30; G7:+28; D7:+28; C6:+28; F7:+26; A6:+24;";

fn parse_ffo(line: &str) -> (Position, Vec<(Move, i32)>) {
    let (board, rest) = line.split_once(';').expect("a board and its scores");
    let position = Position::from_notation(board.trim()).expect("a valid position");
    let scores = rest
        .split(';')
        .filter_map(|item| item.trim().split_once(':'))
        .map(|(mv, score)| {
            let mv = Move::parse(mv.trim()).expect("a square");
            (mv, score.trim().parse::<i32>().expect("a score"))
        })
        .collect();
    (position, scores)
}

fn exact_settings() -> Settings {
    Settings {
        hash_mib: 4,
        endgame_empties: 64,
        threads: 1,
        ..Settings::default()
    }
}

fn exact(score: Score) -> i32 {
    match score {
        Score::Exact(discs) => discs,
        Score::Estimate(units) => panic!("not exact: {units}"),
    }
}

/// The final disc difference of a finished `position` for its side to move.
fn final_for_side(position: &Position) -> i32 {
    let margin = position.final_margin();
    if position.side_to_move() == Color::Black {
        margin
    } else {
        -margin
    }
}

/// Plain minimax over the rules, for the side to move, in discs.
fn minimax(position: &Position) -> i32 {
    if position.is_over() {
        return final_for_side(position);
    }
    let side = position.side_to_move();
    position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut after = *position;
            after.play(side, mv).expect("legal");
            if after.side_to_move() == side {
                minimax(&after)
            } else {
                -minimax(&after)
            }
        })
        .max()
        .unwrap_or(0)
}

/// `solve` with `settings` answers `position`'s exact `value` and a move that
/// keeps it (`value` scores a position for its side to move).
fn assert_solves(position: &Position, settings: &Settings, value: fn(&Position) -> i32) {
    let expected = value(position);
    let result = solve(position, Limits::depth(64), settings).expect("a move");
    assert_eq!(exact(result.score), expected, "{}", position.to_notation());
    let side = position.side_to_move();
    let mut after = *position;
    after
        .play(side, result.best)
        .expect("the solver plays legal moves");
    let kept = if after.side_to_move() == side {
        value(&after)
    } else {
        -value(&after)
    };
    assert_eq!(kept, expected, "{} is a best move", result.best);
}

/// A position reached by random legal moves from the start with `empties` empty
/// squares left (or fewer, at the game's end).
fn random_position(rng: &mut Rng, empties: u32) -> Position {
    random_play(rng, |position, _| {
        position.board().empty().count_ones() <= empties
    })
    .0
}

#[test]
fn ffo_40_children_with_the_worst_moves_solve_to_their_known_scores() {
    let (position, scores) = parse_ffo(FFO_40);
    // The children after the three lowest-scoring moves (19 empties) are the quick
    // ones; the whole of #40 is for `tabula bench othello`.
    for &(mv, score) in scores.iter().rev().take(3) {
        let mut child = position;
        child.play(Color::Black, mv).expect("legal");
        let result = solve(&child, Limits::depth(64), &exact_settings()).expect("a move");
        assert_eq!(exact(result.score), -score, "after {mv}");
    }
}

#[test]
fn random_small_endgames_are_solved_like_a_plain_minimax() {
    let mut rng = Rng::new(31);
    for round in 0..60 {
        let position = random_position(&mut rng, 2 + round % 9);
        if position.is_over() {
            continue;
        }
        assert_solves(&position, &exact_settings(), minimax);
    }
}

#[test]
fn the_search_is_exact_with_one_bucket_tables() {
    let mut rng = Rng::new(8);
    for _ in 0..30 {
        let position = random_position(&mut rng, 9);
        let board = position.board();
        if board.moves() == 0 {
            continue;
        }
        let empties = board.empty().count_ones();
        let mut searcher = Searcher::with_tables(
            Limits::depth(64),
            Table::with_buckets(1),
            Table::with_buckets(1),
        );
        let mut moves = root_moves(&board);
        let (_, score, depth) = searcher
            .iterate(&mut moves, (1..=4).chain(std::iter::once(empties)))
            .expect("an iteration finishes");
        assert_eq!(depth, empties);
        assert_eq!(
            score / 100,
            minimax(&position),
            "{}",
            position.to_notation()
        );
    }
}

/// The node-count signature: total nodes of the fixed workload at depth 6. It
/// changes only when the search does. When a change is intended, run
/// `cargo test signature -- --nocapture`, check the new count in the failure message
/// and write it here (the commit says why the search changed).
const SIGNATURE_DEPTH_6: u64 = 142_849;

#[test]
fn the_node_count_signature_is_unchanged() {
    let nodes = signature::signature(signature::POSITIONS, 6);
    assert_eq!(
        nodes, SIGNATURE_DEPTH_6,
        "the search visits {nodes} nodes; update SIGNATURE_DEPTH_6 if intended"
    );
}

#[test]
fn hint_lists_the_best_moves_with_exact_scores_near_the_end() {
    let mut rng = Rng::new(4);
    let mut checked = 0;
    while checked < 5 {
        let position = random_position(&mut rng, 8);
        if position.is_over() || position.board().moves() == 0 {
            continue;
        }
        let hints = hint(&position, Limits::depth(3), &Settings::default(), 3);
        assert!(!hints.is_empty() && hints.len() <= 3);
        assert_eq!(exact(hints[0].1), minimax(&position));
        let scores: Vec<i32> = hints.iter().map(|(_, s)| exact(*s)).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        checked += 1;
    }
}

#[test]
fn solve_and_hint_through_the_protocol() {
    let mut engine = Engine::othello();
    let (position, scores) = parse_ffo(FFO_40);
    let (worst, worst_score) = scores[scores.len() - 1];
    let mut child = position;
    child.play(Color::Black, worst).expect("legal");
    engine.ok(&format!("set_position {}", child.to_notation()));
    let answer = engine.ok("solve");
    let (mv, score) = answer.split_once(' ').expect("MOVE SCORE");
    assert!(Move::parse(mv).is_some(), "{answer}");
    assert_eq!(score.parse::<i32>().expect("a number"), -worst_score);
    assert!(engine.refused("solve black").contains("not to move"));
    let lines = engine.ok("hint 2");
    let lines: Vec<&str> = lines.lines().collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0], answer, "the first hint is the solved move");
    assert!(engine.refused("hint 0").contains("at least"));
    engine.ok("set_game shell");
    assert!(engine.refused("solve").contains("not a command of shell"));
}

#[test]
fn analyze_scores_every_legal_move_exactly_near_the_end() {
    let mut engine = Engine::othello();
    let mut rng = Rng::new(9);
    let mut checked = 0;
    while checked < 3 {
        let position = random_position(&mut rng, 10);
        if position.is_over() || position.board().moves() == 0 {
            continue;
        }
        engine.ok(&format!("set_position {}", position.to_notation()));
        let answer = engine.ok("analyze");
        let lines: Vec<&str> = answer.lines().collect();
        let legal = position.legal_moves();
        assert_eq!(lines.len(), legal.len(), "{answer}");
        let mut previous = i32::MAX;
        for line in &lines {
            let (mv, score) = line.split_once(' ').expect("MOVE SCORE");
            let mv = Move::parse(mv).expect("a move");
            assert!(legal.contains(&mv), "{line}");
            let score: i32 = score.parse().expect("an exact score");
            assert!(score <= previous, "best first: {answer}");
            previous = score;
            // The move's score is the negated exact score of the position after it.
            let mut child = position;
            child.play(position.side_to_move(), mv).expect("legal");
            assert_eq!(score, -minimax(&child), "{line}");
        }
        let best_two = engine.ok("analyze 2");
        assert_eq!(best_two.lines().count(), legal.len().min(2));
        assert_eq!(best_two.lines().next(), lines.first().copied());
        checked += 1;
    }
    assert!(engine.refused("analyze 0").contains("at least"));
    assert!(engine.refused("analyze x").contains("analyze [N]"));
}

#[test]
fn an_interrupt_stops_solve_with_a_legal_move() {
    for threads in [1, 2] {
        let mut engine = Engine::othello();
        engine.ok(&format!("set_option threads {threads}"));
        // The start position cannot be solved: only the interrupt ends it.
        engine.send("7 solve");
        std::thread::sleep(std::time::Duration::from_millis(300));
        engine.send("# interrupt");
        let answer = engine.answer();
        assert!(answer.ok && answer.id == Some(7), "{threads}: {answer:?}");
        let (mv, score) = answer.text.split_once(' ').expect("MOVE SCORE");
        let mv = Move::parse(mv).expect("a move");
        assert!(Position::start().legal_moves().contains(&mv));
        assert!(
            score.starts_with('~'),
            "an interrupted solve is an estimate: {score}"
        );
    }
}

/// The exact value of `position` for its side to move (one thread).
fn solved(position: &Position) -> i32 {
    if position.is_over() {
        return final_for_side(position);
    }
    exact(
        solve(position, Limits::depth(64), &exact_settings())
            .expect("a move")
            .score,
    )
}

#[test]
fn two_threads_solve_endgames_to_the_scores_of_one() {
    let mut rng = Rng::new(12);
    let two = Settings {
        threads: 2,
        ..exact_settings()
    };
    for round in 0..12 {
        let position = random_position(&mut rng, 12 + round % 5);
        if position.is_over() {
            continue;
        }
        assert_solves(&position, &two, solved);
    }
}

#[test]
fn two_threads_share_the_principal_line_and_stay_exact_under_collisions() {
    let mut rng = Rng::new(21);
    let mut overlap = 0;
    for round in 0..8 {
        let position = random_position(&mut rng, 14);
        let board = position.board();
        if position.is_over() || board.moves() == 0 {
            continue;
        }
        // Half the rounds on one-bucket tables: every probe collides.
        let buckets = if round % 2 == 0 { 1 } else { 1 << 10 };
        let mut searcher = Searcher::with_tables(
            Limits::depth(64),
            Table::with_buckets(buckets),
            Table::with_buckets(buckets),
        )
        .with_threads(2);
        let mut moves = root_moves(&board);
        let (square, score, depth) = searcher
            .iterate(&mut moves, (1..=6).chain(std::iter::once(14)))
            .expect("an iteration finishes");
        assert_eq!(depth, 14);
        let expected = solved(&position);
        assert_eq!(score / 100, expected, "{}", position.to_notation());
        let mv = moves
            .iter()
            .find(|m| m.square == square)
            .expect("a root move");
        assert_eq!(mv.score / 100, expected);
        overlap += searcher.nodes() - searcher.span();
    }
    assert!(overlap > 0, "both threads searched side by side");
}

#[test]
fn two_threads_solve_ffo_40() {
    let (position, scores) = parse_ffo(FFO_40);
    let settings = Settings {
        threads: 2,
        ..exact_settings()
    };
    let result = solve(&position, Limits::depth(64), &settings).expect("a move");
    assert_eq!((result.best, exact(result.score)), scores[0]);
}

#[test]
fn a_forced_pass_is_solved_and_hinted_with_the_score_after_it() {
    // White has no move, black has h8 (the O3 test position of the rules library).
    let text = format!(
        "{}OXXXXXXX{}XXXXXXXOXXXXXX-- O",
        "X".repeat(24),
        "X".repeat(16)
    );
    let position = Position::from_notation(&text).expect("valid");
    let expected = minimax(&position);
    let result = solve(&position, Limits::depth(64), &exact_settings()).expect("a pass");
    assert_eq!(result.best, Move::Pass);
    assert_eq!(exact(result.score), expected);
    let mut engine = Engine::othello();
    engine.ok(&format!("set_position {text}"));
    assert_eq!(engine.ok("solve white"), format!("pass {expected:+}"));
    assert_eq!(engine.ok("hint 3"), format!("pass {expected:+}"));
}
