//! [`Effect`]: what a call does to the world, the unit the permission gate decides on;
//! [`Found`]: one effect of one call and the argument that carries it; [`Effects`]:
//! every effect of a call, as [`classify`](super::classify) computes them.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// What a call does to the world. The modes and rules of the
/// [`PermissionGate`](super::PermissionGate) act on these, not on tool names.
///
/// Effects are ordered by what they can do ([`includes`](Effect::includes)): a call
/// that controls the program also reads it (where it stopped); one that starts a
/// process, runs code in the debuggee or touches a foreign process also controls
/// (that process, or the program's course); and one that runs a debugger's commands on
/// the host can do all of these (`expr` runs code, `process launch` starts one,
/// `process attach` touches any). Start, code and foreign include none of each other.
/// The variants' order (`Ord`) is weakest first and agrees with `includes`.
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
    /// Touches a process dapvisor did not start: attaching to it, ending it.
    Foreign,
    /// Runs commands on the host, outside the debuggee: a debugger's own console.
    Host,
}

impl Effect {
    /// Every effect, weakest first.
    pub const ALL: [Effect; 6] = [
        Effect::Read,
        Effect::Control,
        Effect::Start,
        Effect::Code,
        Effect::Foreign,
        Effect::Host,
    ];

    /// Whether a call with this effect can also do `other`: every effect includes
    /// itself and `read`; `start`, `code` and `foreign` include `control`; `host`
    /// includes every effect. A deny of `other` refuses a call with this effect; an
    /// allow of this effect grants `other`.
    pub fn includes(self, other: Effect) -> bool {
        self == other
            || match self {
                Effect::Read => false,
                Effect::Control => other == Effect::Read,
                Effect::Start | Effect::Code | Effect::Foreign => {
                    matches!(other, Effect::Read | Effect::Control)
                }
                Effect::Host => true,
            }
    }

    /// The name rules use after `effect:`: `read`, `control`, `start`, `code`,
    /// `foreign`, `host`.
    pub fn name(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::Control => "control",
            Effect::Start => "start",
            Effect::Code => "code",
            Effect::Foreign => "foreign",
            Effect::Host => "host",
        }
    }

    /// What it does, as a verb phrase: "runs code in the debuggee".
    pub fn meaning(self) -> &'static str {
        match self {
            Effect::Read => "reads the debuggee",
            Effect::Control => "controls the debuggee",
            Effect::Start => "starts a process",
            Effect::Code => "runs code in the debuggee",
            Effect::Foreign => "touches a process dapvisor did not start",
            Effect::Host => "runs commands on the host",
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
        assert!(err.contains("hots") && err.contains("read, control, start, code, foreign, host"));
    }

    #[test]
    fn each_effect_includes_what_it_can_also_do_and_the_order_agrees() {
        use Effect::*;
        for a in Effect::ALL {
            assert!(a.includes(a) && a.includes(Read), "{a}");
            assert!(Host.includes(a), "host commands can do anything: {a}");
            for b in Effect::ALL {
                if a.includes(b) {
                    assert!(a >= b, "{a} includes {b}: the order agrees");
                    for c in Effect::ALL {
                        assert!(!b.includes(c) || a.includes(c), "{a} > {b} > {c}");
                    }
                }
            }
        }
        for middle in [Start, Code, Foreign] {
            assert!(middle.includes(Control) && !middle.includes(Host));
            let others = [Start, Code, Foreign].into_iter().filter(|o| *o != middle);
            assert!(others.into_iter().all(|o| !middle.includes(o)), "{middle}");
        }
        assert!(!Control.includes(Code) && !Read.includes(Control));
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
