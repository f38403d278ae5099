//! The server's `instructions`, which a client puts before the agent once per
//! conversation: the find-the-bug loop in a few lines, by the tools' MCP names, and
//! in the core profile what it leaves out. Every byte is read in every conversation,
//! so they are held under [`MAX_INSTRUCTIONS_BYTES`].

use crate::tools::ToolProfile;

/// The most the instructions may take, in bytes: 1 KiB.
pub const MAX_INSTRUCTIONS_BYTES: usize = 1024;

/// The loop, for every profile.
const LOOP: &str = "dapvisor runs programs under real debuggers (Python, C/C++/Rust, Go, \
JavaScript). The loop:
1. debug_launch {program, breakpoints: [{file, line}]} (or `test`: one test) waits for the \
first stop: session_id, file, line, source, locals.
2. Read: debug_evaluate, debug_variables (scope \"Locals\"), debug_stack_trace (frame ids).
3. Move: debug_step (kind over|in|out), debug_continue; debug_wait after timed_out.
4. Many values at once: `collect: [exprs]` on a breakpoint records them at each hit without \
stopping (debug_trace); debug_watch shows expressions at every stop.
5. debug_output for what it printed; debug_terminate at the end.
No breakpoints: a crash or uncaught exception stops where it happens. Errors carry a hint \
saying what to do next.";

/// What the core profile leaves out, said only there.
const CORE_LEAVES_OUT: &str = "
These are the core tools; `--tools all` adds one per DAP request (memory, disassembly, data \
breakpoints, set_variable, goto, restart, custom requests), debug_share and debug_expose.";

/// The instructions for a server serving `profile`.
pub fn instructions(profile: ToolProfile) -> String {
    match profile {
        ToolProfile::Core => format!("{LOOP}{CORE_LEAVES_OUT}"),
        _ => LOOP.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_profiles_instructions_fit_in_1_kib() {
        for profile in [ToolProfile::Core, ToolProfile::All] {
            let text = instructions(profile);
            eprintln!("instructions ({profile:?}): {} bytes", text.len());
            assert!(
                text.len() <= MAX_INSTRUCTIONS_BYTES,
                "{profile:?}: {} bytes",
                text.len()
            );
        }
        assert!(instructions(ToolProfile::Core).contains("--tools all"));
        assert!(!instructions(ToolProfile::All).contains("--tools all"));
    }
}
