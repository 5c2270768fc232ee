//! How long a search may run: a depth, a deadline, and a stop flag that the protocol
//! raises when a GUI interrupts. Shared by every game's search.

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
}

impl Limits<'_> {
    /// Only a depth: no clock, no interrupt.
    #[must_use]
    pub fn depth(depth: u32) -> Limits<'static> {
        Limits {
            depth,
            deadline: None,
            stop: None,
        }
    }

    /// True once the deadline has passed or the stop flag is raised.
    #[must_use]
    pub fn expired(&self) -> bool {
        self.stop.is_some_and(|flag| flag.load(Ordering::Relaxed))
            || self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
    }
}
