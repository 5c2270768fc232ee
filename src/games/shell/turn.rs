//! Turn resolution (S3–S9): placement or collision, capture steps with hatching, and
//! the win check, in one allocation-free core shared by every entry point.
//!
//! [`Position::resolve_turn`] (with a [`TurnReport`]) and
//! [`Position::resolve_turn_quiet`] (status only) both run the same `settle` core; they
//! differ only in the `StepSink` that watches the steps. On error the position is
//! untouched. Invariants kept: after any turn the status is the one the board implies
//! (S9), the egg queue matches the egg cells, and a report never holds more steps than
//! [`MAX_STEPS`] (each step with a capture removes at least two stones from at most 81,
//! so a turn has at most 40 such steps).
//!
//! Captures are read from a per-cell table of rays; the win check counts winning
//! turtles only when a five can be there (none before the turn and nothing hatched:
//! only next to a placed turtle). The plain readings they replace are kept for the
//! tests, which check that both agree.

use std::fmt;

use super::cell::{CELL_COUNT, Cell, CellSet, Dir};
use super::position::{Position, Stone, has_five};
use crate::games::{Color, Status};

/// Why a turn was refused. The position is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// The game is already decided (won or drawn).
    GameOver(Status),
    /// `color`'s pick is not an empty cell (S3).
    Occupied {
        color: Color,
        cell: Cell,
        holds: Stone,
    },
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::GameOver(status) => write!(f, "the game is over ({})", status.name()),
            TurnError::Occupied { color, cell, holds } => write!(
                f,
                "{}'s pick {cell} is not empty: it holds {holds}",
                color.name()
            ),
        }
    }
}

impl std::error::Error for TurnError {}

/// Upper bound on the capture steps of one turn (see the module doc).
pub const MAX_STEPS: usize = 41;

/// What one capture step did (S5–S8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Step {
    captures: [u32; 2],
    captured: [CellSet; 3],
    hatched: [CellSet; 2],
    vanished: CellSet,
}

impl Step {
    /// The number of captures `color` made in this step (each matching direction of
    /// each new turtle is one; a flank closed at both ends by new turtles is one).
    #[must_use]
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[color.index()]
    }

    /// The removed stones that were `stone` (`Black`, `White` or `Egg`; `Empty` gives
    /// the empty set).
    #[must_use]
    pub fn captured(&self, stone: Stone) -> CellSet {
        match stone {
            Stone::Black => self.captured[0],
            Stone::White => self.captured[1],
            Stone::Egg => self.captured[2],
            Stone::Empty => CellSet::EMPTY,
        }
    }

    /// The eggs that hatched as turtles of `color`.
    #[must_use]
    pub fn hatched(&self, color: Color) -> CellSet {
        self.hatched[color.index()]
    }

    /// The eggs claimed by both sides at once, gone for nobody.
    #[must_use]
    pub fn vanished(&self) -> CellSet {
        self.vanished
    }
}

/// What happened in one turn.
///
/// Its `Display` is one line, made for scripts:
///
/// ```text
/// line   = head " status " STATUS
/// head   = "collision " CELL                 ; S4: both picked CELL, an egg is there
///        | "placed"                          ; both turtles landed, nothing captured
///        | step *( " ; " step )              ; both landed, then capture steps
/// step   = "step " N " captures " B " " W *( " " group )
/// group  = KIND 1*( " " CELL )
/// KIND   = "captured_black" | "captured_white" | "captured_egg"
///        | "hatched_black" | "hatched_white" | "vanished"
/// STATUS = "ongoing" | "sudden_death" | "black_wins" | "white_wins" | "draw"
/// ```
///
/// `N` counts from 1; `B` and `W` are black's and white's captures in that step. Groups
/// come in the order listed and are left out when empty; cells are lowercase and in
/// canonical order (row 1 first, `a` to `i`). Worked example A of RULES.md prints
/// `step 1 captures 1 1 captured_black c4 c5 captured_white d5 e5 vanished e9 status
/// ongoing`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnReport {
    collision: Option<Cell>,
    steps: [Step; MAX_STEPS],
    len: u8,
    status: Status,
}

impl TurnReport {
    fn new() -> TurnReport {
        TurnReport {
            collision: None,
            steps: [Step::default(); MAX_STEPS],
            len: 0,
            status: Status::Ongoing,
        }
    }

    /// The cell of the new egg when both picked the same cell (S4).
    #[must_use]
    pub fn collision(&self) -> Option<Cell> {
        self.collision
    }

    /// The capture steps in order (empty after a collision or a quiet placement).
    #[must_use]
    pub fn steps(&self) -> &[Step] {
        self.steps.get(..usize::from(self.len)).unwrap_or(&[])
    }

    /// The status after the turn.
    #[must_use]
    pub fn status(&self) -> Status {
        self.status
    }
}

