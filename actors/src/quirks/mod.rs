//! What the runtime must know about each adapter family beyond DAP itself, in one
//! place: a file per family, each holding that family's row of [`Quirks`], the
//! readers of its own texts, and its [`Dialect`]: how it spells its `launch` and
//! `attach` arguments. The session core, the transport, the session handle and the
//! registry's argument writer consult a family's row through
//! [`AdapterFlavor::quirks`] and never name a family themselves, so adding an adapter
//! touches its file here (beside its definition in the registry, which says how to
//! find and start it, and the permission gate's row of what it evaluates).

mod codelldb;
pub(crate) mod core_dump;
mod debugpy;
mod debugpy_raised;
mod delve;
pub(crate) mod dialect;
mod flavor;
mod gdb;
mod java;
mod js_debug;
pub(crate) mod lldb_dap;
mod ruby;
mod rust_binary;
mod rust_formatters;
mod rust_formatters_fix;

pub(crate) use core_dump::{CoreDump, CoreRequest};
pub use dialect::Dialect;
pub use flavor::AdapterFlavor;

use std::time::Duration;

use serde_json::{json, Value};

use crate::wire::types::Capabilities;

/// Says how a program ended, given its exit code or the signal that killed it, in the
/// words of an adapter's launcher ([`Quirks::terminal_exit_line`]).
pub type ExitLine = fn(Option<i32>, Option<i32>) -> Option<String>;

/// How an adapter family departs from plain DAP, as far as dapvisor acts on it.
/// [`Quirks::NONE`] is plain DAP.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Quirks {
    /// Reads the program's exit status from one of the adapter's `console` lines, for
    /// an adapter that sends no `exited` event (dlv).
    pub exit_status_in_console: Option<fn(&str) -> Option<i64>>,
    /// The `evaluate` context that answers with the plain value, for an evaluation
    /// that names none (`repl` on most adapters).
    pub plain_evaluate_context: &'static str,
    /// Function breakpoints take the package-qualified name (`main.fact`, dlv): a call
    /// trace's `module.name` pattern is sent whole, not as its last part.
    pub qualified_function_breakpoints: bool,
    /// After a step out, the caller's locals do not show what the function returned
    /// (dlv 1.2x: a `~r0` there is the caller's own result): a call trace's return
    /// rows say so rather than read them.
    pub no_return_value_after_step_out: bool,
    /// A stop made by an exception filter comes as a `breakpoint` stop on a breakpoint
    /// of the adapter's own (CodeLLDB).
    pub exception_stops_look_like_breakpoints: bool,
    /// The launch's own connection only bootstraps: the program's session comes as a
    /// `startDebugging` that must be a new connection to the same server, which the
    /// session adopts (js-debug; see `core/bootstrap.rs`).
    pub program_has_a_session_of_its_own: bool,
    /// A child session that names no port is on the parent's own server (js-debug).
    pub children_on_the_same_server: bool,
    /// Reads the program's exit code from the launcher's line on a bootstrapping
    /// connection (js-debug's `Process exited with code 3`).
    pub launcher_exit_code: Option<fn(&str) -> Option<i64>>,
    /// What the adapter prints when attaching by pid, which injects it into the
    /// process, failed (debugpy, which injects with gdb); `None` where an attach by
    /// pid injects nothing.
    pub injection_failed_marker: Option<&'static str>,
    /// The debuggee writes to pipes it inherited from the adapter rather than through
    /// DAP, so the transport forwards them as `output` events (dlv).
    pub debuggee_output_on_adapter_pipes: bool,
    /// The exception filters that stop at an exception or panic nothing handles, set
    /// at a start that names none; empty where there is no such filter, or the adapter
    /// stops there by itself.
    pub uncaught_exception_filters: &'static [&'static str],
    /// An attach to a port is to a debug server that speaks DAP itself, so it is
    /// connected to directly and nothing is run here (debugpy, dlv); elsewhere the
    /// adapter is started and told the port.
    pub attach_port_speaks_dap: bool,
    /// A listening adapter names its port on stderr rather than stdout (rdbg).
    pub listen_banner_on_stderr: bool,
    /// What a listening adapter prints once it is ready for its client, where it
    /// accepts one earlier than that and fails it (rdbg): the address is connected to
    /// only once a line has held this too.
    pub listen_ready_line: Option<&'static str>,
    /// The adapter's process is the program itself (rdbg runs the program with a DAP
    /// server inside): its exit is the program's end and its exit status the
    /// program's, where it sends no `exited` or `terminated` of its own.
    pub adapter_process_is_the_program: bool,
    /// The adapter only adds source breakpoints: a `setBreakpoints` that drops or
    /// changes one leaves it in place (rdbg 1.4), so such a change is refused.
    pub breakpoints_are_only_added: bool,
    /// Capabilities the adapter claims but does not honour over DAP, taken out of its
    /// `initialize` answer so that what needs them is refused (rdbg answers
    /// `setFunctionBreakpoints` and sets none).
    pub unhonoured_capabilities: &'static [&'static str],
    /// Why the family cannot attach to a running process by pid, and what to do
    /// instead (rdbg only serves a program started under it); `None` where it can.
    pub no_pid_attach: Option<&'static str>,
    /// Whole lines the program's runtime prints on stderr about the debugger itself,
    /// left out of the output of a program run for the adapter (`runInTerminal`):
    /// node's `Debugger attached.` (js-debug).
    pub terminal_noise: &'static [&'static str],
    /// The adapter cannot tell how a program it had us run (`runInTerminal`) ended
    /// (js-debug): once it exits, the transport says it on that connection in this
    /// line, as the adapter's launcher would (read back by
    /// [`Self::launcher_exit_code`]). Given the exit code, or the signal.
    pub terminal_exit_line: Option<ExitLine>,
    /// The adapter shows every object as its class and id (`java.util.ArrayList@2176`,
    /// JdiDapServer): the session handle previews such values from their children
    /// (`session/object_previews.rs`).
    pub objects_show_as_ids: bool,
    /// An evaluation that runs code leaves the adapter's frames of the stop stale
    /// until it is asked the stack again (JdiDapServer): the session handle asks it
    /// before an `evaluate` or `variables` (`session/stale_frames.rs`).
    pub evaluation_stales_frames: bool,
    /// The adapter resumes a launched program at `configurationDone` whether or not
    /// the program is held at its start yet, and a resume that comes first is lost:
    /// the program never runs (JdiDapServer; the JVM's debug agent accepts the
    /// connection before it suspends the VM for its start event). `configurationDone`
    /// waits until a stack trace shows the program held (`core/held_start.rs`).
    pub resume_lost_before_start_hold: bool,
    /// The deadline of a launch or attach handshake where neither the start nor the
    /// runtime names one ([`crate::limits::DEFAULT_LAUNCH_TIMEOUT`] unless the family
    /// needs longer: a build, a large symbol load).
    pub launch_timeout: Duration,
    /// Functions a Rust program calls when it panics, broken on from the start where
    /// the adapter has no panic filter (lldb-dap: `rust_panic`), so that a panic stops
    /// where it happens instead of ending the run.
    pub rust_panic_functions: &'static [&'static str],
    /// How the family opens a core dump (`LaunchSpec::core`); `None` where it
    /// cannot.
    pub core_dump: Option<CoreDump>,
    /// The exit code the adapter gives the program when the debug server it attached
    /// to by port dropped the connection (lldb: -1, `exited with status = -1
    /// (0xffffffff) lost connection`, a status no POSIX process exits with): the
    /// session then ends as target_gone, not as a program that exited
    /// (`core/target_gone.rs`).
    pub target_lost_exit_code: Option<i64>,
    /// Why an attach to a debug server by port needs the program's binary here, for a
    /// family that cannot attach without one (CodeLLDB); `None` where it can.
    pub port_attach_needs_program: Option<&'static str>,
    /// How the family spells its `launch` and `attach` arguments.
    pub dialect: Dialect,
}

