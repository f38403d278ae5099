//! What an editor with control does that the agent should hear of as it happens, not
//! only at its next look: it joins (it may move the program from now on), it sends a
//! move, it leaves (it gives the moves back). Sent on a broadcast channel that each MCP
//! connection's notification forwarder reads (`mcp/editor_notify.rs`); a forwarder
//! that falls more than [`EDITOR_ACTIVITY_BACKLOG`] behind skips the oldest, and the
//! agent still reads every move at its next look (`moves.rs`).

use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::broadcast;

use dapvisor_actors::SessionId;

/// The most editor notifications waiting for one slow MCP connection: 256. Past it
/// the oldest are skipped (and the server's log says how many).
pub const EDITOR_ACTIVITY_BACKLOG: usize = 256;

/// One thing an editor with control did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EditorActivity {
    /// The exposed session.
    #[serde(serialize_with = "as_string")]
    pub session: SessionId,
    /// Which editor (`editor 1`, in the order they connected to the endpoint).
    pub editor: u32,
    /// What it did.
    pub what: EditorDid,
}

/// What an editor with control did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EditorDid {
    /// It showed the token: it may move the program from now on.
    TookOver,
    /// It sent a request that moves or changes the program (`next`, `setVariable`).
    Moved {
        /// The DAP request.
        command: String,
    },
    /// It disconnected: it moves the program no more.
    GaveBack,
}

fn as_string<S: serde::Serializer>(id: &SessionId, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&id.to_string())
}

impl EditorActivity {
    /// The signal a notification names it by: `editor_took_over`, `editor_moved`,
    /// `editor_gave_back`.
    pub fn signal(&self) -> &'static str {
        match self.what {
            EditorDid::TookOver => "editor_took_over",
            EditorDid::Moved { .. } => "editor_moved",
            EditorDid::GaveBack => "editor_gave_back",
        }
    }

    /// What a notification carries besides the signal.
    pub fn payload(&self) -> Value {
        match &self.what {
            EditorDid::Moved { command } => json!({"editor": self.editor, "command": command}),
            _ => json!({"editor": self.editor}),
        }
    }

    /// It said for the agent.
    pub fn sentence(&self) -> String {
        let (session, editor) = (self.session, self.editor);
        match &self.what {
            EditorDid::TookOver => format!(
                "session {session}: a person's editor (editor {editor}) joined with control: \
                 it may move the program from now on; each move it makes is notified and \
                 said again at your next look at the session"
            ),
            EditorDid::Moved { command } => format!(
                "session {session}: a person's editor (editor {editor}) sent `{command}`: the \
                 program may have moved or changed under you"
            ),
            EditorDid::GaveBack => format!(
                "session {session}: editor {editor}, which could move the program, \
                 disconnected: it moves it no more"
            ),
        }
    }
}

/// The channel editor activity goes out on.
#[derive(Debug, Clone)]
pub struct EditorActivityFeed(broadcast::Sender<EditorActivity>);

impl Default for EditorActivityFeed {
    fn default() -> Self {
        Self(broadcast::channel(EDITOR_ACTIVITY_BACKLOG).0)
    }
}

impl EditorActivityFeed {
    /// Say `activity` to every subscriber (none: nobody hears it).
    pub fn send(&self, activity: EditorActivity) {
        let _ = self.0.send(activity);
    }

    /// What editors do from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<EditorActivity> {
        self.0.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_activity_has_its_signal_payload_and_sentence() {
        let moved = EditorActivity {
            session: SessionId(3),
            editor: 2,
            what: EditorDid::Moved {
                command: "next".into(),
            },
        };
        assert_eq!(moved.signal(), "editor_moved");
        assert_eq!(moved.payload(), json!({"editor": 2, "command": "next"}));
        assert!(moved.sentence().contains("editor 2) sent `next`"));
        let took = EditorActivity {
            what: EditorDid::TookOver,
            ..moved.clone()
        };
        assert_eq!(took.signal(), "editor_took_over");
        assert_eq!(took.payload(), json!({"editor": 2}));
        let feed = EditorActivityFeed::default();
        let mut heard = feed.subscribe();
        feed.send(moved.clone());
        assert_eq!(heard.try_recv().unwrap(), moved);
        assert_eq!(
            serde_json::to_value(&took).unwrap(),
            json!({"session": "s3", "editor": 2, "what": {"kind": "took_over"}})
        );
    }
}
