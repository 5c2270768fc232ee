//! From raw input bytes to `(id, Command)`: GTP 2 preprocessing, then nom parsers.
//!
//! [`preprocess`] applies GTP 2's rules to one raw line: control characters other
//! than HT and LF are removed, HT becomes a space, everything from `#` on is dropped,
//! and a line that is then blank is [`Line::Empty`]. [`parse_line`] splits off the
//! optional numeric id and looks the command name up in [`COMMANDS`], the one table
//! that `list_commands` and `known_command` also read. A name that is not in the table
//! is an unknown command; a known name whose arguments do not parse is a syntax
//! error that quotes the command's usage. Nothing here panics on any input.

use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::{tag_no_case, take_till1};
use nom::character::complete::{space0, space1};
use nom::combinator::{all_consuming, map, map_opt, opt, rest, verify};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use super::command::{Command, LiveFields, RulesQuery, ShotClaim, TimeSystem};
use crate::games::{Color, GameKind};

/// Longest raw line accepted, in bytes; longer lines are refused whole.
pub const MAX_LINE: usize = 64 * 1024;

/// One line of input after GTP 2 preprocessing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// Blank or comment-only: no answer (and an interrupt while thinking).
    Empty,
    /// A command line, trimmed.
    Text(String),
    /// Bytes that are not UTF-8.
    InvalidUtf8,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The name is not in the command table.
    UnknownCommand,
    /// A known command with arguments that do not fit its usage.
    Syntax { usage: &'static str },
    /// `set_game` with a name that is not a game.
    UnknownGame,
    /// The line is not UTF-8.
    InvalidUtf8,
    /// The line is longer than [`MAX_LINE`].
    TooLong,
    /// An id but no command name.
    MissingCommand,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnknownCommand => f.write_str("unknown command"),
            ParseError::Syntax { usage } => write!(f, "syntax error (usage: {usage})"),
            ParseError::UnknownGame => f.write_str("unknown game"),
            ParseError::InvalidUtf8 => f.write_str("syntax error: input is not valid UTF-8"),
            ParseError::TooLong => write!(f, "syntax error: line longer than {MAX_LINE} bytes"),
            ParseError::MissingCommand => f.write_str("syntax error: missing command name"),
        }
    }
}

impl std::error::Error for ParseError {}

/// GTP 2 preprocessing of one raw line (without its LF).
#[must_use]
pub fn preprocess(raw: &[u8]) -> Line {
    let mut bytes: Vec<u8> = Vec::with_capacity(raw.len());
    for &byte in raw {
        match byte {
            b'#' => break,
            b'\t' => bytes.push(b' '),
            0..=31 | 127 => {}
            _ => bytes.push(byte),
        }
    }
    match String::from_utf8(bytes) {
        Err(_) => Line::InvalidUtf8,
        Ok(text) => {
            let trimmed = text.trim_matches(' ');
            if trimmed.is_empty() {
                Line::Empty
            } else {
                Line::Text(trimmed.to_string())
            }
        }
    }
}

type Res<'a, T> = IResult<&'a str, T>;

/// One whitespace-free word.
fn token(input: &str) -> Res<'_, &str> {
    take_till1(|c: char| c == ' ').parse(input)
}

/// `black`, `b`, `white` or `w`, in any case.
fn color(input: &str) -> Res<'_, Color> {
    map_opt(token, |word: &str| {
        match word.to_ascii_lowercase().as_str() {
            "black" | "b" => Some(Color::Black),
            "white" | "w" => Some(Color::White),
            _ => None,
        }
    })
    .parse(input)
}

/// A non-negative integer.
fn number(input: &str) -> Res<'_, u32> {
    nom::character::complete::u32(input)
}

/// A non-negative, finite decimal number of seconds.
fn seconds(input: &str) -> Res<'_, f64> {
    map_opt(token, |word: &str| {
        word.parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0)
    })
    .parse(input)
}

/// A word of `kgs-time_settings`, alone or before its arguments.
fn system_word<'a>(
    word: &'static str,
) -> impl Parser<&'a str, Output = (), Error = nom::error::Error<&'a str>> {
    map(terminated(tag_no_case(word), end_of_word), |_| ())
}

