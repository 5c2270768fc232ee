//! Exact expected misses on tiny seas: the truth that hunters are measured against.
//!
//! On an `n`×`n` sea (`n` ≤ 8) with a small fleet under Battleship's rules (straight
//! ships that touch no other ship, not even by a corner; a sinking reveals the ring
//! around the ship, B3–B6), every fleet consistent with what the shooter has seen is
//! equally likely. From a view, a shot's outcomes (miss, hit, or sunk with its ring)
//! split the consistent fleets; the expected misses until every ship is sunk follow
//! by recursion over views, remembered by view. Three policies:
//!
//! - greedy: the open cell most likely to hold a ship (lowest cell index on ties);
//! - rollout: the open cell with the fewest expected misses when greedy plays on
//!   after it (one step of policy improvement over greedy), at every shot;
//! - optimal: the fewest expected misses over every policy;
//! - finish: greedy while no ship is wounded; while one is, the finisher's plan
//!   (`finish.rs`) over the wounded ship's placements weighed by the consistent
//!   fleets, a miss outside the ship's ring credited a given share of a miss.
//!
//! The state spaces grow fast: 4×4 to 6×6 seas with two or three ships are what this
//! is for.

use std::collections::HashMap;

use super::finish::{Placement, planned_shot, tally};

/// A tiny sea and its fleet.
#[derive(Clone, Debug)]
pub struct Sea {
    side: usize,
    /// Every legal fleet, as one cell mask per ship.
    fleets: Vec<Vec<u64>>,
}

/// What the shooter has seen: water (misses and revealed rings), hits, and the
/// cells of sunk ships.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
struct View {
    water: u64,
    hits: u64,
    sunk: u64,
}

/// A policy whose expected misses [`Sea::expected_misses`] computes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    Greedy,
    Rollout,
    Optimal,
    /// The finisher with this credit for a miss outside the wounded ship's ring.
    Finish(f64),
}

impl Sea {
    /// The sea of `side` × `side` cells (1 to 8) with ships of `lengths`; `None` when
    /// the size is out of range or no fleet fits.
    #[must_use]
    pub fn new(side: usize, lengths: &[usize]) -> Option<Sea> {
        if !(1..=8).contains(&side) || lengths.is_empty() {
            return None;
        }
        let mut lengths = lengths.to_vec();
        lengths.sort_unstable_by(|a, b| b.cmp(a));
        let mut sea = Sea {
            side,
            fleets: Vec::new(),
        };
        let mut chosen = Vec::new();
        sea.place(&lengths, 0, 0, &mut chosen);
        (!sea.fleets.is_empty()).then_some(sea)
    }

    /// How many legal fleets there are.
    #[must_use]
    pub fn fleets(&self) -> usize {
        self.fleets.len()
    }

    fn cell(&self, row: usize, column: usize) -> u64 {
        1 << (row * self.side + column)
    }

    /// Every placement of a ship of `len` cells.
    fn placements(&self, len: usize) -> Vec<u64> {
        let n = self.side;
        let mut out = Vec::new();
        let directions: &[(usize, usize)] = if len == 1 {
            &[(0, 1)]
        } else {
            &[(0, 1), (1, 0)]
        };
        for &(dr, dc) in directions {
            for row in 0..n {
                for column in 0..n {
                    if row + dr * (len - 1) >= n || column + dc * (len - 1) >= n {
                        continue;
                    }
                    let ship =
                        (0..len).fold(0, |m, k| m | self.cell(row + dr * k, column + dc * k));
                    out.push(ship);
                }
            }
        }
        out
    }

    /// The cells around `ship` (sides and corners), without the ship.
    fn ring(&self, ship: u64) -> u64 {
        let n = self.side;
        let mut ring = 0;
        for index in 0..n * n {
            if ship >> index & 1 == 0 {
                continue;
            }
            let (row, column) = (index / n, index % n);
            for r in row.saturating_sub(1)..=(row + 1).min(n - 1) {
                for c in column.saturating_sub(1)..=(column + 1).min(n - 1) {
                    ring |= self.cell(r, c);
                }
            }
        }
        ring & !ship
    }

