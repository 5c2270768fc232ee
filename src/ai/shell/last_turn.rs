//! The last turn before the exact solver's cut, valued without resolving most joint
//! picks.
//!
//! With one turn left, a joint pick is worth what the turn's win check says (S9):
//! +1, −1, or 0 for a line that goes on (cut as a draw) or a full board. At an ongoing
//! position both colours count the same winning turtles, so:
//!
//! - a **collision** (S4) is worth 0: it lays an egg, captures nothing and hatches
//!   nothing, and the counts stay equal;
//! - a **quiet** pair, where neither new turtle captures (S5), changes nothing but the
//!   two cells: black's count then depends on black's pick alone (a turtle raises its
//!   colour's count only on a cell completing a five, and the other colour's turtle
//!   touches no black line) and white's on white's, so the pair is worth the sign of
//!   the difference of the two counts, each computed once per pick;
//! - a **loud** pair, where a new turtle captures, is resolved by the rules, unless
//!   only one colour captures and the counts already decide it (the capturer's
//!   turtles only grow, the other's only shrink), or the other's pick lies off the
//!   capturer's steps: then the capturer's lone turtle, settled once per pick, gives
//!   the value. A resolved pair is remembered for the position.
//!
//! From equal counts of zero, a colour wins only by ending the turn with a five, which
//! must lie within its turtles, its pick and the eggs (hatching is the only other way
//! a cell becomes its turtle); a pair where neither colour can is worth 0 unresolved,
//! and so is one where both capture alike at the first step and neither pick
//! completes a five (equal claims vanish, so no egg hatches).
//!
//! A pick captures whatever the other does when its capture pattern is on the board
//! already; otherwise it captures only when the other's new turtle is one of the two
//! flanked cells and the other flanked cell already holds a stone not its own (an
//! anticipatory capture, S7). Those pairs are listed per pick.
//!
//! The serialized values follow at once: the second mover can always collide with
//! the first mover's pick, so with black committing first black gets at most 0, and
//! −1 exactly when every black pick has a white answer that wins (white first: at
//! least 0, +1 when every white pick has a black answer that wins); the first mover
//! holds 0 without the turn being built when at most one cell may both win for the
//! second and complete its five or capture ([`LastTurn::held`]). Where they
//! differ, the matrix game of the joint picks is solved by double oracle, with the
//! loud pairs bounded before any is resolved.

use super::candidates::{capture_cells, capture_rays, five_holes};
use super::exact;
use crate::games::shell::cell::{BOARD, Dir};
use crate::games::shell::position::{cells_in_fives, has_five};
use crate::games::shell::{Cell, CellSet, Position};
use crate::games::{Color, Status};

/// One ongoing position's last turn. Reused from position to position
/// ([`LastTurn::set`]): it is large, and clearing it whole would cost more than
/// filling it.
pub(crate) struct LastTurn {
    position: Position,
    empty: u128,
    /// Winning turtles of each colour now (equal: the game is on).
    base: u32,
    /// Per colour, the picks that raise its count (they complete a five).
    holes: [u128; 2],
    /// Per colour and cell index, the count with a turtle of that colour added there
    /// (meaningful on the colour's holes).
    raised: [[u8; 81]; 2],
    /// Per colour, the picks that capture whatever the other colour picks.
    captures: [u128; 2],
    /// Per colour and cell index, the captures a pick there makes whatever the other
    /// colour picks (meaningful on `captures`).
    rays: [[u8; 81]; 2],

    /// Per colour and pick (cell index), the other colour's picks through which it
    /// captures (an anticipatory capture, S7).
    through: [[u128; 81]; 2],
    /// Per colour, the picks with an entry in `through`.
    anticipating: [u128; 2],
    /// Per colour and the other colour's pick (cell index), that colour's picks
    /// capturing through it: `through` read the other way.
    through_by: [[u128; 81]; 2],
    /// Per colour, the picks after which it may hold a five at all: its turtles, the
    /// pick and every egg (an egg may hatch its way) hold one.
    possible: [u128; 2],

