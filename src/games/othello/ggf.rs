//! GGF, the Generic Game Format of Othello servers and GUIs (GGS, NBoard), for one
//! Othello game: read to a start position and its moves, and written back.
//!
//! A game is `(;` properties `;)`, each property an uppercase key and a bracketed
//! value: `GM[Othello]`, players `PB[…]` `PW[…]`, the board type `TY[8]`, the start
//! position `BO[8 <64 cells> <side>]` (cells row by row from a1, `*` black, `O`
//! white, `-` empty; the side `*` or `O`), then the moves in order, `B[d3]` or
//! `W[c5/-1.20/3.4]` (a move, then optionally its evaluation and the seconds it
//! took), `PA` for a pass. Other properties (date, place, clocks, result) are kept
//! as they were read and written back. Pure: no input or output here.

use std::fmt;

use super::position::{Move, Position};
use crate::games::Color;

/// One Othello game as GGF holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// The position before the first move.
    pub start: Position,
    /// The moves from the start, passes included, every one legal.
    pub moves: Vec<Move>,
    /// The other properties, key and value, in the order read (`GM`, `BO`, `TY`
    /// and the moves are not among them).
    pub properties: Vec<(String, String)>,
}

/// Why a text is not an Othello game in GGF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GgfError {
    /// The text does not have the `(;` … `;)` shape or a property is not `KEY[VALUE]`.
    Shape(String),
    /// `GM` names another game.
    NotOthello(String),
    /// The board is not 8×8 (`TY` or `BO` say another size).
    Size(String),
    /// `BO` is missing or is not a board.
    Board(String),
    /// A move that is not a square or a pass, or that is illegal where it stands.
    Move { number: usize, text: String },
}

impl fmt::Display for GgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GgfError::Shape(why) => write!(f, "not a GGF game: {why}"),
            GgfError::NotOthello(game) => write!(f, "not an Othello game: GM[{game}]"),
            GgfError::Size(size) => write!(f, "only 8x8 boards are played, not {size}"),
            GgfError::Board(why) => write!(f, "bad start board: {why}"),
            GgfError::Move { number, text } => write!(f, "move {number} ({text}) is not legal"),
        }
    }
}

impl std::error::Error for GgfError {}

impl Game {
    /// A game from the standard start with `moves` (checked by [`Game::final_position`]
    /// users; [`read`] checks every move).
    #[must_use]
    pub fn new(start: Position, moves: Vec<Move>) -> Game {
        Game {
            start,
            moves,
            properties: Vec::new(),
        }
    }

    /// The position after every move.
    #[must_use]
    pub fn final_position(&self) -> Position {
        let mut position = self.start;
        for &mv in &self.moves {
            let side = position.side_to_move();
            // Every move was checked when the game was read or built by play.
            let _ = position.play(side, mv);
        }
        position
    }
}

/// Plays `mv` for the side to move; a square given when the side to move must pass
/// is read as that pass and then the square for the other side (records and GUIs
/// sometimes leave forced passes out). Answers the moves played; on a refusal the
/// position is unchanged.
pub fn play_lenient(position: &mut Position, mv: Move) -> Result<Vec<Move>, String> {
    let side = position.side_to_move();
    if position.play(side, mv).is_ok() {
        return Ok(vec![mv]);
    }
    if mv != Move::Pass && !position.is_over() && position.legal_moves() == [Move::Pass] {
        let mut passed = *position;
        passed.play(side, Move::Pass).map_err(|e| e.to_string())?;
        let other = passed.side_to_move();
        passed.play(other, mv).map_err(|e| e.to_string())?;
        *position = passed;
        return Ok(vec![Move::Pass, mv]);
    }
    let mut copy = *position;
    Err(match copy.play(side, mv) {
        Err(e) => e.to_string(),
        Ok(()) => format!("{mv} is illegal"),
    })
}

/// A move as GGF and NBoard write it: `PA` for a pass, a square otherwise (any
/// case); the evaluation and time after `/` are ignored.
#[must_use]
pub fn parse_move(text: &str) -> Option<Move> {
    let square = text.split('/').next()?.trim();
    if square.eq_ignore_ascii_case("pa") || square.eq_ignore_ascii_case("pass") {
        return Some(Move::Pass);
    }
    Move::parse(square)
}

/// A move written for GGF and NBoard: `D3`, or `PA` for a pass.
#[must_use]
pub fn move_text(mv: Move) -> String {
    match mv {
        Move::Pass => "PA".into(),
        Move::Place(square) => square.to_string().to_ascii_uppercase(),
    }
}

