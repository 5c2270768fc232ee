//! battleship (in progress).
