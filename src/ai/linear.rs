//! Dense linear systems for the trainers' fits (normal equations and Newton steps of
//! a few dozen unknowns).

/// Solves `a · x = b` by Gaussian elimination with partial pivoting; `None` when `a`
/// is singular (a pivot below 1e-12 in magnitude).
#[must_use]
pub fn solve<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> Option<[f64; N]> {
    for col in 0..N {
        let pivot = (col..N).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (upper, lower) = a.split_at_mut(col + 1);
        let (b_upper, b_lower) = b.split_at_mut(col + 1);
        let lead = &upper[col];
        for (row, rhs) in lower.iter_mut().zip(b_lower) {
            let factor = row[col] / lead[col];
            for (x, y) in row[col..].iter_mut().zip(&lead[col..]) {
                *x -= factor * y;
            }
            *rhs -= factor * b_upper[col];
        }
    }
    let mut x = [0.0; N];
    for row in (0..N).rev() {
        let rest: f64 = (row + 1..N).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_system_that_needs_a_row_swap_is_solved() {
        // The first pivot is zero: only partial pivoting solves it.
        let a = [[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]];
        let x = [1.0, -2.0, 4.0];
        let b = std::array::from_fn(|i| (0..3).map(|k| a[i][k] * x[k]).sum());
        let got = solve(a, b).expect("regular");
        for (g, w) in got.iter().zip(x) {
            assert!((g - w).abs() < 1e-12, "{got:?}");
        }
    }

    #[test]
    fn a_singular_system_has_no_solution() {
        let a = [[1.0, 2.0], [2.0, 4.0]];
        assert_eq!(solve(a, [1.0, 2.0]), None);
    }
}