    /// The resolved loud pairs' values, by black's cell index · 81 + white's: the
    /// value + 1 in the low two bits, the generation above (an entry of another
    /// generation is unknown).
    resolved: [u32; 81 * 81],
    /// This position's generation, advanced by [`LastTurn::set`].
    generation: u32,
    /// Per colour and cell index, a lone turtle's turn ([`LastTurn::lone`]): the
    /// generation it was found in, black's value, and the cells near its new turtles.
    lone: [[(u32, i8, u128); 81]; 2],
}

/// The cells `x` with `x + steps·dir` in `mask`.
fn back_by(dir: Dir, mask: u128, steps: u32) -> u128 {
    let back = dir.opposite();
    (0..steps).fold(mask, |m, _| back.shift(m))
}

/// The cells `x + steps·dir` for `x` in `mask`.
fn ahead_by(dir: Dir, mask: u128, steps: u32) -> u128 {
    (0..steps).fold(mask, |m, _| dir.shift(m))
}

/// The empty cells x where a new turtle of the colour owning `own` (the other
/// stones `others`) captures along `dir` only through the other colour's new turtle
/// y: x + 3·dir is its turtle, and of x's two flanked cells one is y (empty now) and
/// the other a stone not its own. Those with y one step along, and those with y two
/// steps along.
#[inline(always)]
fn anticipations(dir: Dir, own: u128, others: u128, empty: u128) -> (u128, u128) {
    let back = dir.opposite();
    let (others1, empty1) = (back.shift(others), back.shift(empty));
    let closer = back.shift(back.shift(back.shift(own)));
    let near = empty & empty1 & back.shift(others1) & closer;
    let far = empty & others1 & back.shift(empty1) & closer;
    (near, far)
}

/// Every cell where a new turtle of the colour owning `own` may capture: on the
/// board as it stands, or through the other colour's new turtle.
fn capturing_cells(own: u128, occupied: u128) -> u128 {
    let (others, empty) = (occupied & !own, BOARD & !occupied);
    let mut cells = capture_cells(own, occupied);
    for dir in Dir::ALL {
        let (near, far) = anticipations(dir, own, others, empty);
        cells |= near | far;
    }
    cells
}

/// The cells of a mask, lowest index first.
fn cells(mask: u128) -> impl Iterator<Item = Cell> {
    CellSet::from_bits(mask).into_iter()
}

impl LastTurn {
    /// The last turn of `position`, which must be ongoing (or in sudden death).
    pub(crate) fn new(position: &Position) -> LastTurn {
        let mut turn = LastTurn {
            position: *position,
            empty: 0,
            base: 0,
            holes: [0; 2],
            raised: [[0; 81]; 2],
            captures: [0; 2],
            rays: [[0; 81]; 2],
            through: [[0; 81]; 2],
            anticipating: [0; 2],
            through_by: [[0; 81]; 2],
            possible: [0; 2],
            resolved: [0; 81 * 81],
            generation: 0,
            lone: [[(0, 0, 0); 81]; 2],
        };
        turn.set(position);
        turn
    }

    /// The picks through which `color` may win the last turn of the ongoing
    /// `position`, told without building the turn; `None` when any pick may (in
    /// sudden death a capture may win, so this says nothing). From counts of zero a
    /// colour wins only with a five of its turtles, its pick and eggs hatched its
    /// way (no egg is laid without a collision, which decides nothing), so unless its
    /// turtles and every egg hold a five already, its pick must complete one with
    /// them.
    fn winning_picks(position: &Position, color: Color) -> Option<u128> {
        if position.status() != Status::Ongoing {
            return None;
        }
        let reach = position.turtle_mask(color) | position.eggs;
        (!has_five(reach)).then(|| five_holes(reach, BOARD & !position.occupied()))
    }

    /// Whether the first mover holds the last turn of the ongoing `position` to a
    /// draw (the second mover being `second`), told without building the turn: the
    /// second wins only with a pick that may gain ([`LastTurn::may_gain`]: one
    /// completing a five, or capturing) among its [`LastTurn::winning_picks`], and
    /// where at most one cell is both, the first takes it.
    pub(crate) fn held(position: &Position, second: Color) -> bool {
        let Some(picks) = LastTurn::winning_picks(position, second) else {
            return false;
        };
        if picks.count_ones() <= 1 {
            return true;
        }
        let own = position.turtle_mask(second);
        let occupied = position.occupied();
        let gaining = five_holes(own, BOARD & !occupied) | capturing_cells(own, occupied);
        (gaining & picks).count_ones() <= 1
    }

