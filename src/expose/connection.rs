//! One editor's connection: its requests read and answered through the pure
//! conversation (`conversation.rs`), the session's events sent as they happen. One
//! task, under its endpoint's: the session's answers are awaited as futures of that
//! task (at most [`MAX_EDITOR_REQUESTS_IN_FLIGHT`]; past it the editor's next request
//! waits unread), and every message to the editor goes through a queue of
//! [`EDITOR_BACKLOG`]: an editor that lets it fill is disconnected, and the log says
//! so, rather than let it grow.

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use futures::stream::FuturesUnordered;
use futures::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_util::codec::{FramedRead, FramedWrite};

use dapvisor_actors::wire::{CodecError, DapCodec, DapCommand, Message, Request, Response};
use dapvisor_actors::{Operation, Received, SessionState};

use super::access::IdeAccess;
use super::activity::{EditorActivity, EditorDid};
use super::conversation::{error, Ask, Conversation, Now, Step};
use super::events::{heard, notice, Heard};
use super::framing::EditorCodec;
use super::server::{Served, EDITOR_FLUSH_TIMEOUT};

/// The most messages waiting to be sent to one editor: 1,024. An editor that reads
/// so slowly that they pile up past it is disconnected (the session goes on).
pub const EDITOR_BACKLOG: usize = 1024;

/// The most of one editor's requests the session works on at once: 16.
pub const MAX_EDITOR_REQUESTS_IN_FLIGHT: usize = 16;

/// The largest message an editor may send: 1 MiB (an editor's requests are small).
pub const MAX_EDITOR_MESSAGE_BYTES: usize = 1 << 20;

/// How long an editor has from connecting to showing the token: 30 s. One that has
/// not by then is hung up on, so that idle connections cannot hold the endpoint's
/// places.
pub const EDITOR_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

/// One connected editor.
pub(super) struct Editor {
    /// Its number on this endpoint, from 1, which the agent is told with its moves.
    pub number: u32,
    pub served: Arc<Served>,
}

/// How a conversation ended.
enum Ending {
    /// Send what is queued, then hang up.
    Flush,
    /// Hang up now (the editor reads too slowly, or is gone).
    Cut,
}

/// Serve one editor until it hangs up, its endpoint closes or the session ends.
pub(super) async fn serve_editor(stream: TcpStream, editor: Editor) {
    let _ = stream.set_nodelay(true);
    let (read, write) = stream.into_split();
    let requests = FramedRead::new(read, EditorCodec::default());
    let (queue, queued) = mpsc::channel(EDITOR_BACKLOG);
    let writer = write_all(queued, FramedWrite::new(write, DapCodec::new()));
    tokio::pin!(writer);
    let ending = tokio::select! {
        ending = talk(requests, queue, &editor) => ending,
        () = &mut writer => return,
    };
    if let Ending::Flush = ending {
        let _ = tokio::time::timeout(EDITOR_FLUSH_TIMEOUT, writer).await;
    }
}

/// Send what is queued, numbering the messages from 1, until the queue closes or the
/// editor is gone.
async fn write_all(
    mut queued: mpsc::Receiver<Message>,
    mut sink: FramedWrite<tokio::net::tcp::OwnedWriteHalf, DapCodec>,
) {
    let mut seq = 0;
    while let Some(mut message) = queued.recv().await {
        seq += 1;
        match &mut message {
            Message::Request(m) => m.seq = seq,
            Message::Response(m) => m.seq = seq,
            Message::Event(m) => m.seq = seq,
        }
        if sink.send(&message).await.is_err() {
            return;
        }
    }
}

/// Queue `messages` for the editor; `false` when the queue is full (or gone): the
/// editor is then disconnected.
fn queue_all(queue: &mpsc::Sender<Message>, messages: Vec<Message>, editor: &Editor) -> bool {
    queue_for(
        queue,
        messages,
        editor.served.exposure.session.id(),
        editor.number,
    )
}

fn queue_for(
    queue: &mpsc::Sender<Message>,
    messages: Vec<Message>,
    session: dapvisor_actors::SessionId,
    editor: u32,
) -> bool {
    for message in messages {
        if queue.try_send(message).is_err() {
            tracing::warn!(
                session = %session,
                editor,
                "an editor was disconnected: {EDITOR_BACKLOG} messages to it were waiting \
                 unread (EDITOR_BACKLOG); the session goes on"
            );
            return false;
        }
    }
    true
}

