//! An adapter that listens on a port it picked (dlv's `--listen 127.0.0.1:0`): its
//! stdout is read until a line names the address (see
//! [`parse_listen_banner`]), then the transport connects. Everything it prints, banner
//! included, goes to its stdout tail, so an adapter that never names a port is
//! reported with what it did say.

use std::time::Duration;

use std::os::fd::AsFd;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, BufReader};

use crate::registry::parse_listen_banner;
use crate::transport::io::{connect_tcp, drain_then, StreamEnds};
use crate::transport::messages::TransportMsg;
use crate::transport::output_order::{drain_in_order, OrderedForward};
use crate::transport::output_tail::OutputTail;

/// `args` with each `{port}` replaced by a loopback port free now, for an adapter that
/// listens only on a port it is told (JdiDapServer refuses to pick one). The port is
/// released before the adapter binds it, the one race dapvisor accepts, because losing
/// it is safe: the adapter prints its banner only once its own bind succeeded, so
/// nothing else can answer there, and a port taken meanwhile fails the start with the
/// adapter's words. Arguments without `{port}` are left as they are (no port is taken).
pub fn told_port(args: &[String]) -> std::io::Result<Vec<String>> {
    const PORT: &str = "{port}";
    if !args.iter().any(|a| a.contains(PORT)) {
        return Ok(args.to_vec());
    }
    let port = std::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port();
    Ok(args
        .iter()
        .map(|a| a.replace(PORT, &port.to_string()))
        .collect())
}

