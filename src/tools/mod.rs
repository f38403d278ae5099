//! The tool catalogue: one tool per debugger action, for agents.
//!
//! A [`ToolCatalogue`] over a [`Runtime`] lists its tools ([`ToolSpec`]: name,
//! description, JSON Schema of the arguments, annotations) and calls them by name with
//! JSON arguments, answering a [`ToolResult`] (structured JSON and the same as text).
//! Every call passes the [`PermissionGate`] first, with the effects
//! [`classify`](crate::permission::classify) finds in it on the adapter it reaches
//! (`access/reach.rs`). The MCP server serves this same catalogue; an agent framework can
//! register it directly.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use dapvisor::tools::ToolCatalogue;
//! use dapvisor::{Runtime, RuntimeConfig};
//! let catalogue = ToolCatalogue::new(Runtime::start(RuntimeConfig::default()).await?);
//! let launched = catalogue
//!     .call("debug.launch", serde_json::json!({
//!         "program": "discount.py",
//!         "breakpoints": [{"file": "discount.py", "line": 45}],
//!     }))
//!     .await;
//! println!("{}", launched.text);
//! # Ok(()) }
//! ```

/// What a tool that moves the program says of its wait, in its description (`short`:
/// for every tool but debug.continue, pointing at its).
macro_rules! waits {
    () => {
        " Waits for a stop or the end (`timeout`, default {wait} s): `state` is `stopped` \
         (`stop`), `terminated` (`exit_code`) or `running` (`timed_out`)."
    };
    (short) => {
        " Waits as debug.continue does."
    };
}

mod access;
mod breakpoints;
mod catalogue;
mod control;
mod diff;
mod inspect;
mod output;
mod protocol;
mod results;
pub(crate) mod start;

use std::panic::AssertUnwindSafe;
use std::sync::{Arc, LazyLock};

use futures::FutureExt;
use serde_json::Value;

pub use access::acting::UNKNOWN_SESSION;
pub use access::owners::{check as check_owner, MAX_OWNER_GRACE, NOT_OWNER, OWNER_GRACE};
pub use access::paths::PathPolicy;
pub use catalogue::error_code::ErrorCode;
pub use catalogue::profile::ToolProfile;
pub use catalogue::spec::{
    mcp_name, ToolAnnotations, ToolError, ToolNames, ToolResult, ToolSpec, CODE_ARGUMENTS,
};
pub use diff::{
    DEFAULT_DIFF_WAIT, MAX_DIFFERENCES_A_PAGE, MAX_DIFF_RESULT_BYTES, MAX_DIFF_WAIT, MAX_KEPT_DIFFS,
};
pub use results::bounds::*;
pub use start::stdin::MAX_STDIN_TEXT_BYTES;

pub(crate) use breakpoints::bound_lines::moved as moved_breakpoints;
pub(crate) use breakpoints::report::{
    in_words as breakpoint_reason_in_words, never_set_in_words as breakpoint_never_set_in_words,
    unverified as unverified_breakpoints,
};
pub(crate) use catalogue::operations::allowed_tools;
pub(crate) use results::sessions::SessionEntry;

use crate::permission::{
    depends_on_target, Adapters, Approver, Call, CallTarget, Effects, PermissionGate,
};
use crate::Runtime;
use catalogue::context::Context;
use catalogue::def::ToolDef;
pub(crate) use results::redaction::Redaction;

