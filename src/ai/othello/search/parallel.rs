//! The parallel search: with `threads` > 1 the nodes of the principal line are split (young brothers
//! wait, on the principal line only): a node's first move is searched alone with
//! the full window (splitting its own first move in turn), then the threads take
//! the other moves one at a time from a shared counter and search them with a null
//! window on the best score so far, all through the same transposition tables. A
//! move that fails high calls the others off and is searched again with the full
//! window as the new principal line (split in turn); then the rest is shared out
//! again. One thread runs exactly the sequential search.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::{Entered, INFINITY, PARALLEL_DEPTH, Pass, RootMove, SPLIT_EMPTIES, Searcher, enter};
use crate::ai::Limits;
use crate::ai::othello::eval::DISC;
use crate::ai::othello::tt::Hit;
use crate::games::othello::Board;

/// What the threads of a round of a split node share: the children, the next one
/// to take, the null window and the flag that calls them off after a fail-high.
struct Split<'m> {
    children: &'m [Board],
    /// The indices of the children to search.
    pending: &'m [usize],
    depth: u32,
    alpha: i32,
    /// The next entry of `pending` to take.
    next: AtomicUsize,
    /// Raised when a child failed high.
    high: AtomicBool,
    /// Per thread: its stop flag (raised for all by a fail-high, for a helper when
    /// the search it helps ends), the child it searches and the thread it helps
    /// ([`IDLE`] when none).
    stops: Vec<AtomicBool>,
    working: Vec<AtomicUsize>,
    helping: Vec<AtomicUsize>,
}

/// No child, no thread: an entry of [`Split::working`] or [`Split::helping`].
const IDLE: usize = usize::MAX;

impl Split<'_> {
    /// Calls every thread off.
    fn stop_all(&self) {
        for stop in &self.stops {
            stop.store(true, Ordering::SeqCst);
        }
    }
}

/// A child searched by a thread of a split node: its index, score and the alpha of
/// its null window.
#[derive(Clone, Copy)]
struct Searched {
    index: usize,
    score: i32,
    alpha: i32,
}

