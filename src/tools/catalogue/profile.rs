//! [`ToolProfile`]: which tools a catalogue serves. Every tool listed costs every
//! conversation its bytes, so the default is the core profile: the find-the-bug loop
//! (start, breakpoints, run control, inspect, evaluate, output, end) in a few tools.
//! `all` serves one tool per DAP request besides.

use std::fmt;
use std::str::FromStr;

use crate::tools::catalogue::def::ToolDef;

/// Which tools a [`ToolCatalogue`](crate::tools::ToolCatalogue) lists and calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ToolProfile {
    /// The find-the-bug loop: launch (a program or one test) or attach, set and
    /// remove breakpoints, continue, step, pause and wait, read the stack, variables
    /// and output, evaluate, watch, read tracepoints, list, end and detach from sessions.
    #[default]
    Core,
    /// Every tool: the core ones, and one per DAP request besides (memory,
    /// disassembly, data breakpoints, goto, reverse execution, custom requests...),
    /// and `debug.share` (sessions shared between clients, which only a server of
    /// several clients has; it would take the core list past its budget).
    All,
}

/// Where a tool of the core profile stands in the find-the-bug loop: the core list
/// gives the stages in this order, and the tools of one stage in the catalogue's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Stage {
    /// Launch or attach.
    Start,
    /// Set and remove breakpoints.
    Breakpoints,
    /// Move the program on: continue, step.
    Run,
    /// Get it to a stop: pause, wait.
    Stop,
    /// Read the stack and the variables, evaluate.
    Inspect,
    /// Read what it printed, watched and traced.
    Read,
    /// List, end and detach from sessions.
    End,
}

/// A tool's place in the core profile: its stage, and the arguments its core schema
/// leaves out. A left-out argument is still accepted (an agent that knows it loses
/// nothing); it is just not described in every conversation. `all` describes every one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CorePlace {
    pub stage: Stage,
    pub left_out: &'static [&'static str],
}

impl ToolProfile {
    /// Whether this profile serves the tool `name` (canonical: `debug.launch`).
    pub fn serves(self, name: &str) -> bool {
        match self {
            ToolProfile::All => true,
            ToolProfile::Core => crate::tools::catalogue_tools()
                .iter()
                .any(|t| t.spec.name == name && self.serves_tool(t)),
        }
    }

    /// Whether this profile serves `tool`.
    pub(crate) fn serves_tool(self, tool: &ToolDef) -> bool {
        match self {
            ToolProfile::All => true,
            ToolProfile::Core => tool.core.is_some(),
        }
    }

    /// Where the profile lists `tool`: the core tools in the loop's order, every tool
    /// of `all` in the catalogue's (a stable sort keeps the catalogue's within a rank).
    pub(crate) fn rank(self, tool: &ToolDef) -> Option<Stage> {
        match self {
            ToolProfile::All => None,
            ToolProfile::Core => tool.core.map(|place| place.stage),
        }
    }

    /// The arguments of `tool` that this profile's schema leaves out.
    pub(crate) fn left_out(self, tool: &ToolDef) -> &'static [&'static str] {
        match (self, tool.core) {
            (ToolProfile::Core, Some(place)) => place.left_out,
            _ => &[],
        }
    }

    /// Whether this profile's tools declare the schema of their result (MCP's
    /// `outputSchema`), where it has a fixed shape. Only `all` does: the core list's
    /// budget has no room for them.
    pub(crate) fn serves_output_schemas(self) -> bool {
        matches!(self, ToolProfile::All)
    }

    /// The profile's name, as `--tools` takes it.
    pub fn name(self) -> &'static str {
        match self {
            ToolProfile::Core => "core",
            ToolProfile::All => "all",
        }
    }
}

impl fmt::Display for ToolProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ToolProfile {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "core" => Ok(ToolProfile::Core),
            "all" => Ok(ToolProfile::All),
            other => Err(format!("no tool profile `{other}`: pass core or all")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_core_tool_and_left_out_argument_exists() {
        for tool in crate::tools::all_tools() {
            let name = tool.spec.name;
            for argument in ToolProfile::Core.left_out(&tool) {
                let mut schema = tool.spec.input_schema.clone();
                assert!(
                    crate::tools::catalogue::def::leave_out(&mut schema, argument),
                    "{name} has no {argument}"
                );
                let required = tool.spec.input_schema.get("required");
                let required = required.and_then(|r| r.as_array()).cloned();
                assert!(
                    !required.unwrap_or_default().contains(&(*argument).into()),
                    "{name}: a required argument cannot be left out"
                );
            }
        }
    }

    #[test]
    fn profiles_parse_by_name_and_core_is_a_part_of_all() {
        assert_eq!("core".parse(), Ok(ToolProfile::Core));
        assert_eq!("all".parse(), Ok(ToolProfile::All));
        assert!("most"
            .parse::<ToolProfile>()
            .unwrap_err()
            .contains("core or all"));
        assert_eq!(ToolProfile::default(), ToolProfile::Core);
        assert!(ToolProfile::Core.serves("debug.launch"));
        assert!(!ToolProfile::Core.serves("debug.read_memory"));
        assert!(ToolProfile::All.serves("debug.read_memory"));
    }
}