/// Every tool, in a stable order: each one's description, from which the catalogue,
/// the permission table, the profiles and what each state allows are all read.
fn describe_tools() -> Vec<ToolDef> {
    [
        start::session::tools(),
        access::share::tools(),
        access::expose::tools(),
        breakpoints::set::tools(),
        control::tools(),
        inspect::stack::tools(),
        inspect::evaluate::tools(),
        output::read::tools(),
        inspect::watches::tools(),
        output::trace::tools(),
        output::calls::tools(),
        diff::tools(),
        protocol::breakpoints::tools(),
        protocol::execution::tools(),
        protocol::restarts::tools(),
        protocol::modify::tools(),
        protocol::inspect::tools(),
        protocol::memory::tools(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Every tool, described once per process (their schemas take some work to make).
pub(crate) fn catalogue_tools() -> &'static [ToolDef] {
    static TOOLS: LazyLock<Vec<ToolDef>> = LazyLock::new(describe_tools);
    &TOOLS
}

/// Every tool, in a stable order.
pub(crate) fn all_tools() -> Vec<ToolDef> {
    catalogue_tools().to_vec()
}

/// The permission table: the effect each tool always has, whatever its arguments.
pub(crate) fn tool_effects() -> &'static [(&'static str, crate::permission::Effect)] {
    static EFFECTS: LazyLock<Vec<(&'static str, crate::permission::Effect)>> =
        LazyLock::new(|| {
            catalogue_tools()
                .iter()
                .map(|t| (t.spec.name, t.spec.effect))
                .collect()
        });
    &EFFECTS
}

/// The tools `profile` serves under `bounds`, in a stable order, their texts naming
/// tools as `names`.
fn served(profile: ToolProfile, bounds: &Bounds, names: ToolNames) -> Vec<ToolDef> {
    let mut tools: Vec<ToolDef> = all_tools()
        .into_iter()
        .filter(|t| profile.serves_tool(t))
        .map(|t| t.served(profile, bounds, names))
        .collect();
    tools.sort_by_key(|t| profile.rank(t));
    tools
}

/// The tools of one profile over one runtime, behind a permission gate. Cheap to clone.
#[derive(Clone)]
pub struct ToolCatalogue {
    ctx: Arc<Context>,
    tools: Arc<Vec<ToolDef>>,
    profile: ToolProfile,
    gate: PermissionGate,
    redaction: Redaction,
}

impl ToolCatalogue {
    /// The catalogue over `runtime`: the core [`ToolProfile`], default [`Bounds`], any
    /// path allowed, and the default [`PermissionGate`] (what needs approval is refused
    /// until an approver is set).
    pub fn new(runtime: Runtime) -> Self {
        let profile = ToolProfile::default();
        let tools = served(profile, &Bounds::default(), ToolNames::default());
        Self {
            ctx: Arc::new(Context {
                runtime,
                bounds: Bounds::default(),
                paths: PathPolicy::unrestricted(),
                test_runs: Arc::default(),
                launch_effects: Arc::default(),
                output_marks: Arc::default(),
                watches: Arc::default(),
                statements: Arc::default(),
                builds: Arc::default(),
                caller: None,
                clients: Arc::default(),
                owner_grace: access::owners::OWNER_GRACE,
                acting: None,
                names: ToolNames::default(),
                gate: PermissionGate::default(),
                exposures: Arc::default(),
                redaction: Redaction::default(),
                diffs: Arc::default(),
            }),
            tools: Arc::new(tools),
            profile,
            gate: PermissionGate::default(),
            redaction: Redaction::default(),
        }
    }

    /// Serve the tools of `profile`.
    pub fn with_profile(mut self, profile: ToolProfile) -> Self {
        self.profile = profile;
        self.tools = Arc::new(served(profile, &self.ctx.bounds, self.ctx.names));
        self
    }

    /// Set the result bounds (the tools' descriptions state them).
    pub fn with_bounds(mut self, bounds: Bounds) -> Self {
        self.tools = Arc::new(served(self.profile, &bounds, self.ctx.names));
        self.ctx = Arc::new(Context {
            bounds,
            ..self.context()
        });
        self
    }

    /// Set which paths tools accept (such as [`PathPolicy::rooted`]).
    pub fn with_paths(mut self, paths: PathPolicy) -> Self {
        self.ctx = Arc::new(Context {
            paths,
            ..self.context()
        });
        self
    }

    /// Set the permission gate.
    pub fn with_permissions(mut self, gate: PermissionGate) -> Self {
        self.gate = gate;
        self.ctx = Arc::new(self.context());
        self
    }

    /// Let at most `clients` editors join each exposed session at once (default
    /// [`MAX_EXPOSED_CLIENTS`](crate::expose::MAX_EXPOSED_CLIENTS); 1 to
    /// [`MAX_EXPOSED_CLIENTS_LIMIT`](crate::expose::MAX_EXPOSED_CLIENTS_LIMIT)). Sessions
    /// exposed already keep theirs.
    pub fn with_max_exposed_clients(mut self, clients: usize) -> Result<Self, String> {
        let exposures = crate::expose::Exposures::with_max_clients(clients)?;
        self.ctx = Arc::new(Context {
            exposures: Arc::new(exposures),
            ..self.context()
        });
        Ok(self)
    }

    fn context(&self) -> Context {
        Context {
            runtime: self.ctx.runtime.clone(),
            bounds: self.ctx.bounds.clone(),
            paths: self.ctx.paths.clone(),
            test_runs: self.ctx.test_runs.clone(),
            launch_effects: self.ctx.launch_effects.clone(),
            output_marks: self.ctx.output_marks.clone(),
            watches: self.ctx.watches.clone(),
            statements: self.ctx.statements.clone(),
            builds: self.ctx.builds.clone(),
            caller: self.ctx.caller.clone(),
            clients: self.ctx.clients.clone(),
            owner_grace: self.ctx.owner_grace,
            acting: self.ctx.acting.clone(),
            names: self.ctx.names,
            gate: self.gate.clone(),
            exposures: self.ctx.exposures.clone(),
            redaction: self.redaction.clone(),
            diffs: self.ctx.diffs.clone(),
        }
    }

    /// The runtime the tools drive.
    pub fn runtime(&self) -> &Runtime {
        &self.ctx.runtime
    }

    /// The bounds in force.
    pub fn bounds(&self) -> &Bounds {
        &self.ctx.bounds
    }

    /// The tool profile served.
    pub fn profile(&self) -> ToolProfile {
        self.profile
    }

    /// The permission gate in force.
    pub fn permissions(&self) -> &PermissionGate {
        &self.gate
    }

    /// Every tool of the profile, in a stable order.
    pub fn list(&self) -> Vec<ToolSpec> {
        self.tools.iter().map(|t| t.spec.clone()).collect()
    }

    /// The tool called `name`: canonical (`debug.launch`) or MCP (`debug_launch`).
    pub fn spec(&self, name: &str) -> Option<&ToolSpec> {
        self.find(name).map(|t| &t.spec)
    }

    fn find(&self, name: &str) -> Option<&ToolDef> {
        self.tools
            .iter()
            .find(|t| t.spec.name == name || t.spec.mcp_name() == name)
    }

    /// Call a tool with JSON arguments; the gate's own approver decides where the
    /// permission mode asks. Never fails: errors are results with `is_error` set.
    pub async fn call(&self, name: &str, arguments: Value) -> ToolResult {
        self.run(name, arguments, None).await
    }

    /// Call a tool, asking `approver` (instead of the gate's own) where the
    /// permission mode asks: for hosts that ask per caller, such as the MCP server.
    pub async fn call_with_approver(
        &self,
        name: &str,
        arguments: Value,
        approver: &dyn Approver,
    ) -> ToolResult {
        self.run(name, arguments, Some(approver)).await
    }

    /// Classify the call on the adapter it reaches and ask the gate.
    async fn pass_gate(
        &self,
        spec: &ToolSpec,
        arguments: &Value,
        approver: Option<&dyn Approver>,
    ) -> Result<Effects, ToolError> {
        let (effects, session) = if self.gate.decides_without_effects() {
            (Effects::default(), None)
        } else {
            let target = if depends_on_target(spec, arguments) {
                access::reach::target_of(&self.ctx, spec, arguments).await
            } else {
                CallTarget {
                    session: access::reach::session_named(arguments),
                    ..CallTarget::reaching(Adapters::Some(Vec::new()))
                }
            };
            (self.gate.classify(spec, arguments, &target), target.session)
        };
        let call = Call {
            tool: spec,
            arguments,
            effects: &effects,
            session: session.as_deref(),
        };
        let passed = self.gate.check(&call, approver).await?;
        if passed.remembered {
            // Approvals for sessions that have ended only take room.
            let runtime = &self.ctx.runtime;
            self.gate.forget_sessions_except(|id| {
                id.parse()
                    .is_ok_and(|id: crate::SessionId| runtime.session(id).is_some())
            });
        }
        Ok(effects)
    }

    /// Pass each launch a call of `tool` makes ([`ToolDef::gated_as`]) through the
    /// gate as a `debug.launch` call with its arguments; where in the reply each one's
    /// session is named, and its effects.
    async fn pass_gate_as_launches(
        &self,
        tool: &ToolDef,
        arguments: &Value,
        approver: Option<&dyn Approver>,
    ) -> Result<Vec<(&'static str, Effects)>, ToolError> {
        let Some(parts) = tool.gated_as else {
            return Ok(Vec::new());
        };
        let launch = catalogue_tools()
            .iter()
            .find(|t| t.spec.name == "debug.launch")
            .expect("the catalogue has debug.launch");
        let mut passed = Vec::new();
        for (field, launch_arguments) in parts(arguments)? {
            let effects = self
                .pass_gate(&launch.spec, &launch_arguments, approver)
                .await?;
            passed.push((field, effects));
        }
        Ok(passed)
    }

    /// Remember what the launch that answered `reply` did beyond starting its program,
    /// for a restart of its session to be rated alike (`start/launch_effects.rs`).
    fn remember_launch(&self, reply: &Value, effects: &Effects) {
        let Some(id) = reply["session_id"].as_str().and_then(|id| id.parse().ok()) else {
            return;
        };
        let live: Vec<crate::SessionId> =
            self.ctx.runtime.sessions().iter().map(|s| s.id()).collect();
        self.ctx.launch_effects.remember(id, effects, &live);
    }

    /// Every call's one way out: its result, secrets hidden (`results/redaction.rs`).
    async fn run(
        &self,
        name: &str,
        arguments: Value,
        approver: Option<&dyn Approver>,
    ) -> ToolResult {
        let expression = arguments
            .get("expression")
            .and_then(Value::as_str)
            .map(str::to_string);
        let result = self.run_unredacted(name, arguments, approver).await;
        let result = self.named_for_caller(result);
        self.redaction.result(expression.as_deref(), result)
    }

    async fn run_unredacted(
        &self,
        name: &str,
        arguments: Value,
        approver: Option<&dyn Approver>,
    ) -> ToolResult {
        let Some(tool) = self.find(name) else {
            return self.not_served(name).into();
        };
        // Before the gate, so that no one is asked to approve a call that is refused:
        // one on another client's session, or one that would change a session no one
        // has started yet (`access/acting.rs`).
        let session_call = match self.session_call(&tool.spec, &arguments).await {
            Ok(call) => call,
            Err(refusal) => return refusal.into(),
        };
        // A session whose program has ended has nothing left to approve: a call it
        // would refuse, and its end, are answered now (`access/ended_answers.rs`).
        if let Some(answer) = self.answer_ended(session_call.as_ref()).await {
            return answer;
        }
        let effects = match self.pass_gate(&tool.spec, &arguments, approver).await {
            Ok(effects) => effects,
            Err(refusal) => return refusal.into(),
        };
        // The launches a call makes (debug.diff's two), each gated as debug.launch.
        let launches = match self.pass_gate_as_launches(tool, &arguments, approver).await {
            Ok(launches) => launches,
            Err(refusal) => return refusal.into(),
        };
        // The gate may have waited on the user for minutes: the session may have ended
        // or changed hands since. Checked again now, and by the handler as it acts.
        if let Some(Err(refusal)) = session_call.as_ref().map(|c| self.may_act_on(c)) {
            return refusal.into();
        }
        let ctx = self.acting_context(session_call.as_ref());
        // A bug in one handler must answer this call with an error, not take the
        // caller (or the MCP server's request task) down with it.
        let session_id = access::reach::session_named(&arguments);
        let call = AssertUnwindSafe((tool.run)(ctx, arguments)).catch_unwind();
        match call.await {
            Ok(Ok(reply)) => {
                if tool.spec.adds == crate::permission::Adds::Launch {
                    self.remember_launch(&reply.structured, &effects);
                }
                for (at, effects) in &launches {
                    if let Some(launched) = reply.structured.pointer(at) {
                        self.remember_launch(launched, effects);
                    }
                }
                ToolResult::ok(reply.structured, reply.text)
            }
            Ok(Err(err)) => {
                let mut err =
                    results::exit_signal::say_how_it_ended(&self.ctx, session_id, err).await;
                if let Some(state) = err.allowed_now.take() {
                    let allowed = self.as_served(&allowed_tools(state));
                    if !allowed.is_empty() {
                        err.error = format!("{}; allowed now: {}", err.error, allowed.join(", "));
                    }
                }
                err.error = keep_ends(&err.error, self.ctx.bounds.max_error_chars);
                err.into()
            }
            Err(_) => ToolError::new(
                500,
                format!("{} failed unexpectedly (a bug in dapvisor)", tool.spec.name),
                "try again; if it repeats, end the session with debug.terminate and launch again",
            )
            .into(),
        }
    }
}

#[cfg(test)]
mod tests;
