//! Tools named as the caller calls them: a catalogue's descriptions, errors, hints and
//! "allowed now" lists say `debug_launch` to an MCP client and `debug.launch` to the
//! Rust API ([`ToolNames`]), and an "allowed now" list names only the tools the
//! catalogue serves (issue 28, item 13).

use std::sync::Arc;

use crate::tools::catalogue::context::Context;
use crate::tools::{catalogue_tools, served, ToolCatalogue, ToolError, ToolNames, ToolResult};

impl ToolCatalogue {
    /// Name the tools as `names` in every text a caller reads: descriptions, errors,
    /// hints and "allowed now" lists (the MCP server serves [`ToolNames::Mcp`]). A
    /// call takes either name whatever this says.
    pub fn with_tool_names(mut self, names: ToolNames) -> Self {
        if names == self.ctx.names {
            return self;
        }
        // A person at the shell reads no tool descriptions: they keep the tools' names.
        let described = match names {
            ToolNames::Cli => ToolNames::Canonical,
            names => names,
        };
        self.tools = Arc::new(served(self.profile, &self.ctx.bounds, described));
        self.ctx = Arc::new(Context {
            names,
            ..self.context()
        });
        self
    }

    /// How the texts of this catalogue name the tools.
    pub fn tool_names(&self) -> ToolNames {
        self.ctx.names
    }

    /// Those of `tools` (canonical names) that this catalogue serves, as its caller
    /// calls them: what an "allowed now" list says.
    /// At the command line, the flags and commands among them, each once.
    pub fn as_served(&self, tools: &[&str]) -> Vec<String> {
        let served = tools
            .iter()
            .filter(|name| self.tools.iter().any(|t| t.spec.name == **name));
        match self.ctx.names {
            ToolNames::Cli => {
                let mut terms: Vec<String> = Vec::new();
                for term in served.filter_map(|name| super::cli_names::cli_term(name)) {
                    if !terms.iter().any(|t| t == term) {
                        terms.push(term.to_string());
                    }
                }
                terms
            }
            names => served.map(|name| names.of(name)).collect(),
        }
    }

    /// The answer to a call of a tool this catalogue does not serve: one of another
    /// profile says which and how to get it; an unknown name lists the tools.
    pub fn not_served(&self, name: &str) -> ToolError {
        let known = catalogue_tools()
            .iter()
            .find(|t| t.spec.name == name || t.spec.mcp_name() == name);
        let names = self.ctx.names;
        match known {
            Some(tool) => ToolError::invalid(
                format!(
                    "{} is not in the `{}` tool profile served here",
                    names.of(tool.spec.name),
                    self.profile
                ),
                "the `all` profile serves it: start the server with `--tools all` \
                 (ToolCatalogue::with_profile(ToolProfile::All))",
            ),
            None => {
                let tools: Vec<String> = self.tools.iter().map(|t| names.of(t.spec.name)).collect();
                ToolError::invalid(
                    format!("no tool named `{name}`"),
                    format!("the tools are: {}", tools.join(", ")),
                )
            }
        }
    }

    /// An error result as the caller calls the tools it names (its other texts name
    /// them so as they are written, through [`Context::tool`]).
    pub(in crate::tools) fn named_for_caller(&self, result: ToolResult) -> ToolResult {
        let names = self.ctx.names;
        match result.error() {
            Some(mut err) if names != ToolNames::Canonical => {
                err.error = names.in_text(&err.error);
                err.hint = names.in_hint(&err.hint);
                err.into()
            }
            _ => result,
        }
    }
}
