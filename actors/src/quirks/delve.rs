//! Delve (`dlv dap`, Go).
//! - It sends no `exited` event: the program's exit status is only in its `console`
//!   line `Process 18664 has exited with status 5`, which it sends while it is being
//!   let go.
//! - dlv 1.20 lets its debuggee inherit its own stdout and stderr instead of sending
//!   the program's output as events: the transport forwards those pipes, in order with
//!   dlv's own events (`transport/output_order.rs`).
//! - It is started with `dap --client-addr` and dials a port of ours (see the built-in
//!   definition): listening itself, it checks who connects through `/proc/net/tcp`,
//!   a check that races and refuses its own client now and then on a loaded machine.
//! - dlv stops on an unrecovered panic by itself: no exception filter is set for it.
//! - It opens a core dump (a Go program's, dumped with `GOTRACEBACK=crash`) on a
//!   `launch` in `mode: core` with `coreFilePath`, and `stopOnEntry` (without it,
//!   it tries to run the dump and stops on that error); the stop names no signal.
//!   It answers `continue` and steps with success and stops again at once (`can not
//!   continue execution of core process`).
//! - Its dialect: a launch's `mode` is `debug` for Go source (a `.go` file or a package
//!   folder), which dlv builds, and `exec` for a binary. An attach's is `local` for a
//!   pid and `remote` for a port, where dlv is itself the debug server (`dlv exec
//!   --headless --accept-multiclient`) and is reached directly. Path mappings are its
//!   `substitutePath` (`from` the client's folder `to` the program's).

use std::path::Path;

use serde_json::{json, Map, Value};

use super::dialect::path_value;
use super::dialect::{AttachDraft, Dialect, LaunchDraft};
use super::{CoreDump, CoreRequest, Quirks};

pub(super) const QUIRKS: Quirks = Quirks {
    exit_status_in_console: Some(exit_status_in),
    debuggee_output_on_adapter_pipes: true,
    attach_port_speaks_dap: true,
    qualified_function_breakpoints: true,
    no_return_value_after_step_out: true,
    dialect: Dialect {
        launch,
        attach,
        ..Dialect::PLAIN
    },
    launch_timeout: crate::limits::DLV_LAUNCH_TIMEOUT,
    core_dump: Some(CoreDump {
        request: CoreRequest::Launch,
        arguments: core_arguments,
    }),
    ..Quirks::NONE
};

fn launch(draft: &mut LaunchDraft<'_>) {
    let program = &draft.program;
    let is_dir = program.is_dir();
    let from_source = is_dir
        || program
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("go"));
    // `dlv` builds from source in the working directory: it must sit in the module, or
    // the build fails with "go.mod file not found".
    if from_source && draft.cwd.is_none() {
        let folder = if is_dir {
            Some(program.as_path())
        } else {
            program.parent()
        };
        draft.cwd = folder.map(Path::to_path_buf);
    }
    draft.put("mode", json!(if from_source { "debug" } else { "exec" }));
    if from_source {
        // dlv's build output would otherwise land in the user's folder.
        draft.put("output", path_value(&build_output_path()));
    }
}

fn attach(draft: &mut AttachDraft<'_>) {
    match (draft.spec.port, draft.spec.pid) {
        (Some(_), _) => draft.put("mode", json!("remote")),
        (None, Some(pid)) => {
            draft.put("mode", json!("local"));
            draft.put("processId", json!(pid));
        }
        (None, None) => {}
    }
    let mappings = &draft.spec.path_mappings;
    if !mappings.is_empty() {
        // dlv's `from` is the client's path, `to` the debugged program's.
        let pairs: Vec<_> = mappings
            .iter()
            .map(|m| json!({"from": path_value(&m.local), "to": path_value(&m.remote)}))
            .collect();
        draft.put("substitutePath", json!(pairs));
    }
}

/// A core dump: a `launch` in `core` mode.
fn core_arguments(out: &mut Map<String, Value>, program: &Path, core: &Path) -> Result<(), String> {
    out.insert("mode".into(), json!("core"));
    out.insert("program".into(), path_value(program));
    out.insert("coreFilePath".into(), path_value(core));
    // Else dlv tries to run it on `configurationDone` and stops on that error.
    out.insert("stopOnEntry".into(), json!(true));
    Ok(())
}

/// A fresh path in the temp folder for a binary dlv builds from source.
fn build_output_path() -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("dapvisor-dlv-{}-{n}", std::process::id()))
}

/// The exit status in a console line such as `Process 18664 has exited with status 5`.
fn exit_status_in(text: &str) -> Option<i64> {
    const SAID: &str = "has exited with status ";
    let rest = &text[text.find(SAID)? + SAID.len()..];
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::exit_status_in;

    #[test]
    fn exit_status_is_read_from_dlv_console_output() {
        assert_eq!(
            exit_status_in("Process 18664 has exited with status 5\n"),
            Some(5)
        );
        assert_eq!(
            exit_status_in("Process 1 has exited with status -1"),
            Some(-1)
        );
        assert_eq!(exit_status_in("Detaching\n"), None);
    }
}
