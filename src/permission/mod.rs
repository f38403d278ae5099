//! The permission gate: which calls may run, decided per call by their [`Effect`]s
//! from a [`PermissionMode`], [`PermissionRule`]s and, where the mode says to ask, an
//! [`Approver`].
//!
//! A call's effects come from its tool, its arguments and the adapter it reaches
//! ([`classify`]): it reads the debuggee, controls it, starts a process, runs code in
//! the debuggee, runs commands on the host, or touches a process dapvisor did not
//! start. `debug.evaluate` runs code in the debuggee, but on lldb-dap in the `repl`
//! context it runs lldb commands on the host; a breakpoint with a condition runs code;
//! ending a program a session attached to touches a foreign process; a launch that
//! sets an environment variable not known to be inert ([`EnvAllowlist`]) runs code.
//! An effect [includes](Effect::includes) what a call with it can also do: running
//! commands on the host includes everything else.
//!
//! - `Default`: reading, controlling and starting run; code in the debuggee, commands
//!   on the host and foreign processes ask the approver first.
//! - `PlanOnly`: only reads run (and what an allow rule grants); the rest are refused.
//! - `BypassAll`: everything runs without asking.
//! - `DenyUnauthorized`: only what an allow rule grants runs.
//!
//! An allow rule naming a tool grants the effect that tool always has
//! ([`tool_effect`]), an `effect:NAME` rule grants that effect to every tool, and a
//! user's approval [for a session](Approval::ApprovedForSession) grants the tool's
//! asked effects on that session; each grants the effects its effect includes too.
//! In every mode a deny rule wins: a call whose tool it matches, or any of whose
//! effects includes the one it names, never runs.

mod adapters;
mod approver;
mod classify;
#[cfg(test)]
mod classify_tests;
mod custom;
#[cfg(test)]
mod custom_tests;
#[cfg(test)]
mod decide_tests;
mod effect;
mod env;
mod grants;
mod rule;
#[cfg(test)]
mod start_tests;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde_json::Value;

pub use adapters::Adapters;
pub use approver::{AllowAll, Approval, ApprovalRequest, Approver, DenyAll};
pub use classify::{classify, depends_on_target, tool_effect, Adds, CallTarget};
pub use effect::{Effect, Effects, Found};
pub use env::{check_pattern as check_env_pattern, EnvAllowlist, INERT_ENV};
pub use grants::SessionGrants;
pub use rule::{PermissionRule, RuleBehavior, EFFECT_PREFIX};

use crate::tools::{ToolError, ToolSpec};

/// How the gate treats tools no rule decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PermissionMode {
    /// Reads, control and starting run; code in the debuggee, commands on the host
    /// and foreign processes ask the approval gate.
    #[default]
    Default,
    /// Only reads, and what an allow rule grants, run.
    PlanOnly,
    /// Everything runs without asking.
    BypassAll,
    /// Only what an allow rule grants runs.
    DenyUnauthorized,
}

impl PermissionMode {
    /// Whether the mode lets `effect` run without asking or a rule.
    pub fn grants(self, effect: Effect) -> bool {
        // Each mode's list holds what its effects include.
        match self {
            PermissionMode::BypassAll => true,
            PermissionMode::Default => {
                matches!(effect, Effect::Read | Effect::Control | Effect::Start)
            }
            PermissionMode::PlanOnly => effect == Effect::Read,
            PermissionMode::DenyUnauthorized => false,
        }
    }

    /// The mode's name: `default`, `plan_only`, `bypass_all`, `deny_unauthorized`.
    pub fn name(self) -> &'static str {
        match self {
            PermissionMode::Default => "default",
            PermissionMode::PlanOnly => "plan_only",
            PermissionMode::BypassAll => "bypass_all",
            PermissionMode::DenyUnauthorized => "deny_unauthorized",
        }
    }
}

impl fmt::Display for PermissionMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PermissionMode {
    type Err = String;

    /// Accepts the names with `_` or `-`, in any case (`plan-only`, `BypassAll` too).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
            "default" => Ok(PermissionMode::Default),
            "planonly" | "plan" => Ok(PermissionMode::PlanOnly),
            "bypassall" | "bypass" => Ok(PermissionMode::BypassAll),
            "denyunauthorized" => Ok(PermissionMode::DenyUnauthorized),
            _ => Err(format!(
                "unknown permission mode `{s}`; use default, plan_only, bypass_all or deny_unauthorized"
            )),
        }
    }
}

/// One call as the gate sees it: the tool, the arguments, the effects
/// [`classify`] found, and the debug session it acts on.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    /// The tool.
    pub tool: &'a ToolSpec,
    /// Its arguments.
    pub arguments: &'a Value,
    /// Its effects.
    pub effects: &'a Effects,
    /// The debug session it acts on, if any.
    pub session: Option<&'a str>,
}

