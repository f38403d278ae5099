//! [`Redaction`]: the one place a catalogue's results, and what its server sends
//! beside them (resources, notifications), pass the [`redact`](crate::redact) module
//! on their way out. On by default; only the host turns it off
//! ([`ToolCatalogue::with_redaction`](crate::tools::ToolCatalogue::with_redaction),
//! `--redact off`), never an agent: no tool takes an argument for it; what it hides
//! beyond the built-in rules is the host's too
//! ([`ToolCatalogue::with_redaction_rules`](crate::tools::ToolCatalogue::with_redaction_rules)).

use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::redact::{redact_json, redact_result, redact_text, RedactLevel, RedactRules, Redactor};

use crate::tools::catalogue::spec::ToolResult;
use crate::tools::ToolCatalogue;

/// Whether to redact, and the secrets hidden so far (shared by every client of one
/// catalogue: a secret one client's call revealed by name is hidden from all).
#[derive(Debug, Clone)]
pub(crate) struct Redaction(Option<Arc<Mutex<Redactor>>>);

impl Default for Redaction {
    fn default() -> Self {
        Self::on(true)
    }
}

impl Redaction {
    /// Redaction on (by the built-in rules) or off.
    pub fn on(on: bool) -> Self {
        Self(on.then(Arc::default))
    }

    /// Redaction by `rules` (off at [`RedactLevel::Off`]).
    pub fn by(rules: RedactRules) -> Self {
        Self(
            (rules.level() != RedactLevel::Off)
                .then(|| Arc::new(Mutex::new(Redactor::new(Arc::new(rules))))),
        )
    }

    /// Whether it is on.
    pub fn is_on(&self) -> bool {
        self.0.is_some()
    }

    fn known(&self) -> Option<std::sync::MutexGuard<'_, Redactor>> {
        // A panic elsewhere cannot leave a list of strings half-changed.
        self.0
            .as_ref()
            .map(|k| k.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// A tool's result with its secrets hidden, in the structured content and the text
    /// alike; `arguments` are the call's (an evaluated `expression` that is only a path
    /// to a secret name hides the `result`).
    pub fn result(&self, arguments_expression: Option<&str>, mut result: ToolResult) -> ToolResult {
        let Some(mut redactor) = self.known() else {
            return result;
        };
        result.text = redact_result(
            &mut result.structured,
            &result.text,
            arguments_expression,
            &mut redactor,
        );
        result
    }

    /// `value` with its secrets hidden.
    pub fn json(&self, value: &mut Value) {
        if let Some(mut redactor) = self.known() {
            redact_json(value, &mut redactor);
        }
    }

    /// `text` with its secrets hidden.
    pub fn text(&self, text: &str) -> String {
        match self.known() {
            Some(mut redactor) => redact_text(text, &mut redactor),
            None => text.to_string(),
        }
    }
}

impl ToolCatalogue {
    /// Hide secrets in every result, resource and notification (`true`, the default:
    /// see [`crate::redact`] for what is found), or show values as the program holds
    /// them (`false`). For the host alone: no tool argument turns it off.
    pub fn with_redaction(mut self, on: bool) -> Self {
        self.redaction = Redaction::on(on);
        self.ctx = Arc::new(self.context());
        self
    }

    /// Hide secrets by `rules`: the built-in ones at a [`RedactLevel`] (`Strict` also
    /// hides every key-like string; `Off` hides nothing), with the names and patterns
    /// they add. For the host alone, as [`Self::with_redaction`] is.
    pub fn with_redaction_rules(mut self, rules: RedactRules) -> Self {
        self.redaction = Redaction::by(rules);
        self.ctx = Arc::new(self.context());
        self
    }

    /// Whether secrets are hidden ([`Self::with_redaction`]).
    pub fn redacts(&self) -> bool {
        self.redaction.is_on()
    }

    /// The redaction in force, for what the MCP server sends beside results.
    pub(crate) fn redaction(&self) -> &Redaction {
        &self.redaction
    }
}
