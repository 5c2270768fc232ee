//! Shots at one sea (B4–B6) and what the shooter sees of it: the [`View`].
//!
//! A [`View`] is the record of shots fired at one sea, in order, with every cell's
//! [`Mark`] and the sunk ships. It holds nothing a shooter may not know: it is built
//! only from shot results, never from the fleet, so it can never show an unhit ship
//! cell. Invariants, kept by [`View::record`] (checked) and the crate-internal
//! `apply`: a cell is `Sunk` exactly when it belongs to a ship in `sunk`; `Ring` cells
//! are the cells of sunk ships' rings that were not shot before the sinking (B6); `Hit`
//! cells belong to ships still afloat; the marks are a function of the shot list.
//!
//! In player mode the session does not know the target fleet, so a reported result is
//! checked for possibility by [`View::check`] (see its doc for the exact checks).

use std::fmt;

use super::cell::{Cell, CellSet};
use super::fleet::{Fleet, Ship, ShipType};

/// The answer to a shot (B4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShotResult {
    Miss,
    Hit,
    Sunk(ShipType),
}

impl ShotResult {
    /// Reads `miss`, `hit` or `sunk TYPE` (words separated by whitespace), any case.
    #[must_use]
    pub fn parse(text: &str) -> Option<ShotResult> {
        let mut words = text.split_whitespace();
        let first = words.next()?;
        let result = if first.eq_ignore_ascii_case("miss") {
            ShotResult::Miss
        } else if first.eq_ignore_ascii_case("hit") {
            ShotResult::Hit
        } else if first.eq_ignore_ascii_case("sunk") {
            ShotResult::Sunk(ShipType::parse(words.next()?)?)
        } else {
            return None;
        };
        match words.next() {
            None => Some(result),
            Some(_) => None,
        }
    }

    /// Whether the shooter shoots again (B4).
    #[must_use]
    pub fn shoots_again(self) -> bool {
        !matches!(self, ShotResult::Miss)
    }
}

impl fmt::Display for ShotResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShotResult::Miss => f.write_str("miss"),
            ShotResult::Hit => f.write_str("hit"),
            ShotResult::Sunk(kind) => write!(f, "sunk {kind}"),
        }
    }
}

/// One shot fired at a sea.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shot {
    pub cell: Cell,
    pub result: ShotResult,
}

/// What the shooter knows of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// Not shot, not ringed: open to a shot.
    Unknown,
    /// Shot, water.
    Miss,
    /// Shot, part of a ship still afloat.
    Hit,
    /// Shot, part of a sunk ship.
    Sunk,
    /// Marked by a sinking (B6): spent water.
    Ring,
}

/// Why a reported shot result is impossible (or the cell cannot be shot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShotError {
    /// B5: the cell was already shot or is in a ring.
    Spent(Cell),
    /// All 20 ship cells are already hit.
    TooManyHits,
    /// The hit would touch another hit by a corner: ships never touch (B3).
    Corner { cell: Cell, other: Cell },
    /// The hits in line with this one would not be straight.
    Bent(Cell),
    /// The line of hits through this cell would be longer than any ship afloat
    /// could be (for `hit`, the ship must be longer than the line).
    NoRoom { cell: Cell, line: usize },
    /// `sunk TYPE`, but every ship of that type is already sunk.
    NoneAfloat(ShipType),
    /// `sunk TYPE`, but the line of hits through the cell has another length.
    WrongLength { kind: ShipType, line: usize },
    /// `sunk`, but the ring of the sunk ship holds other hits.
    RingHasHits { ship: Ship, other: Cell },
    /// `miss` at `cell`, but then no ship afloat fits around the line of `line`
    /// hit(s) through `wound`: it would be a whole ship never reported sunk, or only
    /// ships of sizes already sunk would fit.
    BoxedIn {
        cell: Cell,
        wound: Cell,
        line: usize,
    },
    /// No placement of the ships afloat explains the view with this result (see
    /// [`View::explainable`]).
    FleetCannotCover,
}

