//! Match statistics: win/loss/draw, the pentanomial counts of game pairs, the Elo
//! difference with its 95 % error bar and LOS, and the SPRT.
//!
//! The model. A game pair (same opening, colours swapped) scores 0, ¼, ½, ¾ or 1 for
//! the first engine: the pentanomial counts `penta[k]` are the pairs scoring `k/4`.
//! From them, with `n` pairs and frequencies `p_k = penta[k] / n`:
//!
//! - mean `s = Σ p_k · k/4`, variance per pair `v = Σ p_k · (k/4 − s)²`, standard
//!   error of the mean `σ = √(v / n)`;
//! - Elo `E = −400 · log10(1/s − 1)`; its 95 % error bar by the derivative,
//!   `1.959964 · σ · 400 / (ln 10 · s · (1 − s))`;
//! - LOS `Φ((s − ½) / σ)`, the normal approximation.
//!
//! Before the first pair is complete the same formulas run on single games (scores 0,
//! ½, 1). The SPRT uses normalised Elo bounds and the GSPRT approximation on the
//! pentanomial distribution: a bound `nE` in normalised Elo is the score
//! `½ + nE · √2 · √v / (800 / ln 10)`, and with `s0`, `s1` the scores of the two bounds,
//! `LLR = n · (s1 − s0) · (2s − s0 − s1) / (2v)`. With `model=logistic` the bounds are
//! logistic Elo instead: `s0`, `s1` are the scores `1 / (1 + 10^(−E/400))`. Empty
//! pentanomial cells count 0.001 for the SPRT only, so a lopsided match still decides.

use std::collections::HashMap;

use anyhow::{Result, anyhow, bail};

/// The score that normalised Elo scales by: `800 / ln 10`.
fn nelo_scale() -> f64 {
    800.0 / std::f64::consts::LN_10
}

/// The 97.5 % quantile of the standard normal distribution.
const Z95: f64 = 1.959_964;

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
#[must_use]
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 { -y } else { y }
}

/// The standard normal distribution function.
#[must_use]
pub fn phi(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The Elo difference of an expected score `s` (infinite at 0 and 1).
#[must_use]
pub fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The mean and variance of a distribution of scores given as counts.
#[must_use]
pub fn moments(scores: &[f64], counts: &[f64]) -> (f64, f64, f64) {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return (0.5, 0.0, 0.0);
    }
    let mean = scores.iter().zip(counts).map(|(x, c)| x * c).sum::<f64>() / n;
    let variance = scores
        .iter()
        .zip(counts)
        .map(|(x, c)| c * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    (n, mean, variance)
}

/// The Elo estimate of a match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    /// Half the 95 % confidence interval.
    pub error: f64,
    /// Likelihood of superiority, 0 to 1.
    pub los: f64,
}

/// Elo, error bar and LOS from counts of scores.
#[must_use]
pub fn estimate(scores: &[f64], counts: &[f64]) -> EloEstimate {
    let (n, s, v) = moments(scores, counts);
    let sigma = if n > 0.0 { (v / n).sqrt() } else { 0.0 };
    let slope = 400.0 / (std::f64::consts::LN_10 * s * (1.0 - s));
    let los = if sigma > 0.0 {
        phi((s - 0.5) / sigma)
    } else if s > 0.5 {
        1.0
    } else if s < 0.5 {
        0.0
    } else {
        0.5
    };
    EloEstimate {
        elo: elo(s),
        error: Z95 * sigma * slope,
        los,
    }
}

/// The pentanomial scores `0, ¼, ½, ¾, 1`.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The results of one engine (A) against another (B), from A's side.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// Pairs by A's points over both games: 0, ½, 1, 1½, 2.
    pub penta: [u32; 5],
    /// A's points in the first finished game of each pair still open, by round.
    open: HashMap<usize, f64>,
}

impl Tally {
    /// Adds a game of pair `round` in which A scored `score` (1, ½ or 0).
    pub fn add(&mut self, round: usize, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
        match self.open.remove(&round) {
            Some(first) => {
                let half_points = ((first + score) * 2.0).round() as usize;
                if let Some(slot) = self.penta.get_mut(half_points) {
                    *slot += 1;
                }
            }
            None => {
                self.open.insert(round, score);
            }
        }
    }

    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.penta.iter().sum()
    }

    /// A's score fraction.
    #[must_use]
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games())
    }

    /// Drawn games over all games, 0 to 1.
    #[must_use]
    pub fn draw_ratio(&self) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        f64::from(self.draws) / f64::from(self.games())
    }

    /// The Elo estimate: pentanomial once a pair is complete, else per game.
    #[must_use]
    pub fn estimate(&self) -> EloEstimate {
        if self.pairs() > 0 {
            estimate(&PAIR_SCORES, &self.penta.map(f64::from))
        } else {
            let counts = [self.losses, self.draws, self.wins].map(f64::from);
            estimate(&[0.0, 0.5, 1.0], &counts)
        }
    }

    /// cutechess-cli's score line.
    #[must_use]
    pub fn score_line(&self, a: &str, b: &str) -> String {
        format!(
            "Score of {a} vs {b}: {} - {} - {}  [{:.3}] {}",
            self.wins,
            self.losses,
            self.draws,
            self.score(),
            self.games()
        )
    }

    /// cutechess-cli's Elo line.
    #[must_use]
    pub fn elo_line(&self) -> String {
        let e = self.estimate();
        format!(
            "Elo difference: {:.2} +/- {:.2}, LOS: {:.1} %, DrawRatio: {:.1} %",
            e.elo,
            e.error,
            e.los * 100.0,
            self.draw_ratio() * 100.0
        )
    }
}

