//! (stub)
#[derive(Debug)]
pub struct NotationError;
