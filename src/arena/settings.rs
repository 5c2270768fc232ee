//! Per-engine settings in cutechess-cli's style: `--engine` takes `KEY=VALUE` words,
//! `--each` gives defaults for every engine, and the match's `--tc`/`--movetime` come
//! last. Today's one-word `--engine NAME=COMMAND` still works.
//!
//! Keys: `name=N`, `cmd=C` (a command line: quotes group words), `arg=A` (one more
//! argument, repeatable), `dir=D` (the working folder), `proto=gtp|nboard`,
//! `option.X=V` (sent as `set_option X V`; the engine must know `set_option`),
//! `tc=…` (a clock: `moves/time+inc`, `time+inc`, `time`, or `inf`, in seconds) and
//! `st=S` (S seconds per move).

use anyhow::{Result, anyhow, bail};

use super::engine::{EngineSpec, split_words};
use super::referee::TimeControl;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Gtp,
    Nboard,
}

/// One engine of a match and its own settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Participant {
    pub spec: EngineSpec,
    /// The working folder of its process.
    pub dir: Option<String>,
    pub proto: Proto,
    /// `set_option` NAME VALUE pairs, in order.
    pub options: Vec<(String, String)>,
    pub time: TimeControl,
}

/// Seconds as milliseconds: a finite, non-negative number.
fn milliseconds(text: &str, what: &str) -> Result<u64> {
    let s: f64 = text
        .trim()
        .parse()
        .map_err(|_| anyhow!("{what}: {text:?} is not a number of seconds"))?;
    if !(s.is_finite() && s >= 0.0) {
        bail!("{what}: {text:?}: times must be positive");
    }
    Ok((s * 1000.0).round() as u64)
}

/// Reads a clock: `inf`, `time`, `time+inc` or `moves/time+inc`, in seconds.
pub fn parse_tc(text: &str) -> Result<TimeControl> {
    let what = format!("tc {text:?}");
    if text.trim().eq_ignore_ascii_case("inf") {
        return Ok(TimeControl::None);
    }
    let (moves, rest) = match text.split_once('/') {
        Some((moves, rest)) => {
            let moves: u32 = moves
                .trim()
                .parse()
                .ok()
                .filter(|&m| m > 0)
                .ok_or_else(|| anyhow!("{what}: the moves before '/' must be a count"))?;
            (Some(moves), rest)
        }
        None => (None, text),
    };
    let (main, increment) = rest.split_once('+').unwrap_or((rest, "0"));
    let main_ms = milliseconds(main, &what)?;
    if main_ms == 0 {
        bail!("{what}: the time must be positive");
    }
    Ok(TimeControl::Clock {
        main_ms,
        increment_ms: milliseconds(increment, &what)?,
        moves,
    })
}

/// Reads `st=S`: S seconds per move.
pub fn parse_st(text: &str) -> Result<TimeControl> {
    let ms = milliseconds(text, &format!("st {text:?}"))?;
    if ms == 0 {
        bail!("st {text:?}: the time must be positive");
    }
    Ok(TimeControl::MoveTime { ms })
}

/// Settings read from `KEY=VALUE` words, not yet complete.
#[derive(Default)]
struct Partial {
    name: Option<String>,
    command: Option<Vec<String>>,
    args: Vec<String>,
    dir: Option<String>,
    proto: Option<Proto>,
    options: Vec<(String, String)>,
    time: Option<TimeControl>,
}

impl Partial {
    fn read(&mut self, words: &[String], flag: &str) -> Result<()> {
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| anyhow!("{flag} {word:?}: expected KEY=VALUE"))?;
            let set_time = |time: &mut Option<TimeControl>, value: TimeControl| {
                if time.is_some() {
                    bail!("{flag}: tc= and st= are given both or twice");
                }
                *time = Some(value);
                Ok(())
            };
            match key {
                "name" => self.name = Some(value.trim().to_string()),
                "cmd" => {
                    let words = split_words(value).map_err(|e| anyhow!("{flag} {word:?}: {e}"))?;
                    if words.is_empty() {
                        bail!("{flag} {word:?}: the command is empty");
                    }
                    self.command = Some(words);
                }
                "arg" => self.args.push(value.to_string()),
                "dir" => self.dir = Some(value.to_string()),
                "proto" => {
                    self.proto = Some(match value {
                        "gtp" => Proto::Gtp,
                        "nboard" => Proto::Nboard,
                        _ => bail!("{flag} {word:?}: proto is gtp or nboard"),
                    });
                }
                "tc" => set_time(&mut self.time, parse_tc(value)?)?,
                "st" => set_time(&mut self.time, parse_st(value)?)?,
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() && !name.contains(char::is_whitespace) => {
                        self.options.retain(|(n, _)| n != name);
                        self.options.push((name.to_string(), value.to_string()));
                    }
                    _ => bail!(
                        "{flag} {word:?}: unknown key {key:?} (name, cmd, arg, dir, proto, option.X, tc, st)"
                    ),
                },
            }
        }
        Ok(())
    }
}

