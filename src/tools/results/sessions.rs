//! The result of `debug.sessions`, the one home of its shape: serialized as the
//! structured content and described by the tool's output schema. A session's entry
//! is also what the `debugger://sessions` resources list.

use schemars::JsonSchema;
use serde::Serialize;

use crate::{Owner, SessionHandle, SessionSnapshot, SharedWith};

/// What `debug.sessions` answers.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct SessionsResult {
    /// Every session, as the caller sees it.
    pub sessions: Vec<SessionEntry>,
    /// The caller's client id, over HTTP (other clients share with it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<String>,
}

/// A session as `debug.sessions` lists it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct SessionEntry {
    /// Its id.
    pub session_id: String,
    /// The session that started it, for a child session.
    pub parent_id: Option<String>,
    /// Its state, such as `stopped`.
    pub state: String,
    /// Its adapter.
    pub adapter: Option<String>,
    /// What it debugs.
    pub program: Option<String>,
    /// `core` for a core dump (post-mortem: it cannot run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    /// The core dump it opened.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub core_file: Option<String>,
    /// The signal that ended the dumped process, where the adapter names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signal: Option<String>,
    /// The client it belongs to (`null`: anyone's).
    pub owner: Option<String>,
    /// The adapter's process id.
    pub adapter_pid: Option<u32>,
    /// How often its adapter was restarted.
    pub restarts: u32,
    /// Seconds since it was last used.
    pub idle_seconds: Option<u64>,
    /// The program's exit code, once it ended.
    pub exit_code: Option<i64>,
    /// Why it failed, if it did.
    pub failure: Option<String>,
    /// DAP requests sent to its adapters, counted exactly.
    pub requests_sent: u64,
    /// DAP events received from its adapters.
    pub events_received: u64,
    /// Bytes sent to its adapters.
    pub bytes_sent: u64,
    /// Bytes received from its adapters.
    pub bytes_received: u64,
    /// Who besides its owner may drive it, when it is shared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared_with: Option<SharedWithEntry>,
    /// Whether the caller may drive it (control it, evaluate in it, end it); only for
    /// a client's calls, not the host's own (which may drive every session).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub may_drive: Option<bool>,
}

/// Who a session is shared with: `"*"` (every client) or client ids.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum SharedWithEntry {
    /// Every client: `"*"`.
    Everyone(String),
    /// These clients.
    Clients(Vec<String>),
}

impl SharedWithEntry {
    /// How `shared` reads in a listing; `None` when the session is its owner's alone.
    pub fn of(shared: &SharedWith) -> Option<Self> {
        match shared {
            SharedWith::Nobody => None,
            SharedWith::Everyone => Some(Self::Everyone("*".into())),
            SharedWith::Clients(clients) => Some(Self::Clients(
                clients.iter().map(|c| c.as_str().to_string()).collect(),
            )),
        }
    }
}

impl SessionEntry {
    /// `session` (whose snapshot is `snapshot`) as the host sees it.
    pub fn of(session: &SessionHandle, snapshot: &SessionSnapshot) -> Self {
        let idle = snapshot.last_used.map(|used| {
            tokio::time::Instant::now()
                .into_std()
                .saturating_duration_since(used)
                .as_secs()
        });
        let traffic = session.traffic();
        let ownership = session.ownership();
        Self {
            session_id: session.id().to_string(),
            parent_id: snapshot.parent.map(|p| p.to_string()),
            state: snapshot.state.name().to_string(),
            adapter: snapshot.adapter.clone(),
            program: snapshot.program.clone(),
            kind: snapshot.core_file.as_ref().map(|_| "core"),
            core_file: snapshot.core_file.clone(),
            signal: snapshot.core_file.as_ref().and_then(|_| {
                super::core_stop::signal(snapshot.last_stop.as_ref(), snapshot.core_signal)
            }),
            owner: ownership.owner.as_ref().map(|o| o.as_str().to_string()),
            adapter_pid: session.adapter_pid(),
            restarts: snapshot.restarts,
            idle_seconds: idle,
            exit_code: snapshot.exit_code,
            failure: snapshot.failure.clone(),
            requests_sent: traffic.requests_sent,
            events_received: traffic.events_received,
            bytes_sent: traffic.bytes_sent,
            bytes_received: traffic.bytes_received,
            shared_with: SharedWithEntry::of(&ownership.shared_with),
            may_drive: None,
        }
    }

    /// The entry as `caller` sees it: whether it may drive the session. Nothing added
    /// for the host's own calls.
    pub fn for_caller(mut self, session: &SessionHandle, caller: Option<&Owner>) -> Self {
        if caller.is_some() {
            self.may_drive = Some(session.ownership().may_drive(caller));
        }
        self
    }
}
