//! Notifications to the client when a session stops, ends, restarts or fails: a
//! `notifications/resources/updated` for each subscribed resource it concerns (with
//! the event under `_meta["dapvisor/event"]`), and `notifications/resources/list_changed`
//! when a session appears or goes; and, first, the log message the event makes for the
//! client's user, if any (`logging.rs`).

use crate::signals::Signal;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use rmcp::model::{MetaObject, NotificationMetaObject, ResourceUpdatedNotificationParam};
use rmcp::{Peer, RoleServer};
use serde_json::json;

use crate::tools::Redaction;
use crate::{EventKind, Received, Runtime, SessionEvent, SessionState};

use super::logging::{self, LogLevel};
use super::resources::{session_uri, SESSIONS_URI};

/// The resource URIs the client subscribed to.
#[derive(Debug, Clone, Default)]
pub struct Subscriptions(Arc<Mutex<HashSet<String>>>);

impl Subscriptions {
    /// Subscribe to `uri`.
    pub fn add(&self, uri: String) {
        self.lock().insert(uri);
    }

    /// Unsubscribe from `uri`.
    pub fn remove(&self, uri: &str) {
        self.lock().remove(uri);
    }

    pub(crate) fn contains(&self, uri: &str) -> bool {
        self.lock().contains(uri)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        // A panic elsewhere cannot leave a set of strings half-changed.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What a connection's person's editors do (`editor_notify.rs`): the feed, and the
/// client it is for (`None`: the host's own).
pub(crate) struct EditorNotices {
    pub feed: tokio::sync::broadcast::Receiver<crate::expose::EditorActivity>,
    pub caller: Option<crate::Owner>,
}

/// Forward the runtime's events, and what editors with control do on the client's
/// exposed sessions, to the client until either side goes away.
pub(crate) async fn forward(
    runtime: Runtime,
    peer: Peer<RoleServer>,
    subscriptions: Subscriptions,
    log_level: LogLevel,
    redaction: Redaction,
    mut editors: EditorNotices,
) {
    use tokio::sync::broadcast::error::RecvError;
    let mut events = runtime.subscribe();
    let mut editors_open = true;
    loop {
        let received = tokio::select! {
            received = events.recv() => received,
            activity = editors.feed.recv(), if editors_open => {
                match activity {
                    Ok(activity) => {
                        let caller = editors.caller.as_ref();
                        if super::editor_notify::concerns(&runtime, caller, &activity)
                            && super::editor_notify::send(&peer, &log_level, &subscriptions, &activity)
                                .await
                                .is_err()
                        {
                            break; // the client is gone
                        }
                    }
                    Err(RecvError::Lagged(skipped)) => tracing::warn!(
                        skipped,
                        "editor notifications fell behind (EDITOR_ACTIVITY_BACKLOG); some were \
                         skipped"
                    ),
                    // The catalogue is gone: only the runtime's events are left.
                    Err(RecvError::Closed) => editors_open = false,
                }
                continue;
            }
        };
        let Some(received) = received else { break };
        let event = match received {
            Received::Event(event) => event,
            // Only output is ever dropped, and output is not notified.
            Received::Lagged { .. } => continue,
            Received::CutOff { waiting } => {
                // The client read too slowly for a flood of events: carry on from now.
                tracing::warn!(waiting, "notifications fell behind; some were skipped");
                events = runtime.subscribe();
                continue;
            }
        };
        let sent = match logging::send(&peer, &log_level, &event, &redaction).await {
            Ok(()) => send(&peer, &subscriptions, &event, &redaction).await,
            Err(gone) => Err(gone),
        };
        if sent.is_err() {
            break; // the client is gone
        }
    }
}

async fn send(
    peer: &Peer<RoleServer>,
    subscriptions: &Subscriptions,
    event: &SessionEvent,
    redaction: &Redaction,
) -> Result<(), rmcp::ServiceError> {
    let (notify, list_changed) = match &event.kind {
        EventKind::StateChanged { from, .. } => (false, *from == SessionState::NotStarted),
        EventKind::SessionClosed { .. } => (true, true),
        EventKind::Stopped(_)
        | EventKind::Exited { .. }
        | EventKind::Terminated { .. }
        | EventKind::AdapterCrashed { .. }
        | EventKind::AdapterRestarted { .. }
        | EventKind::SessionFailed { .. }
        | EventKind::SessionReaped { .. } => (true, false),
        _ => (false, false),
    };
    if notify {
        let mut meta = json!({
            "session_id": event.session_id.to_string(),
            "signal": event.kind.signal(),
            "payload": event.kind.payload(),
        });
        // A stop's exception text or a failure's reason can quote the program's data.
        redaction.json(&mut meta);
        for uri in [session_uri(event.session_id), SESSIONS_URI.to_string()] {
            if subscriptions.contains(&uri) {
                let mut param = ResourceUpdatedNotificationParam::new(uri);
                let mut object = serde_json::Map::new();
                object.insert("dapvisor/event".into(), meta.clone());
                param.meta = Some(NotificationMetaObject(MetaObject(object)));
                peer.notify_resource_updated(param).await?;
            }
        }
    }
    if list_changed {
        peer.notify_resource_list_changed().await?;
    }
    Ok(())
}
