//! Opponent modelling: which known style of play explains an opponent's picks.
//!
//! Deterministic players (threat-builders, serial searchers) are strong against a
//! player that treats every turn as an unknown guess, and weak against one that
//! guesses them right. The model keeps a few known styles ([`STYLES`]: the
//! threat-builder family [`super::windows::FAMILY`] and the sequential
//! [`super::tactician`]), predicts the opponent's pick with each of them before the
//! turn, and scores each prediction against the pick the opponent then made. The
//! style that predicted best gives the opponent's likely pick and a confidence: its
//! hit rate shrunk toward [`CHANCE`], the rate at which a style matches a player it
//! does not describe. Below [`ACT`] the model says nothing, and the search plays as
//! it does without it; above, the search treats the opponent's root pick as the
//! predicted cell with that probability ([`super::mcts::Settings::prediction`]).
//!
//! The model lives as long as the table: it is kept across games against the same
//! opponent, so that a match's later games start with what the earlier ones showed.

use super::candidates::Tactics;
use super::tactician;
use super::windows::{FAMILY, pick_styled};
use crate::ai::Limits;
use crate::games::Color;
use crate::games::shell::{Cell, Position};
use crate::rng::Rng;

/// The styles: the threat-builder family, then the tactician.
pub const STYLES: usize = FAMILY.len() + 1;
/// How often a style predicts the pick of a player it does not describe (candidate
/// cells are few, and a mixed player often picks the threat-builder's cell too).
pub const CHANCE: f64 = 0.4;
/// How often a style misses the pick of the player it describes (a clock may cut
/// that player's search short).
pub const SLIP: f64 = 0.05;
/// The odds that the opponent plays a given style, before any pick is seen.
pub const PRIOR_ODDS: f64 = 1.0 / 40.0;
/// The largest odds a style reaches: the chance that the opponent changes its ways
/// (or the table a new opponent) is never taken as nil, so two misses in a row undo
/// a long run of hits.
pub const MAX_ODDS: f64 = 50.0;
/// The weight, in turns, of [`CHANCE`] in a style's shrunk hit rate.
pub const PRIOR_TURNS: f64 = 4.0;
/// The least confidence the search acts on.
pub const ACT: f64 = 0.6;
/// Each turn's weight in the hit counts decays by this factor.
pub const DECAY: f64 = 0.98;

/// The opponent's likely pick and the probability the model gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    pub cell: Cell,
    pub confidence: f64,
}

/// What the model has seen of one opponent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// Decayed count of the turns scored.
    turns: f64,
    /// Decayed count of each style's right predictions.
    hits: [f64; STYLES],
    /// The log-odds that the opponent plays each style.
    log_odds: [f64; STYLES],
    /// The last predictions not yet scored: the position, the colour modelled and
    /// each style's pick there.
    pending: Option<(Position, Color, [Option<Cell>; STYLES])>,
    /// The styles the model knows, a bit each (in [`STYLES`] order).
    known: u32,
}

impl Default for Model {
    fn default() -> Model {
        Model::knowing(ALL_STYLES)
    }
}

/// Every style, as a [`Model::knowing`] mask.
pub const ALL_STYLES: u32 = (1 << STYLES) - 1;

/// The styles' names: the threat-builders' player names, then `tactician`.
#[must_use]
pub fn style_name(style: usize) -> &'static str {
    FAMILY.get(style).map_or("tactician", |s| s.name)
}

/// The pick for `color` in `position` of each style in `known` (a bit each; `None`
/// for the others), the tactician's within `limits`.
#[must_use]
pub fn style_picks(
    position: &Position,
    color: Color,
    known: u32,
    limits: &Limits<'_>,
) -> [Option<Cell>; STYLES] {
    let mut picks = [None; STYLES];
    for (i, (pick, style)) in picks.iter_mut().zip(&FAMILY).enumerate() {
        if known & (1 << i) != 0 {
            // A style that breaks ties at random is predicted with a fixed stream: it
            // still names the cell when the best one is alone.
            *pick = pick_styled(position, color, style, &mut Rng::new(0));
        }
    }
    if known & (1 << FAMILY.len()) != 0
        && let Some(last) = picks.last_mut()
    {
        *last = tactician::pick_within(position, color, limits);
    }
    picks
}

impl Model {
    /// A model that knows only the styles of `known` (a bit each, [`STYLES`] order),
    /// to measure how it fares against a player it has no style for.
    #[must_use]
    pub fn knowing(known: u32) -> Model {
        Model {
            turns: 0.0,
            hits: [0.0; STYLES],
            log_odds: [PRIOR_ODDS.ln(); STYLES],
            pending: None,
            known: known & ALL_STYLES,
        }
    }

