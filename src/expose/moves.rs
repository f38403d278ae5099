//! The moves editors made on exposed sessions with `control: true`, kept until the
//! agent's next look at the session (`debug.wait`, a move of its own), which says
//! them: the agent learns the program moved under it, and who moved it.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::Serialize;

use dapvisor_actors::SessionId;

use super::activity::{EditorActivity, EditorActivityFeed, EditorDid};

/// The most moves kept per session until the agent looks: 32. Past it the oldest go,
/// and the agent is told how many.
pub const MAX_KEPT_EDITOR_MOVES: usize = 32;

/// One move an editor made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EditorMove {
    /// Which editor of the exposure (`editor 1`, in the order they connected).
    pub editor: u32,
    /// The DAP request it sent (`next`, `continue`, `setVariable`, ...).
    pub command: String,
}

/// What the agent is told at its next look.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MovesSeen {
    /// The moves, oldest first.
    pub moves: Vec<EditorMove>,
    /// How many older ones were not kept.
    #[serde(skip_serializing_if = "is_zero")]
    pub not_kept: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl MovesSeen {
    /// The moves said in a sentence for the agent: "a person's editor ... sent requests
    /// that move or change the program since you last looked: next (editor 1), ...".
    /// Each is kept as it is sent (the program may move at once), whatever the adapter
    /// answers.
    pub fn sentence(&self) -> String {
        let commands: Vec<String> = self
            .moves
            .iter()
            .map(|m| format!("{} (editor {})", m.command, m.editor))
            .collect();
        let older = if self.not_kept > 0 {
            format!(" and {} older ones", self.not_kept)
        } else {
            String::new()
        };
        format!(
            "a person's editor on the exposed session sent requests that move or change the \
             program since you last looked: {}{older}",
            commands.join(", ")
        )
    }
}

/// The moves not yet seen, per session; and the feed that says each one (and each
/// editor with control joining and leaving) as it happens.
#[derive(Debug, Default)]
pub struct EditorMoves {
    unseen: Mutex<HashMap<SessionId, MovesSeen>>,
    feed: EditorActivityFeed,
}

impl EditorMoves {
    /// What editors with control do, as they do it.
    pub fn feed(&self) -> &EditorActivityFeed {
        &self.feed
    }

    /// Keep a move `editor` made on `session`, and say it.
    pub fn record(&self, session: SessionId, editor: u32, command: &str) {
        self.feed.send(EditorActivity {
            session,
            editor,
            what: EditorDid::Moved {
                command: command.to_string(),
            },
        });
        let mut unseen = self.unseen.lock().unwrap_or_else(|p| p.into_inner());
        let seen = unseen.entry(session).or_default();
        if seen.moves.len() == MAX_KEPT_EDITOR_MOVES {
            seen.moves.remove(0);
            seen.not_kept += 1;
        }
        seen.moves.push(EditorMove {
            editor,
            command: command.to_string(),
        });
    }

    /// The moves made on `session` since the last take, if any; they are then seen.
    pub fn take(&self, session: SessionId) -> Option<MovesSeen> {
        let mut unseen = self.unseen.lock().unwrap_or_else(|p| p.into_inner());
        unseen.remove(&session)
    }

    /// Forget the moves of sessions for which `live` says no (ended and gone).
    pub fn forget_except(&self, live: impl Fn(SessionId) -> bool) {
        let mut unseen = self.unseen.lock().unwrap_or_else(|p| p.into_inner());
        unseen.retain(|id, _| live(*id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_kept_until_taken_and_bounded() {
        let moves = EditorMoves::default();
        let s1 = SessionId(1);
        assert_eq!(moves.take(s1), None);
        moves.record(s1, 1, "next");
        moves.record(s1, 2, "continue");
        let seen = moves.take(s1).unwrap();
        assert_eq!(seen.moves.len(), 2);
        assert!(seen
            .sentence()
            .contains("next (editor 1), continue (editor 2)"));
        assert_eq!(moves.take(s1), None);
        for _ in 0..MAX_KEPT_EDITOR_MOVES + 3 {
            moves.record(s1, 1, "next");
        }
        let seen = moves.take(s1).unwrap();
        assert_eq!(
            (seen.moves.len(), seen.not_kept),
            (MAX_KEPT_EDITOR_MOVES, 3)
        );
        assert!(seen.sentence().ends_with("and 3 older ones"));
        moves.record(SessionId(2), 1, "pause");
        moves.forget_except(|_| false);
        assert_eq!(moves.take(SessionId(2)), None);
    }
}
