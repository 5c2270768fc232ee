//! Seat tokens and table ids from the operating system's random generator.
//!
//! A seat token is the only credential of a seat: whoever holds its link plays for
//! that colour. 24 random bytes (192 bits) make guessing hopeless; they come from
//! `getrandom` (the kernel's generator), never from the seeded game generator.

use anyhow::{Context, Result};

/// Random bytes in lowercase hexadecimal.
fn random_hex(bytes: usize) -> Result<String> {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer).context("the system's random generator")?;
    Ok(buffer.iter().map(|b| format!("{b:02x}")).collect())
}

/// A new seat token: 192 random bits, 48 hexadecimal digits.
///
/// # Errors
/// The system's generator failed.
pub fn seat_token() -> Result<String> {
    random_hex(24)
}

/// A new table id: 64 random bits, 16 hexadecimal digits. Public (it names the
/// table in logs and for routing); it grants nothing.
///
/// # Errors
/// The system's generator failed.
pub fn table_id() -> Result<String> {
    random_hex(8)
}

/// A seed for a table's game generator (random fleets).
///
/// # Errors
/// The system's generator failed.
pub fn seed() -> Result<u64> {
    let mut buffer = [0u8; 8];
    getrandom::fill(&mut buffer).context("the system's random generator")?;
    Ok(u64::from_le_bytes(buffer))
}

/// Whether `text` has the shape of a seat token (checked before any lookup).
#[must_use]
pub fn looks_like_token(text: &str) -> bool {
    text.len() == 48 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_distinct_and_hexadecimal() {
        let a = seat_token().expect("random");
        let b = seat_token().expect("random");
        assert!(looks_like_token(&a), "{a}");
        assert_ne!(a, b);
        assert_eq!(table_id().expect("random").len(), 16);
        assert!(!looks_like_token("../etc/passwd"));
        assert!(!looks_like_token(&a[1..]));
    }
}