    /// True while a prediction waits to be scored ([`Model::observe`]).
    #[must_use]
    pub fn predicting(&self) -> bool {
        self.pending.is_some()
    }

    /// Turns scored so far (decayed).
    #[must_use]
    pub fn turns(&self) -> f64 {
        self.turns
    }

    /// Each style's confidence: the probability that its next prediction is right,
    /// given the odds that the opponent plays it ([`SLIP`] when it does, [`CHANCE`]
    /// when not), and at most its hit rate so far shrunk toward [`CHANCE`] (a style
    /// that describes the opponent only in part keeps its odds up on a run of hits,
    /// but not its rate).
    #[must_use]
    pub fn confidences(&self) -> [f64; STYLES] {
        let mut confidences = [0.0; STYLES];
        for ((confidence, &log_odds), &hits) in
            confidences.iter_mut().zip(&self.log_odds).zip(&self.hits)
        {
            let odds = log_odds.exp();
            let p = odds / (1.0 + odds);
            let by_odds = p * (1.0 - SLIP) + (1.0 - p) * CHANCE;
            let rate = (hits + CHANCE * PRIOR_TURNS) / (self.turns + PRIOR_TURNS);
            *confidence = by_odds.min(rate);
        }
        confidences
    }

    /// The style with the highest confidence (the first of equals) and that
    /// confidence.
    #[must_use]
    pub fn best(&self) -> (usize, f64) {
        let mut best = (0, f64::NEG_INFINITY);
        for (i, &confidence) in self.confidences().iter().enumerate() {
            if self.known & (1 << i) != 0 && confidence > best.1 {
                best = (i, confidence);
            }
        }
        best
    }

    /// Scores the pending predictions, if they were made for `before` and `color`,
    /// against the cell `color` picked there.
    pub fn observe(&mut self, before: &Position, color: Color, picked: Cell) {
        let Some((position, modelled, picks)) = self.pending else {
            return;
        };
        if position != *before || modelled != color {
            return;
        }
        self.pending = None;
        self.turns = self.turns * DECAY + 1.0;
        let hit = ((1.0 - SLIP) / CHANCE).ln();
        let miss = (SLIP / (1.0 - CHANCE)).ln();
        for ((hits, log_odds), pick) in self.hits.iter_mut().zip(&mut self.log_odds).zip(picks) {
            let right = pick == Some(picked);
            *hits = *hits * DECAY + if right { 1.0 } else { 0.0 };
            *log_odds = (*log_odds + if right { hit } else { miss })
                .clamp(PRIOR_ODDS.ln() - hit, MAX_ODDS.ln());
        }
    }