    /// Makes this the last turn of `position`, which must be ongoing (or in sudden
    /// death).
    pub(crate) fn set(&mut self, position: &Position) {
        // A new generation forgets the resolved pairs; the entries are cleared once
        // the stamp wraps around.
        self.generation = (self.generation + 1) & (u32::MAX >> 2);
        if self.generation == 0 {
            self.resolved = [0; 81 * 81];
            self.lone = [[(0, 0, 0); 81]; 2];
            self.generation = 1;
        }
        // Only the anticipating picks' entries were written, and those of the cells
        // they capture through.
        for color in 0..2 {
            for x in cells(self.anticipating[color]) {
                for y in cells(self.through[color][x.index()]) {
                    self.through_by[color][y.index()] = 0;
                }
                self.through[color][x.index()] = 0;
            }
        }
        let occupied = position.occupied();
        let empty = BOARD & !occupied;
        let masks = [position.black, position.white];
        self.position = *position;
        self.empty = empty;
        // Equal counts, zero unless in sudden death.
        self.base = if position.status() == Status::SuddenDeath {
            position.winning_turtles(Color::Black)
        } else {
            0
        };
        for (color, &own) in masks.iter().enumerate() {
            self.holes[color] = five_holes(own, empty);
            for cell in cells(self.holes[color]) {
                self.raised[color][cell.index()] =
                    cells_in_fives(own | cell.bit()).count_ones() as u8;
            }
        }
        self.possible = Color::ALL.map(|c| LastTurn::winning_picks(position, c).unwrap_or(empty));
        for (color, &own) in masks.iter().enumerate() {
            for x in cells(self.captures[color]) {
                self.rays[color][x.index()] = 0;
            }
            let rays = capture_rays(own, occupied);
            for ray in rays {
                for x in cells(ray) {
                    self.rays[color][x.index()] += 1;
                }
            }
            self.captures[color] = rays.iter().fold(0, |all, &ray| all | ray);
        }

        self.anticipating = [0; 2];
        // A new turtle of `color` on x captures through the other's new turtle y when,
        // along some direction, x's two flanked cells are y (empty now) and a stone
        // not `color`'s, and the closer holds a turtle of `color`.
        for (color, &own) in masks.iter().enumerate() {
            let others = occupied & !own;
            // Each direction written out, so that `anticipate` inlined sees a constant
            // `dir` and every shift is a plain one (a loop over `Dir::ALL`, or a
            // closure per direction, measured 2–3 % more instructions in the solve).
            self.anticipate(color, Dir::East, own, others, empty);
            self.anticipate(color, Dir::South, own, others, empty);
            self.anticipate(color, Dir::SouthEast, own, others, empty);
            self.anticipate(color, Dir::SouthWest, own, others, empty);
            self.anticipate(color, Dir::West, own, others, empty);
            self.anticipate(color, Dir::North, own, others, empty);
            self.anticipate(color, Dir::NorthWest, own, others, empty);
            self.anticipate(color, Dir::NorthEast, own, others, empty);
        }
    }

    /// [`LastTurn::set`]'s anticipatory captures of `color` (turtles `own`) along
    /// `dir`.
    #[inline(always)]
    fn anticipate(&mut self, color: usize, dir: Dir, own: u128, others: u128, empty: u128) {
        let (near, far) = anticipations(dir, own, others, empty);
        for (xs, steps) in [(near, 1), (far, 2)] {
            for x in cells(xs) {
                let y = if steps == 1 {
                    dir.shift(x.bit())
                } else {
                    dir.shift(dir.shift(x.bit()))
                };
                self.through[color][x.index()] |= y;
                self.through_by[color][y.trailing_zeros() as usize] |= x.bit();
                self.anticipating[color] |= x.bit();
            }
        }
    }

    /// Whether `color`'s new turtle on `own` captures when the other colour's lands
    /// on `other`.
    fn captures(&self, color: usize, own: Cell, other: Cell) -> bool {
        self.captures[color] & own.bit() != 0
            || (self.anticipating[color] & own.bit() != 0
                && self.through[color][own.index()] & other.bit() != 0)
    }

