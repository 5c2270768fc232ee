//! Exact counting of the legal fleets consistent with what is known of a sea, and,
//! from the same tables, exact uniform sampling and exact cell probabilities.
//!
//! The board (`width` × `height`, at most 10 × 10, cell index `row * width + col`) is
//! scanned cell by cell in row order. Ships that may not touch even by a corner are
//! exactly the 8-connected groups of occupied cells, each a straight segment, so a
//! fleet is a set of occupied cells and the scan decides each cell: water or ship.
//! The state before a cell is a *frontier*: one slot per column holding the last
//! decided cell of that column (this row left of the cell, the row above from the cell
//! on), a *diagonal* bit for the cell above-left, and the ships still to place, by
//! length. A slot is one of
//!
//! - water;
//! - closed: a ship cell nothing may extend or touch from below (a horizontal ship
//!   of two or more cells, or a finished battleship);
//! - vertical run of 1–3 cells ending here, open downward (a lone cell is a run of 1:
//!   it may still turn into a boat, grow down, or start a horizontal ship);
//! - horizontal run of 2–3 cells ending here, in the row being scanned.
//!
//! Runs carry an *all-hit* flag: a ship whose every cell is a reported hit would have
//! been reported sunk, so such a ship is not consistent with a view and is refused
//! when it closes. A ship is counted (its length taken from the ships to place) when
//! it closes: water below a vertical run, water right of a horizontal run, the end of
//! a row or of the board, or a fourth cell. Only legal placements are ever built, so
//! the count is exact; unit tests check it against brute force on small boards.
//!
//! Tables: the forward pass keeps, for every cell, the reachable states and the
//! number of ways to reach each; the backward pass the number of ways to complete
//! each. Their products give the number of consistent fleets with a given cell
//! occupied, and the completion counts let a sampler walk forward drawing each cell
//! with the exact conditional probability. The same products, taken on the steps
//! where a ship closes (its length then known), count the fleets with a ship of each
//! length on each cell.

use crate::ai::key_hash::KeyMap;
use crate::games::battleship::{Cell, Fleet, Mark, Ship, ShipType, View};
use crate::rng::Rng;

/// The largest side this counter handles.
pub const MAX_SIDE: usize = 10;

const SLOT_BITS: u32 = 4;
const DIAG_BIT: u32 = 40;
const LEFT_SHIFT: u32 = 41;
const WATER: u64 = 0;
const CLOSED: u64 = 1;

/// One slot decoded.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Slot {
    Water,
    Closed,
    Vertical { len: u32, all_hit: bool },
    Horizontal { len: u32, all_hit: bool },
}

fn decode(code: u64) -> Slot {
    match code {
        0 => Slot::Water,
        2..=7 => Slot::Vertical {
            len: ((code - 2) / 2) as u32 + 1,
            all_hit: (code - 2) & 1 == 1,
        },
        8..=11 => Slot::Horizontal {
            len: ((code - 8) / 2) as u32 + 2,
            all_hit: (code - 8) & 1 == 1,
        },
        _ => Slot::Closed,
    }
}

fn vertical(len: u32, all_hit: bool) -> u64 {
    2 + 2 * u64::from(len - 1) + u64::from(all_hit)
}

fn horizontal(len: u32, all_hit: bool) -> u64 {
    8 + 2 * u64::from(len - 2) + u64::from(all_hit)
}

fn slot(key: u64, col: usize) -> u64 {
    (key >> (SLOT_BITS * col as u32)) & 15
}

fn with_slot(key: u64, col: usize, code: u64) -> u64 {
    let shift = SLOT_BITS * col as u32;
    (key & !(15 << shift)) | (code << shift)
}

/// Takes one ship of `len` from those still to place; `None` when none is left or
/// the ship is all hits (it would have been reported sunk).
fn take(key: u64, len: u32, all_hit: bool) -> Option<u64> {
    let shift = LEFT_SHIFT + 3 * (len - 1);
    if all_hit || (key >> shift) & 7 == 0 {
        None
    } else {
        Some(key - (1 << shift))
    }
}

type StateMap = KeyMap<u128>;

