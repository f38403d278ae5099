//! The tool catalogue served over MCP (the Model Context Protocol), on stdio, built on
//! rmcp, the official Rust SDK.
//!
//! - Tools: every catalogue tool under its MCP name (`debug_launch`, ...), with its
//!   schema and annotations; results carry `structuredContent` and a text rendering.
//!   Calls run concurrently; calls on one session are ordered by its actor.
//! - Approval: where the permission mode asks, the user is asked through MCP
//!   elicitation; a client that cannot ask gets a refusal that says so.
//! - Resources: `debugger://sessions` and `debugger://sessions/{id}`, with
//!   subscriptions and notifications when a session stops, ends or restarts.
//! - Prompts: plans for debugging a failing test, a crash and a wrong value, in the
//!   core tools; and `instructions`, the loop in a few lines, under 1 KiB.

mod approval;
mod bearer;
mod editor_notify;
mod http;
mod http_connections;
mod http_gate;
mod http_origin;
mod http_settings;
mod instructions;
mod logging;
mod notify;
mod progress;
mod prompt_texts;
mod prompts;
mod resources;
mod server;

pub use approval::{ElicitationApprover, DEFAULT_APPROVAL_TIMEOUT};
pub(crate) use bearer::same_secret;
pub use bearer::{BearerToken, MIN_TOKEN_CHARS};
pub use http::{bind, serve_http_until, ACCEPT_RETRY};
pub use http_gate::MCP_PATH;
pub use http_origin::Origin;
pub use http_settings::{
    HttpSettings, DEFAULT_CONNECTION_IDLE_TIMEOUT, DEFAULT_HEADER_READ_TIMEOUT,
    DEFAULT_MAX_CONNECTIONS, MAX_CONNECTION_IDLE_TIMEOUT, MAX_HEADER_READ_TIMEOUT,
};
pub use instructions::{instructions, MAX_INSTRUCTIONS_BYTES};
pub use progress::PROGRESS_INTERVAL;
pub use prompts::MAX_PROMPT_ARGUMENT_CHARS;
pub use resources::{session_uri, SESSIONS_URI, SESSION_URI_TEMPLATE};
pub use server::{mcp_result, mcp_tool, DebugServer};

use rmcp::ServiceExt;

/// Serve `server` on this process's stdin and stdout until the client closes them,
/// then end every session.
pub async fn serve_stdio(server: DebugServer) -> Result<(), Box<dyn std::error::Error>> {
    serve_stdio_until(server, std::future::pending::<()>()).await
}

/// [`serve_stdio`], or until `stop` completes (a signal, a host's own shutdown):
/// either way every session is then ended as [`Runtime::shutdown`] ends them, an
/// attached program detached from, not killed.
///
/// [`Runtime::shutdown`]: crate::Runtime::shutdown
pub async fn serve_stdio_until(
    server: DebugServer,
    stop: impl std::future::Future,
) -> Result<(), Box<dyn std::error::Error>> {
    let runtime = server.catalogue().runtime().clone();
    let served = async {
        let running = server.serve(rmcp::transport::stdio()).await?;
        running.waiting().await?;
        Ok::<_, Box<dyn std::error::Error>>(())
    };
    let served = tokio::select! {
        served = served => served,
        _ = stop => Ok(()),
    };
    runtime.shutdown().await;
    served
}