fn write_group(f: &mut fmt::Formatter<'_>, kind: &str, cells: CellSet) -> fmt::Result {
    if cells.is_empty() {
        return Ok(());
    }
    write!(f, " {kind}")?;
    for cell in cells {
        write!(f, " {cell}")?;
    }
    Ok(())
}

impl fmt::Display for TurnReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(cell) = self.collision {
            write!(f, "collision {cell}")?;
        } else if self.steps().is_empty() {
            f.write_str("placed")?;
        }
        for (i, step) in self.steps().iter().enumerate() {
            if i > 0 {
                f.write_str(" ; ")?;
            }
            write!(
                f,
                "step {} captures {} {}",
                i + 1,
                step.captures[0],
                step.captures[1]
            )?;
            write_group(f, "captured_black", step.captured[0])?;
            write_group(f, "captured_white", step.captured[1])?;
            write_group(f, "captured_egg", step.captured[2])?;
            write_group(f, "hatched_black", step.hatched[0])?;
            write_group(f, "hatched_white", step.hatched[1])?;
            write_group(f, "vanished", step.vanished)?;
        }
        write!(f, " status {}", self.status.name())
    }
}

/// Watches the steps of a turn as the core resolves them.
pub(crate) trait StepSink {
    fn record(&mut self, step: &Step);
}

/// Watches nothing: the quiet entry points.
impl StepSink for () {
    #[inline]
    fn record(&mut self, _step: &Step) {}
}

impl StepSink for TurnReport {
    fn record(&mut self, step: &Step) {
        if let Some(slot) = self.steps.get_mut(usize::from(self.len)) {
            *slot = *step;
            self.len += 1;
        }
    }
}

/// Adds up the captures of each colour over a turn.
#[derive(Default)]
pub(crate) struct CaptureTally(pub(crate) [u32; 2]);

impl StepSink for CaptureTally {
    fn record(&mut self, step: &Step) {
        self.0[0] += step.captures[0];
        self.0[1] += step.captures[1];
    }
}

/// The capture pattern (S5) of a new turtle on one cell in one direction: the two
/// cells it would flank and the cell of the turtle that must close the flank. Both are
/// zero when the closing cell is off the board, so the pattern never matches.
#[derive(Clone, Copy)]
struct Ray {
    flank: u128,
    closer: u128,
}

/// Per cell index, its eight rays in the order of [`Dir::ALL`] (the forward four first).
static RAYS: [[Ray; 8]; CELL_COUNT] = ray_table();

/// The table of [`RAYS`], built at compile time.
const fn ray_table() -> [[Ray; 8]; CELL_COUNT] {
    let mut table = [[Ray {
        flank: 0,
        closer: 0,
    }; 8]; CELL_COUNT];
    let mut index = 0;
    while index < CELL_COUNT {
        let mut d = 0;
        while d < Dir::ALL.len() {
            let dir = Dir::ALL[d];
            // `find_captures` tells the forward rays by their place.
            assert!(dir.is_forward() == (d < Dir::FORWARD.len()));
            let one = dir.shift(1u128 << index);
            let two = dir.shift(one);
            let three = dir.shift(two);
            if three != 0 {
                table[index][d] = Ray {
                    flank: one | two,
                    closer: three,
                };
            }
            d += 1;
        }
        index += 1;
    }
    table
}

/// Per cell index, the union of its rays' closing cells: no ray matches unless one of
/// them holds a turtle of ours.
const CLOSERS: [u128; CELL_COUNT] = {
    let rays = ray_table();
    let mut table = [0u128; CELL_COUNT];
    let mut index = 0;
    while index < CELL_COUNT {
        let mut d = 0;
        while d < Dir::ALL.len() {
            table[index] |= rays[index][d].closer;
            d += 1;
        }
        index += 1;
    }
    table
};

/// S5/S6 for one colour: the number of captures made by the new turtles `new` of a
/// colour whose turtles are `own`, on a board whose occupied cells are `occupied`,
/// and the mask of the stones they flank. A flank whose far end is also a new turtle
/// is counted only from its forward end (S5 RULING).
///
/// New turtles are few (two placed, or the eggs of one step's claims), so each is
/// checked along its own eight rays from a table.
#[inline(always)]
fn find_captures(new: u128, own: u128, occupied: u128) -> (u32, u128) {
    let others = occupied & !own;
    let mut count = 0;
    let mut flanked = 0;
    for cell in CellSet::from_bits(new) {
        // No ray matches unless a neighbour holds a stone not ours and a closing cell
        // holds one of ours.
        let (Some(rays), Some(&closers)) = (RAYS.get(cell.index()), CLOSERS.get(cell.index()))
        else {
            break;
        };
        if others & cell.neighbours() == 0 || own & closers == 0 {
            continue;
        }
        for (d, ray) in rays.iter().enumerate() {
            // Dir::ALL lists the forward directions first.
            if others & ray.flank == ray.flank
                && own & ray.closer != 0
                && (d < Dir::FORWARD.len() || new & ray.closer == 0)
            {
                count += 1;
                flanked |= ray.flank;
            }
        }
    }
    (count, flanked)
}

