//! The learned value of a What the Shell position: a logistic model over line,
//! threat and capture features, fitted on self-play games (`tabula train shell`), for
//! the search's leaves in place of (or blended with) a guided playout.
//!
//! The game is symmetric in the colours (S3: simultaneous turns, no side to move), so
//! every feature is black's count minus white's and the model has no bias: swapping
//! the colours negates the value exactly. Black's value is `2σ(w·x) − 1`, in (−1, 1),
//! the playouts' scale (+1 a black win, −1 a white win).
//!
//! Per colour, from the bitboards only (no allocation): the five-cell windows holding
//! 1, 2, 3 or 4 of its turtles and no other stone (an egg or an enemy turtle spoils a
//! window, S2, S9), whether it has one and two cells that complete a five, its
//! double-four cells, its capture cells (S5), those again when an egg is on the board
//! to hatch for it (S8), and its turtles.
//!
//! The weights are `value.weights` beside this file, compiled in with `include_str!`.

use std::sync::OnceLock;

use super::candidates::{WINDOWS, capture_cells, double_fours, five_holes};
use crate::games::shell::Position;
use crate::games::shell::cell::BOARD;
use crate::games::{Color, Status};
use crate::rng::Rng;

/// Features of the model.
pub const FEATURES: usize = 10;

/// The features' names, in order (as the weights file lists them).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "windows1",
    "windows2",
    "windows3",
    "windows4",
    "one_five",
    "two_fives",
    "doubles",
    "captures",
    "hatching_captures",
    "turtles",
];

/// The model's weights, one per feature.
pub type Weights = [f64; FEATURES];

/// The committed weights' text.
const WEIGHTS_TEXT: &str = include_str!("value.weights");

/// One colour's features (not yet differenced).
fn side(position: &Position, color: Color) -> Weights {
    let occupied = position.occupied();
    let empty = BOARD & !occupied;
    let own = position.turtle_mask(color);
    let blocked = occupied & !own;
    let mut f = [0.0; FEATURES];
    for window in WINDOWS {
        if window & blocked == 0 {
            let k = (window & own).count_ones() as usize;
            if (1..=4).contains(&k) {
                f[k - 1] += 1.0;
            }
        }
    }
    let fives = five_holes(own, empty).count_ones();
    f[4] = f64::from(u8::from(fives >= 1));
    f[5] = f64::from(u8::from(fives >= 2));
    f[6] = f64::from(double_fours(own, blocked, empty).count_ones().min(4));
    let captures = f64::from(capture_cells(own, occupied).count_ones());
    f[7] = captures;
    f[8] = if position.eggs().is_empty() {
        0.0
    } else {
        captures
    };
    f[9] = f64::from(own.count_ones());
    f
}

/// The features of `position`: black's counts minus white's.
#[must_use]
pub fn features(position: &Position) -> Weights {
    let black = side(position, Color::Black);
    let white = side(position, Color::White);
    std::array::from_fn(|i| black[i] - white[i])
}

/// The logistic function.
fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Black's value of `position` under `weights`: the outcome's value when the game is
/// over, else `2σ(w·x) − 1`.
#[must_use]
pub fn value_with(position: &Position, weights: &Weights) -> f64 {
    let status = position.status();
    if status.is_over() {
        return super::playout::value(status);
    }
    let x = features(position);
    let z: f64 = x.iter().zip(weights).map(|(a, b)| a * b).sum();
    2.0 * sigmoid(z) - 1.0
}

/// Black's value of `position` under the committed weights.
#[must_use]
pub fn value(position: &Position) -> f64 {
    value_with(position, committed())
}

/// The committed weights (all zero if the file does not parse, which a test forbids).
#[must_use]
pub fn committed() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| parse_weights(WEIGHTS_TEXT).unwrap_or([0.0; FEATURES]))
}

/// The weights in `text`: the line `value w1 … w10` (lines starting `#` are notes).
#[must_use]
pub fn parse_weights(text: &str) -> Option<Weights> {
    let line = text.lines().find_map(|line| line.strip_prefix("value "))?;
    let numbers: Vec<f64> = line
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    numbers.try_into().ok()
}

/// The weights file's text for `weights`, `notes` as its comment lines.
#[must_use]
pub fn weights_text(weights: &Weights, notes: &str) -> String {
    let mut text = String::new();
    for note in notes.lines() {
        text.push_str("# ");
        text.push_str(note);
        text.push('\n');
    }
    text.push_str("# features: ");
    text.push_str(&FEATURE_NAMES.join(", "));
    text.push_str("\nvalue");
    for w in weights {
        text.push_str(&format!(" {w:.6}"));
    }
    text.push('\n');
    text
}