    /// Lays ships `lengths[k..]` beside `chosen`; ships of equal length in placement
    /// order, so that each fleet is made once.
    fn place(&mut self, lengths: &[usize], k: usize, from: usize, chosen: &mut Vec<u64>) {
        let Some(&len) = lengths.get(k) else {
            self.fleets.push(chosen.clone());
            return;
        };
        let taken = chosen.iter().fold(0, |m, &s| m | s | self.ring(s));
        for (i, ship) in self.placements(len).into_iter().enumerate().skip(from) {
            if ship & taken != 0 {
                continue;
            }
            chosen.push(ship);
            let next_from = if lengths.get(k + 1) == Some(&len) {
                i + 1
            } else {
                0
            };
            self.place(lengths, k + 1, next_from, chosen);
            chosen.pop();
        }
    }

    fn all(&self) -> u64 {
        if self.side == 8 {
            u64::MAX
        } else {
            (1 << (self.side * self.side)) - 1
        }
    }

    /// The view after firing at `cell` when the fleet is `fleet`.
    fn after(&self, view: View, fleet: &[u64], cell: u64) -> View {
        let Some(&ship) = fleet.iter().find(|&&s| s & cell != 0) else {
            return View {
                water: view.water | cell,
                ..view
            };
        };
        let hits = view.hits | cell;
        if ship & !hits == 0 {
            View {
                water: view.water | self.ring(ship),
                hits,
                sunk: view.sunk | ship,
            }
        } else {
            View { hits, ..view }
        }
    }

    /// The expected misses of `policy` from the first shot on.
    #[must_use]
    pub fn expected_misses(&self, policy: Policy) -> f64 {
        let all: Vec<usize> = (0..self.fleets.len()).collect();
        let start = View {
            water: 0,
            hits: 0,
            sunk: 0,
        };
        let mut memo = Memo::default();
        match policy {
            Policy::Greedy => self.greedy(start, &all, &mut memo),
            Policy::Rollout => self.rollout(start, &all, &mut memo),
            Policy::Optimal => self.optimal(start, &all, &mut memo),
            Policy::Finish(credit) => self.finish(start, &all, credit, &mut memo.finish),
        }
    }

    /// The consistent fleets `fleets` split by the view each leaves after `cell`:
    /// (view, fleets, is it a miss).
    fn outcomes(&self, view: View, fleets: &[usize], cell: u64) -> Vec<(View, Vec<usize>, bool)> {
        let mut split: Vec<(View, Vec<usize>, bool)> = Vec::new();
        for &f in fleets {
            let fleet = &self.fleets[f];
            let next = self.after(view, fleet, cell);
            let miss = next.hits == view.hits;
            match split.iter_mut().find(|(v, _, _)| *v == next) {
                Some((_, group, _)) => group.push(f),
                None => split.push((next, vec![f], miss)),
            }
        }
        split
    }

    /// The expected misses of firing at `cell`, then playing `then` (a value from
    /// a view and its consistent fleets).
    fn value_of(
        &self,
        view: View,
        fleets: &[usize],
        cell: u64,
        memo: &mut Memo,
        then: fn(&Sea, View, &[usize], &mut Memo) -> f64,
    ) -> f64 {
        let total = fleets.len() as f64;
        self.outcomes(view, fleets, cell)
            .into_iter()
            .map(|(next, group, miss)| {
                let p = group.len() as f64 / total;
                p * (f64::from(u8::from(miss)) + then(self, next, &group, memo))
            })
            .sum()
    }

