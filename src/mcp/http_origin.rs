//! Web origins (RFC 6454): the `Origin` header a browser puts on a page's requests,
//! and the origins `--allow-origin` names. An origin is a scheme, a host and a port;
//! two are the same when all three are, the port being the scheme's default (80,
//! 443) when not written.

use std::net::SocketAddr;

/// A web origin: `scheme://host[:port]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    scheme: String,
    host: String,
    port: Option<u16>,
}

impl Origin {
    /// The origin `text` names (`http://localhost:6274`, `https://app.example`), or
    /// why it names none. `null`, the origin of sandboxed and `file://` pages, is
    /// none: any page can make its own requests carry it.
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let example = "an origin is scheme://host[:port], such as http://localhost:6274";
        if text.eq_ignore_ascii_case("null") {
            return Err(format!(
                "`null` is the origin of sandboxed and file:// pages, which any page can \
                 give itself, so it cannot be allowed; {example}"
            ));
        }
        let Some((scheme, rest)) = text.split_once("://") else {
            return Err(format!(
                "`{text}` has no scheme (http://, https://): {example}"
            ));
        };
        let valid_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
        if !valid_scheme {
            return Err(format!("`{text}` has no valid scheme: {example}"));
        }
        // A browser sends no slash after the port; a person may type one.
        let authority = rest.strip_suffix('/').unwrap_or(rest);
        if authority.contains(['/', '?', '#']) {
            return Err(format!(
                "`{text}` has a path, query or fragment, which an origin has not: {example}"
            ));
        }
        if authority.contains('@') || authority.is_empty() {
            return Err(format!("`{text}` has no plain host: {example}"));
        }
        let parsed: http::uri::Authority = authority
            .parse()
            .map_err(|_| format!("`{text}` has no valid host and port: {example}"))?;
        let written_port = authority
            .rsplit_once(':')
            .is_some_and(|(_, after)| !after.contains(']'));
        if written_port && parsed.port_u16().is_none() {
            return Err(format!("`{text}` has no valid host and port: {example}"));
        }
        let scheme = scheme.to_ascii_lowercase();
        let port = parsed.port_u16().or(match scheme.as_str() {
            "http" => Some(80),
            "https" => Some(443),
            _ => None,
        });
        Ok(Self {
            scheme,
            host: parsed.host().to_ascii_lowercase(),
            port,
        })
    }

    /// The origins of a page served by the server listening on `local` itself, over
    /// plain HTTP: on its loopback names and address, at its port.
    pub(super) fn own(local: SocketAddr) -> Vec<Self> {
        let mut hosts = vec![
            "127.0.0.1".to_string(),
            "localhost".to_string(),
            "[::1]".to_string(),
        ];
        let ip = local.ip();
        if ip.is_loopback() {
            hosts.push(match ip {
                std::net::IpAddr::V4(v4) => v4.to_string(),
                std::net::IpAddr::V6(v6) => format!("[{v6}]"),
            });
        }
        hosts
            .into_iter()
            .map(|host| Self {
                scheme: "http".into(),
                host,
                port: Some(local.port()),
            })
            .collect()
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}://{}", self.scheme, self.host)?;
        match self.port {
            Some(port) => write!(f, ":{port}"),
            None => Ok(()),
        }
    }
}

impl std::str::FromStr for Origin {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Self::parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_compare_by_scheme_host_and_port_the_default_port_written_or_not() {
        let origin = |text: &str| Origin::parse(text).unwrap();
        assert_eq!(
            origin("https://App.Example"),
            origin("https://app.example:443")
        );
        assert_eq!(origin("http://localhost:80/"), origin("HTTP://localhost"));
        assert_ne!(origin("http://app.example"), origin("https://app.example"));
        assert_ne!(
            origin("http://app.example:8080"),
            origin("http://app.example")
        );
        assert_eq!(origin("http://[::1]:7000").to_string(), "http://[::1]:7000");
        assert_eq!(
            origin("vscode-webview://abc").to_string(),
            "vscode-webview://abc"
        );
    }

    #[test]
    fn what_is_not_an_origin_is_refused_saying_why() {
        for (text, says) in [
            ("null", "null"),
            ("NULL", "null"),
            ("app.example", "no scheme"),
            ("1http://app.example", "no valid scheme"),
            ("https://app.example/path", "path"),
            ("https://app.example?x=1", "query"),
            ("https://user@app.example", "plain host"),
            ("https://", "plain host"),
            ("https://app.example:99999", "valid host and port"),
            ("https://app.example:", "valid host and port"),
        ] {
            let refused = Origin::parse(text).unwrap_err();
            assert!(refused.contains(says), "{text}: {refused}");
        }
    }

    #[test]
    fn a_servers_own_origins_are_its_loopback_names_at_its_port() {
        let own = Origin::own("127.0.0.2:7000".parse().unwrap());
        let texts: Vec<String> = own.iter().map(Origin::to_string).collect();
        assert_eq!(
            texts,
            [
                "http://127.0.0.1:7000",
                "http://localhost:7000",
                "http://[::1]:7000",
                "http://127.0.0.2:7000"
            ]
        );
        let everywhere = Origin::own("0.0.0.0:7000".parse().unwrap());
        assert_eq!(everywhere.len(), 3, "{everywhere:?}");
    }
}
