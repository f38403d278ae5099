//! What an attach reached, kept in its plan so that a restart after a crash can tell
//! whether there is still something to attach to (see `session/reattach.rs`), and so
//! that a second attach to it is refused while the session holds it
//! (`attach_claims.rs`).

/// The process or debug server an attach reached.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AttachTarget {
    /// A local process, attached to by pid.
    Process {
        /// Its pid.
        pid: u32,
        /// Its start time (clock ticks since boot, from `/proc/PID/stat`) when the
        /// agent attached. A later process that reuses the pid has another, so it is
        /// not mistaken for this one; `None` when `/proc` could not say.
        start: Option<u64>,
    },
    /// A debug server (`debugpy --listen`, `dlv --headless`, a gdb-remote stub)
    /// listening at `host:port`.
    Server {
        /// Its host.
        host: String,
        /// Its port.
        port: u16,
    },
}

impl std::fmt::Display for AttachTarget {
    /// `pid 1234`, or `127.0.0.1:5678`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AttachTarget::Process { pid, .. } => write!(f, "pid {pid}"),
            AttachTarget::Server { host, port } => write!(f, "{host}:{port}"),
        }
    }
}

impl AttachTarget {
    /// Whether `self` and `other` are the same target: the same process (its pid, and
    /// its start time where both know it, so a later process that reuses the pid is
    /// another), or the same debug server (its port, on the same host: every loopback
    /// or wildcard address and `localhost` name this host alike).
    pub fn same_as(&self, other: &AttachTarget) -> bool {
        match (self, other) {
            (
                AttachTarget::Process { pid, start },
                AttachTarget::Process {
                    pid: other_pid,
                    start: other_start,
                },
            ) => {
                pid == other_pid
                    && (start.is_none() || other_start.is_none() || start == other_start)
            }
            (
                AttachTarget::Server { host, port },
                AttachTarget::Server {
                    host: other_host,
                    port: other_port,
                },
            ) => port == other_port && host_key(host) == host_key(other_host),
            _ => false,
        }
    }
}

/// A host as [`AttachTarget::same_as`] compares it: this host's own names as one.
fn host_key(host: &str) -> String {
    let host = host.trim().trim_start_matches('[').trim_end_matches(']');
    let local = host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified());
    if local {
        return "this host".to_string();
    }
    host.to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(host: &str, port: u16) -> AttachTarget {
        AttachTarget::Server {
            host: host.into(),
            port,
        }
    }

    #[test]
    fn one_target_by_any_of_its_names() {
        let process = |pid, start| AttachTarget::Process { pid, start };
        assert!(process(7, Some(100)).same_as(&process(7, Some(100))));
        assert!(process(7, None).same_as(&process(7, Some(100))));
        assert!(
            !process(7, Some(100)).same_as(&process(7, Some(101))),
            "a reused pid"
        );
        assert!(!process(7, None).same_as(&process(8, None)));
        for name in [
            "127.0.0.1",
            "localhost",
            "::1",
            "[::1]",
            "0.0.0.0",
            "LocalHost",
        ] {
            assert!(
                server(name, 5678).same_as(&server("127.0.0.1", 5678)),
                "{name}"
            );
        }
        assert!(!server("127.0.0.1", 5678).same_as(&server("127.0.0.1", 5679)));
        assert!(!server("10.0.0.2", 5678).same_as(&server("127.0.0.1", 5678)));
        assert!(server("Build.Example", 1).same_as(&server("build.example", 1)));
        assert!(!process(5678, None).same_as(&server("127.0.0.1", 5678)));
    }
}
