//! Ships and fleets (B2, B3) and the fleet notation.
//!
//! A [`Ship`] is straight and 1 to 4 cells long by construction; `from` is its top or
//! left end. A [`Fleet`] is exactly the ten ships of B2 placed by B3 — straight, wholly
//! on the board, no two touching by a side or a corner — and holds them in canonical
//! order (longest first, then by `from`, then by `to`); no other `Fleet` can exist.
//!
//! Fleet notation (CONTRACT "Battleship"): the ten ships separated by spaces, each
//! `FROM-TO` (`A1-A4`) or a single cell for a boat (`J10`); ends in either order, any
//! case. A fleet prints canonically, e.g.
//! `A1-D1 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7 G7`.

use std::fmt;

use super::cell::{Cell, CellSet};

/// The four kinds of ship (B2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShipType {
    /// 4 cells, one per fleet.
    Battleship,
    /// 3 cells, two per fleet.
    Cruiser,
    /// 2 cells, three per fleet.
    Destroyer,
    /// 1 cell, four per fleet.
    Boat,
}

impl ShipType {
    /// All kinds, longest first.
    pub const ALL: [ShipType; 4] = [
        ShipType::Battleship,
        ShipType::Cruiser,
        ShipType::Destroyer,
        ShipType::Boat,
    ];

    /// The number of cells.
    #[must_use]
    #[allow(clippy::len_without_is_empty)] // a ship type is never empty
    pub fn len(self) -> usize {
        match self {
            ShipType::Battleship => 4,
            ShipType::Cruiser => 3,
            ShipType::Destroyer => 2,
            ShipType::Boat => 1,
        }
    }

    /// How many ships of this kind a fleet has (B2).
    #[must_use]
    pub fn count(self) -> usize {
        5 - self.len()
    }

    /// The protocol's word: `battleship`, `cruiser`, `destroyer`, `boat`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ShipType::Battleship => "battleship",
            ShipType::Cruiser => "cruiser",
            ShipType::Destroyer => "destroyer",
            ShipType::Boat => "boat",
        }
    }

    /// The kind named `name`, in any case.
    #[must_use]
    pub fn parse(name: &str) -> Option<ShipType> {
        ShipType::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(name))
    }

    /// The kind `len` cells long.
    #[must_use]
    pub fn from_len(len: usize) -> Option<ShipType> {
        ShipType::ALL.into_iter().find(|kind| kind.len() == len)
    }
}

impl fmt::Display for ShipType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a ship or a fleet is refused (B2, B3). Every variant names the offending
/// ship(s) or text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FleetError {
    /// A piece of the notation that is not a cell or `FROM-TO`.
    Syntax(String),
    /// A cell off the 10×10 board, as written.
    OffBoard(String),
    /// Ends not on one row or one column.
    Bent { from: Cell, to: Cell },
    /// Longer than a battleship.
    TooLong { from: Cell, to: Cell },
    /// Not the B2 number of ships of a kind; lists the ships of that kind given.
    WrongCount {
        kind: ShipType,
        expected: usize,
        ships: Vec<Ship>,
    },
    /// Two ships sharing a cell.
    Overlapping(Ship, Ship),
    /// Two ships touching by a side or a corner.
    Touching(Ship, Ship),
}

impl fmt::Display for FleetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FleetError::Syntax(text) => write!(f, "not a ship: {text:?}"),
            FleetError::OffBoard(text) => write!(f, "ship {text} is off the board"),
            FleetError::Bent { from, to } => {
                write!(f, "ship {from}-{to} is not straight")
            }
            FleetError::TooLong { from, to } => {
                write!(f, "ship {from}-{to} is longer than 4 cells")
            }
            FleetError::WrongCount {
                kind,
                expected,
                ships,
            } => {
                write!(f, "a fleet has {expected} {kind}(s), found {}", ships.len())?;
                for (i, ship) in ships.iter().enumerate() {
                    f.write_str(if i == 0 { ": " } else { ", " })?;
                    write!(f, "{ship}")?;
                }
                Ok(())
            }
            FleetError::Overlapping(a, b) => {
                write!(f, "{} {a} overlaps {} {b}", a.kind(), b.kind())
            }
            FleetError::Touching(a, b) => {
                write!(f, "{} {a} touches {} {b}", a.kind(), b.kind())
            }
        }
    }
}

impl std::error::Error for FleetError {}

/// A straight ship of 1 to 4 cells; `from` is its top or left end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ship {
    from: Cell,
    to: Cell,
}

impl Ship {
    /// The ship between two ends, given in either order.
    ///
    /// # Errors
    /// [`FleetError::Bent`] when the ends share neither row nor column,
    /// [`FleetError::TooLong`] beyond 4 cells.
    pub fn new(a: Cell, b: Cell) -> Result<Ship, FleetError> {
        let (from, to) = if a <= b { (a, b) } else { (b, a) };
        if from.row() != to.row() && from.col() != to.col() {
            return Err(FleetError::Bent { from, to });
        }
        let len = (to.row() - from.row()) + (to.col() - from.col()) + 1;
        if len > 4 {
            return Err(FleetError::TooLong { from, to });
        }
        Ok(Ship { from, to })
    }

