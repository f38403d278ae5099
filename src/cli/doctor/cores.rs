//! Whether a crashing program leaves a core dump to debug afterwards: the core size
//! limit (`ulimit -c`) and where the kernel sends cores (`core_pattern`). dapvisor's
//! main job does not need them, so these only warn.

use super::report::Check;

/// What was read about core dumps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoreReading {
    /// The soft `RLIMIT_CORE` in bytes (`ulimit -c` counts KiB); `None`: unlimited.
    pub soft_limit: Option<u64>,
    /// The hard limit, which the soft one may be raised to without privilege.
    pub hard_limit: Option<u64>,
    /// `/proc/sys/kernel/core_pattern`; `None` if it could not be read.
    pub pattern: Option<String>,
}

/// The size limit on core files.
pub fn check_limit(r: &CoreReading) -> Check {
    const NAME: &str = "core size limit";
    let shown = |limit: Option<u64>| match limit {
        None => "unlimited".to_string(),
        Some(bytes) => format!("{} KiB", bytes / 1024),
    };
    let checked = match r.soft_limit {
        Some(0) => {
            let fix = match r.hard_limit {
                Some(0) => {
                    "the hard limit is 0 too: raise it where the shell is started (limits.conf, \
                            systemd's LimitCORE=, or `docker run --ulimit core=-1`), then \
                            `ulimit -c unlimited`"
                        .to_string()
                }
                _ => "`ulimit -c unlimited` in the shell that starts the program".to_string(),
            };
            Check::warn(
                NAME,
                "ulimit -c is 0: a program that crashes leaves no core dump",
                fix,
            )
        }
        Some(bytes) if bytes < 1 << 30 => Check::warn(
            NAME,
            format!(
                "ulimit -c is {}: a larger program's core is cut short",
                shown(Some(bytes))
            ),
            "`ulimit -c unlimited` in the shell that starts the program",
        ),
        limit => Check::ok(NAME, format!("ulimit -c is {}", shown(limit))),
    };
    checked
        .fact("soft_limit_bytes", r.soft_limit)
        .fact("hard_limit_bytes", r.hard_limit)
}

/// Where cores go.
pub fn check_pattern(r: &CoreReading) -> Check {
    const NAME: &str = "core pattern";
    let Some(pattern) = r.pattern.as_deref().map(str::trim) else {
        return Check::warn(
            NAME,
            "/proc/sys/kernel/core_pattern cannot be read",
            "check that /proc is mounted",
        );
    };
    let checked = match pattern.strip_prefix('|') {
        Some(handler) => {
            let program = handler.split_whitespace().next().unwrap_or("");
            let fix = if program.contains("systemd-coredump") {
                "fetch a core with `coredumpctl dump PID --output core`, or \
                 `sudo sysctl kernel.core_pattern=core.%p` to write cores as files"
            } else if program.contains("apport") {
                "apport keeps crashes in /var/crash (`apport-unpack` extracts the core), or \
                 `sudo sysctl kernel.core_pattern=core.%p` to write cores as files"
            } else {
                "`sudo sysctl kernel.core_pattern=core.%p` to write cores as files (from \
                 the host, inside a container: the setting is the host's)"
            };
            Check::warn(
                NAME,
                format!("cores are piped to `{program}`, not written as files"),
                fix,
            )
        }
        None if pattern.is_empty() => Check::warn(
            NAME,
            "core_pattern is empty: no core file is written",
            "`sudo sysctl kernel.core_pattern=core.%p`",
        ),
        None if pattern.starts_with('/') => {
            Check::ok(NAME, format!("cores are written as `{pattern}`"))
        }
        None => Check::ok(
            NAME,
            format!("cores are written as `{pattern}` in the crashing program's folder"),
        ),
    };
    checked.fact("core_pattern", pattern)
}

/// Read this process's core limits and the kernel's pattern.
pub fn read() -> CoreReading {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the struct it is given.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_CORE, &mut limit) } == 0;
    let bound = |value: libc::rlim_t| (value != libc::RLIM_INFINITY).then_some(value);
    CoreReading {
        soft_limit: if read { bound(limit.rlim_cur) } else { Some(0) },
        hard_limit: if read { bound(limit.rlim_max) } else { Some(0) },
        pattern: std::fs::read_to_string("/proc/sys/kernel/core_pattern").ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::report::Status;
    use super::*;

    fn reading(soft: Option<u64>, hard: Option<u64>, pattern: &str) -> CoreReading {
        CoreReading {
            soft_limit: soft,
            hard_limit: hard,
            pattern: Some(format!("{pattern}\n")),
        }
    }

    #[test]
    fn a_zero_limit_warns_and_says_how_to_raise_it() {
        let off = check_limit(&reading(Some(0), None, "core"));
        assert_eq!(off.status, Status::Warn);
        assert!(off.detail.contains("ulimit -c is 0"));
        assert_eq!(
            off.fix.as_deref(),
            Some("`ulimit -c unlimited` in the shell that starts the program")
        );
        let locked = check_limit(&reading(Some(0), Some(0), "core"));
        assert!(locked.fix.unwrap().contains("hard limit is 0"));
        assert_eq!(
            check_limit(&reading(Some(4096), None, "core")).status,
            Status::Warn
        );
        let open = check_limit(&reading(None, None, "core"));
        assert_eq!(
            (open.status, open.detail.as_str()),
            (Status::Ok, "ulimit -c is unlimited")
        );
    }

    #[test]
    fn a_piped_pattern_warns_naming_its_handler() {
        let apport = check_pattern(&reading(
            None,
            None,
            "|/usr/share/apport/apport -p%p -s%s -c%c -d%d -P%P -u%u -g%g -- %E",
        ));
        assert_eq!(apport.status, Status::Warn);
        assert!(
            apport.detail.contains("`/usr/share/apport/apport`"),
            "{}",
            apport.detail
        );
        assert!(apport.fix.unwrap().contains("/var/crash"));
        let systemd = check_pattern(&reading(
            None,
            None,
            "|/lib/systemd/systemd-coredump %P %u %g %s %t 9223372036854775808 %h",
        ));
        assert!(systemd.fix.unwrap().contains("coredumpctl"));
        assert_eq!(
            check_pattern(&reading(None, None, "core")).status,
            Status::Ok
        );
        assert_eq!(
            check_pattern(&reading(None, None, "/tmp/cores/core.%e.%p")).status,
            Status::Ok
        );
        assert_eq!(check_pattern(&reading(None, None, "")).status, Status::Warn);
        let unread = CoreReading {
            pattern: None,
            ..reading(None, None, "")
        };
        assert_eq!(check_pattern(&unread).status, Status::Warn);
    }
}
