//! The whole vocabulary of the protocol: one [`Command`] variant per command.
//!
//! Arguments that only a game can interpret (a move, a cell, a position text, a
//! fleet) are kept as the text the caller sent; the session hands them to the game
//! of the moment. Everything the protocol itself can check (colours, numbers, game
//! names, shot results) is parsed here into types.

use std::fmt;

use crate::games::{Color, GameKind};

/// A shot result reported with `play` when the session does not know the target fleet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShotClaim {
    Miss,
    Hit,
    /// `sunk TYPE`: the ship type's name as sent.
    Sunk(String),
}

impl fmt::Display for ShotClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShotClaim::Miss => f.write_str("miss"),
            ShotClaim::Hit => f.write_str("hit"),
            ShotClaim::Sunk(kind) => write!(f, "sunk {kind}"),
        }
    }
}

/// A time system, as `kgs-time_settings` names them (seconds). GTP's own
/// `time_settings` maps onto the first four ([`TimeSystem::from_gtp`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No time limit.
    None,
    /// `main` seconds for the whole game.
    Absolute { main: f64 },
    /// Japanese byo-yomi: `main` seconds, then `periods` periods of `period` seconds;
    /// a move played within a period keeps it.
    Byoyomi {
        main: f64,
        period: f64,
        periods: u32,
    },
    /// Canadian byo-yomi: `main` seconds, then `byo_yomi` seconds for every `stones`
    /// moves.
    Canadian {
        main: f64,
        byo_yomi: f64,
        stones: u32,
    },
    /// `main` seconds, and `increment` seconds added after each own move.
    Fischer { main: f64, increment: f64 },
}

impl TimeSystem {
    /// GTP 2's `time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES`: byo-yomi time > 0
    /// with 0 stones is no time limit, byo-yomi time 0 is absolute time, anything
    /// else Canadian byo-yomi.
    #[must_use]
    pub fn from_gtp(main: f64, byo_yomi: f64, stones: u32) -> TimeSystem {
        if byo_yomi > 0.0 && stones == 0 {
            TimeSystem::None
        } else if byo_yomi == 0.0 {
            TimeSystem::Absolute { main }
        } else {
            TimeSystem::Canadian {
                main,
                byo_yomi,
                stones,
            }
        }
    }
}

/// The arguments of `kgs-time_settings`.
impl fmt::Display for TimeSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeSystem::None => f.write_str("none"),
            TimeSystem::Absolute { main } => write!(f, "absolute {main}"),
            TimeSystem::Byoyomi {
                main,
                period,
                periods,
            } => write!(f, "byoyomi {main} {period} {periods}"),
            TimeSystem::Canadian {
                main,
                byo_yomi,
                stones,
            } => write!(f, "canadian {main} {byo_yomi} {stones}"),
            TimeSystem::Fischer { main, increment } => write!(f, "fischer {main} {increment}"),
        }
    }
}

/// The fields a live analysis writes for each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiveFields {
    /// `tabula-analyze`: the engine's own figures (`score`, `exact`, `depth`, `nodes`).
    Tabula,
    /// `lz-analyze`: Leela Zero's `visits` and `winrate` (in hundredths of a
    /// percent) first, squares in capitals, then the engine's figures.
    LeelaZero,
}

/// GoGui's referee queries, `gogui-rules_*`: what GoGui asks a program that knows
/// the rules of a game other than Go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesQuery {
    GameId,
    BoardSize,
    Board,
    SideToMove,
    LegalMoves,
    FinalResult,
}

impl RulesQuery {
    /// The command's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            RulesQuery::GameId => "gogui-rules_game_id",
            RulesQuery::BoardSize => "gogui-rules_board_size",
            RulesQuery::Board => "gogui-rules_board",
            RulesQuery::SideToMove => "gogui-rules_side_to_move",
            RulesQuery::LegalMoves => "gogui-rules_legal_moves",
            RulesQuery::FinalResult => "gogui-rules_final_result",
        }
    }
}

