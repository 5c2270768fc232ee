//! An Othello position: the board, whose turn it is, and everything the rules say
//! about it (O1–O4), plus the 64-character notation and a picture for people.
//!
//! Invariants: the two disc sets never overlap (kept by [`Board`]), and `side` is the
//! colour of `board.player`. A parsed position also has the four centre squares
//! occupied and its discs 8-connected, as every position reached from the start has.

use std::fmt;

use super::bitboard::{self, Board};
use crate::games::{Color, Status};

/// A square of the 8×8 board, 0..64 from a1 (`row * 8 + column`, row 1 at the top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at `index` (0..64), or `None` off the board.
    #[must_use]
    pub fn new(index: u32) -> Option<Square> {
        (index < 64).then_some(Square(index as u8))
    }

    /// The index 0..64.
    #[must_use]
    pub fn index(self) -> u32 {
        u32::from(self.0)
    }

    /// This square as a one-bit set.
    #[must_use]
    pub fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Reads `a1`…`h8` in any case; anything else is `None`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let column = bytes[0].to_ascii_lowercase().checked_sub(b'a')?;
        let row = bytes[1].checked_sub(b'1')?;
        (column < 8 && row < 8).then(|| Square(row * 8 + column))
    }

    /// The squares of a set, lowest index first (row 1 first, left to right).
    pub fn all_in(mut set: u64) -> impl Iterator<Item = Square> {
        std::iter::from_fn(move || {
            (set != 0).then(|| {
                let index = set.trailing_zeros();
                set &= set - 1;
                Square(index as u8)
            })
        })
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let column = char::from(b'a' + self.0 % 8);
        let row = char::from(b'1' + self.0 / 8);
        write!(f, "{column}{row}")
    }
}

/// A move: a disc on a square, or a pass (O3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Place(Square),
    Pass,
}

impl Move {
    /// Reads a square (any case) or `pass` (any case).
    #[must_use]
    pub fn parse(text: &str) -> Option<Move> {
        if text.eq_ignore_ascii_case("pass") {
            Some(Move::Pass)
        } else {
            Square::parse(text).map(Move::Place)
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(square) => square.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Why a move was refused. The position is unchanged after any of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OthelloError {
    /// Neither side can move any more (O4).
    GameOver,
    /// The colour named is not the side to move.
    NotYourTurn { to_move: Color },
    /// The square already holds a disc.
    Occupied(Square),
    /// The square brackets no opponent disc in any direction (O2).
    NoFlips(Square),
    /// A pass while a legal move exists (O3).
    PassWithMoves,
}

impl fmt::Display for OthelloError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OthelloError::GameOver => f.write_str("the game is over"),
            OthelloError::NotYourTurn { to_move } => write!(f, "{} is to move", to_move.name()),
            OthelloError::Occupied(square) => write!(f, "{square} is occupied"),
            OthelloError::NoFlips(square) => write!(f, "{square} flips no disc"),
            OthelloError::PassWithMoves => f.write_str("a pass is legal only without a move"),
        }
    }
}

impl std::error::Error for OthelloError {}

/// Why a position text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Not 64 board characters, a space and a side to move.
    Shape,
    /// A board character that is none of `X`, `O`, `-` (also `x`, `o`, `*`, `.`).
    BadCharacter { square: Square, found: char },
    /// The side to move is neither `X` nor `O`.
    BadSide(String),
    /// One of d4, e4, d5, e5 is empty: those squares are filled from the start (O1).
    EmptyCentre(Square),
    /// A disc that no chain of neighbouring discs links to the centre: no game
    /// reaches that (every move is next to a disc, O2).
    Unreachable(Square),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Shape => f.write_str(
                "expected 64 board characters (X, O, -), a space, and X or O for the side to move",
            ),
            NotationError::BadCharacter { square, found } => {
                write!(f, "unexpected character {found:?} at {square}")
            }
            NotationError::BadSide(side) => {
                write!(f, "side to move must be X or O, not {side:?}")
            }
            NotationError::EmptyCentre(square) => {
                write!(f, "impossible position: centre square {square} is empty")
            }
            NotationError::Unreachable(square) => write!(
                f,
                "impossible position: the disc on {square} is not connected to the centre"
            ),
        }
    }
}