    fn open(&self, view: View) -> impl Iterator<Item = u64> + '_ {
        let open = self.all() & !(view.water | view.hits);
        (0..64).map(|i| 1u64 << i).filter(move |c| open & c != 0)
    }

    fn over(&self, view: View, fleets: &[usize]) -> bool {
        fleets
            .first()
            .is_none_or(|&f| self.fleets[f].iter().all(|&s| s & !view.sunk == 0))
    }

    /// Greedy's cell: the most fleets hold a ship there (lowest index on ties).
    fn greedy_cell(&self, view: View, fleets: &[usize]) -> Option<u64> {
        let mut best: Option<(usize, u64)> = None;
        for cell in self.open(view) {
            let count = fleets
                .iter()
                .filter(|&&f| self.fleets[f].iter().any(|&s| s & cell != 0))
                .count();
            if best.is_none_or(|(c, _)| count > c) {
                best = Some((count, cell));
            }
        }
        best.map(|(_, cell)| cell)
    }

    fn greedy(&self, view: View, fleets: &[usize], memo: &mut Memo) -> f64 {
        if self.over(view, fleets) {
            return 0.0;
        }
        if let Some(&v) = memo.greedy.get(&view) {
            return v;
        }
        let value = self.greedy_cell(view, fleets).map_or(0.0, |cell| {
            self.value_of(view, fleets, cell, memo, Sea::greedy)
        });
        memo.greedy.insert(view, value);
        value
    }

    fn rollout(&self, view: View, fleets: &[usize], memo: &mut Memo) -> f64 {
        if self.over(view, fleets) {
            return 0.0;
        }
        if let Some(&v) = memo.rollout.get(&view) {
            return v;
        }
        let mut best: Option<(f64, u64)> = None;
        for cell in self.open(view).collect::<Vec<_>>() {
            let value = self.value_of(view, fleets, cell, memo, Sea::greedy);
            if best.is_none_or(|(v, _)| value < v - 1e-12) {
                best = Some((value, cell));
            }
        }
        let value = best.map_or(0.0, |(_, cell)| {
            self.value_of(view, fleets, cell, memo, Sea::rollout)
        });
        memo.rollout.insert(view, value);
        value
    }

    fn optimal(&self, view: View, fleets: &[usize], memo: &mut Memo) -> f64 {
        if self.over(view, fleets) {
            return 0.0;
        }
        if let Some(&v) = memo.optimal.get(&view) {
            return v;
        }
        let cells: Vec<u64> = self.open(view).collect();
        let value = cells
            .into_iter()
            .map(|cell| self.value_of(view, fleets, cell, memo, Sea::optimal))
            .fold(f64::INFINITY, f64::min);
        let value = if value.is_finite() { value } else { 0.0 };
        memo.optimal.insert(view, value);
        value
    }
}

impl Sea {
    /// The finisher's cell at a view with a wounded ship: its placements weighed by
    /// the consistent fleets that hold them.
    fn finish_cell(&self, view: View, fleets: &[usize], credit: f64) -> Option<u64> {
        let wound = view.hits & !view.sunk;
        let mut placements: Vec<Placement> = Vec::new();
        for &f in fleets {
            let ship = *self.fleets[f].iter().find(|&&s| s & wound != 0)?;
            tally(&mut placements, u128::from(ship), || {
                u128::from(self.ring(ship))
            });
        }
        let cell = planned_shot(&placements, u128::from(view.hits), credit);
        u64::try_from(cell).ok().filter(|&c| c != 0)
    }

    fn finish(
        &self,
        view: View,
        fleets: &[usize],
        credit: f64,
        memo: &mut HashMap<View, f64>,
    ) -> f64 {
        if self.over(view, fleets) {
            return 0.0;
        }
        if let Some(&v) = memo.get(&view) {
            return v;
        }
        let cell = if view.hits & !view.sunk == 0 {
            self.greedy_cell(view, fleets)
        } else {
            self.finish_cell(view, fleets, credit)
                .or_else(|| self.greedy_cell(view, fleets))
        };
        let total = fleets.len() as f64;
        let value = cell.map_or(0.0, |cell| {
            self.outcomes(view, fleets, cell)
                .into_iter()
                .map(|(next, group, miss)| {
                    let p = group.len() as f64 / total;
                    p * (f64::from(u8::from(miss)) + self.finish(next, &group, credit, memo))
                })
                .sum()
        });
        memo.insert(view, value);
        value
    }
}

