//! Zero-sum matrix games solved exactly by linear programming (the simplex method with
//! Bland's rule, which cannot cycle), for the exact endgame solver: its matrices are
//! small (at most the empty cells squared) and its values must be exact, where
//! [`super::matrix`]'s regret matching only converges.
//!
//! The matrix is shifted to be positive (`B = A + c`, every entry ≥ 1); the column
//! player's program is then `max Σq` subject to `B q ≤ 1`, `q ≥ 0`, feasible at the
//! origin and bounded. At its optimum `z`, the game's value is `1/z − c`, the column
//! strategy is `q/z` and the row strategy is the program's dual (the slack columns'
//! reduced costs) over `z`.

use super::matrix::Solution;

/// Entries this close to zero count as zero in the pivoting.
const EPS: f64 = 1e-12;

/// Solves the `rows × cols` game `matrix` (row-major, the row player's payoff; rows
/// maximise) exactly, up to floating-point rounding. An empty or malformed matrix gives
/// empty strategies and value 0.
#[must_use]
pub fn solve(matrix: &[f64], rows: usize, cols: usize) -> Solution {
    if rows == 0 || cols == 0 || matrix.len() != rows * cols {
        return Solution {
            rows: Vec::new(),
            cols: Vec::new(),
            value: 0.0,
        };
    }
    let low = matrix.iter().copied().fold(f64::INFINITY, f64::min);
    let shift = 1.0 - low;
    // Tableau: one line per constraint (cols variables, rows slacks, right-hand side),
    // then the objective line holding reduced costs (−1 for every q at the start).
    let width = cols + rows + 1;
    let mut t = vec![0.0; (rows + 1) * width];
    for i in 0..rows {
        for j in 0..cols {
            t[i * width + j] = matrix[i * cols + j] + shift;
        }
        t[i * width + cols + i] = 1.0;
        t[i * width + width - 1] = 1.0;
    }
    for j in 0..cols {
        t[rows * width + j] = -1.0;
    }
    let mut basis: Vec<usize> = (cols..cols + rows).collect();
    // Bland: the lowest-indexed improving column enters.
    while let Some(enter) = (0..cols + rows).find(|&k| t[rows * width + k] < -EPS) {
        // Ratio test; ties to the lowest basic variable (Bland again).
        let mut leave: Option<(usize, f64)> = None;
        for i in 0..rows {
            let a = t[i * width + enter];
            if a > EPS {
                let ratio = t[i * width + width - 1] / a;
                let better = match leave {
                    None => true,
                    Some((l, r)) => ratio < r - EPS || (ratio <= r + EPS && basis[i] < basis[l]),
                };
                if better {
                    leave = Some((i, ratio));
                }
            }
        }
        // Bounded (every entry of B is positive), so a leaving line exists.
        let Some((pivot_row, _)) = leave else {
            break;
        };
        let p = t[pivot_row * width + enter];
        for k in 0..width {
            t[pivot_row * width + k] /= p;
        }
        for i in 0..=rows {
            if i == pivot_row {
                continue;
            }
            let f = t[i * width + enter];
            if f != 0.0 {
                for k in 0..width {
                    t[i * width + k] -= f * t[pivot_row * width + k];
                }
            }
        }
        basis[pivot_row] = enter;
    }
    let z = t[rows * width + width - 1];
    let mut q = vec![0.0; cols];
    for (i, &b) in basis.iter().enumerate() {
        if b < cols {
            q[b] = t[i * width + width - 1].max(0.0);
        }
    }
    let p: Vec<f64> = (0..rows)
        .map(|i| t[rows * width + cols + i].max(0.0))
        .collect();
    let norm = |v: Vec<f64>| {
        let s: f64 = v.iter().sum();
        v.into_iter().map(|x| x / s).collect::<Vec<f64>>()
    };
    Solution {
        rows: norm(p),
        cols: norm(q),
        value: 1.0 / z - shift,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::shell::matrix;
    use crate::rng::Rng;

    #[test]
    fn hand_worked_games() {
        // Matching pennies: value 0, both mix evenly.
        let s = solve(&[1.0, -1.0, -1.0, 1.0], 2, 2);
        assert!(
            s.value.abs() < 1e-12 && (s.rows[0] - 0.5).abs() < 1e-12,
            "{s:?}"
        );
        // [[3, -1], [-2, 1]]: x = (3/7, 4/7), y = (2/7, 5/7), value 1/7.
        let s = solve(&[3.0, -1.0, -2.0, 1.0], 2, 2);
        assert!((s.value - 1.0 / 7.0).abs() < 1e-12, "{s:?}");
        assert!((s.rows[0] - 3.0 / 7.0).abs() < 1e-12, "{s:?}");
        assert!((s.cols[0] - 2.0 / 7.0).abs() < 1e-12, "{s:?}");
        // A saddle point, and a single row.
        let s = solve(&[0.0, 1.0, 2.0, 3.0], 2, 2);
        assert!(
            (s.value - 2.0).abs() < 1e-12 && s.rows[1] > 1.0 - 1e-12,
            "{s:?}"
        );
        let s = solve(&[0.5, -0.25, 1.0], 1, 3);
        assert!((s.value + 0.25).abs() < 1e-12 && (s.cols[1] - 1.0).abs() < 1e-12);
        assert!(solve(&[], 0, 0).rows.is_empty());
    }

    #[test]
    fn random_games_have_unexploitable_solutions() {
        let mut rng = Rng::new(5);
        for _ in 0..200 {
            let rows = 1 + rng.below(7) as usize;
            let cols = 1 + rng.below(7) as usize;
            // Values from a small set, as the solver's are: ties and degeneracy abound.
            let m: Vec<f64> = (0..rows * cols)
                .map(|_| f64::from(rng.below(5) as u32) / 2.0 - 1.0)
                .collect();
            let s = solve(&m, rows, cols);
            assert!(
                matrix::exploitability(&m, &s.rows, &s.cols) < 1e-9,
                "{m:?} {s:?}"
            );
            assert!((matrix::payoff(&m, &s.rows, &s.cols) - s.value).abs() < 1e-9);
            assert!(s.rows.iter().chain(&s.cols).all(|p| *p >= 0.0));
        }
    }
}
