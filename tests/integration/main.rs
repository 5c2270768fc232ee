//! The integration tests: the real `tabula` binary driven through pipes as a GUI
//! would drive it, plus property tests over the rules libraries.

mod arena;
mod battleship;
mod battleship_props;
mod budget;
mod cli;
mod cluster;
mod common;
mod conformance;
mod framing;
mod gogui;
mod live;
mod nboard;
mod othello;
mod othello_ai;
mod othello_props;
mod pipes;
mod readme;
mod records;
mod referee;
mod session_fuzz;
mod shell;
mod shell_props;