/// One command of the protocol with its arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    /// `gogui-interrupt`: says the engine honours `# interrupt` lines; does nothing.
    GoguiInterrupt,
    /// GTP 2's `komi FLOAT`: accepted and ignored (no game here has komi).
    Komi(f64),
    /// `gogui-rules_*`: GoGui's referee queries (Othello).
    GoguiRules(RulesQuery),
    /// `gogui-analyze_commands`: the analyses GoGui offers in its menu.
    GoguiAnalyzeCommands,
    /// `tabula-scores_gfx`: every legal move's score as GoGui board labels (Othello).
    ScoresGfx,
    /// `tabula-heat_gfx COLOR`: the hunter's hit probabilities for COLOR's shots
    /// (Battleship).
    HeatGfx(Color),
    /// `tabula-mix_gfx COLOR`: the search's mixed strategy for COLOR (What the Shell).
    MixGfx(Color),
    /// `tabula-analyze [COLOR] [INTERVAL]`: a live analysis streamed every INTERVAL
    /// centiseconds until the next command (in the shape of `lz-analyze`); and
    /// `lz-analyze [COLOR] [INTERVAL]`, the same analysis with Leela Zero's fields
    /// (Othello).
    LiveAnalyze {
        color: Option<Color>,
        interval: Option<u32>,
        fields: LiveFields,
    },
    /// `play_sequence MOVES`: an Othello transcript (`f5d6c3…`) played in order.
    PlaySequence(String),
    /// `loadggf FILE`: an Othello game read from a GGF file.
    LoadGgf(String),
    /// `saveggf`: the Othello game so far as GGF.
    SaveGgf,
    ListGames,
    SetGame(GameKind),
    ClearBoard,
    BoardSize(u32),
    /// `showboard [COLOR]`: the colour is whose view Battleship draws (default black).
    ShowBoard(Option<Color>),
    Position,
    SetPosition(String),
    /// `play COLOR MOVE [RESULT]`: the result only in Battleship's player mode.
    Play {
        color: Color,
        mv: String,
        claim: Option<ShotClaim>,
    },
    Genmove(Color),
    RegGenmove(Color),
    AllLegal(Color),
    IsLegal(Color, String),
    Undo,
    Status,
    FinalScore,
    /// GTP's `time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES`, in seconds.
    TimeSettings {
        main: f64,
        byo_yomi: f64,
        stones: u32,
    },
    /// KGS's `kgs-time_settings SYSTEM ARGS…`: `none`, `absolute MAIN`, `byoyomi MAIN
    /// PERIOD PERIODS`, `canadian MAIN BYO_YOMI STONES`, and `fischer MAIN INCREMENT`.
    KgsTimeSettings(TimeSystem),
    /// GTP's `time_left COLOR TIME STONES`, in seconds.
    TimeLeft {
        color: Color,
        seconds: f64,
        stones: u32,
    },
    SetOption {
        name: String,
        value: String,
    },
    Perft(u32),
    /// `solve [COLOR]`: the exact best move and final disc difference (Othello).
    Solve(Option<Color>),
    /// `hint N`: the N best moves with their scores (Othello).
    Hint(u32),
    /// `analyze [N]`: every legal move (or the N best) with its score (Othello).
    Analyze(Option<u32>),
    ResolveTurn {
        black: String,
        white: String,
    },
    Fleet {
        color: Color,
        ships: String,
    },
    GenFleet(Color),
    Ready(Color),
    Start,
    Again,
    Score,
    OfferDraw(Color),
    AcceptDraw(Color),
    DeclineDraw(Color),
}

impl Command {
    /// The command's name as typed. Exhaustive, so a new variant cannot be forgotten;
    /// a test checks every name here is in the parser's table and back.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Command::ProtocolVersion => "protocol_version",
            Command::Name => "name",
            Command::Version => "version",
            Command::KnownCommand(_) => "known_command",
            Command::ListCommands => "list_commands",
            Command::Quit => "quit",
            Command::GoguiInterrupt => "gogui-interrupt",
            Command::Komi(_) => "komi",
            Command::GoguiRules(query) => query.name(),
            Command::GoguiAnalyzeCommands => "gogui-analyze_commands",
            Command::ScoresGfx => "tabula-scores_gfx",
            Command::HeatGfx(_) => "tabula-heat_gfx",
            Command::MixGfx(_) => "tabula-mix_gfx",
            Command::LiveAnalyze {
                fields: LiveFields::Tabula,
                ..
            } => "tabula-analyze",
            Command::LiveAnalyze {
                fields: LiveFields::LeelaZero,
                ..
            } => "lz-analyze",
            Command::PlaySequence(_) => "play_sequence",
            Command::LoadGgf(_) => "loadggf",
            Command::SaveGgf => "saveggf",
            Command::ListGames => "list_games",
            Command::SetGame(_) => "set_game",
            Command::ClearBoard => "clear_board",
            Command::BoardSize(_) => "boardsize",
            Command::ShowBoard(_) => "showboard",
            Command::Position => "position",
            Command::SetPosition(_) => "set_position",
            Command::Play { .. } => "play",
            Command::Genmove(_) => "genmove",
            Command::RegGenmove(_) => "reg_genmove",
            Command::AllLegal(_) => "all_legal",
            Command::IsLegal(..) => "is_legal",
            Command::Undo => "undo",
            Command::Status => "status",
            Command::FinalScore => "final_score",
            Command::TimeSettings { .. } => "time_settings",
            Command::KgsTimeSettings(_) => "kgs-time_settings",
            Command::TimeLeft { .. } => "time_left",
            Command::SetOption { .. } => "set_option",
            Command::Perft(_) => "perft",
            Command::Solve(_) => "solve",
            Command::Hint(_) => "hint",
            Command::Analyze(_) => "analyze",
            Command::ResolveTurn { .. } => "resolve_turn",
            Command::Fleet { .. } => "fleet",
            Command::GenFleet(_) => "genfleet",
            Command::Ready(_) => "ready",
            Command::Start => "start",
            Command::Again => "again",
            Command::Score => "score",
            Command::OfferDraw(_) => "offer_draw",
            Command::AcceptDraw(_) => "accept_draw",
            Command::DeclineDraw(_) => "decline_draw",
        }
    }

    /// True for commands that think or count for long, and so honour the session's
    /// stop flag (raised by `# interrupt`): `perft` answers `interrupted`, the others
    /// their best so far.
    #[must_use]
    pub fn thinks(&self) -> bool {
        matches!(
            self,
            Command::Genmove(_)
                | Command::RegGenmove(_)
                | Command::Solve(_)
                | Command::Hint(_)
                | Command::Analyze(_)
                | Command::Perft(_)
                | Command::ScoresGfx
                | Command::HeatGfx(_)
                | Command::MixGfx(_)
                | Command::LiveAnalyze { .. }
        )
    }

    /// True for commands whose answer is a stream of lines that runs until the
    /// next command arrives (`tabula-analyze`).
    #[must_use]
    pub fn streams(&self) -> bool {
        matches!(self, Command::LiveAnalyze { .. })
    }
}

