//! Child sessions: an adapter's `startDebugging` request (debugpy asks for one per
//! subprocess, js-debug for every worker and subprocess) becomes the plan of a new
//! session. The child reaches the same adapter where the configuration says how to
//! connect (debugpy's `connect`), the same server for js-debug, else a new instance
//! of it; it starts with its parent's breakpoints. (js-debug's first request, for the
//! program itself, is adopted by the session instead: `bootstrap.rs`.)

use crate::core::trace;
use serde_json::{Map, Value};

use crate::core::command::{Effect, StartPlan};
use crate::core::session::SessionCore;
use crate::core::state::Operation;
use crate::launch::InitialBreakpoint;
use crate::registry::ResolvedAdapter;
use crate::wire::DapCommand;

impl SessionCore {
    pub(super) fn on_start_debugging(
        &mut self,
        request: &str,
        configuration: Map<String, Value>,
        server: Option<(String, u16)>,
    ) {
        if self.awaiting_target() {
            // The first is the program's own session, which this session adopts.
            return self.adopt_target(request, configuration, server);
        }
        let Some(parent) = self.plan.as_ref() else {
            return;
        };
        let operation = match DapCommand::from_name(request) {
            Some(DapCommand::Attach) => Operation::Attach,
            Some(DapCommand::Launch) => Operation::Launch,
            _ => {
                let other = request;
                tracing::warn!(request = other, "startDebugging with an unknown request");
                return;
            }
        };
        let connect = configuration.get("connect");
        let host = connect
            .and_then(|c| c.get("host"))
            .and_then(Value::as_str)
            .unwrap_or("127.0.0.1");
        let port = connect
            .and_then(|c| c.get("port"))
            .and_then(Value::as_u64)
            .and_then(|p| u16::try_from(p).ok());
        let same_server = parent.adapter.flavor.quirks().children_on_the_same_server;
        let adapter = match (port, server) {
            (Some(port), _) => {
                ResolvedAdapter::connecting(&parent.adapter.def, host.to_string(), port)
            }
            // js-debug's children (workers, subprocesses) are on the same server.
            (None, Some((host, port))) if same_server => {
                ResolvedAdapter::connecting(&parent.adapter.def, host, port)
            }
            (None, None) if same_server => {
                tracing::warn!("startDebugging from js-debug, whose address is not known");
                return;
            }
            _ => parent.adapter.clone(),
        };
        let program = ["name", "program"]
            .iter()
            .find_map(|key| configuration.get(*key).and_then(Value::as_str))
            .map(str::to_string);
        let child = StartPlan {
            operation,
            adapter,
            arguments: configuration,
            breakpoints: self.initial_breakpoints(),
            // Whole, conditions and hit conditions with them.
            function_breakpoints: self
                .breakpoints
                .functions()
                .iter()
                .map(|f| f.requested.clone())
                .collect(),
            exception_filters: self.breakpoints.exception_filters().to_vec(),
            calls: self.calls.patterns.iter().map(|p| p.text.clone()).collect(),
            program,
            // The shell, which knows this session's id, sets it.
            parent: None,
            launch_timeout: parent.launch_timeout,
            // Not restarted after a crash: nothing to check.
            attach_target: None,
            notes: Vec::new(),
            replay_check: None,
            core_file: None,
            core_signal: None,
            // The child debugs the same target: its paths map as the parent's.
            path_map: parent.path_map.clone(),
        };
        self.effects.push(Effect::SpawnChild(Box::new(child)));
    }

    /// Every cached source breakpoint, as a plan carries them.
    fn initial_breakpoints(&self) -> Vec<InitialBreakpoint> {
        self.breakpoints
            .files()
            .flat_map(|file| {
                self.breakpoints.file(file).iter().map(move |r| {
                    // A tracepoint's template holds this session's nonce: the
                    // child makes its own from what it collects.
                    let log_message = r.requested.log_message.clone();
                    let collect = log_message.as_deref().and_then(trace::collected);
                    InitialBreakpoint {
                        file: file.to_path_buf(),
                        line: r.requested.line,
                        condition: r.requested.condition.clone(),
                        hit_condition: r.requested.hit_condition.clone(),
                        log_message: log_message.filter(|_| collect.is_none()),
                        collect: collect.unwrap_or_default(),
                    }
                })
            })
            .collect()
    }
}