/// A labelled position: its features and black's share of the game's final outcome
/// (1 a black win, 0 a white win, ½ a draw).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub features: Weights,
    pub target: f64,
}

/// One colour's pick in a training game: with probability 1 in 8 a random cell near
/// the stones, else the family member `style`'s (`None`: the greedy player's).
fn training_pick(
    position: &Position,
    color: Color,
    style: Option<usize>,
    rng: &mut Rng,
) -> Option<crate::games::shell::Cell> {
    if rng.below(8) == 0 {
        let empty = BOARD & !position.occupied();
        let near = super::candidates::near_cells(position) & empty;
        let cells = if near == 0 { empty } else { near };
        return super::playout::random_cell(cells, rng);
    }
    match style.and_then(|s| super::windows::FAMILY.get(s)) {
        Some(style) => super::windows::pick_styled(position, color, style, rng),
        None => super::greedy::pick(position, color, rng),
    }
}

/// The labelled positions of `games` training games, game `i` from seed `seed + i`:
/// 1 to 6 random opening turns near the centre, then each colour a windows family
/// member or the greedy player (drawn per game), with a random near cell one turn in
/// eight; every position after the opening labelled with the game's outcome.
#[must_use]
pub fn training_data(games: u64, seed: u64) -> Vec<Sample> {
    let mut samples = Vec::new();
    let family = super::windows::FAMILY.len() as u64;
    let centre = centre();
    for game in 0..games {
        let mut rng = Rng::new(seed.wrapping_add(game));
        let mut position = Position::new();
        for _ in 0..1 + rng.below(6) {
            let open = centre & !position.occupied();
            let (Some(b), Some(w)) = (
                super::playout::random_cell(open, &mut rng),
                super::playout::random_cell(open, &mut rng),
            ) else {
                break;
            };
            if position.resolve_turn_quiet(b, w).is_err() {
                break;
            }
        }
        let styles = [0, 1].map(|_| {
            let s = rng.below(family + 1);
            (s < family).then_some(s as usize)
        });
        let mut seen = Vec::new();
        for _ in 0..super::playout::MAX_TURNS {
            if position.status().is_over() {
                break;
            }
            seen.push(features(&position));
            let black = training_pick(&position, Color::Black, styles[0], &mut rng);
            let white = training_pick(&position, Color::White, styles[1], &mut rng);
            let (Some(black), Some(white)) = (black, white) else {
                break;
            };
            if position.resolve_turn_quiet(black, white).is_err() {
                break;
            }
        }
        let target = match position.status() {
            Status::Ongoing => 0.5,
            status => (super::playout::value(status) + 1.0) / 2.0,
        };
        samples.extend(seen.into_iter().map(|features| Sample { features, target }));
    }
    samples
}

/// The cells within distance 2 of the centre.
fn centre() -> u128 {
    crate::games::shell::Cell::ALL
        .iter()
        .filter(|c| c.col().abs_diff(4) <= 2 && c.row().abs_diff(4) <= 2)
        .fold(0, |mask, c| mask | c.bit())
}

/// The mean logistic loss (cross-entropy, nats) of `weights` on `samples`, plus the
/// ridge term `ridge · |w|²`.
#[must_use]
pub fn loss(samples: &[Sample], weights: &Weights, ridge: f64) -> f64 {
    let n = samples.len().max(1) as f64;
    let data: f64 = samples
        .iter()
        .map(|s| {
            let z: f64 = s.features.iter().zip(weights).map(|(a, b)| a * b).sum();
            let p = sigmoid(z).clamp(1e-12, 1.0 - 1e-12);
            -(s.target * p.ln() + (1.0 - s.target) * (1.0 - p).ln())
        })
        .sum();
    data / n + ridge * weights.iter().map(|w| w * w).sum::<f64>()
}