/// Writes the command back as a line the parser reads to the same command.
impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        match self {
            Command::KnownCommand(name) => write!(f, " {name}"),
            Command::Komi(komi) => write!(f, " {komi}"),
            Command::SetGame(kind) => write!(f, " {}", kind.name()),
            Command::BoardSize(size) => write!(f, " {size}"),
            Command::SetPosition(text) | Command::PlaySequence(text) | Command::LoadGgf(text) => {
                write!(f, " {text}")
            }
            Command::Play { color, mv, claim } => {
                write!(f, " {} {mv}", color.name())?;
                match claim {
                    Some(claim) => write!(f, " {claim}"),
                    None => Ok(()),
                }
            }
            Command::Genmove(color)
            | Command::RegGenmove(color)
            | Command::AllLegal(color)
            | Command::GenFleet(color)
            | Command::Ready(color)
            | Command::OfferDraw(color)
            | Command::AcceptDraw(color)
            | Command::DeclineDraw(color)
            | Command::HeatGfx(color)
            | Command::MixGfx(color) => write!(f, " {}", color.name()),
            Command::IsLegal(color, mv) => write!(f, " {} {mv}", color.name()),
            Command::LiveAnalyze {
                color, interval, ..
            } => {
                if let Some(color) = color {
                    write!(f, " {}", color.name())?;
                }
                if let Some(interval) = interval {
                    write!(f, " {interval}")?;
                }
                Ok(())
            }
            Command::ShowBoard(Some(color)) => write!(f, " {}", color.name()),
            Command::ShowBoard(None) => Ok(()),
            Command::TimeSettings {
                main,
                byo_yomi,
                stones,
            } => write!(f, " {main} {byo_yomi} {stones}"),
            Command::KgsTimeSettings(system) => write!(f, " {system}"),
            Command::TimeLeft {
                color,
                seconds,
                stones,
            } => write!(f, " {} {seconds} {stones}", color.name()),
            Command::SetOption { name, value } => write!(f, " {name} {value}"),
            Command::Perft(depth) | Command::Hint(depth) => write!(f, " {depth}"),
            Command::Solve(Some(color)) => write!(f, " {}", color.name()),
            Command::Solve(None) => Ok(()),
            Command::Analyze(Some(count)) => write!(f, " {count}"),
            Command::Analyze(None) => Ok(()),
            Command::ResolveTurn { black, white } => write!(f, " {black} {white}"),
            Command::Fleet { color, ships } => write!(f, " {} {ships}", color.name()),
            Command::ProtocolVersion
            | Command::Name
            | Command::Version
            | Command::ListCommands
            | Command::Quit
            | Command::GoguiInterrupt
            | Command::GoguiRules(_)
            | Command::GoguiAnalyzeCommands
            | Command::ScoresGfx
            | Command::SaveGgf
            | Command::ListGames
            | Command::ClearBoard
            | Command::Position
            | Command::Undo
            | Command::Status
            | Command::FinalScore
            | Command::Start
            | Command::Again
            | Command::Score => Ok(()),
        }
    }
}
