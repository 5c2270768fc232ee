//! shell players (in progress).
