//! An editor that connects to an endpoint already holding its most editors
//! ([`MAX_EXPOSED_CLIENTS`](super::MAX_EXPOSED_CLIENTS)) is turned away in DAP terms,
//! so that its user sees why: an `output` event naming the cap, how to raise it and
//! which editors hold the places, a `terminated` event, and an error answer to its
//! first request (`initialize`), which an editor shows its user. A task of its own
//! does it, within [`EDITOR_REFUSAL_TIMEOUT`] whatever the editor does, and at most
//! [`MAX_EDITORS_BEING_TURNED_AWAY`] such tasks run at once: past it a connection is
//! closed at once (a flood of connections is no editor to tell).

use std::net::SocketAddr;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tokio_util::codec::{FramedRead, FramedWrite};

use dapvisor_actors::wire::{DapCodec, Event, Message};

use super::conversation::error;
use super::events::notice;
use super::framing::EditorCodec;
use super::MAX_EXPOSED_CLIENTS_LIMIT;

/// How long a turned-away editor is given to read why (and to send its first request,
/// which is answered with the same): 2 s. The connection is then closed, whatever it
/// has read.
pub const EDITOR_REFUSAL_TIMEOUT: Duration = Duration::from_secs(2);

/// The most turned-away editors told why at once, per endpoint: 8. Past it a
/// connection is closed without a word, and the log says so.
pub const MAX_EDITORS_BEING_TURNED_AWAY: usize = 8;

/// One editor holding a place, for the turned-away editor's user to find it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Holder {
    /// Its number on the endpoint, from 1.
    pub number: u32,
    /// Where it connected from.
    pub peer: SocketAddr,
}

/// Why an editor is turned away from session `session`'s endpoint, which takes
/// `max` editors, all held by `holders`.
pub(super) fn why_full(session: &str, max: usize, holders: &[Holder]) -> String {
    let mut holders = holders.to_vec();
    holders.sort_by_key(|h| h.number);
    let held: Vec<String> = holders
        .iter()
        .map(|h| format!("editor {} (from {})", h.number, h.peer))
        .collect();
    let editors = if max == 1 { "editor" } else { "editors" };
    format!(
        "dapvisor session {session} already has {max} {editors} connected, the most its \
         exposure takes (MAX_EXPOSED_CLIENTS, {max} on this server): held by {}. Disconnect \
         one of them and join again, or start the server with `dapvisor mcp \
         --max-exposed-clients N` (up to {MAX_EXPOSED_CLIENTS_LIMIT}; \
         `ToolCatalogue::with_max_exposed_clients` in the Rust API) and have the agent \
         expose the session again",
        held.join(", ")
    )
}

/// Tell the editor on `stream` `why` it is turned away, and close the connection:
/// within [`EDITOR_REFUSAL_TIMEOUT`].
pub(super) async fn turn_away(stream: TcpStream, why: String) {
    let _ = tokio::time::timeout(EDITOR_REFUSAL_TIMEOUT, tell(stream, &why)).await;
}

async fn tell(stream: TcpStream, why: &str) {
    let _ = stream.set_nodelay(true);
    let (read, write) = stream.into_split();
    let mut sink = FramedWrite::new(write, DapCodec::new());
    let mut requests = FramedRead::new(read, EditorCodec::default());
    let mut seq = 0;
    let mut numbered = |mut message: Message| {
        seq += 1;
        match &mut message {
            Message::Request(m) => m.seq = seq,
            Message::Response(m) => m.seq = seq,
            Message::Event(m) => m.seq = seq,
        }
        message
    };
    // Said before anything is read: an editor that sends nothing still has it.
    for message in [
        Message::Event(notice(why)),
        Message::Event(Event::new("terminated", None)),
    ] {
        if sink.send(&numbered(message)).await.is_err() {
            return;
        }
    }
    // Its first request (`initialize`, which the editor awaits) is answered with the
    // same, as an error it shows its user.
    if let Some(Ok(Message::Request(first))) = requests.next().await {
        let answer = error(first.seq, &first.command, why.to_string());
        if sink.send(&numbered(answer)).await.is_err() {
            return;
        }
    }
    // Said all: hang up our side, and read what the editor still sends until it hangs
    // up too, so that its unread bytes do not reset the connection before it has read
    // ours.
    let _ = SinkExt::<&Message>::close(&mut sink).await;
    let mut rest = requests.into_inner();
    let mut drained = [0u8; 4096];
    while matches!(rest.read(&mut drained).await, Ok(n) if n > 0) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reason_names_the_cap_how_to_raise_it_and_who_holds_the_places() {
        let peer = |port| SocketAddr::from(([127, 0, 0, 1], port));
        let holders = [
            Holder {
                number: 3,
                peer: peer(40002),
            },
            Holder {
                number: 1,
                peer: peer(40001),
            },
        ];
        let why = why_full("s4", 2, &holders);
        assert!(why.contains("session s4 already has 2 editors"), "{why}");
        assert!(why.contains("MAX_EXPOSED_CLIENTS, 2"), "{why}");
        assert!(
            why.contains("editor 1 (from 127.0.0.1:40001), editor 3 (from 127.0.0.1:40002)"),
            "{why}"
        );
        assert!(why.contains("--max-exposed-clients N"), "{why}");
        let one = why_full("s1", 1, &holders[..1]);
        assert!(one.contains("has 1 editor connected"), "{one}");
    }
}