/// Values already computed, by view, per policy.
#[derive(Default)]
struct Memo {
    greedy: HashMap<View, f64>,
    rollout: HashMap<View, f64>,
    optimal: HashMap<View, f64>,
    finish: HashMap<View, f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fleets_are_counted_by_hand_on_tiny_seas() {
        // One boat on 3×3: 9 places. Two boats: 9 cells, pairs that do not touch:
        // corners pair with 5 cells each (4 × 5), edge middles with 3 (4 × 3), the
        // centre with none; each pair counted twice: (20 + 12) / 2 = 16.
        assert_eq!(Sea::new(3, &[1]).map(|s| s.fleets()), Some(9));
        assert_eq!(Sea::new(3, &[1, 1]).map(|s| s.fleets()), Some(16));
        // A ship of 3 on 3×3: 3 rows + 3 columns.
        assert_eq!(Sea::new(3, &[3]).map(|s| s.fleets()), Some(6));
        // Nothing fits: refused.
        assert!(Sea::new(2, &[3]).is_none());
        assert!(Sea::new(2, &[1, 1, 1]).is_none());
    }

    #[test]
    fn one_boat_on_a_line_of_cells() {
        // A boat on 2×2 (4 cells): every policy misses 0, 1, 2 or 3 times with
        // equal chance: 1.5 expected misses.
        let sea = Sea::new(2, &[1]).expect("fits");
        for policy in [Policy::Greedy, Policy::Rollout, Policy::Optimal] {
            assert!(
                (sea.expected_misses(policy) - 1.5).abs() < 1e-12,
                "{policy:?}"
            );
        }
    }

    #[test]
    fn the_policies_are_ordered_and_match_the_known_small_boards() {
        // 4×4 with a cruiser and a boat: greedy 4.333, its one-step rollout 4.146,
        // the optimum 4.083 (three decimals).
        let sea = Sea::new(4, &[3, 1]).expect("fits");
        let greedy = sea.expected_misses(Policy::Greedy);
        let rollout = sea.expected_misses(Policy::Rollout);
        let optimal = sea.expected_misses(Policy::Optimal);
        assert!(optimal <= rollout + 1e-12 && rollout <= greedy + 1e-12);
        for (value, expected) in [(greedy, 4.333), (rollout, 4.146), (optimal, 4.083)] {
            assert!((value - expected).abs() < 5e-4, "{value} vs {expected}");
        }
    }

    #[test]
    fn on_five_by_five_the_rollout_beats_greedy_by_a_quarter_of_a_miss_or_more() {
        // 5×5 with a cruiser and a boat: greedy 8.624, its rollout 8.289.
        // With a second boat: 8.503 and 8.285.
        for (lengths, expected_greedy, expected_rollout) in
            [(&[3, 1][..], 8.624, 8.289), (&[3, 1, 1][..], 8.503, 8.285)]
        {
            let sea = Sea::new(5, lengths).expect("fits");
            let greedy = sea.expected_misses(Policy::Greedy);
            let rollout = sea.expected_misses(Policy::Rollout);
            for (value, expected) in [(greedy, expected_greedy), (rollout, expected_rollout)] {
                assert!(
                    (value - expected).abs() < 5e-4,
                    "{lengths:?}: {value} vs {expected}"
                );
            }
        }
    }

    #[test]
    fn the_finisher_recovers_the_rollout_step_by_crediting_probes_outside_the_ring() {
        // Greedy, its rollout, and the finisher with a miss outside the wounded ship's
        // ring credited 0.75 or nothing (three decimals, computed by this module).
        for (side, lengths, greedy, rollout, credited, uncredited) in [
            (4, &[3, 1][..], 4.333, 4.146, 4.167, 4.333),
            (5, &[3, 1, 1][..], 8.503, 8.285, 8.282, 8.660),
            (6, &[3, 1][..], 14.051, 13.805, 13.832, 14.087),
        ] {
            let sea = Sea::new(side, lengths).expect("fits");
            let values = [
                sea.expected_misses(Policy::Greedy),
                sea.expected_misses(Policy::Rollout),
                sea.expected_misses(Policy::Finish(0.75)),
                sea.expected_misses(Policy::Finish(0.0)),
            ];
            for (value, expected) in values
                .into_iter()
                .zip([greedy, rollout, credited, uncredited])
            {
                assert!(
                    (value - expected).abs() < 5e-4,
                    "{side} {lengths:?}: {value} vs {expected}"
                );
            }
            // The credit is what pays: planned for the fewest misses to the sinking
            // alone, the finish is no better than greedy's.
            assert!(values[2] < values[0] - 0.15 && values[3] >= values[0] - 1e-9);
        }
    }