/// The `KEY[VALUE]` properties between `(;` and `;)`.
fn properties(text: &str) -> Result<Vec<(String, String)>, GgfError> {
    let body = text
        .trim()
        .strip_prefix("(;")
        .and_then(|t| t.strip_suffix(";)"))
        .ok_or_else(|| GgfError::Shape("a game is (; … ;)".into()))?;
    let mut found = Vec::new();
    let mut rest = body.trim_start();
    while !rest.is_empty() {
        let key_len = rest
            .find(|c: char| !c.is_ascii_uppercase())
            .unwrap_or(rest.len());
        if key_len == 0 {
            return Err(GgfError::Shape(format!(
                "expected a property name at {:?}",
                rest.chars().take(12).collect::<String>()
            )));
        }
        let (key, after) = rest.split_at(key_len);
        let after = after
            .strip_prefix('[')
            .ok_or_else(|| GgfError::Shape(format!("{key} has no [value]")))?;
        let end = after
            .find(']')
            .ok_or_else(|| GgfError::Shape(format!("{key}[ is not closed")))?;
        found.push((key.to_string(), after[..end].to_string()));
        rest = after[end + 1..].trim_start();
    }
    Ok(found)
}

/// The start position from a `BO` value: the size, 64 cells (spaces allowed between
/// them) and the side to move.
fn board(value: &str) -> Result<Position, GgfError> {
    let value = value.trim();
    let (size, rest) = value
        .split_once(char::is_whitespace)
        .ok_or_else(|| GgfError::Board("expected SIZE CELLS SIDE".into()))?;
    if size != "8" {
        return Err(GgfError::Size(size.to_string()));
    }
    let symbols: Vec<char> = rest.chars().filter(|c| !c.is_whitespace()).collect();
    if symbols.len() != 65 {
        return Err(GgfError::Board(format!(
            "expected 64 cells and a side, found {} symbols",
            symbols.len()
        )));
    }
    let mut notation = String::with_capacity(66);
    for (i, &c) in symbols.iter().enumerate() {
        if i == 64 {
            notation.push(' ');
        }
        notation.push(match c {
            '*' | 'X' | 'x' | 'B' | 'b' => 'X',
            'O' | 'o' | 'W' | 'w' => 'O',
            '-' | '.' if i < 64 => '-',
            other => return Err(GgfError::Board(format!("{other:?} is not a cell or side"))),
        });
    }
    Position::from_notation(&notation).map_err(|e| GgfError::Board(e.to_string()))
}

/// Reads one Othello game in GGF.
pub fn read(text: &str) -> Result<Game, GgfError> {
    let mut start = None;
    let mut moves: Vec<(Color, String)> = Vec::new();
    let mut others = Vec::new();
    for (key, value) in properties(text)? {
        match key.as_str() {
            "GM" => {
                if !value.trim().eq_ignore_ascii_case("othello") {
                    return Err(GgfError::NotOthello(value));
                }
            }
            "TY" => {
                let digits: String = value.chars().take_while(char::is_ascii_digit).collect();
                if digits != "8" {
                    return Err(GgfError::Size(value));
                }
            }
            "BO" => start = Some(board(&value)?),
            "B" => moves.push((Color::Black, value)),
            "W" => moves.push((Color::White, value)),
            _ => others.push((key, value)),
        }
    }
    let start = start.ok_or_else(|| GgfError::Board("no BO[…] property".into()))?;
    let mut position = start;
    let mut played = Vec::new();
    for (i, (color, text)) in moves.into_iter().enumerate() {
        let wrong = || GgfError::Move {
            number: i + 1,
            text: text.clone(),
        };
        let mv = parse_move(&text).ok_or_else(wrong)?;
        if position.side_to_move() != color {
            // A pass left out: the side to move must pass for `color` to move.
            if position.legal_moves() != [Move::Pass] {
                return Err(wrong());
            }
            let side = position.side_to_move();
            position.play(side, Move::Pass).map_err(|_| wrong())?;
            played.push(Move::Pass);
        }
        position.play(color, mv).map_err(|_| wrong())?;
        played.push(mv);
    }
    Ok(Game {
        start,
        moves: played,
        properties: others,
    })
}

