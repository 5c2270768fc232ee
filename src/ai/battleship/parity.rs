//! The parity hunter: the simple, fixed Battleship shooter kept as the `greedy`
//! baseline (`tabula --player greedy`), so the strong hunter has an anchor to be
//! measured against. It reads only the shooter's [`View`].

use crate::games::battleship::{Cell, CellSet, Mark, View};
use crate::rng::Rng;

/// The hunter's next shot at the sea seen in `view`, or `None` when no cell is open.
///
/// If a ship is hit but afloat it is finished: the open cells extending its line of
/// hits (or the four side cells of a single hit), preferring cells that touch no other
/// hit. Otherwise it hunts on the checkerboard (cells with even column + row) among
/// open cells touching no hit, then any open cell. Random among the best.
pub fn parity_hunt(view: &View, rng: &mut Rng) -> Option<Cell> {
    let hits: CellSet = view
        .cells_marked(Mark::Hit)
        .union(view.cells_marked(Mark::Sunk));
    for group in view.wounded() {
        let candidates = finishing_cells(view, &group);
        let own: CellSet = group.iter().copied().collect();
        let others = hits.minus(own);
        let clear: Vec<Cell> = candidates
            .iter()
            .copied()
            .filter(|c| !c.neighbours().any(|n| others.contains(n)))
            .collect();
        let best = if clear.is_empty() { candidates } else { clear };
        if let Some(&cell) = rng.choose(&best) {
            return Some(cell);
        }
    }
    let open: Vec<Cell> = view.open_cells().collect();
    let clear: Vec<Cell> = open
        .iter()
        .copied()
        .filter(|c| !c.neighbours().any(|n| hits.contains(n)))
        .collect();
    let pool = if clear.is_empty() { open } else { clear };
    let parity: Vec<Cell> = pool
        .iter()
        .copied()
        .filter(|c| (c.col() + c.row()) % 2 == 0)
        .collect();
    let best = if parity.is_empty() { pool } else { parity };
    rng.choose(&best).copied()
}

/// The open cells that could extend the line of hits `group` (canonical order, one
/// afloat ship).
fn finishing_cells(view: &View, group: &[Cell]) -> Vec<Cell> {
    let (Some(&first), Some(&last)) = (group.first(), group.last()) else {
        return Vec::new();
    };
    let candidates: Vec<Option<Cell>> = if group.len() == 1 {
        first.sides().map(Some).collect()
    } else if first.row() == last.row() {
        vec![first.offset(-1, 0), last.offset(1, 0)]
    } else {
        vec![first.offset(0, -1), last.offset(0, 1)]
    };
    candidates
        .into_iter()
        .flatten()
        .filter(|&c| view.is_open(c))
        .collect()
}
