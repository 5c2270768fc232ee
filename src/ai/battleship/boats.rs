//! The last boats: the state of a hunt once every longer ship is sunk and no ship is
//! wounded. Each open cell may then hold a boat (a cell beside a sunk ship is spent,
//! its ring revealed), and the only rule left is that no two boats touch (B3), so the
//! consistent fleets are the sets of `k` open cells no two of which are neighbours,
//! all equally likely for a uniformly placed fleet.
//!
//! [`LastBoats`] counts those sets exactly and gives the exact expected number of
//! misses of the greedy hunter from such a state (it fires at the cell in most sets;
//! a hit sinks a boat and reveals its ring). The bench uses it as a control variate:
//! a game's misses up to this state plus the expected misses from it have the same
//! mean as the misses played out, with less spread, so two hunters can be compared on
//! fewer fleets. Measured on real games (docs/battleship-hunter.md), greedy is also
//! optimal from these states, so nothing here changes the hunter's shots.

use crate::ai::key_hash::MixMap;
use crate::games::battleship::{Cell, ShipType, View};

/// A set of cells as bits (bit `index`).
pub type Cells = u128;

/// The board's cells.
pub(crate) const BOARD: Cells = (1u128 << 100) - 1;

/// The cells of the first column.
pub(crate) const LEFT: Cells = {
    let mut m = 0;
    let mut row = 0;
    while row < 10 {
        m |= 1u128 << (row * 10);
        row += 1;
    }
    m
};

/// The cells as a set.
pub(crate) fn bits(cells: impl Iterator<Item = Cell>) -> Cells {
    cells.fold(0, |acc, c| acc | 1u128 << c.index())
}

/// The cells beside (not diagonally) any cell of `m`.
#[inline(always)]
pub(crate) fn spread(m: Cells) -> Cells {
    ((m << 1) & !LEFT | (m >> 1) & !(LEFT << 9) | m << 10 | m >> 10) & BOARD
}

/// The memo: the standard hasher's cost dominated the rollouts that end at the last
/// boats, so it uses the engine's multiply-rotate hasher.
type Memo = MixMap<(Cells, u8), f64>;

/// Counts and greedy values of last-boats states, memoised.
#[derive(Debug)]
pub struct LastBoats {
    /// Per cell: the cell and its eight neighbours.
    around: [Cells; 100],
    counts: Memo,
    values: Memo,
}

impl Default for LastBoats {
    fn default() -> Self {
        Self::new()
    }
}

impl LastBoats {
    #[must_use]
    pub fn new() -> LastBoats {
        let mut around = [0; 100];
        for cell in Cell::all() {
            let bits = cell
                .neighbours()
                .fold(1u128 << cell.index(), |acc, n| acc | 1u128 << n.index());
            if let Some(slot) = around.get_mut(cell.index()) {
                *slot = bits;
            }
        }
        LastBoats {
            around,
            counts: Memo::default(),
            values: Memo::default(),
        }
    }

    /// The number of states memoised.
    #[must_use]
    pub fn len(&self) -> usize {
        self.counts.len() + self.values.len()
    }