/// What is known of a sea: its size, the cells that hold no ship (misses, rings, sunk
/// ships — a sunk ship's ring is all spent, so no other ship can reach its cells),
/// the cells that hold a ship still afloat (hits), and the ships afloat by length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    width: usize,
    height: usize,
    water: u128,
    hits: u128,
    afloat: [u8; 4],
}

impl Board {
    /// An unknown `width` × `height` sea holding `afloat[l - 1]` ships of length `l`;
    /// `None` if a side is outside `1..=10` or a count above 7.
    #[must_use]
    pub fn new(width: usize, height: usize, afloat: [u8; 4]) -> Option<Board> {
        let sides = 1..=MAX_SIDE;
        if !sides.contains(&width) || !sides.contains(&height) || afloat.iter().any(|&n| n > 7) {
            return None;
        }
        Some(Board {
            width,
            height,
            water: 0,
            hits: 0,
            afloat,
        })
    }

    /// The standard empty 10 × 10 sea with the full fleet (B1, B2).
    #[must_use]
    pub fn standard() -> Board {
        Board {
            width: MAX_SIDE,
            height: MAX_SIDE,
            water: 0,
            hits: 0,
            afloat: [4, 3, 2, 1],
        }
    }

    /// The 10 × 10 sea as seen in `view`: afloat ships and the marks.
    #[must_use]
    pub fn from_view(view: &View) -> Board {
        let mut board = Board::standard();
        for kind in ShipType::ALL {
            let n = u8::try_from(view.afloat(kind)).unwrap_or(0);
            if let Some(slot) = board.afloat.get_mut(kind.len() - 1) {
                *slot = n;
            }
        }
        for cell in Cell::all() {
            match view.mark(cell) {
                Mark::Unknown => {}
                Mark::Hit => board.hits |= 1 << cell.index(),
                Mark::Miss | Mark::Ring | Mark::Sunk => board.water |= 1 << cell.index(),
            }
        }
        board
    }

    /// Declares cell `index` water.
    pub fn set_water(&mut self, index: usize) {
        if index < self.cells() {
            self.water |= 1 << index;
        }
    }

    /// Declares cell `index` a hit of a ship afloat.
    pub fn set_hit(&mut self, index: usize) {
        if index < self.cells() {
            self.hits |= 1 << index;
        }
    }

