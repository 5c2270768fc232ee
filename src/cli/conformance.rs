//! `tabula conformance`: runs `.tst` files against any engine command and prints one
//! line per case that did not simply pass, a line per file, then the counts; exit
//! status 1 when a case failed unexpectedly. `--junit FILE` also writes JUnit XML.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

use tabula::conformance::{self, Config};

#[derive(Args)]
pub struct ConformanceArgs {
    /// The engine to test, split like a shell would (quotes allowed), e.g.
    /// "/usr/games/gnugo --mode gtp". Each file gets a fresh engine started in the
    /// file's folder.
    #[arg(long)]
    engine: String,
    /// The longest any one answer may take, in seconds; past it the engine is killed
    /// and its file's remaining cases fail.
    #[arg(long, default_value = "10", value_parser = seconds)]
    timeout: Duration,
    /// Echo the protocol stream: every command sent (`> LINE`) and answer read
    /// (`< LINE`), among the report's lines.
    #[arg(long)]
    verbose: bool,
    /// A line for every case, passed ones too. gogui-regress's spellings `-long` and
    /// `-verbose` are read as `--long` and `--verbose`.
    #[arg(long)]
    long: bool,
    /// Write the results as JUnit XML to FILE (one testcase per case).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// `.tst` files or folders (every `.tst` file under them, sorted). Default:
    /// `conformance/`.
    paths: Vec<PathBuf>,
}

/// The command line with gogui-regress's single-dash options (`-long`, `-verbose`)
/// after `conformance` spelt as ours.
#[must_use]
pub fn gogui_regress_spellings(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let Some(at) = args.iter().position(|a| a == "conformance") else {
        return args;
    };
    args.into_iter()
        .enumerate()
        .map(|(i, arg)| match arg.to_str() {
            Some("-long" | "-verbose") if i > at => format!("-{}", arg.to_string_lossy()).into(),
            _ => arg,
        })
        .collect()
}

fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if value <= 0.0 {
        return Err("the timeout must be positive".into());
    }
    Duration::try_from_secs_f64(value).map_err(|e| e.to_string())
}

pub fn run(args: ConformanceArgs) -> Result<ExitCode> {
    let mut config = Config::new(&args.engine, args.timeout).context("--engine")?;
    config.verbose = args.verbose;
    config.long = args.long;
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("conformance")]
    } else {
        args.paths
    };
    let files = conformance::collect(&paths)?;
    let suites = conformance::load(&files)?;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let (summary, records) = conformance::run(&config, &suites, &mut out)?;
    summary.write(&mut out)?;
    if let Some(path) = &args.junit {
        std::fs::write(path, conformance::junit::render(&records))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    out.flush()?;
    Ok(if summary.success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
