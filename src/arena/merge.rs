//! `tabula arena merge`: the summary of a match played in shards (`--shard K/N`), from
//! their records. Games are tallied by their numbers and rounds, so the shards'
//! records, in any order, give the summary one run of the whole match prints.

use std::collections::HashMap;
use std::io::Write;

use anyhow::{Result, bail};

use super::record::{self, Finished};
use super::schedule::Fixture;
use super::stats::Sprt;
use super::{Tallies, json_summary, summary, tally_game};

/// Reads every records file; a game found twice is refused, naming both files.
fn gather(paths: &[String]) -> Result<Vec<Finished>> {
    let mut seen: HashMap<usize, &str> = HashMap::new();
    let mut games = Vec::new();
    for path in paths {
        if !std::path::Path::new(path).is_file() {
            bail!("{path}: no such records file");
        }
        for game in record::read(path)? {
            if let Some(other) = seen.insert(game.number, path) {
                bail!(
                    "game {} is in {other} and in {path}: records of one match's shards hold each game once",
                    game.number
                );
            }
            games.push(game);
        }
    }
    games.sort_by_key(|game| game.number);
    Ok(games)
}

/// The engines in the order of the match's `--engine`s: as they first appear in
/// game-number order, black before white (the schedule pairs the first engine with
/// the second in game 1, and so on).
fn names(games: &[Finished]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for game in games {
        for name in [&game.black, &game.white] {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
    }
    names
}

/// Refuses games of different matches (another game, `--seed` or size, or a game
/// seed that is not the match's) and, unless `partial`, a match with games missing.
fn check_one_match(games: &[Finished], partial: bool) -> Result<()> {
    let Some(first) = games.first() else {
        return Ok(());
    };
    let identity = |g: &Finished| (g.game.clone(), g.match_seed, g.match_games);
    for game in games {
        if identity(game) != identity(first) {
            let show = |g: &Finished| {
                format!(
                    "{} with --seed {} and {} games",
                    g.game.as_deref().unwrap_or("?"),
                    g.match_seed.map_or("?".into(), |s| s.to_string()),
                    g.match_games.map_or("?".into(), |n| n.to_string())
                )
            };
            bail!(
                "game {} is of another match ({}) than game {} ({}): merge the shards of one match",
                game.number,
                show(game),
                first.number,
                show(first)
            );
        }
        if let (Some(seed), Some(match_seed)) = (game.seed, game.match_seed)
            && seed != super::game_seed(match_seed, game.number)
        {
            bail!(
                "game {}: its seed is not game {} of a match with --seed {match_seed}",
                game.number,
                game.number
            );
        }
    }
    if let Some(total) = first.match_games
        && !partial
    {
        let have: std::collections::HashSet<usize> = games.iter().map(|g| g.number).collect();
        let missing: Vec<String> = (1..=total)
            .filter(|n| !have.contains(n))
            .map(|n| n.to_string())
            .collect();
        if !missing.is_empty() {
            let shown = if missing.len() > 12 {
                format!(
                    "{} and {} more",
                    missing[..12].join(", "),
                    missing.len() - 12
                )
            } else {
                missing.join(", ")
            };
            bail!(
                "{} of {total} games are missing (games {shown}): a shard's records are missing or unfinished; --partial merges what is there",
                missing.len()
            );
        }
    }
    Ok(())
}

/// Runs `tabula arena merge` on the records files `records`, judged by `sprt`,
/// the summary also written to `json` if given; `partial` accepts a match with
/// games still missing (an unfinished run, watched as it goes).
pub fn run(
    records: &[String],
    sprt: Option<&Sprt>,
    json: Option<&str>,
    partial: bool,
) -> Result<()> {
    let games = gather(records)?;
    if games.is_empty() {
        bail!("no games in {}", records.join(", "));
    }
    check_one_match(&games, partial)?;
    let names = names(&games);
    if sprt.is_some() && names.len() != 2 {
        bail!("--sprt needs exactly two engines");
    }
    let index = |name: &String| names.iter().position(|n| n == name).unwrap_or(0);
    let mut tallies: Tallies = HashMap::new();
    for game in &games {
        let fixture = Fixture {
            number: game.number,
            round: game.round,
            black: index(&game.black),
            white: index(&game.white),
        };
        tally_game(&mut tallies, fixture, game.outcome);
    }
    let mut stdout = std::io::stdout();
    let pairs = summary(&mut stdout, &names, tallies, sprt, None);
    let _ = writeln!(
        stdout,
        "Merged {} games from {} records files",
        games.len(),
        records.len()
    );
    let _ = stdout.flush();
    if let Some(path) = json {
        let summary = json_summary(&pairs, &names, sprt, games.len(), games.len(), false);
        std::fs::write(path, format!("{{\"summary\": {summary}}}\n"))
            .map_err(|e| anyhow::anyhow!("writing {path}: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::Shard;

    #[test]
    fn shards_deal_out_colour_swapped_pairs_and_cover_every_game_once() {
        for n in 1..=5 {
            let shards: Vec<Shard> = (1..=n).map(|k| Shard { k, n }).collect();
            for number in 1..=40 {
                let holders: Vec<usize> = shards
                    .iter()
                    .filter(|s| s.holds(number))
                    .map(|s| s.k)
                    .collect();
                assert_eq!(holders.len(), 1, "game {number} of {n} shards");
                // A pair's two games go to the same shard.
                let partner = if number % 2 == 1 {
                    number + 1
                } else {
                    number - 1
                };
                assert!(shards[holders[0] - 1].holds(partner));
            }
        }
        assert!(Shard { k: 2, n: 3 }.holds(3) && Shard { k: 2, n: 3 }.holds(4));
        assert!(Shard { k: 1, n: 3 }.holds(7));
    }

    #[test]
    fn shard_text_is_k_over_n() {
        assert_eq!(Shard::parse("2/8"), Ok(Shard { k: 2, n: 8 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
