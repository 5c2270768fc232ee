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
    /// A node budget: the search stops once it has counted about this many nodes
    /// (looked at with the clock, so it may run a check interval over). Tests use
    /// it to stop a search at a point that does not depend on the machine.
    pub nodes: Option<u64>,
}

impl<'a> Limits<'a> {
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
            nodes: None,
        }
    }

    /// [`Limits::due`] for a search that has counted `nodes` nodes: also true once
    /// they reach the node budget.
    #[inline(always)]
    pub fn due_after(&self, countdown: &mut u32, every: u32, nodes: u64) -> bool {
        *countdown -= 1;
        if *countdown == 0 {
            *countdown = every;
            self.nodes.is_some_and(|budget| nodes >= budget) || self.expired()
        } else {
            false
        }
    }

    /// The same limits for a search that starts after `spent` nodes of the budget.
    #[must_use]
    pub fn after_spending(&self, spent: u64) -> Limits<'a> {
        Limits {
            nodes: self.nodes.map(|budget| budget.saturating_sub(spent)),
            ..*self
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