    /// Whether `color` may end the turn ahead of the other colour (the counts are
    /// equal now): its pick completes a five, or it captures where a five may form
    /// (its claims may hatch eggs its way; in sudden death, where `possible` is every
    /// cell, its captures may also take the other's line turtles). The other's
    /// captures never help it: they flank only its stones and eggs, and their claims
    /// hatch only for the other.
    /// `captures` says whether the pick captures ([`LastTurn::captures`]).
    fn may_gain(&self, color: usize, own: Cell, captures: bool) -> bool {
        self.holes[color] & own.bit() != 0 || (captures && self.possible[color] & own.bit() != 0)
    }

    /// Whether a loud pair cannot be decided, told from the first capture step: from
    /// counts of zero a colour whose pick completes no five gets one only by
    /// hatching, and it hatches only if its pick captures more than the other's at
    /// the first step (equal claims vanish, and after the first step only the side
    /// that hatched has new turtles to capture with).
    fn undecided(&self, black: Cell, white: Cell) -> bool {
        if self.base > 0 || (self.holes[0] & black.bit()) | (self.holes[1] & white.bit()) != 0 {
            return false;
        }
        self.first_captures(0, black, white) == self.first_captures(1, white, black)
    }

    /// The captures `color`'s new turtle on `own` makes at the turn's first step,
    /// the other colour's landing on `other`: the patterns on the board already, and
    /// one through `other` (a cell lies on one line from `own`, at one distance).
    fn first_captures(&self, color: usize, own: Cell, other: Cell) -> u32 {
        let now = if self.captures[color] & own.bit() != 0 {
            u32::from(self.rays[color][own.index()])
        } else {
            0
        };
        let through = self.anticipating[color] & own.bit() != 0
            && self.through[color][own.index()] & other.bit() != 0;
        now + u32::from(through)
    }

    /// The count of `color` (0 black, 1 white) with its turtle added on `cell`, no
    /// capture made.
    fn count(&self, color: usize, cell: Cell) -> u32 {
        if self.holes[color] & cell.bit() != 0 {
            u32::from(self.raised[color][cell.index()])
        } else {
            self.base
        }
    }

    /// [`LastTurn::settled_with`], finding whether each pick captures.
    #[cfg(test)]
    fn settled(&self, black: Cell, white: Cell) -> Option<i8> {
        let by_black = self.captures(0, black, white);
        let by_white = self.captures(1, white, black);
        self.settled_with(black, white, by_black, by_white)
    }

    /// Black's value of the joint pick (black's pick capturing when `by_black`,
    /// white's when `by_white`) when it follows without resolving the turn: always
    /// for collisions and quiet pairs. When only one colour captures, its turtles
    /// only grow (claims hatch for it alone, and only its hatched turtles capture
    /// on) and the other's only shrink, so the counts with the picks added bound the
    /// counts after: the capturer wins if it is ahead already, and draws if the
    /// other is not ahead and it cannot gain.
    fn settled_with(&self, black: Cell, white: Cell, by_black: bool, by_white: bool) -> Option<i8> {
        let (b, w) = (self.count(0, black), self.count(1, white));
        let sign = i8::from(b > w) - i8::from(w > b);
        if !by_black && !by_white {
            return Some(sign);
        }
        let (gain_black, gain_white) = (
            self.may_gain(0, black, by_black),
            self.may_gain(1, white, by_white),
        );
        match (by_black, by_white) {
            // From equal counts a side wins only by gaining: with no gain possible
            // on either side the turn cannot be decided.
            _ if !gain_black && !gain_white => Some(0),
            (true, false) if sign > 0 || (sign == 0 && !gain_black) => Some(sign),
            (false, true) if sign < 0 || (sign == 0 && !gain_white) => Some(sign),
            _ => None,
        }
    }

