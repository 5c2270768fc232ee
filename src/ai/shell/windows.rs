//! The threat-builders: deterministic one-ply What the Shell players, the kind of
//! strong-looking but predictable opponent a simultaneous player must punish.
//!
//! The family shares one shape. In order: a cell where a lone turtle of ours wins at
//! once (the first such cell); the first cell where the opponent's lone turtle would
//! win (taking it, or colliding there, blocks it); for some members, a cell that makes
//! or stops a double four (two cells completing five at once); otherwise the empty
//! cell with the best score, the five-cell windows through it weighted steeply by the
//! stones already in them (ours, and the opponent's to spoil them; windows holding
//! both colours or an egg count nothing) plus a bonus per capture our turtle there
//! would make. The members ([`FAMILY`]) differ in the weights, in the ratio of the
//! opponent's windows to ours, in the capture bonus, in summing the windows or taking
//! the best one, in the double-four step and in how ties are broken (nearest the
//! centre, first or last in board order, or a seeded random draw). `windows` itself is
//! the first member. Apart from the seeded tie-break a member never draws a random
//! number, so its pick is a function of the position.

use super::candidates::{WINDOWS, double_fours, weighted_window_scores};
use crate::games::shell::cell::BOARD;
use crate::games::shell::{Cell, Position};
use crate::games::{Color, Status};
use crate::rng::Rng;

/// How a threat-builder breaks ties between cells of equal score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tie {
    /// The cell nearest the centre e5, then the first in board order.
    Centre,
    /// The first in board order (a1, b1, …).
    First,
    /// The last in board order.
    Last,
    /// A uniform draw from the seeded generator.
    Random,
}

/// What a threat-builder does about double fours before it scores the cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doubles {
    /// Nothing: the window weights alone.
    Ignore,
    /// Makes its own double four when it can, else takes the opponent's cell.
    MakeFirst,
    /// Takes the opponent's double-four cell when it has one, else makes its own.
    BlockFirst,
}

/// One member of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// The player's name (`--player NAME`).
    pub name: &'static str,
    /// Weight of a window holding `n` of our turtles and none of the opponent's.
    pub own: [i32; 5],
    /// Weight of a window holding `n` of the opponent's turtles and none of ours.
    pub theirs: [i32; 5],
    /// Bonus per capture our lone turtle would make there (hatchings included).
    pub capture: i32,
    /// True to score a cell by its best window (ours plus theirs) instead of the sum.
    pub best_window: bool,
    /// The double-four step.
    pub doubles: Doubles,
    /// The tie-break.
    pub tie: Tie,
}

/// Steps of ten, the opponent's windows at 0.8 of ours.
const TENS: [i32; 5] = [1, 10, 100, 1_000, 10_000];
const TENS_THEIRS: [i32; 5] = [0, 8, 80, 800, 8_000];

/// A member of the family (for the table below).
const fn member(
    name: &'static str,
    own: [i32; 5],
    theirs: [i32; 5],
    capture: i32,
    (best_window, doubles, tie): (bool, Doubles, Tie),
) -> Style {
    Style {
        name,
        own,
        theirs,
        capture,
        best_window,
        doubles,
        tie,
    }
}

/// The family, `windows` first; the names are `windows`, `windows1`, … `windows7`.
pub const FAMILY: [Style; 8] = [
    // The threat-builder: steep weights, the opponent's at 0.8 of ours.
    member(
        "windows",
        TENS,
        TENS_THEIRS,
        300,
        (false, Doubles::Ignore, Tie::Centre),
    ),
    // Equal weights for both colours, ties to the first cell in board order.
    member(
        "windows1",
        TENS,
        TENS,
        200,
        (false, Doubles::Ignore, Tie::First),
    ),
    // Defensive: the opponent's windows at 1.5 times ours, gentler steps of 5.
    member(
        "windows2",
        [1, 5, 25, 125, 625],
        [0, 8, 40, 190, 940],
        100,
        (false, Doubles::Ignore, Tie::Last),
    ),
    // Very steep, capture-hungry.
    member(
        "windows3",
        [1, 20, 400, 8_000, 160_000],
        [0, 16, 320, 6_400, 128_000],
        1_000,
        (false, Doubles::Ignore, Tie::Centre),
    ),
    // The threat-builder's weights with seeded random tie-breaks.
    member(
        "windows4",
        TENS,
        TENS_THEIRS,
        300,
        (false, Doubles::Ignore, Tie::Random),
    ),
    // Makes its double fours first, then blocks the opponent's.
    member(
        "windows5",
        TENS,
        TENS_THEIRS,
        300,
        (false, Doubles::MakeFirst, Tie::Centre),
    ),
    // Blocks the opponent's double fours first; steps of 4, weights equal.
    member(
        "windows6",
        [1, 4, 16, 64, 256],
        [1, 4, 16, 64, 256],
        40,
        (false, Doubles::BlockFirst, Tie::First),
    ),
    // The best single window rather than the sum, steps of 10, random ties.
    member(
        "windows7",
        TENS,
        [0, 9, 90, 900, 9_000],
        500,
        (true, Doubles::MakeFirst, Tie::Random),
    ),
];

