//! The permission gate: which tools may run, decided per call from a
//! [`PermissionMode`], [`PermissionRule`]s and, where the mode says to ask, an
//! [`Approver`].
//!
//! - `Default`: destructive tools (such as `debug.evaluate`) ask the approver first;
//!   the rest run. An allow rule pre-approves a tool.
//! - `PlanOnly`: only read-only tools run; the rest are refused with a reason.
//! - `BypassAll`: every tool runs without asking.
//! - `DenyUnauthorized`: only tools an allow rule matches run.
//!
//! In every mode a deny rule wins: a tool it matches never runs.

mod approver;
mod rule;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde_json::Value;

pub use approver::{AllowAll, Approval, ApprovalRequest, Approver, DenyAll};
pub use rule::{PermissionRule, RuleBehavior};

use crate::tools::{ToolError, ToolSpec};

/// How the gate treats tools no rule decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PermissionMode {
    /// Destructive tools ask the approval gate; the rest run.
    #[default]
    Default,
    /// Only read-only tools run.
    PlanOnly,
    /// Everything runs without asking.
    BypassAll,
    /// Only tools an allow rule matches run.
    DenyUnauthorized,
}

impl PermissionMode {
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

/// What the gate decides for a tool before any approver is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Run it.
    Allow,
    /// Ask the approval gate.
    Ask,
    /// Refuse, for this reason.
    Refuse(String),
}

/// The gate: a mode, rules, and the approver asked where the mode says to ask.
/// `PermissionGate::default()` is `Default` mode with no rules and [`DenyAll`] as the
/// approver: destructive tools are refused until the host sets an approver.
#[derive(Clone)]
pub struct PermissionGate {
    mode: PermissionMode,
    rules: Vec<PermissionRule>,
    approver: Arc<dyn Approver>,
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
            .finish_non_exhaustive()
    }
}

impl PermissionGate {
    /// A gate in `mode`, with no rules and [`DenyAll`] as the approver.
    pub fn new(mode: PermissionMode) -> Self {
        Self {
            mode,
            rules: Vec::new(),
            approver: Arc::new(DenyAll),
        }
    }

    /// Add a rule.
    pub fn rule(mut self, rule: PermissionRule) -> Self {
        self.rules.push(rule);
        self
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

    /// What the mode and rules say about `tool`, before any approver is asked.
    pub fn decide(&self, tool: &ToolSpec) -> Decision {
        let matching = |behavior| {
            self.rules
                .iter()
                .find(|r| r.behavior == behavior && r.matches(tool.name))
        };
        if let Some(rule) = matching(RuleBehavior::Deny) {
            return Decision::Refuse(format!(
                "`{}` is denied by the rule `{}`",
                tool.name, rule.pattern
            ));
        }
        let allowed = matching(RuleBehavior::Allow).is_some();
        match self.mode {
            PermissionMode::BypassAll => Decision::Allow,
            PermissionMode::PlanOnly if tool.annotations.read_only => Decision::Allow,
            PermissionMode::PlanOnly => Decision::Refuse(format!(
                "permission mode plan_only runs read-only tools only, and `{}` is not read-only",
                tool.name
            )),
            PermissionMode::DenyUnauthorized if allowed => Decision::Allow,
            PermissionMode::DenyUnauthorized => Decision::Refuse(format!(
                "permission mode deny_unauthorized runs only tools an allow rule names, and no \
                 rule allows `{}`",
                tool.name
            )),
            PermissionMode::Default if allowed || !tool.annotations.destructive => Decision::Allow,
            PermissionMode::Default => Decision::Ask,
        }
    }

    /// Whether this call may run: decide, and ask `approver` (or the gate's own
    /// approver) where the mode says to ask. A refusal is a 403 with the reason.
    pub async fn check(
        &self,
        tool: &ToolSpec,
        arguments: &Value,
        approver: Option<&dyn Approver>,
    ) -> Result<(), ToolError> {
        match self.decide(tool) {
            Decision::Allow => Ok(()),
            Decision::Refuse(reason) => Err(refused(reason)),
            Decision::Ask => {
                let request = ApprovalRequest {
                    tool: tool.name.to_string(),
                    description: tool.description.to_string(),
                    arguments: arguments.clone(),
                };
                let approver = approver.unwrap_or(self.approver.as_ref());
                match approver.approve(&request).await {
                    Approval::Approved => Ok(()),
                    Approval::Denied(reason) => Err(refused(format!(
                        "`{}` was not approved: {reason}",
                        tool.name
                    ))),
                }
            }
        }
    }
}

fn refused(reason: String) -> ToolError {
    ToolError::new(
        403,
        reason,
        "use another tool (read-only ones such as debug.variables and debug.stack_trace need \
         no approval), or ask the user to change the permission mode or rules",
    )
}
