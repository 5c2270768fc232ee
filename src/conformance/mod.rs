//! The conformance suite runner: `.tst` files (GNU Go's and GoGui's regression format)
//! run against any engine command, one fresh engine per file.
//!
//! - [`suite`] reads a file into data: a list of [`Step`]s, each set-up or a case with
//!   its [`Expectation`], and judges answers.
//! - [`engine`] is the child process under test: pipes, a reader thread, deadlines,
//!   and a kill that always reaps.
//! - [`runner`] is the one loop that sends steps, judges cases, reports and counts.
//!
//! Nothing here panics on a file's or an engine's content: a bad file is a
//! [`LoadError`], a misbehaving engine is a [`Fault`] that fails its file's remaining
//! cases.

pub mod engine;
pub mod junit;
pub mod runner;
pub mod suite;

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use engine::Fault;
pub use runner::{CaseRecord, Config, FileRecord, Outcome, Reason, Suite, Summary, count, run};
pub use suite::{Expectation, ParseError, Pattern, Step};

/// Why the suite's files could not be found or read.
#[derive(Debug)]
pub enum LoadError {
    /// A path that cannot be read (missing file, unreadable folder).
    Read { path: PathBuf, error: io::Error },
    /// A `.tst` file that is not in the format.
    Parse { path: PathBuf, error: ParseError },
    /// The paths hold no `.tst` file.
    NoFiles,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Read { path, error } => write!(f, "{}: {error}", path.display()),
            LoadError::Parse { path, error } => write!(f, "{}: {error}", path.display()),
            LoadError::NoFiles => f.write_str("no .tst file found"),
        }
    }
}

/// The message already holds the underlying error, so it is not also given as a
/// source (a chained report would print it twice).
impl std::error::Error for LoadError {}

/// Why an `--engine` command line cannot start an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandLineError {
    /// Nothing but white space.
    Empty,
    /// It cannot be split into words (an unclosed quote, a lone backslash at the end).
    Malformed(String),
}

impl fmt::Display for CommandLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandLineError::Empty => f.write_str("the engine command is empty"),
            CommandLineError::Malformed(why) => {
                write!(f, "the engine command cannot be split into words: {why}")
            }
        }
    }
}

impl std::error::Error for CommandLineError {}

impl Config {
    /// A config from an `--engine` command line; a relative program path with a
    /// separator (`./target/debug/tabula`) is made absolute against the current folder.
    pub fn new(engine: &str, timeout: Duration) -> Result<Config, CommandLineError> {
        let mut words = crate::client::split_words(engine)
            .map_err(CommandLineError::Malformed)?
            .into_iter();
        let program = words.next().ok_or(CommandLineError::Empty)?;
        let mut program = PathBuf::from(program);
        if program.is_relative()
            && program.components().count() > 1
            && let Ok(absolute) = std::path::absolute(&program)
        {
            program = absolute;
        }
        Ok(Config {
            program,
            args: words.collect(),
            timeout,
            verbose: false,
            long: false,
        })
    }
}

/// The `.tst` files named by `paths`, in order; a folder stands for every `.tst` file
/// under it, recursively, sorted by path.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, LoadError> {
    let mut files = Vec::new();
    for path in paths {
        let metadata = fs::metadata(path).map_err(|error| LoadError::Read {
            path: path.clone(),
            error,
        })?;
        if metadata.is_dir() {
            let mut found = Vec::new();
            walk(path, &mut found)?;
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    if files.is_empty() {
        return Err(LoadError::NoFiles);
    }
    Ok(files)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), LoadError> {
    let read_error = |error| LoadError::Read {
        path: dir.to_path_buf(),
        error,
    };
    for entry in fs::read_dir(dir).map_err(read_error)? {
        let path = entry.map_err(read_error)?.path();
        if path.is_dir() {
            walk(&path, found)?;
        } else if path.extension().is_some_and(|ext| ext == "tst") {
            found.push(path);
        }
    }
    Ok(())
}

/// The commands a file's `# extension: NAME…` comment lines name (names separated by
/// spaces or commas): the file applies only to engines that know them all.
#[must_use]
pub fn extensions(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            line.trim()
                .strip_prefix('#')?
                .trim()
                .strip_prefix("extension:")
        })
        .flat_map(|names| names.split([' ', ',']).filter(|n| !n.is_empty()))
        .map(str::to_string)
        .collect()
}

/// Reads and parses every file; the first bad one is the error.
pub fn load(files: &[PathBuf]) -> Result<Vec<Suite>, LoadError> {
    files
        .iter()
        .map(|path| {
            let text = fs::read_to_string(path).map_err(|error| LoadError::Read {
                path: path.clone(),
                error,
            })?;
            let steps = suite::parse(&text).map_err(|error| LoadError::Parse {
                path: path.clone(),
                error,
            })?;
            Ok(Suite {
                path: path.clone(),
                steps,
                extensions: extensions(&text),
            })
        })
        .collect()
}
