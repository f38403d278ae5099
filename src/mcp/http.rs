//! The tool catalogue over MCP's streamable HTTP transport, at `http://ADDR/mcp`, for
//! many clients at once on one runtime. rmcp serves the transport (a tower service);
//! this module binds the address, holds the connections within their limits
//! (`http_connections.rs`, `http_settings.rs`), lets through only the requests the
//! gate admits (token, Host, Origin: `http_gate.rs`), and gives each client
//! connection (MCP session) a [`DebugServer`] of its own, so subscriptions, the log
//! level and notifications are per client while the sessions, the limits and the
//! adapters are shared.

use std::net::SocketAddr;
use std::sync::Arc;

use http::{Method, Request, Response, StatusCode};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::{TcpListener, TcpStream};

use super::bearer::BearerToken;
use super::http_connections::{Activity, Connections, Ticket, Watched};
use super::http_gate::{Body, Gate};
use super::http_settings::HttpSettings;
use super::server::DebugServer;

/// How long the server waits after a failed `accept` (out of file descriptors, say)
/// before it tries again, rather than spinning on the error: 100 ms.
pub const ACCEPT_RETRY: std::time::Duration = std::time::Duration::from_millis(100);

/// Bind `addr` for [`serve_http_until`]. The address actually bound (a port of 0 is
/// chosen by the system) is the listener's `local_addr`.
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await
}

type Service = StreamableHttpService<DebugServer, LocalSessionManager>;

/// Serve `server`'s catalogue on `listener` at [`MCP_PATH`](super::MCP_PATH) to every
/// client that shows `token`, within `settings`, until `stop` completes; then every
/// session is ended as [`Runtime::shutdown`](crate::Runtime::shutdown) ends them.
pub async fn serve_http_until(
    listener: TcpListener,
    server: DebugServer,
    token: BearerToken,
    settings: HttpSettings,
    stop: impl std::future::Future,
) -> std::io::Result<()> {
    let local = listener.local_addr()?;
    // The gate checks Host and Origin itself, against the address each connection
    // reached, which rmcp's fixed list cannot know.
    let config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .with_sse_keep_alive(Some(settings.sse_keep_alive()));
    let cancel = config.cancellation_token.clone();
    let template = server.clone();
    let service = StreamableHttpService::new(
        move || Ok(template.for_another_client()),
        Arc::new(client_sessions(&server)),
        config,
    );
    let gate = Arc::new(Gate::new(token, local, settings.allowed_origins()));
    let connections = Connections::new(settings.max_connections());
    let mut http1 = hyper::server::conn::http1::Builder::new();
    http1
        .timer(TokioTimer::new())
        .header_read_timeout(settings.header_read_timeout());
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
            let Some(ticket) = connections.open() else {
                refuse_full(&stream, connections.cap());
                continue;
            };
            let connection = Connection {
                service: service.clone(),
                gate: gate.clone(),
                ticket: Arc::new(ticket),
                http1: http1.clone(),
                idle: settings.connection_idle_timeout(),
            };
            tokio::spawn(connection.serve(stream, peer));
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

/// One accepted connection and what serving it takes.
struct Connection {
    service: Service,
    gate: Arc<Gate>,
    ticket: Arc<Ticket>,
    http1: hyper::server::conn::http1::Builder,
    idle: std::time::Duration,
}

impl Connection {
    /// Serve the connection's requests until the client closes it, its head or its
    /// bytes are too slow in coming, or a newer connection needs its place.
    async fn serve(self, stream: TcpStream, peer: SocketAddr) {
        let Ok(reached) = stream.local_addr().map(|a| a.ip()) else {
            return;
        };
        let activity = Activity::new();
        let io = TokioIo::new(Watched::new(stream, activity.clone()));
        let (service, gate, ticket) = (self.service, self.gate, self.ticket.clone());
        let handler = hyper::service::service_fn(move |request: Request<Incoming>| {
            let (service, gate, ticket) = (service.clone(), gate.clone(), ticket.clone());
            async move {
                if let Some(refused) = gate.refusal(&request, reached) {
                    return Ok::<_, std::convert::Infallible>(refused);
                }
                ticket.shown_token();
                Ok(answer(request, service).await)
            }
        });
        let served = self.http1.serve_connection(io, handler);
        tokio::select! {
            served = served => if let Err(e) = served {
                tracing::debug!(%peer, error = %e, "an HTTP connection ended with an error");
            },
            () = self.ticket.evicted() => {
                tracing::debug!(%peer, "closed a connection without the token to make room");
            }
            () = activity.idle_for(self.idle) => {
                tracing::debug!(%peer, "closed a connection idle for {:?}", self.idle);
            }
        }
    }
}

/// Tell a connection the server holds as many connections as it may, every one a
/// client that showed the token, then close it. The answer is written without
/// waiting: it fits in a new socket's buffer, or is not sent.
fn refuse_full(stream: &TcpStream, cap: usize) {
    let why = format!(
        "dapvisor holds its most connections ({cap}), every one a client with the token: \
         close one, or start the server with a larger --max-connections\n"
    );
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{why}",
        why.len()
    );
    let _ = stream.try_write(answer.as_bytes());
    // Not a warning: anyone may connect, and each would print one.
    tracing::debug!(
        cap,
        "refused a connection: every one held has shown the token"
    );
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

/// A request past the gate: rmcp's answer, but for the end of an MCP session
/// (`DELETE`), which rmcp answers 202 and the SDKs take only 200 or 204 for (the
/// Python SDK logs "Session termination failed: 202"): 204, nothing more to say.
async fn answer(request: Request<Incoming>, service: Service) -> Response<Body> {
    let ending = request.method() == Method::DELETE;
    let mut response = service.handle(request).await;
    if ending && response.status() == StatusCode::ACCEPTED {
        use http_body_util::BodyExt;
        *response.status_mut() = StatusCode::NO_CONTENT;
        *response.body_mut() = http_body_util::Empty::new()
            .map_err(|never| match never {})
            .boxed();
    }
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
}
