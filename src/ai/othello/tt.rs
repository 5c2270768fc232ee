//! The transposition table: bounds on the score of boards already searched.
//!
//! Each entry keeps the whole board (`player`, `opponent`), so a probe never returns
//! the entry of another board: two boards that share a slot only evict each other.
//! Slots come in buckets of two: the first keeps the deeper result, the second the
//! latest. An entry holds a lower and an upper bound, the depth they were searched to
//! and the best move found (or [`NO_MOVE`]).

use crate::games::othello::Board;

/// The move field of an entry without a best move.
pub const NO_MOVE: u8 = 64;

/// The largest table in MiB: a larger `hash` option is read as this (filling the
/// table takes time out of the move).
pub const MAX_MIB: u32 = 1024;

/// One stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub player: u64,
    pub opponent: u64,
    pub lower: i16,
    pub upper: i16,
    pub depth: u8,
    pub best: u8,
    /// The search (generation) that wrote the entry; older entries go first.
    pub age: u8,
}

impl Entry {
    const EMPTY: Entry = Entry {
        player: 0,
        opponent: 0,
        lower: i16::MIN,
        upper: i16::MAX,
        depth: 0,
        best: NO_MOVE,
        age: 0,
    };

    fn holds(&self, board: &Board) -> bool {
        self.player == board.player && self.opponent == board.opponent
    }
}

/// What a probe tells the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub lower: i32,
    pub upper: i32,
    pub depth: u32,
    /// The best move, if one was stored.
    pub best: Option<u32>,
}

impl Hit {
    /// The score that ends the search of this node in the window (`alpha`, `beta`),
    /// if the stored bounds already decide it: a lower bound at or above `beta`, an
    /// exact score, or an upper bound at or below `alpha`.
    #[must_use]
    pub fn cutoff(&self, alpha: i32, beta: i32) -> Option<i32> {
        if self.lower >= beta || self.lower == self.upper {
            Some(self.lower)
        } else if self.upper <= alpha {
            Some(self.upper)
        } else {
            None
        }
    }
}

/// A fixed-size table of `2^bits` buckets of two entries.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
}

/// A well-mixed hash of a board (a multiply-xorshift of both sets).
#[inline]
#[must_use]
pub fn hash(board: &Board) -> u64 {
    let mut h = board.player.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ board
            .opponent
            .rotate_left(23)
            .wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    h ^= h >> 29;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ (h >> 32)
}

impl Table {
    /// A table of about `mib` MiB, at most [`MAX_MIB`] (rounded down to a power of two
    /// buckets; at least one bucket).
    #[must_use]
    pub fn with_mib(mib: u32) -> Table {
        let bytes = u64::from(mib.min(MAX_MIB)) * 1024 * 1024;
        let bucket = 2 * std::mem::size_of::<Entry>() as u64;
        let buckets = (bytes / bucket).max(1);
        Table::with_buckets(1 << (63 - buckets.leading_zeros()))
    }

    /// A table of `buckets` buckets (a power of two, at least 1; other values are
    /// rounded down). Tiny tables force collisions in tests.
    #[must_use]
    pub fn with_buckets(buckets: usize) -> Table {
        let buckets = if buckets <= 1 {
            1
        } else {
            1 << (usize::BITS - 1 - buckets.leading_zeros())
        };
        // Memory that cannot be had halves the table rather than aborting.
        let mut buckets = buckets;
        let mut entries = Vec::new();
        while buckets > 1 && entries.try_reserve_exact(buckets * 2).is_err() {
            buckets /= 2;
        }
        entries.resize(buckets * 2, Entry::EMPTY);
        Table {
            entries,
            mask: buckets - 1,
            age: 0,
        }
    }

    /// Starts a new search: entries from older searches are replaced first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn bucket(&self, board: &Board) -> usize {
        (hash(board) as usize & self.mask) * 2
    }

    /// The stored bounds of `board`, if any.
    #[inline]
    #[must_use]
    pub fn probe(&self, board: &Board) -> Option<Hit> {
        let i = self.bucket(board);
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.holds(board))
            .map(|e| Hit {
                lower: i32::from(e.lower),
                upper: i32::from(e.upper),
                depth: u32::from(e.depth),
                best: (e.best < NO_MOVE).then_some(u32::from(e.best)),
            })
    }

    /// Stores the result of a search of `board` to `depth` with window
    /// (`alpha`, `beta`) that returned `score` with best move `best`.
    #[inline]
    pub fn store(
        &mut self,
        board: &Board,
        depth: u32,
        alpha: i32,
        beta: i32,
        score: i32,
        best: u8,
    ) {
        let score = score.clamp(i32::from(i16::MIN) + 1, i32::from(i16::MAX) - 1) as i16;
        let depth = depth.min(255) as u8;
        let age = self.age;
        let i = self.bucket(board);
        let slot = {
            let pair = &self.entries[i..i + 2];
            if pair[0].holds(board) {
                i
            } else if pair[1].holds(board) {
                i + 1
            } else if pair[0].age != age || depth >= pair[0].depth {
                // The deep slot takes a deeper (or fresher) result; its old entry
                // moves to the second slot.
                self.entries[i + 1] = self.entries[i];
                self.entries[i] = Entry::EMPTY;
                i
            } else {
                i + 1
            }
        };
        let entry = &mut self.entries[slot];
        if !entry.holds(board) || entry.depth != depth {
            *entry = Entry {
                player: board.player,
                opponent: board.opponent,
                depth,
                ..Entry::EMPTY
            };
        }
        entry.age = age;
        let exact = i32::from(score);
        if exact < beta {
            entry.upper = score;
        }
        if exact > alpha {
            entry.lower = score;
        }
        if best < NO_MOVE {
            entry.best = best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(n: u64) -> Board {
        Board {
            player: n,
            opponent: n << 32 | 1 << 63,
        }
    }

    #[test]
    fn a_one_bucket_table_never_confuses_boards() {
        let mut table = Table::with_buckets(1);
        for n in 1..50u64 {
            table.store(&board(n), 5, -100, 100, n as i32, (n % 64) as u8);
            let hit = table.probe(&board(n)).expect("just stored");
            assert_eq!((hit.lower, hit.upper), (n as i32, n as i32));
            for m in 1..n.saturating_sub(2) {
                assert!(table.probe(&board(m)).is_none(), "{m} was evicted");
            }
        }
    }

    #[test]
    fn bounds_follow_the_window() {
        let mut table = Table::with_buckets(4);
        let b = board(7);
        table.store(&b, 3, 0, 10, -4, NO_MOVE);
        let hit = table.probe(&b).expect("stored");
        assert_eq!(
            (hit.lower, hit.upper, hit.best),
            (i32::from(i16::MIN), -4, None)
        );
        table.store(&b, 3, -20, -15, -12, 9);
        let hit = table.probe(&b).expect("stored");
        assert_eq!((hit.lower, hit.upper, hit.best), (-12, -4, Some(9)));
        table.store(&b, 4, -20, 20, 5, 9);
        let hit = table.probe(&b).expect("stored");
        assert_eq!((hit.lower, hit.upper, hit.depth), (5, 5, 4));
    }
}