    /// A lone turtle of `color` (0 black, 1 white) on `cell` settled by the rules
    /// with the other colour's pick left out ([`Position::imagine_lone_turtle`]):
    /// black's value after it, and the cells where the other's pick might take part
    /// in its capture steps, remembered for the position.
    fn lone(&mut self, color: usize, cell: Cell) -> (i8, u128) {
        let (seen, value, near) = self.lone[color][cell.index()];
        if seen == self.generation {
            return (value, near);
        }
        let own = Color::ALL[color];
        let (value, grown) = match self.position.imagine_lone_turtle(own, cell) {
            Some((after, _)) => {
                let status = after.status();
                let value = if status.is_over() {
                    super::playout::value(status) as i8
                } else {
                    0
                };
                (
                    value,
                    after.turtle_mask(own) & !self.position.turtle_mask(own),
                )
            }
            None => {
                self.lone[color][cell.index()] = (self.generation, 0, BOARD);
                return (0, BOARD);
            }
        };
        // The other colour's pick takes part in a step only as one of the two cells
        // a new turtle x flanks along some line, the other flanked cell a stone not
        // the capturer's and the closer (x + 3 steps) the capturer's: stones only
        // leave the board, and the capturer's turtles are at most those of now and
        // the new ones.
        let mine = self.position.turtle_mask(own) | grown;
        let stones = self.position.occupied() & !self.position.turtle_mask(own);
        let near = Dir::ALL.into_iter().fold(0, |m, dir| {
            let closed = grown & back_by(dir, mine, 3);
            let first = closed & back_by(dir, stones, 2);
            let second = closed & back_by(dir, stones, 1);
            m | ahead_by(dir, first, 1) | ahead_by(dir, second, 2)
        });
        self.lone[color][cell.index()] = (self.generation, value, near);
        (value, near)
    }

    /// Black's value of the joint pick when it follows without resolving the whole
    /// turn: [`LastTurn::settled_with`], or, when only one colour captures, that colour's
    /// lone turtle's value ([`LastTurn::lone`]) if the other's pick completes no five
    /// and takes no part in the capturer's steps (the other colour, capturing
    /// nothing, never claims an egg or gets a new turtle), so every step and both
    /// counts are as without it.
    fn shortcut(&mut self, black: Cell, white: Cell) -> Option<i8> {
        let by_black = self.captures(0, black, white);
        let by_white = self.captures(1, white, black);
        if let Some(v) = self.settled_with(black, white, by_black, by_white) {
            return Some(v);
        }
        let (capturer, pick, other) = match (by_black, by_white) {
            (true, false) => (0, black, white),
            (false, true) => (1, white, black),
            _ => return None,
        };
        if self.holes[1 - capturer] & other.bit() != 0 {
            return None;
        }
        let (value, near) = self.lone(capturer, pick);
        (near & other.bit() == 0).then_some(value)
    }

    /// Black's value of the joint pick if it is known without resolving the turn:
    /// a collision, [`LastTurn::shortcut`], or a pair resolved before.
    fn known(&mut self, black: Cell, white: Cell) -> Option<i8> {
        if black == white {
            return Some(0);
        }
        if let Some(v) = self.shortcut(black, white) {
            return Some(v);
        }
        let entry = self.resolved[black.index() * 81 + white.index()];
        (entry >> 2 == self.generation).then(|| (entry & 3) as i8 - 1)
    }

    /// Black's value of the joint pick: +1, −1 or 0.
    pub(crate) fn value(&mut self, black: Cell, white: Cell) -> i8 {
        if let Some(v) = self.known(black, white) {
            return v;
        }
        if self.undecided(black, white) {
            return 0;
        }
        let mut next = self.position;
        let value = match next.resolve_turn_quiet(black, white) {
            Ok(status) if status.is_over() => super::playout::value(status) as i8,
            _ => 0,
        };
        self.resolved[black.index() * 81 + white.index()] =
            self.generation << 2 | (value + 1) as u32;
        value
    }

    /// Whether the second mover (`second`) has an answer to `pick` that wins for it.
    fn refuted(&mut self, pick: Cell, second: Color) -> bool {
        let (me, other) = (second.index(), 1 - second.index());
        let win: i8 = if second == Color::Black { 1 } else { -1 };
        // Only answers that may gain can win ([`LastTurn::may_gain`]): holes, and
        // captures (through the pick or not) where a five may form.
        let capturing = self.captures[me] | self.through_by[me][pick.index()];
        let answers = (self.holes[me] | capturing & self.possible[me]) & self.empty & !pick.bit();
        // Answers that win without resolving first.
        let first_count = self.count(other, pick);
        let sure_wins = cells(answers & self.holes[me]).any(|answer| {
            // The first mover's pick does not capture: its count can only fall, and
            // ours only rise.
            !self.captures(other, pick, answer) && self.count(me, answer) > first_count
        });
        sure_wins
            || cells(answers).any(|answer| {
                let (b, w) = pair(second, pick, answer);
                self.value(b, w) == win
            })
    }

