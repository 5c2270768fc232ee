//! A Markov chain over the legal fleets consistent with a view, and cell
//! probabilities estimated from it.
//!
//! A state is a placement of every afloat ship, each a straight segment of its
//! length, such that no ship lies on water (a miss, a ring or a sunk ship), no two
//! ships touch even by a corner, every hit lies on a ship, and no ship is wholly hit
//! (it would have been reported sunk). The uniform distribution over such placements
//! (ships labelled) is the uniform distribution over consistent fleets, since every
//! fleet has the same number of labellings.
//!
//! Moves, each a Gibbs step that leaves the uniform distribution invariant:
//!
//! - single: one ship is lifted and laid again uniformly among all the segments where
//!   it fits given the others — not on water, not touching them, covering every hit
//!   the others leave uncovered, not wholly hit;
//! - pair: two ships of different lengths are lifted and laid again uniformly among
//!   all the pairs of segments that fit together (so the ship covering a wound may
//!   hand it to a ship of another length, or two ships split a line of hits).
//!
//! The chain starts from a placement found by a randomised backtracking search
//! (wounds covered first). Cell probabilities are Rao–Blackwellised: each single step
//! adds, for every segment where its ship could lie, the conditional probability of
//! that segment, which estimates the ship's marginal with far less noise than counting
//! where it happens to lie. Bitsets are `u128`, bit `row * 10 + col`.

use std::sync::OnceLock;

use crate::games::battleship::{Cell, Mark, ShipType, View};
use crate::rng::Rng;

/// The cells of the 10 × 10 board.
pub const BOARD: u128 = (1 << 100) - 1;

/// A straight run of cells where a ship could lie, and its halo (the run and every
/// cell touching it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub cells: u128,
    pub halo: u128,
}

fn build_segments(len: usize) -> Vec<Segment> {
    let mut out = Vec::new();
    let dirs: &[(usize, usize)] = if len == 1 {
        &[(1, 0)]
    } else {
        &[(1, 0), (0, 1)]
    };
    for row in 0..10usize {
        for col in 0..10usize {
            for &(dc, dr) in dirs {
                if col + dc * (len - 1) >= 10 || row + dr * (len - 1) >= 10 {
                    continue;
                }
                let mut cells = 0u128;
                let mut halo = 0u128;
                for i in 0..len {
                    let (r, c) = (row + dr * i, col + dc * i);
                    cells |= 1 << (r * 10 + c);
                    for nr in r.saturating_sub(1)..=(r + 1).min(9) {
                        for nc in c.saturating_sub(1)..=(c + 1).min(9) {
                            halo |= 1 << (nr * 10 + nc);
                        }
                    }
                }
                out.push(Segment { cells, halo });
            }
        }
    }
    out
}

/// Every segment of `len` cells (1–4; others have none), in a fixed order.
#[must_use]
pub fn segments(len: usize) -> &'static [Segment] {
    static ALL: OnceLock<[Vec<Segment>; 5]> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        [
            Vec::new(),
            build_segments(1),
            build_segments(2),
            build_segments(3),
            build_segments(4),
        ]
    });
    all.get(len).map_or(&[], Vec::as_slice)
}

/// What the chain must respect: water, hits, and the afloat ships' lengths (longest
/// first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub water: u128,
    pub hits: u128,
    pub lens: Vec<usize>,
}

impl Problem {
    /// `afloat[l - 1]` ships of length `l` on a 10 × 10 sea with the given water and
    /// hits.
    #[must_use]
    pub fn new(water: u128, hits: u128, afloat: [u8; 4]) -> Problem {
        let mut lens = Vec::new();
        for len in (1..=4usize).rev() {
            let n = afloat.get(len - 1).copied().unwrap_or(0);
            lens.extend(std::iter::repeat_n(len, usize::from(n)));
        }
        Problem {
            water: water & BOARD,
            hits: hits & BOARD & !water,
            lens,
        }
    }

    /// The problem posed by `view`.
    #[must_use]
    pub fn from_view(view: &View) -> Problem {
        let mut water = 0u128;
        let mut hits = 0u128;
        for cell in Cell::all() {
            match view.mark(cell) {
                Mark::Unknown => {}
                Mark::Hit => hits |= 1 << cell.index(),
                Mark::Miss | Mark::Ring | Mark::Sunk => water |= 1 << cell.index(),
            }
        }
        let mut afloat = [0u8; 4];
        for kind in ShipType::ALL {
            if let Some(slot) = afloat.get_mut(kind.len() - 1) {
                *slot = u8::try_from(view.afloat(kind)).unwrap_or(0);
            }
        }
        Problem::new(water, hits, afloat)
    }

