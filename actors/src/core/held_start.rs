//! A launch's `configurationDone` held back until the program is seen held at its
//! start, for an adapter that loses a resume sent earlier
//! ([`crate::quirks::Quirks::resume_lost_before_start_hold`]: JdiDapServer).
//!
//! The JVM's debug agent takes JdiDapServer's connection first and suspends the VM
//! for its start event after; JdiDapServer resumes the VM at `configurationDone`
//! without waiting for that event, so a resume that comes in between is lost and the
//! program stays suspended with nothing to say so. Once `launch` has succeeded, the
//! core asks `threads`, then the first thread's `stackTrace` (one frame): JdiDapServer
//! answers a thread that is not suspended with no frames and a `message`, a suspended
//! one without. Until the answer says held, the core asks again every
//! [`crate::limits::HELD_CHECK_INTERVAL`], within the handshake's deadline (which names what it was
//! waiting for if it passes). A check the adapter refuses holds nothing back:
//! `configurationDone` goes.
//!
//! Part of the [`crate::core::phase::Phase::Starting`] phase (`starting.rs`).

use serde_json::json;

use crate::core::command::TimerId;
use crate::core::handshake::{Configuration, StartRequest, StartupStep};
use crate::core::pending::Pending;
use crate::core::session::SessionCore;
use crate::core::state::Operation;
use crate::error::SessionError;
use crate::wire::types::ThreadsResponseBody;
use crate::wire::{DapCommand, Response};

/// What of a `stackTrace` answer tells a suspended thread from a running one.
#[derive(serde::Deserialize)]
struct StackAnswer {
    /// JdiDapServer's word that the thread is not suspended.
    message: Option<String>,
}

impl SessionCore {
    /// The breakpoints are sent: `configurationDone` now, or (for a launch under an
    /// adapter that loses an early resume) once the program is held.
    pub(super) fn request_configuration_done(&mut self) {
        let waits = self.quirks().resume_lost_before_start_hold
            && self
                .phase
                .handshake()
                .is_some_and(|h| h.operation == Operation::Launch);
        if !waits {
            self.send_configuration_done();
            return;
        }
        let Some(handshake) = self.phase.handshake_mut() else {
            return;
        };
        handshake.configuration = Configuration::AwaitingHeld;
        if handshake.start == StartRequest::Succeeded {
            self.ask_whether_held();
        }
    }

    /// `launch` succeeded: the check starts if the configuration waits on it.
    pub(super) fn check_hold_after_start(&mut self) {
        let waits = self
            .phase
            .handshake()
            .is_some_and(|h| h.configuration == Configuration::AwaitingHeld);
        if waits {
            self.ask_whether_held();
        }
    }

    fn ask_whether_held(&mut self) {
        self.send(
            DapCommand::Threads,
            None,
            None,
            Pending::Startup(StartupStep::HeldThreads),
        );
    }

    /// The threads: the first one's stack says whether the program is held.
    pub(super) fn on_held_threads(&mut self, result: Result<Response, SessionError>) {
        let response = match result {
            Ok(response) => response,
            Err(err) => return self.hold_check_refused(&err),
        };
        let first = response
            .parse_body::<ThreadsResponseBody>()
            .ok()
            .and_then(|body| body.threads.first().map(|t| t.id));
        match first {
            Some(thread) => {
                self.send(
                    DapCommand::StackTrace,
                    Some(json!({ "threadId": thread, "startFrame": 0, "levels": 1 })),
                    None,
                    Pending::Startup(StartupStep::HeldStack),
                );
            }
            // No thread yet: the VM is still coming up.
            None => self.ask_again_later(),
        }
    }

    /// The first thread's stack: held, or to be asked again.
    pub(super) fn on_held_stack(&mut self, result: Result<Response, SessionError>) {
        let response = match result {
            Ok(response) => response,
            Err(err) => return self.hold_check_refused(&err),
        };
        let running = response
            .parse_body::<StackAnswer>()
            .ok()
            .is_some_and(|answer| answer.message.is_some());
        if running {
            self.ask_again_later();
        } else {
            self.send_configuration_done();
        }
    }

    fn hold_check_refused(&mut self, err: &SessionError) {
        tracing::warn!(%err, "checking that the program is held at its start failed; configuring anyway");
        self.send_configuration_done();
    }

    fn ask_again_later(&mut self) {
        let timer = self.timer(crate::limits::HELD_CHECK_INTERVAL);
        if let Some(handshake) = self.phase.handshake_mut() {
            handshake.held_retry = Some(timer);
        }
    }

    /// Whether timer `id` was the wait before the next check (and ask again if so).
    pub(super) fn held_retry_timer(&mut self, id: TimerId) -> bool {
        let Some(handshake) = self
            .phase
            .handshake_mut()
            .filter(|h| h.held_retry == Some(id))
        else {
            return false;
        };
        handshake.held_retry = None;
        self.ask_whether_held();
        true
    }
}