/// Read the adapter's stdout (or stderr, for an adapter that names its port there)
/// until the banner names the address, connect, then start the I/O tasks; keep
/// draining the pipe into `tail` (and to `forward`, in order with the events), and
/// call `at_end` once it is exhausted. Failing that, the stream ends with the reason.
pub fn connect_from_banner<R>(
    output: R,
    tail: OutputTail,
    forward: Option<OrderedForward>,
    ends: StreamEnds,
    (connect_timeout, ready): (Duration, Option<&'static str>),
    at_end: impl FnOnce() + Send + 'static,
) where
    R: AsyncRead + AsFd + Unpin + Send + 'static,
{
    let tasks = ends.tasks.clone();
    tasks.spawn(async move {
        let mut output = BufReader::new(output);
        match wait_for_banner(&mut output, &tail, connect_timeout, ready).await {
            Ok((host, port)) => {
                connect_tcp((host, port), "the adapter", ends, connect_timeout).await;
                // Keep draining so the adapter never blocks on a full pipe.
                match forward {
                    Some(forward) => {
                        let already_read = output.buffer().to_vec();
                        let output = output.into_inner();
                        drain_in_order(output, already_read, tail, forward, at_end);
                    }
                    None => drain_then(output, tail, at_end),
                }
            }
            Err(reason) => {
                let _ = ends.actor.cast(TransportMsg::StreamEnded(reason));
                drain_then(output, tail, at_end);
            }
        }
    });
}

/// Read `stdout` line by line, each byte into `tail`, until a line names the address
/// the adapter listens on and, where `ready` names one, a line (before or after it)
/// has contained that text: the adapter is ready for its client then (rdbg accepts
/// earlier, but fails a client that comes before the program waits for it). Or say
/// why not within `timeout`. A line is held up to the tail's capacity (a longer one is
/// no banner), so memory stays bounded whatever the adapter prints.
pub async fn wait_for_banner<R: AsyncBufRead + Unpin>(
    stdout: &mut R,
    tail: &OutputTail,
    timeout: Duration,
    ready: Option<&str>,
) -> Result<(String, u16), String> {
    let read = async {
        let mut line = Vec::new();
        let mut address = None;
        let mut is_ready = ready.is_none();
        loop {
            line.clear();
            match next_line(stdout, tail, &mut line).await {
                Ok(true) => {}
                Ok(false) => {
                    break Err("the adapter ended its output without saying which port it \
                               listens on (it should print its address, such as \
                               `listening at 127.0.0.1:PORT`, on stdout)"
                        .to_string())
                }
                Err(err) => {
                    break Err(format!(
                        "reading the adapter's output failed before it said which port it \
                         listens on: {err}"
                    ))
                }
            }
            let text = String::from_utf8_lossy(&line);
            is_ready |= ready.is_some_and(|ready| text.contains(ready));
            address = address.or_else(|| parse_listen_banner(&text));
            if let (Some(address), true) = (&address, is_ready) {
                break Ok(address.clone());
            }
        }
    };
    tokio::time::timeout(timeout, read)
        .await
        .unwrap_or_else(|_| {
            Err(format!(
                "the adapter did not say which port it listens on within {}s (if it starts \
             slowly, raise RuntimeConfig::connect_timeout)",
                timeout.as_secs_f64()
            ))
        })
}

/// Read one line into `line` (its start, up to the tail's capacity), pushing every
/// byte read to `tail`. `false` at the end of the output with nothing read.
async fn next_line<R: AsyncBufRead + Unpin>(
    stdout: &mut R,
    tail: &OutputTail,
    line: &mut Vec<u8>,
) -> std::io::Result<bool> {
    let mut read_any = false;
    loop {
        let available = stdout.fill_buf().await?;
        if available.is_empty() {
            return Ok(read_any);
        }
        read_any = true;
        let (taken, complete) = match available.iter().position(|b| *b == b'\n') {
            Some(end) => (end + 1, true),
            None => (available.len(), false),
        };
        tail.push(&available[..taken]);
        let room = tail.capacity().saturating_sub(line.len());
        line.extend_from_slice(&available[..taken.min(room)]);
        stdout.consume(taken);
        if complete {
            return Ok(true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncWriteExt, DuplexStream};

    const TIMEOUT: Duration = Duration::from_secs(10);

    #[test]
    fn a_port_is_told_only_where_the_arguments_ask_for_one() {
        let asked = ["JdiDapServer", "--port", "{port}"].map(String::from);
        let told = told_port(&asked).unwrap();
        let port: u16 = told[2].parse().unwrap();
        assert_ne!(port, 0);
        assert_eq!(told[..2], asked[..2]);
        let plain = ["0", "127.0.0.1"].map(String::from);
        assert_eq!(told_port(&plain).unwrap(), plain);
    }

    fn pipe() -> (DuplexStream, BufReader<DuplexStream>, OutputTail) {
        let (adapter, ours) = tokio::io::duplex(1 << 16);
        (adapter, BufReader::new(ours), OutputTail::new(256))
    }

    #[tokio::test(start_paused = true)]
    async fn the_banner_gives_the_address_and_everything_goes_to_the_tail() {
        let (mut adapter, mut stdout, tail) = pipe();
        adapter
            .write_all(b"starting\nDAP server listening at: 127.0.0.1:40123\nmore")
            .await
            .unwrap();
        let found = wait_for_banner(&mut stdout, &tail, TIMEOUT, None).await;
        assert_eq!(found, Ok(("127.0.0.1".to_string(), 40123)));
        assert_eq!(
            tail.text(),
            "starting\nDAP server listening at: 127.0.0.1:40123\n"
        );
        // What follows the banner is still there for the drain.
        let mut rest = String::new();
        drop(adapter);
        tokio::io::AsyncReadExt::read_to_string(&mut stdout, &mut rest)
            .await
            .unwrap();
        assert_eq!(rest, "more");
    }

    #[tokio::test(start_paused = true)]
    async fn output_that_ends_without_a_banner_says_so() {
        let (mut adapter, mut stdout, tail) = pipe();
        adapter
            .write_all(b"cannot bind: permission denied\n")
            .await
            .unwrap();
        drop(adapter);
        let err = wait_for_banner(&mut stdout, &tail, TIMEOUT, None)
            .await
            .unwrap_err();
        assert!(
            err.contains("ended its output without saying which port"),
            "{err}"
        );
        assert_eq!(tail.text(), "cannot bind: permission denied\n");
    }

    #[tokio::test(start_paused = true)]
    async fn no_banner_within_the_connect_timeout_says_so() {
        let (mut adapter, mut stdout, tail) = pipe();
        adapter.write_all(b"thinking...\n").await.unwrap();
        let began = tokio::time::Instant::now();
        let err = wait_for_banner(&mut stdout, &tail, TIMEOUT, None)
            .await
            .unwrap_err();
        assert!(
            began.elapsed() >= TIMEOUT && began.elapsed() <= TIMEOUT + Duration::from_millis(10),
            "{:?}",
            began.elapsed()
        );
        assert!(
            err.contains("did not say which port it listens on within 10s"),
            "{err}"
        );
        assert_eq!(tail.text(), "thinking...\n");
        drop(adapter);
    }

    #[tokio::test(start_paused = true)]
    async fn a_line_longer_than_the_tail_is_held_to_its_capacity() {
        let (mut adapter, mut stdout, tail) = pipe();
        let long = vec![b'x'; 10_000];
        adapter.write_all(&long).await.unwrap();
        adapter
            .write_all(b"\nlistening on 127.0.0.1:5000\n")
            .await
            .unwrap();
        let found = wait_for_banner(&mut stdout, &tail, TIMEOUT, None).await;
        assert_eq!(found, Ok(("127.0.0.1".to_string(), 5000)));
        assert!(tail.text().ends_with("listening on 127.0.0.1:5000\n"));
    }

    #[tokio::test(start_paused = true)]
    async fn an_adapter_that_says_when_it_is_ready_is_connected_to_only_then() {
        const READY: &str = "wait for debugger connection";
        let address = "DEBUGGER: can attach via TCP/IP (127.0.0.1:4100)\n";
        let ready = "DEBUGGER: wait for debugger connection...\n";
        // Either order: both lines are read before the address is given.
        for said in [format!("{address}{ready}"), format!("{ready}{address}")] {
            let (mut adapter, mut stdout, tail) = pipe();
            adapter.write_all(said.as_bytes()).await.unwrap();
            adapter.write_all(b"more").await.unwrap();
            let found = wait_for_banner(&mut stdout, &tail, TIMEOUT, Some(READY)).await;
            assert_eq!(found, Ok(("127.0.0.1".to_string(), 4100)), "{said}");
            assert_eq!(tail.text(), said);
        }
        // The address alone is not enough.
        let (mut adapter, mut stdout, tail) = pipe();
        adapter.write_all(address.as_bytes()).await.unwrap();
        drop(adapter);
        let err = wait_for_banner(&mut stdout, &tail, TIMEOUT, Some(READY))
            .await
            .unwrap_err();
        assert!(err.contains("ended its output"), "{err}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_banner_split_across_writes_is_found() {
        let (mut adapter, mut stdout, tail) = pipe();
        let task = tokio::spawn(async move {
            adapter.write_all(b"listening at 127.0").await.unwrap();
            tokio::time::sleep(Duration::from_secs(1)).await;
            adapter.write_all(b".0.1:7000\n").await.unwrap();
            adapter
        });
        let found = wait_for_banner(&mut stdout, &tail, TIMEOUT, None).await;
        assert_eq!(found, Ok(("127.0.0.1".to_string(), 7000)));
        drop(task.await.unwrap());
    }
}