/// One engine's results against the whole field of a round robin.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    pub name: String,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Standing {
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Points: a win 1, a draw ½.
    #[must_use]
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }
}

/// Every engine's results against the field, from the tallies of each pair
/// `(a, b)` (counted from `a`'s side), best first by points, then by fewer games,
/// then in the order of `names`.
#[must_use]
pub fn standings(names: &[String], pairs: &[((usize, usize), Tally)]) -> Vec<Standing> {
    let mut table: Vec<Standing> = names
        .iter()
        .map(|name| Standing {
            name: name.clone(),
            ..Standing::default()
        })
        .collect();
    for &((a, b), ref tally) in pairs {
        for (index, wins, losses) in [(a, tally.wins, tally.losses), (b, tally.losses, tally.wins)]
        {
            if let Some(row) = table.get_mut(index) {
                row.wins += wins;
                row.losses += losses;
                row.draws += tally.draws;
            }
        }
    }
    // A stable sort keeps the order of `names` among equals.
    table.sort_by(|x, y| {
        y.points()
            .total_cmp(&x.points())
            .then(x.games().cmp(&y.games()))
    });
    table
}

/// cutechess-cli's final standings: rank, name, Elo against the field with its 95 %
/// error bar (per game, from wins, draws and losses), games, points, score and draws.
#[must_use]
pub fn standings_table(table: &[Standing]) -> String {
    let width = table
        .iter()
        .map(|row| row.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut text = format!(
        "{:>4} {:<width$} {:>8} {:>8} {:>6} {:>7} {:>7} {:>7}",
        "Rank", "Name", "Elo", "+/-", "Games", "Points", "Score", "Draw"
    );
    for (rank, row) in table.iter().enumerate() {
        let counts = [row.losses, row.draws, row.wins].map(f64::from);
        let e = estimate(&[0.0, 0.5, 1.0], &counts);
        let games = f64::from(row.games().max(1));
        text.push_str(&format!(
            "\n{:>4} {:<width$} {:>8.2} {:>8.2} {:>6} {:>7.1} {:>6.1}% {:>6.1}%",
            rank + 1,
            row.name,
            e.elo,
            e.error,
            row.games(),
            row.points(),
            100.0 * row.points() / games,
            100.0 * f64::from(row.draws) / games
        ));
    }
    text
}

/// The SPRT's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    H0Accepted,
    H1Accepted,
    Continue,
}

impl Verdict {
    #[must_use]
    pub fn text(self) -> &'static str {
        match self {
            Verdict::H0Accepted => "H0 accepted",
            Verdict::H1Accepted => "H1 accepted",
            Verdict::Continue => "continue",
        }
    }
}

/// What the SPRT's Elo bounds mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Normalised Elo: the bound scales with the match's own spread of results.
    Normalized,
    /// Logistic Elo: the bound `E` is the score `1 / (1 + 10^(−E/400))`.
    Logistic,
}

/// A sequential probability ratio test between Elo `elo0` (H0) and `elo1` (H1) in
/// `model`'s sense, with error rates `alpha` and `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: Model,
}