/// The member named `name` (any case).
#[must_use]
pub fn style(name: &str) -> Option<&'static Style> {
    FAMILY.iter().find(|s| s.name.eq_ignore_ascii_case(name))
}

/// Squared distance of `cell` from the centre e5 (for ties).
fn from_centre(cell: Cell) -> u32 {
    let dc = u32::from(cell.col().abs_diff(4));
    let dr = u32::from(cell.row().abs_diff(4));
    dc * dc + dr * dr
}

/// The best window through each empty cell: `own[n]` or `theirs[n]` of the heaviest
/// window without eggs holding one colour only (0 for occupied cells).
fn best_window_scores(position: &Position, color: Color, style: &Style) -> [i32; 81] {
    let own = position.turtle_mask(color);
    let theirs = position.turtle_mask(color.opponent());
    let eggs = position.egg_cells().bits();
    let empty = BOARD & !position.occupied();
    let mut best = [[0i32; 81]; 2];
    for window in WINDOWS {
        if window & eggs != 0 {
            continue;
        }
        let mine = (window & own).count_ones() as usize;
        let their = (window & theirs).count_ones() as usize;
        let (side, weight) = match (mine, their) {
            (n, 0) => (0, style.own.get(n).copied().unwrap_or(0)),
            (0, n) => (1, style.theirs.get(n).copied().unwrap_or(0)),
            _ => continue,
        };
        let mut free = window & empty;
        while free != 0 {
            let index = free.trailing_zeros() as usize;
            free &= free - 1;
            if let Some(score) = best[side].get_mut(index) {
                *score = (*score).max(weight);
            }
        }
    }
    std::array::from_fn(|i| best[0][i] + best[1][i])
}

/// The threat-builder's pick for `color`, or `None` when the game is over or no cell
/// is empty.
#[must_use]
pub fn pick(position: &Position, color: Color) -> Option<Cell> {
    pick_styled(position, color, &FAMILY[0], &mut Rng::new(0))
}

/// The pick of the family member `style` for `color` (`rng` only breaks ties, and
/// only for [`Tie::Random`]), or `None` when the game is over or no cell is empty.
#[must_use]
pub fn pick_styled(
    position: &Position,
    color: Color,
    style: &Style,
    rng: &mut Rng,
) -> Option<Cell> {
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
    let scores = if style.best_window {
        best_window_scores(position, color, style)
    } else {
        weighted_window_scores(position, color, &style.own, &style.theirs)
    };
    let score = |cell: Cell| {
        let captures = position
            .imagine_lone_turtle(color, cell)
            .map_or(0, |(_, c)| c[color.index()]);
        scores.get(cell.index()).copied().unwrap_or(0) + style.capture * captures as i32
    };
    let mut pool = empty.bits();
    if style.doubles != Doubles::Ignore {
        let occupied = position.occupied();
        let free = empty.bits();
        let double = |side: Color| {
            let own = position.turtle_mask(side);
            double_fours(own, occupied & !own, free)
        };
        let (first, second) = match style.doubles {
            Doubles::BlockFirst => (double(opponent), double(color)),
            _ => (double(color), double(opponent)),
        };
        if first != 0 {
            pool = first;
        } else if second != 0 {
            pool = second;
        }
    }
    best_of(pool, score, style.tie, rng)
}

