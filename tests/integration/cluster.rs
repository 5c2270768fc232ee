//! Matches in shards: `tabula arena --shard K/N` plays part of a match, `tabula
//! arena merge` sums the parts' records into the summary one run prints, and `tabula
//! cluster arena` runs the parts as a real Slurm job array (skipped, saying so,
//! where Slurm is absent, unless `TABULA_REQUIRE_SLURM=1`, set by `.ci/run`).

use std::path::Path;
use std::process::{Command, Output};

fn tabula(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .output()
        .expect("tabula runs")
}

fn text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A deterministic match: two seeded baselines, `games` games.
fn match_args(games: &str) -> Vec<String> {
    let me = env!("CARGO_BIN_EXE_tabula");
    [
        "--game",
        "othello",
        "--engine",
        &format!("greedy={me} --player greedy"),
        "--engine",
        &format!("random={me} --player random"),
        "--engine",
        &format!("simple={me} --player simple"),
        "--games",
        games,
        "--seed",
        "11",
    ]
    .map(String::from)
    .to_vec()
}

/// The summary lines of a report: from the first line after the last game to the
/// end, without the closing line (`Finished match`, `Merged …`).
fn summary(report: &str) -> Vec<String> {
    let lines: Vec<&str> = report.lines().collect();
    let start = lines
        .iter()
        .rposition(|l| l.starts_with("Finished game") || l.starts_with("Score of"))
        .map_or(0, |i| {
            if lines[i].starts_with("Finished game") {
                i + 2
            } else {
                i
            }
        });
    let mut summary: Vec<String> = lines[..]
        .iter()
        .skip(start)
        .filter(|l| !l.starts_with("Finished match") && !l.starts_with("Merged "))
        .map(|l| (*l).to_string())
        .collect();
    // A run does not repeat the score line it printed after the last game; the
    // merge prints every pair's: compare from the pentanomial lines on.
    summary.retain(|l| !l.starts_with("Score of"));
    summary
}

