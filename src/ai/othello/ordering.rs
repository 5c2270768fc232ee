//! The move lists of the midgame search and the exact solver: each node writes its
//! moves with the board after each and an ordering key into a fixed list, kept
//! sorted by insertion (lists are short), and searches them in that order.
//!
//! A search keeps one list per remaining depth (or number of empties), reused by
//! every node there: a node's children use other lists, so no list is ever
//! allocated inside the recursion once the deepest has been made.

use crate::games::othello::Board;

/// One move of a list: its square, the board after it, its key (lower keys are
/// searched first) and the legal moves of `next` where the list's maker computed
/// them for the key (the exact solver; the midgame search leaves 0).
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    pub square: u32,
    pub next: Board,
    pub key: i32,
    pub replies: u64,
}

/// A list of at most 32 moves (no position has more legal moves).
pub type MoveList = [Candidate; 32];

/// An unused slot of a list.
const NO_CANDIDATE: Candidate = Candidate {
    square: 0,
    next: Board {
        player: 0,
        opponent: 0,
    },
    key: 0,
    replies: 0,
};

/// An empty list.
pub const EMPTY_LIST: MoveList = [NO_CANDIDATE; 32];

/// Inserts `candidate` among the first `count` entries of `list`, which are sorted
/// by key: after every entry with a key at or below its own, so that equal keys
/// keep the order of insertion.
#[inline(always)]
pub fn insert(list: &mut MoveList, count: usize, candidate: Candidate) {
    let mut i = count;
    while i > 0 && list[i - 1].key > candidate.key {
        list[i] = list[i - 1];
        i -= 1;
    }
    list[i] = candidate;
}

/// The list of `slot` in `lists`, made (with those before it) on first use.
#[inline]
pub fn list_at(lists: &mut Vec<MoveList>, slot: usize) -> &mut MoveList {
    if lists.len() <= slot {
        lists.resize(slot + 1, EMPTY_LIST);
    }
    &mut lists[slot]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insertion_sorts_by_key_and_keeps_equal_keys_in_order() {
        let mut list = EMPTY_LIST;
        let keys = [5, -3, 5, 0, i32::MIN, 5, -3];
        for (square, &key) in keys.iter().enumerate() {
            let candidate = Candidate {
                square: square as u32,
                key,
                ..EMPTY_LIST[0]
            };
            insert(&mut list, square, candidate);
        }
        let order: Vec<(i32, u32)> = list[..keys.len()]
            .iter()
            .map(|c| (c.key, c.square))
            .collect();
        assert_eq!(
            order,
            [
                (i32::MIN, 4),
                (-3, 1),
                (-3, 6),
                (0, 3),
                (5, 0),
                (5, 2),
                (5, 5)
            ]
        );
    }

    #[test]
    fn lists_are_made_on_first_use_and_kept() {
        let mut lists = Vec::new();
        list_at(&mut lists, 3)[0].key = 7;
        assert_eq!(lists.len(), 4);
        assert_eq!(list_at(&mut lists, 1)[0].key, 0);
        assert_eq!(list_at(&mut lists, 3)[0].key, 7);
        assert_eq!(lists.len(), 4);
    }
}
