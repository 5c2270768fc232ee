//! Learning the pattern weights: self-play games labelled with exact endgame scores,
//! and a least-squares fit of the weights to those labels.
//!
//! A game starts with a random number of random moves (for variety), goes on with the
//! engine's own depth-limited search, and is played perfectly from `exact_empties`
//! empties (each move solved exactly). Every position of the game where the side to
//! move has a move becomes a [`Sample`] labelled with the game's final disc difference
//! for that side: exact from the solved part on, the outcome of good play before it.
//!
//! The fit minimises the mean squared error between the pattern evaluation and the
//! labels, per phase, by stochastic gradient descent over shuffled samples with a
//! decaying step and a small L2 pull towards zero (rare configurations stay small).
//! It reports the root-mean-square error on the samples it learned from and on a
//! held-out tail of them.
//!
//! The command-line tool around this is `tabula train` (files, threads, progress).

use crate::ai::Limits;
use crate::games::othello::{Board, Move, Position};
use crate::rng::Rng;

use super::eval::Evaluation;
use super::pattern::{FEATURES, Features, PHASES, Weights, weights_per_phase};
use super::{Settings, search_with, solve};

/// One labelled position: the board (side to move's point of view) and the final
/// disc difference for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub board: Board,
    pub label: i8,
}

/// Bytes of one sample in a data file.
pub const SAMPLE_BYTES: usize = 17;

impl Sample {
    /// The file form: player and opponent (u64 LE), then the label.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; SAMPLE_BYTES] {
        let mut out = [0u8; SAMPLE_BYTES];
        out[..8].copy_from_slice(&self.board.player.to_le_bytes());
        out[8..16].copy_from_slice(&self.board.opponent.to_le_bytes());
        out[16] = self.label.to_le_bytes()[0];
        out
    }

    /// Reads the file form; `None` for a record that cannot be a position (discs on
    /// both sides of a square, a label beyond ±64).
    #[must_use]
    pub fn from_bytes(bytes: &[u8; SAMPLE_BYTES]) -> Option<Sample> {
        let word = |at: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(b)
        };
        let board = Board {
            player: word(0),
            opponent: word(8),
        };
        let label = i8::from_le_bytes([bytes[16]]);
        (board.player & board.opponent == 0 && label.unsigned_abs() <= 64)
            .then_some(Sample { board, label })
    }
}

/// How self-play games are played.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    /// Random moves at the start: a uniform number in this range.
    pub random_plies: (u32, u32),
    /// Search depth of the moves before the exact part.
    pub depth: u32,
    /// From this many empties on, every move is solved exactly.
    pub exact_empties: u32,
    /// Transposition table size of each search, MiB.
    pub hash_mib: u32,
    /// The evaluation of the searches.
    pub evaluation: Evaluation,
}

/// Plays one self-play game from `seed` and returns its samples in game order.
#[must_use]
pub fn self_play_game(seed: u64, options: &SelfPlay) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    let (low, high) = options.random_plies;
    let random = low + rng.below(u64::from(high.saturating_sub(low)) + 1) as u32;
    let settings = Settings {
        hash_mib: options.hash_mib,
        endgame_empties: options.exact_empties,
        threads: 1,
        evaluation: options.evaluation,
    };
    let mut position = Position::start();
    let mut seen: Vec<(Board, bool)> = Vec::with_capacity(64);
    let mut ply = 0;
    while !position.is_over() {
        let board = position.board();
        let side = position.side_to_move();
        let mv = if board.moves() == 0 {
            Move::Pass
        } else {
            seen.push((board, side == crate::games::Color::Black));
            let empties = board.empty().count_ones();
            let chosen = if ply < random {
                rng.choose(&position.legal_moves()).copied()
            } else if empties <= options.exact_empties {
                solve(&position, Limits::depth(64), &settings).map(|r| r.best)
            } else {
                search_with(&position, Limits::depth(options.depth), &settings).map(|r| r.best)
            };
            // The searches always answer a legal move while the game goes on.
            let Some(mv) = chosen else { break };
            ply += 1;
            mv
        };
        if position.play(side, mv).is_err() {
            break;
        }
    }
    let black_margin = position.final_margin();
    seen.into_iter()
        .map(|(board, black)| {
            let margin = if black { black_margin } else { -black_margin };
            Sample {
                board,
                label: margin.clamp(-64, 64) as i8,
            }
        })
        .collect()
}

/// How the weights are fitted.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// Passes over the samples.
    pub epochs: u32,
    /// The first step (the fraction of a sample's error corrected, spread over its
    /// features), decaying linearly to a tenth of it.
    pub rate: f32,
    /// L2 pull towards zero per update.
    pub decay: f32,
    /// The tail of the samples held out to measure the error (0 ..= 0.5).
    pub holdout: f64,
    pub seed: u64,
}

/// One sample in the fit: its features and its label.
type Row = ([u32; FEATURES], f32);

/// The errors of a fit, per phase: (samples, RMS error learned from, RMS error held
/// out), in discs.
#[derive(Clone, Debug, Default)]
pub struct FitReport {
    pub phases: Vec<(usize, f64, f64)>,
}

