//! The endpoint of one exposed session: a listener on 127.0.0.1 (a port the kernel
//! picks) and one task that accepts editors, at most [`MAX_EXPOSED_CLIENTS`] at once,
//! each served by `connection.rs` under it. The task ends, and its editors with it,
//! when the exposure is closed (`debug.unexpose`, the session handed over, exposed
//! again), when the session ends, or when its runtime goes: no task outlives the
//! session.

use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use tokio::net::TcpListener;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use dapvisor_actors::{Owner, Received, SessionHandle};

use super::connection::{serve_editor, Editor};
use super::conversation::Ask;
use super::events::{heard, Heard};
use super::moves::EditorMoves;
use super::token::ExposeToken;
use super::turn_away::{turn_away, why_full, Holder, MAX_EDITORS_BEING_TURNED_AWAY};

/// The most editors connected to one exposed session at once: 4. One more is
/// turned away as it connects: it is told why in DAP terms (`turn_away.rs`), and the
/// server's log says so.
pub const MAX_EXPOSED_CLIENTS: usize = 4;

/// How long the endpoint gives its editors to read their last messages when it
/// closes: 5 s. An editor that has not read them by then is cut off.
pub const EDITOR_FLUSH_TIMEOUT: Duration = Duration::from_secs(5);

/// Rates an editor's request as the session's own tool call doing the same would be
/// rated by the permission gate: `Err` says why it may not run.
pub trait EditorGate: Send + Sync {
    /// Whether `ask` may go to the session now.
    fn check<'a>(&'a self, ask: &'a Ask) -> BoxFuture<'a, Result<(), String>>;
}

/// What an exposure is set up with.
pub struct Exposure {
    /// The session shown.
    pub session: SessionHandle,
    /// Its owner when exposed: the editors act for it, and the endpoint closes when
    /// the session belongs to someone else.
    pub owner: Option<Owner>,
    /// Whether editors may drive it.
    pub control: bool,
    /// The gate each editor's request passes.
    pub gate: Arc<dyn EditorGate>,
    /// Where the editors' moves are kept for the agent.
    pub moves: Arc<EditorMoves>,
    /// The most editors at once (see `check_max_clients`).
    pub max_clients: usize,
}

/// An open endpoint.
#[derive(Debug)]
pub struct Opened {
    /// Where editors connect.
    pub address: SocketAddr,
    /// The token they show.
    pub token: ExposeToken,
    /// Closes it (and says why to its editors).
    pub closer: Closer,
}

/// Closes one endpoint, saying why to its editors; dropping it does not.
#[derive(Debug, Clone)]
pub struct Closer {
    cancel: CancellationToken,
    why: Arc<std::sync::Mutex<String>>,
}

impl Closer {
    /// Close the endpoint: its editors are told `why` and hung up on.
    pub fn close(&self, why: &str) {
        *self.why.lock().unwrap_or_else(|p| p.into_inner()) = why.to_string();
        self.cancel.cancel();
    }

    /// Whether it has been closed (or its task has ended).
    pub fn is_closed(&self) -> bool {
        self.cancel.is_cancelled()
    }
}

/// Open an endpoint for `exposure`: listen on 127.0.0.1, and serve editors from a
/// task of the current tokio runtime until closed. `on_end` runs once as the task
/// ends, whatever ended it.
pub async fn open(
    exposure: Exposure,
    on_end: impl FnOnce() + Send + 'static,
) -> Result<Opened, String> {
    let token = ExposeToken::fresh()?;
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .map_err(|e| format!("cannot listen on 127.0.0.1 for the editor: {e}"))?;
    let address = listener
        .local_addr()
        .map_err(|e| format!("cannot read the endpoint's address: {e}"))?;
    let closer = Closer {
        cancel: CancellationToken::new(),
        why: Arc::new(std::sync::Mutex::new(String::new())),
    };
    let served = Arc::new(Served {
        exposure,
        token: token.clone(),
        closer: closer.clone(),
    });
    tokio::spawn(async move {
        accept(listener, served.clone()).await;
        // Whatever ended the task, the endpoint is closed now.
        served.closer.cancel.cancel();
        on_end();
    });
    Ok(Opened {
        address,
        token,
        closer,
    })
}

