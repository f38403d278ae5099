//! [`Run`]: what one adapter run has said, as one value. A start (the first, a
//! restart after a crash, an agent's relaunch) begins a new run, and with it a new
//! `Run`: nothing an earlier adapter said about its program outlives it by accident.

use std::collections::BTreeMap;

use crate::core::snapshot::StopInfo;
use crate::wire::types::{Capabilities, Thread};

/// What the current adapter has said about itself and its program.
#[derive(Debug, Default)]
pub(crate) struct Run {
    /// What the adapter advertised: `None` until its `initialize` answer came, and
    /// while nothing is known nothing is refused for want of a capability.
    pub(crate) capabilities: Option<Capabilities>,
    /// The program's threads, by id, as the adapter last named them.
    pub(crate) threads: BTreeMap<i64, Thread>,
    /// The program's last stop.
    pub(crate) last_stop: Option<StopInfo>,
    /// The program's exit code, once the adapter said it (`exited`, or its own words
    /// where it sends no `exited`).
    pub(crate) exit_code: Option<i64>,
    /// The adapter said `terminated`: the debug session of this run is over.
    pub(crate) terminated_seen: bool,
    /// It said so with no end asked for (no terminate, disconnect or restart under
    /// way): what came after may still say why (`target_gone.rs`).
    pub(crate) ended_on_its_own: bool,
    /// The top frame of the stopped thread, with the stop (its epoch) it belongs to:
    /// frame ids hold while the program stays stopped, so reads that leave it where
    /// it is (even an `evaluate`) keep it; the next stop, or an `invalidated` event,
    /// does not.
    pub(crate) top_frame: Option<(u64, crate::core::snapshot::TopFrame)>,
    /// js-debug's bootstrap connection, where the program of this run has a session of
    /// its own (`bootstrap.rs`).
    pub(crate) bootstrap: Option<crate::core::bootstrap::Bootstrap>,
}
