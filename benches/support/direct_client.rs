//! The baseline for the end-to-end benchmark: a minimal DAP client that talks to
//! debugpy's adapter directly, with nothing between the request loop and the pipes
//! but `Content-Length` framing and `serde_json`. It starts the adapter the way
//! dapvisor does (`python -m debugpy.adapter`, its own process group) and sends the
//! same `initialize` and `launch` arguments in substance.

use std::io;
use std::path::Path;
use std::process::Stdio;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// A debugpy session driven by hand, stopped at a breakpoint once launched.
pub struct DirectClient {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    seq: i64,
    /// The thread that stopped at the breakpoint.
    pub thread_id: i64,
}

impl DirectClient {
    /// Start the adapter, launch `program` with a breakpoint at `line`, and wait for
    /// the stop. debugpy answers `launch` only after `configurationDone`.
    pub async fn launch(python: &Path, program: &Path, line: i64) -> io::Result<Self> {
        let mut child = Command::new(python)
            .args(["-m", "debugpy.adapter"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut client = DirectClient {
            child,
            stdin,
            stdout,
            seq: 0,
            thread_id: 0,
        };
        let init = json!({"clientID": "direct", "adapterID": "python", "linesStartAt1": true,
            "columnsStartAt1": true, "pathFormat": "path"});
        client.request("initialize", init).await?;
        let launch = client
            .send(
                "launch",
                json!({"type": "python", "request": "launch",
            "program": program, "args": [], "console": "internalConsole", "justMyCode": false,
            "redirectOutput": true, "stopOnEntry": false, "python": python}),
            )
            .await?;
        client.wait_for_event("initialized").await?;
        let source = json!({"source": {"path": program}, "breakpoints": [{"line": line}]});
        client.request("setBreakpoints", source).await?;
        client.request("configurationDone", json!({})).await?;
        client.wait_for_response(launch).await?;
        let stopped = client.wait_for_event("stopped").await?;
        client.thread_id = stopped["body"]["threadId"].as_i64().unwrap_or(1);
        Ok(client)
    }

    /// Send a request and return its response body; events meanwhile are read and
    /// dropped.
    pub async fn request(&mut self, command: &str, arguments: Value) -> io::Result<Value> {
        let seq = self.send(command, arguments).await?;
        self.wait_for_response(seq).await
    }

    async fn send(&mut self, command: &str, arguments: Value) -> io::Result<i64> {
        self.seq += 1;
        let message = json!({"seq": self.seq, "type": "request", "command": command,
            "arguments": arguments});
        let body = serde_json::to_vec(&message)?;
        let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        frame.extend_from_slice(&body);
        self.stdin.write_all(&frame).await?;
        self.stdin.flush().await?;
        Ok(self.seq)
    }

    async fn wait_for_response(&mut self, seq: i64) -> io::Result<Value> {
        loop {
            let message = self.read().await?;
            if message["type"] == "response" && message["request_seq"] == seq {
                if message["success"] != true {
                    return Err(io::Error::other(format!("request failed: {message}")));
                }
                return Ok(message["body"].clone());
            }
        }
    }

    async fn wait_for_event(&mut self, event: &str) -> io::Result<Value> {
        loop {
            let message = self.read().await?;
            if message["type"] == "event" && message["event"] == event {
                return Ok(message);
            }
        }
    }

    /// One frame: header lines up to a blank one, then `Content-Length` bytes.
    async fn read(&mut self) -> io::Result<Value> {
        let mut length = None;
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line).await? == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            let line = line.trim();
            if line.is_empty() && length.is_some() {
                break;
            }
            if let Some(value) = line.strip_prefix("Content-Length:") {
                length = value.trim().parse::<usize>().ok();
            }
        }
        let mut body = vec![0; length.unwrap_or(0)];
        self.stdout.read_exact(&mut body).await?;
        Ok(serde_json::from_slice(&body)?)
    }

    /// End the debuggee and the adapter, killing the group if they linger.
    pub async fn close(mut self) {
        let end = self.request("disconnect", json!({"terminateDebuggee": true}));
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), end).await;
        if let Some(pid) = self.child.id() {
            // SAFETY: kill(2) on our own child's process group.
            unsafe { libc::kill(-(pid as libc::pid_t), libc::SIGKILL) };
        }
        let _ = self.child.wait().await;
    }
}
