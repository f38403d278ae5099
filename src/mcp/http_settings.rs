//! What `dapvisor mcp --http` allows the network: how long a connection may take to
//! send a request's head, or sit with nothing moving while a request is in progress;
//! how many connections are held at once; and which web pages, besides the server's
//! own origins, may call it.

use std::time::Duration;

use super::http_origin::Origin;

/// How long a connection has to send a request's head (from when it connects, or
/// from the end of its last response on a kept-alive connection): 5 s.
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(5);

/// The longest header timeout a setter takes: 10 s.
pub const MAX_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How long nothing may move either way on a connection with a request in progress
/// before it is closed (a client that stopped reading, or sending its body): 60 s.
/// An open SSE stream is not idle: it carries a keep-alive at least every half of
/// this.
pub const DEFAULT_CONNECTION_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// The longest idle timeout a setter takes: 1 hour.
pub const MAX_CONNECTION_IDLE_TIMEOUT: Duration = Duration::from_secs(3600);

/// How many connections are held at once: 256, and at most a quarter of the files
/// this process may open (RLIMIT_NOFILE, read when the server starts), so the
/// debug adapters and their pipes keep the rest. At the cap, a new connection closes
/// the oldest one that has not yet shown the token.
pub const DEFAULT_MAX_CONNECTIONS: usize = 256;

/// How often an SSE stream carries a keep-alive when the idle timeout is long: 15 s.
const SSE_KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The limits and allowances of `dapvisor mcp --http`; every one has a default.
#[derive(Debug, Clone)]
pub struct HttpSettings {
    header_read_timeout: Duration,
    connection_idle_timeout: Duration,
    max_connections: Option<usize>,
    allowed_origins: Vec<Origin>,
}

impl Default for HttpSettings {
    fn default() -> Self {
        Self {
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            connection_idle_timeout: DEFAULT_CONNECTION_IDLE_TIMEOUT,
            max_connections: None,
            allowed_origins: Vec::new(),
        }
    }
}

impl HttpSettings {
    /// These settings with a header timeout of `timeout`: at least 1 s, at most
    /// [`MAX_HEADER_READ_TIMEOUT`] (default [`DEFAULT_HEADER_READ_TIMEOUT`]).
    pub fn with_header_read_timeout(mut self, timeout: Duration) -> Result<Self, String> {
        self.header_read_timeout = within("a header timeout", timeout, MAX_HEADER_READ_TIMEOUT)?;
        Ok(self)
    }

    /// These settings with an idle timeout of `timeout`: at least 1 s, at most
    /// [`MAX_CONNECTION_IDLE_TIMEOUT`] (default [`DEFAULT_CONNECTION_IDLE_TIMEOUT`]).
    pub fn with_connection_idle_timeout(mut self, timeout: Duration) -> Result<Self, String> {
        self.connection_idle_timeout =
            within("an idle timeout", timeout, MAX_CONNECTION_IDLE_TIMEOUT)?;
        Ok(self)
    }

    /// These settings holding at most `n` connections at once: at least 1, and at
    /// most half the files this process may open (default
    /// [`DEFAULT_MAX_CONNECTIONS`], at most a quarter of them).
    pub fn with_max_connections(mut self, n: usize) -> Result<Self, String> {
        if n == 0 {
            return Err("0 connections would serve no one: it must be at least 1".into());
        }
        if let Some(files) = descriptor_limit() {
            if n as u64 > files / 2 {
                return Err(format!(
                    "{n} connections is more than half of the {files} files this process \
                     may open (`ulimit -n`), and the debug adapters need the rest: lower \
                     it, or raise `ulimit -n` to at least {}",
                    n as u64 * 2
                ));
            }
        }
        self.max_connections = Some(n);
        Ok(self)
    }

    /// These settings letting web pages from `origin` call the server too.
    pub fn allow_origin(mut self, origin: Origin) -> Self {
        self.allowed_origins.push(origin);
        self
    }

    /// How long a connection has to send a request's head.
    pub fn header_read_timeout(&self) -> Duration {
        self.header_read_timeout
    }

    /// How long nothing may move on a connection with a request in progress.
    pub fn connection_idle_timeout(&self) -> Duration {
        self.connection_idle_timeout
    }

    /// How many connections are held at once: the number set, else
    /// [`DEFAULT_MAX_CONNECTIONS`] or a quarter of this process's descriptor limit,
    /// whichever is smaller.
    pub fn max_connections(&self) -> usize {
        self.max_connections.unwrap_or_else(|| {
            let quarter = descriptor_limit().map_or(usize::MAX, |files| (files / 4) as usize);
            DEFAULT_MAX_CONNECTIONS.min(quarter).max(1)
        })
    }

    /// The web origins allowed besides the server's own.
    pub fn allowed_origins(&self) -> &[Origin] {
        &self.allowed_origins
    }

    /// How often an SSE stream carries a keep-alive: often enough that an open
    /// stream is never taken for idle.
    pub(super) fn sse_keep_alive(&self) -> Duration {
        SSE_KEEP_ALIVE.min(self.connection_idle_timeout / 2)
    }
}

/// `timeout` if it is at least 1 s and at most `max`, else why not.
fn within(what: &str, timeout: Duration, max: Duration) -> Result<Duration, String> {
    if timeout < Duration::from_secs(1) || timeout > max {
        return Err(format!(
            "{what} of {timeout:?}: it must be at least 1 s and at most {} s",
            max.as_secs()
        ));
    }
    Ok(timeout)
}

/// How many files this process may open (RLIMIT_NOFILE's soft limit), if it says.
fn descriptor_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit(2) writes into the struct it is given.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    (read == 0 && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_are_taken_within_their_range_and_refused_outside_it_saying_so() {
        let secs = Duration::from_secs;
        let settings = HttpSettings::default();
        assert_eq!(settings.header_read_timeout(), DEFAULT_HEADER_READ_TIMEOUT);
        assert_eq!(settings.sse_keep_alive(), SSE_KEEP_ALIVE);
        let set = settings
            .clone()
            .with_header_read_timeout(secs(10))
            .unwrap()
            .with_connection_idle_timeout(secs(1))
            .unwrap();
        assert_eq!(set.header_read_timeout(), secs(10));
        assert_eq!(set.connection_idle_timeout(), secs(1));
        assert_eq!(set.sse_keep_alive(), Duration::from_millis(500));
        let long = settings.clone().with_header_read_timeout(secs(11));
        assert!(long.unwrap_err().contains("at most 10 s"));
        let zero = settings.clone().with_connection_idle_timeout(secs(0));
        assert!(zero.unwrap_err().contains("at least 1 s"));
        assert!(settings.with_connection_idle_timeout(secs(3601)).is_err());
    }

    #[test]
    fn the_connection_cap_keeps_well_under_the_descriptor_limit() {
        let files = descriptor_limit().expect("the test runs with a finite RLIMIT_NOFILE");
        let default = HttpSettings::default().max_connections();
        assert_eq!(
            default,
            DEFAULT_MAX_CONNECTIONS.min(files as usize / 4).max(1)
        );
        let zero = HttpSettings::default().with_max_connections(0).unwrap_err();
        assert!(zero.contains("at least 1"), "{zero}");
        let too_many = HttpSettings::default()
            .with_max_connections(files as usize)
            .unwrap_err();
        assert!(too_many.contains("ulimit -n"), "{too_many}");
        let ten = HttpSettings::default().with_max_connections(10).unwrap();
        assert_eq!(ten.max_connections(), 10);
    }
}