/// The arguments of `kgs-time_settings`, in KGS's order.
fn time_system(input: &str) -> Res<'_, TimeSystem> {
    alt((
        map(system_word("none"), |()| TimeSystem::None),
        map(preceded(system_word("absolute"), arg(seconds)), |main| {
            TimeSystem::Absolute { main }
        }),
        map(
            (
                alt((
                    map(system_word("byoyomi"), |()| true),
                    map(system_word("canadian"), |()| false),
                )),
                arg(seconds),
                arg(seconds),
                arg(number),
            ),
            |(japanese, main, period, moves)| {
                if japanese {
                    TimeSystem::Byoyomi {
                        main,
                        period,
                        periods: moves,
                    }
                } else {
                    TimeSystem::Canadian {
                        main,
                        byo_yomi: period,
                        stones: moves,
                    }
                }
            },
        ),
        map(
            preceded(system_word("fischer"), (arg(seconds), arg(seconds))),
            |(main, increment)| TimeSystem::Fischer { main, increment },
        ),
    ))
    .parse(input)
}

/// Any finite decimal number (GTP's float).
fn float(input: &str) -> Res<'_, f64> {
    map_opt(token, |word: &str| {
        word.parse::<f64>().ok().filter(|x| x.is_finite())
    })
    .parse(input)
}

/// The rest of the line: at least one character.
fn text(input: &str) -> Res<'_, String> {
    map(verify(rest, |s: &str| !s.trim().is_empty()), |s: &str| {
        s.trim().to_string()
    })
    .parse(input)
}

/// `miss`, `hit` or `sunk TYPE`.
fn claim(input: &str) -> Res<'_, ShotClaim> {
    alt((
        map(
            preceded((tag_no_case("sunk"), space1), token),
            |kind: &str| ShotClaim::Sunk(kind.to_ascii_lowercase()),
        ),
        map(terminated(tag_no_case("miss"), end_of_word), |_| {
            ShotClaim::Miss
        }),
        map(terminated(tag_no_case("hit"), end_of_word), |_| {
            ShotClaim::Hit
        }),
    ))
    .parse(input)
}

/// Succeeds at a space or at the end of the input, consuming nothing.
fn end_of_word(input: &str) -> Res<'_, ()> {
    if input.is_empty() || input.starts_with(' ') {
        Ok((input, ()))
    } else {
        Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Space,
        )))
    }
}

/// An argument: spaces, then `parser`.
fn arg<'a, O>(
    parser: impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
) -> impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>> {
    preceded(space1, parser)
}

/// How one command's arguments are read: the input is everything after the name.
type ArgsParser = fn(&str) -> Res<'_, Command>;

/// A command of the table: its name, its usage line and its argument parser.
pub struct Spec {
    pub name: &'static str,
    pub usage: &'static str,
    args: ArgsParser,
}

fn none(input: &str, command: Command) -> Res<'_, Command> {
    Ok((input, command))
}

fn one_color(input: &str, make: fn(Color) -> Command) -> Res<'_, Command> {
    map(arg(color), make).parse(input)
}