    /// Whether `seg` may hold a ship given the water, the others' halo, the hits it
    /// must cover, and not being wholly hit.
    fn fits(&self, seg: &Segment, blocked: u128, need: u128) -> bool {
        seg.cells & blocked == 0 && seg.cells & need == need && seg.cells & !self.hits != 0
    }

    /// Whether a whole placement (one segment per ship) is consistent.
    #[must_use]
    pub fn consistent(&self, ships: &[Segment]) -> bool {
        if ships.len() != self.lens.len() {
            return false;
        }
        let mut cells = 0u128;
        for (i, s) in ships.iter().enumerate() {
            if s.cells & self.water != 0 || s.cells & !self.hits == 0 {
                return false;
            }
            let others = ships
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .fold(0u128, |a, (_, o)| a | o.cells);
            if s.halo & others != 0 {
                return false;
            }
            cells |= s.cells;
        }
        cells & self.hits == self.hits
    }
}

/// Nodes the starting search may visit before giving up.
pub const START_BUDGET: u32 = 200_000;

/// A placement of every afloat ship consistent with a [`Problem`], moved by Gibbs
/// steps (module documentation).
#[derive(Clone, Debug)]
pub struct Chain<'a> {
    problem: &'a Problem,
    ships: Vec<Segment>,
    /// Per ship length, per segment index, the Rao–Blackwellised weight gathered.
    weight: [Vec<f64>; 5],
    /// Ship steps whose weight was gathered.
    steps: u64,
}

