//! An adapter that dials back ([`TransportKind::ConnectBack`], CodeLLDB's
//! `--connect PORT`, dlv's `--client-addr 127.0.0.1:PORT`): the transport listens on a
//! loopback port the kernel picks, starts
//! the adapter with that port (and a fresh token) in its arguments, and waits for it
//! to connect. No port is reserved and released for the adapter to take, so nothing
//! can race for it.
//!
//! Any local user can connect to a loopback port. A connection is taken for the
//! adapter only if its socket belongs to this process's user (see
//! [`loopback_peer`](super::loopback_peer)) and, where the arguments carry `{token}`,
//! it first sends `Auth-Token: <token>\r\n`. Any other is closed and the wait goes on,
//! until the adapter connects or the connect timeout passes.
//!
//! [`TransportKind::ConnectBack`]: crate::registry::TransportKind::ConnectBack

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Instant;

use crate::transport::io::{start_io, StreamEnds};
use crate::transport::loopback_peer::{our_uid, owner_uid};
use crate::transport::messages::TransportMsg;

/// In an adapter's arguments, replaced by the port it is to connect to.
pub const PORT_PLACEHOLDER: &str = "{port}";

/// In an adapter's arguments, replaced by the token it is to send first.
pub const TOKEN_PLACEHOLDER: &str = "{token}";

/// A loopback port waiting for its adapter.
pub struct DialBack {
    listener: TcpListener,
    port: u16,
    /// The token the adapter must send, when its arguments name one.
    token: Option<String>,
}

impl DialBack {
    /// Listen on a port the kernel picks, for an adapter started with `args`: a token
    /// is made if they name one.
    pub async fn listen(args: &[String]) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let port = listener.local_addr()?.port();
        let token = args
            .iter()
            .any(|a| a.contains(TOKEN_PLACEHOLDER))
            .then(fresh_token)
            .transpose()?;
        Ok(Self {
            listener,
            port,
            token,
        })
    }

    /// `args` with the port and the token filled in.
    pub fn arguments(&self, args: &[String]) -> Vec<String> {
        args.iter()
            .map(|a| {
                let a = a.replace(PORT_PLACEHOLDER, &self.port.to_string());
                match &self.token {
                    Some(token) => a.replace(TOKEN_PLACEHOLDER, token),
                    None => a,
                }
            })
            .collect()
    }

    /// Wait (in a task) for the adapter to connect within `timeout`, then start the
    /// I/O tasks; failing that, the stream ends with the reason.
    pub fn accept(self, ends: StreamEnds, timeout: Duration) {
        let tasks = ends.tasks.clone();
        tasks.spawn(async move {
            match self.wait_for_adapter(timeout).await {
                Ok(stream) => {
                    let _ = stream.set_nodelay(true);
                    let (r, w) = stream.into_split();
                    start_io(r, w, ends);
                }
                Err(reason) => {
                    let _ = ends.actor.cast(TransportMsg::StreamEnded(reason));
                }
            }
        });
    }

    /// The first connection that is the adapter's, or why none came within
    /// `timeout`. The listener closes either way.
    pub async fn wait_for_adapter(self, timeout: Duration) -> Result<TcpStream, String> {
        let deadline = Instant::now() + timeout;
        let mut refused = Vec::new();
        loop {
            let accepted = tokio::time::timeout_at(deadline, self.listener.accept()).await;
            let (mut stream, peer) = match accepted {
                Ok(Ok(connection)) => connection,
                Ok(Err(err)) => {
                    return Err(format!(
                        "waiting for the adapter to connect to 127.0.0.1:{} failed: {err}",
                        self.port
                    ))
                }
                Err(_) => return Err(self.timed_out(timeout, &refused)),
            };
            match self.admit(&mut stream, peer, deadline).await {
                Ok(()) => return Ok(stream),
                Err(why) => {
                    tracing::warn!(%peer, port = self.port, %why, "refused a connection that is not the adapter's");
                    refused.push(format!("{peer} ({why})"));
                }
            }
        }
    }

    /// Whether the connection from `peer` is the adapter's: owned by our user, and
    /// carrying the token where one is expected (read by `deadline`).
    async fn admit(
        &self,
        stream: &mut TcpStream,
        peer: SocketAddr,
        deadline: Instant,
    ) -> Result<(), String> {
        let local = stream.local_addr().map_err(|e| e.to_string())?;
        if let Some(uid) = owner_uid(peer, local).await {
            if uid != our_uid() {
                return Err(format!("its socket belongs to uid {uid}"));
            }
        }
        let Some(token) = &self.token else {
            return Ok(());
        };
        let expected = format!("Auth-Token: {token}\r\n");
        let mut got = vec![0u8; expected.len()];
        match tokio::time::timeout_at(deadline, stream.read_exact(&mut got)).await {
            Ok(Ok(_)) if got == expected.as_bytes() => Ok(()),
            Ok(Ok(_)) => Err("it did not send the expected token".into()),
            Ok(Err(err)) => Err(format!("it closed before sending the token: {err}")),
            Err(_) => Err("it sent no token in time".into()),
        }
    }

    fn timed_out(&self, timeout: Duration, refused: &[String]) -> String {
        let mut reason = format!(
            "the adapter did not connect back to 127.0.0.1:{} within {}s (if it starts \
             slowly, raise RuntimeConfig::connect_timeout)",
            self.port,
            timeout.as_secs_f64()
        );
        if !refused.is_empty() {
            reason.push_str(&format!(
                "; refused {} connection(s) that were not its: {}",
                refused.len(),
                refused.join(", ")
            ));
        }
        reason
    }
}