impl fmt::Display for ShotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShotError::Spent(cell) => write!(f, "{cell} was already shot or is spent"),
            ShotError::TooManyHits => f.write_str("all 20 ship cells are already hit"),
            ShotError::Corner { cell, other } => {
                write!(
                    f,
                    "a hit at {cell} would touch the hit at {other} by a corner"
                )
            }
            ShotError::Bent(cell) => write!(f, "the hits through {cell} would not be straight"),
            ShotError::NoRoom { cell, line } => write!(
                f,
                "no ship afloat longer than the line of {line} hit(s) through {cell} fits there"
            ),
            ShotError::NoneAfloat(kind) => write!(f, "no {kind} is afloat"),
            ShotError::WrongLength { kind, line } => write!(
                f,
                "a {kind} has {} cells, the line of hits has {line}",
                kind.len()
            ),
            ShotError::RingHasHits { ship, other } => {
                write!(f, "the ring of {ship} holds the hit at {other}")
            }
            ShotError::BoxedIn { cell, wound, line } => write!(
                f,
                "a miss at {cell} would leave no ship afloat room around the line of {line} hit(s) through {wound}"
            ),
            ShotError::FleetCannotCover => {
                f.write_str("no placement of the ships afloat explains these shots")
            }
        }
    }
}

impl std::error::Error for ShotError {}

/// The record of shots at one sea: everything the shooter may see of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    shots: Vec<Shot>,
    marks: [Mark; 100],
    sunk: Vec<Ship>,
}

impl Default for View {
    fn default() -> View {
        View::new()
    }
}

impl View {
    /// A sea nobody has shot at.
    #[must_use]
    pub fn new() -> View {
        View {
            shots: Vec::new(),
            marks: [Mark::Unknown; 100],
            sunk: Vec::new(),
        }
    }

    /// The shots, in the order fired.
    #[must_use]
    pub fn shots(&self) -> &[Shot] {
        &self.shots
    }

    /// The mark of `cell`.
    #[must_use]
    pub fn mark(&self, cell: Cell) -> Mark {
        self.marks
            .get(cell.index())
            .copied()
            .unwrap_or(Mark::Unknown)
    }

    /// Whether `cell` may still be shot (B5).
    #[must_use]
    pub fn is_open(&self, cell: Cell) -> bool {
        self.mark(cell) == Mark::Unknown
    }

