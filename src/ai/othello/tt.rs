//! The transposition table: bounds on the score of boards already searched, shared
//! by the threads of a parallel search.
//!
//! Each entry keeps the whole board (`player`, `opponent`), so a probe never returns
//! the entry of another board: two boards that share a slot only evict each other.
//! Slots come in buckets of two: the first keeps the deeper result, the second the
//! latest. An entry holds a lower and an upper bound, the depth they were searched to
//! and the best move found (or [`NO_MOVE`]).
//!
//! A slot is three atomic words: each half of the board and the entry's data packed
//! in one word. A table for one thread ([`Access::Exclusive`], the default) stores
//! them as they are. A shared table ([`Access::Shared`]) is read and written by
//! several threads without locks: each half of the board is stored XOR a hash of
//! the data (the lockless hashing of Hyatt and Mann), so the words of a write torn
//! by another thread's write do not decode to the probed board, and a probe sees a
//! whole entry or none; a lost update only loses a bound. Either way the table
//! behaves, for one thread, exactly as a plain array of entries.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::games::othello::Board;

/// The move field of an entry without a best move.
pub const NO_MOVE: u8 = 64;

/// The largest table in MiB: a larger size is read as this.
pub const MAX_MIB: u32 = 65_536;

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

    /// Everything but the board, in one word.
    fn data(&self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.depth) << 32
            | u64::from(self.best) << 40
            | u64::from(self.age) << 48
    }

    fn from_words(player: u64, opponent: u64, data: u64) -> Entry {
        Entry {
            player,
            opponent,
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8,
            best: (data >> 40) as u8,
            age: (data >> 48) as u8,
        }
    }
}

/// Spreads the data word over all 64 bits, so that boards XOR two different data
/// words never decode to a real board by accident.
#[inline]
fn scramble(data: u64) -> u64 {
    let h = (data ^ data >> 29).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ h >> 32
}

/// Who may use a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// One thread at a time: entries stored as they are.
    Exclusive,
    /// Several threads at once: entries checked against torn writes.
    Shared,
}

impl Access {
    /// What the board words of an entry with `data` are stored XOR.
    #[inline]
    fn key(self, data: u64) -> u64 {
        match self {
            Access::Exclusive => 0,
            Access::Shared => scramble(data),
        }
    }
}

/// One slot: an [`Entry`] as three words (see the module notes).
struct Slot {
    player: AtomicU64,
    opponent: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    fn new(entry: &Entry, access: Access) -> Slot {
        let data = entry.data();
        let key = access.key(data);
        Slot {
            player: AtomicU64::new(entry.player ^ key),
            opponent: AtomicU64::new(entry.opponent ^ key),
            data: AtomicU64::new(data),
        }
    }

    /// The entry as read now (its board fields are garbage if a write tore it).
    #[inline]
    fn load(&self, access: Access) -> Entry {
        let data = self.data.load(Ordering::Relaxed);
        let key = access.key(data);
        Entry::from_words(
            self.player.load(Ordering::Relaxed) ^ key,
            self.opponent.load(Ordering::Relaxed) ^ key,
            data,
        )
    }