    /// The number of cells.
    #[must_use]
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// The width.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    fn start(&self) -> u64 {
        self.afloat.iter().enumerate().fold(0, |key, (i, &n)| {
            key | u64::from(n) << (LEFT_SHIFT + 3 * i as u32)
        })
    }

    /// The state after deciding cell `index` (water or ship) from state `key`, or
    /// `None` when that breaks a rule or the view.
    fn step(&self, key: u64, index: usize, ship: bool) -> Option<u64> {
        let bit = 1u128 << index;
        if ship && self.water & bit != 0 || !ship && self.hits & bit != 0 {
            return None;
        }
        let hit = self.hits & bit != 0;
        let col = index % self.width;
        let up = slot(key, col);
        let left = if col > 0 { slot(key, col - 1) } else { WATER };
        let mut k = key & !(1 << DIAG_BIT);
        if ship {
            let up_right = if col + 1 < self.width {
                slot(key, col + 1)
            } else {
                WATER
            };
            if key >> DIAG_BIT & 1 == 1 || up_right != WATER {
                return None;
            }
            let (len, all_hit, from_left) = match (decode(up), decode(left)) {
                (Slot::Water, Slot::Water) => (1, hit, false),
                (Slot::Vertical { len, all_hit }, Slot::Water) => (len + 1, all_hit && hit, false),
                (Slot::Water, Slot::Vertical { len: 1, all_hit }) => {
                    k = with_slot(k, col - 1, CLOSED);
                    (2, all_hit && hit, true)
                }
                (Slot::Water, Slot::Horizontal { len, all_hit }) => {
                    k = with_slot(k, col - 1, CLOSED);
                    (len + 1, all_hit && hit, true)
                }
                _ => return None,
            };
            let code = if len == 4 {
                k = take(k, 4, all_hit)?;
                CLOSED
            } else if from_left {
                horizontal(len, all_hit)
            } else {
                vertical(len, all_hit)
            };
            k = with_slot(k, col, code);
        } else {
            if let Slot::Vertical { len, all_hit } = decode(up) {
                k = take(k, len, all_hit)?;
            }
            if let Slot::Horizontal { len, all_hit } = decode(left) {
                k = take(k, len, all_hit)?;
                k = with_slot(k, col - 1, CLOSED);
            }
            k = with_slot(k, col, WATER);
        }
        if col + 1 == self.width {
            if let Slot::Horizontal { len, all_hit } = decode(slot(k, col)) {
                k = take(k, len, all_hit)?;
                k = with_slot(k, col, CLOSED);
            }
        } else if up != WATER {
            k |= 1 << DIAG_BIT;
        }
        Some(k)
    }

    /// The ships that deciding cell `index` (water or ship) from state `key` closes,
    /// as (length, cells): a vertical run above a water cell, a horizontal run left of
    /// one, a fourth cell, or a horizontal run at the end of a row. Call only for a
    /// step that [`Board::step`] allows.
    fn closures(&self, key: u64, index: usize, ship: bool) -> [Option<(u32, u128)>; 2] {
        let w = self.width;
        let col = index % w;
        let up = decode(slot(key, col));
        let left = if col > 0 {
            decode(slot(key, col - 1))
        } else {
            Slot::Water
        };
        if !ship {
            let above = match up {
                Slot::Vertical { len, .. } => index.checked_sub(w).and_then(|e| run(len, e, w)),
                _ => None,
            };
            let before = match left {
                Slot::Horizontal { len, .. } => index.checked_sub(1).and_then(|e| run(len, e, 1)),
                _ => None,
            };
            return [above, before];
        }
        let (len, vertical) = match (up, left) {
            (Slot::Vertical { len, .. }, Slot::Water) => (len + 1, true),
            (Slot::Water, Slot::Vertical { len: 1, .. }) => (2, false),
            (Slot::Water, Slot::Horizontal { len, .. }) => (len + 1, false),
            _ => (1, true),
        };
        let closed = if len == 4 {
            run(4, index, if vertical { w } else { 1 })
        } else if !vertical && col + 1 == w {
            run(len, index, 1)
        } else {
            None
        };
        [closed, None]
    }

    /// The vertical runs a final state closes at the bottom of the board, as in
    /// [`Board::closures`].
    fn final_closures(&self, key: u64) -> impl Iterator<Item = (u32, u128)> + '_ {
        let last_row = self.cells().saturating_sub(self.width);
        (0..self.width).filter_map(move |col| match decode(slot(key, col)) {
            Slot::Vertical { len, .. } => run(len, last_row + col, self.width),
            _ => None,
        })
    }

    /// Whether the state after the last cell is a whole fleet: the open vertical runs
    /// close and no ship is left to place.
    fn accepts(&self, key: u64) -> bool {
        let mut k = key;
        for col in 0..self.width {
            if let Slot::Vertical { len, all_hit } = decode(slot(k, col)) {
                match take(k, len, all_hit) {
                    Some(next) => k = next,
                    None => return false,
                }
            }
        }
        k >> LEFT_SHIFT == 0
    }
}

/// A ship of `len` cells ending at cell `end`, each cell `back` before the next, as
/// (length, cells); `None` if it would start before cell 0.
fn run(len: u32, end: usize, back: usize) -> Option<(u32, u128)> {
    let mut cells = 0u128;
    for k in 0..len as usize {
        cells |= 1u128 << end.checked_sub(k * back)?;
    }
    Some((len, cells))
}

/// The counting tables of one board: for each cell, the reachable states (sorted)
/// with the number of ways to complete them into a consistent fleet.
#[derive(Clone, Debug)]
pub struct Tables {
    board: Board,
    /// `completions[i]`: states before cell `i`, sorted by key, with their number of
    /// completions; `completions[cells]` is the final layer.
    completions: Vec<Vec<(u64, u128)>>,
    /// Per cell, the number of consistent fleets with a ship there.
    occupied: Vec<u128>,
    /// Per ship length (index `len - 1`), per cell, the number of consistent fleets
    /// with a ship of that length there.
    by_length: [Vec<u128>; 4],
}

