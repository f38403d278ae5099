//! [`ToolProfile`]: which tools a catalogue serves. Every tool listed costs every
//! conversation its bytes, so the default is the core profile: the find-the-bug loop
//! (start, breakpoints, run control, inspect, evaluate, output, end) in a few tools.
//! `all` serves one tool per DAP request besides.

use std::fmt;
use std::str::FromStr;

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

/// The tools of the core profile, in the order the catalogue lists them, each with
/// the arguments its core schema leaves out. A left-out argument is still accepted (an
/// agent that knows it loses nothing); it is just not described in every
/// conversation. `all` describes every one.
const CORE: &[(&str, &[&str])] = &[
    (
        "debug.launch",
        &[
            "cwd",
            "module",
            "runner",
            "filters",
            "launch_args",
            "stdin_file",
            "breakpoints.hit_condition",
            "breakpoints.expected_text",
            "breakpoints.near_line",
        ],
    ),
    (
        "debug.attach",
        &["cwd", "breakpoints", "filters", "watch", "timeout"],
    ),
    (
        "debug.set_breakpoint",
        &["hit_condition", "expected_text", "near_line"],
    ),
    ("debug.remove_breakpoint", &["near_line"]),
    ("debug.continue", &["thread_id", "watch"]),
    (
        "debug.step",
        &["granularity", "target_id", "single_thread", "thread_id"],
    ),
    ("debug.pause", &["thread_id", "watch"]),
    ("debug.wait", &[]),
    ("debug.stack_trace", &[]),
    ("debug.variables", &["filter", "max_chars"]),
    ("debug.evaluate", &["context", "max_chars"]),
    ("debug.output", &["max_bytes"]),
    ("debug.watch", &[]),
    ("debug.trace", &["max_rows"]),
    ("debug.sessions", &[]),
    ("debug.terminate", &[]),
    ("debug.disconnect", &[]),
];

impl ToolProfile {
    /// Whether this profile serves the tool `name` (canonical: `debug.launch`).
    pub fn serves(self, name: &str) -> bool {
        match self {
            ToolProfile::All => true,
            ToolProfile::Core => CORE.iter().any(|(core, _)| *core == name),
        }
    }

    /// Where the profile lists tool `name`: the core tools in the loop's order, every
    /// tool of `all` in the catalogue's.
    pub(crate) fn rank(self, name: &str) -> usize {
        match self {
            ToolProfile::All => 0,
            ToolProfile::Core => CORE
                .iter()
                .position(|(core, _)| *core == name)
                .unwrap_or(CORE.len()),
        }
    }

    /// The arguments of tool `name` that this profile's schema leaves out.
    pub(crate) fn left_out(self, name: &str) -> &'static [&'static str] {
        match self {
            ToolProfile::All => &[],
            ToolProfile::Core => CORE
                .iter()
                .find(|(core, _)| *core == name)
                .map_or(&[], |(_, left_out)| left_out),
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
        let tools = crate::tools::all_tools();
        for (name, left_out) in CORE {
            let tool = tools
                .iter()
                .find(|t| t.spec.name == *name)
                .unwrap_or_else(|| panic!("core tool {name} is not a tool"));
            for argument in *left_out {
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