    /// A one-cell ship.
    #[must_use]
    pub fn boat(cell: Cell) -> Ship {
        Ship {
            from: cell,
            to: cell,
        }
    }

    /// Reads `FROM-TO` or a single cell, any case, ends in either order.
    ///
    /// # Errors
    /// A [`FleetError`] naming the text or the ship.
    pub fn parse(text: &str) -> Result<Ship, FleetError> {
        let mut ends = text.split('-');
        let first = ends.next().unwrap_or_default();
        let second = ends.next();
        if ends.next().is_some() {
            return Err(FleetError::Syntax(text.to_string()));
        }
        let cell = |part: &str| {
            Cell::parse(part).ok_or_else(|| {
                if Cell::looks_like_cell(part) {
                    FleetError::OffBoard(text.to_string())
                } else {
                    FleetError::Syntax(text.to_string())
                }
            })
        };
        let a = cell(first)?;
        match second {
            None => Ok(Ship::boat(a)),
            Some(part) => Ship::new(a, cell(part)?),
        }
    }

    /// The top or left end.
    #[must_use]
    pub fn from(self) -> Cell {
        self.from
    }

    /// The bottom or right end.
    #[must_use]
    pub fn to(self) -> Cell {
        self.to
    }

    /// The number of cells, 1 to 4.
    #[must_use]
    #[allow(clippy::len_without_is_empty)] // a ship is never empty
    pub fn len(self) -> usize {
        let span = (self.to.row() - self.from.row()) + (self.to.col() - self.from.col());
        usize::try_from(span).unwrap_or(0) + 1
    }

    /// The kind, from the length.
    #[must_use]
    pub fn kind(self) -> ShipType {
        ShipType::from_len(self.len()).unwrap_or(ShipType::Boat)
    }

    /// The cells, from `from` to `to`.
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        let (dc, dr) = if self.from.row() == self.to.row() {
            (1, 0)
        } else {
            (0, 1)
        };
        let from = self.from;
        (0..self.len()).filter_map(move |i| {
            let i = i32::try_from(i).ok()?;
            from.offset(dc * i, dr * i)
        })
    }

    /// The cells as a set.
    #[must_use]
    pub fn cell_set(self) -> CellSet {
        self.cells().collect()
    }

    /// Whether `cell` is part of the ship.
    #[must_use]
    pub fn contains(self, cell: Cell) -> bool {
        (self.from.row()..=self.to.row()).contains(&cell.row())
            && (self.from.col()..=self.to.col()).contains(&cell.col())
    }

    /// The ring (B6): every on-board cell touching the ship by a side or a corner,
    /// not part of it.
    #[must_use]
    pub fn ring(self) -> CellSet {
        let cells = self.cell_set();
        self.cells()
            .flat_map(Cell::neighbours)
            .collect::<CellSet>()
            .minus(cells)
    }
}

impl fmt::Display for Ship {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.from == self.to {
            write!(f, "{}", self.from)
        } else {
            write!(f, "{}-{}", self.from, self.to)
        }
    }
}

/// A legal fleet: the ten ships of B2 placed by B3, in canonical order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fleet {
    ships: [Ship; 10],
}

impl Fleet {
    /// Checks `ships` against B2 and B3 and makes the fleet.
    ///
    /// # Errors
    /// The first broken rule found, in this order: the count of each kind, then
    /// overlapping ships, then touching ships.
    pub fn new(ships: Vec<Ship>) -> Result<Fleet, FleetError> {
        for kind in ShipType::ALL {
            let of_kind: Vec<Ship> = ships.iter().copied().filter(|s| s.kind() == kind).collect();
            if of_kind.len() != kind.count() {
                return Err(FleetError::WrongCount {
                    kind,
                    expected: kind.count(),
                    ships: of_kind,
                });
            }
        }
        let mut sorted = ships;
        sorted.sort_by_key(|s| (std::cmp::Reverse(s.len()), s.from, s.to));
        for (i, &a) in sorted.iter().enumerate() {
            for &b in sorted.iter().skip(i + 1) {
                if a.cell_set().intersects(b.cell_set()) {
                    return Err(FleetError::Overlapping(a, b));
                }
                if a.ring().intersects(b.cell_set()) {
                    return Err(FleetError::Touching(a, b));
                }
            }
        }
        let ships: [Ship; 10] = sorted.try_into().map_err(|v: Vec<Ship>| {
            // Unreachable after the counts above (1 + 2 + 3 + 4 = 10).
            FleetError::WrongCount {
                kind: ShipType::Boat,
                expected: ShipType::Boat.count(),
                ships: v,
            }
        })?;
        Ok(Fleet { ships })
    }

    /// Reads the fleet notation (module doc): ships separated by whitespace.
    ///
    /// # Errors
    /// The first bad ship, or what [`Fleet::new`] refuses.
    pub fn parse(text: &str) -> Result<Fleet, FleetError> {
        let ships = text
            .split_whitespace()
            .map(Ship::parse)
            .collect::<Result<Vec<Ship>, FleetError>>()?;
        Fleet::new(ships)
    }

