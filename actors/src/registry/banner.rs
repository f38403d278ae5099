//! Reading the address out of a TCP adapter's "listening" banner.
//!
//! Adapters that pick their own port print it on stdout: dlv prints
//! `DAP server listening at: 127.0.0.1:40123`, js-debug's DAP server
//! `Debug server listening at 127.0.0.1:8123`. Reading the port from the banner avoids
//! reserving a port and releasing it for the adapter, which races.

use std::net::{Ipv4Addr, Ipv6Addr};

/// Find the address an adapter says it listens on, in one line of its stdout.
///
/// Returns the last `host:port` on the line whose host is an IPv4 address, `localhost`
/// or a bracketed IPv6 address (`[::1]:5678`, returned without brackets, ready for
/// `TcpStream::connect((host, port))`). A wildcard host (`0.0.0.0`, `[::]`) is turned
/// into the matching loopback address. A line that names no host but says it is
/// listening on a port (`Listening on port 4711`) gives `127.0.0.1`. Port 0 never
/// matches: it means the port is not chosen yet.
pub fn parse_listen_banner(line: &str) -> Option<(String, u16)> {
    line.split_whitespace()
        .rev()
        .find_map(parse_address)
        .or_else(|| port_only(line))
}

/// One whitespace-separated token as `host:port`, if it is one.
fn parse_address(token: &str) -> Option<(String, u16)> {
    let token = token
        .trim_start_matches(['(', '<', '"', '\'', '`'])
        .trim_end_matches(['.', ',', ';', ')', '>', '"', '\'', '`', '/']);
    // Some servers print a URL: keep what follows the scheme.
    let token = token.split_once("://").map_or(token, |(_, rest)| rest);
    let (host, port) = if let Some(rest) = token.strip_prefix('[') {
        let (inside, port) = rest.split_once("]:")?;
        let ip: Ipv6Addr = inside.parse().ok()?;
        let host = if ip.is_unspecified() {
            Ipv6Addr::LOCALHOST
        } else {
            ip
        };
        (host.to_string(), port)
    } else {
        let (host, port) = token.rsplit_once(':')?;
        let host = if host.eq_ignore_ascii_case("localhost") {
            "localhost".to_string()
        } else {
            let ip: Ipv4Addr = host.parse().ok()?;
            let ip = if ip.is_unspecified() {
                Ipv4Addr::LOCALHOST
            } else {
                ip
            };
            ip.to_string()
        };
        (host, port)
    };
    let port = parse_port(port)?;
    Some((host, port))
}

/// `... listening on port N` with no host: the adapter listens on loopback.
fn port_only(line: &str) -> Option<(String, u16)> {
    let lower = line.to_ascii_lowercase();
    if !lower.contains("listening") {
        return None;
    }
    let (_, after) = lower.rsplit_once("port")?;
    let digits: String = after
        .trim_start_matches([' ', ':', '='])
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    Some((Ipv4Addr::LOCALHOST.to_string(), parse_port(&digits)?))
}

fn parse_port(text: &str) -> Option<u16> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u16>().ok().filter(|&p| p != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(host: &str, port: u16) -> Option<(String, u16)> {
        Some((host.to_string(), port))
    }

    #[test]
    fn reads_the_dlv_banner() {
        assert_eq!(
            parse_listen_banner("DAP server listening at: 127.0.0.1:40123"),
            addr("127.0.0.1", 40123)
        );
    }

    #[test]
    fn reads_the_js_debug_banner() {
        assert_eq!(
            parse_listen_banner("Debug server listening at 127.0.0.1:8123"),
            addr("127.0.0.1", 8123)
        );
    }

    #[test]
    fn reads_bracketed_ipv6_without_brackets() {
        assert_eq!(
            parse_listen_banner("listening on [::1]:5678"),
            addr("::1", 5678)
        );
        assert_eq!(
            parse_listen_banner("listening on [::]:5678."),
            addr("::1", 5678)
        );
    }

    #[test]
    fn reads_localhost_urls_and_wildcards() {
        assert_eq!(
            parse_listen_banner("at tcp://localhost:9000/"),
            addr("localhost", 9000)
        );
        assert_eq!(
            parse_listen_banner("bound (0.0.0.0:7000)"),
            addr("127.0.0.1", 7000)
        );
    }

    #[test]
    fn takes_the_last_address_on_the_line() {
        assert_eq!(
            parse_listen_banner("proxy 10.0.0.1:80 -> server at 127.0.0.1:4711"),
            addr("127.0.0.1", 4711)
        );
    }

    #[test]
    fn reads_a_port_only_banner() {
        assert_eq!(
            parse_listen_banner("Listening on port 4711"),
            addr("127.0.0.1", 4711)
        );
    }

    #[test]
    fn lines_without_an_address_give_none() {
        for line in [
            "",
            "API server listening at: (pending)",
            "Type 'help' for list of commands.",
            "time 12:30:45",
            "listening at 127.0.0.1:0",
            "server at 300.1.1.1:80",
            "port 4711 is free",
            "host example:80",
            "listening at 127.0.0.1:99999",
        ] {
            assert_eq!(parse_listen_banner(line), None, "{line:?}");
        }
    }
}
