//! Analysis for GUIs: every legal move's score at one depth with the line the search
//! expects after it, read back from the transposition tables.

use super::{Memory, Run, Score, Settings, place, run, score_at};
use crate::ai::Limits;
use crate::games::othello::bitboard::flips;
use crate::games::othello::{Board, Move, Position};

/// One move of an analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub mv: Move,
    /// Its score for the side to move.
    pub score: Score,
    /// The moves expected from it on, the move itself first.
    pub pv: Vec<Move>,
}

/// Every legal move scored at one depth, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The depth all lines were searched to (the number of empties when exact).
    pub depth: u32,
    /// Positions visited by this analysis.
    pub nodes: u64,
    pub lines: Vec<Line>,
}

/// Analyses `position` to `limits.depth` on the tables of `memory`. `None` when the
/// game is over, when passing is forced (a pass has nothing to compare) or when
/// the limits stopped the search before every move was scored at the depth.
#[must_use]
pub fn analyse_in(
    position: &Position,
    limits: Limits<'_>,
    settings: &Settings,
    memory: &mut Memory,
) -> Option<Analysis> {
    let board = position.board();
    if board.moves() == 0 {
        return None;
    }
    let empties = board.empty().count_ones();
    let Run {
        mut searcher,
        moves,
        found,
    } = run(position, limits, settings, memory);
    let (_, _, depth) = found?;
    if searcher.aborted() {
        return None;
    }
    let scored = searcher.best_moves(&moves, depth, moves.len());
    if searcher.aborted() || scored.len() < moves.len() {
        return None;
    }
    let nodes = searcher.nodes();
    drop(searcher);
    let lines = scored
        .into_iter()
        .map(|(square, score)| Line {
            mv: place(square),
            score: score_at(score, depth, empties),
            pv: line_from(memory, &board, square, depth as usize),
        })
        .collect();
    Some(Analysis {
        depth,
        nodes,
        lines,
    })
}

/// The line the last search on `memory` expects from `position` on, `mv` first: at
/// most `length` moves (passes count), ending where the tables know no move.
#[must_use]
pub fn expected_line(memory: &Memory, position: &Position, mv: Move, length: usize) -> Vec<Move> {
    let board = position.board();
    match mv {
        Move::Place(square) if board.moves() >> square.index() & 1 == 1 => {
            line_from(memory, &board, square.index(), length)
        }
        _ => vec![mv],
    }
}

/// The move to `square` and then the best moves stored in the tables, at most
/// `length` moves in all (passes count), ending where the tables know no move.
fn line_from(memory: &Memory, board: &Board, square: u32, length: usize) -> Vec<Move> {
    let mut line = vec![place(square)];
    let mut board = board.after(square, flips(board.player, board.opponent, square));
    while line.len() < length.max(1) {
        let legal = board.moves();
        if legal == 0 {
            if board.passed().moves() == 0 {
                break;
            }
            line.push(Move::Pass);
            board = board.passed();
            continue;
        }
        let stored = memory
            .tt
            .probe(&board)
            .and_then(|hit| hit.best)
            .or_else(|| memory.end_tt.probe(&board).and_then(|hit| hit.best));
        let Some(next) = stored.filter(|&next| next < 64 && legal >> next & 1 == 1) else {
            break;
        };
        line.push(place(next));
        board = board.after(next, flips(board.player, board.opponent, next));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Color;

    fn replay(moves: &[Move]) -> Position {
        let mut position = Position::start();
        for &mv in moves {
            position.play(position.side_to_move(), mv).expect("legal");
        }
        position
    }

    #[test]
    fn every_legal_move_is_scored_best_first_with_a_legal_line() {
        let position = Position::start();
        let settings = Settings::default();
        let mut memory = Memory::new(&settings);
        let analysis =
            analyse_in(&position, Limits::depth(6), &settings, &mut memory).expect("finished");
        assert_eq!(analysis.depth, 6);
        assert!(analysis.nodes > 0);
        let mut moves: Vec<Move> = analysis.lines.iter().map(|line| line.mv).collect();
        moves.sort_by_key(ToString::to_string);
        let mut legal = position.legal_moves();
        legal.sort_by_key(ToString::to_string);
        assert_eq!(moves, legal);
        let value = |score: Score| match score {
            Score::Exact(discs) => discs * 100,
            Score::Estimate(units) => units,
        };
        for pair in analysis.lines.windows(2) {
            assert!(value(pair[0].score) >= value(pair[1].score), "best first");
        }
        for line in &analysis.lines {
            assert_eq!(line.pv[0], line.mv);
            assert!(line.pv.len() <= 6);
            // The line replays legally from the position.
            let mut after = position;
            for &mv in &line.pv {
                after.play(after.side_to_move(), mv).expect("a legal line");
            }
        }
        assert!(
            analysis.lines[0].pv.len() > 1,
            "the tables give the best line"
        );
    }

    #[test]
    fn an_exact_analysis_agrees_with_the_solver() {
        // Twelve empties: the analysis reaches the end and its best score is exact.
        let mut position = Position::start();
        let mut rng = crate::rng::Rng::new(7);
        while position.board().empty().count_ones() > 12 {
            let moves = position.legal_moves();
            let mv = *rng.choose(&moves).expect("a move");
            position.play(position.side_to_move(), mv).expect("legal");
        }
        if position.board().moves() == 0 {
            return;
        }
        let settings = Settings::default();
        let mut memory = Memory::new(&settings);
        let analysis =
            analyse_in(&position, Limits::depth(60), &settings, &mut memory).expect("finished");
        let solved = super::super::solve_in(&position, Limits::depth(60), &settings, &mut memory)
            .expect("not over");
        assert_eq!(analysis.lines[0].score, solved.score);
        assert!(matches!(analysis.lines[0].score, Score::Exact(_)));
    }

    #[test]
    fn no_analysis_when_passing_is_forced_or_the_game_is_over() {
        let settings = Settings::default();
        let mut memory = Memory::new(&settings);
        let forced = Position::from_notation(
            "XXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXO-XXXXXX- O",
        )
        .expect("valid");
        assert_eq!(forced.side_to_move(), Color::White);
        assert!(analyse_in(&forced, Limits::depth(4), &settings, &mut memory).is_none());
        let start = replay(&[]);
        let stop = std::sync::atomic::AtomicBool::new(true);
        let stopped = Limits {
            stop: Some(&stop),
            ..Limits::depth(20)
        };
        assert!(analyse_in(&start, stopped, &settings, &mut memory).is_none());
    }
}
