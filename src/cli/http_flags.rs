//! The flags of `dapvisor mcp --http` that bound what the network may do: the address
//! (an IP, a port on loopback, or a name that resolves to loopback), the web origins
//! allowed, the connection limits; and the warning a server reachable from other
//! machines gives, since plain HTTP carries the token in clear text.

use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;

use clap::Args;

use crate::mcp::{HttpSettings, Origin};

/// The limits and allowances of `--http`.
#[derive(Debug, Args)]
pub struct HttpFlags {
    /// With --http: let web pages from ORIGIN (`scheme://host[:port]`, such as
    /// `http://localhost:6274`) call the server; repeatable. A request whose Origin
    /// header is neither one of these nor the server's own (http://127.0.0.1:PORT,
    /// http://localhost:PORT) is refused with 403; one without Origin is served.
    #[arg(long = "allow-origin", value_name = "ORIGIN", requires = "http", value_parser = Origin::parse)]
    pub allow_origin: Vec<Origin>,
    /// With --http: seconds a connection has to send a request's head, 1..=10
    /// [default: 5].
    #[arg(long, value_name = "SECONDS", requires = "http")]
    pub header_timeout: Option<u64>,
    /// With --http: close a connection on which nothing moved for this many seconds
    /// while a request is in progress, 1..=3600 [default: 60].
    #[arg(long, value_name = "SECONDS", requires = "http")]
    pub connection_idle_timeout: Option<u64>,
    /// With --http: connections held at once; when full, the oldest that has not
    /// shown the token is closed for a new one [default: 256, at most a quarter of
    /// `ulimit -n`].
    #[arg(long, value_name = "N", requires = "http")]
    pub max_connections: Option<usize>,
}

impl HttpFlags {
    /// The settings the flags describe; a refused value is named by its flag.
    pub fn settings(&self) -> Result<HttpSettings, String> {
        let mut settings = HttpSettings::default();
        if let Some(secs) = self.header_timeout {
            settings = settings
                .with_header_read_timeout(Duration::from_secs(secs))
                .map_err(|e| format!("--header-timeout {secs}: {e}"))?;
        }
        if let Some(secs) = self.connection_idle_timeout {
            settings = settings
                .with_connection_idle_timeout(Duration::from_secs(secs))
                .map_err(|e| format!("--connection-idle-timeout {secs}: {e}"))?;
        }
        if let Some(n) = self.max_connections {
            settings = settings
                .with_max_connections(n)
                .map_err(|e| format!("--max-connections {n}: {e}"))?;
        }
        Ok(self.allow_origin.iter().fold(settings, |settings, origin| {
            settings.allow_origin(origin.clone())
        }))
    }
}

/// `--http`'s address: `IP:PORT`, a PORT on 127.0.0.1, or `NAME:PORT` where NAME
/// resolves to loopback only (`localhost`), on its IPv4 address if it has one.
pub fn http_addr(text: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    if let Ok(addr) = text.parse() {
        return Ok(addr);
    }
    let usage = "give IP:PORT (such as 127.0.0.1:7000), a port, or localhost:PORT";
    let Some((name, port)) = text.rsplit_once(':') else {
        return Err(format!("`{text}` has no port: {usage}"));
    };
    let port: u16 = port
        .parse()
        .map_err(|_| format!("`{port}` in `{text}` is not a port: {usage}"))?;
    let found: Vec<SocketAddr> = (name, port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve `{name}`: {e}; {usage}"))?
        .collect();
    if let Some(outside) = found.iter().find(|a| !a.ip().is_loopback()) {
        return Err(format!(
            "`{name}` resolves to {}, beyond loopback: name the IP address to listen on \
             (such as 0.0.0.0:{port}), so which machines reach the server is plain",
            outside.ip()
        ));
    }
    found
        .iter()
        .find(|a| a.is_ipv4())
        .or(found.first())
        .copied()
        .ok_or_else(|| format!("`{name}` resolves to no address; {usage}"))
}

/// Say on stderr, when the server listens beyond loopback, that the token and every
/// call travel in clear text, and what to do about it.
pub fn warn_if_exposed(local: SocketAddr) {
    if local.ip().is_loopback() {
        return;
    }
    eprintln!(
        "dapvisor: warning: {local} is reachable from other machines, and plain HTTP \
         carries the token and every call in clear text. Put a TLS-terminating proxy in \
         front (see the README), or listen on 127.0.0.1 and reach it through an SSH \
         tunnel."
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_an_ip_a_port_or_a_name_on_loopback() {
        assert_eq!(
            http_addr("7000").unwrap(),
            "127.0.0.1:7000".parse().unwrap()
        );
        assert_eq!(
            http_addr("0.0.0.0:7000").unwrap(),
            "0.0.0.0:7000".parse().unwrap()
        );
        assert_eq!(
            http_addr("[::1]:7000").unwrap(),
            "[::1]:7000".parse().unwrap()
        );
        let named = http_addr("localhost:7000").unwrap();
        assert!(named.ip().is_loopback() && named.port() == 7000, "{named}");
        assert!(http_addr("localhost").unwrap_err().contains("no port"));
        assert!(http_addr("localhost:x").unwrap_err().contains("not a port"));
    }
}