/// Every command, in the order `list_commands` prints them.
pub const COMMANDS: &[Spec] = &[
    Spec {
        name: "protocol_version",
        usage: "protocol_version",
        args: |i| none(i, Command::ProtocolVersion),
    },
    Spec {
        name: "name",
        usage: "name",
        args: |i| none(i, Command::Name),
    },
    Spec {
        name: "version",
        usage: "version",
        args: |i| none(i, Command::Version),
    },
    Spec {
        name: "known_command",
        usage: "known_command NAME",
        args: |i| map(arg(token), |n: &str| Command::KnownCommand(n.to_string())).parse(i),
    },
    Spec {
        name: "list_commands",
        usage: "list_commands",
        args: |i| none(i, Command::ListCommands),
    },
    Spec {
        name: "quit",
        usage: "quit",
        args: |i| none(i, Command::Quit),
    },
    Spec {
        name: "gogui-interrupt",
        usage: "gogui-interrupt",
        args: |i| none(i, Command::GoguiInterrupt),
    },
    Spec {
        name: "komi",
        usage: "komi FLOAT",
        args: |i| map(arg(float), Command::Komi).parse(i),
    },
    Spec {
        name: "gogui-rules_game_id",
        usage: "gogui-rules_game_id",
        args: |i| none(i, Command::GoguiRules(RulesQuery::GameId)),
    },
    Spec {
        name: "gogui-rules_board_size",
        usage: "gogui-rules_board_size",
        args: |i| none(i, Command::GoguiRules(RulesQuery::BoardSize)),
    },
    Spec {
        name: "gogui-rules_board",
        usage: "gogui-rules_board",
        args: |i| none(i, Command::GoguiRules(RulesQuery::Board)),
    },
    Spec {
        name: "gogui-rules_side_to_move",
        usage: "gogui-rules_side_to_move",
        args: |i| none(i, Command::GoguiRules(RulesQuery::SideToMove)),
    },
    Spec {
        name: "gogui-rules_legal_moves",
        usage: "gogui-rules_legal_moves",
        args: |i| none(i, Command::GoguiRules(RulesQuery::LegalMoves)),
    },
    Spec {
        name: "gogui-rules_final_result",
        usage: "gogui-rules_final_result",
        args: |i| none(i, Command::GoguiRules(RulesQuery::FinalResult)),
    },
    Spec {
        name: "gogui-analyze_commands",
        usage: "gogui-analyze_commands",
        args: |i| none(i, Command::GoguiAnalyzeCommands),
    },
    Spec {
        name: "tabula-scores_gfx",
        usage: "tabula-scores_gfx",
        args: |i| none(i, Command::ScoresGfx),
    },
    Spec {
        name: "tabula-heat_gfx",
        usage: "tabula-heat_gfx COLOR",
        args: |i| one_color(i, Command::HeatGfx),
    },
    Spec {
        name: "tabula-mix_gfx",
        usage: "tabula-mix_gfx COLOR",
        args: |i| one_color(i, Command::MixGfx),
    },
    Spec {
        name: "tabula-analyze",
        usage: "tabula-analyze [COLOR] [INTERVAL]",
        args: |i| {
            map((opt(arg(color)), opt(arg(number))), |(color, interval)| {
                Command::LiveAnalyze {
                    color,
                    interval,
                    fields: LiveFields::Tabula,
                }
            })
            .parse(i)
        },
    },
    Spec {
        name: "lz-analyze",
        usage: "lz-analyze [COLOR] [INTERVAL]",
        args: |i| {
            map((opt(arg(color)), opt(arg(number))), |(color, interval)| {
                Command::LiveAnalyze {
                    color,
                    interval,
                    fields: LiveFields::LeelaZero,
                }
            })
            .parse(i)
        },
    },
    Spec {
        name: "play_sequence",
        usage: "play_sequence MOVES",
        args: |i| map(arg(text), Command::PlaySequence).parse(i),
    },
    Spec {
        name: "loadggf",
        usage: "loadggf FILE",
        args: |i| map(arg(text), Command::LoadGgf).parse(i),
    },
    Spec {
        name: "saveggf",
        usage: "saveggf",
        args: |i| none(i, Command::SaveGgf),
    },
    Spec {
        name: "list_games",
        usage: "list_games",
        args: |i| none(i, Command::ListGames),
    },
    Spec {
        name: "set_game",
        usage: "set_game othello|battleship|shell",
        args: set_game,
    },
    Spec {
        name: "clear_board",
        usage: "clear_board",
        args: |i| none(i, Command::ClearBoard),
    },
    Spec {
        name: "boardsize",
        usage: "boardsize N",
        args: |i| map(arg(number), Command::BoardSize).parse(i),
    },
    Spec {
        name: "showboard",
        usage: "showboard [COLOR]",
        args: |i| map(opt(arg(color)), Command::ShowBoard).parse(i),
    },
    Spec {
        name: "position",
        usage: "position",
        args: |i| none(i, Command::Position),
    },
    Spec {
        name: "set_position",
        usage: "set_position TEXT",
        args: |i| map(arg(text), Command::SetPosition).parse(i),
    },
    Spec {
        name: "play",
        usage: "play COLOR MOVE [miss|hit|sunk TYPE]",
        args: play,
    },
    Spec {
        name: "genmove",
        usage: "genmove COLOR",
        args: |i| one_color(i, Command::Genmove),
    },
    Spec {
        name: "reg_genmove",
        usage: "reg_genmove COLOR",
        args: |i| one_color(i, Command::RegGenmove),
    },
    Spec {
        name: "all_legal",
        usage: "all_legal COLOR",
        args: |i| one_color(i, Command::AllLegal),
    },
    Spec {
        name: "is_legal",
        usage: "is_legal COLOR MOVE",
        args: |i| {
            map((arg(color), arg(token)), |(c, m)| {
                Command::IsLegal(c, m.to_string())
            })
            .parse(i)
        },
    },
    Spec {
        name: "undo",
        usage: "undo",
        args: |i| none(i, Command::Undo),
    },
    Spec {
        name: "status",
        usage: "status",
        args: |i| none(i, Command::Status),
    },
    Spec {
        name: "final_score",
        usage: "final_score",
        args: |i| none(i, Command::FinalScore),
    },
    Spec {
        name: "time_settings",
        usage: "time_settings MAIN_SECONDS BYO_YOMI_SECONDS BYO_YOMI_STONES",
        args: |i| {
            map(
                (arg(seconds), arg(seconds), arg(number)),
                |(main, byo_yomi, stones)| Command::TimeSettings {
                    main,
                    byo_yomi,
                    stones,
                },
            )
            .parse(i)
        },
    },
    Spec {
        name: "kgs-time_settings",
        usage: "kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN BYO_YOMI STONES | fischer MAIN INCREMENT",
        args: |i| map(arg(time_system), Command::KgsTimeSettings).parse(i),
    },
    Spec {
        name: "time_left",
        usage: "time_left COLOR SECONDS STONES",
        args: |i| {
            map(
                (arg(color), arg(seconds), arg(number)),
                |(color, seconds, stones)| Command::TimeLeft {
                    color,
                    seconds,
                    stones,
                },
            )
            .parse(i)
        },
    },
    Spec {
        name: "set_option",
        usage: "set_option NAME VALUE",
        args: |i| {
            map((arg(token), arg(token)), |(name, value): (&str, &str)| {
                Command::SetOption {
                    name: name.to_ascii_lowercase(),
                    value: value.to_string(),
                }
            })
            .parse(i)
        },
    },
    Spec {
        name: "perft",
        usage: "perft DEPTH",
        args: |i| map(arg(number), Command::Perft).parse(i),
    },
    Spec {
        name: "solve",
        usage: "solve [COLOR]",
        args: |i| map(opt(arg(color)), Command::Solve).parse(i),
    },
    Spec {
        name: "hint",
        usage: "hint N",
        args: |i| map(arg(number), Command::Hint).parse(i),
    },
    Spec {
        name: "analyze",
        usage: "analyze [N]",
        args: |i| map(opt(arg(number)), Command::Analyze).parse(i),
    },
    Spec {
        name: "resolve_turn",
        usage: "resolve_turn BLACK_CELL WHITE_CELL",
        args: |i| {
            map((arg(token), arg(token)), |(b, w): (&str, &str)| {
                Command::ResolveTurn {
                    black: b.to_string(),
                    white: w.to_string(),
                }
            })
            .parse(i)
        },
    },
    Spec {
        name: "fleet",
        usage: "fleet COLOR SHIP SHIP …",
        args: |i| {
            map((arg(color), arg(text)), |(color, ships)| Command::Fleet {
                color,
                ships,
            })
            .parse(i)
        },
    },
    Spec {
        name: "genfleet",
        usage: "genfleet COLOR",
        args: |i| one_color(i, Command::GenFleet),
    },
    Spec {
        name: "ready",
        usage: "ready COLOR",
        args: |i| one_color(i, Command::Ready),
    },
    Spec {
        name: "start",
        usage: "start",
        args: |i| none(i, Command::Start),
    },
    Spec {
        name: "again",
        usage: "again",
        args: |i| none(i, Command::Again),
    },
    Spec {
        name: "score",
        usage: "score",
        args: |i| none(i, Command::Score),
    },
    Spec {
        name: "offer_draw",
        usage: "offer_draw COLOR",
        args: |i| one_color(i, Command::OfferDraw),
    },
    Spec {
        name: "accept_draw",
        usage: "accept_draw COLOR",
        args: |i| one_color(i, Command::AcceptDraw),
    },
    Spec {
        name: "decline_draw",
        usage: "decline_draw COLOR",
        args: |i| one_color(i, Command::DeclineDraw),
    },
];

