//! [`Handshake`]: a launch or attach handshake under way, as data: who it is for, which
//! of its answers have come, its deadline. What moves it is `starting.rs`.
//!
//! The handshake's two halves are independent: the `launch`/`attach` answer and the
//! configuration (which waits for the `initialized` event) come in either order
//! (debugpy answers `launch` only after `configurationDone`; lldb-dap and dlv answer it
//! before `initialized`), so each has a little enum of its own.

use serde_json::{json, Map, Value};

use crate::core::command::{TimerId, Token};
use crate::core::state::Operation;
use crate::wire::types::SourceBreakpoint;

/// One request of the handshake.
#[derive(Debug)]
pub(crate) enum StartupStep {
    Initialize,
    Start,
    /// The file, and its breakpoints as sent, in order.
    ConfigSource(std::path::PathBuf, Vec<SourceBreakpoint>),
    /// The function breakpoints sent, by name, in order.
    ConfigFunctions(Vec<String>),
    ConfigExceptions,
    /// Whether the launched program is held at its start yet (`held_start.rs`): the
    /// threads, then the first one's stack.
    HeldThreads,
    HeldStack,
    ConfigurationDone,
}

/// Who a handshake is for, and so what its end says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Starter {
    /// An agent's launch or attach: answered with the session's snapshot.
    Agent(Token),
    /// An agent's restart by relaunch: answered with the stop epoch it asked at, what
    /// to wait from.
    Relaunch { token: Token, epoch: u64 },
    /// A restart after a crash, with its number in the series: no agent waits; its
    /// end is published (`AdapterRestarted`), and its failure is another crash.
    Restart { attempt: u32 },
}

impl Starter {
    /// The agent waiting for the handshake, if one does.
    pub(crate) fn token(self) -> Option<Token> {
        match self {
            Starter::Agent(token) | Starter::Relaunch { token, .. } => Some(token),
            Starter::Restart { .. } => None,
        }
    }
}

/// The `launch`/`attach` request of a handshake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StartRequest {
    /// Not sent yet: it follows the answer to `initialize`.
    Unsent,
    /// Sent; its answer is awaited.
    Sent,
    /// Answered with success (a refusal ends the handshake at once).
    Succeeded,
}

/// The configuration of a handshake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Configuration {
    /// Waiting for the adapter's `initialized` event.
    AwaitingInitialized,
    /// Breakpoints are sent; `configurationDone` waits until the launched program is
    /// seen held at its start (`held_start.rs`).
    AwaitingHeld,
    /// Breakpoints and `configurationDone` are sent; its answer is awaited.
    AwaitingDone,
    /// `configurationDone` was answered (or the adapter takes none).
    Done,
}

/// A handshake under way.
#[derive(Debug)]
pub(crate) struct Handshake {
    pub(crate) starter: Starter,
    pub(crate) operation: Operation,
    pub(crate) start: StartRequest,
    pub(crate) configuration: Configuration,
    /// The handshake's deadline: of the whole, and of each of its requests.
    pub(crate) deadline: std::time::Duration,
    /// Fires once the deadline has passed.
    pub(crate) timer: TimerId,
    /// The arguments of the program's own session, for a handshake on an adopted
    /// connection (see `bootstrap.rs`); the plan's otherwise.
    pub(crate) target: Option<Map<String, Value>>,
    /// The wait before asking again whether the program is held (`held_start.rs`).
    pub(crate) held_retry: Option<TimerId>,
}

impl Handshake {
    /// A handshake whose `initialize` is about to be sent.
    pub(crate) fn new(
        starter: Starter,
        operation: Operation,
        deadline: std::time::Duration,
        timer: TimerId,
    ) -> Self {
        Self {
            starter,
            operation,
            start: StartRequest::Unsent,
            configuration: Configuration::AwaitingInitialized,
            deadline,
            timer,
            target: None,
            held_retry: None,
        }
    }

    /// The adapter said `initialized`: breakpoint changes go to it at once.
    pub(crate) fn initialized(&self) -> bool {
        self.configuration != Configuration::AwaitingInitialized
    }

    /// `launch`/`attach` succeeded and the configuration is done.
    pub(crate) fn is_done(&self) -> bool {
        self.start == StartRequest::Succeeded && self.configuration == Configuration::Done
    }

    /// What the handshake still waits for, for a timeout message.
    pub(crate) fn waiting_for(&self) -> &'static str {
        match (self.start, self.configuration) {
            (StartRequest::Unsent, _) => "the answer to `initialize`",
            (_, Configuration::AwaitingInitialized) => "the `initialized` event",
            (StartRequest::Succeeded, Configuration::AwaitingHeld) => {
                "the program to be held at its start"
            }
            (_, Configuration::AwaitingDone) => "the answer to `configurationDone`",
            _ => "the answer to launch/attach",
        }
    }
}

/// The `initialize` arguments dapvisor sends: what this client supports.
pub(crate) fn initialize_arguments(adapter_id: &str) -> Value {
    json!({
        "clientID": "dapvisor",
        "clientName": "dapvisor",
        "adapterID": adapter_id,
        "locale": "en-US",
        "linesStartAt1": true,
        "columnsStartAt1": true,
        "pathFormat": "path",
        "supportsVariableType": true,
        "supportsVariablePaging": true,
        "supportsRunInTerminalRequest": true,
        "supportsMemoryReferences": true,
        "supportsProgressReporting": true,
        "supportsInvalidatedEvent": true,
        "supportsMemoryEvent": true,
        "supportsArgsCanBeInterpretedByShell": false,
        "supportsStartDebuggingRequest": true,
    })
}