fn run_match(dir: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<String> = vec!["arena".into()];
    args.extend(match_args("4"));
    args.extend(extra.iter().map(|s| (*s).to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .current_dir(dir)
        .args(&args)
        .output()
        .expect("tabula runs");
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[test]
fn shards_play_the_games_of_one_run_and_their_merge_prints_its_summary() {
    let dir = tempfile_dir("shards");
    let single = run_match(&dir, &["--records", "all.pgn"]);
    for k in ["2/3", "1/3", "3/3"] {
        let file = format!("part{}.pgn", &k[..1]);
        run_match(&dir, &["--shard", k, "--records", &file]);
    }
    let files = ["part3.pgn", "part1.pgn", "part2.pgn"].map(|f| dir.join(f));
    let paths: Vec<&str> = files.iter().map(|p| p.to_str().unwrap()).collect();
    let mut args = vec!["arena", "merge"];
    args.extend(&paths);
    let merged = tabula(&args);
    assert!(
        merged.status.success(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    assert_eq!(summary(&text(&merged)), summary(&text(&single)));
    assert!(
        summary(&text(&single))
            .iter()
            .any(|l| l.starts_with("Ptnml"))
    );
    assert!(text(&merged).contains("Merged 12 games from 3 records files"));
    // The same games: every game of the single run is in one shard, move for move.
    let games = |path: &Path| -> Vec<String> {
        let text = std::fs::read_to_string(path).expect("records");
        let mut games: Vec<String> = text
            .split("[Event")
            .filter(|g| g.contains("[Number"))
            .map(|g| {
                g.lines()
                    .filter(|l| !l.starts_with("[Date"))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .collect();
        games.sort();
        games
    };
    let mut shards: Vec<String> = files.iter().flat_map(|f| games(f)).collect();
    shards.sort();
    assert_eq!(shards, games(&dir.join("all.pgn")));

    // A game in two files is refused, naming them.
    let twice = tabula(&["arena", "merge", paths[1], paths[1]]);
    assert!(!twice.status.success());
    assert!(String::from_utf8_lossy(&twice.stderr).contains("is in"));
    // A missing shard is named by its games, unless the merge is partial.
    let missing = tabula(&["arena", "merge", paths[0], paths[1]]);
    assert!(!missing.status.success());
    let error = String::from_utf8_lossy(&missing.stderr);
    assert!(
        error.contains("4 of 12 games are missing (games 3, 4, 9, 10)"),
        "{error}"
    );
    let partial = tabula(&["arena", "merge", "--partial", paths[0], paths[1]]);
    assert!(partial.status.success());
    assert!(text(&partial).contains("Merged 8 games from 2 records files"));
    // A shard of another match (another --seed) is refused.
    let mut args: Vec<String> = vec!["arena".into()];
    args.extend(
        match_args("4")
            .into_iter()
            .map(|a| if a == "11" { "12".into() } else { a }),
    );
    let other = dir.join("other.pgn");
    args.extend(["--shard", "2/3", "--records", other.to_str().unwrap()].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert!(tabula(&args).status.success());
    let mixed = tabula(&[
        "arena",
        "merge",
        paths[0],
        paths[1],
        other.to_str().unwrap(),
    ]);
    assert!(!mixed.status.success());
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("another match"));
}

#[test]
fn a_shard_refuses_the_sprt_and_bad_shard_numbers() {
    let mut args: Vec<String> = vec!["arena".into()];
    args.extend(match_args("2"));
    let base: Vec<&str> = args.iter().map(String::as_str).collect();
    for extra in [
        &["--shard", "4/3"][..],
        &["--shard", "0/2"],
        &[
            "--shard",
            "1/2",
            "--sprt",
            "elo0=0,elo1=5,alpha=0.05,beta=0.05",
        ],
    ] {
        let mut all = base.clone();
        all.extend(extra);
        let output = tabula(&all);
        assert!(!output.status.success(), "{extra:?}");
        assert!(text(&output).is_empty(), "no game played: {extra:?}");
    }
}

#[test]
fn cluster_arena_runs_the_shards_as_a_slurm_job_array() {
    let slurm = Command::new("sinfo")
        .args(["-h", "-o", "%t"])
        .output()
        .is_ok_and(|o| o.status.success() && !o.stdout.is_empty());
    if !slurm {
        assert!(
            std::env::var("TABULA_REQUIRE_SLURM").as_deref() != Ok("1"),
            "Slurm answers no sinfo and TABULA_REQUIRE_SLURM=1: start it (.ci/slurm-up)"
        );
        eprintln!("skipped: no Slurm cluster answers here (sinfo); .ci/run starts one");
        return;
    }
    let dir = tempfile_dir("slurm");
    let single = run_match(&dir, &[]);
    let folder = dir.join("run");
    let mut args = vec![
        "cluster".to_string(),
        "arena".into(),
        "--shards".into(),
        "2".into(),
        "--dir".into(),
        folder.display().to_string(),
        "--wait".into(),
        "--".into(),
    ];
    args.extend(match_args("4"));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let cluster = tabula(&args);
    assert!(
        cluster.status.success(),
        "{}",
        String::from_utf8_lossy(&cluster.stderr)
    );
    let report = text(&cluster);
    assert!(report.contains("Submitted shards as job array"), "{report}");
    assert_eq!(summary(&report), summary(&text(&single)));
    for k in 1..=2 {
        assert!(folder.join(format!("shard-{k}.pgn")).is_file());
    }
    let json = std::fs::read_to_string(folder.join("summary.json")).expect("the JSON summary");
    assert!(json.contains("\"played\": 12"), "{json}");
}

/// A fresh folder for one test (under the target folder, so Slurm's jobs, which
/// run as another process tree, see it).
fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cluster-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a test folder");
    dir
}

#[test]
fn self_play_shards_write_the_samples_of_one_run() {
    let dir = tempfile_dir("selfplay");
    let play = |out: &str, shard: Option<&str>| {
        let path = dir.join(out);
        let path = path.to_str().expect("a UTF-8 path");
        let mut args = vec![
            "train",
            "selfplay",
            "--games",
            "5",
            "--depth",
            "1",
            "--exact",
            "6",
            "--threads",
            "2",
            "--seed",
            "3",
            "--out",
            path,
        ];
        if let Some(shard) = shard {
            args.extend(["--shard", shard]);
        }
        let output = tabula(&args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        std::fs::read(path).expect("the data file")
    };
    // Samples are fixed-size records (board, side, score).
    let records = |bytes: Vec<u8>| -> Vec<Vec<u8>> {
        assert_eq!(bytes.len() % 17, 0);
        let mut list: Vec<Vec<u8>> = bytes.chunks(17).map(<[u8]>::to_vec).collect();
        list.sort();
        list
    };
    let whole = records(play("all.dat", None));
    let mut parts = play("one.dat", Some("1/2"));
    parts.extend(play("two.dat", Some("2/2")));
    let parts = records(parts);
    assert!(!whole.is_empty());
    assert_eq!(parts, whole);
    assert_ne!(records(play("only.dat", Some("1/2"))).len(), whole.len());
}
