//! How a transport ends: asked to (its owner stops the adapter), or because the stream ended or the
//! process exited. It finishes once everything worth reporting is known (the end of
//! the stream, the exit status, the last of stderr) or a grace period is over, then
//! sweeps the process group, tells its owner, and stops.
//!
//! [`Ending`] decides (pure); the `TransportState` methods below carry it out.

use std::sync::Arc;
use std::time::Duration;

use ractor::ActorRef;

use crate::error::AdapterExit;
use crate::transport::io::ExitInfo;
use crate::transport::messages::{TransportConfig, TransportMsg, TransportOutput};
use crate::transport::process::{self, ProcessGroup};
use crate::transport::state::TransportState;

/// What is known so far of how the connection ends.
#[derive(Debug, Default)]
pub struct Ending {
    /// The adapter is a process of ours (with an exit status and stderr to wait for).
    pub is_process: bool,
    /// Why the stream ended, once it has.
    pub stream_end: Option<String>,
    /// How the process exited, once it has.
    pub exit: Option<ExitInfo>,
    /// The process's stderr may still hold words for the report.
    pub stderr_open: bool,
    /// The owner asked for the end.
    pub stop_requested: bool,
    /// A grace period is running (only one runs; the first one set wins).
    pub waiting: bool,
    /// The end has been carried out.
    pub finished: bool,
}

/// What the transport does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// Finish now, with this reason.
    Finish(String),
    /// Start a grace period of this length; finish when it is over.
    Wait(Duration),
    /// Nothing yet.
    Nothing,
}

impl Ending {
    /// The owner asked for the end: a process gets the shutdown grace to exit (its
    /// input is closed, which asks it to); a socket is closed at once.
    pub fn stop_asked(&mut self, config: &TransportConfig) -> Next {
        if self.stop_requested {
            return Next::Nothing;
        }
        self.stop_requested = true;
        if self.is_process {
            self.wait(config.shutdown_grace)
        } else {
            self.finish("the connection was closed as asked".into())
        }
    }

    /// The stream ended: finish if the process's end is known too, else give the
    /// process [`TransportConfig::exit_wait`] to exit and its stderr to drain.
    pub fn stream_ended(&mut self, reason: String, config: &TransportConfig) -> Next {
        self.stream_end.get_or_insert(reason);
        self.finish_if_all_known()
            .unwrap_or_else(|| self.wait(config.exit_wait))
    }

    /// The process exited: finish if the stream ended too, else give buffered output
    /// [`TransportConfig::output_drain_wait`] to arrive.
    pub fn process_exited(&mut self, info: ExitInfo, config: &TransportConfig) -> Next {
        self.exit = Some(info);
        self.finish_if_all_known()
            .unwrap_or_else(|| self.wait(config.output_drain_wait))
    }

    /// The process's stderr reached its end.
    pub fn stderr_closed(&mut self) -> Next {
        self.stderr_open = false;
        self.finish_if_all_known().unwrap_or(Next::Nothing)
    }

    /// The grace period is over: finish with what is known.
    pub fn grace_over(&mut self) -> Next {
        let reason = self
            .stream_end
            .clone()
            .unwrap_or_else(|| "the adapter was ended".into());
        self.finish(reason)
    }

    fn finish_if_all_known(&mut self) -> Option<Next> {
        let reason = self.stream_end.clone()?;
        let process_done = !self.is_process || (self.exit.is_some() && !self.stderr_open);
        process_done.then(|| self.finish(reason))
    }

    fn wait(&mut self, after: Duration) -> Next {
        if self.waiting || self.finished {
            return Next::Nothing;
        }
        self.waiting = true;
        Next::Wait(after)
    }

    fn finish(&mut self, reason: String) -> Next {
        if self.finished {
            return Next::Nothing;
        }
        self.finished = true;
        Next::Finish(reason)
    }
}

impl TransportState {
    /// Carry out what [`Ending`] decided.
    pub(super) fn carry_out(&mut self, myself: &ActorRef<TransportMsg>, next: Next) {
        match next {
            Next::Finish(reason) => self.finish(myself, reason),
            Next::Wait(after) => {
                self.grace_timer = Some(
                    myself
                        .send_after(after, || TransportMsg::GraceOver)
                        .abort_handle(),
                );
            }
            Next::Nothing => {}
        }
    }

