//! debugpy attaches to a process by pid by injecting itself into it with gdb (its
//! `pydevd_attach_to_process`), and the injected code then connects back to the
//! adapter. When that fails (no such process, not a Python process, no gdb, ptrace
//! not permitted) the adapter just never sends `initialized`, which would read as a
//! bare start-up timeout. The core says what went wrong instead: at once when
//! debugpy reports the failed injection in its output, else when the start times out.

use crate::core::session::SessionCore;
use crate::core::state::Operation;
use crate::registry::AdapterFlavor;

/// What debugpy prints when gdb could not inject it (`Code injection into PID=...
/// failed`).
const INJECTION_FAILED: &str = "Code injection into PID=";

impl SessionCore {
    /// The pid debugpy is to inject itself into, while such an attach is starting.
    fn injecting_into(&self) -> Option<u64> {
        self.startup.as_ref()?;
        let plan = self.plan.as_ref()?;
        if plan.operation != Operation::Attach || plan.adapter.flavor != AdapterFlavor::Debugpy {
            return None;
        }
        plan.arguments.get("processId")?.as_u64()
    }

    /// Why an attach to `pid` may have failed, and what to check.
    fn injection_advice(pid: u64) -> String {
        format!(
            "debugpy could not attach to process {pid}: it injects itself into the process \
             with gdb, and the injected code never connected back. Check that process {pid} \
             exists and runs Python, that gdb is installed, and that this user may ptrace it \
             (as root, or with /proc/sys/kernel/yama/ptrace_scope at 0); debugpy's own words \
             are in the output"
        )
    }

    /// Adapter output during start-up: fail an attach at once when debugpy says the
    /// injection failed.
    pub(super) fn watch_injection(&mut self, text: &str) {
        if let Some(pid) = self.injecting_into() {
            if text.contains(INJECTION_FAILED) {
                self.fail_startup(Self::injection_advice(pid));
            }
        }
    }

    /// The start-up timed out: the reason, with advice for an attach by pid.
    pub(super) fn startup_timeout_reason(&self, plain: String) -> String {
        match self.injecting_into() {
            Some(pid) => format!("{} ({plain})", Self::injection_advice(pid)),
            None => plain,
        }
    }
}