    /// Whether nothing is memoised.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn around(&self, index: usize) -> Cells {
        self.around.get(index).copied().unwrap_or(0)
    }

    /// The number of ways to lay `boats` boats on the cells `open`, no two touching.
    pub fn placements(&mut self, open: Cells, boats: u8) -> f64 {
        match boats {
            0 => return 1.0,
            1 => return f64::from(open.count_ones()),
            _ if open == 0 => return 0.0,
            // Two boats: every pair of open cells but the touching ones.
            2 => {
                let n = open.count_ones();
                let mut touching = 0;
                let mut rest = open;
                while rest != 0 {
                    let cell = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    touching += (self.around(cell) & open).count_ones().saturating_sub(1);
                }
                return f64::from(n * n.saturating_sub(1) / 2 - touching / 2);
            }
            _ => {}
        }
        if let Some(&n) = self.counts.get(&(open, boats)) {
            return n;
        }
        // The lowest open cell is water, or a boat that spends its neighbours.
        let first = open.trailing_zeros() as usize;
        let n = self.placements(open & !(1u128 << first), boats)
            + self.placements(open & !self.around(first), boats - 1);
        self.counts.insert((open, boats), n);
        n
    }

    /// The greedy shot: the open cell in most placements (the lowest index among
    /// equals), with its probability of a hit; `None` when no placement exists.
    pub fn greedy_shot(&mut self, open: Cells, boats: u8) -> Option<(usize, f64)> {
        let total = self.placements(open, boats);
        if total == 0.0 || boats == 0 {
            return None;
        }
        let mut best: Option<(usize, f64)> = None;
        let mut rest = open;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let p = self.placements(open & !self.around(cell), boats - 1) / total;
            if best.is_none_or(|(_, q)| p > q + 1e-12) {
                best = Some((cell, p));
            }
        }
        best
    }

    /// The exact expected number of misses the greedy hunter fires before the last of
    /// `boats` boats on `open` sinks (0 when no placement exists).
    pub fn greedy_misses(&mut self, open: Cells, boats: u8) -> f64 {
        match boats {
            0 => return 0.0,
            // One boat, equally likely on every open cell: it is found, on average,
            // half-way through them.
            1 => return f64::from(open.count_ones().saturating_sub(1)) / 2.0,
            _ => {}
        }
        if let Some(&v) = self.values.get(&(open, boats)) {
            return v;
        }
        let Some((cell, p)) = self.greedy_shot(open, boats) else {
            return 0.0;
        };
        let miss = if p < 1.0 {
            (1.0 - p) * (1.0 + self.greedy_misses(open & !(1u128 << cell), boats))
        } else {
            0.0
        };
        let hit = if p > 0.0 {
            p * self.greedy_misses(open & !self.around(cell), boats - 1)
        } else {
            0.0
        };
        let v = miss + hit;
        self.values.insert((open, boats), v);
        v
    }
}