impl Sprt {
    /// Reads `elo0=A,elo1=B,alpha=X,beta=Y[,model=normalized|logistic]` (any order;
    /// the model is normalised unless said).
    pub fn parse(text: &str) -> Result<Sprt> {
        let mut values: HashMap<&str, f64> = HashMap::new();
        let mut model = Model::Normalized;
        for part in text.split(',') {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| anyhow!("--sprt: {part:?} is not KEY=VALUE"))?;
            if key.trim() == "model" {
                model = match value.trim() {
                    "normalized" => Model::Normalized,
                    "logistic" => Model::Logistic,
                    other => bail!("--sprt: model={other}: normalized or logistic"),
                };
                continue;
            }
            let value: f64 = value
                .trim()
                .parse()
                .map_err(|_| anyhow!("--sprt: {value:?} is not a number"))?;
            values.insert(key.trim(), value);
        }
        let get = |key: &str| {
            values
                .get(key)
                .copied()
                .ok_or_else(|| anyhow!("--sprt: {key} is missing (elo0=A,elo1=B,alpha=X,beta=Y)"))
        };
        let sprt = Sprt {
            elo0: get("elo0")?,
            elo1: get("elo1")?,
            alpha: get("alpha")?,
            beta: get("beta")?,
            model,
        };
        if sprt.elo0 >= sprt.elo1 || sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            bail!("--sprt: elo0 must be below elo1");
        }
        for p in [sprt.alpha, sprt.beta] {
            if !(p > 0.0 && p < 0.5) {
                bail!("--sprt: alpha and beta must lie between 0 and 0.5");
            }
        }
        Ok(sprt)
    }

    /// The lower and upper bounds of the LLR: `ln(β/(1−α))`, `ln((1−β)/α)`.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pentanomial counts (see the module docs).
    #[must_use]
    pub fn llr(&self, penta: &[u32; 5]) -> f64 {
        if penta.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let counts = penta.map(|c| if c == 0 { 1e-3 } else { f64::from(c) });
        let (n, s, v) = moments(&PAIR_SCORES, &counts);
        if v <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = match self.model {
            Model::Normalized => {
                let sigma_game = std::f64::consts::SQRT_2 * v.sqrt();
                (
                    0.5 + self.elo0 * sigma_game / nelo_scale(),
                    0.5 + self.elo1 * sigma_game / nelo_scale(),
                )
            }
            Model::Logistic => {
                let score = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
                (score(self.elo0), score(self.elo1))
            }
        };
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * v)
    }

    #[must_use]
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1Accepted
        } else if llr <= lower {
            Verdict::H0Accepted
        } else {
            Verdict::Continue
        }
    }

    /// The report line: `SPRT: llr L (P%), lbound A, ubound B - VERDICT`.
    #[must_use]
    pub fn line(&self, penta: &[u32; 5]) -> String {
        let llr = self.llr(penta);
        let (lower, upper) = self.bounds();
        format!(
            "SPRT: llr {llr:.3} ({:.1}%), lbound {lower:.3}, ubound {upper:.3} - {}",
            llr / upper * 100.0,
            self.verdict(llr).text()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logistic_sprt_bounds_are_scores_of_logistic_elo() {
        // n = 10 pairs, mean 0.55, variance 0.0975; s0 = 0.5, s1 = 1/(1+10^(−10/400)):
        // LLR = 10 (s1 − s0)(2·0.55 − s0 − s1) / (2·0.0975) = 0.063166 (by hand).
        let sprt = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05,model=logistic").ok();
        let llr = sprt.map(|s| s.llr(&[1, 2, 3, 2, 2]));
        assert!(llr.is_some_and(|l| (l - 0.063_166).abs() < 1e-5), "{llr:?}");
        let normalized = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").ok();
        assert_eq!(normalized.map(|s| s.model), Some(Model::Normalized));
        assert_ne!(normalized.map(|s| s.llr(&[1, 2, 3, 2, 2])), llr);
    }

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo(0.5), 0.0, 1e-12));
        // 0.75 is odds 3:1: −400 · log10(1/3) = 190.849.
        assert!(close(elo(0.75), 190.849, 1e-3));
        assert!(close(elo(0.25), -190.849, 1e-3));
        assert!(close(phi(0.0), 0.5, 1e-9));
        assert!(close(phi(1.959_964), 0.975, 1e-6));
    }

    /// Ten pairs: pentanomial counts [1, 2, 3, 2, 2].
    fn ten_pairs() -> Tally {
        let mut tally = Tally::default();
        // (A's points in game 1, game 2) per pair, giving each pentanomial cell.
        let pairs: [(f64, f64); 10] = [
            (0.0, 0.0),
            (0.5, 0.0),
            (0.0, 0.5),
            (1.0, 0.0),
            (0.5, 0.5),
            (0.0, 1.0),
            (1.0, 0.5),
            (0.5, 1.0),
            (1.0, 1.0),
            (1.0, 1.0),
        ];
        for (round, (first, second)) in pairs.into_iter().enumerate() {
            tally.add(round, first);
            tally.add(round, second);
        }
        tally
    }

    #[test]
    fn pentanomial_counts_and_the_elo_line() {
        let tally = ten_pairs();
        assert_eq!(tally.penta, [1, 2, 3, 2, 2]);
        assert_eq!((tally.wins, tally.losses, tally.draws), (8, 6, 6));
        assert!(close(tally.score(), 11.0 / 20.0, 1e-12));
        // By hand: s = 5.5 / 10 = 0.55; v = (1·0.55² + 2·0.3² + 3·0.05² + 2·0.2² +
        // 2·0.45²) / 10 = 0.0975; σ = √(0.0975 / 10) = 0.098742;
        // Elo = −400 log10(0.45 / 0.55) = 34.860;
        // error = 1.959964 · 0.098742 · 400 / (ln 10 · 0.55 · 0.45) = 135.837;
        // LOS = Φ(0.05 / 0.098742) = Φ(0.50637) = 0.69370.
        let e = tally.estimate();
        assert!(close(e.elo, 34.860, 1e-3), "{e:?}");
        assert!(close(e.error, 135.837, 1e-3), "{e:?}");
        assert!(close(e.los, 0.69370, 1e-4), "{e:?}");
        assert_eq!(
            tally.elo_line(),
            "Elo difference: 34.86 +/- 135.84, LOS: 69.4 %, DrawRatio: 30.0 %"
        );
        assert_eq!(
            tally.score_line("a", "b"),
            "Score of a vs b: 8 - 6 - 6  [0.550] 20"
        );
    }

    #[test]
    fn standings_add_up_each_engine_from_both_sides_of_its_pairs() {
        let names = ["a", "b", "c"].map(String::from);
        let tally = |wins, losses, draws| Tally {
            wins,
            losses,
            draws,
            ..Tally::default()
        };
        // a–b 3-1-0, a–c 0-4-0, b–c 1-1-2: c 6 points of 8, a and b 3 each (a
        // first, as named first).
        let pairs = [
            ((0, 1), tally(3, 1, 0)),
            ((0, 2), tally(0, 4, 0)),
            ((1, 2), tally(1, 1, 2)),
        ];
        let table = standings(&names, &pairs);
        let rows: Vec<(&str, u32, u32, u32)> = table
            .iter()
            .map(|r| (r.name.as_str(), r.wins, r.losses, r.draws))
            .collect();
        assert_eq!(rows, [("c", 5, 1, 2), ("a", 3, 5, 0), ("b", 2, 4, 2)]);
        let text = standings_table(&table);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines[0].starts_with("Rank Name"), "{text}");
        // c scored 6 of 8: 190.85 Elo against the field.
        let c: Vec<&str> = lines[1].split_whitespace().collect();
        assert_eq!(c[..2], ["1", "c"]);
        assert!(
            close(c[2].parse().unwrap_or(0.0), elo(0.75), 0.01),
            "{text}"
        );
        assert_eq!(c[4..], ["8", "6.0", "75.0%", "25.0%"]);
        let b: Vec<&str> = lines[3].split_whitespace().collect();
        assert_eq!(b[..2], ["3", "b"]);
        assert_eq!(b[4..], ["8", "3.0", "37.5%", "25.0%"]);
    }

    #[test]
    fn an_open_pair_is_not_counted_in_the_pentanomial() {
        let mut tally = Tally::default();
        tally.add(0, 1.0);
        assert_eq!(tally.pairs(), 0);
        tally.add(1, 0.5);
        tally.add(0, 0.5);
        assert_eq!(tally.penta, [0, 0, 0, 1, 0]);
        assert_eq!(tally.games(), 3);
    }

    #[test]
    fn sprt_bounds_and_llr_by_hand() {
        let sprt = Sprt::parse("elo0=-10,elo1=10,alpha=0.05,beta=0.05").ok();
        let Some(sprt) = sprt else {
            panic!("the text parses");
        };
        let (lower, upper) = sprt.bounds();
        // ln(0.05 / 0.95) = −2.944439, ln(0.95 / 0.05) = 2.944439.
        assert!(close(lower, -2.944_439, 1e-6));
        assert!(close(upper, 2.944_439, 1e-6));
        // s = 0.55, v = 0.0975 (above); symmetric bounds make 2s − s0 − s1 = 0.1, and
        // s1 − s0 = 20 · √2 · √0.0975 / (800 / ln 10) = 0.025421, so
        // LLR = 10 · 0.025421 · 0.1 / (2 · 0.0975) = 0.13036.
        let llr = sprt.llr(&ten_pairs().penta);
        assert!(close(llr, 0.130_36, 1e-5), "{llr}");
        assert_eq!(sprt.verdict(llr), Verdict::Continue);
        assert_eq!(sprt.verdict(3.0), Verdict::H1Accepted);
        assert_eq!(sprt.verdict(-3.0), Verdict::H0Accepted);
        // A long run of won pairs accepts H1; of lost pairs, H0.
        assert_eq!(
            sprt.verdict(sprt.llr(&[0, 2, 10, 30, 60])),
            Verdict::H1Accepted
        );
        assert_eq!(
            sprt.verdict(sprt.llr(&[60, 30, 10, 2, 0])),
            Verdict::H0Accepted
        );
        assert!(Sprt::parse("elo0=5,elo1=0,alpha=0.05,beta=0.05").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,alpha=0.05,beta=0.05,model=bayes").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,alpha=0.05").is_err());
    }
}
