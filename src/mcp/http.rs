//! The tool catalogue over MCP's streamable HTTP transport, at `http://ADDR/mcp`, for
//! many clients at once on one runtime. rmcp serves the transport (a tower service);
//! this module binds the address, checks each request's bearer token, and gives each
//! client connection (MCP session) a [`DebugServer`] of its own, so subscriptions,
//! the log level and notifications are per client while the sessions, the limits and
//! the adapters are shared.

use std::net::SocketAddr;
use std::sync::Arc;

use http::{header, Request, Response, StatusCode};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

use super::server::DebugServer;

/// The path the MCP endpoint is served at.
pub const MCP_PATH: &str = "/mcp";

/// How long the server waits after a failed `accept` (out of file descriptors, say)
/// before it tries again, rather than spinning on the error: 100 ms.
pub const ACCEPT_RETRY: std::time::Duration = std::time::Duration::from_millis(100);

/// A bearer token, compared in constant time.
#[derive(Clone)]
pub struct BearerToken(Arc<str>);

impl BearerToken {
    /// The token `secret` (surrounding whitespace, such as a file's last newline, is
    /// not part of it). `None` for an empty one.
    pub fn new(secret: &str) -> Option<Self> {
        let secret = secret.trim();
        (!secret.is_empty()).then(|| Self(secret.into()))
    }

    /// Whether an `Authorization` header value carries this token.
    fn admits(&self, authorization: Option<&[u8]>) -> bool {
        let Some(given) = authorization.and_then(|a| a.strip_prefix(b"Bearer ")) else {
            return false;
        };
        let expected = self.0.as_bytes();
        // Every byte compared whatever the first difference, so the time taken does
        // not tell how much of a guess was right.
        given.len() == expected.len()
            && given
                .iter()
                .zip(expected)
                .fold(0u8, |diff, (a, b)| diff | (a ^ b))
                == 0
    }
}

impl std::fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BearerToken(..)")
    }
}

/// Bind `addr` for [`serve_http_until`]. The address actually bound (a port of 0 is
/// chosen by the system) is the listener's `local_addr`.
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await
}

/// Serve `server`'s catalogue on `listener` at [`MCP_PATH`] to every client that
/// shows `token`, until `stop` completes; then every session is ended as
/// [`Runtime::shutdown`](crate::Runtime::shutdown) ends them.
pub async fn serve_http_until(
    listener: TcpListener,
    server: DebugServer,
    token: BearerToken,
    stop: impl std::future::Future,
) -> std::io::Result<()> {
    let local = listener.local_addr()?;
    let mut config = StreamableHttpServerConfig::default();
    // rmcp checks the Host header against loopback names; a server bound to another
    // address is reached by it.
    if !local.ip().is_loopback() {
        config.allowed_hosts.push(local.ip().to_string());
    }
    let cancel = config.cancellation_token.clone();
    let template = server.clone();
    let service = StreamableHttpService::new(
        move || Ok(template.for_another_client()),
        Arc::new(client_sessions(&server)),
        config,
    );
    let accept = async {
        loop {
            let (stream, peer) = match listener.accept().await {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors, say: a later accept may work.
                    tracing::warn!(error = %e, "accepting an HTTP connection failed");
                    tokio::time::sleep(ACCEPT_RETRY).await;
                    continue;
                }
            };
            let service = service.clone();
            let token = token.clone();
            tokio::spawn(async move {
                let handler = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let service = service.clone();
                    let token = token.clone();
                    async move {
                        Ok::<_, std::convert::Infallible>(answer(request, &token, service).await)
                    }
                });
                let served = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), handler)
                    .await;
                if let Err(e) = served {
                    tracing::debug!(%peer, error = %e, "an HTTP connection ended with an error");
                }
            });
        }
    };
    tokio::select! {
        () = accept => {}
        _ = stop => {}
    }
    cancel.cancel();
    server.catalogue().runtime().shutdown().await;
    Ok(())
}

/// rmcp's MCP sessions for `server`'s clients. rmcp ends a client's MCP session after
/// a while without a request from it (5 minutes by default), and the debug sessions
/// the client owns end an owner grace later; a client is not taken for gone sooner
/// than its idle debug sessions would be reaped anyway (the runtime's `idle_limit`,
/// 10 minutes by default).
fn client_sessions(server: &DebugServer) -> LocalSessionManager {
    let mut sessions = LocalSessionManager::default();
    let idle = server.catalogue().runtime().idle_limit();
    if let (Some(idle), Some(keep_alive)) = (idle, sessions.session_config.keep_alive) {
        sessions.session_config.keep_alive = Some(keep_alive.max(idle));
    }
    sessions
}

type Body = http_body_util::combinators::BoxBody<bytes::Bytes, std::convert::Infallible>;

/// One request: refused unless it is for [`MCP_PATH`] and carries the token, else
/// rmcp's.
async fn answer(
    request: Request<Incoming>,
    token: &BearerToken,
    service: StreamableHttpService<DebugServer, LocalSessionManager>,
) -> Response<Body> {
    if request.uri().path() != MCP_PATH {
        return refusal(StatusCode::NOT_FOUND, "the MCP endpoint is /mcp");
    }
    let authorization = request
        .headers()
        .get(header::AUTHORIZATION)
        .map(|v| v.as_bytes());
    if !token.admits(authorization) {
        let mut refused = refusal(
            StatusCode::UNAUTHORIZED,
            "send the server's token as `Authorization: Bearer TOKEN` (from --token-file, \
             DAPVISOR_TOKEN, or the file the server named when it started)",
        );
        refused.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            header::HeaderValue::from_static("Bearer"),
        );
        return refused;
    }
    service.handle(request).await
}

fn refusal(status: StatusCode, why: &'static str) -> Response<Body> {
    use http_body_util::BodyExt;
    let body = http_body_util::Full::new(bytes::Bytes::from_static(why.as_bytes()))
        .map_err(|never| match never {})
        .boxed();
    let mut response = Response::new(body);
    *response.status_mut() = status;
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_client_is_not_taken_for_gone_before_its_idle_sessions_would_be_reaped() {
        use crate::tools::ToolCatalogue;
        use crate::{Runtime, RuntimeConfig};
        use std::time::Duration;
        let keep_alive = |idle: Option<Duration>| async move {
            let config = RuntimeConfig::default().idle_limit(idle);
            let runtime = Runtime::start(config).await.unwrap();
            let server = DebugServer::new(ToolCatalogue::new(runtime.clone()));
            let kept = client_sessions(&server).session_config.keep_alive;
            runtime.shutdown().await;
            kept
        };
        let minutes = |m: u64| Some(Duration::from_secs(m * 60));
        // The runtime's default, 10 minutes, is longer than rmcp's 5.
        assert_eq!(keep_alive(minutes(10)).await, minutes(10));
        assert_eq!(keep_alive(minutes(1)).await, minutes(5));
        assert_eq!(keep_alive(None).await, minutes(5));
    }

    #[test]
    fn a_token_admits_only_its_own_bearer_header() {
        let token = BearerToken::new("s3cret\n").unwrap();
        assert!(token.admits(Some(b"Bearer s3cret")));
        assert!(!token.admits(Some(b"Bearer s3cre")));
        assert!(!token.admits(Some(b"Bearer s3cretx")));
        assert!(!token.admits(Some(b"Basic s3cret")));
        assert!(!token.admits(Some(b"s3cret")));
        assert!(!token.admits(None));
        assert!(BearerToken::new("  \n").is_none());
        assert_eq!(format!("{token:?}"), "BearerToken(..)");
    }
}