    /// The ten ships, in canonical order.
    #[must_use]
    pub fn ships(&self) -> &[Ship; 10] {
        &self.ships
    }

    /// The ship covering `cell`, if any.
    #[must_use]
    pub fn ship_at(&self, cell: Cell) -> Option<Ship> {
        self.ships.iter().copied().find(|s| s.contains(cell))
    }

    /// All 20 ship cells.
    #[must_use]
    pub fn cells(&self) -> CellSet {
        self.ships
            .iter()
            .fold(CellSet::new(), |acc, s| acc.union(s.cell_set()))
    }

    /// The fleet notation joined by `sep` (a space for the protocol, a comma inside
    /// the table notation).
    #[must_use]
    pub fn joined(&self, sep: &str) -> String {
        self.ships
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(sep)
    }
}

impl fmt::Display for Fleet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.joined(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) const GOOD: &str = "A1-D1 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7 G7";

    fn err(text: &str) -> FleetError {
        match Fleet::parse(text) {
            Ok(f) => panic!("accepted {text:?} as {f}"),
            Err(e) => e,
        }
    }

    #[test]
    fn b2_b3_good_fleet_parses_and_prints_canonically() {
        let fleet = Fleet::parse(GOOD).unwrap();
        assert_eq!(fleet.to_string(), GOOD);
        assert_eq!(fleet.cells().len(), 20);
        // Either end order, any case, any order of ships.
        let shuffled = "g7 e7 c7 a7 h5-g5 e5-d5 b5-a5 g3-e3 c3-a3 d1-a1";
        assert_eq!(Fleet::parse(shuffled).unwrap(), fleet);
    }

    #[test]
    fn b2_wrong_count_names_the_ships_of_that_kind() {
        // Two battleships, no second cruiser.
        let e = err("A1-D1 A3-D3 E5-G5 A5-B5 I1-I2 I4-I5 A7 C7 E7 G7");
        assert!(matches!(
            e,
            FleetError::WrongCount {
                kind: ShipType::Battleship,
                ..
            }
        ));
        let msg = e.to_string();
        assert!(msg.contains("A1-D1") && msg.contains("A3-D3"), "{msg}");
        // Nine ships: a boat missing.
        let e = err("A1-D1 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7");
        assert!(matches!(
            e,
            FleetError::WrongCount {
                kind: ShipType::Boat,
                ..
            }
        ));
        // Eleven ships.
        let e = err(&format!("{GOOD} J10"));
        assert!(e.to_string().contains("J10"), "{e}");
    }

    #[test]
    fn b3_too_long_ship_is_named() {
        let e = err("A1-E1 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7 G7");
        assert_eq!(e.to_string(), "ship A1-E1 is longer than 4 cells");
    }

    #[test]
    fn b3_bent_ship_is_named() {
        let e = err("A1-D2 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7 G7");
        assert_eq!(e.to_string(), "ship A1-D2 is not straight");
    }

    #[test]
    fn b3_off_board_ship_is_named() {
        let e = err("A1-D1 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7 K7");
        assert_eq!(e, FleetError::OffBoard("K7".into()));
        assert!(e.to_string().contains("K7"));
        let e = err("A8-A11 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7 G7");
        assert_eq!(e, FleetError::OffBoard("A8-A11".into()));
        let e = err("A1-D1 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7 @@");
        assert!(matches!(e, FleetError::Syntax(_)));
        let e = err("A1-B1-C1 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7 G7");
        assert!(matches!(e, FleetError::Syntax(_)));
    }

    #[test]
    fn b3_touching_by_side_names_both_ships() {
        // Boat G7 moved to G6, touching destroyer G5-H5 by a side.
        let e = err("A1-D1 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7 G6");
        assert_eq!(e.to_string(), "destroyer G5-H5 touches boat G6");
    }

    #[test]
    fn b3_touching_by_corner_names_both_ships() {
        // Boat I6 touches destroyer G5-H5 by a corner.
        let e = err("A1-D1 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7 I6");
        assert_eq!(e.to_string(), "destroyer G5-H5 touches boat I6");
    }

    #[test]
    fn b3_overlapping_names_both_ships() {
        let e = err("A1-D1 A3-C3 E3-G3 A5-B5 D5-E5 G5-H5 A7 C7 E7 B1");
        assert_eq!(e.to_string(), "battleship A1-D1 overlaps boat B1");
    }

    #[test]
    fn ship_cells_ring_and_kind() {
        let ship = Ship::parse("a1-a4").unwrap();
        assert_eq!(ship.kind(), ShipType::Battleship);
        assert_eq!(ship.cells().count(), 4);
        // B6 at the corner: ring is B1-B5 and A5.
        let ring: Vec<String> = ship.ring().iter().map(|c| c.to_string()).collect();
        assert_eq!(ring, ["B1", "B2", "B3", "B4", "A5", "B5"]);
        assert_eq!(Ship::parse("E5").unwrap().ring().len(), 8);
        assert_eq!(ShipType::parse("CRUISER"), Some(ShipType::Cruiser));
        assert_eq!(ShipType::parse("sub"), None);
    }
}