/// Adds `n` fleets to every cell of a closed ship of `len` in `by_length`.
fn credit(by_length: &mut [Vec<u128>; 4], closed: Option<(u32, u128)>, n: u128) {
    let Some((len, mut cells)) = closed else {
        return;
    };
    if n == 0 {
        return;
    }
    let Some(row) = (len as usize)
        .checked_sub(1)
        .and_then(|i| by_length.get_mut(i))
    else {
        return;
    };
    while cells != 0 {
        let b = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        if let Some(x) = row.get_mut(b) {
            *x += n;
        }
    }
}

/// Looks `key` up in a sorted layer.
fn lookup(layer: &[(u64, u128)], key: u64) -> u128 {
    layer
        .binary_search_by_key(&key, |&(k, _)| k)
        .ok()
        .and_then(|i| layer.get(i))
        .map_or(0, |&(_, n)| n)
}

impl Tables {
    /// Builds the tables for `board`, or `None` when the search is stopped by
    /// `expired` (checked once per cell) or a layer outgrows `max_states`.
    pub fn build(
        board: &Board,
        max_states: usize,
        mut expired: impl FnMut() -> bool,
    ) -> Option<Tables> {
        let cells = board.cells();
        // Forward: reachable states and the ways to reach them.
        let mut forward: Vec<Vec<(u64, u128)>> = Vec::with_capacity(cells + 1);
        forward.push(vec![(board.start(), 1)]);
        for index in 0..cells {
            if expired() {
                return None;
            }
            let mut next = StateMap::default();
            for &(key, ways) in forward.last()? {
                for ship in [false, true] {
                    if let Some(k) = board.step(key, index, ship) {
                        *next.entry(k).or_insert(0) += ways;
                    }
                }
            }
            if next.len() > max_states {
                return None;
            }
            let mut layer: Vec<(u64, u128)> = next.into_iter().collect();
            layer.sort_unstable_by_key(|&(k, _)| k);
            forward.push(layer);
        }
        // Backward: completions, and the fleets through each (state, ship) step.
        let mut completions: Vec<Vec<(u64, u128)>> = vec![Vec::new(); cells + 1];
        let last: Vec<(u64, u128)> = forward
            .get(cells)?
            .iter()
            .filter(|&&(k, _)| board.accepts(k))
            .map(|&(k, _)| (k, 1))
            .collect();
        let mut by_length: [Vec<u128>; 4] = std::array::from_fn(|_| vec![0u128; cells]);
        for &(key, ways) in forward.get(cells)? {
            if board.accepts(key) {
                for closed in board.final_closures(key) {
                    credit(&mut by_length, Some(closed), ways);
                }
            }
        }
        *completions.get_mut(cells)? = last;
        let mut occupied = vec![0u128; cells];
        for index in (0..cells).rev() {
            if expired() {
                return None;
            }
            let after = completions.get(index + 1)?;
            let mut layer = Vec::with_capacity(forward.get(index)?.len());
            let mut through = 0u128;
            for &(key, ways) in forward.get(index)? {
                let water = board
                    .step(key, index, false)
                    .map_or(0, |k| lookup(after, k));
                let ship = board.step(key, index, true).map_or(0, |k| lookup(after, k));
                through += ways * ship;
                for (decision, n) in [(false, water), (true, ship)] {
                    if n > 0 {
                        for closed in board.closures(key, index, decision) {
                            credit(&mut by_length, closed, ways * n);
                        }
                    }
                }
                if water + ship > 0 {
                    layer.push((key, water + ship));
                }
            }
            *occupied.get_mut(index)? = through;
            *completions.get_mut(index)? = layer;
        }
        Some(Tables {
            board: board.clone(),
            completions,
            occupied,
            by_length,
        })
    }

    /// The number of consistent fleets.
    #[must_use]
    pub fn total(&self) -> u128 {
        self.completions
            .first()
            .map_or(0, |layer| lookup(layer, self.board.start()))
    }

    /// Per cell (index `row * width + col`), the number of consistent fleets with a
    /// ship there.
    #[must_use]
    pub fn occupied(&self) -> &[u128] {
        &self.occupied
    }

