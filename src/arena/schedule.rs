//! The schedule: every game of a run, numbered from 1, fixed by the engine count and
//! `--games` alone, so a resumed run plays exactly the games that are missing.
//!
//! Games come in pairs from the same opening with colours swapped. Round `r` (from 0)
//! plays, for every pair of engines `i < j` in order, `i` black against `j`, then `j`
//! black against `i`. With two engines that is a plain match; with more, a round robin,
//! or a gauntlet: only the pairs of the first engine with each other one.

/// Which pairs of engines meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// Every pair of engines.
    RoundRobin,
    /// The first engine against each other one.
    Gauntlet,
}

impl Tournament {
    /// Both kinds, in the order the command line lists them.
    pub const ALL: [Tournament; 2] = [Tournament::RoundRobin, Tournament::Gauntlet];

    /// The command line's word for it: `round-robin` or `gauntlet`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Tournament::RoundRobin => "round-robin",
            Tournament::Gauntlet => "gauntlet",
        }
    }

    /// The tournament named `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Tournament> {
        Tournament::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// From 1, in schedule order.
    pub number: usize,
    /// The game pair's round, from 0: its opening.
    pub round: usize,
    /// Engine indices.
    pub black: usize,
    pub white: usize,
}

/// The fixtures of `engines` engines playing `games` games per pair of engines that
/// meet in `tournament` (rounded up to an even number).
#[must_use]
pub fn fixtures(engines: usize, games: usize, tournament: Tournament) -> Vec<Fixture> {
    let rounds = games.div_ceil(2);
    let firsts = match tournament {
        Tournament::RoundRobin => engines,
        Tournament::Gauntlet => engines.min(1),
    };
    let mut list = Vec::new();
    for round in 0..rounds {
        for i in 0..firsts {
            for j in i + 1..engines {
                for (black, white) in [(i, j), (j, i)] {
                    list.push(Fixture {
                        number: list.len() + 1,
                        round,
                        black,
                        white,
                    });
                }
            }
        }
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_swap_colours_and_round_robin_covers_every_pair() {
        let two = fixtures(2, 3, Tournament::RoundRobin);
        assert_eq!(two.len(), 4, "3 games round up to two pairs");
        assert_eq!((two[0].black, two[0].white, two[0].round), (0, 1, 0));
        assert_eq!((two[1].black, two[1].white, two[1].round), (1, 0, 0));
        assert_eq!((two[3].number, two[3].round), (4, 1));
        let three = fixtures(3, 2, Tournament::RoundRobin);
        assert_eq!(three.len(), 6);
        let pairs: Vec<(usize, usize)> = three.iter().map(|f| (f.black, f.white)).collect();
        assert_eq!(pairs, [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]);
        let gauntlet = fixtures(3, 2, Tournament::Gauntlet);
        let pairs: Vec<(usize, usize)> = gauntlet.iter().map(|f| (f.black, f.white)).collect();
        assert_eq!(
            pairs,
            [(0, 1), (1, 0), (0, 2), (2, 0)],
            "the first against each"
        );
    }
}
