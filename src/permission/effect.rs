//! [`Effect`]: what a call does to the world, the unit the permission gate decides on;
//! [`Found`]: one effect of one call and the argument that carries it; [`Effects`]:
//! every effect of a call, as [`classify`](super::classify) computes them.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// What a call does to the world. The modes and rules of the
/// [`PermissionGate`](super::PermissionGate) act on these, not on tool names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Reads the debuggee: threads, stacks, variables, memory, output.
    Read,
    /// Controls the debuggee: runs, steps, pauses or ends it; sets breakpoints.
    Control,
    /// Starts a process: launches a program (or launches it again).
    Start,
    /// Runs code in the debuggee: an expression, a condition, a new value.
    Code,
    /// Runs commands on the host, outside the debuggee: a debugger's own console.
    Host,
    /// Touches a process dapvisor did not start: attaching to it, ending it.
    Foreign,
}

impl Effect {
    /// Every effect, weakest first.
    pub const ALL: [Effect; 6] = [
        Effect::Read,
        Effect::Control,
        Effect::Start,
        Effect::Code,
        Effect::Host,
        Effect::Foreign,
    ];

    /// The name rules use after `effect:`: `read`, `control`, `start`, `code`,
    /// `host`, `foreign`.
    pub fn name(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::Control => "control",
            Effect::Start => "start",
            Effect::Code => "code",
            Effect::Host => "host",
            Effect::Foreign => "foreign",
        }
    }

    /// What it does, as a verb phrase: "runs code in the debuggee".
    pub fn meaning(self) -> &'static str {
        match self {
            Effect::Read => "reads the debuggee",
            Effect::Control => "controls the debuggee",
            Effect::Start => "starts a process",
            Effect::Code => "runs code in the debuggee",
            Effect::Host => "runs commands on the host",
            Effect::Foreign => "touches a process dapvisor did not start",
        }
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Effect {
    type Err = String;

    /// An effect by its name, in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase();
        Effect::ALL
            .into_iter()
            .find(|e| e.name() == wanted)
            .ok_or_else(|| {
                format!(
                    "unknown effect `{s}`; the effects are: {}",
                    Effect::ALL.map(Effect::name).join(", ")
                )
            })
    }
}

/// One effect of one call: what it does, said for a person deciding on it, and the
/// argument that makes it so.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Found {
    /// The effect.
    pub effect: Effect,
    /// What the call does, as a verb phrase naming the adapter's way of doing it where
    /// that matters: "runs lldb commands on the host".
    pub what: String,
    /// The argument that carries it, such as `context: repl`,
    /// `breakpoints[1].condition` or `pid: 1234`; empty when the tool itself does it.
    pub carrier: String,
}

impl Found {
    /// An effect, what it does, and what carries it.
    pub fn new(effect: Effect, what: impl Into<String>, carrier: impl Into<String>) -> Self {
        Self {
            effect,
            what: what.into(),
            carrier: carrier.into(),
        }
    }
}

impl fmt::Display for Found {
    /// "runs lldb commands on the host (context: repl)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.carrier.is_empty() {
            f.write_str(&self.what)
        } else {
            write!(f, "{} ({})", self.what, self.carrier)
        }
    }
}

/// Every effect of one call, in the order they were found (the tool's own first,
/// when it has one apart from its arguments).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Effects(pub Vec<Found>);

impl Effects {
    /// The distinct effects, weakest first.
    pub fn kinds(&self) -> Vec<Effect> {
        let mut kinds: Vec<Effect> = self.0.iter().map(|f| f.effect).collect();
        kinds.sort();
        kinds.dedup();
        kinds
    }

    /// Whether the call has `effect`.
    pub fn has(&self, effect: Effect) -> bool {
        self.0.iter().any(|f| f.effect == effect)
    }

    /// The effects found, each said once per carrier: "runs Python code in the
    /// debuggee (expression); runs commands on the host (context: repl)".
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        for found in &self.0 {
            let text = found.to_string();
            if !parts.contains(&text) {
                parts.push(text);
            }
        }
        parts.join("; ")
    }

    /// The findings of one effect.
    pub fn of(&self, effect: Effect) -> Effects {
        Effects(
            self.0
                .iter()
                .filter(|f| f.effect == effect)
                .cloned()
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effects_parse_by_name_in_any_case_and_refuse_others_naming_all() {
        for effect in Effect::ALL {
            assert_eq!(effect.name().parse::<Effect>(), Ok(effect));
            assert_eq!(effect.name().to_uppercase().parse::<Effect>(), Ok(effect));
        }
        let err = "hots".parse::<Effect>().unwrap_err();
        assert!(err.contains("hots") && err.contains("read, control, start, code, host, foreign"));
    }

    #[test]
    fn a_call_says_each_finding_once_with_its_carrier() {
        let effects = Effects(vec![
            Found::new(
                Effect::Code,
                "runs Python code in the debuggee",
                "condition",
            ),
            Found::new(
                Effect::Code,
                "runs Python code in the debuggee",
                "condition",
            ),
            Found::new(
                Effect::Host,
                "runs lldb commands on the host",
                "context: repl",
            ),
            Found::new(Effect::Control, "controls the debuggee", ""),
        ]);
        assert_eq!(
            effects.describe(),
            "runs Python code in the debuggee (condition); runs lldb commands on the host \
             (context: repl); controls the debuggee"
        );
        assert_eq!(
            effects.kinds(),
            [Effect::Control, Effect::Code, Effect::Host]
        );
        assert!(effects.has(Effect::Host) && !effects.has(Effect::Read));
        assert_eq!(effects.of(Effect::Code).0.len(), 2);
    }
}
