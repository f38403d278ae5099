//! gdb's version check (its probe runs with [`crate::host_probe::run_probe`]).

/// The oldest gdb with a DAP mode (`gdb -i dap`).
pub const MIN_GDB_VERSION: (u32, u32) = (14, 0);

/// The `major.minor` version in `gdb --version` output, such as 13.1 in
/// `GNU gdb (Debian 13.1-3) 13.1` or 15.1 in `GNU gdb (GDB) 15.1`.
pub fn parse_gdb_version(text: &str) -> Option<(u32, u32)> {
    // The version is the last word of the first line; distributions put their own
    // package version in parentheses before it.
    let word = text.lines().next()?.split_whitespace().last()?;
    let mut numbers = word.split(|c: char| !c.is_ascii_digit());
    let major = numbers.next()?.parse().ok()?;
    let minor = numbers.next().and_then(|n| n.parse().ok()).unwrap_or(0);
    Some((major, minor))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_gdb_versions() {
        assert_eq!(
            parse_gdb_version("GNU gdb (Debian 13.1-3) 13.1\nCopyright"),
            Some((13, 1))
        );
        assert_eq!(parse_gdb_version("GNU gdb (GDB) 15.1"), Some((15, 1)));
        assert_eq!(
            parse_gdb_version("GNU gdb (Fedora Linux) 14.2-1.fc40"),
            Some((14, 2))
        );
        assert_eq!(
            parse_gdb_version("GNU gdb (Ubuntu 15.0.50.20240403-0ubuntu1) 15.0.50.20240403-git"),
            Some((15, 0))
        );
        assert_eq!(parse_gdb_version("gdb: command not found"), None);
        assert_eq!(parse_gdb_version(""), None);
    }

    #[test]
    fn version_check_against_the_minimum() {
        let ok = |text| parse_gdb_version(text).is_some_and(|v| v >= MIN_GDB_VERSION);
        assert!(!ok("GNU gdb (Debian 13.1-3) 13.1"));
        assert!(ok("GNU gdb (GDB) 14.2"));
        assert!(ok("GNU gdb (GDB) 15.1"));
    }
}
