//! GTP 2 time keeping: `time_settings` and `time_left`, and the share of the time
//! left that one move may use.
//!
//! Times are seconds as GTP sends them. Byo-yomi with `stones` > 0 means `time`
//! seconds for the next `stones` moves; `stones` = 0 in `time_left` means main time.
//! GTP's "byo-yomi time > 0 with 0 stones" in `time_settings` means no limit. After
//! each `genmove` the session subtracts what it spent, so it keeps a fair estimate
//! between `time_left` commands.

use std::time::Duration;

use crate::games::Color;

/// What is left on one side's clock.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Left {
    seconds: f64,
    /// Moves to play in `seconds`; 0 while in main time.
    stones: u32,
}

/// Both clocks, or none when no time control is set.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    left: Option<[Left; 2]>,
    byo_yomi: Option<Left>,
}

/// Held back from every budget for the answer to travel.
const SAFETY: f64 = 0.05;

/// The longest budget one move gets, in seconds (a day, as `movetime`'s largest
/// value): a clock may hold any finite time, but a deadline must stay representable.
const MAX_BUDGET: f64 = 86_400.0;

impl Clock {
    /// `time_settings MAIN BYO_YOMI STONES`.
    pub fn set(&mut self, main: f64, byo_yomi: f64, stones: u32) {
        if main == 0.0 && byo_yomi > 0.0 && stones == 0 {
            *self = Clock::default();
            return;
        }
        let start = if main > 0.0 {
            Left {
                seconds: main,
                stones: 0,
            }
        } else {
            Left {
                seconds: byo_yomi,
                stones,
            }
        };
        self.left = Some([start; 2]);
        self.byo_yomi = (stones > 0).then_some(Left {
            seconds: byo_yomi,
            stones,
        });
    }

    /// `time_left COLOR SECONDS STONES`.
    pub fn left(&mut self, color: Color, seconds: f64, stones: u32) {
        let clocks = self.left.get_or_insert(
            [Left {
                seconds: f64::INFINITY,
                stones: 0,
            }; 2],
        );
        clocks[color.index()] = Left { seconds, stones };
    }

    /// Records `spent` on `color`'s clock after a move.
    pub fn spent(&mut self, color: Color, spent: Duration) {
        let byo_yomi = self.byo_yomi;
        if let Some(clocks) = &mut self.left {
            let left = &mut clocks[color.index()];
            left.seconds = (left.seconds - spent.as_secs_f64()).max(0.0);
            if left.stones > 0 {
                left.stones -= 1;
                if left.stones == 0
                    && let Some(period) = byo_yomi
                {
                    *left = period;
                }
            } else if left.seconds == 0.0
                && let Some(period) = byo_yomi
            {
                *left = period;
            }
        }
    }

    /// The time one move of `color` may take when about `moves_left` moves remain,
    /// or `None` without a time control.
    #[must_use]
    pub fn budget(&self, color: Color, moves_left: u32) -> Option<Duration> {
        let left = self.left?[color.index()];
        if !left.seconds.is_finite() {
            return None;
        }
        let share = if left.stones > 0 {
            left.seconds / f64::from(left.stones)
        } else {
            let main_share = left.seconds / f64::from(moves_left.max(1) + 2);
            // With byo-yomi to fall back on, a main-time move may also use a period.
            match self.byo_yomi {
                Some(period) => main_share.max(period.seconds / f64::from(period.stones.max(1))),
                None => main_share,
            }
        };
        let seconds = ((share * 0.9) - SAFETY).clamp(0.01, MAX_BUDGET);
        Some(Duration::try_from_secs_f64(seconds).unwrap_or(Duration::from_millis(10)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_time_control_means_no_budget() {
        assert_eq!(Clock::default().budget(Color::Black, 10), None);
        let mut clock = Clock::default();
        clock.set(0.0, 5.0, 0);
        assert_eq!(clock.budget(Color::Black, 10), None);
    }

    #[test]
    fn main_time_is_shared_over_the_moves_left() {
        let mut clock = Clock::default();
        clock.set(60.0, 0.0, 0);
        let budget = clock.budget(Color::White, 28).expect("a budget");
        assert!(
            budget < Duration::from_secs(3) && budget > Duration::from_secs(1),
            "{budget:?}"
        );
        clock.left(Color::White, 1.0, 0);
        assert!(clock.budget(Color::White, 28).expect("a budget") < Duration::from_millis(100));
    }

    #[test]
    fn a_huge_clock_gives_a_day_at_most() {
        let mut clock = Clock::default();
        clock.set(1e300, 0.0, 0);
        let day = Duration::from_secs(86_400);
        assert_eq!(clock.budget(Color::Black, 1), Some(day));
        clock.left(Color::White, f64::MAX, 1);
        assert_eq!(clock.budget(Color::White, 1), Some(day));
    }

    #[test]
    fn byo_yomi_divides_the_period() {
        let mut clock = Clock::default();
        clock.set(0.0, 10.0, 5);
        let budget = clock.budget(Color::Black, 30).expect("a budget");
        assert!(budget <= Duration::from_secs(2), "{budget:?}");
        clock.spent(Color::Black, Duration::from_secs(1));
        clock.left(Color::Black, 2.0, 1);
        assert!(clock.budget(Color::Black, 30).expect("a budget") <= Duration::from_secs(2));
    }
}