    use crate::ai::battleship::rollout::{Estimate, evaluate, pick};
    use crate::rng::Rng;

    const START: View = View {
        water: 0,
        hits: 0,
        sunk: 0,
    };

    /// Greedy played against fleet `f` from `view` (consistent fleets `group`): its
    /// misses, played out shot by shot (memoised by view and fleet; greedy's cell by
    /// view, as the view decides the consistent fleets).
    struct Player<'a> {
        sea: &'a Sea,
        cells: HashMap<View, u64>,
        misses: HashMap<(View, usize), u32>,
    }

    impl Player<'_> {
        fn new(sea: &Sea) -> Player<'_> {
            Player {
                sea,
                cells: HashMap::new(),
                misses: HashMap::new(),
            }
        }

        fn group(&self, view: View, group: &[usize], cell: u64, next: View) -> Vec<usize> {
            group
                .iter()
                .copied()
                .filter(|&g| self.sea.after(view, &self.sea.fleets[g], cell) == next)
                .collect()
        }

        fn greedy_cell(&mut self, view: View, group: &[usize]) -> u64 {
            let sea = self.sea;
            *self
                .cells
                .entry(view)
                .or_insert_with(|| sea.greedy_cell(view, group).expect("an open cell"))
        }

        fn greedy(&mut self, view: View, group: &[usize], f: usize) -> u32 {
            if self.sea.over(view, group) {
                return 0;
            }
            if let Some(&m) = self.misses.get(&(view, f)) {
                return m;
            }
            let cell = self.greedy_cell(view, group);
            let m = self.fire(view, group, f, cell);
            self.misses.insert((view, f), m);
            m
        }

        /// Fires `cell` at fleet `f`, then greedy: the misses.
        fn fire(&mut self, view: View, group: &[usize], f: usize, cell: u64) -> u32 {
            let next = self.sea.after(view, &self.sea.fleets[f], cell);
            let miss = u32::from(next.hits == view.hits);
            let rest = self.group(view, group, cell, next);
            miss + self.greedy(next, &rest, f)
        }

        /// The Monte Carlo rollout's estimates at `view` for `candidates` (greedy's
        /// cell first) on `n` fleets drawn uniformly from `group`.
        fn estimates(
            &mut self,
            view: View,
            group: &[usize],
            candidates: &[u64],
            n: usize,
            rng: &mut Rng,
        ) -> Vec<Estimate> {
            let draws: Vec<usize> = (0..n)
                .map(|_| group[rng.below(group.len() as u64) as usize])
                .collect();
            evaluate(
                candidates.len(),
                n,
                |c, j| f64::from(self.fire(view, group, draws[j], candidates[c])),
                || false,
            )
        }

        /// Greedy's cell, then every other open cell by the fleets holding a ship
        /// there (most first, lowest index among equals).
        fn candidates(&mut self, view: View, group: &[usize]) -> Vec<u64> {
            let first = self.greedy_cell(view, group);
            let count = |cell: u64| {
                group
                    .iter()
                    .filter(|&&f| self.sea.fleets[f].iter().any(|&s| s & cell != 0))
                    .count()
            };
            let mut rest: Vec<(usize, u64)> = self
                .sea
                .open(view)
                .filter(|&c| c != first)
                .map(|c| (count(c), c))
                .collect();
            rest.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            std::iter::once(first)
                .chain(rest.into_iter().map(|(_, c)| c))
                .collect()
        }
    }

    #[test]
    fn the_monte_carlo_rollout_agrees_with_the_exact_one_on_a_tiny_sea() {
        // 5×5 with a cruiser and a boat, the first shot: every candidate's Monte Carlo
        // difference with greedy's cell within four standard errors of the exact one.
        let sea = Sea::new(5, &[3, 1]).expect("fits");
        let all: Vec<usize> = (0..sea.fleets()).collect();
        let mut player = Player::new(&sea);
        let candidates: Vec<u64> = player.candidates(START, &all).into_iter().take(6).collect();
        let mut memo = Memo::default();
        let exact: Vec<f64> = candidates
            .iter()
            .map(|&cell| sea.value_of(START, &all, cell, &mut memo, Sea::greedy))
            .collect();
        assert!((exact[0] - 8.624).abs() < 5e-4, "{}", exact[0]);
        let n = 3000;
        let e = player.estimates(START, &all, &candidates, n, &mut Rng::new(3));
        for (c, (est, &value)) in e.iter().zip(&exact).enumerate() {
            let truth = value - exact[0];
            assert!(
                (est.difference - truth).abs() <= 4.0 * est.se.max(1e-9),
                "candidate {c}: {} ± {} vs {truth}",
                est.difference,
                est.se
            );
        }
        // Greedy's own value: misses sd under 3, so within 0.2 of the truth.
        assert!((e[0].mean - exact[0]).abs() < 0.2, "{}", e[0].mean);
        // Whatever the rollout picks, by two standard errors, is no worse than greedy.
        let chosen = pick(&e, 2.0);
        assert!(exact[chosen] <= exact[0] + 1e-9, "{exact:?} {chosen}");
        // And the best first shot is not greedy's centre.
        let best = (0..exact.len())
            .min_by(|&a, &b| exact[a].total_cmp(&exact[b]))
            .unwrap();
        assert_ne!(best, 0, "{exact:?}");
    }

    /// The exact expected misses of the Monte Carlo rollout policy: at every view,
    /// `n` fleets drawn from the consistent ones (generator seeded by the view), every
    /// open cell a candidate, the pick by `margin` standard errors.
    fn monte_carlo_policy(
        player: &mut Player<'_>,
        view: View,
        group: &[usize],
        n: usize,
        margin: f64,
        memo: &mut HashMap<View, f64>,
    ) -> f64 {
        let sea = player.sea;
        if sea.over(view, group) {
            return 0.0;
        }
        if let Some(&v) = memo.get(&view) {
            return v;
        }
        let candidates = player.candidates(view, group);
        let seed = view.water ^ view.hits.rotate_left(21) ^ view.sunk.rotate_left(42);
        let e = player.estimates(view, group, &candidates, n, &mut Rng::new(seed));
        let cell = candidates[pick(&e, margin)];
        let total = group.len() as f64;
        let value = sea
            .outcomes(view, group, cell)
            .into_iter()
            .map(|(next, rest, miss)| {
                let p = rest.len() as f64 / total;
                p * (f64::from(u8::from(miss))
                    + monte_carlo_policy(player, next, &rest, n, margin, memo))
            })
            .sum();
        memo.insert(view, value);
        value
    }

    #[test]
    fn the_monte_carlo_rollout_policy_plays_as_well_as_the_exact_rollout() {
        // 4×4 with a cruiser and a boat: greedy 4.333, the exact rollout 4.146. The
        // Monte Carlo rollout at every shot (its exact expectation over fleets, its
        // draws fixed per view) comes within 0.05 of the exact rollout.
        let sea = Sea::new(4, &[3, 1]).expect("fits");
        let all: Vec<usize> = (0..sea.fleets()).collect();
        let mut player = Player::new(&sea);
        let mut memo = HashMap::new();
        let value = monte_carlo_policy(&mut player, START, &all, 2000, 0.0, &mut memo);
        let exact = sea.expected_misses(Policy::Rollout);
        let greedy = sea.expected_misses(Policy::Greedy);
        assert!(value >= sea.expected_misses(Policy::Optimal) - 1e-9);
        assert!((value - exact).abs() < 0.05, "{value} vs {exact}");
        assert!(value < greedy - 0.1, "{value} vs greedy {greedy}");
    }
}
