//! A copy of a session's cached state, answered without touching the adapter.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::core::breakpoints::BreakpointCache;
use crate::core::state::{Operation, SessionState};
use crate::wire::types::{Capabilities, Thread};

/// The session's cached state at one moment.
#[derive(Debug, Clone, Serialize)]
pub struct SessionSnapshot {
    /// The state.
    pub state: SessionState,
    /// What the state allows now.
    pub allowed: Vec<Operation>,
    /// The adapter's name, once started.
    pub adapter: Option<String>,
    /// Launch or attach, once started.
    pub operation: Option<Operation>,
    /// The adapter's family, once started: what its expressions and console can do
    /// (the permission gate classifies calls by it).
    pub adapter_flavor: Option<crate::registry::AdapterFlavor>,
    /// The process or debug server an attach reached (not started by dapvisor).
    pub attached_to: Option<crate::core::attach_target::AttachTarget>,
    /// The program, for display.
    pub program: Option<String>,
    /// The core dump the session opened (post-mortem), for display: such a session
    /// is stopped where the process died and cannot run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_file: Option<String>,
    /// The number of the signal that ended the dumped process, as its core file
    /// says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_signal: Option<i32>,
    /// Whether an adapter process is connected.
    pub adapter_live: bool,
    /// Whether the adapter answers `variables` with the `start` and `count` asked for
    /// (see [`crate::registry::AdapterDef::pages_variables`]).
    pub pages_variables: bool,
    /// The adapter's capabilities (from `initialize`, merged with `capabilities` events).
    pub capabilities: Capabilities,
    /// Every cached breakpoint, with the adapter's view of each.
    pub breakpoints: BreakpointCache,
    /// Threads known from `thread` events and `threads` answers.
    pub threads: Vec<Thread>,
    /// The last stop, if the debuggee has stopped since it started.
    pub last_stop: Option<StopInfo>,
    /// How many stops there have been (wait for stops after this).
    pub stop_epoch: u64,
    /// While stopped: the top frame of the stopped thread, once a read of its stack
    /// told it (the tools' default frame, without asking the adapter again).
    pub top_frame: Option<TopFrame>,
    /// The debuggee's exit code, once it exited.
    pub exit_code: Option<i64>,
    /// The output cursor after the last byte captured.
    pub output_end: u64,
    /// Whether older output has been trimmed.
    pub output_truncated: bool,
    /// DAP requests sent and not yet answered.
    pub pending_requests: usize,
    /// What passed between the session and its adapters (requests, events, bytes):
    /// counted by its transports, filled in by [`SessionHandle::snapshot`] (the core
    /// leaves it zero).
    ///
    /// [`SessionHandle::snapshot`]: crate::session::SessionHandle::snapshot
    #[serde(default)]
    pub traffic: TrafficCounts,
    /// The session that started this one with `startDebugging`, for a child.
    pub parent: Option<crate::core::session_id::SessionId>,
    /// How many times the adapter was restarted after a crash.
    pub restarts: u32,
    /// Why the session failed (state `failed`), or why the adapter last crashed.
    pub failure: Option<String>,
    /// When an agent last asked anything of the session, or last had an answer
    /// (reading a snapshot does not count). Filled in by
    /// [`SessionHandle::snapshot`](crate::SessionHandle::snapshot) from the session's
    /// shared record; in tokio's clock, so paused-time tests see it move.
    #[serde(skip)]
    pub last_used: Option<Instant>,
}

/// The top frame of a stopped thread, as a stack read of this stop answered it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopFrame {
    /// The thread.
    pub thread_id: i64,
    /// Its innermost frame's id.
    pub frame_id: i64,
}

/// The thread a request that names none is for: the one that last stopped, else the
/// first the adapter named (by id). The one statement of that rule, for the core and
/// for the session handle's snapshots alike.
pub(crate) fn default_thread(
    last_stop: Option<&StopInfo>,
    mut threads: impl Iterator<Item = i64>,
) -> Option<i64> {
    last_stop
        .and_then(|s| s.thread_id)
        .or_else(|| threads.next())
}

impl SessionSnapshot {
    /// The thread a request that names none is for: the one that last stopped, else
    /// the first the adapter named.
    pub fn default_thread(&self) -> Option<i64> {
        default_thread(self.last_stop.as_ref(), self.threads.iter().map(|t| t.id))
    }
}

/// What passed between a session and its adapters, counted at one moment by its
/// transports (the counters live there; this is their reading).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TrafficCounts {
    /// DAP requests sent to the adapter (the session's own and the agents').
    pub requests_sent: u64,
    /// DAP events received from the adapter.
    pub events_received: u64,
    /// Bytes written to the adapter.
    pub bytes_sent: u64,
    /// Bytes read from the adapter's DAP stream.
    pub bytes_received: u64,
}

/// Why and where the debuggee stopped.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StopInfo {
    /// The adapter's reason: `breakpoint`, `step`, `pause`, `exception`, `entry`, ...
    pub reason: String,
    /// The thread that stopped.
    pub thread_id: Option<i64>,
    /// Whether every thread stopped.
    pub all_threads_stopped: bool,
    /// Ids of the breakpoints that were hit.
    pub hit_breakpoint_ids: Vec<i64>,
    /// The adapter's description, where it gave one.
    pub description: Option<String>,
    /// Extra text (such as an exception message), where the adapter gave any.
    pub text: Option<String>,
    /// This stop's number: the session's stops are numbered from 1.
    pub epoch: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stop(thread_id: Option<i64>) -> StopInfo {
        StopInfo {
            reason: "breakpoint".into(),
            thread_id,
            all_threads_stopped: false,
            hit_breakpoint_ids: Vec::new(),
            description: None,
            text: None,
            epoch: 1,
        }
    }

    #[test]
    fn the_default_thread_is_the_last_stopped_else_the_first_named() {
        let threads = || [7, 3].into_iter();
        assert_eq!(default_thread(Some(&stop(Some(3))), threads()), Some(3));
        // A stop that names no thread (some adapters' pauses): the first named.
        assert_eq!(default_thread(Some(&stop(None)), threads()), Some(7));
        assert_eq!(default_thread(None, threads()), Some(7));
        assert_eq!(default_thread(None, std::iter::empty()), None);
    }
}
