//! Whether a [`View`] can still be explained by a legal fleet: the exact possibility
//! check behind player mode, where the session records results it cannot judge.
//!
//! A view is explainable when the ships still afloat can be placed so that every
//! unsunk hit lies on a ship, no ship lies on a miss, a ring cell or a sunk ship
//! (B5, B6), no two ships touch, not even by a corner (B3), and no afloat ship is
//! wholly hit (it would have been reported sunk, B4). The search first covers the
//! hits one at a time with every ship that can hold them, then places the remaining
//! ships anywhere; ships of one length are placed in increasing segment order, so no
//! placement is tried twice. It visits at most [`NODE_BUDGET`] placements: a view that
//! needs more is taken as explainable (a permissive answer, never a false refusal).

use super::cell::{Cell, CellSet};
use super::fleet::ShipType;
use super::sea::{Mark, View};

/// Placements tried before the search gives up and answers "explainable".
pub const NODE_BUDGET: u32 = 200_000;

/// A straight run of cells where a ship could lie, and its halo (the run and every
/// cell touching it).
#[derive(Clone, Copy)]
struct Segment {
    cells: CellSet,
    halo: CellSet,
}

/// Every segment of `len` cells on the board, in a fixed order.
fn segments(len: i32) -> Vec<Segment> {
    let directions: &[(i32, i32)] = if len == 1 {
        &[(1, 0)]
    } else {
        &[(1, 0), (0, 1)]
    };
    let mut found = Vec::new();
    for start in Cell::all() {
        for &(dc, dr) in directions {
            let cells: Option<Vec<Cell>> = (0..len).map(|i| start.offset(dc * i, dr * i)).collect();
            let Some(cells) = cells else { continue };
            let set: CellSet = cells.iter().copied().collect();
            let halo = cells
                .iter()
                .flat_map(|c| c.neighbours())
                .chain(cells.iter().copied())
                .collect();
            found.push(Segment { cells: set, halo });
        }
    }
    found
}

struct Search {
    /// Cells a ship may use: not shot at all, or hit (an afloat ship's cell).
    free: CellSet,
    hits: CellSet,
    /// Segments by ship length (index = length).
    segments: [Vec<Segment>; 5],
    nodes: u32,
}

impl Search {
    fn fits(&self, segment: &Segment, blocked: CellSet) -> bool {
        segment.cells.minus(self.free).is_empty()
            && !segment.cells.intersects(blocked)
            // A hit touching the ship but not on it would be another ship touching it.
            && segment.halo.intersection(self.hits).minus(segment.cells).is_empty()
            // An afloat ship has at least one cell not yet hit.
            && !segment.cells.minus(self.hits).is_empty()
    }

    /// Places `ships` (lengths, longest first) with the hits outside `covered` still
    /// to cover. `floor[len]` is the first segment index a ship of that length may use.
    fn place(
        &mut self,
        ships: &mut Vec<usize>,
        blocked: CellSet,
        covered: CellSet,
        floor: [usize; 5],
    ) -> bool {
        if self.nodes >= NODE_BUDGET {
            return true;
        }
        self.nodes += 1;
        let uncovered = self.hits.minus(covered);
        if let Some(hit) = uncovered.iter().next() {
            let mut lengths: Vec<usize> = ships.clone();
            lengths.dedup();
            for len in lengths {
                for index in 0..self.segments[len].len() {
                    let segment = self.segments[len][index];
                    if !segment.cells.contains(hit) || !self.fits(&segment, blocked) {
                        continue;
                    }
                    let Some(at) = ships.iter().position(|&l| l == len) else {
                        continue;
                    };
                    ships.remove(at);
                    let done = self.place(
                        ships,
                        blocked.union(segment.halo),
                        covered.union(segment.cells),
                        floor,
                    );
                    ships.insert(at, len);
                    if done {
                        return true;
                    }
                }
            }
            return false;
        }
        let Some(&len) = ships.first() else {
            return true;
        };
        for index in floor[len]..self.segments[len].len() {
            let segment = self.segments[len][index];
            if !self.fits(&segment, blocked) {
                continue;
            }
            ships.remove(0);
            let mut next = floor;
            next[len] = index + 1;
            let done = self.place(ships, blocked.union(segment.halo), covered, next);
            ships.insert(0, len);
            if done {
                return true;
            }
        }
        false
    }
}

impl View {
    /// The search over this view: free cells and hits from the marks, and the lengths
    /// of the ships afloat, longest first.
    fn search(&self) -> (Search, Vec<usize>) {
        let mut free = CellSet::new();
        let mut hits = CellSet::new();
        for cell in Cell::all() {
            match self.mark(cell) {
                Mark::Unknown => free.insert(cell),
                Mark::Hit => {
                    free.insert(cell);
                    hits.insert(cell);
                }
                Mark::Miss | Mark::Sunk | Mark::Ring => {}
            }
        }
        let mut ships: Vec<usize> = Vec::new();
        for kind in ShipType::ALL {
            for _ in 0..self.afloat(kind) {
                ships.push(kind.len());
            }
        }
        ships.sort_unstable_by(|a, b| b.cmp(a));
        let search = Search {
            free,
            hits,
            segments: [
                Vec::new(),
                segments(1),
                segments(2),
                segments(3),
                segments(4),
            ],
            nodes: 0,
        };
        (search, ships)
    }

    /// Whether some placement of the ships afloat explains every mark of this view
    /// (see the module doc). Exact within `NODE_BUDGET` placements.
    #[must_use]
    pub fn explainable(&self) -> bool {
        let (mut search, mut ships) = self.search();
        search.place(&mut ships, CellSet::new(), CellSet::new(), [0; 5])
    }

    /// A wound (the hits of one ship afloat, as [`View::wounded`] groups them) that no
    /// single ship afloat can hold where it lies, if there is one: the view is then
    /// not explainable, and this names why.
    pub(super) fn boxed_wound(&self) -> Option<Vec<Cell>> {
        let (search, ships) = self.search();
        self.wounded().into_iter().find(|wound| {
            let cells: CellSet = wound.iter().copied().collect();
            !ships.iter().any(|&len| {
                search.segments[len].iter().any(|segment| {
                    cells.minus(segment.cells).is_empty() && search.fits(segment, CellSet::new())
                })
            })
        })
    }
}
