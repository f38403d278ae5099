//! This process's memory, from `/proc/self/status` (Linux): resident set now
//! (`VmRSS`) and its peak (`VmHWM`), in KiB.

/// Resident memory now, in KiB; 0 if it cannot be read.
pub fn rss_kib() -> u64 {
    status_field("VmRSS:")
}

/// The peak of resident memory since the process started, in KiB; 0 if unreadable.
pub fn peak_rss_kib() -> u64 {
    status_field("VmHWM:")
}

fn status_field(name: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(name))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Give memory freed to the allocator back to the OS (glibc's `malloc_trim`), so
/// that an RSS delta measured next is not hidden by reuse of freed pages.
pub fn release_freed() {
    // SAFETY: malloc_trim only walks the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}