    /// Black's value of the serialized last turn in which `first` commits and the
    /// other answers knowing the pick. The opponent's holes are tried first (the
    /// pick that blocks by colliding is the likeliest to stand), then its capture
    /// cells.
    pub(crate) fn serial(&mut self, first: Color) -> i8 {
        let lost: i8 = if first == Color::Black { -1 } else { 1 };
        let other = 1 - first.index();
        // Picks that take the other's winning or capturing cells leave it the fewest
        // answers.
        let blocks = self.holes[other] & self.empty;
        let denials = self.captures[other] & self.possible[other] & self.empty & !blocks;
        // A pick that neither captures nor completes a five leaves the first mover's
        // count as it is (and can only lose turtles), so any five-completing answer
        // other than it wins: with two or more such answers, every such pick is
        // refuted at once.
        let me = first.index();
        let plain = self.empty & !(self.captures[me] | self.anticipating[me] | self.holes[me]);
        let refuted_at_once = match blocks.count_ones() {
            0 => 0,
            1 => plain & !blocks,
            _ => plain,
        };
        let every_pick_refuted = cells(blocks & !refuted_at_once)
            .chain(cells(denials & !refuted_at_once))
            .chain(cells(self.empty & !blocks & !denials & !refuted_at_once))
            .all(|pick| self.refuted(pick, first.opponent()));
        if every_pick_refuted { lost } else { 0 }
    }

    /// Bounds on black's value of the joint pick without resolving it: exact for
    /// collisions and quiet pairs; for a loud pair, 0 on the side of a colour that
    /// cannot gain ([`LastTurn::may_gain`]), ±1 on the other.
    fn bound(&mut self, black: Cell, white: Cell, upper: bool) -> i8 {
        if let Some(v) = self.known(black, white) {
            return v;
        }
        if self.undecided(black, white) {
            return 0;
        }
        // A colour that does not capture ends with at most its count with its pick,
        // the other with at least its own; one that captures wins only by gaining.
        let (b, w) = (self.count(0, black), self.count(1, white));
        if upper {
            if self.captures(0, black, white) {
                i8::from(self.may_gain(0, black, true))
            } else {
                i8::from(b > w)
            }
        } else if self.captures(1, white, black) {
            -i8::from(self.may_gain(1, white, true))
        } else {
            -i8::from(w > b)
        }
    }

    /// Black's exact value of the last turn, a matrix game over `cells` (the empty
    /// cells), solved by double oracle with the pairs' cheap bounds
    /// ([`exact::double_oracle`]): most loud pairs are never resolved. Also the
    /// number of restricted games solved.
    pub(crate) fn solve(&mut self, cells: &[Cell]) -> (f64, u64) {
        // Both sides start from every cell completing a five or capturing where a
        // five may form (the first cell when there is none).
        let mask = self.holes[0]
            | self.holes[1]
            | self.captures[0] & self.possible[0]
            | self.captures[1] & self.possible[1];
        let mut start: Vec<usize> = (0..cells.len())
            .filter(|&i| mask & cells[i].bit() != 0)
            .collect();
        if start.is_empty() {
            start.push(0);
        }
        let mut entries = Entries { turn: self, cells };
        let (solution, programs) =
            exact::double_oracle_from(&mut entries, cells.len(), cells.len(), &start, &start);
        (solution.value, programs)
    }

    /// The joint picks' values, row-major over `cells` (black's pick the row).
    #[cfg(test)]
    fn matrix(&mut self, cells: &[Cell], out: &mut Vec<f64>) {
        out.clear();
        for &b in cells {
            for &w in cells {
                out.push(f64::from(self.value(b, w)));
            }
        }
    }
}