impl Searcher<'_> {
    /// [`Searcher::root`] on `threads` threads: the first move by [`Self::split_pvs`],
    /// then the others shared out (see the module notes). The same contract: the
    /// best score, the list re-sorted best first, and after an interrupt only moves
    /// whose search finished count.
    pub(super) fn split_root(
        &mut self,
        moves: &mut [RootMove],
        depth: u32,
        alpha: i32,
        beta: i32,
        incumbent: u32,
    ) -> Pass {
        let first = -self.split_pvs(&moves[0].next, depth - 1, -beta, -alpha);
        if self.aborted {
            return Pass {
                score: -INFINITY,
                beats: false,
            };
        }
        moves[0].score = first;
        if first >= beta {
            return Pass {
                score: first,
                beats: moves[0].square != incumbent,
            };
        }
        let children: Vec<Board> = moves.iter().map(|m| m.next).collect();
        let mut searched = self.search_rest(&children, depth - 1, alpha.max(first), beta);
        searched.push(Searched {
            index: 0,
            score: first,
            alpha,
        });
        // Moves that proved better than their window first, then the higher score,
        // then the earlier move.
        searched.sort_by_key(|s| s.index);
        let proven = |s: &Searched| s.index == 0 || s.score > s.alpha;
        let best = searched
            .iter()
            .copied()
            .reduce(|best, s| {
                if (proven(&s), s.score) > (proven(&best), best.score) {
                    s
                } else {
                    best
                }
            })
            .unwrap_or(searched[0]);
        for s in &searched {
            moves[s.index].score = if s.index == best.index {
                s.score
            } else {
                s.score.min(s.alpha) - 1
            };
        }
        let chosen = moves[best.index];
        let first_square = moves[0].square;
        moves.copy_within(0..best.index, 1);
        moves[0] = chosen;
        // Only a move that beat the first one's window moves ahead of it, so a
        // change of the first move is a proof when the first was the incumbent.
        Pass {
            score: best.score,
            beats: chosen.square != incumbent
                && proven(&best)
                && best.score > alpha
                && (first_square == incumbent || best.score >= beta),
        }
    }

    /// A node on the principal line of a parallel search (window wider than null):
    /// the first move searched alone (by this same function, so the split follows
    /// the line down), the others shared out. Shallow nodes and small endgames are
    /// left to [`Self::pvs`].
    fn split_pvs(&mut self, board: &Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        let empties = board.empty().count_ones();
        let exact = depth >= empties;
        let small = if exact {
            empties < SPLIT_EMPTIES
        } else {
            depth < PARALLEL_DEPTH
        };
        if small || beta - alpha <= 1 {
            return self.pvs(board, depth, alpha, beta);
        }
        self.nodes += 1;
        if self.tick() {
            return 0;
        }
        // Exact nodes read and write the solver's table (in discs).
        let hit = if exact {
            self.end_tt.probe(board).map(|hit| Hit {
                lower: hit.lower * DISC,
                upper: hit.upper * DISC,
                ..hit
            })
        } else {
            self.tt.probe(board)
        };
        let (moves, first) = match enter(board, hit, depth, alpha, beta) {
            Entered::Done(score) => return score,
            Entered::Pass(passed) => return -self.split_pvs(&passed, depth, -beta, -alpha),
            Entered::Moves(moves, first) => (moves, first),
        };
        let count = self.ordered(board, moves, depth, first);
        let (squares, children): (Vec<u32>, Vec<Board>) = self.lists[depth as usize][..count]
            .iter()
            .map(|c| (c.square, c.next))
            .unzip();
        let mut best = -self.split_pvs(&children[0], depth - 1, -beta, -alpha);
        let mut best_square = squares[0];
        if self.aborted {
            return 0;
        }
        if best < beta && count > 1 {
            let mut searched = self.search_rest(&children, depth - 1, alpha.max(best), beta);
            if self.aborted {
                return 0;
            }
            searched.sort_by_key(|s| s.index);
            for s in searched {
                if s.score > best {
                    best = s.score;
                    best_square = squares[s.index];
                }
            }
        }
        if exact {
            let (low, high) = (alpha.div_euclid(DISC), (beta + DISC - 1).div_euclid(DISC));
            self.end_tt
                .store(board, empties, low, high, best / DISC, best_square as u8);
        } else {
            self.tt
                .store(board, depth, alpha, beta, best, best_square as u8);
        }
        best
    }

    /// The moves after the first of a split node: `children[1..]` searched to
    /// `depth` with null windows on `alpha` by every thread ([`Self::share_out`]).
    /// A move that fails high stops the round: this thread searches it again with
    /// the window (its bound, `beta`) by [`Self::split_pvs`], so the split follows
    /// the new principal line, raises `alpha` and shares out what is left. Returns
    /// every finished search (re-searched moves with their new score); stops at a
    /// score at or above `beta`, or when `aborted` is set.
    fn search_rest(
        &mut self,
        children: &[Board],
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> Vec<Searched> {
        let mut pending: Vec<usize> = (1..children.len()).collect();
        let mut results = Vec::new();
        while !pending.is_empty() {
            let done = self.share_out(children, &pending, depth, alpha);
            if self.aborted {
                break;
            }
            // The highest fail-high is searched again; other fail-highs wait for
            // the next round, with the raised alpha.
            let high = done
                .iter()
                .copied()
                .filter(|s| s.score > s.alpha && s.score < beta)
                .reduce(|a, b| if b.score > a.score { b } else { a });
            for s in done {
                if s.score <= s.alpha || s.score >= beta {
                    pending.retain(|&i| i != s.index);
                    results.push(s);
                }
            }
            if results.iter().any(|s| s.score >= beta) {
                break;
            }
            // Without a fail-high every pending move has finished.
            let Some(high) = high else { break };
            let score = -self.split_pvs(&children[high.index], depth, -beta, -high.score);
            if self.aborted {
                break;
            }
            pending.retain(|&i| i != high.index);
            results.push(Searched { score, ..high });
            alpha = alpha.max(score);
            if score >= beta {
                break;
            }
        }
        results
    }

    /// One round of [`Self::search_rest`]: the `pending` children taken one at a
    /// time by every thread, each searched to `depth` with a null window on `alpha`,
    /// until none is left or one fails high. Returns what finished; sets `aborted`
    /// when the limits ended the search (a fail-high only calls the threads off).
    fn share_out(
        &mut self,
        children: &[Board],
        pending: &[usize],
        depth: u32,
        alpha: i32,
    ) -> Vec<Searched> {
        let threads = self.threads as usize;
        let split = Split {
            children,
            pending,
            depth,
            alpha,
            next: AtomicUsize::new(0),
            high: AtomicBool::new(false),
            stops: (0..threads).map(|_| AtomicBool::new(false)).collect(),
            working: (0..threads).map(|_| AtomicUsize::new(IDLE)).collect(),
            helping: (0..threads).map(|_| AtomicUsize::new(IDLE)).collect(),
        };
        let base = self.limits;
        let limits = |me: usize| Limits {
            cancel: split.stops.get(me),
            ..base
        };
        let mut searched = Vec::new();
        let mut aborted = false;
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|me| {
                    let mut helper = self.worker(limits(me));
                    let split = &split;
                    scope.spawn(move || {
                        let done = helper.take_moves(split, me);
                        (done, helper.nodes, helper.aborted)
                    })
                })
                .collect();
            let mut main = self.worker(limits(0));
            searched.extend(main.take_moves(&split, 0));
            let (mut total, mut longest) = (main.nodes, main.nodes);
            aborted |= main.aborted;
            for helper in helpers {
                // A helper that panicked searched nothing that counts.
                let (done, nodes, stopped) = helper.join().unwrap_or_default();
                searched.extend(done);
                total += nodes;
                longest = longest.max(nodes);
                aborted |= stopped;
            }
            self.nodes += total;
            self.overlap += total - longest;
        });
        if aborted && !split.high.load(Ordering::SeqCst) {
            self.aborted = true;
        }
        searched
    }

    /// Thread `me`'s share of [`Self::share_out`]: children taken one at a time
    /// until none is left, one fails high (which calls everyone off), or the limits
    /// end the search; then it helps a thread still at work ([`Self::help`]).
    fn take_moves(&mut self, split: &Split<'_>, me: usize) -> Vec<Searched> {
        let mut done = Vec::new();
        let alpha = split.alpha;
        loop {
            let next = split.next.fetch_add(1, Ordering::Relaxed);
            let Some(&index) = split.pending.get(next) else {
                break;
            };
            split.working[me].store(index, Ordering::SeqCst);
            let score = -self.pvs(&split.children[index], split.depth, -alpha - 1, -alpha);
            split.working[me].store(IDLE, Ordering::SeqCst);
            for (helper, helped) in split.helping.iter().enumerate() {
                if helped.load(Ordering::SeqCst) == me {
                    split.stops[helper].store(true, Ordering::SeqCst);
                }
            }
            if self.aborted {
                return done;
            }
            done.push(Searched {
                index,
                score,
                alpha,
            });
            if score > alpha {
                split.high.store(true, Ordering::SeqCst);
                split.stop_all();
                return done;
            }
        }
        for owner in (0..split.working.len()).filter(|&o| o != me) {
            let index = split.working[owner].load(Ordering::SeqCst);
            if index == IDLE {
                continue;
            }
            // Registered first, then checked again: either this thread sees the
            // owner done, or the owner sees this thread and stops it when done.
            split.helping[me].store(owner, Ordering::SeqCst);
            if split.working[owner].load(Ordering::SeqCst) == index {
                self.help(&split.children[index], split.depth, -alpha - 1, -alpha);
            }
            split.helping[me].store(IDLE, Ordering::SeqCst);
            // Called off because the owner finished: only the limits count.
            self.aborted = self.limits.ended();
            break;
        }
        done
    }

    /// Helps another thread that searches `board` to `depth` with the window
    /// (`alpha`, `beta`). The owner most often refutes `board` with its first moves,
    /// each of whose replies must then all be searched: so this thread takes the
    /// moves of `board` first to last like the owner, and for each searches its
    /// replies last to first with the owner's windows, then the move itself, which
    /// the table then mostly answers. The owner, going first to last, finds what this
    /// thread finished in the shared tables. Its scores are not used; the owner's
    /// stop ends it.
    fn help(&mut self, board: &Board, depth: u32, alpha: i32, beta: i32) {
        let moves = board.moves();
        if depth < 2 || moves == 0 {
            return;
        }
        let count = self.ordered(board, moves, depth, None);
        let children: Vec<Board> = self.lists[depth as usize][..count]
            .iter()
            .map(|c| c.next)
            .collect();
        for child in &children {
            // The child's window is (-beta, -alpha), its replies' (alpha, beta).
            let replies = child.moves();
            if replies != 0 {
                let count = self.ordered(child, replies, depth - 1, None);
                let replies: Vec<Board> = self.lists[depth as usize - 1][..count]
                    .iter()
                    .rev()
                    .map(|c| c.next)
                    .collect();
                for reply in &replies {
                    let _ = self.pvs(reply, depth - 2, alpha, beta);
                    if self.aborted {
                        return;
                    }
                }
            }
            let _ = self.pvs(child, depth - 1, -beta, -alpha);
            if self.aborted {
                return;
            }
        }
    }
}