/// Whether `words` is today's one-word form `NAME=COMMAND`.
fn is_legacy(words: &[String]) -> bool {
    let [word] = words else { return false };
    let key = word.split_once('=').map_or("", |(key, _)| key);
    !matches!(key, "name" | "cmd" | "arg" | "dir" | "proto" | "tc" | "st")
        && !key.starts_with("option.")
}

/// Reads one `--engine` given as `words`, with the `--each` words and the match's
/// time control `default` beneath its own settings.
pub fn participant(words: &[String], each: &[String], default: TimeControl) -> Result<Participant> {
    let mut partial = Partial::default();
    partial.read(each, "--each")?;
    let each_time = partial.time.take();
    if partial.name.is_some() || partial.command.is_some() {
        bail!("--each: name= and cmd= belong to one engine");
    }
    if is_legacy(words) {
        let spec = EngineSpec::parse(&words[0])?;
        partial.name = Some(spec.name);
        partial.command = Some([vec![spec.program], spec.args].concat());
    } else {
        partial.read(words, "--engine")?;
    }
    let mut command = partial
        .command
        .ok_or_else(|| anyhow!("--engine {}: cmd= is missing", words.join(" ")))?;
    let program = command.remove(0);
    let name = match partial.name {
        Some(name) => name,
        None => std::path::Path::new(&program)
            .file_name()
            .map_or(program.clone(), |n| n.to_string_lossy().into_owned()),
    };
    if name.is_empty() || name.contains(['"', '\n']) {
        bail!(
            "--engine {}: the name must be non-empty, without quotes",
            words.join(" ")
        );
    }
    command.extend(partial.args);
    Ok(Participant {
        spec: EngineSpec {
            name,
            program,
            args: command,
        },
        dir: partial.dir,
        proto: partial.proto.unwrap_or(Proto::Gtp),
        options: partial.options,
        time: partial.time.or(each_time).unwrap_or(default),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn clocks_read_like_cutechess() {
        let clock = |main_ms, increment_ms, moves| TimeControl::Clock {
            main_ms,
            increment_ms,
            moves,
        };
        assert_eq!(parse_tc("inf").ok(), Some(TimeControl::None));
        assert_eq!(parse_tc("60").ok(), Some(clock(60_000, 0, None)));
        assert_eq!(parse_tc("10+0.1").ok(), Some(clock(10_000, 100, None)));
        assert_eq!(
            parse_tc("40/60+0.5").ok(),
            Some(clock(60_000, 500, Some(40)))
        );
        assert_eq!(parse_tc("40/90").ok(), Some(clock(90_000, 0, Some(40))));
        for bad in ["", "0", "x", "0/60", "-1", "60+x", "/60"] {
            assert!(parse_tc(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            parse_st("0.25").ok(),
            Some(TimeControl::MoveTime { ms: 250 })
        );
        assert!(parse_st("0").is_err());
    }

    #[test]
    fn engines_take_keys_each_and_the_old_form() {
        let none = TimeControl::None;
        let p = participant(
            &[
                "name=a".into(),
                "cmd=bin/tabula --player greedy".into(),
                "arg=--log-level".into(),
                "arg=error".into(),
                "dir=/tmp".into(),
                "option.depth=3".into(),
                "st=0.5".into(),
            ],
            &words("option.depth=1 option.hash=8 tc=10+0.1"),
            none,
        )
        .ok();
        let p = p.expect("read");
        assert_eq!(p.spec.name, "a");
        assert_eq!(p.spec.program, "bin/tabula");
        assert_eq!(p.spec.args, ["--player", "greedy", "--log-level", "error"]);
        assert_eq!(p.dir.as_deref(), Some("/tmp"));
        assert_eq!(p.proto, Proto::Gtp);
        assert_eq!(
            p.options,
            [("hash".into(), "8".into()), ("depth".into(), "3".into())],
            "the engine's own option overrides --each's"
        );
        assert_eq!(
            p.time,
            TimeControl::MoveTime { ms: 500 },
            "st= over --each tc="
        );
        let each_tc = participant(
            &words("cmd=x proto=nboard"),
            &words("tc=inf"),
            parse_st("1").unwrap_or(none),
        );
        let each_tc = each_tc.expect("read");
        assert_eq!(
            (each_tc.time, each_tc.proto),
            (none, Proto::Nboard),
            "--each over the match's"
        );
        assert_eq!(each_tc.spec.name, "x", "the name defaults to the program's");
        let old = participant(&["b=prog --flag 'a b'".into()], &[], none).expect("the old form");
        assert_eq!((old.spec.name.as_str(), old.spec.args.len()), ("b", 2));
        for bad in [
            "name=a",
            "cmd=x tc=1 st=1",
            "cmd=x speed=3",
            "cmd=x proto=uci",
            "cmd=",
        ] {
            assert!(participant(&words(bad), &[], none).is_err(), "{bad:?}");
        }
        assert!(participant(&words("cmd=x"), &words("name=y"), none).is_err());
    }
}