impl Quirks {
    /// Plain DAP: an adapter dapvisor knows nothing special of.
    pub const NONE: Quirks = Quirks {
        qualified_function_breakpoints: false,
        no_return_value_after_step_out: false,
        exit_status_in_console: None,
        plain_evaluate_context: "repl",
        exception_stops_look_like_breakpoints: false,
        program_has_a_session_of_its_own: false,
        children_on_the_same_server: false,
        launcher_exit_code: None,
        injection_failed_marker: None,
        debuggee_output_on_adapter_pipes: false,
        uncaught_exception_filters: &[],
        attach_port_speaks_dap: false,
        listen_banner_on_stderr: false,
        listen_ready_line: None,
        adapter_process_is_the_program: false,
        breakpoints_are_only_added: false,
        unhonoured_capabilities: &[],
        no_pid_attach: None,
        terminal_noise: &[],
        terminal_exit_line: None,
        objects_show_as_ids: false,
        evaluation_stales_frames: false,
        resume_lost_before_start_hold: false,
        launch_timeout: crate::limits::DEFAULT_LAUNCH_TIMEOUT,
        rust_panic_functions: &[],
        core_dump: None,
        target_lost_exit_code: None,
        port_attach_needs_program: None,
        dialect: Dialect::PLAIN,
    };
}