impl<'a> Chain<'a> {
    /// A chain at a placement found by randomised backtracking, or `None` when none
    /// exists or the search runs out of budget.
    pub fn start(problem: &'a Problem, rng: &mut Rng) -> Option<Chain<'a>> {
        let mut remaining = problem.lens.clone();
        let mut placed = Vec::with_capacity(remaining.len());
        let mut nodes = 0u32;
        if !search(problem, &mut remaining, &mut placed, rng, &mut nodes) {
            return None;
        }
        let mut ships = Vec::with_capacity(placed.len());
        // Back in the problem's order of lengths.
        for &len in &problem.lens {
            let at = placed.iter().position(|&(l, _)| l == len)?;
            ships.push(placed.swap_remove(at).1);
        }
        Some(Chain::at(problem, ships))
    }

    /// A chain at a given placement (`ships[i]` of length `problem.lens[i]`), which
    /// must be consistent.
    #[must_use]
    pub fn at(problem: &'a Problem, ships: Vec<Segment>) -> Chain<'a> {
        Chain {
            problem,
            ships,
            weight: std::array::from_fn(|len| vec![0.0; segments(len).len()]),
            steps: 0,
        }
    }

    /// The ship segments, in the problem's order.
    #[must_use]
    pub fn ships(&self) -> &[Segment] {
        &self.ships
    }

    /// The ship cells of the current placement.
    #[must_use]
    pub fn cells(&self) -> u128 {
        self.ships.iter().fold(0, |a, s| a | s.cells)
    }

    /// The cells and halo of every ship but those in `skip`.
    fn others(&self, skip: &[usize]) -> (u128, u128) {
        let mut cells = 0u128;
        let mut halo = 0u128;
        for (i, s) in self.ships.iter().enumerate() {
            if !skip.contains(&i) {
                cells |= s.cells;
                halo |= s.halo;
            }
        }
        (cells, halo)
    }

    /// Re-lays ship `i` uniformly among the segments where it fits; when `gather`,
    /// adds its conditional distribution to the weights.
    pub fn step(&mut self, i: usize, rng: &mut Rng, gather: bool) {
        let Some(&len) = self.problem.lens.get(i) else {
            return;
        };
        let (cells, halo) = self.others(&[i]);
        let blocked = halo | self.problem.water;
        let need = self.problem.hits & !cells;
        let mut fit = [0u16; 200];
        let mut n = 0usize;
        for (k, seg) in segments(len).iter().enumerate() {
            if self.problem.fits(seg, blocked, need)
                && let Some(slot) = fit.get_mut(n)
            {
                *slot = k as u16;
                n += 1;
            }
        }
        if n == 0 {
            return; // cannot happen from a consistent state; stay put
        }
        if gather {
            let share = 1.0 / n as f64;
            if let Some(w) = self.weight.get_mut(len) {
                for &k in fit.iter().take(n) {
                    if let Some(x) = w.get_mut(usize::from(k)) {
                        *x += share;
                    }
                }
            }
            self.steps += 1;
        }
        let pick = fit.get(rng.below(n as u64) as usize).copied().unwrap_or(0);
        if let (Some(seg), Some(ship)) =
            (segments(len).get(usize::from(pick)), self.ships.get_mut(i))
        {
            *ship = *seg;
        }
    }

    /// Re-lays ships `i` and `j` (of different lengths) uniformly among the pairs of
    /// segments that fit together.
    pub fn pair(&mut self, i: usize, j: usize, rng: &mut Rng) {
        let (Some(&li), Some(&lj)) = (self.problem.lens.get(i), self.problem.lens.get(j)) else {
            return;
        };
        if i == j {
            return;
        }
        let (cells, halo) = self.others(&[i, j]);
        let blocked = halo | self.problem.water;
        let need = self.problem.hits & !cells;
        // For each segment of ship i, how many segments of ship j complete it.
        let mut counts = [(0u16, 0u32); 200];
        let mut n = 0usize;
        let mut total = 0u64;
        for (a, sa) in segments(li).iter().enumerate() {
            if sa.cells & blocked != 0 || sa.cells & !self.problem.hits == 0 {
                continue;
            }
            let blocked_j = blocked | sa.halo;
            let need_j = need & !sa.cells;
            let m = segments(lj)
                .iter()
                .filter(|sb| self.problem.fits(sb, blocked_j, need_j))
                .count() as u32;
            if m > 0
                && let Some(slot) = counts.get_mut(n)
            {
                *slot = (a as u16, m);
                n += 1;
                total += u64::from(m);
            }
        }
        if total == 0 {
            return;
        }
        let mut r = rng.below(total);
        let mut chosen = None;
        for &(a, m) in counts.iter().take(n) {
            if r < u64::from(m) {
                chosen = Some((a, r));
                break;
            }
            r -= u64::from(m);
        }
        let Some((a, r)) = chosen else { return };
        let Some(sa) = segments(li).get(usize::from(a)).copied() else {
            return;
        };
        let blocked_j = blocked | sa.halo;
        let need_j = need & !sa.cells;
        let sb = segments(lj)
            .iter()
            .filter(|sb| self.problem.fits(sb, blocked_j, need_j))
            .nth(r as usize)
            .copied();
        if let Some(sb) = sb {
            if let Some(x) = self.ships.get_mut(i) {
                *x = sa;
            }
            if let Some(x) = self.ships.get_mut(j) {
                *x = sb;
            }
        }
    }

    /// One sweep: a single step for every ship (in a random order), then, when there
    /// are ships of two lengths, one pair move — on a ship covering a hit when there
    /// is one.
    pub fn sweep(&mut self, rng: &mut Rng, gather: bool) {
        let n = self.ships.len();
        if n == 0 {
            return;
        }
        let offset = rng.below(n as u64) as usize;
        for k in 0..n {
            self.step((k + offset) % n, rng, gather);
        }
        let lens = &self.problem.lens;
        if lens.first() == lens.last() {
            return;
        }
        let hits = self.problem.hits;
        let i = if hits != 0 && rng.below(2) == 0 {
            let covering: Vec<usize> = (0..n)
                .filter(|&i| self.ships.get(i).is_some_and(|s| s.cells & hits != 0))
                .collect();
            rng.choose(&covering).copied().unwrap_or(0)
        } else {
            rng.below(n as u64) as usize
        };
        let li = lens.get(i).copied().unwrap_or(0);
        let others: Vec<usize> = (0..n)
            .filter(|&j| lens.get(j).is_some_and(|&l| l != li))
            .collect();
        if let Some(&j) = rng.choose(&others) {
            self.pair(i, j, rng);
        }
    }

    /// The estimated probability of a ship on each cell from the weights gathered so
    /// far (hits included, at probability one); `None` before any gathering.
    #[must_use]
    pub fn probabilities(&self) -> Option<[f64; 100]> {
        let by_length = self.probabilities_by_length()?;
        let mut p = [0.0; 100];
        for row in &by_length {
            for (slot, &x) in p.iter_mut().zip(row) {
                *slot += x;
            }
        }
        Some(p)
    }

    /// Per ship length (index `len - 1`), the estimated probability of a ship of that
    /// length on each cell; `None` before any gathering.
    #[must_use]
    pub fn probabilities_by_length(&self) -> Option<[[f64; 100]; 4]> {
        let ships = self.ships.len() as f64;
        if self.steps == 0 || ships == 0.0 {
            return None;
        }
        // Each sweep gathers every ship once: steps / ships sweeps.
        let sweeps = self.steps as f64 / ships;
        let mut p = [[0.0; 100]; 4];
        for (len, row) in (1..=4).zip(p.iter_mut()) {
            let Some(w) = self.weight.get(len) else {
                continue;
            };
            for (seg, &x) in segments(len).iter().zip(w) {
                if x == 0.0 {
                    continue;
                }
                let mut bits = seg.cells;
                while bits != 0 {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if let Some(slot) = row.get_mut(b) {
                        *slot += x / sweeps;
                    }
                }
            }
        }
        Some(p)
    }
}

/// Randomised backtracking: cover the lowest uncovered hit with some remaining ship,
/// then lay the rest, longest first. `placed` holds (length, segment).
fn search(
    problem: &Problem,
    remaining: &mut Vec<usize>,
    placed: &mut Vec<(usize, Segment)>,
    rng: &mut Rng,
    nodes: &mut u32,
) -> bool {
    if remaining.is_empty() {
        let cells = placed.iter().fold(0u128, |a, (_, s)| a | s.cells);
        return cells & problem.hits == problem.hits;
    }
    let (cells, halo) = placed
        .iter()
        .fold((0u128, 0u128), |(c, h), (_, s)| (c | s.cells, h | s.halo));
    let blocked = halo | problem.water;
    let uncovered = problem.hits & !cells;
    // The candidate (length, segment) moves at this node.
    let mut moves: Vec<(usize, Segment)> = Vec::new();
    if uncovered != 0 {
        let h = 1u128 << uncovered.trailing_zeros();
        let mut lens = remaining.clone();
        lens.dedup();
        for len in lens {
            for seg in segments(len) {
                if seg.cells & h != 0 && seg.cells & blocked == 0 && seg.cells & !problem.hits != 0
                {
                    moves.push((len, *seg));
                }
            }
        }
    } else {
        let len = remaining.first().copied().unwrap_or(1);
        for seg in segments(len) {
            if seg.cells & (blocked | problem.hits) == 0 {
                moves.push((len, *seg));
            }
        }
    }
    // Fisher–Yates.
    for k in (1..moves.len()).rev() {
        let r = rng.below(k as u64 + 1) as usize;
        moves.swap(k, r);
    }
    for (len, seg) in moves {
        *nodes += 1;
        if *nodes > START_BUDGET {
            return false;
        }
        let Some(at) = remaining.iter().position(|&l| l == len) else {
            continue;
        };
        remaining.remove(at);
        placed.push((len, seg));
        if search(problem, remaining, placed, rng, nodes) {
            return true;
        }
        placed.pop();
        remaining.insert(at, len);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::battleship::count::{Board, Tables};
    use std::collections::HashMap;

    /// Water everywhere but the `w` × `h` rectangle at the top left.
    fn outside(w: usize, h: usize) -> u128 {
        let mut inside = 0u128;
        for r in 0..h {
            for c in 0..w {
                inside |= 1 << (r * 10 + c);
            }
        }
        BOARD & !inside
    }

    /// Every consistent fleet, as cell sets (brute force).
    fn brute(problem: &Problem) -> Vec<u128> {
        fn go(p: &Problem, k: usize, ships: &mut Vec<Segment>, out: &mut Vec<u128>) {
            let Some(&len) = p.lens.get(k) else {
                if p.consistent(ships) {
                    out.push(ships.iter().fold(0, |a, s| a | s.cells));
                }
                return;
            };
            let prev = if k > 0 && p.lens[k - 1] == len {
                ships.last().map(|s| s.cells)
            } else {
                None
            };
            for seg in segments(len) {
                if seg.cells & p.water != 0 || prev.is_some_and(|c| seg.cells <= c) {
                    continue;
                }
                if ships.iter().any(|s| s.halo & seg.cells != 0) {
                    continue;
                }
                ships.push(*seg);
                go(p, k + 1, ships, out);
                ships.pop();
            }
        }
        let mut out = Vec::new();
        go(problem, 0, &mut Vec::new(), &mut out);
        out
    }

    fn exact(problem: &Problem, afloat: [u8; 4]) -> Tables {
        let mut board = Board::new(10, 10, afloat).unwrap();
        for i in 0..100 {
            if problem.water >> i & 1 == 1 {
                board.set_water(i);
            }
            if problem.hits >> i & 1 == 1 {
                board.set_hit(i);
            }
        }
        Tables::build(&board, usize::MAX, || false).unwrap()
    }

    /// Chi-square of the chain's visits over every consistent fleet, checked against
    /// the brute-force list and the exact count.
    fn uniform(problem: &Problem, afloat: [u8; 4], seed: u64) {
        let fleets = brute(problem);
        let tables = exact(problem, afloat);
        assert_eq!(tables.total(), fleets.len() as u128);
        assert!(fleets.len() > 5);
        let index: HashMap<u128, usize> = fleets.iter().enumerate().map(|(i, &f)| (f, i)).collect();
        let mut rng = Rng::new(seed);
        let mut chain = Chain::start(problem, &mut rng).unwrap();
        for _ in 0..200 {
            chain.sweep(&mut rng, false);
        }
        let mut seen = vec![0u32; fleets.len()];
        // Thin by a few sweeps so draws are nearly independent.
        let draws = 300 * fleets.len();
        for _ in 0..draws {
            for _ in 0..3 {
                chain.sweep(&mut rng, true);
            }
            assert!(problem.consistent(chain.ships()));
            seen[index[&chain.cells()]] += 1;
        }
        let (chi2, dof) = crate::ai::battleship::chi_square_uniform(&seen);
        assert!(
            chi2 < dof + 6.0 * (2.0 * dof).sqrt(),
            "chi2 {chi2} dof {dof}"
        );
        // The Rao–Blackwellised marginals against the exact ones.
        let p = chain.probabilities().unwrap();
        let total = tables.total() as f64;
        for (i, &n) in tables.occupied().iter().enumerate() {
            let q = n as f64 / total;
            assert!((p[i] - q).abs() < 0.02, "cell {i}: {} vs {q}", p[i]);
        }
        // And by ship length, each summing with the others to the cell's probability.
        let by_length = chain.probabilities_by_length().unwrap();
        for i in 0..100 {
            let sum: f64 = by_length.iter().map(|row| row[i]).sum();
            assert!((sum - p[i]).abs() < 1e-9, "cell {i}: {sum} vs {}", p[i]);
            for (len, row) in (1..=4).zip(&by_length) {
                let q = tables.occupied_by(len)[i] as f64 / total;
                assert!(
                    (row[i] - q).abs() < 0.02,
                    "cell {i} len {len}: {} vs {q}",
                    row[i]
                );
            }
        }
    }

    #[test]
    fn uniform_on_a_small_open_board() {
        let afloat = [2, 1, 1, 0];
        uniform(&Problem::new(outside(5, 4), 0, afloat), afloat, 1);
    }

    #[test]
    fn uniform_with_hits_that_two_lengths_may_cover() {
        // A 5 × 5 sea: hits at B2 and D2 (one cruiser, or two ships), a miss at C4.
        let afloat = [1, 1, 1, 0];
        let hits = 1 << 11 | 1 << 13;
        let water = outside(5, 5) | 1 << 32;
        uniform(&Problem::new(water, hits, afloat), afloat, 2);
    }

    #[test]
    fn uniform_with_a_wound_two_ships_may_hold() {
        // A lone hit at C3 that a destroyer or a cruiser may hold.
        let afloat = [1, 1, 1, 0];
        uniform(&Problem::new(outside(6, 4), 1 << 22, afloat), afloat, 3);
    }

    #[test]
    fn every_state_on_a_real_view_is_consistent() {
        use crate::ai::battleship::random_fleet;
        let fleet = random_fleet(&mut Rng::new(5));
        let mut view = View::new();
        let mut rng = Rng::new(9);
        // Fire at a fixed pattern until a few ships are hit.
        for cell in Cell::all().step_by(3).take(25) {
            if view.is_open(cell) {
                view.record_judged(&fleet, cell).unwrap();
            }
        }
        let problem = Problem::from_view(&view);
        let mut chain = Chain::start(&problem, &mut rng).unwrap();
        for _ in 0..300 {
            chain.sweep(&mut rng, true);
            assert!(problem.consistent(chain.ships()));
            assert_eq!(chain.cells() & problem.water, 0);
        }
        let p = chain.probabilities().unwrap();
        let total: f64 = p.iter().sum();
        let cells: usize = problem.lens.iter().sum();
        assert!((total - cells as f64).abs() < 1e-6, "{total}");
    }

    #[test]
    fn no_start_when_nothing_fits() {
        // A lone hit boxed in by water can only be a boat, which would be sunk.
        let water = BOARD & !(1 << 0 | 1 << 55 | 1 << 56);
        let problem = Problem::new(water, 1, [1, 1, 0, 0]);
        assert!(Chain::start(&problem, &mut Rng::new(1)).is_none());
    }
}
