//! The signals that ask a running `dapvisor` to stop: SIGINT (Ctrl-C) and SIGTERM (a
//! service manager, `kill`). They are taken even where the process started with
//! SIGINT ignored (a background job of a non-interactive shell), so that a signal
//! sent on purpose ends the sessions in order rather than not at all.

use tokio::signal::unix::{signal, Signal, SignalKind};

/// A signal that asked dapvisor to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopSignal {
    /// SIGINT.
    Interrupt,
    /// SIGTERM.
    Terminate,
}

impl StopSignal {
    /// Its name, `SIGINT` or `SIGTERM`.
    pub fn name(self) -> &'static str {
        match self {
            StopSignal::Interrupt => "SIGINT",
            StopSignal::Terminate => "SIGTERM",
        }
    }

    /// The exit status a shell gives a command it ended: 128 + the signal's number
    /// (SIGINT is 2, SIGTERM 15).
    pub fn exit_status(self) -> u8 {
        match self {
            StopSignal::Interrupt => 128 + 2,
            StopSignal::Terminate => 128 + 15,
        }
    }
}

/// Wait for SIGINT or SIGTERM. Never answers if neither can be watched (the process
/// then ends as it would have without this: by the signal).
pub async fn stop_requested() -> StopSignal {
    match StopSignals::watch() {
        Some(mut signals) => signals.next().await,
        None => std::future::pending().await,
    }
}

/// SIGINT and SIGTERM, watched from now on: each one sent is received once.
pub struct StopSignals {
    interrupt: Signal,
    terminate: Signal,
}

impl StopSignals {
    /// Watch both; `None` (said in the log) if they cannot be watched, and then they
    /// end dapvisor at once.
    pub fn watch() -> Option<Self> {
        let watched = (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        );
        let (Ok(interrupt), Ok(terminate)) = watched else {
            tracing::warn!("SIGINT and SIGTERM cannot be watched: they end dapvisor at once");
            return None;
        };
        Some(Self {
            interrupt,
            terminate,
        })
    }

    /// The next signal.
    pub async fn next(&mut self) -> StopSignal {
        tokio::select! {
            _ = self.interrupt.recv() => StopSignal::Interrupt,
            _ = self.terminate.recv() => StopSignal::Terminate,
        }
    }
}
