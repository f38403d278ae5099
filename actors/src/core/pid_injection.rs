//! debugpy attaches to a process by pid by injecting itself into it with gdb (its
//! `pydevd_attach_to_process`), and the injected code then connects back to the
//! adapter. When that fails (no such process, not a Python process, no gdb, ptrace
//! not permitted) the adapter just never sends `initialized`, which would read as a
//! bare start-up timeout. The core says what went wrong instead: at once when
//! debugpy reports the failed injection in its output, else when the start times out.

use crate::core::session::SessionCore;
use crate::core::state::Operation;

impl SessionCore {
    /// The pid the adapter is to inject itself into, while such an attach is starting,
    /// and what it prints when that failed.
    fn injecting_into(&self) -> Option<(u64, &'static str)> {
        self.phase.handshake()?;
        let plan = self.plan.as_ref()?;
        let failed = plan.adapter.flavor.quirks().injection_failed_marker?;
        if plan.operation != Operation::Attach {
            return None;
        }
        Some((plan.arguments.get("processId")?.as_u64()?, failed))
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
        if let Some((pid, failed)) = self.injecting_into() {
            if text.contains(failed) {
                self.fail_startup(Self::injection_advice(pid));
            }
        }
    }

    /// The start-up timed out: the reason, with advice for an attach by pid.
    pub(super) fn startup_timeout_reason(&self, plain: String) -> String {
        match self.injecting_into() {
            Some((pid, _)) => format!("{} ({plain})", Self::injection_advice(pid)),
            None => plain,
        }
    }
}
