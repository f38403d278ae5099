//! [`PermissionRule`]: allow or deny the tools whose names match a pattern.

use serde::{Deserialize, Serialize};

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

    /// Whether the rule applies to the tool called `name` (canonical name).
    pub fn matches(&self, name: &str) -> bool {
        let pattern = self.pattern.trim();
        glob(pattern.as_bytes(), name.as_bytes())
            || glob(pattern.as_bytes(), name.replace('.', "_").as_bytes())
    }
}

/// `*` matches any run (also empty), `?` one byte, anything else itself.
/// Iterative with one backtrack point, so no pattern can take exponential time.
fn glob(pattern: &[u8], text: &[u8]) -> bool {
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
}
