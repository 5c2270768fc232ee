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
    /// The ships afloat could not account for all hits of unsunk ships.
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
            ShotError::FleetCannotCover => {
                f.write_str("the ships afloat cannot account for these hits")
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
    /// nothing. A miss at an open cell is always possible. A hit or a sunk is refused
    /// when: the cell is spent (B5); 20 cells are already hit; a hit touches it by a
    /// corner (B3); the hits joined to it would bend. A `hit` is refused when no ship
    /// type afloat longer than the line of hits fits along it over open cells that
    /// touch no other hit; a `sunk TYPE` when no TYPE is afloat, the line is not
    /// exactly TYPE long, or the ring holds another hit. Finally both are refused when
    /// the ships afloat could no longer account for all unsunk hits (each group of
    /// `n` hits needs its own afloat ship longer than `n`).
    ///
    /// # Errors
    /// The first reason found.
    pub fn check(&self, cell: Cell, result: ShotResult) -> Result<(), ShotError> {
        if !self.is_open(cell) {
            return Err(ShotError::Spent(cell));
        }
        if result == ShotResult::Miss {
            return Ok(());
        }
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
                if !self.has_room(&line) {
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
        let mut after = self.clone();
        after.apply(cell, result);
        if after.fleet_can_cover() {
            Ok(())
        } else {
            Err(ShotError::FleetCannotCover)
        }
    }

    /// Whether some afloat ship longer than `line` could lie along it.
    fn has_room(&self, line: &[Cell]) -> bool {
        let (Some(&first), Some(&last)) = (line.first(), line.last()) else {
            return false;
        };
        let line_set: CellSet = line.iter().copied().collect();
        let spent = self
            .cells_marked(Mark::Hit)
            .union(self.cells_marked(Mark::Sunk));
        // A segment may hold the line, open cells and other afloat hits in it (one
        // ship with gaps still open); it needs an open cell besides the line (else it
        // would be sunk) and no hit in its ring.
        let fits = |from: Cell, to: Cell| {
            let Ok(ship) = Ship::new(from, to) else {
                return false;
            };
            ship.cells()
                .all(|c| line_set.contains(c) || self.is_open(c) || self.mark(c) == Mark::Hit)
                && ship
                    .cells()
                    .any(|c| self.is_open(c) && !line_set.contains(c))
                && !ship.ring().intersects(spent)
        };
        let axes: &[(i32, i32)] = if line.len() == 1 {
            &[(1, 0), (0, 1)]
        } else if first.row() == last.row() {
            &[(1, 0)]
        } else {
            &[(0, 1)]
        };
        let Ok(n) = i32::try_from(line.len()) else {
            return false;
        };
        ShipType::ALL
            .into_iter()
            .filter(|&k| k.len() > line.len() && self.afloat(k) > 0)
            .any(|kind| {
                let Ok(k) = i32::try_from(kind.len()) else {
                    return false;
                };
                axes.iter().any(|&(dc, dr)| {
                    // Segments of length k starting `back` cells before `first`.
                    (0..=(k - n)).any(|back| {
                        let from = first.offset(-dc * back, -dr * back);
                        let to = first.offset(dc * (k - 1 - back), dr * (k - 1 - back));
                        matches!((from, to), (Some(a), Some(b)) if fits(a, b))
                    })
                })
            })
    }

    /// Hall's condition for the groups of afloat hits against the afloat ships: for
    /// each length `t`, the groups needing a ship of at least `t` cells are no more
    /// than the afloat ships of at least `t` cells. Two groups on one line with only
    /// open cells between them may be one ship (`E3` and `E5` hit, `E4` open): the
    /// condition is also tried with such groups joined, and either passing is enough.
    fn fleet_can_cover(&self) -> bool {
        let groups = self.wounded();
        let needs: Vec<usize> = groups.iter().map(|g| g.len() + 1).collect();
        self.hall(&needs) || self.hall(&self.joined_needs(&groups))
    }

    fn hall(&self, needs: &[usize]) -> bool {
        (1..=5).all(|t| {
            let groups = needs.iter().filter(|&&n| n >= t).count();
            let ships: usize = ShipType::ALL
                .into_iter()
                .filter(|k| k.len() >= t)
                .map(|k| self.afloat(k))
                .sum();
            groups <= ships
        })
    }

    /// The needs with groups joined greedily where they may be one ship: same row or
    /// column, only open cells between, at most 4 cells end to end. A joined group
    /// needs a ship as long as its span (its open cells are not hit).
    fn joined_needs(&self, groups: &[Vec<Cell>]) -> Vec<usize> {
        // (first, last, need) per group, in canonical order.
        let mut spans: Vec<(Cell, Cell, usize)> = groups
            .iter()
            .filter_map(|g| Some((*g.first()?, *g.last()?, g.len() + 1)))
            .collect();
        let mut i = 0;
        while i < spans.len() {
            let mut joined = false;
            for j in i + 1..spans.len() {
                let (Some(&(a0, a1, _)), Some(&(b0, b1, _))) = (spans.get(i), spans.get(j)) else {
                    continue;
                };
                let (first, last) = (a0.min(b0), a1.max(b1));
                let in_line = (first.row() == last.row() && a0.row() == b1.row())
                    || (first.col() == last.col() && a0.col() == b1.col());
                let span = (last.row() - first.row()) + (last.col() - first.col()) + 1;
                if !in_line || span > 4 {
                    continue;
                }
                let Ok(ship) = Ship::new(first, last) else {
                    continue;
                };
                let gaps_open = ship
                    .cells()
                    .all(|c| self.is_open(c) || self.mark(c) == Mark::Hit);
                if gaps_open {
                    let span = usize::try_from(span).unwrap_or(4);
                    if let Some(slot) = spans.get_mut(i) {
                        *slot = (first, last, span);
                    }
                    spans.remove(j);
                    joined = true;
                    break;
                }
            }
            if !joined {
                i += 1;
            }
        }
        spans.into_iter().map(|(_, _, need)| need).collect()
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

    fn c(text: &str) -> Cell {
        Cell::parse(text).unwrap()
    }

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
    fn player_mode_miss_is_always_possible_on_open_cells() {
        let mut v = view(&[("E5", Hit)]);
        assert_eq!(v.record(c("E6"), Miss), Ok(()));
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
        let v = view(&[("A1", Hit), ("B1", Hit), ("C1", Hit), ("E1", Hit)]);
        assert!(v.check(c("D1"), Sunk(Battleship)).is_err());
        assert!(v.check(c("D1"), Hit).is_err());
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
        assert!(matches!(
            v.check(c("J3"), Hit),
            Err(ShotError::NoRoom { .. })
        ));
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
        assert!(matches!(
            v.check(c("A1"), Hit),
            Err(ShotError::NoRoom { .. })
        ));
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