fn set_game(input: &str) -> Res<'_, Command> {
    map(arg(token), |name: &str| {
        GameKind::from_name(name).map(Command::SetGame)
    })
    .parse(input)
    .and_then(|(rest, found)| match found {
        Some(command) => Ok((rest, command)),
        // A well-formed name that is no game: marked for `unknown game`.
        None => Err(nom::Err::Failure(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Tag,
        ))),
    })
}

fn play(input: &str) -> Res<'_, Command> {
    map(
        (arg(color), arg(token), opt(arg(claim))),
        |(color, mv, claim)| Command::Play {
            color,
            mv: mv.to_string(),
            claim,
        },
    )
    .parse(input)
}

/// The table entry for `name` (exact, lowercase as listed; GTP names are case-sensitive
/// but we accept any case).
#[must_use]
pub fn spec(name: &str) -> Option<&'static Spec> {
    COMMANDS
        .iter()
        .find(|spec| spec.name.eq_ignore_ascii_case(name))
}

/// Parses a preprocessed, trimmed command line into its id and command.
pub fn parse_line(line: &str) -> (Option<u64>, Result<Command, ParseError>) {
    let (id, rest) = split_id(line);
    let rest = rest.trim_start_matches(' ');
    if rest.is_empty() {
        return (id, Err(ParseError::MissingCommand));
    }
    let name = rest.split(' ').next().unwrap_or(rest);
    let Some(spec) = spec(name) else {
        return (id, Err(ParseError::UnknownCommand));
    };
    // Arguments start after one space; the parsers expect the leading space.
    let args_input = &rest[name.len()..];
    let result = all_consuming(terminated(spec.args, space0)).parse(args_input);
    let parsed = match result {
        Ok((_, command)) => Ok(command),
        Err(_) if spec.name == "set_game" && !args_input.trim().is_empty() => {
            Err(ParseError::UnknownGame)
        }
        Err(_) => Err(ParseError::Syntax { usage: spec.usage }),
    };
    (id, parsed)
}