async fn talk(
    mut requests: FramedRead<tokio::net::tcp::OwnedReadHalf, EditorCodec>,
    queue: mpsc::Sender<Message>,
    editor: &Editor,
) -> Ending {
    let served = &editor.served;
    let session = &served.exposure.session;
    let mut conversation = Conversation::new(
        served.token.clone(),
        served.exposure.control,
        served.owner_said(),
        session.id().to_string(),
    );
    let mut events = session.subscribe();
    let mut answers: FuturesUnordered<BoxFuture<'static, Message>> = FuturesUnordered::new();
    let mut last_thread = session
        .snapshot()
        .await
        .ok()
        .and_then(|s| s.default_thread());
    let handshake = tokio::time::sleep(EDITOR_HANDSHAKE_TIMEOUT);
    tokio::pin!(handshake);
    let mut seat = ControlSeat {
        editor,
        taken: false,
    };
    loop {
        let room = answers.len() < MAX_EDITOR_REQUESTS_IN_FLIGHT;
        tokio::select! {
            // Not biased: a program printing without pause must not starve the
            // editor's requests.
            event = events.recv() => {
                let heard = hear(event, &mut last_thread, conversation.admitted());
                if let Some(ending) = tell(heard, &queue, editor) {
                    return ending;
                }
            }
            () = served.cancelled() => {
                // What the session said before the endpoint closed comes first (the
                // program's exit, say).
                while let Ok(received) = events.try_recv() {
                    let heard = hear(Some(received), &mut last_thread, conversation.admitted());
                    if let Some(ending) = tell(heard, &queue, editor) {
                        return ending;
                    }
                }
                let why = format!("{}: this editor is disconnected", served.why_closed());
                return finish(&queue, goodbye(&why), editor);
            }
            Some(answer) = answers.next(), if !answers.is_empty() => {
                if !queue_all(&queue, vec![answer], editor) {
                    return Ending::Cut;
                }
            }
            () = &mut handshake, if !conversation.admitted() => {
                tracing::info!(session = %session.id(), "an editor did not show the token in time");
                let why = format!(
                    "this editor did not show the token within {} s of connecting \
                     (EDITOR_HANDSHAKE_TIMEOUT): send `initialize`, then `attach` with the \
                     token debug.expose gave for session {}",
                    EDITOR_HANDSHAKE_TIMEOUT.as_secs(),
                    session.id()
                );
                return finish(&queue, goodbye(&why), editor);
            }
            frame = requests.next(), if room => {
                let request = match frame {
                    Some(Ok(Message::Request(request))) => request,
                    // Responses and events from an editor mean nothing here.
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => {
                        tracing::info!(session = %session.id(), "an editor sent what is not DAP: {e}");
                        // A connection that never began as DAP (a web page posting to
                        // the port) is no editor to answer; a DAP client is told.
                        if !requests.decoder().spoke_dap() {
                            return Ending::Cut;
                        }
                        let why = match e {
                            CodecError::ContentTooLong { length, limit } => format!(
                                "this editor sent a message dapvisor cannot read: {length} \
                                 bytes, more than an editor may send (MAX_EDITOR_MESSAGE_BYTES, \
                                 {limit})"
                            ),
                            e => format!("this editor sent a message dapvisor cannot read: {e}"),
                        };
                        return finish(&queue, goodbye(&why), editor);
                    }
                    None => return Ending::Cut,
                };
                if conversation.admitted() && !served.same_owner() {
                    // Checked as the request comes: the owner may have handed the
                    // session over since the editor joined.
                    served.closer.close("the session was handed over to another client");
                    let why = served.why_closed();
                    let mut last = vec![error(request.seq, &request.command, why.clone())];
                    last.extend(goodbye(&format!("{why}: this editor is disconnected")));
                    return finish(&queue, last, editor);
                }
                let now = now_for(&request, served).await;
                match conversation.on_request(&request, &now) {
                    Step::Send(list) => {
                        seat.take_if_admitted(&conversation);
                        if !queue_all(&queue, list, editor) {
                            return Ending::Cut;
                        }
                    }
                    Step::Close(list) => return finish(&queue, list, editor),
                    Step::Ask(ask) => answers.push(Box::pin(answer(editor.number, served.clone(), ask))),
                }
            }
        }
    }
}

/// An editor with control's hold on the session's moves: taken as it shows the token
/// (the agent is told it took over), given back however its connection ends.
struct ControlSeat<'a> {
    editor: &'a Editor,
    taken: bool,
}

impl ControlSeat<'_> {
    fn say(&self, what: EditorDid) {
        let exposure = &self.editor.served.exposure;
        exposure.moves.feed().send(EditorActivity {
            session: exposure.session.id(),
            editor: self.editor.number,
            what,
        });
    }

    fn take_if_admitted(&mut self, conversation: &Conversation) {
        if !self.taken && conversation.admitted() && self.editor.served.exposure.control {
            self.taken = true;
            self.say(EditorDid::TookOver);
        }
    }
}

impl Drop for ControlSeat<'_> {
    fn drop(&mut self) {
        if self.taken {
            self.say(EditorDid::GaveBack);
        }
    }
}