/// What the gate decides for a call before any approver is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Run it.
    Allow,
    /// Ask the approval gate about these effects (the ones nothing granted).
    Ask {
        /// The effects to approve, each with the argument that carries it.
        effects: Effects,
    },
    /// Refuse, for this reason.
    Refuse(String),
}

/// How a call passed the gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Passed {
    /// The user approved it for the rest of its session: the gate holds one more
    /// approval (see [`PermissionGate::forget_sessions_except`]).
    pub remembered: bool,
}

/// The gate: a mode, rules, the approver asked where the mode says to ask, and the
/// approvals given for the rest of a session. `PermissionGate::default()` is `Default`
/// mode with no rules and [`DenyAll`] as the approver: what needs approval is refused
/// until the host sets an approver.
#[derive(Clone)]
pub struct PermissionGate {
    mode: PermissionMode,
    rules: Vec<PermissionRule>,
    env: EnvAllowlist,
    approver: Arc<dyn Approver>,
    grants: Arc<SessionGrants>,
}

impl Default for PermissionGate {
    fn default() -> Self {
        Self::new(PermissionMode::Default)
    }
}

impl fmt::Debug for PermissionGate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PermissionGate")
            .field("mode", &self.mode)
            .field("rules", &self.rules)
            .field("inert_env_added", &self.env.added())
            .field("session_grants", &self.grants.len())
            .finish_non_exhaustive()
    }
}

impl PermissionGate {
    /// A gate in `mode`, with no rules and [`DenyAll`] as the approver.
    pub fn new(mode: PermissionMode) -> Self {
        Self {
            mode,
            rules: Vec::new(),
            env: EnvAllowlist::default(),
            approver: Arc::new(DenyAll),
            grants: Arc::new(SessionGrants::default()),
        }
    }

    /// Add a rule.
    pub fn rule(mut self, rule: PermissionRule) -> Self {
        self.rules.push(rule);
        self
    }

    /// Take the environment variables `env` names for inert in a launch's `env`
    /// (besides [`INERT_ENV`], which it always holds).
    pub fn inert_env(mut self, env: EnvAllowlist) -> Self {
        self.env = env;
        self
    }

    /// The environment variables taken for inert.
    pub fn env_allowlist(&self) -> &EnvAllowlist {
        &self.env
    }

    /// Every effect of calling `tool` with `arguments` on `target`, as this gate
    /// decides on them: [`classify`], with the gate's inert environment variables.
    pub fn classify(&self, tool: &ToolSpec, arguments: &Value, target: &CallTarget) -> Effects {
        classify::classify_with(tool, arguments, target, &self.env)
    }

    /// Set the approval gate asked in `Default` mode.
    pub fn approver(mut self, approver: Arc<dyn Approver>) -> Self {
        self.approver = approver;
        self
    }

    /// The mode.
    pub fn mode(&self) -> PermissionMode {
        self.mode
    }

    /// The rules, in the order they were added.
    pub fn rules(&self) -> &[PermissionRule] {
        &self.rules
    }

    /// Whether every call's decision is known without its effects: `BypassAll`
    /// with no deny rule that names an effect. A host may then skip classifying.
    pub fn decides_without_effects(&self) -> bool {
        self.mode == PermissionMode::BypassAll
            && !self
                .rules
                .iter()
                .any(|r| r.behavior == RuleBehavior::Deny && r.effect_pattern().is_some())
    }

    /// The same gate with approvals for sessions of its own, none yet: for one client
    /// of a host that serves several, so that what one client's user approved for a
    /// session lets no other client's calls through.
    pub fn with_own_grants(&self) -> Self {
        Self {
            grants: Arc::default(),
            ..self.clone()
        }
    }

    /// Forget the approvals given for sessions for which `live` says no.
    pub fn forget_sessions_except(&self, live: impl Fn(&str) -> bool) {
        self.grants.retain_sessions(live);
    }

