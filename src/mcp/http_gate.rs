//! Which requests reach MCP over HTTP: those for [`MCP_PATH`] that carry the token,
//! name the server in `Host` (its loopback names, or the address the client
//! connected to: another name could be a DNS rebinding attack from a web page), and
//! come from no web page, or from one of the server's own origins or those allowed
//! (MCP's streamable HTTP transport asks servers to check `Origin`). The rest are
//! answered with what to do, and the connection is closed.

use std::net::{IpAddr, SocketAddr};

use http::{header, HeaderMap, Request, Response, StatusCode};

use super::bearer::BearerToken;
use super::http_origin::Origin;

/// The path the MCP endpoint is served at.
pub const MCP_PATH: &str = "/mcp";

/// A response body.
pub(super) type Body = http_body_util::combinators::BoxBody<bytes::Bytes, std::convert::Infallible>;

/// The checks every request passes before rmcp sees it.
pub(super) struct Gate {
    token: BearerToken,
    /// The server's own origins, then those allowed.
    origins: Vec<Origin>,
}

impl Gate {
    /// The gate of a server listening on `local`, taking `token` and web pages from
    /// `allowed` besides its own.
    pub fn new(token: BearerToken, local: SocketAddr, allowed: &[Origin]) -> Self {
        let mut origins = Origin::own(local);
        origins.extend_from_slice(allowed);
        Self { token, origins }
    }

    /// Why `request`, which reached the server at `reached`, goes no further: the
    /// response that says so; `None` lets it through.
    pub fn refusal<B>(&self, request: &Request<B>, reached: IpAddr) -> Option<Response<Body>> {
        if request.uri().path() != MCP_PATH {
            return Some(refusal(
                StatusCode::NOT_FOUND,
                "the MCP endpoint is /mcp".into(),
            ));
        }
        let authorization = request.headers().get(header::AUTHORIZATION);
        if !self.token.admits(authorization.map(|v| v.as_bytes())) {
            let mut refused = refusal(
                StatusCode::UNAUTHORIZED,
                "send the server's token as `Authorization: Bearer TOKEN` (from \
                 --token-file, DAPVISOR_TOKEN, or the file the server named when it \
                 started)"
                    .into(),
            );
            refused.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                header::HeaderValue::from_static("Bearer"),
            );
            return Some(refused);
        }
        if let Err(why) = host_is_ours(request.headers(), reached) {
            return Some(refusal(StatusCode::FORBIDDEN, why));
        }
        if let Err(why) = self.origin_allowed(request.headers()) {
            return Some(refusal(StatusCode::FORBIDDEN, why));
        }
        None
    }

    /// Whether the request comes from no web page, or from an allowed one.
    fn origin_allowed(&self, headers: &HeaderMap) -> Result<(), String> {
        let Some(given) = headers.get(header::ORIGIN) else {
            return Ok(());
        };
        let text = String::from_utf8_lossy(given.as_bytes());
        let origin = Origin::parse(&text);
        if origin.as_ref().is_ok_and(|o| self.origins.contains(o)) {
            return Ok(());
        }
        let listed: Vec<String> = self.origins.iter().map(Origin::to_string).collect();
        Err(format!(
            "web pages from `{text}` may not call this server: it takes requests from \
             no web page, or from {}. Start it with --allow-origin ORIGIN to let pages \
             from ORIGIN call it",
            listed.join(", ")
        ))
    }
}