    /// The cells open to a shot, in canonical order.
    pub fn open_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        Cell::all().filter(|&c| self.is_open(c))
    }

    /// The cells with mark `mark`.
    #[must_use]
    pub fn cells_marked(&self, mark: Mark) -> CellSet {
        Cell::all().filter(|&c| self.mark(c) == mark).collect()
    }

    /// The sunk ships, in the order sunk.
    #[must_use]
    pub fn sunk(&self) -> &[Ship] {
        &self.sunk
    }

    /// How many ships of `kind` are still afloat.
    #[must_use]
    pub fn afloat(&self, kind: ShipType) -> usize {
        let sunk = self.sunk.iter().filter(|s| s.kind() == kind).count();
        kind.count().saturating_sub(sunk)
    }

    /// Whether all ten ships are sunk (B7).
    #[must_use]
    pub fn all_sunk(&self) -> bool {
        self.sunk.len() == 10
    }

    /// The number of ship cells hit so far (afloat or sunk).
    #[must_use]
    pub fn hits(&self) -> usize {
        self.marks
            .iter()
            .filter(|m| matches!(m, Mark::Hit | Mark::Sunk))
            .count()
    }

    /// The hits of ships still afloat, grouped by ship: each group is the cells of
    /// one ship hit so far (joined by sides), in canonical order.
    #[must_use]
    pub fn wounded(&self) -> Vec<Vec<Cell>> {
        let mut seen = CellSet::new();
        let mut groups = Vec::new();
        for cell in Cell::all() {
            if self.mark(cell) == Mark::Hit && !seen.contains(cell) {
                let group = self.line_through(cell);
                for &c in &group {
                    seen.insert(c);
                }
                groups.push(group);
            }
        }
        groups
    }

    /// The cell `cell` and the afloat hits joined to it by sides, in canonical order.
    fn line_through(&self, cell: Cell) -> Vec<Cell> {
        let mut group = CellSet::new();
        group.insert(cell);
        let mut stack = vec![cell];
        while let Some(c) = stack.pop() {
            for n in c.sides() {
                if self.mark(n) == Mark::Hit && !group.contains(n) {
                    group.insert(n);
                    stack.push(n);
                }
            }
        }
        group.iter().collect()
    }

    /// Checks that `result` is a possible answer for a shot at `cell`, and changes
    /// nothing. Every result is refused when the cell is spent (B5). A hit or a sunk
    /// is refused when: 20 cells are already hit; a hit touches it by a corner (B3);
    /// the hits joined to it would bend. A `hit` is refused when the line of hits
    /// through it would be 4 long (such a ship is sunk, not hit); a `sunk TYPE` when
    /// no TYPE is afloat, the line is not exactly TYPE long, or the ring holds another
    /// hit. A `miss` is refused when it leaves a wound no room for any ship afloat
    /// (the hits would be a whole ship never reported sunk, or the room left fits only
    /// ship sizes already sunk). Finally every result is refused when no placement of
    /// the ships afloat explains the view with it ([`View::explainable`]: every unsunk
    /// hit on a ship, no ship touching another or lying on a miss or ring, no afloat
    /// ship wholly hit).
    ///
    /// # Errors
    /// The first reason found.
    pub fn check(&self, cell: Cell, result: ShotResult) -> Result<(), ShotError> {
        if !self.is_open(cell) {
            return Err(ShotError::Spent(cell));
        }
        if result != ShotResult::Miss {
            self.check_struck(cell, result)?;
        }
        let mut after = self.clone();
        after.apply(cell, result);
        if result == ShotResult::Miss
            && let Some(wound) = after.boxed_wound()
        {
            return Err(ShotError::BoxedIn {
                cell,
                wound: wound.first().copied().unwrap_or(cell),
                line: wound.len(),
            });
        }
        if after.explainable() {
            Ok(())
        } else {
            Err(ShotError::FleetCannotCover)
        }
    }

    /// The checks of [`View::check`] proper to a `hit` or `sunk` at the open `cell`.
    fn check_struck(&self, cell: Cell, result: ShotResult) -> Result<(), ShotError> {
        if self.hits() >= 20 {
            return Err(ShotError::TooManyHits);
        }
        if let Some(other) = cell
            .corners()
            .find(|&c| matches!(self.mark(c), Mark::Hit | Mark::Sunk))
        {
            return Err(ShotError::Corner { cell, other });
        }
        let line = self.line_through(cell);
        let ends = (line.first().copied(), line.last().copied());
        let (Some(first), Some(last)) = ends else {
            return Err(ShotError::Bent(cell));
        };
        if first.row() != last.row() && first.col() != last.col() {
            return Err(ShotError::Bent(cell));
        }
        match result {
            ShotResult::Miss => {}
            ShotResult::Hit => {
                // A hit ship has a cell still afloat: a line of 4 hits is sunk.
                if line.len() >= ShipType::Battleship.len() {
                    return Err(ShotError::NoRoom {
                        cell,
                        line: line.len(),
                    });
                }
            }
            ShotResult::Sunk(kind) => {
                if self.afloat(kind) == 0 {
                    return Err(ShotError::NoneAfloat(kind));
                }
                if line.len() != kind.len() {
                    return Err(ShotError::WrongLength {
                        kind,
                        line: line.len(),
                    });
                }
                let ship = Ship::new(first, last).map_err(|_| ShotError::Bent(cell))?;
                if let Some(other) = ship
                    .ring()
                    .iter()
                    .find(|&c| matches!(self.mark(c), Mark::Hit | Mark::Sunk))
                {
                    return Err(ShotError::RingHasHits { ship, other });
                }
            }
        }
        Ok(())
    }

    /// Records `result` at `cell` after [`View::check`].
    ///
    /// # Errors
    /// What [`View::check`] refuses; then nothing changes.
    pub fn record(&mut self, cell: Cell, result: ShotResult) -> Result<(), ShotError> {
        self.check(cell, result)?;
        self.apply(cell, result);
        Ok(())
    }

    /// Records the referee's judgement of a shot at `cell` against `fleet` (B4): no
    /// possibility check is needed, only that the cell is open (B5).
    ///
    /// # Errors
    /// [`ShotError::Spent`] when the cell is not open; then nothing changes.
    pub fn record_judged(&mut self, fleet: &Fleet, cell: Cell) -> Result<ShotResult, ShotError> {
        if !self.is_open(cell) {
            return Err(ShotError::Spent(cell));
        }
        let result = fleet.judge(self, cell);
        self.apply(cell, result);
        Ok(result)
    }

    /// Records a shot without checking it. Precondition: `cell` is open and `result`
    /// is possible (checked by [`View::check`] or judged from a legal fleet). On a
    /// sinking the sunk ship is the line of hits through `cell`, and its unshot ring
    /// cells become `Ring` (B6).
    pub(crate) fn apply(&mut self, cell: Cell, result: ShotResult) {
        self.shots.push(Shot { cell, result });
        let mark = match result {
            ShotResult::Miss => Mark::Miss,
            ShotResult::Hit | ShotResult::Sunk(_) => Mark::Hit,
        };
        self.set(cell, mark);
        if let ShotResult::Sunk(_) = result {
            let line = self.line_through(cell);
            let ship = match (line.first(), line.last()) {
                (Some(&a), Some(&b)) => Ship::new(a, b).ok(),
                _ => None,
            };
            if let Some(ship) = ship {
                for c in ship.cells() {
                    self.set(c, Mark::Sunk);
                }
                for c in ship.ring().iter() {
                    if self.is_open(c) {
                        self.set(c, Mark::Ring);
                    }
                }
                self.sunk.push(ship);
            }
        }
    }

    fn set(&mut self, cell: Cell, mark: Mark) {
        if let Some(slot) = self.marks.get_mut(cell.index()) {
            *slot = mark;
        }
    }
}