impl Quirks {
    /// The `context` an `evaluate` with `arguments` is sent in: the one they name,
    /// else (absent or `null`) [`plain_evaluate_context`](Self::plain_evaluate_context).
    /// The session core sends this, and the permission gate rates the request by it.
    pub fn evaluate_context(&self, arguments: Option<&Value>) -> Value {
        match arguments.and_then(|a| a.get("context")) {
            Some(named) if !named.is_null() => named.clone(),
            _ => json!(self.plain_evaluate_context),
        }
    }
}

impl Quirks {
    /// `capabilities` without the ones the adapter claims and does not honour.
    pub(crate) fn honoured(&self, capabilities: Capabilities) -> Capabilities {
        if self.unhonoured_capabilities.is_empty() {
            return capabilities;
        }
        let Ok(Value::Object(mut all)) = serde_json::to_value(&capabilities) else {
            return capabilities;
        };
        for name in self.unhonoured_capabilities {
            all.remove(*name);
        }
        serde_json::from_value(Value::Object(all)).unwrap_or(capabilities)
    }
}

impl AdapterFlavor {
    /// The `context` an `evaluate` with `arguments` is sent in to this family's
    /// adapter (its quirks' `evaluate_context`): an evaluation that names none gets
    /// `repl` on most adapters (a generic one too), `watch` on lldb-dap.
    pub fn evaluate_context(self, arguments: Option<&Value>) -> Value {
        self.quirks().evaluate_context(arguments)
    }

    /// The deadline of this family's launch or attach handshake where neither the
    /// start nor the runtime names one (see [`crate::limits::DEFAULT_LAUNCH_TIMEOUT`]).
    pub fn launch_timeout(self) -> Duration {
        self.quirks().launch_timeout
    }