    #[inline]
    fn save(&self, entry: &Entry, access: Access) {
        let data = entry.data();
        let key = access.key(data);
        self.player.store(entry.player ^ key, Ordering::Relaxed);
        self.opponent.store(entry.opponent ^ key, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
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

/// Asks the kernel to back the 2 MiB-aligned part of the `bytes` at `start` with
/// 2 MiB pages, before they are first written. A probe lands on a random bucket of
/// a table of many MiB, which with 4 KiB pages misses the TLB almost every time and
/// waits for a page walk; with 2 MiB pages the whole table fits the TLB. Only a
/// hint: where the kernel has no such pages the table is the same.
fn advise_huge_pages(start: *const u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let begin = (start as usize).next_multiple_of(HUGE);
        let end = (start as usize + bytes) / HUGE * HUGE;
        if end > begin {
            // SAFETY: the range lies inside one allocation of ours, and
            // MADV_HUGEPAGE changes no contents; a refusal is harmless.
            let _ = unsafe {
                libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE)
            };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

/// A fixed-size table of `2^bits` buckets of two entries.
pub struct Table {
    slots: Vec<Slot>,
    mask: usize,
    age: u8,
    access: Access,
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
    /// A table for one thread of about `mib` MiB, at most [`MAX_MIB`] (rounded down
    /// to a power of two buckets; at least one bucket).
    #[must_use]
    pub fn with_mib(mib: u32) -> Table {
        Table::build(Table::buckets_in(mib), Access::Exclusive)
    }

    /// A table of about `mib` MiB for several threads at once.
    #[must_use]
    pub fn shared_with_mib(mib: u32) -> Table {
        Table::build(Table::buckets_in(mib), Access::Shared)
    }

    /// The bytes a table of about `mib` MiB takes.
    #[must_use]
    pub fn bytes_for_mib(mib: u32) -> u64 {
        Table::buckets_in(mib) as u64 * 2 * std::mem::size_of::<Slot>() as u64
    }

    fn buckets_in(mib: u32) -> usize {
        let bytes = u64::from(mib.min(MAX_MIB)) * 1024 * 1024;
        let bucket = 2 * std::mem::size_of::<Slot>() as u64;
        let buckets = (bytes / bucket).max(1);
        1 << (63 - buckets.leading_zeros())
    }

    /// A table for one thread of `buckets` buckets (a power of two, at least 1; other
    /// values are rounded down). Tiny tables force collisions in tests.
    #[must_use]
    pub fn with_buckets(buckets: usize) -> Table {
        Table::build(buckets, Access::Exclusive)
    }

    /// Makes the table safe to share between threads, keeping its entries.
    pub fn share(&mut self) {
        if self.access == Access::Shared {
            return;
        }
        for slot in &self.slots {
            slot.save(&slot.load(Access::Exclusive), Access::Shared);
        }
        self.access = Access::Shared;
    }

    /// Who may use the table.
    #[must_use]
    pub fn access(&self) -> Access {
        self.access
    }

    fn build(buckets: usize, access: Access) -> Table {
        let buckets = if buckets <= 1 {
            1
        } else {
            1 << (usize::BITS - 1 - buckets.leading_zeros())
        };
        // Memory that cannot be had halves the table rather than aborting.
        let mut buckets = buckets;
        let mut slots: Vec<Slot> = Vec::new();
        while buckets > 1 && slots.try_reserve_exact(buckets * 2).is_err() {
            buckets /= 2;
        }
        advise_huge_pages(
            slots.as_ptr().cast(),
            buckets * 2 * std::mem::size_of::<Slot>(),
        );
        slots.extend((0..buckets * 2).map(|_| Slot::new(&Entry::EMPTY, access)));
        Table {
            slots,
            mask: buckets - 1,
            age: 0,
            access,
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

    /// Starts loading the bucket of `board` into the cache, for a probe or store of
    /// it soon after: a node that looks up all its children at once lets the
    /// memory fetch them side by side instead of one after the other.
    #[inline]
    pub fn prefetch(&self, board: &Board) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot = &self.slots[self.bucket(board)];
            // SAFETY: a prefetch only hints the cache, reads nothing and cannot
            // fault; the address is that of a slot of the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(slot).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = board;
    }

    /// The stored bounds of `board`, if any.
    #[inline]
    #[must_use]
    pub fn probe(&self, board: &Board) -> Option<Hit> {
        let i = self.bucket(board);
        self.slots[i..i + 2]
            .iter()
            .map(|slot| slot.load(self.access))
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
    pub fn store(&self, board: &Board, depth: u32, alpha: i32, beta: i32, score: i32, best: u8) {
        let score = score.clamp(i32::from(i16::MIN) + 1, i32::from(i16::MAX) - 1) as i16;
        let depth = depth.min(255) as u8;
        let age = self.age;
        let i = self.bucket(board);
        let access = self.access;
        let pair = [self.slots[i].load(access), self.slots[i + 1].load(access)];
        let (slot, mut entry) = if pair[0].holds(board) {
            (i, pair[0])
        } else if pair[1].holds(board) {
            (i + 1, pair[1])
        } else if pair[0].age != age || depth >= pair[0].depth {
            // The deep slot takes a deeper (or fresher) result; its old entry
            // moves to the second slot.
            self.slots[i + 1].save(&pair[0], access);
            (i, Entry::EMPTY)
        } else {
            (i + 1, pair[1])
        };
        if !entry.holds(board) || entry.depth != depth {
            entry = Entry {
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
        self.slots[slot].save(&entry, access);
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
        let table = Table::with_buckets(1);
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
    fn a_slot_torn_between_two_writes_holds_neither_board() {
        // Every mix of the words of two entries (what a reader can see while another
        // thread overwrites the slot) decodes to neither board.
        let entry = |n: u64, score: i16| Entry {
            player: board(n).player,
            opponent: board(n).opponent,
            lower: score,
            upper: score,
            depth: 3,
            best: 5,
            age: 0,
        };
        let (a, b) = (entry(5, 10), entry(5 | 1 << 20, -10));
        let (old, new) = (Slot::new(&a, Access::Shared), Slot::new(&b, Access::Shared));
        let words = |slot: &Slot| {
            [
                slot.player.load(Ordering::Relaxed),
                slot.opponent.load(Ordering::Relaxed),
                slot.data.load(Ordering::Relaxed),
            ]
        };
        let (x, y) = (words(&old), words(&new));
        for mask in 1..7 {
            let pick = |i: usize| if mask >> i & 1 == 1 { y[i] } else { x[i] };
            let torn = Slot {
                player: AtomicU64::new(pick(0)),
                opponent: AtomicU64::new(pick(1)),
                data: AtomicU64::new(pick(2)),
            };
            let seen = torn.load(Access::Shared);
            for e in [a, b] {
                let held = Board {
                    player: e.player,
                    opponent: e.opponent,
                };
                assert!(!seen.holds(&held), "mix {mask} reads as {e:?}");
            }
        }
        assert_eq!(old.load(Access::Shared), a);
        assert_eq!(new.load(Access::Shared), b);
    }

    #[test]
    fn threads_sharing_one_bucket_only_ever_read_whole_entries() {
        // Four threads write and read 64 boards through one bucket, each stored with
        // a score and move made from its board: a torn entry would show up as a hit
        // whose data belongs to another board.
        let mut table = Table::with_buckets(1);
        table.share();
        let data = |n: u64| (n as i32 * 7 - 200, (n % 64) as u8);
        let hits = std::sync::atomic::AtomicU64::new(0);
        let start = std::sync::Barrier::new(4);
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let (table, hits, start) = (&table, &hits, &start);
                scope.spawn(move || {
                    start.wait();
                    for round in 0..200_000u64 {
                        let n = 1 + (round * 5 + t * 17) % 64;
                        let (score, best) = data(n);
                        table.store(&board(n), 4, -1000, 1000, score, best);
                        let m = 1 + (round * 3 + t) % 64;
                        if let Some(hit) = table.probe(&board(m)) {
                            let (score, best) = data(m);
                            assert_eq!((hit.lower, hit.upper), (score, score), "board {m}");
                            assert_eq!(hit.best, Some(u32::from(best)), "board {m}");
                            hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert!(hits.into_inner() > 0, "some probes hit");
    }

    #[test]
    fn a_shared_table_keeps_the_entries_it_had() {
        let mut table = Table::with_buckets(8);
        for n in 1..6u64 {
            table.store(&board(n), 3, -100, 100, n as i32, n as u8);
        }
        let before: Vec<Option<Hit>> = (1..6).map(|n| table.probe(&board(n))).collect();
        assert!(before.iter().all(Option::is_some));
        table.share();
        assert_eq!(table.access(), Access::Shared);
        let after: Vec<Option<Hit>> = (1..6).map(|n| table.probe(&board(n))).collect();
        assert_eq!(before, after);
        // The words are stored differently: an exclusive reading fails.
        let first = table.slots.iter().map(|slot| slot.load(Access::Exclusive));
        assert!(first.filter(|e| e.holds(&board(1))).count() == 0);
    }

    #[test]
    fn bounds_follow_the_window() {
        let table = Table::with_buckets(4);
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