impl Fleet {
    /// The referee's answer (B4) to a shot at `cell`, given the shots so far.
    #[must_use]
    pub fn judge(&self, view: &View, cell: Cell) -> ShotResult {
        match self.ship_at(cell) {
            None => ShotResult::Miss,
            Some(ship) => {
                let afloat = ship.cells().any(|c| c != cell && view.mark(c) != Mark::Hit);
                if afloat {
                    ShotResult::Hit
                } else {
                    ShotResult::Sunk(ship.kind())
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::battleship::testing::cell as c;

    fn view(shots: &[(&str, ShotResult)]) -> View {
        let mut v = View::new();
        for &(cell, result) in shots {
            v.record(c(cell), result).unwrap();
        }
        v
    }

    use ShipType::{Battleship, Boat, Cruiser, Destroyer};

    /// Found by the hunter bench: hits at H9 then H7 (H8 open) may be one cruiser, so
    /// the check must not demand a ship for each.
    #[test]
    fn hits_with_an_open_gap_may_be_one_ship() {
        use ShotResult::{Hit, Miss};
        let mut v = View::new();
        let fleet = "H2-H5 C7-E7 H7-H9 A2-B2 D3-D4 B10-C10 F1 F4 J7 J9";
        let fleet = Fleet::parse(fleet).unwrap();
        for cell in [
            "E4", "D7", "D6", "E7", "F7", "C7", "G5", "D3", "E3", "D4", "H4", "H3", "H5", "H6",
            "H2", "G9", "I8", "H10", "J7", "A5", "B1", "D9", "A9", "E10", "J3", "F3", "D1", "C10",
            "B10", "A7", "A2", "A3", "H9",
        ] {
            let result = fleet.judge(&v, c(cell));
            v.record(c(cell), result).unwrap();
        }
        assert_eq!(v.check(c("H7"), Hit), Ok(()));
        // And a lone hit two cells from a wound: room along the line through the gap.
        let mut w = View::new();
        for (cell, result) in [("B2", Hit), ("B1", Miss), ("A2", Miss), ("C2", Miss)] {
            w.record(c(cell), result).unwrap();
        }
        assert_eq!(w.check(c("B4"), Hit), Ok(()));
        assert_eq!(v.check(c("H7"), Miss), Ok(()));
    }
    use ShotResult::{Hit, Miss, Sunk};

    #[test]
    fn b6_ring_marked_in_the_corner() {
        let v = view(&[("A1", Hit), ("A2", Sunk(Destroyer))]);
        let ring: Vec<String> = v
            .cells_marked(Mark::Ring)
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(ring, ["B1", "B2", "A3", "B3"]);
        assert_eq!(v.sunk(), [Ship::parse("A1-A2").unwrap()]);
        assert_eq!(v.mark(c("A1")), Mark::Sunk);
    }

    #[test]
    fn b6_ring_marked_at_the_edge_keeps_earlier_misses() {
        let v = view(&[
            ("E10", Miss),
            ("F10", Hit),
            ("H10", Hit),
            ("G10", Sunk(Cruiser)),
        ]);
        assert_eq!(v.mark(c("E10")), Mark::Miss);
        for cell in ["E9", "F9", "G9", "H9", "I9", "I10"] {
            assert_eq!(v.mark(c(cell)), Mark::Ring, "{cell}");
        }
        assert_eq!(v.cells_marked(Mark::Ring).len(), 6);
    }

    #[test]
    fn b5_spent_cells_refused() {
        let mut v = view(&[("A1", Miss), ("J10", Sunk(Boat))]);
        let before = v.clone();
        assert_eq!(v.record(c("A1"), Miss), Err(ShotError::Spent(c("A1"))));
        assert_eq!(v.record(c("J10"), Hit), Err(ShotError::Spent(c("J10"))));
        assert_eq!(v.record(c("I9"), Hit), Err(ShotError::Spent(c("I9"))));
        assert_eq!(v, before);
    }

    #[test]
    fn player_mode_miss_beside_a_wound_with_room_left() {
        let mut v = view(&[("E5", Hit)]);
        assert_eq!(v.record(c("E6"), Miss), Ok(()));
    }

    /// Regression: a miss was never checked. Closing a lone hit on both sides (B1 and
    /// the edge, then A2) makes it a whole boat that was never reported sunk (B4).
    #[test]
    fn player_mode_miss_that_closes_a_wound_refused() {
        let v = view(&[("A1", Hit), ("B1", Miss)]);
        let before = v.clone();
        assert_eq!(
            v.check(c("A2"), Miss),
            Err(ShotError::BoxedIn {
                cell: c("A2"),
                wound: c("A1"),
                line: 1
            })
        );
        assert_eq!(v, before);
        assert_eq!(v.check(c("A2"), Hit), Ok(()));
        // A line of two closed at both ends by water and the edge: a destroyer unsunk.
        let v = view(&[("C10", Hit), ("D10", Hit), ("B10", Miss)]);
        assert!(matches!(
            v.check(c("E10"), Miss),
            Err(ShotError::BoxedIn { line: 2, .. })
        ));
        assert_eq!(v.check(c("E10"), Sunk(Cruiser)), Ok(()));
    }

    /// Regression: with all three destroyers sunk, a lone hit at J10 closed on the
    /// left (I10) and then from above (J8) has room only for a destroyer (J9-J10).
    #[test]
    fn player_mode_miss_leaving_room_only_for_sunk_sizes_refused() {
        let mut v = View::new();
        for (a, b) in [("A1", "A2"), ("C1", "C2"), ("E1", "E2")] {
            v.record(c(a), Hit).unwrap();
            v.record(c(b), Sunk(Destroyer)).unwrap();
        }
        v.record(c("J10"), Hit).unwrap();
        v.record(c("I10"), Miss).unwrap();
        assert_eq!(
            v.check(c("J8"), Miss),
            Err(ShotError::BoxedIn {
                cell: c("J8"),
                wound: c("J10"),
                line: 1
            })
        );
        assert_eq!(v.check(c("J7"), Miss), Ok(()));
        assert_eq!(v.check(c("J9"), Hit), Ok(()));
        assert_eq!(
            v.check(c("J9"), Sunk(Destroyer)),
            Err(ShotError::NoneAfloat(Destroyer))
        );
    }

    /// A miss far from any wound can still be impossible: the fleet afloat would no
    /// longer fit the open water.
    #[test]
    fn player_mode_miss_that_leaves_the_fleet_no_room_refused() {
        let mut v = View::new();
        for (from, to, kind) in [
            ("A1", "C1", Cruiser),
            ("E1", "G1", Cruiser),
            ("I1", "J1", Destroyer),
            ("A3", "B3", Destroyer),
            ("D3", "E3", Destroyer),
            ("G3", "G3", Boat),
            ("I3", "I3", Boat),
            ("A5", "A5", Boat),
            ("C5", "C5", Boat),
        ] {
            let ship = Ship::new(c(from), c(to)).unwrap();
            let cells: Vec<Cell> = ship.cells().collect();
            let (last, rest) = cells.split_last().unwrap();
            for &cell in rest {
                v.record(cell, Hit).unwrap();
            }
            v.record(*last, Sunk(kind)).unwrap();
        }
        // Only the battleship is afloat; leave it row 10 alone, then A10-D10 and
        // F10-J10 once E10 and B10 are water.
        for cell in Cell::all().filter(|c| c.row() < 9) {
            if v.is_open(cell) {
                v.record(cell, Miss).unwrap();
            }
        }
        v.record(c("E10"), Miss).unwrap();
        v.record(c("B10"), Miss).unwrap();
        for cell in ["G10", "H10", "I10"] {
            assert_eq!(
                v.check(c(cell), Miss),
                Err(ShotError::FleetCannotCover),
                "{cell}"
            );
        }
        for cell in ["F10", "J10"] {
            assert_eq!(v.check(c(cell), Miss), Ok(()), "{cell}");
        }
    }

    #[test]
    fn player_mode_corner_hit_refused() {
        let v = view(&[("E5", Hit)]);
        assert_eq!(
            v.check(c("F6"), Hit),
            Err(ShotError::Corner {
                cell: c("F6"),
                other: c("E5")
            })
        );
        assert!(v.check(c("D4"), Sunk(Boat)).is_err());
    }

    #[test]
    fn player_mode_line_longer_than_4_refused() {
        let v = view(&[("A1", Hit), ("B1", Hit), ("C1", Hit)]);
        // A fourth hit in line must be a sunk battleship, not a hit.
        assert!(matches!(
            v.check(c("D1"), Hit),
            Err(ShotError::NoRoom { line: 4, .. })
        ));
        assert_eq!(v.check(c("D1"), Sunk(Battleship)), Ok(()));
        // With A1-C1 hit, the battleship must end on D1, so E1 would touch it.
        assert_eq!(v.check(c("E1"), Hit), Err(ShotError::FleetCannotCover));
        assert_eq!(v.check(c("E1"), Miss), Ok(()));
    }

    #[test]
    fn player_mode_hit_needs_room_for_a_longer_ship() {
        // Battleship sunk: a line of 3 hits cannot be "hit" (no ship of 4 afloat).
        let v = view(&[
            ("A1", Hit),
            ("A2", Hit),
            ("A3", Hit),
            ("A4", Sunk(Battleship)),
            ("J1", Hit),
            ("J2", Hit),
        ]);
        assert_eq!(v.check(c("J3"), Hit), Err(ShotError::FleetCannotCover));
        assert_eq!(v.check(c("J3"), Sunk(Cruiser)), Ok(()));
        // A single hit with only boats afloat would be a hit boat: must be sunk.
        let mut w = View::new();
        for (from, kind) in [
            ("A1", Battleship),
            ("C1", Cruiser),
            ("E1", Cruiser),
            ("G1", Destroyer),
            ("I1", Destroyer),
            ("A6", Destroyer),
        ] {
            let start = c(from);
            for i in 0..kind.len() - 1 {
                w.record(start.offset(0, i as i32).unwrap(), Hit).unwrap();
            }
            w.record(start.offset(0, kind.len() as i32 - 1).unwrap(), Sunk(kind))
                .unwrap();
        }
        assert!(w.check(c("E8"), Hit).is_err());
        assert_eq!(w.check(c("E8"), Sunk(Boat)), Ok(()));
        // A hit boxed in by misses has no room.
        let v = view(&[("A2", Miss), ("B1", Miss)]);
        assert_eq!(v.check(c("A1"), Hit), Err(ShotError::FleetCannotCover));
        assert_eq!(v.check(c("A1"), Sunk(Boat)), Ok(()));
    }

    #[test]
    fn player_mode_sunk_must_match_the_line_length() {
        let v = view(&[("C3", Hit)]);
        assert_eq!(
            v.check(c("C4"), Sunk(Cruiser)),
            Err(ShotError::WrongLength {
                kind: Cruiser,
                line: 2
            })
        );
        assert_eq!(v.check(c("C4"), Sunk(Destroyer)), Ok(()));
        assert_eq!(
            v.check(c("C4"), Sunk(Boat)),
            Err(ShotError::WrongLength {
                kind: Boat,
                line: 2
            })
        );
    }

    #[test]
    fn player_mode_sunk_type_already_all_sunk_refused() {
        let v = view(&[
            ("A1", Sunk(Boat)),
            ("C1", Sunk(Boat)),
            ("E1", Sunk(Boat)),
            ("G1", Sunk(Boat)),
        ]);
        assert_eq!(
            v.check(c("J10"), Sunk(Boat)),
            Err(ShotError::NoneAfloat(Boat))
        );
    }

    #[test]
    fn player_mode_bent_group_refused() {
        // C3 hit, D4 hit is refused already (corner); with E3 and D3 a T would form.
        let v = view(&[("C3", Hit), ("E3", Hit)]);
        assert_eq!(v.check(c("D3"), Hit), Ok(()));
        let v = view(&[("C3", Hit), ("D3", Hit)]);
        assert!(matches!(
            v.check(c("D4"), Hit),
            Err(ShotError::Corner { .. })
        ));
    }

    #[test]
    fn player_mode_sunk_takes_the_whole_line_of_hits() {
        let v = view(&[("E5", Hit), ("E7", Hit)]);
        // E6 joins them into a line of 3: a sunk destroyer has the wrong length.
        assert!(v.check(c("E6"), Sunk(Destroyer)).is_err());
        assert_eq!(v.check(c("E6"), Sunk(Cruiser)), Ok(()));
        // (A sunk ship's ring can hold another hit only if that hit touched the line
        // by a side, and then it is part of the line, or by a corner, refused when
        // it was reported; `RingHasHits` is a last line of defence.)
    }

    #[test]
    fn player_mode_more_than_20_hits_refused() {
        let mut v = View::new();
        let fleet = Fleet::parse("A1-D1 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7 G7").unwrap();
        for ship in fleet.ships() {
            for cell in ship.cells() {
                let r = fleet.judge(&v, cell);
                v.record(cell, r).unwrap();
            }
        }
        assert!(v.all_sunk());
        assert_eq!(v.hits(), 20);
        assert_eq!(v.check(c("J10"), Hit), Err(ShotError::TooManyHits));
        assert_eq!(v.check(c("J10"), Miss), Ok(()));
    }

    #[test]
    fn player_mode_too_many_wounded_groups_refused() {
        // Two lines of 3 hits each need two ships of 4: there is one battleship.
        let v = view(&[
            ("A1", Hit),
            ("A2", Hit),
            ("A3", Hit),
            ("J1", Hit),
            ("J2", Hit),
        ]);
        assert_eq!(v.check(c("J3"), Hit), Err(ShotError::FleetCannotCover));
    }

    /// Regression: hits on one ship with an unshot cell between them (C5, E5, F5 of
    /// a battleship C5-F5) were refused as two ships; the arena found it.
    #[test]
    fn hits_with_a_gap_can_be_one_ship() {
        let mut v = View::new();
        // Sink everything but the battleship, far from row 5.
        for (from, kind) in [
            ("A8", Cruiser),
            ("E8", Cruiser),
            ("I7", Destroyer),
            ("A1", Destroyer),
            ("D1", Destroyer),
            ("G1", Boat),
            ("I1", Boat),
            ("J3", Boat),
            ("A3", Boat),
        ] {
            let start = c(from);
            for i in 0..kind.len() - 1 {
                v.record(start.offset(i as i32, 0).unwrap(), Hit).unwrap();
            }
            v.record(start.offset(kind.len() as i32 - 1, 0).unwrap(), Sunk(kind))
                .unwrap();
        }
        v.record(c("C5"), Hit).unwrap();
        v.record(c("E5"), Hit).unwrap();
        // Only the battleship is afloat: F5 joins E5, and C5 must be on the same ship.
        assert_eq!(v.check(c("F5"), Hit), Ok(()));
        v.record(c("F5"), Hit).unwrap();
        assert_eq!(v.check(c("D5"), Sunk(Battleship)), Ok(()));
        // G5 would make the line E5-G5 plus C5: five cells, no such ship.
        assert_eq!(v.check(c("G5"), Hit), Err(ShotError::FleetCannotCover));
    }

    #[test]
    fn separate_single_hits_are_possible() {
        // C5 and E5 may be two ships, or one ship with D5 between them.
        let v = view(&[("C5", Hit)]);
        assert_eq!(v.check(c("E5"), Hit), Ok(()));
        assert!(v.explainable());
    }

    #[test]
    fn b4_judge_answers_from_the_fleet() {
        let fleet = Fleet::parse("A1-D1 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7 G7").unwrap();
        let mut v = View::new();
        assert_eq!(fleet.judge(&v, c("J10")), Miss);
        assert_eq!(fleet.judge(&v, c("A5")), Hit);
        v.apply(c("A5"), Hit);
        assert_eq!(fleet.judge(&v, c("B5")), Sunk(Destroyer));
        assert_eq!(fleet.judge(&v, c("G7")), Sunk(Boat));
    }

    #[test]
    fn shot_result_words() {
        assert_eq!(ShotResult::parse("SUNK Cruiser"), Some(Sunk(Cruiser)));
        assert_eq!(ShotResult::parse("miss"), Some(Miss));
        assert_eq!(ShotResult::parse("sunk"), None);
        assert_eq!(ShotResult::parse("hit hit"), None);
        assert_eq!(Sunk(Boat).to_string(), "sunk boat");
    }
}
