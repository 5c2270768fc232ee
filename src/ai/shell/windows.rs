//! The threat-builder: a deterministic one-ply What the Shell player, the kind of
//! strong-looking but predictable opponent a simultaneous player must punish.
//!
//! In order: a cell where a lone turtle of ours wins at once (the first such cell);
//! the first cell where the opponent's lone turtle would win (taking it, or colliding
//! there, blocks it); otherwise the empty cell with the best score, the five-cell
//! windows through it weighted steeply by the stones already in them (ours, and the
//! opponent's to spoil them; windows holding both colours or an egg count nothing)
//! plus a bonus per stone pair our turtle there would capture. Ties go to the cell
//! nearest the centre, then to the first in board order. It never draws a random
//! number, so its pick is a function of the position: the same position, the same
//! cell.

use super::candidates::weighted_window_scores;
use crate::games::shell::{Cell, Position};
use crate::games::{Color, Status};

/// Weight of a window holding `n` of our turtles and none of the opponent's.
const OWN: [i32; 5] = [1, 10, 100, 1_000, 10_000];
/// Weight of a window holding `n` of the opponent's turtles and none of ours.
const THEIRS: [i32; 5] = [0, 8, 80, 800, 8_000];
/// Bonus per capture our lone turtle would make there (hatchings included).
const CAPTURE: i32 = 300;

/// Squared distance of `cell` from the centre e5 (for ties).
fn from_centre(cell: Cell) -> u32 {
    let dc = u32::from(cell.col().abs_diff(4));
    let dr = u32::from(cell.row().abs_diff(4));
    dc * dc + dr * dr
}

/// The threat-builder's pick for `color`, or `None` when the game is over or no cell
/// is empty.
#[must_use]
pub fn pick(position: &Position, color: Color) -> Option<Cell> {
    if position.status().is_over() {
        return None;
    }
    let empty = position.empty_cells();
    let opponent = color.opponent();
    let wins = |side: Color| {
        empty.iter().find(|&cell| {
            position
                .imagine_lone_turtle(side, cell)
                .is_some_and(|(after, _)| after.status() == Status::win_for(side))
        })
    };
    if let Some(cell) = wins(color).or_else(|| wins(opponent)) {
        return Some(cell);
    }
    let scores = weighted_window_scores(position, color, &OWN, &THEIRS);
    let score = |cell: Cell| {
        let captures = position
            .imagine_lone_turtle(color, cell)
            .map_or(0, |(_, c)| c[color.index()]);
        scores.get(cell.index()).copied().unwrap_or(0) + CAPTURE * captures as i32
    };
    empty
        .iter()
        .map(|cell| (score(cell), std::cmp::Reverse(from_centre(cell)), cell))
        .max_by(|a, b| {
            (a.0, a.1)
                .cmp(&(b.0, b.1))
                .then(b.2.index().cmp(&a.2.index()))
        })
        .map(|(_, _, cell)| cell)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::shell::testing::{cell, position};

    #[test]
    fn opens_in_the_centre() {
        assert_eq!(pick(&Position::new(), Color::Black), Some(cell("e5")));
        assert_eq!(pick(&Position::new(), Color::White), Some(cell("e5")));
    }

    #[test]
    fn wins_then_blocks_the_first_winning_cell() {
        // Black's four a1-d1 and white's four a9-d9.
        let both =
            Position::from_notation(&format!("XXXX{}OOOO{} -", "-".repeat(68), "-".repeat(5)))
                .expect("valid");
        assert_eq!(pick(&both, Color::Black), Some(cell("e1")));
        assert_eq!(pick(&both, Color::White), Some(cell("e9")));
        // White has two winning cells (a5 and f5); black blocks the first.
        let open = position(
            &[
                ("b5", 'O'),
                ("c5", 'O'),
                ("d5", 'O'),
                ("e5", 'O'),
                ("e1", 'X'),
            ],
            "-",
        );
        assert_eq!(pick(&open, Color::Black), Some(cell("a5")));
    }

    #[test]
    fn extends_its_own_line_and_is_deterministic() {
        // Black's three in a row on row 5 (c5 d5 e5): the open ends b5 and f5 hold
        // the most weight; f5 is nearer the centre.
        let p = position(
            &[
                ("c5", 'X'),
                ("d5", 'X'),
                ("e5", 'X'),
                ("e4", 'O'),
                ("f4", 'O'),
            ],
            "-",
        );
        assert_eq!(pick(&p, Color::Black), Some(cell("f5")));
        assert_eq!(pick(&p, Color::Black), pick(&p, Color::Black));
    }

    #[test]
    fn a_capture_outweighs_a_quiet_cell() {
        // Black's a1 flanks b1 and c1 against d1 (S5).
        let p = position(&[("b1", 'O'), ("c1", 'O'), ("d1", 'X')], "-");
        assert_eq!(pick(&p, Color::Black), Some(cell("a1")));
    }

    #[test]
    fn none_when_the_game_is_over() {
        let won = Position::from_notation(&format!("XXXXX{} -", "-".repeat(76))).expect("valid");
        assert_eq!(pick(&won, Color::White), None);
    }
}
