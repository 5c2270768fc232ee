//! battleship players (in progress).
