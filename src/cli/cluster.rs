//! `tabula cluster`: matches on a Slurm cluster ([`tabula::arena::cluster`]).

use anyhow::Result;
use clap::{Args, Subcommand};

use tabula::arena::cluster::{self, ArenaJob};

/// `tabula cluster`'s command line.
#[derive(Args, Debug)]
pub struct ClusterArgs {
    #[command(subcommand)]
    job: Job,
}

/// What runs on the cluster.
#[derive(Subcommand, Debug)]
enum Job {
    /// A match in N shards as one Slurm job array, then the merge of their records
    Arena(ArenaJobArgs),
}

/// `tabula cluster arena`'s command line.
#[derive(Args, Debug)]
struct ArenaJobArgs {
    /// Shards (array tasks).
    #[arg(long, default_value_t = 2)]
    shards: usize,
    /// The folder for the batch scripts, the shards' records and output, and the
    /// summary (made if missing; the compute nodes must see it).
    #[arg(long, value_name = "DIR")]
    dir: String,
    /// Wait for the merge and print the summary.
    #[arg(long)]
    wait: bool,
    /// Only write the batch scripts (DIR/shards.sbatch, DIR/merge.sbatch), submit
    /// nothing.
    #[arg(long)]
    dry_run: bool,
    /// An option for both jobs' `#SBATCH` lines (`--partition=main`,
    /// `--time=2:00:00`, `--cpus-per-task=2`); repeat it for more.
    #[arg(long = "sbatch", value_name = "OPTION", allow_hyphen_values = true)]
    sbatch: Vec<String>,
    /// The SPRT the merged match is judged by (as `tabula arena --sprt`).
    #[arg(long)]
    sprt: Option<String>,
    /// The `tabula arena` arguments of the match, after `--` (without `--shard` and
    /// `--records`, which each task gets).
    #[arg(last = true, required = true, value_name = "ARENA ARGS")]
    arena: Vec<String>,
}

/// Runs `tabula cluster`.
pub fn run(args: &ClusterArgs) -> Result<()> {
    let Job::Arena(job) = &args.job;
    cluster::run(&ArenaJob {
        shards: job.shards,
        dir: job.dir.clone(),
        wait: job.wait,
        dry_run: job.dry_run,
        sbatch: job.sbatch.clone(),
        sprt: job.sprt.clone(),
        arena: job.arena.clone(),
    })
}