/// [`find_captures`] over whole masks, shifted once per direction: the plain reading
/// of S5/S6 the table version is checked against.
#[cfg(test)]
pub(super) fn find_captures_plain(new: u128, own: u128, occupied: u128) -> (u32, u128) {
    if new == 0 {
        return (0, 0);
    }
    let others = occupied & !own;
    let mut count = 0;
    let mut flanked = 0;
    for dir in Dir::ALL {
        let back = dir.opposite();
        let other1 = back.shift(others);
        let other2 = back.shift(other1);
        let own1 = back.shift(own);
        let own3 = back.shift(back.shift(own1));
        let mut closers = new & other1 & other2 & own3;
        if closers == 0 {
            continue;
        }
        if !dir.is_forward() {
            let new3 = back.shift(back.shift(back.shift(new)));
            closers &= !new3;
        }
        count += closers.count_ones();
        let first = dir.shift(closers);
        flanked |= first | dir.shift(first);
    }
    (count, flanked)
}

impl Position {
    /// Resolves one simultaneous turn (S3–S9) and reports what happened.
    ///
    /// # Errors
    /// [`TurnError::GameOver`] when the game is decided; [`TurnError::Occupied`] when
    /// black's (checked first) or white's pick is not empty. The position is unchanged.
    pub fn resolve_turn(&mut self, black: Cell, white: Cell) -> Result<TurnReport, TurnError> {
        let mut report = TurnReport::new();
        self.resolve_with(black, white, &mut report)?;
        report.collision = (black == white).then_some(black);
        report.status = self.status;
        Ok(report)
    }

    /// [`Position::resolve_turn`] without the report, for playouts; returns the status.
    ///
    /// # Errors
    /// As [`Position::resolve_turn`]; the position is unchanged.
    #[inline]
    pub fn resolve_turn_quiet(&mut self, black: Cell, white: Cell) -> Result<Status, TurnError> {
        self.resolve_with(black, white, &mut ())?;
        Ok(self.status)
    }

    /// What the board would become if only `color`'s turtle landed on `cell` (a
    /// hypothetical for players weighing a pick; not a turn of the game), with the
    /// captures each colour would make. `None` when the game is over or `cell` is not
    /// empty.
    #[must_use]
    pub fn imagine_lone_turtle(&self, color: Color, cell: Cell) -> Option<(Position, [u32; 2])> {
        if self.status.is_over() || !self.is_empty(cell) {
            return None;
        }
        let mut after = *self;
        *after.turtle_mask_mut(color) |= cell.bit();
        let mut new = [0; 2];
        new[color.index()] = cell.bit();
        let mut tally = CaptureTally::default();
        after.settle(new, &mut tally);
        after.settle_status();
        Some((after, tally.0))
    }

    fn check_turn(&self, black: Cell, white: Cell) -> Result<(), TurnError> {
        if self.status.is_over() {
            return Err(TurnError::GameOver(self.status));
        }
        for (color, cell) in [(Color::Black, black), (Color::White, white)] {
            let holds = self.cell(cell);
            if holds != Stone::Empty {
                return Err(TurnError::Occupied { color, cell, holds });
            }
        }
        Ok(())
    }

    fn resolve_with<S: StepSink>(
        &mut self,
        black: Cell,
        white: Cell,
        sink: &mut S,
    ) -> Result<(), TurnError> {
        self.check_turn(black, white)?;
        let before = self.status;
        if black == white {
            // S4: an egg, the newest; no capture, no hatching. S9: the turtles are as
            // they were, and so are the counts (equal, the game being on): only a full
            // board changes the status, to a draw.
            self.lay_egg(black);
            if self.is_full() {
                self.status = Status::Draw;
            }
            return Ok(());
        }
        self.black |= black.bit();
        self.white |= white.bit();
        let hatched = self.settle([black.bit(), white.bit()], sink);
        // S9: only now, after the turn has settled. With no line before the turn and no
        // egg hatched, a line now must hold a placed turtle and one of its neighbours;
        // only a colour with such a turtle is looked at.
        let has_line = |own: u128, cell: Cell| {
            own & cell.bit() != 0 && own & cell.neighbours() != 0 && has_five(own)
        };
        if before == Status::Ongoing
            && !hatched
            && !has_line(self.black, black)
            && !has_line(self.white, white)
        {
            self.status = self.status_from(0, 0);
        } else {
            self.settle_status();
        }
        Ok(())
    }

