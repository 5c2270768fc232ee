//! Zero-sum matrix games: the simultaneous choice of one turn, solved by regret
//! matching⁺ with full information (both players' regrets updated against the whole
//! matrix each round, strategies averaged with linearly growing weights), which
//! converges to a Nash equilibrium. Used at the search's root when the position is a
//! small tactical matrix, and by the exact endgame solver.
//!
//! A matrix is row-major, `rows × cols`, holding the row player's payoff; the row
//! player maximises and the column player minimises.

/// A solved (approximately) matrix game.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The row player's mixed strategy.
    pub rows: Vec<f64>,
    /// The column player's mixed strategy.
    pub cols: Vec<f64>,
    /// The row player's payoff of the pair.
    pub value: f64,
}

/// `weights` scaled to sum 1, or uniform when they sum to nothing.
fn normalised(weights: &[f64]) -> Vec<f64> {
    let total: f64 = weights.iter().filter(|w| **w > 0.0).sum();
    if total > 0.0 {
        weights.iter().map(|w| w.max(0.0) / total).collect()
    } else {
        vec![1.0 / weights.len().max(1) as f64; weights.len()]
    }
}

/// The row player's payoff of each row against the column mix `cols`.
fn row_payoffs(matrix: &[f64], rows: usize, cols: &[f64]) -> Vec<f64> {
    (0..rows)
        .map(|i| {
            cols.iter()
                .enumerate()
                .map(|(j, y)| y * matrix.get(i * cols.len() + j).copied().unwrap_or(0.0))
                .sum()
        })
        .collect()
}

/// The row player's payoff of each column against the row mix `rows`.
fn col_payoffs(matrix: &[f64], rows: &[f64], cols: usize) -> Vec<f64> {
    (0..cols)
        .map(|j| {
            rows.iter()
                .enumerate()
                .map(|(i, x)| x * matrix.get(i * cols + j).copied().unwrap_or(0.0))
                .sum()
        })
        .collect()
}

/// The row player's expected payoff of the pair of mixes.
#[must_use]
pub fn payoff(matrix: &[f64], rows: &[f64], cols: &[f64]) -> f64 {
    row_payoffs(matrix, rows.len(), cols)
        .iter()
        .zip(rows)
        .map(|(u, x)| u * x)
        .sum()
}

/// How much a best response gains against the row mix (for the column player) plus
/// against the column mix (for the row player): 0 exactly at an equilibrium.
#[must_use]
pub fn exploitability(matrix: &[f64], rows: &[f64], cols: &[f64]) -> f64 {
    let best_row = row_payoffs(matrix, rows.len(), cols)
        .into_iter()
        .fold(f64::NEG_INFINITY, f64::max);
    let best_col = col_payoffs(matrix, rows, cols.len())
        .into_iter()
        .fold(f64::INFINITY, f64::min);
    best_row - best_col
}

/// How much the column player gains by best-responding to the row mix: the row
/// player's exploitability, `value − min_j (xᵀA)_j`.
#[must_use]
pub fn row_exploitability(matrix: &[f64], rows: &[f64], cols: usize, value: f64) -> f64 {
    let worst = col_payoffs(matrix, rows, cols)
        .into_iter()
        .fold(f64::INFINITY, f64::min);
    value - worst
}

/// Solves the `rows × cols` game `matrix` with `iterations` rounds of regret
/// matching⁺. An empty or malformed matrix gives empty strategies and value 0.
#[must_use]
pub fn solve(matrix: &[f64], rows: usize, cols: usize, iterations: u32) -> Solution {
    solve_within(matrix, rows, cols, iterations, 0.0)
}

/// As [`solve`], stopping early once the average strategies' [`exploitability`]
/// (checked every 64 rounds) is at most `tolerance`.
#[must_use]
pub fn solve_within(
    matrix: &[f64],
    rows: usize,
    cols: usize,
    iterations: u32,
    tolerance: f64,
) -> Solution {
    if rows == 0 || cols == 0 || matrix.len() != rows * cols {
        return Solution {
            rows: Vec::new(),
            cols: Vec::new(),
            value: 0.0,
        };
    }
    let mut regret_rows = vec![0.0; rows];
    let mut regret_cols = vec![0.0; cols];
    let mut sum_rows = vec![0.0; rows];
    let mut sum_cols = vec![0.0; cols];
    for t in 1..=iterations.max(1) {
        let weight = f64::from(t);
        // Alternating updates: the row player first, the columns answer the new rows.
        let y = normalised(&regret_cols);
        let x = normalised(&regret_rows);
        let u = row_payoffs(matrix, rows, &y);
        let v: f64 = u.iter().zip(&x).map(|(a, b)| a * b).sum();
        for (r, ui) in regret_rows.iter_mut().zip(&u) {
            *r = (*r + ui - v).max(0.0);
        }
        for (s, xi) in sum_rows.iter_mut().zip(&x) {
            *s += weight * xi;
        }
        let x = normalised(&regret_rows);
        let w = col_payoffs(matrix, &x, cols);
        let v: f64 = w.iter().zip(&y).map(|(a, b)| a * b).sum();
        for (r, wj) in regret_cols.iter_mut().zip(&w) {
            *r = (*r + v - wj).max(0.0);
        }
        for (s, yj) in sum_cols.iter_mut().zip(&y) {
            *s += weight * yj;
        }
        if tolerance > 0.0
            && t % 64 == 0
            && exploitability(matrix, &normalised(&sum_rows), &normalised(&sum_cols)) <= tolerance
        {
            break;
        }
    }
    let rows_mix = normalised(&sum_rows);
    let cols_mix = normalised(&sum_cols);
    let value = payoff(matrix, &rows_mix, &cols_mix);
    Solution {
        rows: rows_mix,
        cols: cols_mix,
        value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_pennies_is_half_half() {
        let m = [1.0, -1.0, -1.0, 1.0];
        let s = solve(&m, 2, 2, 2000);
        assert!((s.rows[0] - 0.5).abs() < 0.01, "{s:?}");
        assert!((s.cols[0] - 0.5).abs() < 0.01, "{s:?}");
        assert!(s.value.abs() < 0.01);
        assert!(exploitability(&m, &s.rows, &s.cols) < 0.02);
    }

    #[test]
    fn a_saddle_point_is_pure() {
        // Row 1 dominates; column 0 is the column player's best answer to it.
        let m = [0.0, 1.0, 2.0, 3.0];
        let s = solve(&m, 2, 2, 500);
        assert!(s.rows[1] > 0.99 && s.cols[0] > 0.99, "{s:?}");
        assert!((s.value - 2.0).abs() < 0.02);
    }

    #[test]
    fn rock_paper_scissors_is_uniform() {
        let m = [0.0, -1.0, 1.0, 1.0, 0.0, -1.0, -1.0, 1.0, 0.0];
        let s = solve(&m, 3, 3, 3000);
        assert!(s.rows.iter().all(|p| (p - 1.0 / 3.0).abs() < 0.02), "{s:?}");
        assert!(exploitability(&m, &s.rows, &s.cols) < 0.02);
        assert!(solve(&[], 0, 0, 10).rows.is_empty());
    }
}