/// Writes `game` as GGF: `GM`, the kept properties, `TY`, `RE` when the game is
/// over and none was kept (black's final margin), `BO`, then the moves.
#[must_use]
pub fn write(game: &Game) -> String {
    let mut text = String::from("(;GM[Othello]");
    for (key, value) in &game.properties {
        text.push_str(&format!("{key}[{value}]"));
    }
    let end = game.final_position();
    if end.is_over() && !game.properties.iter().any(|(k, _)| k == "RE") {
        text.push_str(&format!("RE[{:+}]", end.final_margin()));
    }
    text.push_str("TY[8]BO[8 ");
    let notation = game.start.to_notation();
    for c in notation.chars().take(64) {
        text.push(match c {
            'X' => '*',
            'O' => 'O',
            _ => '-',
        });
    }
    text.push(' ');
    text.push(if game.start.side_to_move() == Color::Black {
        '*'
    } else {
        'O'
    });
    text.push(']');
    let mut position = game.start;
    for &mv in &game.moves {
        let side = position.side_to_move();
        let key = if side == Color::Black { 'B' } else { 'W' };
        text.push_str(&format!("{key}[{}]", move_text(mv)));
        let _ = position.play(side, mv);
    }
    text.push_str(";)");
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn random_game(rng: &mut Rng) -> Game {
        let start = Position::start();
        // Some games stop early, so unfinished games are written too.
        let stop_at = if rng.below(4) == 0 {
            rng.below(60) as usize
        } else {
            usize::MAX
        };
        let (_, moves) = crate::games::othello::random_play(rng, |_, moves| moves.len() >= stop_at);
        let mut game = Game::new(start, moves);
        game.properties.push(("PB".into(), "one".into()));
        game.properties.push(("PW".into(), "two".into()));
        game
    }

    #[test]
    fn a_hundred_random_games_round_trip() {
        let mut rng = Rng::new(19);
        let mut passes = 0;
        for _ in 0..100 {
            let game = random_game(&mut rng);
            passes += game.moves.iter().filter(|m| **m == Move::Pass).count();
            let text = write(&game);
            let back = read(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
            assert_eq!(back.start, game.start);
            assert_eq!(back.moves, game.moves, "{text}");
            assert_eq!(back.final_position(), game.final_position());
            assert_eq!(write(&back), text);
        }
        assert!(passes > 0, "the sample has games with passes");
    }

    /// The position after f5 d6 c3 d3 c4 f4 f6 f3.
    const FIXTURE_END: &str = "------------------XO-O----XXOO-----OXX-----O-X------------------ X";

    #[test]
    fn a_game_written_by_hand_reads_back_to_its_position() {
        let text = include_str!("../../../tests/fixtures/othello.ggf");
        let game = read(text).expect("the fixture reads");
        assert_eq!(game.moves.len(), 8);
        let mut position = Position::start();
        for mv in ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3"] {
            let side = position.side_to_move();
            position
                .play(side, Move::parse(mv).unwrap())
                .expect("legal");
        }
        assert_eq!(game.start, Position::start());
        assert_eq!(game.final_position(), position);
        assert_eq!(game.final_position().to_notation(), FIXTURE_END);
        assert!(
            game.properties
                .iter()
                .any(|(k, v)| k == "PB" && v == "Alice")
        );
    }

    #[test]
    fn a_left_out_pass_is_read_as_a_pass() {
        // White has no move, black has h8: `B[H8]` right away means white passed.
        let board = format!(
            "{}OXXXXXXX{}XXXXXXXOXXXXXX--",
            "*".repeat(24),
            "*".repeat(16)
        )
        .replace('X', "*");
        let text = format!("(;GM[Othello]BO[8 {board} O]B[H8];)");
        let game = read(&text).expect("reads");
        assert_eq!(game.moves, [Move::Pass, Move::parse("h8").unwrap()]);
    }

    #[test]
    fn malformed_games_are_refused_with_the_reason() {
        let start = "BO[8 ---------------------------O*------*O--------------------------- *]";
        assert!(matches!(read("GM[Othello]"), Err(GgfError::Shape(_))));
        assert!(matches!(read("(;GM[Othello];)"), Err(GgfError::Board(_))));
        assert!(matches!(
            read(&format!("(;GM[Chess]{start};)")),
            Err(GgfError::NotOthello(_))
        ));
        assert!(matches!(
            read(&format!("(;GM[Othello]TY[10]{start};)")),
            Err(GgfError::Size(_))
        ));
        assert!(matches!(
            read("(;GM[Othello]BO[10 ---- *];)"),
            Err(GgfError::Size(_))
        ));
        assert!(matches!(
            read(&format!("(;GM[Othello]{start}B[A1];)")),
            Err(GgfError::Move { number: 1, .. })
        ));
        assert!(matches!(
            read(&format!("(;GM[Othello]{start}W[D3];)")),
            Err(GgfError::Move { number: 1, .. })
        ));
        assert!(matches!(
            read(&format!("(;GM[Othello]{start}B[D3]W[zz];)")),
            Err(GgfError::Move { number: 2, .. })
        ));
        assert!(matches!(
            read(&format!("(;GM[Othello]{start}B[D3;)")),
            Err(GgfError::Shape(_))
        ));
        assert!(matches!(
            read("(;GM[Othello]BO[8 -- *];)"),
            Err(GgfError::Board(_))
        ));
    }

    #[test]
    fn moves_read_with_evaluations_and_times() {
        assert_eq!(parse_move("d3//0.01"), Move::parse("d3"));
        assert_eq!(parse_move("C5/-1.20/3.4"), Move::parse("c5"));
        assert_eq!(parse_move("PA"), Some(Move::Pass));
        assert_eq!(parse_move("pass/0/0"), Some(Move::Pass));
        assert_eq!(parse_move("k9"), None);
        assert_eq!(move_text(Move::Pass), "PA");
        assert_eq!(move_text(Move::parse("f5").unwrap()), "F5");
    }
}