    /// S5–S8: runs capture steps from the new turtles `new` (black, white) until a step
    /// captures nothing. The new turtles must already be on the board. True when some
    /// egg hatched.
    pub(crate) fn settle<S: StepSink>(&mut self, mut new: [u128; 2], sink: &mut S) -> bool {
        let mut hatched_any = false;
        while new[0] | new[1] != 0 {
            // S7: both colours' captures on the board as it stands, before removal.
            let occupied = self.occupied();
            let (by_black, flanked_black) = find_captures(new[0], self.black, occupied);
            let (by_white, flanked_white) = find_captures(new[1], self.white, occupied);
            if by_black + by_white == 0 {
                break;
            }
            let flanked = flanked_black | flanked_white;
            let captured = [
                CellSet::from_bits(flanked & self.black),
                CellSet::from_bits(flanked & self.white),
                CellSet::from_bits(flanked & self.eggs),
            ];
            self.black &= !flanked;
            self.white &= !flanked;
            // S8: claims take the oldest remaining eggs; equal claims vanish them,
            // the surplus hatches for the side with more; missing eggs are lost.
            let both = by_black.min(by_white) as usize;
            let surplus = by_black.abs_diff(by_white) as usize;
            let [vanished, hatched] = self.claim_eggs(flanked, both, surplus);
            new = [0, 0];
            if hatched != 0 {
                hatched_any = true;
                let color = if by_black > by_white {
                    Color::Black
                } else {
                    Color::White
                };
                *self.turtle_mask_mut(color) |= hatched;
                new[color.index()] = hatched;
            }
            let mut hatched_sets = [CellSet::EMPTY; 2];
            hatched_sets[0] = CellSet::from_bits(new[0]);
            hatched_sets[1] = CellSet::from_bits(new[1]);
            sink.record(&Step {
                captures: [by_black, by_white],
                captured,
                hatched: hatched_sets,
                vanished: CellSet::from_bits(vanished),
            });
        }
        hatched_any
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::games::shell::cell::BOARD;
    use crate::games::shell::testing::played_positions;
    use crate::rng::Rng;

    proptest! {
        #[test]
        fn table_captures_agree_with_the_plain_reading_on_any_masks(
            a in any::<u128>(),
            b in any::<u128>(),
            c in any::<u128>(),
            sparse in any::<bool>(),
        ) {
            // Dense or sparse own turtles, new ones among them or anywhere.
            let own = if sparse { a & b } else { a } & BOARD;
            let occupied = own | (b & BOARD);
            for new in [own & c & (c >> 3), own & c, c & BOARD, own] {
                prop_assert_eq!(
                    find_captures(new, own, occupied),
                    find_captures_plain(new, own, occupied)
                );
            }
        }

        #[test]
        fn the_status_after_a_turn_is_the_one_the_counts_give(
            seed in any::<u64>(),
            a in any::<u128>(),
            b in any::<u128>(),
            c in any::<u128>(),
        ) {
            let mut rng = Rng::new(seed);
            let mut positions = played_positions(seed, 80);
            // A crowded board too (a quarter empty), where lines and chains are common.
            let mut crowded = Position::new();
            crowded.black = a & !b & BOARD;
            crowded.white = !a & b & BOARD;
            for cell in CellSet::from_bits(a & b & c) {
                crowded.lay_egg(cell);
            }
            crowded.settle_status();
            if !crowded.status().is_over() {
                positions.push(crowded);
            }
            for position in positions {
                let empty: Vec<Cell> = position.empty_cells().iter().collect();
                for _ in 0..8 {
                    let (Some(&black), Some(&white)) = (rng.choose(&empty), rng.choose(&empty))
                    else {
                        break;
                    };
                    // A collision a quarter of the time.
                    let white = if rng.below(4) == 0 { black } else { white };
                    let mut after = position;
                    if after.resolve_turn_quiet(black, white).is_ok() {
                        prop_assert_eq!(
                            after.status(),
                            after.status_from_board(),
                            "{:?} {} {}", position, black, white
                        );
                    }
                }
            }
        }

        #[test]
        fn table_captures_agree_with_the_plain_reading_on_played_boards(seed in any::<u64>()) {
            for position in played_positions(seed, 60) {
                let occupied = position.occupied();
                for color in [Color::Black, Color::White] {
                    let own = position.turtle_mask(color);
                    // Every empty cell as a lone new turtle, then with a second one.
                    let mut previous = 0;
                    for cell in position.empty_cells() {
                        let new = cell.bit() | previous;
                        let (own, occupied) = (own | new, occupied | new);
                        prop_assert_eq!(
                            find_captures(new, own, occupied),
                            find_captures_plain(new, own, occupied),
                            "{:?} {}", position, cell
                        );
                        previous = cell.bit();
                    }
                }
            }
        }
    }
}
