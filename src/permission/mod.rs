//! The permission gate: which tools may run, decided per call from a
//! [`PermissionMode`], [`PermissionRule`]s and, where the mode says to ask, an
//! [`Approver`].
//!
//! - `Default`: destructive calls (such as `debug.evaluate`) ask the approver first;
//!   the rest run. An allow rule pre-approves a tool.
//! - `PlanOnly`: only read-only tools, and tools an allow rule names, run; the rest
//!   are refused with a reason.
//! - `BypassAll`: every tool runs without asking.
//! - `DenyUnauthorized`: only tools an allow rule matches run.
//!
//! A call is destructive when its tool is, or when its arguments carry code for the
//! debuggee to run: a breakpoint's `condition`, `hit_condition` or `log_message`
//! (see [`ToolSpec::code_arguments`]). So `debug.set_breakpoint` with a condition asks
//! in Default and is refused in PlanOnly, while the same call without one runs.
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
    /// Destructive calls ask the approval gate; the rest run.
    #[default]
    Default,
    /// Only read-only calls, and tools an allow rule names, run.
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
    /// Ask the approval gate; `code` names the arguments that carry code for the
    /// debuggee (empty when the tool itself is destructive).
    Ask {
        /// Paths of the code-carrying arguments, such as `breakpoints[1].condition`.
        code: Vec<String>,
    },
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

    /// What the mode and rules say about this call of `tool`, before any approver is
    /// asked. A call whose `arguments` carry code for the debuggee (a breakpoint's
    /// condition, hit condition or log message: [`ToolSpec::code_in`]) counts as
    /// destructive, whatever the tool's annotations say.
    pub fn decide(&self, tool: &ToolSpec, arguments: &Value) -> Decision {
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
        // An explicit allow rule admits the tool in every mode a deny rule did not
        // settle: it pre-approves in Default and admits in PlanOnly and
        // DenyUnauthorized.
        if self.mode == PermissionMode::BypassAll || matching(RuleBehavior::Allow).is_some() {
            return Decision::Allow;
        }
        // Only a call the mode and rules have not settled is searched for code.
        let code = tool.code_in(arguments);
        let destructive = tool.annotations.destructive || !code.is_empty();
        match self.mode {
            PermissionMode::BypassAll => Decision::Allow, // settled above
            PermissionMode::PlanOnly if tool.annotations.read_only && code.is_empty() => {
                Decision::Allow
            }
            PermissionMode::PlanOnly if !code.is_empty() => Decision::Refuse(format!(
                "permission mode plan_only runs read-only calls only, and this `{}` carries \
                 code for the debuggee to run ({})",
                tool.name,
                code.join(", ")
            )),
            PermissionMode::PlanOnly => Decision::Refuse(format!(
                "permission mode plan_only runs read-only tools only (and those an allow rule \
                 names), and `{}` is not read-only",
                tool.name
            )),
            PermissionMode::DenyUnauthorized => Decision::Refuse(format!(
                "permission mode deny_unauthorized runs only tools an allow rule names, and no \
                 rule allows `{}`",
                tool.name
            )),
            PermissionMode::Default if destructive => Decision::Ask { code },
            PermissionMode::Default => Decision::Allow,
        }
    }

    /// Whether this call may run: decide, and ask `approver` (or the gate's own
    /// approver) where the mode says to ask. A refusal is a 500 of kind
    /// [`FORBIDDEN`] with the reason.
    pub async fn check(
        &self,
        tool: &ToolSpec,
        arguments: &Value,
        approver: Option<&dyn Approver>,
    ) -> Result<(), ToolError> {
        match self.decide(tool, arguments) {
            Decision::Allow => Ok(()),
            Decision::Refuse(reason) => Err(refused(reason)),
            Decision::Ask { code } => {
                let why = if code.is_empty() {
                    "it can run arbitrary code in the debuggee".to_string()
                } else {
                    format!("its {} run(s) as code in the debuggee", code.join(", "))
                };
                let request = ApprovalRequest {
                    tool: tool.name.to_string(),
                    description: tool.description.to_string(),
                    arguments: arguments.clone(),
                    why,
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

/// The [`ToolError::kind`] of a call the gate refused.
pub const FORBIDDEN: &str = "forbidden";

fn refused(reason: String) -> ToolError {
    ToolError::new(
        500,
        reason,
        "use another tool (read-only ones such as debug.variables and debug.stack_trace need \
         no approval; a breakpoint without a condition or log message needs none either), or \
         ask the user to change the permission mode or rules",
    )
    .with_kind(FORBIDDEN)
}
