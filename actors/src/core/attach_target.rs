//! What an attach reached, kept in its plan so that a restart after a crash can tell
//! whether there is still something to attach to (see `session/reattach.rs`), and so
//! that a second attach to it is refused while the session holds it
//! (`runtime/attach_claims.rs`).

use std::net::{IpAddr, UdpSocket};
use std::time::Duration;

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

/// A host as [`AttachTarget::same_as`] compares it: this host's own names and
/// addresses as one.
fn host_key(host: &str) -> String {
    let host = bare(host);
    let local =
        host.eq_ignore_ascii_case("localhost") || host.parse::<IpAddr>().is_ok_and(is_this_host);
    if local {
        return "this host".to_string();
    }
    host.to_ascii_lowercase()
}

/// A host without the brackets of an IPv6 literal.
fn bare(host: &str) -> &str {
    host.trim().trim_start_matches('[').trim_end_matches(']')
}

/// Whether `ip` is this machine's: loopback, the wildcard, or an address of one of
/// its interfaces (only those can be bound; binding a UDP socket sends nothing).
fn is_this_host(ip: IpAddr) -> bool {
    ip.is_loopback() || ip.is_unspecified() || UdpSocket::bind((ip, 0)).is_ok()
}

/// The address of this machine that `host`, a name other than `localhost`, resolves
/// to (within `deadline`), so that an attach by the machine's own name is held as one
/// by its address; `None` for an address, `localhost`, or a host elsewhere.
pub(crate) async fn this_host_address(host: &str, port: u16, deadline: Duration) -> Option<String> {
    let host = bare(host);
    if host.eq_ignore_ascii_case("localhost") || host.parse::<IpAddr>().is_ok() {
        return None;
    }
    let resolved = tokio::time::timeout(deadline, tokio::net::lookup_host((host, port)))
        .await
        .ok()?
        .ok()?;
    let mut local: Vec<IpAddr> = resolved
        .map(|a| a.ip())
        .filter(|ip| is_this_host(*ip))
        .collect();
    // An IPv4 address first: debug servers listen on it more often.
    local.sort_by_key(|ip| !ip.is_ipv4());
    local.first().map(IpAddr::to_string)
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
        // The machine's own addresses are this host too.
        let own = std::process::Command::new("hostname")
            .arg("-I")
            .output()
            .unwrap();
        for address in String::from_utf8_lossy(&own.stdout).split_whitespace() {
            assert!(
                server(address, 5678).same_as(&server("127.0.0.1", 5678)),
                "{address}"
            );
        }
    }

    #[tokio::test]
    async fn a_name_of_this_machine_resolves_to_its_address_and_others_do_not() {
        let wait = Duration::from_secs(10);
        for literal in ["127.0.0.1", "localhost", "[::1]"] {
            assert_eq!(this_host_address(literal, 1, wait).await, None, "{literal}");
        }
        let name = std::process::Command::new("hostname").output().unwrap();
        let name = String::from_utf8_lossy(&name.stdout).trim().to_string();
        // Where the machine's name resolves to one of its addresses, it is held as that.
        let resolves_here = std::net::ToSocketAddrs::to_socket_addrs(&(name.as_str(), 1))
            .is_ok_and(|mut all| all.any(|a| is_this_host(a.ip())));
        let address = this_host_address(&name, 1, wait).await;
        assert_eq!(address.is_some(), resolves_here, "{name}: {address:?}");
        if let Some(address) = address {
            assert!(
                server(&address, 1).same_as(&server("localhost", 1)),
                "{address}"
            );
        }
        assert_eq!(
            this_host_address("no-such-host.invalid", 1, wait).await,
            None
        );
    }
}
