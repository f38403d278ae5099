//! What `dapvisor mcp --http` lets in, replayed through the real server: a browser
//! page's `Origin` other than the server's own (or one `--allow-origin` names) is
//! refused, `Origin: null` too; the bearer scheme is case-insensitive and a missing
//! token is refused before any body is read; a token too short to be safe is refused
//! at start; a server bound to another address (127.0.0.2, or 0.0.0.0 reached at
//! 127.0.0.2) accepts the address its clients use as `Host`, and warns that the token
//! travels in clear text; `--http localhost:PORT` listens on loopback; an MCP session
//! ends with the `DELETE` answered 204, as the SDKs expect.

mod agent;
mod common;
mod http_support;

use std::net::{IpAddr, Ipv4Addr};
use std::process::Stdio;

use agent::mcp_client::ANSWER_WAIT;
use bytes::Bytes;
use http::{header, Request, StatusCode};
use http_body_util::Full;
use http_support::{bearer, HttpServer, TOKEN};
use serde_json::json;

/// Another loopback address than 127.0.0.1: the tests' stand-in for "the machine's
/// own address", since they reach nothing but loopback.
const OTHER_LOOPBACK: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

/// An `initialize` with the token and `headers` (in place of those of the same name);
/// the status and the body.
async fn initialize_with(server: &HttpServer, headers: &[(&str, &str)]) -> (StatusCode, String) {
    let mut request = server
        .initialize_request()
        .header(header::AUTHORIZATION, bearer())
        .body(HttpServer::initialize_body())
        .unwrap();
    for (name, value) in headers {
        let name = header::HeaderName::from_bytes(name.as_bytes()).unwrap();
        request
            .headers_mut()
            .insert(name, header::HeaderValue::from_str(value).unwrap());
    }
    server.exchange(request).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_origin_other_than_the_servers_own_is_refused() {
    let server =
        HttpServer::start_with(&["--allow-origin", "https://inspector.example:6274"]).await;
    let port = server.addr.port();
    for evil in [
        "http://evil.example",
        "null",
        "https://inspector.example:6275",
        "http://inspector.example:6274",
        "not an origin",
    ] {
        let (status, body) = initialize_with(&server, &[("origin", evil)]).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "Origin: {evil}: {body}");
        assert!(body.contains("--allow-origin"), "Origin: {evil}: {body}");
    }
    let own = [
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
        format!("http://[::1]:{port}"),
    ];
    for origin in own.iter().map(String::as_str).chain([
        "https://inspector.example:6274",
        "https://INSPECTOR.example:6274",
    ]) {
        let (status, body) = initialize_with(&server, &[("origin", origin)]).await;
        assert_eq!(status, StatusCode::OK, "Origin: {origin}: {body}");
    }
    // No Origin (a client that is not a browser page) is served as before.
    let (status, body) = initialize_with(&server, &[]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bearer_scheme_is_case_insensitive_and_a_body_waits_for_the_token() {
    let server = HttpServer::start().await;
    for scheme in ["bearer", "BEARER", "Bearer", "bEaReR"] {
        let authorization = format!("{scheme} {TOKEN}");
        let request = server
            .initialize_request()
            .header(header::AUTHORIZATION, authorization)
            .body(HttpServer::initialize_body())
            .unwrap();
        let (status, body) = server.exchange(request).await;
        assert_eq!(status, StatusCode::OK, "{scheme}: {body}");
    }
    // Without the token, a request announcing a body it never sends is refused at
    // once: the body is not waited for.
    let mut connection = server.connect().await;
    let request = server
        .initialize_request()
        .header(header::AUTHORIZATION, "Basic dXNlcjpwYXNz")
        .header(header::CONTENT_LENGTH, "1048576")
        .body(Full::new(Bytes::new()))
        .unwrap();
    let answered = tokio::time::timeout(ANSWER_WAIT, connection.send(request))
        .await
        .expect("refused without the body");
    assert_eq!(answered.status(), StatusCode::UNAUTHORIZED);
}

/// `dapvisor mcp --http 0 ARGS` with `token` in DAPVISOR_TOKEN fails before it
/// serves: what it said on stderr.
async fn refused_at_start(token: &str, args: &[&str]) -> String {
    let run = tokio::process::Command::new(env!("CARGO_BIN_EXE_dapvisor"))
        .args(["mcp", "--http", "0"])
        .args(args)
        .env("DAPVISOR_TOKEN", token)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(ANSWER_WAIT, run)
        .await
        .unwrap_or_else(|_| panic!("{args:?} with token {token:?} was served, not refused"))
        .unwrap();
    assert!(!out.status.success(), "{args:?} was not refused");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_token_and_limits_out_of_range_are_refused_at_start() {
    let stderr = refused_at_start("s3cret", &[]).await;
    assert!(
        stderr.contains("DAPVISOR_TOKEN") && stderr.contains("6 characters"),
        "{stderr}"
    );
    assert!(stderr.contains("at least 32"), "{stderr}");
    let file = std::env::temp_dir().join(format!("dapvisor-short-{}", std::process::id()));
    std::fs::write(&file, "only-twenty-chars-ok\n").unwrap();
    let stderr = refused_at_start(TOKEN, &["--token-file", file.to_str().unwrap()]).await;
    std::fs::remove_file(&file).unwrap();
    assert!(
        stderr.contains(file.to_str().unwrap()) && stderr.contains("at least 32"),
        "{stderr}"
    );
    let spaced = format!("{TOKEN} and more");
    let stderr = refused_at_start(&spaced, &[]).await;
    assert!(stderr.contains("space"), "{stderr}");

    for (flag, value, says) in [
        ("--header-timeout", "11", "at most 10"),
        ("--header-timeout", "0", "at least 1"),
        ("--connection-idle-timeout", "0", "at least 1"),
        ("--max-connections", "0", "at least 1"),
        ("--allow-origin", "null", "null"),
        ("--allow-origin", "evil.example", "scheme"),
        ("--allow-origin", "https://app.example/path", "path"),
    ] {
        let stderr = refused_at_start(TOKEN, &[flag, value]).await;
        assert!(
            stderr.contains(flag) && stderr.contains(says),
            "{flag} {value}: {stderr}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_on_another_address_takes_the_address_its_clients_use() {
    let listen = format!("{OTHER_LOOPBACK}:0");
    let server = HttpServer::start_on(&listen, &[]).await;
    assert_eq!(server.addr.ip(), OTHER_LOOPBACK);
    let (status, body) = initialize_with(&server, &[]).await;
    assert_eq!(status, StatusCode::OK, "Host: {}: {body}", server.addr);
    // Its own loopback origin is its own.
    let origin = format!("http://{}", server.addr);
    let (status, body) = initialize_with(&server, &[("origin", &origin)]).await;
    assert_eq!(status, StatusCode::OK, "Origin: {origin}: {body}");

    // On every address, reached at one of them: that one is taken, a name that is
    // not the machine's is not, and stderr says the token travels in clear text.
    let server = HttpServer::start_on("0.0.0.0:0", &[])
        .await
        .reached_at(OTHER_LOOPBACK);
    let (status, body) = initialize_with(&server, &[]).await;
    assert_eq!(status, StatusCode::OK, "Host: {}: {body}", server.addr);
    let (status, body) = initialize_with(&server, &[("host", "rebound.example")]).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let said = server.said.join("\n");
    assert!(
        said.contains("clear text") && said.contains("TLS"),
        "no warning on stderr: {said}"
    );
    // A loopback server says nothing of the kind.
    let quiet = HttpServer::start().await;
    assert!(
        !quiet.said.join("\n").contains("clear text"),
        "{:?}",
        quiet.said
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_name_that_resolves_to_loopback_is_listened_on() {
    let server = HttpServer::start_on("localhost:0", &[]).await;
    assert!(server.addr.ip().is_loopback(), "{}", server.addr);
    server.initialize().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_session_ends_with_its_delete_answered_204() {
    let server = HttpServer::start().await;
    let session = server.initialize().await;
    assert_eq!(server.delete(&session).await, StatusCode::NO_CONTENT);
    // Gone: a request in it is answered 404, which tells a client to start anew.
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
    let (status, _, _) = server.post("/mcp", Some(TOKEN), Some(&session), ping).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// The 403 for a Host that is not the server's names what to do.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_that_is_not_the_servers_is_refused_saying_why() {
    let server = HttpServer::start().await;
    let request = Request::post("/mcp")
        .header(header::HOST, "rebound.example:80")
        .header(header::AUTHORIZATION, bearer())
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream")
        .body(HttpServer::initialize_body())
        .unwrap();
    let (status, body) = server.exchange(request).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(body.contains("rebound.example"), "{body}");
}
