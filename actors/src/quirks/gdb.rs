//! gdb's own DAP mode (`gdb -i dap`, gdb 14 or newer). Defined and unproven here: no
//! gdb this new is packaged for these machines, so nothing is known of it beyond DAP
//! and its documented dialect:
//! - a launch's stop on entry is `stopAtBeginningOfMainSubprogram`;
//! - an attach to a port is to a gdb-remote server, named as `target` (`host:port`);
//!   an attach by pid names `pid`.

use serde_json::json;

use super::dialect::{AttachDraft, Dialect, LaunchDraft};
use super::Quirks;

pub(super) const QUIRKS: Quirks = Quirks {
    dialect: Dialect {
        launch,
        attach,
        ..Dialect::PLAIN
    },
    launch_timeout: crate::limits::NATIVE_LAUNCH_TIMEOUT,
    ..Quirks::NONE
};

fn launch(draft: &mut LaunchDraft<'_>) {
    draft.stop_key = "stopAtBeginningOfMainSubprogram";
}

fn attach(draft: &mut AttachDraft<'_>) {
    if let Some(port) = draft.spec.port {
        let target = format!("{}:{port}", draft.host);
        draft.put("target", json!(target));
    } else if let Some(pid) = draft.spec.pid {
        draft.put("pid", json!(pid));
    }
}