/// What the editor hears of what its subscription gave (`None`: nothing, such as
/// any event before it showed the token); `last_thread` follows the stops.
fn hear(
    received: Option<Received<dapvisor_actors::SessionEvent>>,
    last_thread: &mut Option<i64>,
    admitted: bool,
) -> Option<Heard> {
    match received {
        Some(Received::Event(event)) => {
            if let dapvisor_actors::EventKind::Stopped(stop) = &event.kind {
                *last_thread = stop.thread_id.or(*last_thread);
            }
            admitted.then(|| heard(&event.kind, *last_thread))
        }
        Some(Received::Lagged { .. }) if !admitted => None,
        Some(Received::Lagged { missed }) => Some(Heard::Events(vec![notice(&format!(
            "{missed} output events were not shown here: they came faster than they could \
             be sent"
        ))])),
        Some(Received::CutOff { .. }) | None => Some(Heard::End(vec![notice(
            "the session's events stopped coming: this editor is disconnected",
        )])),
    }
}

/// Send the editor what it `heard`; `Some` when that ends the conversation (the
/// session ended, or the editor reads too slowly).
fn tell(heard: Option<Heard>, queue: &mpsc::Sender<Message>, editor: &Editor) -> Option<Ending> {
    let as_messages = |events: Vec<dapvisor_actors::wire::Event>| -> Vec<Message> {
        events.into_iter().map(Message::Event).collect()
    };
    match heard {
        None => None,
        Some(Heard::Events(list)) => {
            (!queue_all(queue, as_messages(list), editor)).then_some(Ending::Cut)
        }
        Some(Heard::End(list)) => Some(finish(queue, as_messages(list), editor)),
    }
}

/// The last words to an editor the endpoint hangs up on: `why` in its debug console,
/// and `terminated`, which ends its debug session.
fn goodbye(why: &str) -> Vec<Message> {
    vec![
        Message::Event(notice(why)),
        Message::Event(dapvisor_actors::wire::Event::new("terminated", None)),
    ]
}

/// Queue the last messages: the conversation ends, flushed unless the queue is full.
fn finish(queue: &mpsc::Sender<Message>, last: Vec<Message>, editor: &Editor) -> Ending {
    if queue_all(queue, last, editor) {
        Ending::Flush
    } else {
        Ending::Cut
    }
}

/// The session as it is, for a handshake request (nothing for the others).
async fn now_for(request: &Request, served: &Served) -> Now {
    if !matches!(request.command.as_str(), "initialize" | "attach") {
        return Now::default();
    }
    let Ok(snapshot) = served.exposure.session.snapshot().await else {
        return Now::default();
    };
    let capabilities = match serde_json::to_value(&snapshot.capabilities) {
        Ok(Value::Object(map)) => map,
        _ => Default::default(),
    };
    let stop = snapshot
        .last_stop
        .filter(|_| snapshot.state == SessionState::Stopped);
    Now { capabilities, stop }
}

/// The session's answer to an editor's request, once the gate passes it.
async fn answer(editor: u32, served: Arc<Served>, ask: Ask) -> Message {
    let name = ask.command.name();
    if let Err(why) = served.exposure.gate.check(&ask).await {
        return error(ask.request_seq, name, why);
    }
    let session = &served.exposure.session;
    // What does more than read acts for the owner: the session checks, as it takes
    // the request, that the owner may still drive it.
    let acting = match &served.exposure.owner {
        Some(owner) if ask.access != IdeAccess::Read => session.acting_as(owner.clone()),
        _ => session.clone(),
    };
    if ask.access == IdeAccess::Drive {
        // Kept before it is sent: the program may move as soon as it is.
        served.exposure.moves.record(session.id(), editor, name);
    }
    let result = match ask.command {
        DapCommand::Terminate => acting.terminate().await.map(|()| Value::Null),
        command => {
            acting
                .request(Operation::of(command), name, ask.arguments, None)
                .await
        }
    };
    match result {
        Ok(body) => {
            let body = (!body.is_null()).then_some(body);
            Message::Response(Response::new(ask.request_seq, name, Ok(body)))
        }
        Err(e) => error(ask.request_seq, name, e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use dapvisor_actors::wire::Event;

    use super::*;

    #[test]
    fn an_editor_whose_queue_is_full_is_let_go_rather_than_the_queue_grown() {
        let (queue, mut queued) = mpsc::channel(2);
        let event = || Message::Event(Event::new("output", None));
        let session = dapvisor_actors::SessionId(1);
        assert!(queue_for(&queue, vec![event(), event()], session, 1));
        assert!(!queue_for(&queue, vec![event()], session, 1));
        assert!(queued.try_recv().is_ok());
        assert!(queue_for(&queue, vec![event()], session, 1));
        drop(queued);
        assert!(!queue_for(&queue, vec![event()], session, 1));
    }
}
