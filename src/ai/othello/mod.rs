//! othello players (in progress).
