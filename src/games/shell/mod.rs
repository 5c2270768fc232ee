//! shell (in progress).