/// 128 random bits from the kernel, in hex.
fn fresh_token() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    let mut filled = 0;
    while filled < bytes.len() {
        let rest = &mut bytes[filled..];
        // SAFETY: the pointer and length describe `rest`, which getrandom fills.
        let n = unsafe { libc::getrandom(rest.as_mut_ptr().cast(), rest.len(), 0) };
        if n < 0 {
            let err = std::io::Error::last_os_error();
            if err.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        filled += n as usize;
    }
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    const WAIT: Duration = Duration::from_secs(10);

    fn args() -> Vec<String> {
        ["--connect", "{port}", "--auth-token", "{token}"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[tokio::test]
    async fn the_arguments_name_the_port_and_a_fresh_token() {
        let first = DialBack::listen(&args()).await.unwrap();
        let second = DialBack::listen(&args()).await.unwrap();
        let filled = first.arguments(&args());
        assert_eq!(filled[1], first.port.to_string());
        assert_eq!(filled[3].len(), 32, "{filled:?}");
        assert!(filled[3].bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(filled[3], second.arguments(&args())[3], "tokens differ");
        // Without `{token}` in the arguments, none is made or asked for.
        let plain = DialBack::listen(&args()[..2]).await.unwrap();
        assert!(plain.token.is_none());
    }

    #[tokio::test]
    async fn a_connection_without_the_token_is_refused_and_the_adapter_taken() {
        let dial = DialBack::listen(&args()).await.unwrap();
        let filled = dial.arguments(&args());
        let port = dial.port;
        let waiting = tokio::spawn(dial.wait_for_adapter(WAIT));

        // An impostor with a wrong token, then the adapter, which sends DAP right after.
        let mut impostor = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        impostor
            .write_all(b"Auth-Token: 00000000000000000000000000000000\r\n")
            .await
            .unwrap();
        let mut adapter = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        let hello = format!("Auth-Token: {}\r\nContent-Length: 2\r\n\r\n{{}}", filled[3]);
        adapter.write_all(hello.as_bytes()).await.unwrap();

        let mut taken = waiting.await.unwrap().expect("the adapter is taken");
        assert_eq!(
            taken.peer_addr().unwrap(),
            adapter.local_addr().unwrap(),
            "the adapter's connection, not the impostor's"
        );
        // What followed the token is left for the DAP reader.
        let mut rest = vec![0u8; "Content-Length: 2\r\n\r\n{}".len()];
        taken.read_exact(&mut rest).await.unwrap();
        assert_eq!(rest, b"Content-Length: 2\r\n\r\n{}");
        // The impostor was closed.
        let mut buf = [0u8; 1];
        assert_eq!(impostor.read(&mut buf).await.unwrap(), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn no_connection_within_the_timeout_says_so_and_names_the_refused() {
        let dial = DialBack::listen(&args()).await.unwrap();
        let port = dial.port;
        let waiting = tokio::spawn(dial.wait_for_adapter(WAIT));
        let mut silent = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        silent.write_all(b"Auth-").await.unwrap();
        let err = waiting.await.unwrap().unwrap_err();
        assert!(
            err.contains(&format!(
                "did not connect back to 127.0.0.1:{port} within 10s"
            )),
            "{err}"
        );
        assert!(err.contains("RuntimeConfig::connect_timeout"), "{err}");
        assert!(err.contains("refused 1 connection(s)"), "{err}");
        assert!(err.contains("sent no token in time"), "{err}");
    }
}
