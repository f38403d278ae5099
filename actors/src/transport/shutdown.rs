//! How a transport ends: asked to (shutdown), or because the stream ended or the
//! process exited. It finishes once everything worth reporting is known (the end of
//! the stream, the exit status, the last of stderr) or a grace period is over, then
//! sweeps the process group, tells its owner, and stops.

use std::time::Duration;

use ractor::ActorRef;

use crate::error::AdapterExit;
use crate::transport::io::ExitInfo;
use crate::transport::messages::{TransportMsg, TransportOutput};
use crate::transport::process::ProcessGroup;
use crate::transport::state::TransportState;

impl TransportState {
    /// Asked to end: close the adapter's input (which asks it to exit) and give it the
    /// shutdown grace to do so.
    pub(super) fn on_shutdown(&mut self, myself: &ActorRef<TransportMsg>) {
        if self.shutdown_requested {
            return;
        }
        self.shutdown_requested = true;
        self.outgoing = None;
        if self.group.is_none() {
            self.finish(myself, "the connection was closed as asked".into());
        } else {
            self.start_grace(myself, self.config.shutdown_grace);
        }
    }

    pub(super) fn on_stream_ended(&mut self, myself: &ActorRef<TransportMsg>, reason: String) {
        if self.stream_end.is_none() {
            self.stream_end = Some(reason);
        }
        if !self.finish_if_all_known(myself) {
            // Give the process a moment to exit (and its stderr to drain) so that its
            // status and last words can be reported.
            self.start_grace(myself, Duration::from_millis(500));
        }
    }

    pub(super) fn on_process_exited(&mut self, myself: &ActorRef<TransportMsg>, info: ExitInfo) {
        self.exit = Some(info);
        if !self.finish_if_all_known(myself) {
            // Buffered output may still be on its way; the end of the stream normally
            // follows within milliseconds.
            self.start_grace(myself, Duration::from_secs(1));
        }
    }

    pub(super) fn on_stderr_closed(&mut self, myself: &ActorRef<TransportMsg>) {
        self.stderr_open = false;
        self.finish_if_all_known(myself);
    }

    pub(super) fn on_grace_over(&mut self, myself: &ActorRef<TransportMsg>) {
        let reason = self
            .stream_end
            .clone()
            .unwrap_or_else(|| "the adapter was ended".into());
        self.finish(myself, reason);
    }

    /// Finish once the stream has ended and, for a process, its exit status and its
    /// whole stderr are known. Returns whether it finished.
    fn finish_if_all_known(&mut self, myself: &ActorRef<TransportMsg>) -> bool {
        let Some(reason) = self.stream_end.clone() else {
            return false;
        };
        let process_done = self.group.is_none() || (self.exit.is_some() && !self.stderr_open);
        if process_done {
            self.finish(myself, reason);
        }
        process_done
    }

    fn start_grace(&mut self, myself: &ActorRef<TransportMsg>, after: Duration) {
        if self.grace_timer.is_none() {
            self.grace_timer = Some(
                myself
                    .send_after(after, || TransportMsg::GraceOver)
                    .abort_handle(),
            );
        }
    }

    pub(super) fn exit_report(&self, reason: String) -> AdapterExit {
        AdapterExit {
            code: self.exit.and_then(|e| e.code),
            signal: self.exit.and_then(|e| e.signal),
            reason,
            stderr_tail: self.tail.text(),
            requested: self.shutdown_requested,
        }
    }

    /// End for good: sweep the process group, fail every pending request, tell the
    /// owner, stop.
    pub(super) fn finish(&mut self, myself: &ActorRef<TransportMsg>, reason: String) {
        if self.closed {
            return;
        }
        self.closed = true;
        self.outgoing = None;
        self.kill_processes();
        if let Some(timer) = self.grace_timer.take() {
            timer.abort();
        }
        let exit = self.exit_report(reason);
        // The session fails what was pending in one go when it hears of the close: it
        // alone knows whether this is a crash that will be restarted.
        for request in self.requests.drain() {
            request.timer.abort();
        }
        (self.sink)(TransportOutput::Closed(exit));
        myself.stop(None);
    }

    /// Kill the adapter's group and every process started for it (each only once).
    pub(super) fn kill_processes(&self) {
        if let Some(group) = &self.group {
            group.kill();
        }
        self.own_groups.iter().for_each(ProcessGroup::kill);
    }
}