/// Splits a leading numeric id (digits followed by a space or the end) off `line`.
fn split_id(line: &str) -> (Option<u64>, &str) {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return (None, line);
    }
    let after = &line[digits..];
    if !after.is_empty() && !after.starts_with(' ') {
        return (None, line);
    }
    match line[..digits].parse::<u64>() {
        Ok(id) => (Some(id), after),
        // An id too large for u64 is read as no id; the digits then fail as a name.
        Err(_) => (None, line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> (Option<u64>, Result<Command, ParseError>) {
        match preprocess(line.as_bytes()) {
            Line::Text(text) => parse_line(&text),
            other => panic!("not a command line: {other:?}"),
        }
    }

    #[test]
    fn preprocessing_follows_gtp2() {
        assert_eq!(preprocess(b""), Line::Empty);
        assert_eq!(preprocess(b"   \t "), Line::Empty);
        assert_eq!(preprocess(b"# just a comment"), Line::Empty);
        assert_eq!(
            preprocess(b"\tplay\tb d3 # comment\r"),
            Line::Text("play b d3".into())
        );
        assert_eq!(preprocess(b"na\x01me\x7f"), Line::Text("name".into()));
        assert_eq!(preprocess(b"name \xff\xfe"), Line::InvalidUtf8);
        assert_eq!(preprocess(b"\x00\x00"), Line::Empty);
    }

    #[test]
    fn ids_are_split_off() {
        assert_eq!(parse("12 name"), (Some(12), Ok(Command::Name)));
        assert_eq!(parse("name"), (None, Ok(Command::Name)));
        assert_eq!(parse("7"), (Some(7), Err(ParseError::MissingCommand)));
        assert_eq!(parse("7name").1, Err(ParseError::UnknownCommand));
        assert_eq!(
            parse("99999999999999999999999 name").1,
            Err(ParseError::UnknownCommand)
        );
    }

    #[test]
    fn unknown_commands_and_syntax_errors_differ() {
        assert_eq!(parse("frobnicate").1, Err(ParseError::UnknownCommand));
        assert!(matches!(parse("play b").1, Err(ParseError::Syntax { .. })));
        assert!(matches!(
            parse("play purple d3").1,
            Err(ParseError::Syntax { .. })
        ));
        assert!(matches!(
            parse("boardsize x").1,
            Err(ParseError::Syntax { .. })
        ));
        assert!(matches!(
            parse("boardsize -1").1,
            Err(ParseError::Syntax { .. })
        ));
        assert!(matches!(
            parse("name extra").1,
            Err(ParseError::Syntax { .. })
        ));
        assert_eq!(parse("set_game chess").1, Err(ParseError::UnknownGame));
        assert!(matches!(
            parse("set_game").1,
            Err(ParseError::Syntax { .. })
        ));
        assert!(matches!(
            parse("time_left b -3 0").1,
            Err(ParseError::Syntax { .. })
        ));
        assert!(matches!(parse("komi x").1, Err(ParseError::Syntax { .. })));
        assert!(matches!(
            parse("komi inf").1,
            Err(ParseError::Syntax { .. })
        ));
        assert_eq!(parse("komi -7.5").1, Ok(Command::Komi(-7.5)));
        assert!(matches!(
            parse("time_left b nan 0").1,
            Err(ParseError::Syntax { .. })
        ));
    }

    #[test]
    fn arguments_are_typed() {
        assert_eq!(
            parse("play W D3").1,
            Ok(Command::Play {
                color: Color::White,
                mv: "D3".into(),
                claim: None
            })
        );
        assert_eq!(
            parse("play black c4 sunk Cruiser").1,
            Ok(Command::Play {
                color: Color::Black,
                mv: "c4".into(),
                claim: Some(ShotClaim::Sunk("cruiser".into()))
            })
        );
        assert_eq!(
            parse("play b c4 hit").1,
            Ok(Command::Play {
                color: Color::Black,
                mv: "c4".into(),
                claim: Some(ShotClaim::Hit)
            })
        );
        assert!(matches!(
            parse("play b c4 hitt").1,
            Err(ParseError::Syntax { .. })
        ));
        assert_eq!(
            parse("SET_GAME Shell").1,
            Ok(Command::SetGame(GameKind::Shell))
        );
        assert_eq!(
            parse("time_settings 300 0.5 0").1,
            Ok(Command::TimeSettings {
                main: 300.0,
                byo_yomi: 0.5,
                stones: 0
            })
        );
        assert_eq!(
            parse("kgs-time_settings byoyomi 600 30 5").1,
            Ok(Command::KgsTimeSettings(TimeSystem::Byoyomi {
                main: 600.0,
                period: 30.0,
                periods: 5
            }))
        );
        assert_eq!(
            parse("KGS-time_settings Fischer 60 5").1,
            Ok(Command::KgsTimeSettings(TimeSystem::Fischer {
                main: 60.0,
                increment: 5.0
            }))
        );
        for line in [
            "kgs-time_settings none",
            "kgs-time_settings absolute 300",
            "kgs-time_settings canadian 0 120 25",
        ] {
            let command = parse(line).1.expect(line);
            assert_eq!(command.to_string(), line);
        }
        for bad in [
            "kgs-time_settings",
            "kgs-time_settings none 5",
            "kgs-time_settings nonesuch",
            "kgs-time_settings absolute",
            "kgs-time_settings absolute -1",
            "kgs-time_settings byoyomi 600 30",
            "kgs-time_settings canadian 0 120 2.5",
            "kgs-time_settings fischer 60",
            "kgs-time_settings fischer 60 nan",
            "kgs-time_settings hourglass 60",
        ] {
            assert!(
                matches!(parse(bad).1, Err(ParseError::Syntax { .. })),
                "{bad}"
            );
        }
        assert_eq!(
            parse("set_position  X O  ").1,
            Ok(Command::SetPosition("X O".into()))
        );
    }

    /// Every table entry parses from an example to a command of the same name, and
    /// every command written back with `Display` parses to itself.
    #[test]
    fn table_and_command_names_agree_and_round_trip() {
        let examples = [
            "protocol_version",
            "name",
            "version",
            "known_command play",
            "list_commands",
            "quit",
            "gogui-interrupt",
            "komi 6.5",
            "gogui-rules_game_id",
            "gogui-rules_board_size",
            "gogui-rules_board",
            "gogui-rules_side_to_move",
            "gogui-rules_legal_moves",
            "gogui-rules_final_result",
            "gogui-analyze_commands",
            "tabula-scores_gfx",
            "tabula-heat_gfx black",
            "tabula-mix_gfx white",
            "tabula-analyze black 50",
            "lz-analyze white 25",
            "play_sequence f5d6c3",
            "loadggf game.ggf",
            "saveggf",
            "list_games",
            "set_game othello",
            "clear_board",
            "boardsize 8",
            "showboard white",
            "position",
            "set_position a b",
            "play black d3",
            "genmove white",
            "reg_genmove b",
            "all_legal w",
            "is_legal b d3",
            "undo",
            "status",
            "final_score",
            "time_settings 60 0 0",
            "kgs-time_settings fischer 60 0.5",
            "time_left white 30.5 0",
            "set_option depth 4",
            "perft 3",
            "solve black",
            "hint 3",
            "analyze 2",
            "resolve_turn e5 e6",
            "fleet black A1-A4 C1",
            "genfleet white",
            "ready white",
            "start",
            "again",
            "score",
            "offer_draw black",
            "accept_draw white",
            "decline_draw white",
        ];
        assert_eq!(examples.len(), COMMANDS.len());
        for (example, spec) in examples.iter().zip(COMMANDS) {
            let command = parse(example)
                .1
                .unwrap_or_else(|e| panic!("{example}: {e}"));
            assert_eq!(command.name(), spec.name);
            let again = parse(&command.to_string()).1.expect("round trip");
            assert_eq!(again, command, "{example}");
        }
    }
}