    /// Per cell, the number of consistent fleets with a ship of `len` (1–4) there;
    /// empty for other lengths. Summed over the lengths, [`Tables::occupied`].
    #[must_use]
    pub fn occupied_by(&self, len: usize) -> &[u128] {
        len.checked_sub(1)
            .and_then(|i| self.by_length.get(i))
            .map_or(&[], Vec::as_slice)
    }

    /// The board these tables count.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// One consistent fleet drawn uniformly, as the set of ship cells (bit `index`),
    /// or `None` when there is none.
    pub fn sample_cells(&self, rng: &mut Rng) -> Option<u128> {
        let mut key = self.board.start();
        let mut cells = 0u128;
        for index in 0..self.board.cells() {
            let after = self.completions.get(index + 1)?;
            let water = self
                .board
                .step(key, index, false)
                .map(|k| (k, lookup(after, k)));
            let ship = self
                .board
                .step(key, index, true)
                .map(|k| (k, lookup(after, k)));
            let w = water.map_or(0, |(_, n)| n);
            let s = ship.map_or(0, |(_, n)| n);
            if w + s == 0 {
                return None;
            }
            let pick_ship = below_u128(rng, w + s) >= w;
            key = if pick_ship {
                cells |= 1 << index;
                ship?.0
            } else {
                water?.0
            };
        }
        Some(cells)
    }

    /// One consistent 10 × 10 fleet drawn uniformly (standard boards only).
    pub fn sample_fleet(&self, rng: &mut Rng) -> Option<Fleet> {
        if self.board.width != MAX_SIDE || self.board.height != MAX_SIDE {
            return None;
        }
        fleet_from_cells(self.sample_cells(rng)?)
    }
}

/// A uniform integer in `0..n` for `n` up to 2^128 − 1 (rejection on 128 bits).
fn below_u128(rng: &mut Rng, n: u128) -> u128 {
    if n == 0 {
        return 0;
    }
    if let Ok(small) = u64::try_from(n) {
        return u128::from(rng.below(small));
    }
    let zone = u128::MAX - u128::MAX % n;
    loop {
        let x = (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64());
        if x < zone {
            return x % n;
        }
    }
}

