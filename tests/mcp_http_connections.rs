//! Connections `dapvisor mcp --http` holds, replayed through the real server with the
//! descriptor limit of the report (1,024): 1,500 connections that send half a request
//! head do not keep a client with the token out, with a lowered connection cap or the
//! default one; a head that never ends is closed after the header timeout, a request
//! that stalls after its token after the idle timeout; and when every connection the
//! cap allows has shown the token, a new one is told so (503) rather than evicting them.

mod agent;
mod common;
mod http_support;

use std::time::Instant;

use agent::mcp_client::ANSWER_WAIT;
use http_support::{HttpServer, TOKEN};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Half-open connections, as in the report.
const HALF_OPEN: usize = 1_500;

/// The server's descriptor limit, as in the report.
const SERVER_FILES: u64 = 1_024;

/// The descriptors the test process needs for its half-open connections and the rest.
const TEST_FILES: u64 = HALF_OPEN as u64 + 512;

/// Let this test process hold [`TEST_FILES`] descriptors.
fn allow_test_files() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit on this process with a valid struct.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        if limit.rlim_cur < TEST_FILES {
            assert!(
                limit.rlim_max >= TEST_FILES,
                "the test needs {TEST_FILES} descriptors; the hard limit is {}",
                limit.rlim_max
            );
            limit.rlim_cur = TEST_FILES;
            assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &limit), 0);
        }
    }
}

/// `n` connections to `server` that each send the start of a request head and never
/// its end, in the order opened.
async fn half_open(server: &HttpServer, n: usize) -> Vec<TcpStream> {
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: app",
        server.addr
    );
    let mut streams = Vec::with_capacity(n);
    for i in 0..n {
        let mut stream = TcpStream::connect(server.addr)
            .await
            .unwrap_or_else(|e| panic!("the server takes no connection {i} of {n}: {e}"));
        stream.write_all(head.as_bytes()).await.unwrap();
        streams.push(stream);
    }
    streams
}

/// Everything the server sent on `stream` until it closed it.
async fn until_closed(stream: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let read = tokio::time::timeout(ANSWER_WAIT, async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    });
    read.await.expect("the server closes the connection");
    String::from_utf8_lossy(&got).into_owned()
}

/// 1,500 half-open connections, then a client with the token, on a server that may
/// keep `cap` connections open: the client is served, and the oldest of the
/// half-open ones were closed to make room for it.
async fn served_past_half_open(server: &HttpServer, cap: usize) {
    let mut streams = half_open(server, HALF_OPEN).await;
    let began = Instant::now();
    server.initialize().await;
    eprintln!(
        "a client with the token past {HALF_OPEN} half-open connections: {:?}",
        began.elapsed()
    );
    // It took a slot: at least that many of the oldest made room.
    for stream in &mut streams[..HALF_OPEN - cap + 1] {
        until_closed(stream).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_connections_do_not_keep_a_client_with_the_token_out() {
    allow_test_files();
    let cap = 50;
    let server = HttpServer::start_with_files(
        SERVER_FILES,
        &[
            "--max-connections",
            &cap.to_string(),
            "--header-timeout",
            "10",
        ],
    )
    .await;
    served_past_half_open(&server, cap).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_connections_do_not_keep_a_client_out_at_the_default_cap() {
    allow_test_files();
    let server = HttpServer::start_with_files(SERVER_FILES, &[]).await;
    // The default, and at most a quarter of the descriptors.
    let cap = dapvisor::mcp::DEFAULT_MAX_CONNECTIONS.min(SERVER_FILES as usize / 4);
    served_past_half_open(&server, cap).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_head_that_never_ends_is_closed_after_the_header_timeout() {
    let server = HttpServer::start_with(&["--header-timeout", "1"]).await;
    let mut streams = half_open(&server, 1).await;
    until_closed(&mut streams[0]).await;
    // So is a connection that sends nothing at all.
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    until_closed(&mut silent).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_that_stalls_after_its_token_is_closed_after_the_idle_timeout() {
    let server = HttpServer::start_with(&["--connection-idle-timeout", "1"]).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Content-Length: 100\r\n\r\n{{\"jsonrpc\":",
        server.addr
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    until_closed(&mut stream).await;
    // A call that waits longer than that is not idle: its SSE stream carries
    // keep-alives more often. ticker.py runs for two minutes, so the continue waits
    // its whole timeout.
    let session = server.initialize().await;
    let ticker = agent::program("python/ticker.py").display().to_string();
    let launched = server
        .call(
            &session,
            2,
            "debug_launch",
            json!({ "program": ticker, "stop_on_entry": true }),
        )
        .await;
    let id = launched["session_id"].as_str().unwrap();
    let waited = server
        .call(
            &session,
            3,
            "debug_continue",
            json!({ "session_id": id, "timeout": 3 }),
        )
        .await;
    assert_eq!(waited["state"], "running", "{waited}");
    server
        .call(&session, 4, "debug_terminate", json!({ "session_id": id }))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_server_keeps_its_token_holders_and_says_so_to_a_newcomer() {
    let server = HttpServer::start_with(&["--max-connections", "2"]).await;
    // Two clients, each on one connection that ends up holding its SSE stream.
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut connection = server.connect().await;
        let session = server.initialize_on(&mut connection).await;
        held.push(server.listen_on(connection, &session).await);
    }
    // Each newcomer is told the server is full; neither stream made room for it.
    for mut newcomer in half_open(&server, 3).await {
        let answer = until_closed(&mut newcomer).await;
        assert!(
            answer.starts_with("HTTP/1.1 503") && answer.contains("--max-connections"),
            "{answer}"
        );
    }
}