/// The last-boats state of `view`: its open cells and the boats afloat, or `None`
/// while a longer ship is afloat or a ship is wounded.
#[must_use]
pub fn last_boats(view: &View) -> Option<(Cells, u8)> {
    let longer = ShipType::ALL
        .into_iter()
        .filter(|kind| kind.len() > 1)
        .any(|kind| view.afloat(kind) > 0);
    if longer || !view.wounded().is_empty() {
        return None;
    }
    let open = view
        .open_cells()
        .fold(0u128, |acc, cell| acc | 1u128 << cell.index());
    let boats = ShipType::ALL
        .into_iter()
        .filter(|kind| kind.len() == 1)
        .map(|kind| view.afloat(kind))
        .sum::<usize>();
    Some((open, u8::try_from(boats).unwrap_or(u8::MAX)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::battleship::random_fleet;
    use crate::games::battleship::ShotResult;
    use crate::rng::Rng;

    fn bits(cells: &[&str]) -> Cells {
        cells
            .iter()
            .map(|c| 1u128 << Cell::parse(c).unwrap().index())
            .fold(0, |a, b| a | b)
    }

    /// Brute force: every set of `k` cells of `open`, no two touching.
    fn brute_sets(open: Cells, k: usize) -> Vec<Cells> {
        let cells: Vec<usize> = (0..100).filter(|&i| open >> i & 1 == 1).collect();
        let mut out = Vec::new();
        let touching = |a: usize, b: usize| {
            let (ra, ca, rb, cb) = (a / 10, a % 10, b / 10, b % 10);
            ra.abs_diff(rb) <= 1 && ca.abs_diff(cb) <= 1
        };
        fn go(
            cells: &[usize],
            from: usize,
            k: usize,
            chosen: &mut Vec<usize>,
            out: &mut Vec<Cells>,
            touching: &dyn Fn(usize, usize) -> bool,
        ) {
            if chosen.len() == k {
                out.push(chosen.iter().fold(0u128, |a, &c| a | 1u128 << c));
                return;
            }
            for i in from..cells.len() {
                let c = cells[i];
                if chosen.iter().all(|&d| !touching(c, d)) {
                    chosen.push(c);
                    go(cells, i + 1, k, chosen, out, touching);
                    chosen.pop();
                }
            }
        }
        go(&cells, 0, k, &mut Vec::new(), &mut out, &touching);
        out
    }

    /// Plays the greedy shot sequence against one hidden set of boats; its misses.
    fn play_greedy(lb: &mut LastBoats, mut open: Cells, mut boats: u8, hidden: Cells) -> u32 {
        let mut misses = 0;
        while boats > 0 {
            let (cell, _) = lb.greedy_shot(open, boats).unwrap();
            if hidden >> cell & 1 == 1 {
                open &= !lb.around(cell);
                boats -= 1;
            } else {
                open &= !(1u128 << cell);
                misses += 1;
            }
        }
        misses
    }

    /// Each cell open with probability `percent` %.
    fn random_open(rng: &mut Rng, percent: u64) -> Cells {
        (0..100)
            .filter(|_| rng.below(100) < percent)
            .fold(0, |a, i| a | 1u128 << i)
    }

    #[test]
    fn counts_agree_with_brute_force() {
        let mut rng = Rng::new(5);
        let mut lb = LastBoats::new();
        for _ in 0..40 {
            let open = random_open(&mut rng, 30);
            for k in 0..=4u8 {
                let brute = brute_sets(open, usize::from(k)).len() as f64;
                assert_eq!(lb.placements(open, k), brute, "k {k}");
            }
        }
    }

    #[test]
    fn greedy_misses_is_the_mean_over_every_hidden_placement() {
        // The exact value equals greedy played against each placement in turn.
        let mut rng = Rng::new(9);
        let mut lb = LastBoats::new();
        for _ in 0..15 {
            let open = random_open(&mut rng, 18);
            for k in 1..=3u8 {
                let sets = brute_sets(open, usize::from(k));
                if sets.is_empty() {
                    assert_eq!(lb.greedy_misses(open, k), 0.0);
                    continue;
                }
                let total: u32 = sets.iter().map(|&h| play_greedy(&mut lb, open, k, h)).sum();
                let mean = f64::from(total) / sets.len() as f64;
                let exact = lb.greedy_misses(open, k);
                assert!((mean - exact).abs() < 1e-9, "k {k}: {mean} vs {exact}");
            }
        }
    }

    #[test]
    fn hand_worked_values() {
        let mut lb = LastBoats::new();
        // One boat on 7 cells: 3 misses on average (B3 plays no part).
        assert_eq!(
            lb.greedy_misses(bits(&["A1", "C1", "E1", "G1", "I1", "A3", "C3"]), 1),
            3.0
        );
        // Two boats on a row of three touching cells A1 B1 C1: only {A1, C1} (B3), so
        // greedy fires at A1 (probability 1) and then C1: no miss.
        let row = bits(&["A1", "B1", "C1"]);
        assert_eq!(lb.placements(row, 2), 1.0);
        assert_eq!(lb.greedy_misses(row, 2), 0.0);
        // Two boats on A1 B1 C1 E1: {A1,C1} {A1,E1} {B1,E1} {C1,E1}; E1 is in three of
        // the four, the greedy shot.
        let four = bits(&["A1", "B1", "C1", "E1"]);
        assert_eq!(lb.placements(four, 2), 4.0);
        assert_eq!(lb.greedy_shot(four, 2).map(|(c, _)| c), Some(4));
        // Then a hit (3/4) leaves A1 B1 C1 for one boat: 1 miss on average; a miss
        // (1/4) is one miss, after which {A1, C1} is certain. Expected 3/4 + 1/4 = 1.
        assert!((lb.greedy_misses(four, 2) - 1.0).abs() < 1e-12);
        // No placement: nothing to expect.
        assert_eq!(lb.greedy_misses(bits(&["A1", "B1"]), 2), 0.0);
    }

    #[test]
    fn last_boats_appear_only_with_no_longer_ship_and_no_wound() {
        let fleet = random_fleet(&mut Rng::new(3));
        let mut view = View::new();
        assert_eq!(last_boats(&view), None);
        let longer: Vec<_> = fleet
            .ships()
            .iter()
            .filter(|s| s.len() > 1)
            .copied()
            .collect();
        for (i, ship) in longer.iter().enumerate() {
            for (j, cell) in ship.cells().enumerate() {
                let result = fleet.judge(&view, cell);
                view.record(cell, result).unwrap();
                let last_cell = i + 1 == longer.len() && j + 1 == ship.len();
                assert_eq!(last_boats(&view).is_some(), last_cell, "{cell}");
            }
        }
        let (open, boats) = last_boats(&view).unwrap();
        assert_eq!(boats, 4);
        assert_eq!(open.count_ones() as usize, view.open_cells().count());
        // Every boat lies on an open cell of the state.
        for ship in fleet.ships().iter().filter(|s| s.len() == 1) {
            assert_eq!(open >> ship.from().index() & 1, 1);
        }
        let boat = fleet.ships().iter().find(|s| s.len() == 1).unwrap().from();
        let result = fleet.judge(&view, boat);
        assert_eq!(result, ShotResult::Sunk(ShipType::Boat));
        view.record(boat, result).unwrap();
        assert_eq!(last_boats(&view).map(|(_, k)| k), Some(3));
    }
}
