//! Facts about the machine the engine runs on, read where the system offers them.

/// The memory the system could give this process now, in bytes, without swapping
/// (Linux: `MemAvailable` of `/proc/meminfo`); `None` where it cannot be told.
#[must_use]
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line
        .trim_start_matches("MemAvailable:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn available_memory_is_plausible_where_known() {
        if let Some(bytes) = available_memory() {
            // More than a megabyte and less than a petabyte.
            assert!((1 << 20..1 << 50).contains(&bytes), "{bytes}");
        } else {
            assert!(!std::path::Path::new("/proc/meminfo").exists());
        }
    }
}
