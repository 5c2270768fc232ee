//! `tabula cluster arena`: a match as a Slurm job array. Each array task plays one
//! shard (`tabula arena … --shard K/N --records DIR/shard-K.pgn`); a second job,
//! started when every task succeeded (`--dependency=afterok`), merges the records
//! into `DIR/summary.txt` and `DIR/summary.json`. The two batch scripts are written
//! to DIR first, so they can be read, edited and submitted by hand as well. A task
//! resumes from its own records, so a failed one is rerun alone
//! (`sbatch --array=K DIR/shards.sbatch`) without playing a game twice.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

/// A match to run on the cluster (`tabula cluster arena`).
#[derive(Clone, Debug)]
pub struct ArenaJob {
    /// Shards (array tasks).
    pub shards: usize,
    /// The folder for the batch scripts, the shards' records and output, and the
    /// summary (made if missing; the compute nodes must see it).
    pub dir: String,
    /// Wait for the merge and print the summary.
    pub wait: bool,
    /// Only write the batch scripts.
    pub dry_run: bool,
    /// Options for both jobs' `#SBATCH` lines (`--time=2:00:00`).
    pub sbatch: Vec<String>,
    /// The SPRT the merge judges the match by.
    pub sprt: Option<String>,
    /// The `tabula arena` arguments of the match.
    pub arena: Vec<String>,
}

/// Quotes `word` for a POSIX shell.
fn quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

fn header(name: &str, options: &[String], extra: &[String]) -> String {
    let mut text = format!("#!/bin/sh\n#SBATCH --job-name={name}\n");
    for option in extra.iter().chain(options) {
        text.push_str(&format!("#SBATCH {option}\n"));
    }
    text
}

/// The array job: task K plays shard K of N.
fn shards_script(tabula: &Path, job: &ArenaJob, dir: &Path) -> String {
    let extra = [
        format!("--array=1-{}", job.shards),
        format!("--output={}", dir.join("shard-%a.out").display()),
    ];
    let args: Vec<String> = job.arena.iter().map(|a| quoted(a)).collect();
    format!(
        "{}exec {} arena {} --shard \"$SLURM_ARRAY_TASK_ID/{}\" --records {}\"$SLURM_ARRAY_TASK_ID.pgn\" --resume\n",
        header("tabula-arena", &job.sbatch, &extra),
        quoted(&tabula.display().to_string()),
        args.join(" "),
        job.shards,
        quoted(&dir.join("shard-").display().to_string()),
    )
}

/// The merge job, started once every shard succeeded.
fn merge_script(tabula: &Path, job: &ArenaJob, dir: &Path) -> String {
    // A failed shard leaves the merge's dependency unmet for ever: cancel it then.
    let extra = [
        format!("--output={}", dir.join("summary.txt").display()),
        "--kill-on-invalid-dep=yes".to_string(),
    ];
    let records: Vec<String> = (1..=job.shards)
        .map(|k| quoted(&dir.join(format!("shard-{k}.pgn")).display().to_string()))
        .collect();
    let sprt = job
        .sprt
        .as_ref()
        .map_or(String::new(), |s| format!(" --sprt {}", quoted(s)));
    format!(
        "{}exec {} arena merge {} --json {}{sprt}\n",
        header("tabula-merge", &job.sbatch, &extra),
        quoted(&tabula.display().to_string()),
        records.join(" "),
        quoted(&dir.join("summary.json").display().to_string()),
    )
}

/// Runs `sbatch ARGS` and returns the job id it printed (`--parsable`).
fn sbatch(args: &[&str]) -> Result<String> {
    let output = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .output()
        .context("sbatch cannot be run (is Slurm installed here?)")?;
    if !output.status.success() {
        bail!(
            "sbatch {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let text = String::from_utf8_lossy(&output.stdout);
    // `JOBID` or `JOBID;CLUSTER`.
    Ok(text.trim().split(';').next().unwrap_or("").to_string())
}

/// Writes the batch scripts of `job` and (unless a dry run) submits them.
pub fn run(job: &ArenaJob) -> Result<()> {
    if job.shards == 0 {
        bail!("--shards: at least 1");
    }
    if let Some(word) = job
        .arena
        .iter()
        .find(|w| ["--shard", "--records", "--resume", "--sprt"].contains(&w.as_str()))
    {
        bail!(
            "{word} is not an arena argument here: each task gets its --shard and --records, the merge the --sprt"
        );
    }
    std::fs::create_dir_all(&job.dir).with_context(|| format!("making {}", job.dir))?;
    let dir: PathBuf = std::fs::canonicalize(&job.dir)?;
    let tabula = std::env::current_exe().context("the path of this tabula")?;
    let shards = dir.join("shards.sbatch");
    let merge = dir.join("merge.sbatch");
    std::fs::write(&shards, shards_script(&tabula, job, &dir))?;
    std::fs::write(&merge, merge_script(&tabula, job, &dir))?;
    if job.dry_run {
        println!("{}\n{}", shards.display(), merge.display());
        return Ok(());
    }
    let array = sbatch(&[&shards.display().to_string()])?;
    let dependency = format!("--dependency=afterok:{array}");
    let mut merge_args = vec![dependency.as_str()];
    if job.wait {
        merge_args.push("--wait");
    }
    let merge_path = merge.display().to_string();
    merge_args.push(&merge_path);
    let merged = sbatch(&merge_args);
    println!("Submitted shards as job array {array}");
    let merged = merged.with_context(|| {
        format!(
            "the merge did not run: a shard failed (its report is {}); rerun it alone with `sbatch --array=K {}` (it resumes from its records), then `sbatch {}`",
            dir.join("shard-K.out").display(),
            shards.display(),
            merge.display()
        )
    })?;
    println!("Submitted the merge as job {merged}");
    if job.wait {
        let summary = dir.join("summary.txt");
        let text = std::fs::read_to_string(&summary)
            .with_context(|| format!("reading {}", summary.display()))?;
        print!("{text}");
    } else {
        println!(
            "The summary will be in {}",
            dir.join("summary.txt").display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(arena: &[&str]) -> ArenaJob {
        ArenaJob {
            shards: 3,
            dir: "/tmp/x".into(),
            wait: false,
            dry_run: true,
            sbatch: vec!["--time=1:00:00".into()],
            sprt: Some("elo0=0,elo1=5,alpha=0.05,beta=0.05".into()),
            arena: arena.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn the_array_task_plays_its_shard_and_the_merge_reads_every_shard() {
        let job = job(&["--engine", "a=tabula --depth 2", "--games", "8"]);
        let dir = Path::new("/runs/m 1");
        let shards = shards_script(Path::new("/bin/tabula"), &job, dir);
        assert!(shards.contains("#SBATCH --array=1-3\n"));
        assert!(shards.contains("#SBATCH --time=1:00:00\n"));
        assert!(shards.contains(
            "exec '/bin/tabula' arena '--engine' 'a=tabula --depth 2' '--games' '8' --shard \"$SLURM_ARRAY_TASK_ID/3\" --records '/runs/m 1/shard-'\"$SLURM_ARRAY_TASK_ID.pgn\" --resume\n"
        ));
        let merge = merge_script(Path::new("/bin/tabula"), &job, dir);
        assert!(merge.contains(
            "arena merge '/runs/m 1/shard-1.pgn' '/runs/m 1/shard-2.pgn' '/runs/m 1/shard-3.pgn' --json '/runs/m 1/summary.json' --sprt 'elo0=0,elo1=5,alpha=0.05,beta=0.05'"
        ));
        assert_eq!(quoted("it's"), r"'it'\''s'");
    }
}
