//! The official MCP Python SDK (PyPI `mcp`, in `$DAPVISOR_PYTHON`'s environment) as a
//! client of `dapvisor mcp --http`: it connects with the token, lists the tools, calls
//! one, and on leaving ends its MCP session with a `DELETE` that it takes for a success
//! (it reports any answer but 200 and 204 as "Session termination failed").

mod agent;
mod common;
mod http_support;

use std::process::Stdio;

use agent::mcp_client::ANSWER_WAIT;
use http_support::{HttpServer, TOKEN};

/// The client: argv is the URL and the token. It prints the tool count, the sessions
/// the call listed, and every warning the SDK logged.
const CLIENT: &str = r#"
import asyncio, logging, sys
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

warnings = []

class Keep(logging.Handler):
    def emit(self, record):
        warnings.append(record.getMessage())

logging.getLogger("mcp").addHandler(Keep(level=logging.WARNING))

async def main(url, token):
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    async with http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = await session.list_tools()
                print("tools", len(tools.tools))
                listed = await session.call_tool("debug_sessions", {})
                # The field's name since the SDK's 2.0, and before it.
                content = getattr(listed, "structured_content", None)
                if content is None:
                    content = listed.structuredContent
                print("sessions", content["sessions"])
    for warning in warnings:
        print("warning:", warning)

asyncio.run(main(sys.argv[1], sys.argv[2]))
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_connects_calls_and_ends_its_session_cleanly() {
    let mut server = HttpServer::start().await;
    let python = std::env::var("DAPVISOR_PYTHON").unwrap_or_else(|_| "python3".into());
    let url = format!("http://{}/mcp", server.addr);
    let run = tokio::process::Command::new(&python)
        .args(["-c", CLIENT, &url, TOKEN])
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(ANSWER_WAIT, run)
        .await
        .expect("the Python client finishes")
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{python} with the MCP SDK (pip install mcp) failed: {stdout}{stderr}"
    );
    assert!(
        stdout.contains("tools ") && !stdout.contains("tools 0"),
        "{stdout}"
    );
    assert!(stdout.contains("sessions []"), "{stdout}");
    assert!(
        !stdout.contains("warning:") && !stderr.contains("termination failed"),
        "the SDK logged: {stdout}{stderr}"
    );
    server.terminate().await;
}