    /// What the mode, the rules and the session's approvals say about `call`, before
    /// any approver is asked.
    pub fn decide(&self, call: &Call<'_>) -> Decision {
        let tool = call.tool;
        for rule in self
            .rules
            .iter()
            .filter(|r| r.behavior == RuleBehavior::Deny)
        {
            if rule.matches(tool.name) {
                return Decision::Refuse(format!(
                    "`{}` is denied by the rule `{}`",
                    tool.name, rule.pattern
                ));
            }
            if let Some((found, named)) = call
                .effects
                .0
                .iter()
                .find_map(|f| Some((f, rule.covering(f.effect)?)))
            {
                let including = if named == found.effect {
                    String::new()
                } else {
                    format!(", which includes what `{EFFECT_PREFIX}{named}` names")
                };
                return Decision::Refuse(format!(
                    "this `{}` call {found}{including}, and the rule `{}` denies that",
                    tool.name, rule.pattern
                ));
            }
        }
        let tool_allowed = self
            .rules
            .iter()
            .any(|r| r.behavior == RuleBehavior::Allow && r.matches(tool.name));
        let ungranted: Vec<Found> = call
            .effects
            .0
            .iter()
            .filter(|f| !self.granted(f.effect, call, tool_allowed))
            .cloned()
            .collect();
        if ungranted.is_empty() {
            return Decision::Allow;
        }
        let ungranted = Effects(ungranted);
        match self.mode {
            PermissionMode::Default => Decision::Ask { effects: ungranted },
            PermissionMode::PlanOnly => Decision::Refuse(format!(
                "permission mode plan_only runs only calls that read the debuggee (and what \
                 an allow rule grants), and this `{}` call {}",
                tool.name,
                ungranted.describe()
            )),
            PermissionMode::DenyUnauthorized => Decision::Refuse(format!(
                "permission mode deny_unauthorized runs only what an allow rule grants, and \
                 no rule grants this `{}` call, which {}",
                tool.name,
                ungranted.describe()
            )),
            // The mode grants everything: nothing is left ungranted.
            PermissionMode::BypassAll => Decision::Allow,
        }
    }

    /// Whether `effect` of `call` may run without asking: the mode grants it, an
    /// `effect:` rule allows an effect that includes it, an allow rule names the tool
    /// and the tool's own effect includes it, or the user approved an effect that
    /// includes it for this tool on this session.
    fn granted(&self, effect: Effect, call: &Call<'_>, tool_allowed: bool) -> bool {
        self.mode.grants(effect)
            || self
                .rules
                .iter()
                .any(|r| r.behavior == RuleBehavior::Allow && r.covers_effect(effect))
            || (tool_allowed && tool_effect(call.tool.name).is_some_and(|e| e.includes(effect)))
            || call.session.is_some_and(|s| {
                Effect::ALL.into_iter().any(|granted| {
                    granted.includes(effect) && self.grants.allows(s, call.tool.name, granted)
                })
            })
    }

    /// Whether `call` may run: decide, and ask `approver` (or the gate's own approver)
    /// where the mode says to ask. A refusal is a 500 of kind [`FORBIDDEN`] with the
    /// reason.
    pub async fn check(
        &self,
        call: &Call<'_>,
        approver: Option<&dyn Approver>,
    ) -> Result<Passed, ToolError> {
        let effects = match self.decide(call) {
            Decision::Allow => return Ok(Passed::default()),
            Decision::Refuse(reason) => return Err(refused(reason)),
            Decision::Ask { effects } => effects,
        };
        let tool = call.tool;
        let request = ApprovalRequest {
            tool: tool.name.to_string(),
            description: tool.description.clone(),
            arguments: call.arguments.clone(),
            why: format!("it {}", effects.describe()),
            effects: effects.0.clone(),
            session: call.session.map(str::to_string),
            rules_to_allow: rules_to_allow(tool.name, &effects),
        };
        let approver = approver.unwrap_or(self.approver.as_ref());
        match approver.approve(&request).await {
            Approval::Approved => Ok(Passed::default()),
            Approval::ApprovedForSession => match call.session {
                Some(session) => {
                    for effect in effects.kinds() {
                        self.grants.grant(session, tool.name, effect);
                    }
                    Ok(Passed { remembered: true })
                }
                None => Ok(Passed::default()),
            },
            Approval::Denied(reason) => Err(refused(format!(
                "`{}` was not approved: {reason}",
                tool.name
            ))),
        }
    }
}

/// The flags that would let calls with these effects of `tool` run without asking:
/// `--allow TOOL` for what the tool's own effect includes, `--allow effect:NAME` for
/// the others.
fn rules_to_allow(tool: &str, effects: &Effects) -> String {
    let mut flags: Vec<String> = Vec::new();
    for effect in effects.kinds() {
        let flag = if tool_effect(tool).is_some_and(|own| own.includes(effect)) {
            format!("--allow {tool}")
        } else {
            format!("--allow {EFFECT_PREFIX}{}", effect.name())
        };
        if !flags.contains(&flag) {
            flags.push(flag);
        }
    }
    flags.join(" ")
}

/// The [`ToolError::kind`] of a call the gate refused.
pub const FORBIDDEN: &str = "forbidden";

fn refused(reason: String) -> ToolError {
    ToolError::new(
        500,
        reason,
        "use a call that only reads (such as debug.variables or debug.stack_trace) or \
         controls the program (a breakpoint without a condition or log message), or ask \
         the user to change the permission mode or rules (`--allow effect:NAME` grants an \
         effect)",
    )
    .with_kind(FORBIDDEN)
}