/// Fits weights to `samples` (the last `holdout` part is only measured).
#[must_use]
pub fn fit(samples: &[Sample], options: &Fit) -> (Weights, FitReport) {
    let split = samples.len() - (samples.len() as f64 * options.holdout.clamp(0.0, 0.5)) as usize;
    let mut learn: Vec<Vec<Row>> = vec![Vec::new(); PHASES];
    let mut check: Vec<Vec<Row>> = vec![Vec::new(); PHASES];
    for (i, sample) in samples.iter().enumerate() {
        let features = Features::of(&sample.board);
        let target = if i < split { &mut learn } else { &mut check };
        target[features.phase].push((features.index, f32::from(sample.label)));
    }
    let size = weights_per_phase();
    let mut values = vec![0f32; PHASES * size];
    let mut report = FitReport::default();
    let mut rng = Rng::new(options.seed);
    for p in 0..PHASES {
        let w = &mut values[p * size..(p + 1) * size];
        let data = &mut learn[p];
        let step = options.rate / FEATURES as f32;
        for epoch in 0..options.epochs {
            // Fisher-Yates with our own generator: the fit is reproducible.
            for i in (1..data.len()).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                data.swap(i, j);
            }
            let progress = epoch as f32 / options.epochs.max(1) as f32;
            let rate = step * (1.0 - 0.9 * progress);
            for (index, label) in data.iter() {
                let predicted: f32 = index.iter().map(|&f| w[f as usize]).sum();
                let error = label - predicted;
                for &f in index.iter() {
                    let weight = &mut w[f as usize];
                    *weight += rate * (error - options.decay * *weight);
                }
            }
        }
        let rms = |set: &[Row]| {
            if set.is_empty() {
                return 0.0;
            }
            let sum: f64 = set
                .iter()
                .map(|(index, label)| {
                    let predicted: f32 = index.iter().map(|&f| w[f as usize]).sum();
                    f64::from(label - predicted).powi(2)
                })
                .sum();
            (sum / set.len() as f64).sqrt()
        };
        report.phases.push((data.len(), rms(data), rms(&check[p])));
    }
    (Weights::from_discs(&values), report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::othello::pattern::phase;

    #[test]
    fn samples_round_trip_through_bytes_and_bad_records_are_refused() {
        let sample = Sample {
            board: Position::start().board(),
            label: -12,
        };
        assert_eq!(Sample::from_bytes(&sample.to_bytes()), Some(sample));
        let mut overlap = sample.to_bytes();
        overlap[0] |= 0x10; // a disc of the player's on one of the opponent's
        overlap[8] |= 0x10;
        assert_eq!(Sample::from_bytes(&overlap), None);
        let mut wide = sample.to_bytes();
        wide[16] = 100;
        assert_eq!(Sample::from_bytes(&wide), None);
    }

    #[test]
    fn a_self_play_game_is_legal_reproducible_and_exact_at_the_end() {
        let options = SelfPlay {
            random_plies: (4, 8),
            depth: 2,
            exact_empties: 10,
            hash_mib: 1,
            evaluation: Evaluation::Hand,
        };
        let game = self_play_game(7, &options);
        assert_eq!(game, self_play_game(7, &options));
        assert!(game.len() >= 40, "{} samples", game.len());
        // Every position has a move for the side to move, and the last ones (played
        // perfectly) carry their exact value as the label.
        for sample in &game {
            assert_ne!(sample.board.moves(), 0);
        }
        for sample in game.iter().filter(|s| s.board.empty().count_ones() <= 10) {
            let position = Position::from_board(sample.board, crate::games::Color::Black);
            let exact = solve(&position, Limits::depth(64), &Settings::default()).expect("a move");
            assert_eq!(
                exact.score,
                super::super::Score::Exact(i32::from(sample.label))
            );
        }
    }

    /// A label the features can explain (the mobility difference, which the two
    /// mobility tables hold exactly) is learned, also on held-out samples.
    #[test]
    fn the_fit_learns_an_explainable_label() {
        let mut samples = Vec::new();
        for game in 0..400 {
            let mut position = Position::start();
            let mut game_rng = Rng::new(game);
            while !position.is_over() {
                let moves = position.legal_moves();
                let mv = *game_rng.choose(&moves).expect("a move");
                let board = position.board();
                let empties = board.empty().count_ones();
                if board.moves() != 0 && (31..=35).contains(&empties) {
                    let mobility = board.moves().count_ones() as i32
                        - board.passed().moves().count_ones() as i32;
                    samples.push(Sample {
                        board,
                        label: mobility as i8,
                    });
                }
                let side = position.side_to_move();
                position.play(side, mv).expect("legal");
            }
        }
        let options = Fit {
            epochs: 30,
            rate: 0.5,
            decay: 0.0,
            holdout: 0.2,
            seed: 2,
        };
        let (weights, report) = fit(&samples, &options);
        let (count, learned, held) = report.phases[phase(33)];
        assert!(count > 1000, "{count}");
        let labels: Vec<f64> = samples.iter().map(|s| f64::from(s.label)).collect();
        let mean = labels.iter().sum::<f64>() / labels.len() as f64;
        let spread =
            (labels.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / labels.len() as f64).sqrt();
        assert!(learned < spread / 4.0, "learned {learned} spread {spread}");
        assert!(held < spread / 2.0, "held out {held} spread {spread}");
        // The written weights give the same picture.
        let tail = &samples[samples.len() * 4 / 5..];
        let error = tail
            .iter()
            .map(|s| (f64::from(weights.evaluate(&s.board)) / 100.0 - f64::from(s.label)).powi(2))
            .sum::<f64>()
            / tail.len() as f64;
        assert!(error.sqrt() < spread / 2.0, "{}", error.sqrt());
    }
}
