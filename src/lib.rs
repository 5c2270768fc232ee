//! Tabula: a game engine for Othello, Battleship and What the Shell that speaks a
//! GTP 2 style text protocol.
//!
//! The architecture, in the direction data flows:
//!
//! ```text
//! line → protocol::parse → Command → protocol::Session → games / ai → Response → line
//! ```
//!
//! - [`games`] owns the rules of each game: positions, moves, notation, outcome. Pure
//!   and deterministic; a game never sees protocol text.
//! - [`ai`] owns the players. It reads the rules; the rules never read it.
//! - [`protocol`] owns the text: parsing a line into a `Command`, framing a `Response`,
//!   and the `Session` that holds one game and dispatches commands to it.
//! - [`arena`] owns the tournament manager: child engines, a referee per game that
//!   judges every move with [`games`], schedules, statistics and records; matches in
//!   shards, their merge, and Slurm job arrays of them.
//! - [`conformance`] runs the conformance suite (`.tst` files) against any engine
//!   command; it talks to engines only through their pipes.
//! - [`client`] is the one client for child engines (spawn, framed answers with
//!   deadlines, stderr kept, kill on drop) that the arena, the conformance runner and
//!   the tests drive engines through.
//! - [`cpu`] detects the CPU's features once and picks the compiled copy of a hot
//!   kernel (perft, the endgame solver) that uses them, and reads the CPU time the
//!   process has used (for the benchmarks' nodes per CPU-second).
//! - [`rng`] is the one seeded random number generator every player uses.
//! - [`serve`] runs tables two people play by a link: HTTP, WebSocket, one page.
//! - [`machine`] tells what the machine offers (free memory), for checking options.
//!
//! The rules can be used on their own. Othello (rules O1–O4 of `docs/rules.md`):
//!
//! ```
//! use tabula::games::Color;
//! use tabula::games::othello::{Move, Position};
//!
//! let mut position = Position::start();
//! assert_eq!(position.legal_moves().len(), 4);
//! let f5 = Move::parse("f5").expect("a square");
//! position.play(Color::Black, f5).expect("legal");
//! assert_eq!(position.side_to_move(), Color::White);
//! assert_eq!(
//!     position.to_notation(),
//!     "---------------------------OX------XXX-------------------------- O"
//! );
//! ```
//!
//! What the Shell (S1–S10): both picks of a turn are resolved together.
//!
//! ```
//! use tabula::games::shell::{Cell, Position};
//!
//! let mut position = Position::new();
//! let (e5, d4) = (Cell::parse("e5").expect("a cell"), Cell::parse("d4").expect("a cell"));
//! position.resolve_turn(e5, d4).expect("both cells are empty");
//! // Two turtles down, the turn settled: a picked cell is no longer empty.
//! assert!(position.resolve_turn(e5, Cell::parse("a1").expect("a cell")).is_err());
//! ```
//!
//! Battleship (B1–B11): a table with both fleets, started, one shot.
//!
//! ```
//! use tabula::games::Color;
//! use tabula::games::battleship::{Cell, Fleet, ShotResult, Table};
//!
//! let mut table = Table::new();
//! let white = Fleet::parse("A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8").expect("a fleet");
//! let black = Fleet::parse("J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8").expect("a fleet");
//! table.place_fleet(Color::White, white).expect("valid");
//! table.place_fleet(Color::Black, black).expect("valid");
//! table.ready(Color::White).expect("placed");
//! let first = table.start().expect("both ready");
//! let result = table.shoot(first, Cell::parse("A1").expect("a cell")).expect("a shot");
//! assert_eq!(result, if first == Color::Black { ShotResult::Hit } else { ShotResult::Miss });
//! ```

pub mod ai;
pub mod arena;
pub mod client;
pub mod conformance;
pub mod cpu;
pub mod games;
pub mod machine;
pub mod protocol;
pub mod rng;
pub mod serve;
