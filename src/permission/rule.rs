//! [`PermissionRule`]: allow or deny the tools whose names match a pattern, or the
//! calls with an [`Effect`] (`effect:host`).

use serde::{Deserialize, Serialize};

use super::effect::Effect;

/// What starts a rule that names effects instead of tools: `effect:host`.
pub const EFFECT_PREFIX: &str = "effect:";

/// What a matching rule does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleBehavior {
    /// Run the tool without asking (and, in `DenyUnauthorized` mode, at all).
    Allow,
    /// Never run the tool. A deny wins over any allow.
    Deny,
}

/// A rule for the tools whose names match `pattern`: a tool name where `*` stands for
/// any run of characters and `?` for one (`debug.evaluate`, `debug.*`, `debug.step_*`).
/// A pattern matches a tool by its canonical name (`debug.evaluate`) or its MCP name
/// (`debug_evaluate`).
///
/// A pattern `effect:NAME` is a rule for the calls with that [`Effect`] instead
/// (`effect:read`, `effect:host`; `effect:*` is every effect), taken with what it
/// [includes](Effect::includes): a deny refuses every call with an effect that
/// includes the one named (`effect:code` refuses a call that runs commands on the
/// host), an allow grants the effect named and those it includes (`effect:code`
/// grants control too). Allowing a tool grants the effect the tool always has
/// ([`tool_effect`](super::tool_effect)) the same way, not what its arguments or
/// adapter add: `debug.evaluate` grants code in the debuggee, and an evaluation that
/// runs lldb commands on the host still needs `effect:host`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PermissionRule {
    /// The tool-name pattern.
    pub pattern: String,
    /// Allow or deny.
    pub behavior: RuleBehavior,
}

impl PermissionRule {
    /// Allow the tools matching `pattern`.
    pub fn allow(pattern: impl Into<String>) -> Self {
        Self {
            pattern: pattern.into(),
            behavior: RuleBehavior::Allow,
        }
    }

    /// Deny the tools matching `pattern`.
    pub fn deny(pattern: impl Into<String>) -> Self {
        Self {
            pattern: pattern.into(),
            behavior: RuleBehavior::Deny,
        }
    }

    /// A rule from a user's flag: a tool pattern, or `effect:` and an effect's name
    /// (or a pattern matching some), checked so that a misspelt effect is an error
    /// rather than a rule that matches nothing.
    pub fn parse(behavior: RuleBehavior, pattern: &str) -> Result<Self, String> {
        let rule = Self {
            pattern: pattern.trim().to_string(),
            behavior,
        };
        if rule.pattern.is_empty() {
            return Err("an empty pattern names no tool".into());
        }
        if let Some(effects) = rule.effect_pattern() {
            if !Effect::ALL.into_iter().any(|e| rule.matches_effect(e)) {
                return Err(format!(
                    "`{effects}` names no effect; the effects are: {}",
                    Effect::ALL.map(Effect::name).join(", ")
                ));
            }
        }
        Ok(rule)
    }

    /// The effect pattern of an `effect:` rule (`host` of `effect:host`).
    pub fn effect_pattern(&self) -> Option<&str> {
        let pattern = self.pattern.trim();
        let head = pattern.get(..EFFECT_PREFIX.len())?;
        head.eq_ignore_ascii_case(EFFECT_PREFIX)
            .then(|| pattern[EFFECT_PREFIX.len()..].trim())
    }

    /// Whether the rule applies to the tool called `name` (canonical name). An
    /// `effect:` rule applies to no tool by name.
    pub fn matches(&self, name: &str) -> bool {
        if self.effect_pattern().is_some() {
            return false;
        }
        let pattern = self.pattern.trim();
        glob(pattern.as_bytes(), name.as_bytes())
            || glob(pattern.as_bytes(), name.replace('.', "_").as_bytes())
    }

    /// Whether the rule is an `effect:` rule that names `effect` itself.
    pub fn matches_effect(&self, effect: Effect) -> bool {
        self.effect_pattern()
            .is_some_and(|p| glob(p.to_ascii_lowercase().as_bytes(), effect.name().as_bytes()))
    }