    pub(super) fn exit_report(&self, reason: String) -> AdapterExit {
        AdapterExit {
            code: self.ending.exit.and_then(|e| e.code),
            signal: self.ending.exit.and_then(|e| e.signal),
            reason,
            stderr_tail: self.stderr_tail.text(),
            stdout_tail: self.stdout_tail.text(),
            requested: self.ending.stop_requested,
        }
    }

    /// End for good: fail every pending request, sweep the process groups (on the
    /// blocking pool: it reads `/proc`), and once they are swept
    /// ([`TransportMsg::Swept`]) tell the owner and stop.
    fn finish(&mut self, myself: &ActorRef<TransportMsg>, reason: String) {
        self.outgoing = None;
        if let Some(timer) = self.grace_timer.take() {
            timer.abort();
        }
        let exit = self.exit_report(reason);
        // The session fails what was pending in one go when it hears of the close: it
        // alone knows whether this is a crash that will be restarted.
        self.requests.drain().for_each(drop);
        if let Some((_, timer)) = self.deadline_timer.take() {
            timer.abort();
        }
        let me = myself.clone();
        process::kill_all(self.take_processes(), move || {
            let _ = me.cast(TransportMsg::Swept(exit));
        });
    }

    /// Every process of the connection is ended: tell the owner, and stop.
    pub(super) fn swept(&mut self, myself: &ActorRef<TransportMsg>, exit: AdapterExit) {
        for output in self.output_order.release() {
            (self.sink)(output);
        }
        (self.sink)(TransportOutput::Closed(exit));
        myself.stop(None);
    }

    /// The adapter's group and every process started for it, to be ended (each only
    /// once): the transport lets go of them.
    pub(super) fn take_processes(&mut self) -> Vec<Arc<ProcessGroup>> {
        let mut groups = std::mem::take(&mut self.terminal_processes);
        groups.extend(self.group.take());
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> TransportConfig {
        TransportConfig {
            shutdown_grace: Duration::from_secs(2),
            exit_wait: Duration::from_millis(300),
            output_drain_wait: Duration::from_millis(700),
            ..TransportConfig::default()
        }
    }

    fn process() -> Ending {
        Ending {
            is_process: true,
            stderr_open: true,
            ..Ending::default()
        }
    }

    const EXIT: ExitInfo = ExitInfo {
        code: Some(3),
        signal: None,
    };

    #[test]
    fn a_process_whose_output_ended_gets_the_exit_wait() {
        let mut end = process();
        let next = end.stream_ended("closed".into(), &config());
        assert_eq!(next, Next::Wait(Duration::from_millis(300)));
        assert_eq!(end.process_exited(EXIT, &config()), Next::Nothing);
        assert_eq!(end.stderr_closed(), Next::Finish("closed".into()));
        assert_eq!(end.grace_over(), Next::Nothing, "finished once");
    }

    #[test]
    fn an_exited_process_gets_the_output_drain_wait() {
        let mut end = process();
        let next = end.process_exited(EXIT, &config());
        assert_eq!(next, Next::Wait(Duration::from_millis(700)));
        end.stderr_closed();
        assert_eq!(
            end.stream_ended("eof".into(), &config()),
            Next::Finish("eof".into())
        );
    }

    #[test]
    fn the_grace_ends_it_with_what_is_known() {
        let mut end = process();
        end.process_exited(EXIT, &config());
        assert_eq!(
            end.grace_over(),
            Next::Finish("the adapter was ended".into())
        );
    }

    #[test]
    fn stopping_the_adapter_gives_a_process_the_grace_and_closes_a_socket_at_once() {
        let mut end = process();
        assert_eq!(
            end.stop_asked(&config()),
            Next::Wait(Duration::from_secs(2))
        );
        assert_eq!(end.stop_asked(&config()), Next::Nothing, "asked once");
        assert_eq!(
            end.stream_ended("eof".into(), &config()),
            Next::Nothing,
            "the shutdown grace is already running"
        );
        let mut socket = Ending::default();
        assert!(matches!(socket.stop_asked(&config()), Next::Finish(_)));
    }

    #[test]
    fn a_socket_finishes_when_its_stream_ends() {
        let mut end = Ending::default();
        assert_eq!(
            end.stream_ended("eof".into(), &config()),
            Next::Finish("eof".into())
        );
    }

    #[test]
    fn the_first_reason_the_stream_ended_is_kept() {
        let mut end = process();
        end.stream_ended("write failed".into(), &config());
        end.stream_ended("eof".into(), &config());
        end.process_exited(EXIT, &config());
        assert_eq!(end.stderr_closed(), Next::Finish("write failed".into()));
    }
}