/// Whether the `Host` header names this server: the address the client connected to
/// (`reached`), or, reached on loopback, `localhost` or any loopback address; at any
/// port (a proxy or a forwarded port may change it).
fn host_is_ours(headers: &HeaderMap, reached: IpAddr) -> Result<(), String> {
    let given = headers
        .get(header::HOST)
        .map(|h| h.as_bytes())
        .unwrap_or_default();
    let text = String::from_utf8_lossy(given);
    let ours = text
        .parse::<http::uri::Authority>()
        .ok()
        .is_some_and(|authority| {
            let host = authority
                .host()
                .trim_start_matches('[')
                .trim_end_matches(']');
            let loopback = host.eq_ignore_ascii_case("localhost")
                || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
            let reached = reached.to_canonical();
            loopback && reached.is_loopback()
                || host
                    .parse::<IpAddr>()
                    .is_ok_and(|ip| ip.to_canonical() == reached)
        });
    if ours {
        return Ok(());
    }
    Err(format!(
        "Host `{text}` is not this server's name: it answers to the address a client \
         connects to ({reached}), and on loopback to localhost. Another name could be a \
         web page's DNS rebinding attack: connect by the address (behind a proxy, have \
         it send the address it connects to as Host)"
    ))
}

/// A response with `status` saying `why`, that closes the connection: a client
/// refused has nothing more to send on it.
pub(super) fn refusal(status: StatusCode, why: String) -> Response<Body> {
    use http_body_util::BodyExt;
    let body = http_body_util::Full::new(bytes::Bytes::from(why))
        .map_err(|never| match never {})
        .boxed();
    let mut response = Response::new(body);
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "0123456789abcdef0123456789abcdef";

    fn status(gate: &Gate, reached: &str, headers: &[(&str, &str)]) -> StatusCode {
        let mut request =
            Request::post(MCP_PATH).header("authorization", format!("bearer {SECRET}"));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request.body(()).unwrap();
        gate.refusal(&request, reached.parse().unwrap())
            .map_or(StatusCode::OK, |r| r.status())
    }

    #[test]
    fn the_host_names_the_server_or_the_address_the_client_reached() {
        let token = BearerToken::new(SECRET).unwrap();
        let gate = Gate::new(token, "0.0.0.0:7000".parse().unwrap(), &[]);
        let ok = |reached, host| status(&gate, reached, &[("host", host)]) == StatusCode::OK;
        assert!(ok("127.0.0.1", "localhost:7000"));
        assert!(ok("127.0.0.1", "LOCALHOST"));
        assert!(ok("127.0.0.1", "[::1]:7000"));
        assert!(ok("127.0.0.2", "127.0.0.2:7000"));
        assert!(ok("192.0.2.7", "192.0.2.7:8080"));
        assert!(ok("::ffff:192.0.2.7", "192.0.2.7"));
        assert!(ok("fd00::2", "[fd00::2]:7000"));
        // Reached from outside, a loopback name is not this connection's.
        assert!(!ok("192.0.2.7", "127.0.0.1:7000"));
        assert!(!ok("192.0.2.7", "localhost:7000"));
        assert!(!ok("192.0.2.7", "192.0.2.8:7000"));
        assert!(!ok("127.0.0.1", "rebound.example:7000"));
        assert!(!ok("127.0.0.1", "localhost.rebound.example"));
        assert_eq!(status(&gate, "127.0.0.1", &[]), StatusCode::FORBIDDEN);
    }

    #[test]
    fn an_origin_must_be_the_servers_own_or_allowed() {
        let token = BearerToken::new(SECRET).unwrap();
        let allowed = [Origin::parse("https://app.example").unwrap()];
        let gate = Gate::new(token, "127.0.0.1:7000".parse().unwrap(), &allowed);
        let from = |origin| {
            status(
                &gate,
                "127.0.0.1",
                &[("host", "localhost"), ("origin", origin)],
            )
        };
        for own in [
            "http://localhost:7000",
            "http://127.0.0.1:7000",
            "https://app.example:443",
        ] {
            assert_eq!(from(own), StatusCode::OK, "{own}");
        }
        for other in [
            "null",
            "http://localhost:7001",
            "https://localhost:7000",
            "http://evil.example",
            "",
        ] {
            assert_eq!(from(other), StatusCode::FORBIDDEN, "{other}");
        }
        assert_eq!(
            status(&gate, "127.0.0.1", &[("host", "localhost")]),
            StatusCode::OK
        );
    }
}