/// What every editor of one endpoint shares.
pub(super) struct Served {
    pub exposure: Exposure,
    pub token: ExposeToken,
    pub closer: Closer,
}

impl Served {
    /// Why the endpoint was closed, as its closer said.
    pub fn why_closed(&self) -> String {
        let why = self.closer.why.lock().unwrap_or_else(|p| p.into_inner());
        if why.is_empty() {
            "the exposure was closed".to_string()
        } else {
            why.clone()
        }
    }

    /// Whose the session is, said for a person.
    pub fn owner_said(&self) -> String {
        match &self.exposure.owner {
            Some(owner) => format!("client {owner}"),
            None => "the host".to_string(),
        }
    }

    /// Whether the session still belongs to the owner it was exposed for.
    pub fn same_owner(&self) -> bool {
        self.exposure.session.owner() == self.exposure.owner
    }

    pub fn cancelled(&self) -> tokio_util::sync::WaitForCancellationFuture<'_> {
        self.closer.cancel.cancelled()
    }
}

/// Accept editors until the endpoint is closed or the session ends; then let the
/// editors say goodbye, for at most [`EDITOR_FLUSH_TIMEOUT`].
async fn accept(listener: TcpListener, served: Arc<Served>) {
    let session = served.exposure.session.clone();
    let mut events = session.subscribe();
    let mut editors = JoinSet::new();
    // Who holds each place, by the task serving it.
    let mut holders: HashMap<tokio::task::Id, Holder> = HashMap::new();
    let mut turning_away = JoinSet::new();
    let mut numbered: u32 = 0;
    loop {
        tokio::select! {
            () = served.cancelled() => break,
            event = events.recv() => match event {
                Some(Received::Event(event)) => {
                    if matches!(heard(&event.kind, None), Heard::End(_)) {
                        served.closer.close("the session ended");
                        break;
                    }
                }
                Some(Received::Lagged { .. }) => {}
                // Cut off or closed: the session is gone or this task fell behind;
                // either way it no longer knows when the session ends.
                Some(Received::CutOff { .. }) | None => break,
            },
            accepted = listener.accept() => {
                let Ok((stream, peer)) = accepted else { continue };
                if editors.len() >= served.exposure.max_clients {
                    let max = served.exposure.max_clients;
                    tracing::warn!(
                        session = %session.id(), %peer,
                        "an editor was turned away: {max} are connected already, the most one \
                         exposed session takes (MAX_EXPOSED_CLIENTS)"
                    );
                    if turning_away.len() < MAX_EDITORS_BEING_TURNED_AWAY {
                        let held: Vec<Holder> = holders.values().copied().collect();
                        let why = why_full(&session.id().to_string(), max, &held);
                        turning_away.spawn(turn_away(stream, why));
                    } else {
                        tracing::warn!(
                            session = %session.id(), %peer,
                            "{MAX_EDITORS_BEING_TURNED_AWAY} turned-away editors are being told \
                             why already: this one is closed without a word"
                        );
                    }
                    continue;
                }
                numbered += 1;
                let editor = Editor { number: numbered, served: served.clone() };
                let task = editors.spawn(serve_editor(stream, editor));
                holders.insert(task.id(), Holder { number: numbered, peer });
            }
            Some(ended) = editors.join_next_with_id(), if !editors.is_empty() => {
                let id = match ended {
                    Ok((id, ())) => id,
                    Err(e) => e.id(),
                };
                holders.remove(&id);
            }
            Some(_) = turning_away.join_next(), if !turning_away.is_empty() => {}
        }
    }
    served.closer.cancel.cancel();
    drop(listener);
    let goodbyes = async { while editors.join_next().await.is_some() {} };
    if tokio::time::timeout(EDITOR_FLUSH_TIMEOUT, goodbyes)
        .await
        .is_err()
    {
        tracing::warn!(session = %session.id(), "an editor did not read its last messages in time");
    }
    // Dropping the set ends any editor still there.
}