/// A last turn's joint picks as matrix entries, for double oracle.
struct Entries<'a> {
    turn: &'a mut LastTurn,
    cells: &'a [Cell],
}

impl exact::Entries for Entries<'_> {
    fn exact(&mut self, i: usize, j: usize) -> f64 {
        f64::from(self.turn.value(self.cells[i], self.cells[j]))
    }

    fn bound(&mut self, i: usize, j: usize, upper: bool) -> f64 {
        f64::from(self.turn.bound(self.cells[i], self.cells[j], upper))
    }
}

/// The joint pick (black's, white's) of a first mover's `pick` and the second
/// mover's `answer`.
fn pair(second: Color, pick: Cell, answer: Cell) -> (Cell, Cell) {
    match second {
        Color::Black => (answer, pick),
        Color::White => (pick, answer),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::shell::{lp, playout};

    /// Black's value of the joint pick by the rules.
    fn resolved(position: &Position, b: Cell, w: Cell) -> i8 {
        let mut next = *position;
        match next.resolve_turn_quiet(b, w) {
            Ok(status) if status.is_over() => playout::value(status) as i8,
            _ => 0,
        }
    }

    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        for seed in 0..30 {
            for (lo, hi) in [(10, 14), (20, 30)] {
                if let Some(p) = exact::played_position(seed, lo, hi) {
                    out.push(p);
                }
                if let Some(p) = exact::tactician_position(seed, lo, hi) {
                    out.push(p);
                }
            }
        }
        out
    }

    #[test]
    fn every_joint_pick_is_valued_as_the_rules_resolve_it() {
        let (mut louds, mut quiet, mut decided, mut lone, mut told) = (0, 0, 0, 0, 0);
        for p in positions() {
            let mut turn = LastTurn::new(&p);
            let cells: Vec<Cell> = p.empty_cells().iter().collect();
            for &b in &cells {
                for &w in &cells {
                    let want = resolved(&p, b, w);
                    // The bounds first: they must hold before the pair is resolved
                    // and remembered.
                    let (lo, hi) = (turn.bound(b, w, false), turn.bound(b, w, true));
                    assert!(lo <= want && want <= hi, "{} {b} {w}", p.to_notation());
                    // One-sided captures valued from the capturer's lone turtle.
                    if b != w
                        && turn.settled(b, w).is_none()
                        && let Some(v) = turn.shortcut(b, w)
                    {
                        assert_eq!(v, want, "{} {b} {w}", p.to_notation());
                        lone += 1;
                    }
                    assert_eq!(turn.value(b, w), want, "{} {b} {w}", p.to_notation());
                    for color in Color::ALL {
                        let wins = if color == Color::Black { 1 } else { -1 };
                        let pick = if color == Color::Black { b } else { w };
                        if let Some(picks) = LastTurn::winning_picks(&p, color)
                            && want == wins
                        {
                            assert_ne!(picks & pick.bit(), 0, "{} {b} {w}", p.to_notation());
                            told += 1;
                        }
                    }
                    if b != w {
                        let mut next = p;
                        let captured = next
                            .resolve_turn(b, w)
                            .is_ok_and(|report| !report.steps().is_empty());
                        let loud = turn.captures(0, b, w) || turn.captures(1, w, b);
                        // Exactly the pairs where a new turtle captures are loud.
                        assert_eq!(captured, loud, "{} {b} {w}", p.to_notation());
                        if loud {
                            louds += 1;
                        } else {
                            quiet += 1;
                        }
                    }
                    decided += i32::from(want != 0);
                }
            }
        }
        // Wins where the winning picks are told apart from the others occur.
        assert!(
            louds > 0 && quiet > 0 && decided > 0 && lone > 0 && told > 0,
            "{louds} {quiet} {decided} {lone} {told}"
        );
    }

    #[test]
    fn hand_built_last_turns_are_held_or_lost_as_worked_out() {
        let mask = |names: &[&str]| {
            names
                .iter()
                .filter_map(|n| Cell::parse(n))
                .fold(0u128, |m, c| m | c.bit())
        };
        let white = mask(&["h7", "i9"]);
        let two = Position {
            black: mask(&["a1", "b1", "c1", "d1", "a3", "b3", "c3", "d3"]),
            white,
            ..Position::new()
        };
        let one = Position {
            black: mask(&["a1", "b1", "c1", "d1", "a3", "b3"]),
            white,
            ..Position::new()
        };
        // Black answers whichever of e1 and e3 white leaves: white-first is lost.
        assert!(!LastTurn::held(&two, Color::Black));
        assert_eq!(LastTurn::new(&two).serial(Color::White), 1);
        // With e1 alone white takes it.
        assert!(LastTurn::held(&one, Color::Black));
        assert_eq!(LastTurn::new(&one).serial(Color::White), 0);
        // With no five to complete on either side neither order is lost, though
        // every pick is one that neither captures nor completes a five.
        let quiet = Position {
            black: mask(&["a1", "b1"]),
            white,
            ..Position::new()
        };
        let mut turn = LastTurn::new(&quiet);
        assert_eq!(
            (turn.serial(Color::Black), turn.serial(Color::White)),
            (0, 0)
        );
        // White's i1 captures only through black's pick i2 (flanking i2 and the
        // black i3 against its i4), and its claim hatches the egg e5 into a five:
        // i2 is refuted by an anticipatory capture alone (S7, S8).
        let mut through = Position {
            black: mask(&["i3"]),
            white: mask(&["a5", "b5", "c5", "d5", "i4"]),
            ..Position::new()
        };
        through.lay_egg(Cell::parse("e5").unwrap());
        let (i1, i2) = (Cell::parse("i1").unwrap(), Cell::parse("i2").unwrap());
        assert_eq!(resolved(&through, i2, i1), -1);
        let mut turn = LastTurn::new(&through);
        assert!(turn.refuted(i2, Color::White));
        assert!(!turn.refuted(Cell::parse("a9").unwrap(), Color::White));
    }

    #[test]
    fn double_oracle_finds_the_full_matrix_games_value() {
        let mut mixed = 0;
        for p in positions() {
            let mut turn = LastTurn::new(&p);
            let cells: Vec<Cell> = p.empty_cells().iter().collect();
            let mut m = Vec::new();
            turn.matrix(&cells, &mut m);
            let full = lp::solve(&m, cells.len(), cells.len()).value;
            // A fresh turn: nothing resolved yet when the bounds are asked for.
            let mut fresh = LastTurn::new(&p);
            let (value, _) = fresh.solve(&cells);
            assert!(
                (value - full).abs() < 1e-9,
                "{}: {value} {full}",
                p.to_notation()
            );
            mixed += usize::from(full.fract() != 0.0);
        }
        // Some last turns are mixed games, not settled by a pure pick.
        assert!(mixed > 0);
    }

    #[test]
    fn serialized_values_are_the_max_min_of_the_matrix() {
        let (mut seen, mut held) = ([0; 3], 0);
        for p in positions() {
            let mut turn = LastTurn::new(&p);
            let cells: Vec<Cell> = p.empty_cells().iter().collect();
            let n = cells.len();
            let mut m = Vec::new();
            turn.matrix(&cells, &mut m);
            let black_first = (0..n)
                .map(|i| (0..n).map(|j| m[i * n + j]).fold(2.0, f64::min))
                .fold(-2.0, f64::max);
            let white_first = (0..n)
                .map(|j| (0..n).map(|i| m[i * n + j]).fold(-2.0, f64::max))
                .fold(2.0, f64::min);
            assert_eq!(f64::from(turn.serial(Color::Black)), black_first);
            assert_eq!(f64::from(turn.serial(Color::White)), white_first);
            // Told without the turn: the first mover holds the draw.
            if LastTurn::held(&p, Color::White) {
                assert_eq!(black_first, 0.0, "{}", p.to_notation());
                held += 1;
            }
            if LastTurn::held(&p, Color::Black) {
                assert_eq!(white_first, 0.0, "{}", p.to_notation());
                held += 1;
            }
            seen[(black_first + 1.0) as usize] += 1;
            seen[(white_first + 1.0) as usize] += 1;
        }
        // Both a lost serialized last turn and a held one occur, and some are told
        // held without the turn.
        assert!(
            seen[0] > 0 && seen[1] > 0 && seen[2] > 0 && held > 0,
            "{seen:?} {held}"
        );
    }
}
