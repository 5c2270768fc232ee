//! GTP 2 time keeping: `time_settings`, KGS's `kgs-time_settings` and `time_left`,
//! and the share of the time left that one move may use.
//!
//! Times are seconds as GTP sends them. A [`TimeSystem`] sets both clocks: main time,
//! then byo-yomi periods (`stones` moves in `seconds`; Japanese byo-yomi is a period
//! of one move), or an increment added after each own move (Fischer), or nothing (no
//! limit). `stones` = 0 in `time_left` means main time. After each `genmove` the
//! session subtracts what it spent (and adds the increment), so it keeps a fair
//! estimate between `time_left` commands.

use std::time::Duration;

use crate::games::Color;
use crate::protocol::command::TimeSystem;

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
    /// Seconds added after each own move (Fischer), 0 otherwise.
    increment: f64,
}

/// Held back from every budget for the answer to travel.
const SAFETY: f64 = 0.05;

/// The longest budget one move gets, in seconds (a day, as `movetime`'s largest
/// value): a clock may hold any finite time, but a deadline must stay representable.
const MAX_BUDGET: f64 = 86_400.0;

impl Clock {
    /// Sets both clocks to `system`, full.
    pub fn set(&mut self, system: TimeSystem) {
        let (main, period, increment) = match system {
            TimeSystem::None => {
                *self = Clock::default();
                return;
            }
            TimeSystem::Absolute { main } => (main, None, 0.0),
            TimeSystem::Byoyomi {
                main,
                period,
                periods,
            } => (main, (periods > 0).then_some((period, 1)), 0.0),
            TimeSystem::Canadian {
                main,
                byo_yomi,
                stones,
            } => (main, (stones > 0).then_some((byo_yomi, stones)), 0.0),
            TimeSystem::Fischer { main, increment } => (main, None, increment),
        };
        let byo_yomi = period.map(|(seconds, stones)| Left { seconds, stones });
        let start = match byo_yomi {
            Some(period) if main == 0.0 => period,
            _ => Left {
                seconds: main,
                stones: 0,
            },
        };
        *self = Clock {
            left: Some([start; 2]),
            byo_yomi,
            increment,
        };
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
        let increment = self.increment;
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
            } else if left.seconds > 0.0 {
                left.seconds += increment;
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
            // With byo-yomi to fall back on, a main-time move may also use a period;
            // with an increment, the increment comes back after the move.
            match self.byo_yomi {
                Some(period) => main_share.max(period.seconds / f64::from(period.stones.max(1))),
                None => (main_share + self.increment).min(left.seconds / 2.0),
            }
        };
        let seconds = ((share * 0.9) - SAFETY).clamp(0.01, MAX_BUDGET);
        Some(Duration::try_from_secs_f64(seconds).unwrap_or(Duration::from_millis(10)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gtp(main: f64, byo_yomi: f64, stones: u32) -> TimeSystem {
        TimeSystem::from_gtp(main, byo_yomi, stones)
    }

    #[test]
    fn no_time_control_means_no_budget() {
        assert_eq!(Clock::default().budget(Color::Black, 10), None);
        let mut clock = Clock::default();
        clock.set(gtp(0.0, 5.0, 0));
        assert_eq!(clock.budget(Color::Black, 10), None);
        clock.set(gtp(60.0, 0.0, 0));
        clock.set(TimeSystem::None);
        assert_eq!(clock, Clock::default());
    }

    /// Regression: `time_settings 60 5 0` was read as 60 s plus 5 s a move; GTP 2
    /// says byo-yomi time with no stones is no time limit, whatever the main time.
    #[test]
    fn byo_yomi_time_without_stones_is_no_limit() {
        let mut clock = Clock::default();
        clock.set(gtp(60.0, 5.0, 0));
        assert_eq!(clock, Clock::default());
        assert_eq!(clock.budget(Color::White, 28), None);
    }

    #[test]
    fn fischer_adds_the_increment_after_each_move() {
        let mut clock = Clock::default();
        clock.set(TimeSystem::Fischer {
            main: 60.0,
            increment: 5.0,
        });
        let absolute = {
            let mut c = Clock::default();
            c.set(gtp(60.0, 0.0, 0));
            c
        };
        let with = clock.budget(Color::Black, 28).expect("a budget");
        let without = absolute.budget(Color::Black, 28).expect("a budget");
        // 60 / 30 + 5 = 7 s against 2 s, less the margins.
        assert!(
            with > without + Duration::from_secs(4),
            "{with:?} {without:?}"
        );
        clock.spent(Color::Black, Duration::from_secs(10));
        clock.left(Color::White, 4.0, 0);
        // 60 - 10 + 5: the next share is taken from 55 s.
        let mut expected = Clock::default();
        expected.set(TimeSystem::Fischer {
            main: 55.0,
            increment: 5.0,
        });
        assert_eq!(
            clock.budget(Color::Black, 28),
            expected.budget(Color::Black, 28)
        );
        // A nearly empty clock never gives more than half of what is left.
        let budget = clock.budget(Color::White, 28).expect("a budget");
        assert!(budget <= Duration::from_secs(2), "{budget:?}");
    }

    #[test]
    fn japanese_byo_yomi_gives_a_period_a_move() {
        let mut clock = Clock::default();
        clock.set(TimeSystem::Byoyomi {
            main: 0.0,
            period: 10.0,
            periods: 3,
        });
        let budget = clock.budget(Color::Black, 30).expect("a budget");
        assert!(
            budget > Duration::from_secs(8) && budget < Duration::from_secs(10),
            "{budget:?}"
        );
    }

    #[test]
    fn main_time_is_shared_over_the_moves_left() {
        let mut clock = Clock::default();
        clock.set(gtp(60.0, 0.0, 0));
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
        clock.set(gtp(1e300, 0.0, 0));
        let day = Duration::from_secs(86_400);
        assert_eq!(clock.budget(Color::Black, 1), Some(day));
        clock.left(Color::White, f64::MAX, 1);
        assert_eq!(clock.budget(Color::White, 1), Some(day));
    }

    #[test]
    fn byo_yomi_divides_the_period() {
        let mut clock = Clock::default();
        clock.set(gtp(0.0, 10.0, 5));
        let budget = clock.budget(Color::Black, 30).expect("a budget");
        assert!(budget <= Duration::from_secs(2), "{budget:?}");
        clock.spent(Color::Black, Duration::from_secs(1));
        clock.left(Color::Black, 2.0, 1);
        assert!(clock.budget(Color::Black, 30).expect("a budget") <= Duration::from_secs(2));
    }
}