/// Fits the weights to `samples` by Newton's method on the ridge-penalised logistic
/// loss (`steps` steps from zero, each halved until the loss falls); the weights and
/// the loss after each step.
#[must_use]
pub fn fit(samples: &[Sample], steps: usize, ridge: f64) -> (Weights, Vec<f64>) {
    let n = samples.len().max(1) as f64;
    let mut w = [0.0; FEATURES];
    let mut losses = Vec::with_capacity(steps);
    let mut current = loss(samples, &w, ridge);
    for _ in 0..steps {
        let mut gradient = [0.0; FEATURES];
        let mut hessian = [[0.0; FEATURES]; FEATURES];
        for s in samples {
            let z: f64 = s.features.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = sigmoid(z);
            let r = p * (1.0 - p);
            for (i, &xi) in s.features.iter().enumerate() {
                gradient[i] += (p - s.target) * xi / n;
                for (h, &xj) in hessian[i].iter_mut().zip(&s.features) {
                    *h += r * xi * xj / n;
                }
            }
        }
        for i in 0..FEATURES {
            gradient[i] += 2.0 * ridge * w[i];
            hessian[i][i] += 2.0 * ridge + 1e-9;
        }
        let Some(step) = crate::ai::linear::solve(hessian, gradient) else {
            break;
        };
        let mut scale = 1.0;
        let mut next = w;
        for _ in 0..30 {
            next = std::array::from_fn(|i| w[i] - scale * step[i]);
            if loss(samples, &next, ridge) <= current {
                break;
            }
            scale /= 2.0;
        }
        let next_loss = loss(samples, &next, ridge);
        if next_loss <= current {
            w = next;
            current = next_loss;
        }
        losses.push(current);
    }
    (w, losses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::shell::testing::position;

    #[test]
    fn the_committed_weights_parse() {
        assert!(parse_weights(WEIGHTS_TEXT).is_some());
        assert!(committed().iter().any(|&w| w != 0.0));
    }

    #[test]
    fn a_lone_turtle_has_its_windows_and_nothing_else() {
        // e5 lies in 5 windows along each of the 4 lines (S2): 20 windows of one.
        let p = position(&[("e5", 'X')], "-");
        let f = features(&p);
        assert_eq!(f[0], 20.0);
        assert_eq!(f[1..], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn an_enemy_turtle_or_an_egg_spoils_a_window() {
        // Black's a1-d1 four: the one window a1-e1 holds 4; a white turtle on e1
        // spoils it (S9: only black's own turtles count), and so would an egg.
        let open = features(&position(
            &[("a1", 'X'), ("b1", 'X'), ("c1", 'X'), ("d1", 'X')],
            "-",
        ));
        assert_eq!(open[3], 1.0);
        assert_eq!(open[4], 1.0, "e1 completes the five");
        assert_eq!(open[5], 0.0, "only one cell does");
        for stone in ['O', 'E'] {
            let p = position(
                &[
                    ("a1", 'X'),
                    ("b1", 'X'),
                    ("c1", 'X'),
                    ("d1", 'X'),
                    ("e1", stone),
                ],
                if stone == 'E' { "e1" } else { "-" },
            );
            let f = features(&p);
            assert_eq!(f[3], 0.0, "{stone}");
            assert_eq!(f[4], 0.0, "{stone}");
        }
    }

    #[test]
    fn an_open_four_has_two_fives() {
        // b5-e5 with a5 and f5 empty: two cells complete the five.
        let p = position(&[("b5", 'X'), ("c5", 'X'), ("d5", 'X'), ("e5", 'X')], "-");
        let f = features(&p);
        assert_eq!((f[4], f[5]), (1.0, 1.0));
        assert!(value_with(&p, &[0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]) > 0.7);
    }

    #[test]
    fn captures_count_and_hatch_only_with_an_egg() {
        // Black a1, white b1 c1: a black turtle on d1 captures b1 c1 (S5). With no
        // egg on the board nothing hatches (S8); with one, the capture claims it.
        let bare = features(&position(&[("a1", 'X'), ("b1", 'O'), ("c1", 'O')], "-"));
        assert_eq!((bare[7], bare[8]), (1.0, 0.0));
        let egg = features(&position(
            &[("a1", 'X'), ("b1", 'O'), ("c1", 'O'), ("i9", 'E')],
            "i9",
        ));
        assert_eq!((egg[7], egg[8]), (1.0, 1.0));
    }

    #[test]
    fn swapping_the_colours_negates_the_value() {
        let p = position(
            &[
                ("c3", 'X'),
                ("d4", 'X'),
                ("e5", 'O'),
                ("f5", 'O'),
                ("g5", 'O'),
            ],
            "-",
        );
        let q = position(
            &[
                ("c3", 'O'),
                ("d4", 'O'),
                ("e5", 'X'),
                ("f5", 'X'),
                ("g5", 'X'),
            ],
            "-",
        );
        let (v, u) = (value(&p), value(&q));
        assert!((v + u).abs() < 1e-12, "{v} {u}");
        assert!(v < 0.0, "white's three outweighs black's two: {v}");
    }

    #[test]
    fn the_fit_reduces_its_loss_and_is_seeded() {
        let samples = training_data(12, 7);
        assert!(samples.len() > 100);
        assert_eq!(samples, training_data(12, 7));
        assert_ne!(samples, training_data(12, 8));
        let start = loss(&samples, &[0.0; FEATURES], 1e-4);
        let (w, losses) = fit(&samples, 6, 1e-4);
        let end = loss(&samples, &w, 1e-4);
        assert!(end < start - 0.01, "{start} → {end}");
        assert!(losses.windows(2).all(|p| p[1] <= p[0]), "{losses:?}");
        assert_eq!(fit(&samples, 6, 1e-4).0, w);
    }
}
