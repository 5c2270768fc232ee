//! A simple, honest What the Shell player: one-turn lookahead, then a random pick near
//! the stones.
//!
//! Priorities, each judged by imagining only this side's turtle landing (the opponent
//! picking elsewhere): a cell that wins at once; a cell where the opponent would win at
//! once (taking it, or colliding there, blocks it); the cell with the most captures;
//! otherwise a random empty cell within distance 2 of a turtle, cells near our own
//! turtles three times as likely; on a board without turtles, a random cell around
//! the centre. Ties are broken by the seeded [`Rng`], so the player is deterministic
//! for a seed. It only ever returns an empty cell of a game that is not over.

use super::candidates::grow;
use crate::games::shell::{Cell, CellSet, Position};
use crate::games::{Color, Status};
use crate::rng::Rng;

/// A uniformly chosen cell of `set`.
fn choose_in(set: CellSet, rng: &mut Rng) -> Option<Cell> {
    let n = rng.below(u64::from(set.len()));
    set.iter().nth(n as usize)
}

/// A cell for `color` to pick in `position`, or `None` when the game is over or no
/// cell is empty.
#[must_use]
pub fn pick(position: &Position, color: Color, rng: &mut Rng) -> Option<Cell> {
    if position.status().is_over() {
        return None;
    }
    let empty = position.empty_cells();
    if empty.is_empty() {
        return None;
    }
    let opponent = color.opponent();
    let mut wins = 0u128;
    let mut blocks = 0u128;
    let mut most_captures = 0;
    let mut capturing = 0u128;
    for cell in empty {
        if let Some((after, captures)) = position.imagine_lone_turtle(color, cell) {
            if after.status() == Status::win_for(color) {
                wins |= 1 << cell.index();
            }
            let mine = captures[color.index()];
            if mine > most_captures {
                most_captures = mine;
                capturing = 0;
            }
            if mine > 0 && mine == most_captures {
                capturing |= 1 << cell.index();
            }
        }
        if let Some((after, _)) = position.imagine_lone_turtle(opponent, cell)
            && after.status() == Status::win_for(opponent)
        {
            blocks |= 1 << cell.index();
        }
    }
    for choice in [wins, blocks, capturing] {
        if choice != 0 {
            return choose_in(CellSet::from_bits(choice), rng);
        }
    }
    let own = position.turtles(color).bits();
    let all = own | position.turtles(opponent).bits();
    if all == 0 {
        let centre = Cell::new(4, 4).map_or(0, |c| 1u128 << c.index());
        for area in [grow(centre), grow(grow(centre))] {
            let free = CellSet::from_bits(area & empty.bits());
            if !free.is_empty() {
                return choose_in(free, rng);
            }
        }
        return choose_in(empty, rng);
    }
    let near_own = CellSet::from_bits(grow(grow(own)) & empty.bits());
    let near_any = CellSet::from_bits(grow(grow(all)) & empty.bits() & !near_own.bits());
    let total = 3 * u64::from(near_own.len()) + u64::from(near_any.len());
    if total == 0 {
        return choose_in(empty, rng);
    }
    let r = rng.below(total);
    let own_weight = 3 * u64::from(near_own.len());
    if r < own_weight {
        near_own.iter().nth((r / 3) as usize)
    } else {
        near_any.iter().nth((r - own_weight) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::shell::testing::{cell, position, won_by_black};

    #[test]
    fn empty_board_picks_around_the_centre() {
        let p = Position::new();
        for seed in 0..20 {
            let c = pick(&p, Color::Black, &mut Rng::new(seed)).expect("a pick");
            assert!(c.col().abs_diff(4) <= 1 && c.row().abs_diff(4) <= 1, "{c}");
        }
    }

    #[test]
    fn takes_a_win_before_blocking() {
        let p = position(
            &[
                ("a1", 'X'),
                ("b1", 'X'),
                ("c1", 'X'),
                ("d1", 'X'),
                ("a9", 'O'),
                ("b9", 'O'),
                ("c9", 'O'),
                ("d9", 'O'),
            ],
            "-",
        );
        for seed in 0..10 {
            assert_eq!(
                pick(&p, Color::Black, &mut Rng::new(seed)),
                Some(cell("e1"))
            );
            assert_eq!(
                pick(&p, Color::White, &mut Rng::new(seed)),
                Some(cell("e9"))
            );
        }
    }

    #[test]
    fn blocks_the_opponents_win() {
        let p = position(
            &[
                ("b5", 'O'),
                ("c5", 'O'),
                ("d5", 'O'),
                ("e5", 'O'),
                ("a5", 'X'),
            ],
            "-",
        );
        assert_eq!(pick(&p, Color::Black, &mut Rng::new(3)), Some(cell("f5")));
    }

    #[test]
    fn prefers_the_most_captures() {
        let p = position(
            &[
                ("b1", 'O'),
                ("c1", 'O'),
                ("d1", 'X'),
                ("f5", 'O'),
                ("g5", 'O'),
                ("h5", 'X'),
                ("e6", 'O'),
                ("e7", 'E'),
                ("e8", 'X'),
            ],
            "e7",
        );
        assert_eq!(pick(&p, Color::Black, &mut Rng::new(9)), Some(cell("e5")));
    }

    #[test]
    fn same_seed_same_pick_and_none_when_over() {
        let p = position(&[("e5", 'X'), ("d4", 'O')], "-");
        let a: Vec<_> = (0..10)
            .map(|s| pick(&p, Color::White, &mut Rng::new(s)))
            .collect();
        let b: Vec<_> = (0..10)
            .map(|s| pick(&p, Color::White, &mut Rng::new(s)))
            .collect();
        assert_eq!(a, b);
        let won = won_by_black();
        assert_eq!(pick(&won, Color::White, &mut Rng::new(1)), None);
    }
}