    /// Whether the rule is an `effect:` rule that acts on a call with `effect`: a
    /// deny naming an effect that `effect` includes, an allow naming one that
    /// includes `effect`.
    pub fn covers_effect(&self, effect: Effect) -> bool {
        self.covering(effect).is_some()
    }

    /// The effect named by this `effect:` rule by which it acts on a call with
    /// `effect` ([`covers_effect`](Self::covers_effect)); `effect` itself first.
    pub fn covering(&self, effect: Effect) -> Option<Effect> {
        let acts = |named: Effect| match self.behavior {
            RuleBehavior::Deny => effect.includes(named),
            RuleBehavior::Allow => named.includes(effect),
        };
        std::iter::once(effect)
            .chain(Effect::ALL)
            .find(|named| acts(*named) && self.matches_effect(*named))
    }
}

/// `*` matches any run (also empty), `?` one byte, anything else itself.
/// Iterative with one backtrack point, so no pattern can take exponential time.
pub(crate) fn glob(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == b'?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_canonical_and_mcp_names() {
        let rule = PermissionRule::allow("debug.*");
        assert!(rule.matches("debug.evaluate"));
        assert!(!rule.matches("other.evaluate"));
        assert!(PermissionRule::deny("debug_evaluate").matches("debug.evaluate"));
        assert!(PermissionRule::deny("debug.step_*").matches("debug.step_over"));
        assert!(!PermissionRule::deny("debug.step_*").matches("debug.stack_trace"));
        assert!(PermissionRule::deny("debug.?hreads").matches("debug.threads"));
        assert!(PermissionRule::deny("*").matches("debug.launch"));
        assert!(!PermissionRule::deny("debug.eval").matches("debug.evaluate"));
        assert!(PermissionRule::deny("*.*e").matches("debug.evaluate"));
    }

    #[test]
    fn effect_rules_match_effects_and_no_tool() {
        let host = PermissionRule::deny("effect:host");
        assert!(host.matches_effect(Effect::Host));
        assert!(!host.matches_effect(Effect::Code));
        assert!(!host.matches("debug.evaluate"), "not a tool pattern");
        assert!(!PermissionRule::allow("*").matches_effect(Effect::Read));
        let every = PermissionRule::allow(" Effect:* ");
        assert!(Effect::ALL.into_iter().all(|e| every.matches_effect(e)));
        assert!(PermissionRule::allow("effect:READ").matches_effect(Effect::Read));
    }

    #[test]
    fn a_deny_reaches_every_effect_that_includes_it_and_an_allow_what_it_includes() {
        let code = PermissionRule::deny("effect:code");
        assert_eq!(code.covering(Effect::Host), Some(Effect::Code));
        assert_eq!(code.covering(Effect::Code), Some(Effect::Code));
        assert!(!code.covers_effect(Effect::Control) && !code.covers_effect(Effect::Start));
        let control = PermissionRule::deny("effect:control");
        for effect in [Effect::Start, Effect::Code, Effect::Foreign, Effect::Host] {
            assert!(control.covers_effect(effect), "{effect}");
        }
        assert!(!control.covers_effect(Effect::Read));
        let host = PermissionRule::allow("effect:host");
        assert!(Effect::ALL.into_iter().all(|e| host.covers_effect(e)));
        let allow_code = PermissionRule::allow("effect:code");
        assert!(allow_code.covers_effect(Effect::Control));
        assert!(
            !allow_code.covers_effect(Effect::Host) && !allow_code.covers_effect(Effect::Start)
        );
        assert!(!PermissionRule::deny("debug.*").covers_effect(Effect::Host));
    }

    #[test]
    fn a_flag_naming_no_effect_is_an_error_saying_which_there_are() {
        let err = PermissionRule::parse(RuleBehavior::Allow, "effect:hots").unwrap_err();
        assert!(err.contains("hots") && err.contains("foreign"), "{err}");
        assert!(PermissionRule::parse(RuleBehavior::Deny, " ").is_err());
        let ok = PermissionRule::parse(RuleBehavior::Deny, " effect:host ").unwrap();
        assert_eq!(ok.pattern, "effect:host");
        assert!(PermissionRule::parse(RuleBehavior::Allow, "effect:c*").is_ok());
        assert!(PermissionRule::parse(RuleBehavior::Allow, "debug.evaluate").is_ok());
    }
}