/// The ships of a 10 × 10 set of ship cells (each side-connected group one ship),
/// as a fleet if it is a legal one.
#[must_use]
pub fn fleet_from_cells(cells: u128) -> Option<Fleet> {
    let mut ships = Vec::with_capacity(10);
    let mut seen = 0u128;
    for cell in Cell::all() {
        let bit = 1u128 << cell.index();
        if cells & bit == 0 || seen & bit != 0 {
            continue;
        }
        // `cell` is the top-left end of its ship: extend right or down.
        let run = |dc: i32, dr: i32| {
            let mut end = cell;
            while let Some(next) = end.offset(dc, dr) {
                if cells & (1 << next.index()) == 0 {
                    break;
                }
                end = next;
            }
            end
        };
        let right = run(1, 0);
        let end = if right == cell { run(0, 1) } else { right };
        let ship = Ship::new(cell, end).ok()?;
        for c in ship.cells() {
            seen |= 1 << c.index();
        }
        ships.push(ship);
    }
    Fleet::new(ships).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// All placements of one ship of `len` on a `w` × `h` board, as bit sets.
    fn placements(w: usize, h: usize, len: usize) -> Vec<u128> {
        let mut out = Vec::new();
        for r in 0..h {
            for c in 0..w {
                let mut dirs = vec![(1, 0)];
                if len > 1 {
                    dirs.push((0, 1));
                }
                for (dc, dr) in dirs {
                    if c + dc * (len - 1) < w && r + dr * (len - 1) < h {
                        let set =
                            (0..len).fold(0u128, |s, i| s | 1 << ((r + dr * i) * w + c + dc * i));
                        out.push(set);
                    }
                }
            }
        }
        out
    }

    fn halo(w: usize, h: usize, set: u128) -> u128 {
        let mut out = set;
        for i in 0..w * h {
            if set >> i & 1 == 1 {
                let (r, c) = ((i / w) as i64, (i % w) as i64);
                for dr in -1..=1 {
                    for dc in -1..=1 {
                        let (rr, cc) = (r + dr, c + dc);
                        if rr >= 0 && cc >= 0 && (rr as usize) < h && (cc as usize) < w {
                            out |= 1 << (rr as usize * w + cc as usize);
                        }
                    }
                }
            }
        }
        out
    }

    /// Brute force: every legal fleet on a small board, as ship-cell sets, with the
    /// ship sets (for the all-hit rule). Ships of equal length are placed in
    /// increasing order so each fleet is found once.
    fn brute(w: usize, h: usize, lens: &[usize]) -> Vec<Vec<u128>> {
        fn go(
            w: usize,
            h: usize,
            lens: &[usize],
            blocked: u128,
            last: Option<(usize, u128)>,
            ships: &mut Vec<u128>,
            out: &mut Vec<Vec<u128>>,
        ) {
            let Some((&len, rest)) = lens.split_first() else {
                out.push(ships.clone());
                return;
            };
            for p in placements(w, h, len) {
                if last.is_some_and(|(l, prev)| l == len && p <= prev) {
                    continue;
                }
                if p & blocked != 0 {
                    continue;
                }
                ships.push(p);
                go(
                    w,
                    h,
                    rest,
                    blocked | halo(w, h, p),
                    Some((len, p)),
                    ships,
                    out,
                );
                ships.pop();
            }
        }
        let mut out = Vec::new();
        go(w, h, lens, 0, None, &mut Vec::new(), &mut out);
        out
    }

    fn consistent(fleet: &[u128], water: u128, hits: u128) -> bool {
        let cells = fleet.iter().fold(0, |a, &s| a | s);
        cells & water == 0 && cells & hits == hits && fleet.iter().all(|&s| s & !hits != 0)
    }

    fn check(w: usize, h: usize, lens: &[usize], water: u128, hits: u128) {
        let mut afloat = [0u8; 4];
        for &l in lens {
            afloat[l - 1] += 1;
        }
        let mut board = Board::new(w, h, afloat).unwrap();
        board.water = water;
        board.hits = hits;
        let tables = Tables::build(&board, usize::MAX, || false).unwrap();
        let fleets: Vec<Vec<u128>> = brute(w, h, lens)
            .into_iter()
            .filter(|f| consistent(f, water, hits))
            .collect();
        assert_eq!(tables.total(), fleets.len() as u128, "{w}x{h} {lens:?}");
        for i in 0..w * h {
            let n = fleets
                .iter()
                .filter(|f| f.iter().any(|&s| s >> i & 1 == 1))
                .count();
            assert_eq!(tables.occupied()[i], n as u128, "cell {i}");
            for len in 1..=4 {
                let n = fleets
                    .iter()
                    .filter(|f| f.iter().any(|&s| s >> i & 1 == 1 && s.count_ones() == len))
                    .count();
                assert_eq!(
                    tables.occupied_by(len as usize)[i],
                    n as u128,
                    "cell {i} len {len}"
                );
            }
        }
    }

    #[test]
    fn counts_match_brute_force_on_small_boards() {
        check(5, 5, &[3, 2, 1, 1], 0, 0);
        check(5, 5, &[4, 2, 2, 1], 0, 0);
        check(6, 4, &[3, 2, 2, 1, 1], 0, 0);
        check(4, 6, &[4, 3, 1], 0, 0);
        check(5, 5, &[1, 1, 1, 1, 1], 0, 0);
        check(3, 3, &[], 0, 0);
    }

    #[test]
    fn counts_match_brute_force_with_water_and_hits() {
        // Misses at a few cells, hits at others (including a lone hit on the edge).
        check(5, 5, &[3, 2, 1, 1], 1 << 6 | 1 << 12 | 1 << 20, 1 << 2);
        check(5, 5, &[3, 2, 2, 1], 1 << 7, 1 << 11 | 1 << 16);
        check(6, 5, &[4, 2, 1, 1], 1 << 14 | 1 << 15, 1 << 0 | 1 << 29);
        // A hit boxed in by water can only be a boat, which would be sunk: nothing.
        check(4, 4, &[2, 1], 1 << 1 | 1 << 4, 1 << 0);
    }

    /// The full 10 × 10 count: about 5 × 10^7 states, a minute or more; run with
    /// `cargo test -- --ignored`.
    #[test]
    #[ignore = "slow: builds the full 10 x 10 tables"]
    fn standard_board_has_the_known_number_of_fleets() {
        let tables = Tables::build(&Board::standard(), usize::MAX, || false).unwrap();
        assert_eq!(tables.total(), 1_855_545_978_831_780);
        // Each fleet has 20 ship cells.
        let cells: u128 = tables.occupied().iter().sum();
        assert_eq!(cells, 20 * tables.total());
    }

    /// Side-connected groups of `cells` on a 10 × 10 board: each straight, and no two
    /// touching by a corner; returns the lengths, sorted.
    fn ship_lengths(cells: u128) -> Option<Vec<usize>> {
        let mut lens = Vec::new();
        let mut seen = 0u128;
        for cell in Cell::all() {
            let bit = 1u128 << cell.index();
            if cells & bit == 0 || seen & bit != 0 {
                continue;
            }
            let mut group = vec![cell];
            let mut stack = vec![cell];
            seen |= bit;
            while let Some(c) = stack.pop() {
                for n in c.neighbours() {
                    let b = 1u128 << n.index();
                    if cells & b != 0 && seen & b == 0 {
                        seen |= b;
                        group.push(n);
                        stack.push(n);
                    }
                }
            }
            let rows: std::collections::HashSet<i32> = group.iter().map(|c| c.row()).collect();
            let cols: std::collections::HashSet<i32> = group.iter().map(|c| c.col()).collect();
            if rows.len() > 1 && cols.len() > 1 {
                return None;
            }
            lens.push(group.len());
        }
        lens.sort_unstable();
        Some(lens)
    }

    #[test]
    fn samples_on_a_ten_by_ten_view_are_legal_and_consistent() {
        // Rows 1–4 missed, a hit at E7: four boats and three destroyers afloat.
        let mut board = Board::new(10, 10, [4, 3, 0, 0]).unwrap();
        for i in 0..40 {
            board.set_water(i);
        }
        board.set_hit(64);
        let tables = Tables::build(&board, usize::MAX, || false).unwrap();
        assert!(tables.total() > 0);
        let mut rng = Rng::new(3);
        for _ in 0..200 {
            let cells = tables.sample_cells(&mut rng).unwrap();
            assert_eq!(ship_lengths(cells), Some(vec![1, 1, 1, 1, 2, 2, 2]));
            assert_eq!(cells & ((1 << 40) - 1), 0);
            assert_ne!(cells & 1 << 64, 0);
            // The hit belongs to a destroyer (a boat there would be sunk).
            assert!([54, 63, 65, 74].iter().any(|&n| cells >> n & 1 == 1));
        }
    }

    #[test]
    fn samples_are_uniform_chi_square() {
        let lens = [2, 1, 1];
        let (w, h) = (4, 4);
        let fleets = brute(w, h, &lens);
        let board = Board::new(w, h, [2, 1, 0, 0]).unwrap();
        let tables = Tables::build(&board, usize::MAX, || false).unwrap();
        assert_eq!(tables.total(), fleets.len() as u128);
        let index: HashMap<u128, usize> = fleets
            .iter()
            .enumerate()
            .map(|(i, f)| (f.iter().fold(0, |a, &s| a | s), i))
            .collect();
        let mut seen = vec![0u32; fleets.len()];
        let mut rng = Rng::new(11);
        let draws = 200 * fleets.len();
        for _ in 0..draws {
            let cells = tables.sample_cells(&mut rng).unwrap();
            seen[index[&cells]] += 1;
        }
        // Degrees of freedom k − 1; mean k − 1, sd sqrt(2(k − 1)); allow 5 sd.
        let (chi2, dof) = crate::ai::battleship::chi_square_uniform(&seen);
        assert!(
            chi2 < dof + 5.0 * (2.0 * dof).sqrt(),
            "chi2 {chi2} dof {dof}"
        );
    }
}
