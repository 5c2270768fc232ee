//! The protocol layer (in progress).