    /// The exception filters that stop on uncaught exceptions in this family's
    /// adapter (empty where it has none).
    pub fn uncaught_exception_filters(self) -> &'static [&'static str] {
        self.quirks().uncaught_exception_filters
    }

    /// The function breakpoints that stop a launch of `spec` where it panics: for a
    /// Rust program on an adapter with no panic filter (lldb-dap's `rust_panic`);
    /// none otherwise.
    pub fn panic_function_breakpoints(self, spec: &crate::LaunchSpec) -> Vec<String> {
        let functions = self.quirks().rust_panic_functions;
        if functions.is_empty() || !dialect::is_rust_program(spec) {
            return Vec::new();
        }
        functions.iter().map(|f| f.to_string()).collect()
    }

    /// How this family opens a core dump; `None` where it cannot.
    pub(crate) fn core_dump(self) -> Option<CoreDump> {
        self.quirks().core_dump
    }

    /// Whether this family opens core dumps (`LaunchSpec::core`): lldb-dap, CodeLLDB
    /// and dlv.
    pub fn opens_core_dumps(self) -> bool {
        self.quirks().core_dump.is_some()
    }

    /// This family's row.
    pub(crate) fn quirks(self) -> &'static Quirks {
        match self {
            AdapterFlavor::Debugpy => &debugpy::QUIRKS,
            AdapterFlavor::LldbDap => &lldb_dap::QUIRKS,
            AdapterFlavor::Delve => &delve::QUIRKS,
            AdapterFlavor::Gdb => &gdb::QUIRKS,
            AdapterFlavor::CodeLldb => &codelldb::QUIRKS,
            AdapterFlavor::JsDebug => &js_debug::QUIRKS,
            AdapterFlavor::Rdbg => &ruby::QUIRKS,
            AdapterFlavor::Jdi => &java::QUIRKS,
            AdapterFlavor::Generic => &Quirks::NONE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_family_departs_from_plain_dap_only_where_its_row_says() {
        let quirks = |f: AdapterFlavor| f.quirks();
        // Debug forms compare every field (a function by its address).
        let plain = format!("{:?}", Quirks::NONE);
        assert_eq!(format!("{:?}", quirks(AdapterFlavor::Generic)), plain);
        let gdb = Quirks {
            dialect: Dialect::PLAIN,
            launch_timeout: Quirks::NONE.launch_timeout,
            ..*quirks(AdapterFlavor::Gdb)
        };
        assert_eq!(
            format!("{gdb:?}"),
            plain,
            "gdb departs only in its dialect and its deadline"
        );
        assert_eq!(
            quirks(AdapterFlavor::LldbDap).plain_evaluate_context,
            "watch"
        );
        let named = json!({ "expression": "x", "context": "hover" });
        let unnamed = json!({ "expression": "x", "context": null });
        assert_eq!(
            AdapterFlavor::LldbDap.evaluate_context(Some(&named)),
            "hover"
        );
        assert_eq!(
            AdapterFlavor::LldbDap.evaluate_context(Some(&unnamed)),
            "watch"
        );
        assert_eq!(AdapterFlavor::Generic.evaluate_context(None), "repl");
        assert!(quirks(AdapterFlavor::Delve)
            .exit_status_in_console
            .is_some());
        assert!(quirks(AdapterFlavor::Delve).debuggee_output_on_adapter_pipes);
        assert!(quirks(AdapterFlavor::CodeLldb).exception_stops_look_like_breakpoints);
        let js = quirks(AdapterFlavor::JsDebug);
        assert!(js.program_has_a_session_of_its_own && js.children_on_the_same_server);
        assert!(js.launcher_exit_code.is_some());
        assert!(quirks(AdapterFlavor::Debugpy)
            .injection_failed_marker
            .is_some());
        let filters = |f: AdapterFlavor| quirks(f).uncaught_exception_filters;
        assert_eq!(filters(AdapterFlavor::Debugpy), ["uncaught"]);
        assert_eq!(filters(AdapterFlavor::JsDebug), ["uncaught"]);
        assert_eq!(filters(AdapterFlavor::Jdi), ["uncaught"]);
        assert!(quirks(AdapterFlavor::Jdi).listen_banner_on_stderr);
        let objects_as_ids: Vec<_> = AdapterFlavor::ALL
            .into_iter()
            .filter(|f| quirks(*f).objects_show_as_ids)
            .collect();
        assert_eq!(objects_as_ids, [AdapterFlavor::Jdi]);
        assert!(quirks(AdapterFlavor::Jdi).evaluation_stales_frames);
        assert_eq!(filters(AdapterFlavor::CodeLldb), ["rust_panic"]);
        assert!(filters(AdapterFlavor::LldbDap).is_empty());
        assert!(filters(AdapterFlavor::Delve).is_empty());
        let direct: Vec<_> = AdapterFlavor::ALL
            .into_iter()
            .filter(|f| quirks(*f).attach_port_speaks_dap)
            .collect();
        assert_eq!(
            direct,
            [
                AdapterFlavor::Debugpy,
                AdapterFlavor::Delve,
                AdapterFlavor::Rdbg
            ]
        );
        let rdbg = quirks(AdapterFlavor::Rdbg);
        assert!(rdbg.listen_banner_on_stderr && rdbg.adapter_process_is_the_program);
        assert!(rdbg.breakpoints_are_only_added && rdbg.listen_ready_line.is_some());
        assert!(rdbg.debuggee_output_on_adapter_pipes);
        assert!(filters(AdapterFlavor::Rdbg).is_empty());
        let claimed: Capabilities = serde_json::from_value(json!({
            "supportsFunctionBreakpoints": true,
            "supportsStepBack": true,
            "supportsConditionalBreakpoints": true,
        }))
        .unwrap();
        let kept = rdbg.honoured(claimed.clone());
        assert_eq!(kept.supports_function_breakpoints, None);
        assert_eq!(kept.supports_conditional_breakpoints, Some(true));
        let plain = quirks(AdapterFlavor::Delve).honoured(claimed);
        assert_eq!(plain.supports_function_breakpoints, Some(true));
    }

    /// The parts of `flavor`'s dialect that are its own rather than plain DAP's (what
    /// each part writes is pinned in `registry/tests_arguments.rs`).
    fn own_dialect(flavor: AdapterFlavor) -> Vec<&'static str> {
        use std::ptr::fn_addr_eq;
        let (own, plain) = (flavor.quirks().dialect, Dialect::PLAIN);
        macro_rules! own {
            ($($part:ident),*) => { [$((stringify!($part), !fn_addr_eq(own.$part, plain.$part))),*] };
        }
        let parts = own!(
            launch,
            after_extra,
            attach,
            launch_with_adapter,
            attach_with_adapter,
            launch_notes,
            adapter_args
        );
        parts
            .into_iter()
            .filter_map(|(name, own)| own.then_some(name))
            .collect()
    }

    #[test]
    fn each_family_spells_its_arguments_its_own_way_only_where_its_row_says() {
        use AdapterFlavor::*;
        let expected: [(AdapterFlavor, &[&str]); 9] = [
            (
                Debugpy,
                &["launch", "after_extra", "attach", "launch_with_adapter"],
            ),
            (
                LldbDap,
                &[
                    "launch",
                    "attach",
                    "launch_with_adapter",
                    "attach_with_adapter",
                    "launch_notes",
                ],
            ),
            (Delve, &["launch", "attach"]),
            (Gdb, &["launch", "attach"]),
            (CodeLldb, &["launch", "attach"]),
            (JsDebug, &["launch", "attach", "launch_with_adapter"]),
            (Rdbg, &["launch", "adapter_args"]),
            (Jdi, &["launch", "after_extra"]),
            (Generic, &[]),
        ];
        assert_eq!(expected.map(|(f, _)| f), AdapterFlavor::ALL);
        for (flavor, parts) in expected {
            assert_eq!(own_dialect(flavor), parts, "{flavor:?}");
        }
    }
}