impl std::error::Error for NotationError {}

/// The four centre squares d4, e4, d5, e5.
const CENTRE: u64 = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36);

/// All squares one step from any square of `set`.
fn neighbours(set: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let row = set | ((set << 1) & NOT_A) | ((set >> 1) & NOT_H);
    row | (row << 8) | (row >> 8)
}

/// An Othello position with its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    side: Color,
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// The start (O1): white d4 and e5, black e4 and d5, black to move.
    #[must_use]
    pub fn start() -> Position {
        let white = (1u64 << 27) | (1 << 36);
        let black = (1u64 << 28) | (1 << 35);
        Position {
            board: Board {
                player: black,
                opponent: white,
            },
            side: Color::Black,
        }
    }

    /// A position from a side-relative board and the colour of its `player`.
    /// The caller guarantees the sets do not overlap.
    #[must_use]
    pub fn from_board(board: Board, side: Color) -> Position {
        Position { board, side }
    }

    /// The side-relative board (player = side to move).
    #[must_use]
    pub fn board(&self) -> Board {
        self.board
    }

    /// The side to move.
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The discs of `color`.
    #[must_use]
    pub fn discs(&self, color: Color) -> u64 {
        if color == self.side {
            self.board.player
        } else {
            self.board.opponent
        }
    }

    /// The legal moves of the side to move as a set of squares (O2).
    #[must_use]
    pub fn moves(&self) -> u64 {
        self.board.moves()
    }

    /// The legal moves of the side to move, in canonical order (row 1 first, left to
    /// right); `[Pass]` when the side must pass (O3); empty when the game is over (O4).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let moves = self.moves();
        if moves != 0 {
            Square::all_in(moves).map(Move::Place).collect()
        } else if self.board.passed().moves() != 0 {
            vec![Move::Pass]
        } else {
            Vec::new()
        }
    }

    /// True when neither side can move (O4).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.moves() == 0 && self.board.passed().moves() == 0
    }

    /// Checks that the side to move may play `mv`, and returns the discs it flips
    /// (0 for a pass).
    pub fn check(&self, mv: Move) -> Result<u64, OthelloError> {
        if self.is_over() {
            return Err(OthelloError::GameOver);
        }
        match mv {
            Move::Pass if self.moves() != 0 => Err(OthelloError::PassWithMoves),
            Move::Pass => Ok(0),
            Move::Place(square)
                if (self.board.player | self.board.opponent) & square.bit() != 0 =>
            {
                Err(OthelloError::Occupied(square))
            }
            Move::Place(square) => {
                match bitboard::flips(self.board.player, self.board.opponent, square.index()) {
                    0 => Err(OthelloError::NoFlips(square)),
                    flipped => Ok(flipped),
                }
            }
        }
    }

    /// Plays `mv` for `color`, refusing a colour that is not to move and any illegal
    /// move; on error nothing changes.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), OthelloError> {
        if color != self.side && !self.is_over() {
            return Err(OthelloError::NotYourTurn { to_move: self.side });
        }
        let flipped = self.check(mv)?;
        self.play_unchecked(mv, flipped);
        Ok(())
    }

    /// Plays `mv` flipping `flipped` without checking. Precondition: `flipped` is what
    /// [`Position::check`] returned for `mv` on this position.
    pub fn play_unchecked(&mut self, mv: Move, flipped: u64) {
        self.board = match mv {
            Move::Place(square) => self.board.after(square.index(), flipped),
            Move::Pass => self.board.passed(),
        };
        self.side = self.side.opponent();
    }

    /// Disc counts (black, white).
    #[must_use]
    pub fn counts(&self) -> (u32, u32) {
        (
            self.discs(Color::Black).count_ones(),
            self.discs(Color::White).count_ones(),
        )
    }

    /// Black's discs minus white's, with the empty squares added to the winner (O4).
    /// Meaningful as a final result once the game is over.
    #[must_use]
    pub fn final_margin(&self) -> i32 {
        let score = super::properties::final_score(&self.board);
        match self.side {
            Color::Black => score,
            Color::White => -score,
        }
    }

    /// Ongoing, or the result once neither side can move (O4).
    #[must_use]
    pub fn status(&self) -> Status {
        if !self.is_over() {
            return Status::Ongoing;
        }
        match self.final_margin().cmp(&0) {
            std::cmp::Ordering::Greater => Status::BlackWins,
            std::cmp::Ordering::Less => Status::WhiteWins,
            std::cmp::Ordering::Equal => Status::Draw,
        }
    }

    /// The 64-character board from a1 to h8 (`X` black, `O` white, `-` empty), a space,
    /// and `X` or `O` for the side to move.
    #[must_use]
    pub fn to_notation(&self) -> String {
        let black = self.discs(Color::Black);
        let white = self.discs(Color::White);
        let mut text: String = (0..64)
            .map(|i| {
                let bit = 1u64 << i;
                if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect();
        text.push(' ');
        text.push(if self.side == Color::Black { 'X' } else { 'O' });
        text
    }

    /// Reads the notation of [`Position::to_notation`]. Also accepts `x`/`*` for
    /// black, `o` for white and `.` for empty, and surrounding whitespace. Refuses a
    /// board no game can reach: an empty centre square or a disc cut off from the rest.
    pub fn from_notation(text: &str) -> Result<Position, NotationError> {
        let text = text.trim();
        let (cells, side) = text
            .split_once(char::is_whitespace)
            .ok_or(NotationError::Shape)?;
        let side = side.trim();
        if cells.chars().count() != 64 {
            return Err(NotationError::Shape);
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (index, ch) in cells.chars().enumerate() {
            let bit = 1u64 << index;
            match ch {
                'X' | 'x' | '*' => black |= bit,
                'O' | 'o' => white |= bit,
                '-' | '.' => {}
                found => {
                    let square = Square(index as u8);
                    return Err(NotationError::BadCharacter { square, found });
                }
            }
        }
        let side = match side {
            "X" | "x" | "*" => Color::Black,
            "O" | "o" => Color::White,
            other => return Err(NotationError::BadSide(other.to_string())),
        };
        let occupied = black | white;
        if let Some(square) = Square::all_in(CENTRE & !occupied).next() {
            return Err(NotationError::EmptyCentre(square));
        }
        let mut reached = CENTRE;
        loop {
            let grown = neighbours(reached) & occupied;
            if grown == reached {
                break;
            }
            reached = grown;
        }
        if let Some(square) = Square::all_in(occupied & !reached).next() {
            return Err(NotationError::Unreachable(square));
        }
        let board = match side {
            Color::Black => Board {
                player: black,
                opponent: white,
            },
            Color::White => Board {
                player: white,
                opponent: black,
            },
        };
        Ok(Position { board, side })
    }

    /// A picture for people: coordinates on all edges, `X` black, `O` white, `.` empty,
    /// `*` the legal moves of the side to move, then the disc counts and whose turn it
    /// is. No empty line inside.
    #[must_use]
    pub fn picture(&self) -> String {
        let black = self.discs(Color::Black);
        let white = self.discs(Color::White);
        let moves = self.moves();
        let mut lines = vec!["   a b c d e f g h".to_string()];
        for row in 0..8 {
            let mut line = format!("{:>2}", row + 1);
            for column in 0..8 {
                let bit = 1u64 << (row * 8 + column);
                let ch = if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else if moves & bit != 0 {
                    '*'
                } else {
                    '.'
                };
                line.push(' ');
                line.push(ch);
            }
            line.push_str(&format!(" {}", row + 1));
            lines.push(line);
        }
        lines.push("   a b c d e f g h".to_string());
        let (b, w) = self.counts();
        lines.push(format!("black (X) {b}  white (O) {w}"));
        lines.push(match self.status() {
            Status::Ongoing if moves == 0 => format!("{} to move (must pass)", self.side.name()),
            Status::Ongoing => format!("{} to move (* = legal moves)", self.side.name()),
            finished => format!("game over: {}", finished.name()),
        });
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        Square::parse(text).expect("a square")
    }

    /// A position from a picture: 8 rows of 8 characters (`X`, `O`, `.`), row 1 first.
    fn from_rows(rows: [&str; 8], side: Color) -> Position {
        let cells: String = rows.concat().replace('.', "-");
        let side = if side == Color::Black { 'X' } else { 'O' };
        Position::from_notation(&format!("{cells} {side}")).expect("a valid picture")
    }

    fn names(moves: &[Move]) -> Vec<String> {
        moves.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn o1_start_position_and_black_first() {
        let p = Position::start();
        assert_eq!(
            p.to_notation(),
            "---------------------------OX------XO--------------------------- X"
        );
        assert_eq!(p.side_to_move(), Color::Black);
        assert_eq!(p.counts(), (2, 2));
    }

    #[test]
    fn o2_blacks_four_opening_moves_are_d3_c4_f5_e6() {
        assert_eq!(
            names(&Position::start().legal_moves()),
            ["d3", "c4", "f5", "e6"]
        );
    }

    #[test]
    fn o2_black_f5_flips_e5_and_white_then_has_f4_f6_d6() {
        let mut p = Position::start();
        p.play(Color::Black, Move::Place(sq("f5"))).unwrap();
        assert_eq!(
            p.discs(Color::Black),
            sq("d5").bit() | sq("e5").bit() | sq("f5").bit() | sq("e4").bit()
        );
        let mut moves = names(&p.legal_moves());
        moves.sort();
        assert_eq!(moves, ["d6", "f4", "f6"]);
    }

    #[test]
    fn o2_c6_flips_in_all_bracketed_directions_but_not_past_an_empty_square() {
        // The seed's diagram 6: black c6 flips b6 (against a6), b5 (against a4),
        // d7 (against e8), c5 and c4 (against c3); d6 and e6 stay white because f6 is
        // empty.
        let p = from_rows(
            [
                "........", "........", "..X.....", "X.OOX...", ".OOXX...", "XO.OO...", "...O....",
                "....X...",
            ],
            Color::Black,
        );
        let flipped = p.check(Move::Place(sq("c6"))).unwrap();
        let expected = ["b6", "b5", "d7", "c5", "c4"]
            .iter()
            .fold(0, |acc, s| acc | sq(s).bit());
        assert_eq!(flipped, expected);
        let mut after = p;
        after.play(Color::Black, Move::Place(sq("c6"))).unwrap();
        assert_eq!(
            after.discs(Color::White) & (sq("d6").bit() | sq("e6").bit()),
            sq("d6").bit() | sq("e6").bit()
        );
    }

    #[test]
    fn o2_no_chain_reaction() {
        // The seed's diagram 8: black a5 flips b5 and c5 (against d5). c4 lies between
        // the newly black c5 and black c3, but only discs bracketed by the new disc flip.
        let p = from_rows(
            [
                "........", "........", "..X.....", "..OXO...", ".OOXO...", "...OX...", "........",
                "........",
            ],
            Color::Black,
        );
        let mut after = p;
        after.play(Color::Black, Move::Place(sq("a5"))).unwrap();
        assert_ne!(after.discs(Color::Black) & sq("b5").bit(), 0);
        assert_ne!(after.discs(Color::Black) & sq("c5").bit(), 0);
        assert_ne!(
            after.discs(Color::White) & sq("c4").bit(),
            0,
            "c4 stays white"
        );
    }

    #[test]
    fn o2_illegal_moves_are_refused_and_change_nothing() {
        let mut p = Position::start();
        let before = p;
        assert_eq!(
            p.play(Color::Black, Move::Place(sq("d4"))),
            Err(OthelloError::Occupied(sq("d4")))
        );
        assert_eq!(
            p.play(Color::Black, Move::Place(sq("a1"))),
            Err(OthelloError::NoFlips(sq("a1")))
        );
        assert_eq!(
            p.play(Color::White, Move::Place(sq("d3"))),
            Err(OthelloError::NotYourTurn {
                to_move: Color::Black
            })
        );
        assert_eq!(
            p.play(Color::Black, Move::Pass),
            Err(OthelloError::PassWithMoves)
        );
        assert_eq!(p, before);
    }

    #[test]
    fn o3_forced_pass() {
        // White to move has no move (every white disc is walled in by black with no
        // empty square beyond), black has one: white must pass, then black moves.
        let p = from_rows(
            [
                "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "OXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXO",
                "XXXXXX..",
            ],
            Color::White,
        );
        assert_eq!(p.moves(), 0);
        assert_eq!(p.legal_moves(), vec![Move::Pass]);
        assert_eq!(p.status(), Status::Ongoing);
        let mut after = p;
        after.play(Color::White, Move::Pass).unwrap();
        assert_eq!(after.side_to_move(), Color::Black);
        assert_eq!(names(&after.legal_moves()), ["h8"]);
        // Passing when a move exists is illegal.
        assert_eq!(after.check(Move::Pass), Err(OthelloError::PassWithMoves));
    }

    #[test]
    fn o4_empty_squares_go_to_the_winner_34_29_is_35_29() {
        // The seed's diagram 10: nobody can play b1; black 34, white 29, one empty.
        let p = from_rows(
            [
                "X.XXXXXX", "OOXXXXXX", "OOOXXXXX", "OOOOXXXX", "OOOOOXXX", "OOOOOOXX", "OOOOOOOX",
                "XOXOXXXX",
            ],
            Color::White,
        );
        assert_eq!(p.counts(), (34, 29));
        assert!(p.is_over());
        assert!(p.legal_moves().is_empty());
        assert_eq!(p.status(), Status::BlackWins);
        assert_eq!(p.final_margin(), 35 - 29);
        assert_eq!(p.check(Move::Pass), Err(OthelloError::GameOver));
    }

    #[test]
    fn o4_equal_counts_draw() {
        let rows = [
            "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "OOOOOOOO", "OOOOOOOO", "OOOOOOOO",
            "OOOOOOOO",
        ];
        let p = from_rows(rows, Color::Black);
        assert_eq!(p.status(), Status::Draw);
        assert_eq!(p.final_margin(), 0);
    }

    #[test]
    fn notation_refuses_malformed_and_impossible_boards() {
        assert_eq!(Position::from_notation("XO X"), Err(NotationError::Shape));
        let start = Position::start().to_notation();
        let bad_char = start.replacen('-', "Q", 1);
        assert!(matches!(
            Position::from_notation(&bad_char),
            Err(NotationError::BadCharacter { found: 'Q', .. })
        ));
        let bad_side = format!("{} Z", &start[..64]);
        assert!(matches!(
            Position::from_notation(&bad_side),
            Err(NotationError::BadSide(_))
        ));
        let mut cells: Vec<char> = start[..64].chars().collect();
        cells[27] = '-';
        let empty_centre: String = cells.iter().collect::<String>() + " X";
        assert_eq!(
            Position::from_notation(&empty_centre),
            Err(NotationError::EmptyCentre(sq("d4")))
        );
        let mut cells: Vec<char> = start[..64].chars().collect();
        cells[0] = 'X';
        let island: String = cells.iter().collect::<String>() + " X";
        assert_eq!(
            Position::from_notation(&island),
            Err(NotationError::Unreachable(sq("a1")))
        );
    }

    #[test]
    fn squares_parse_in_any_case_and_refuse_garbage() {
        assert_eq!(Square::parse("A1"), Some(sq("a1")));
        assert_eq!(sq("h8").index(), 63);
        for bad in ["", "a", "a0", "a9", "i1", "1a", "a10", "é1", "ä"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
        assert_eq!(Move::parse("PASS"), Some(Move::Pass));
    }
}
