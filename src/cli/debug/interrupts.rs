//! The stop signals (SIGINT, SIGTERM) a `dapvisor debug` run has received, counted.
//! The first asks the run to show where the program is and then end; any later one,
//! to end at once. They are watched from the start of the run, so that none is lost
//! between two waits.

use tokio::sync::watch;

use crate::cli::signals::{StopSignal, StopSignals};

/// The signals received so far; cheap to clone, each clone sees them all.
#[derive(Clone)]
pub(super) struct Interrupts {
    received: watch::Receiver<(u32, Option<StopSignal>)>,
}

impl Interrupts {
    /// Start counting. Where neither signal can be watched the count stays at 0 (the
    /// signals then end the process by their default action).
    pub(super) fn watch() -> Self {
        let (tx, received) = watch::channel((0, None));
        if let Some(mut signals) = StopSignals::watch() {
            tokio::spawn(async move {
                loop {
                    let signal = signals.next().await;
                    tx.send_modify(|(count, last)| {
                        *count += 1;
                        *last = Some(signal);
                    });
                }
            });
        }
        Self { received }
    }

    /// How many have come so far.
    pub(super) fn count(&self) -> u32 {
        self.received.borrow().0
    }

    /// The last signal, if any has come.
    pub(super) fn last(&self) -> Option<StopSignal> {
        self.received.borrow().1
    }

    /// Resolves with the signal once more than `seen` have come.
    pub(super) async fn beyond(&self, seen: u32) -> StopSignal {
        let mut received = self.received.clone();
        let signal = match received.wait_for(|(count, _)| *count > seen).await {
            Ok(state) => state.1.unwrap_or(StopSignal::Interrupt),
            // The watcher is gone: no signal will come.
            Err(_) => return std::future::pending().await,
        };
        signal
    }
}
