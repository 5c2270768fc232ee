//! How long a search may run: a depth, a deadline, a stop flag that the protocol
//! raises when a GUI interrupts, and a cancel flag that a parallel search raises to
//! call its own threads off. Shared by every game's search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The bounds of one search. The search stops at the first bound it reaches and
/// answers with its best result so far.
#[derive(Clone, Copy, Debug)]
pub struct Limits<'a> {
    /// The deepest iteration to run (plies for tree searches).
    pub depth: u32,
    /// When to stop, if there is a clock.
    pub deadline: Option<Instant>,
    /// Raised from outside to stop at once (an interrupt).
    pub stop: Option<&'a AtomicBool>,
    /// Raised by the search itself to call off work in progress (a parallel
    /// search's threads, when another thread's result made theirs moot).
    pub cancel: Option<&'a AtomicBool>,
}

impl Limits<'_> {
    /// Counts one unit of work on `countdown`; every `every` units it looks at the
    /// limits (the clock is too slow to read at every node). True when it looked and
    /// they had expired.
    #[inline(always)]
    pub fn due(&self, countdown: &mut u32, every: u32) -> bool {
        *countdown -= 1;
        if *countdown == 0 {
            *countdown = every;
            self.expired()
        } else {
            false
        }
    }

    /// Only a depth: no clock, no interrupt.
    #[must_use]
    pub fn depth(depth: u32) -> Limits<'static> {
        Limits {
            depth,
            deadline: None,
            stop: None,
            cancel: None,
        }
    }

    /// True once the deadline has passed or the stop or cancel flag is raised.
    #[must_use]
    pub fn expired(&self) -> bool {
        self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) || self.ended()
    }

    /// True once the deadline has passed or the stop flag is raised: the search as a
    /// whole must end (the cancel flag aside).
    #[must_use]
    pub fn ended(&self) -> bool {
        self.stop.is_some_and(|flag| flag.load(Ordering::Relaxed))
            || self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
    }
}