/// The cell of `pool` with the best `score`, ties broken by `tie`.
fn best_of(pool: u128, score: impl Fn(Cell) -> i32, tie: Tie, rng: &mut Rng) -> Option<Cell> {
    let cells = crate::games::shell::CellSet::from_bits(pool);
    let top = cells.iter().map(&score).max()?;
    let tied: Vec<Cell> = cells.iter().filter(|&c| score(c) == top).collect();
    match tie {
        Tie::Centre => tied
            .iter()
            .copied()
            .min_by_key(|&c| (from_centre(c), c.index())),
        Tie::First => tied.first().copied(),
        Tie::Last => tied.last().copied(),
        Tie::Random => tied.get(rng.below(tied.len() as u64) as usize).copied(),
    }
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

    #[test]
    fn every_member_wins_blocks_and_picks_empty_cells_deterministically() {
        let both =
            Position::from_notation(&format!("XXXX{}OOOO{} -", "-".repeat(68), "-".repeat(5)))
                .expect("valid");
        // White's four b5-e5 is open at both ends; black blocks the first, a5.
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
        for style in &FAMILY {
            let mut rng = Rng::new(3);
            assert_eq!(
                pick_styled(&both, Color::Black, style, &mut rng),
                Some(cell("e1")),
                "{}",
                style.name
            );
            assert_eq!(
                pick_styled(&both, Color::White, style, &mut rng),
                Some(cell("e9")),
                "{}",
                style.name
            );
            assert_eq!(
                pick_styled(&open, Color::Black, style, &mut rng),
                Some(cell("a5")),
                "{}",
                style.name
            );
            // A game played by the member against itself: every pick empty, and the
            // same seed gives the same game.
            let game = |seed: u64| {
                let mut rng = Rng::new(seed);
                let mut p = Position::new();
                let mut picks = Vec::new();
                for _ in 0..200 {
                    let (Some(b), Some(w)) = (
                        pick_styled(&p, Color::Black, style, &mut rng),
                        pick_styled(&p, Color::White, style, &mut rng),
                    ) else {
                        break;
                    };
                    assert!(
                        p.empty_cells().contains(b) && p.empty_cells().contains(w),
                        "{}",
                        style.name
                    );
                    p.resolve_turn_quiet(b, w).expect("legal turn");
                    picks.push((b, w));
                }
                picks
            };
            assert_eq!(game(9), game(9), "{}", style.name);
            assert!(!game(9).is_empty());
        }
    }

    #[test]
    fn the_double_four_members_make_or_stop_one() {
        // Black's c5 d5 e5 with both ends far open: b5 or f5 makes an open four, the
        // only double-four cells on the board; black makes one, white takes one.
        let p = position(
            &[
                ("c5", 'X'),
                ("d5", 'X'),
                ("e5", 'X'),
                ("a1", 'O'),
                ("i1", 'O'),
            ],
            "-",
        );
        let doubles = [cell("b5"), cell("f5")];
        for name in ["windows5", "windows6", "windows7"] {
            let style = style(name).expect("member");
            let picked = pick_styled(&p, Color::Black, style, &mut Rng::new(1)).expect("pick");
            assert!(doubles.contains(&picked), "{name} made {picked:?}");
            let blocked = pick_styled(&p, Color::White, style, &mut Rng::new(1)).expect("pick");
            assert!(
                doubles.contains(&blocked),
                "{name} blocked with {blocked:?}"
            );
        }
    }

    #[test]
    fn members_differ_in_their_ties() {
        // One black turtle on e5: its neighbours tie in orbits of the board's
        // symmetries, so the first and the last of a tie differ, and seeded draws
        // depend on the seed only.
        let p = position(&[("e5", 'X')], "-");
        let with = |tie: Tie, seed: u64| {
            let style = Style { tie, ..FAMILY[1] };
            pick_styled(&p, Color::White, &style, &mut Rng::new(seed))
        };
        assert_ne!(with(Tie::First, 0), with(Tie::Last, 0));
        assert_eq!(with(Tie::Random, 5), with(Tie::Random, 5));
        assert!((1..20).any(|seed| with(Tie::Random, seed) != with(Tie::Random, 0)));
        assert!(style("WINDOWS3").is_some() && style("windows9").is_none());
    }
}
