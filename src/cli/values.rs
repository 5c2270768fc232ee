//! Flags whose values are names (games, players, evaluations, selections): clap checks
//! them against the list before anything runs, `--help` lists them, and a typo fails
//! with clap's message naming the values.

use clap::builder::{PossibleValuesParser, TypedValueParser};

/// The names of Othello's evaluations, as `Evaluation::from_name` reads them.
pub const EVALUATIONS: [&str; 2] = ["hand", "pattern"];

/// A value parser for a flag taking one of `names`, read into its type by
/// `from_name`. The names are the library's own words for the values, so the
/// command line and the protocol options spell them alike.
pub fn named<T>(
    names: impl IntoIterator<Item = &'static str>,
    from_name: fn(&str) -> Option<T>,
) -> impl TypedValueParser<Value = T>
where
    T: Clone + Send + Sync + 'static,
{
    PossibleValuesParser::new(names).try_map(move |name: String| {
        from_name(&name).ok_or_else(|| format!("{name:?} names no value of this flag"))
    })
}