    /// Predicts `color`'s pick in `position` with every style (kept to be scored by
    /// [`Model::observe`] when no colour can win at once there) and answers the best
    /// style's, when its confidence reaches [`ACT`].
    pub fn predict(
        &mut self,
        position: &Position,
        color: Color,
        limits: &Limits<'_>,
    ) -> Option<Prediction> {
        if position.status().is_over() {
            return None;
        }
        let picks = style_picks(position, color, self.known, limits);
        // Where a colour can win at once every sensible player takes or blocks the
        // cell, and a mixing player's pick there says nothing of its style: only
        // quiet turns are scored.
        self.pending = (!Tactics::of(position).is_sharp()).then_some((*position, color, picks));
        let (style, confidence) = self.best();
        let cell = picks.get(style).copied().flatten()?;
        (confidence >= ACT).then_some(Prediction { cell, confidence })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::shell::testing::{four_and_open_three, position};

    /// A quiet middle game: neither colour can win at once.
    fn quiet() -> Position {
        position(
            &[
                ("e5", 'X'),
                ("f5", 'X'),
                ("e6", 'X'),
                ("d4", 'O'),
                ("e4", 'O'),
                ("f6", 'O'),
            ],
            "-",
        )
    }

    fn opening(seed: u64) -> Position {
        let mut position = Position::new();
        let mut rng = Rng::new(seed);
        for _ in 0..4 {
            let empty: Vec<Cell> = position.empty_cells().iter().collect();
            let (Some(&b), Some(&w)) = (rng.choose(&empty), rng.choose(&empty)) else {
                break;
            };
            if position.resolve_turn(b, w).is_err() || position.status().is_over() {
                break;
            }
        }
        position
    }

    #[test]
    fn a_threat_builder_is_recognised_and_predicted() {
        // White plays windows2 throughout; black plays at random. After a game's
        // worth of turns the model names windows2's next pick with confidence.
        let style = &FAMILY[2];
        let mut model = Model::default();
        let mut rng = Rng::new(7);
        let mut position = opening(3);
        let mut predicted = 0;
        let mut right = 0;
        for _ in 0..40 {
            if position.status().is_over() {
                position = opening(rng.next_u64());
            }
            let prediction = model.predict(&position, Color::White, &Limits::depth(0));
            let Some(white) = pick_styled(&position, Color::White, style, &mut Rng::new(0)) else {
                break;
            };
            if let Some(p) = prediction {
                predicted += 1;
                right += usize::from(p.cell == white);
            }
            let empty: Vec<Cell> = position.empty_cells().iter().collect();
            let black = *rng.choose(&empty).expect("an empty cell");
            model.observe(&position, Color::White, white);
            if position.resolve_turn(black, white).is_err() {
                position = opening(rng.next_u64());
            }
        }
        assert!(predicted >= 30, "predicted {predicted} of 40 turns");
        assert_eq!(
            right, predicted,
            "every confident prediction is windows2's pick"
        );
        let (best, confidence) = model.best();
        assert!(confidence > 0.85, "confidence {confidence}");
        assert_eq!(
            model.confidences()[best],
            model.confidences()[2],
            "windows2 predicted best"
        );
    }

    #[test]
    fn two_misses_after_a_long_run_of_hits_silence_the_model() {
        // A table's opponent played windows for 40 turns, then another plays: two
        // picks windows does not make and the model no longer acts.
        let mut model = Model::default();
        let position = quiet();
        let empty: Vec<Cell> = position.empty_cells().iter().collect();
        for _ in 0..40 {
            let picks = style_picks(&position, Color::White, ALL_STYLES, &Limits::depth(0));
            let cell = picks[0].expect("windows picks");
            let _ = model.predict(&position, Color::White, &Limits::depth(0));
            model.observe(&position, Color::White, cell);
        }
        let picks = style_picks(&position, Color::White, ALL_STYLES, &Limits::depth(0));
        assert!(
            model
                .predict(&position, Color::White, &Limits::depth(0))
                .is_some_and(|p| p.confidence > 0.9)
        );
        let other = *empty
            .iter()
            .find(|c| !picks.contains(&Some(**c)))
            .expect("a cell no style picks");
        model.observe(&position, Color::White, other);
        let _ = model.predict(&position, Color::White, &Limits::depth(0));
        model.observe(&position, Color::White, other);
        assert_eq!(
            model.predict(&position, Color::White, &Limits::depth(0)),
            None,
            "confidence {:?}",
            model.best()
        );
    }

    #[test]
    fn a_random_player_gets_no_prediction() {
        let mut model = Model::default();
        let mut rng = Rng::new(11);
        let mut position = opening(5);
        let mut predicted = 0;
        for _ in 0..40 {
            if position.status().is_over() {
                position = opening(rng.next_u64());
            }
            predicted += usize::from(
                model
                    .predict(&position, Color::White, &Limits::depth(0))
                    .is_some(),
            );
            let empty: Vec<Cell> = position.empty_cells().iter().collect();
            let black = *rng.choose(&empty).expect("an empty cell");
            let white = *rng.choose(&empty).expect("an empty cell");
            model.observe(&position, Color::White, white);
            if position.resolve_turn(black, white).is_err() {
                position = opening(rng.next_u64());
            }
        }
        assert!(predicted <= 2, "predicted {predicted} of 40 random picks");
        assert!(model.best().1 < ACT);
    }

    #[test]
    fn only_the_predicted_position_and_colour_are_scored() {
        let sharp = four_and_open_three();
        let mut model = Model::default();
        let _ = model.predict(&sharp, Color::White, &Limits::depth(0));
        let block = crate::ai::shell::windows::pick(&sharp, Color::White).expect("a cell");
        model.observe(&sharp, Color::White, block);
        assert_eq!(
            model.turns(),
            0.0,
            "a turn where a colour can win is not scored"
        );
        let position = quiet();
        let mut model = Model::default();
        let _ = model.predict(&position, Color::White, &Limits::depth(0));
        let cell = position.empty_cells().iter().next().expect("an empty cell");
        model.observe(&position, Color::Black, cell);
        assert_eq!(model.turns(), 0.0, "another colour's pick is not scored");
        model.observe(&Position::new(), Color::White, cell);
        assert_eq!(model.turns(), 0.0, "another position's pick is not scored");
        model.observe(&position, Color::White, cell);
        assert_eq!(model.turns(), 1.0);
        model.observe(&position, Color::White, cell);
        assert_eq!(model.turns(), 1.0, "a prediction is scored once");
    }
}
