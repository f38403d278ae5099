//! The prompts' texts (see `prompts.rs`): each a numbered plan in the core tools'
//! MCP names, the user's values written as JSON strings where the agent types them.

use serde_json::{json, Value};

use super::prompts::Given;

/// `value` as a JSON string: quotes, backslashes and line breaks escaped.
fn q(value: &str) -> String {
    Value::from(value).to_string()
}

/// `debug_failing_test`: run it, read the failure, stop where the value is made.
pub(super) fn failing_test(given: &Given) -> String {
    let test = q(given.required("test"));
    let (program, folder_note) = match given.get("program") {
        Some(program) => (format!(", \"program\": {}", q(program)), ""),
        None => (
            String::new(),
            " (add \"program\": the project, package or crate folder, when the id is relative \
             to it)",
        ),
    };
    format!(
        "Debug the failing test {test} with the dapvisor tools.

1. Run it: debug_launch {{\"test\": {test}{program}}}{folder_note}. The result that ends \
the run has `test.failure`: the runner's own words, the assertion and the values it \
compared. An uncaught exception stops where it is raised instead.
2. From the failure, pick the function that computes the wrong value and launch again with \
a breakpoint in it: debug_launch {{\"test\": {test}{program}, \"breakpoints\": [{{\"file\": \
FILE, \"line\": LINE}}]}}. To see a value at every pass without stopping, give the \
breakpoint \"collect\": [\"expr\", ...] and read the rows with debug_trace.
3. At the stop, read `stop.locals`; test each guess with debug_evaluate {{\"session_id\": \
ID, \"expression\": ...}}. debug_stack_trace lists the callers; their `id` is the frame_id \
debug_evaluate and debug_variables take.
4. Move with debug_step {{\"session_id\": ID, \"kind\": \"over\"}} (or \"in\", \"out\") and \
debug_continue until the first line where a value differs from what it should be.
5. debug_terminate {{\"session_id\": ID}}. State the cause with the values you saw, fix it, \
and run step 1 again: the end must say the test passed."
    )
}

/// `find_crash`: run without breakpoints, so the crash stops where it happens.
pub(super) fn crash(given: &Given) -> String {
    let program = q(given.required("program"));
    let args = program_args(given.get("args").unwrap_or(""));
    let args = match args.is_empty() {
        true => String::new(),
        false => format!(", \"args\": {}", json!(args)),
    };
    format!(
        "Find why {program} crashes, with the dapvisor tools.

1. Run it with no breakpoints: debug_launch {{\"program\": {program}{args}}}. An uncaught \
exception, a panic or a fatal signal stops it where it happens: `stop` has the reason, the \
`exception`, the file, line, source and locals. If it ends instead, the result has \
`exit_code` and the end of its output; debug_output {{\"session_id\": ID}} has all of it.
2. debug_stack_trace {{\"session_id\": ID}}: find the innermost frame in the program's own \
code (not the runtime's or a library's).
3. In that frame and its callers (a frame's `id` is its frame_id): debug_variables \
{{\"session_id\": ID, \"frame_id\": F, \"scope\": \"Locals\"}} and debug_evaluate \
{{\"session_id\": ID, \"frame_id\": F, \"expression\": ...}}, to find the bad value (null, \
out of range, the wrong type or size).
4. To see how it got there: debug_terminate, launch again with a breakpoint where that \
value is made (\"breakpoints\": [{{\"file\": FILE, \"line\": LINE}}]), and step towards the \
crash with debug_step {{\"session_id\": ID, \"kind\": \"over\"}}.
5. debug_terminate {{\"session_id\": ID}}. Report the cause, the line, and the values that \
show it."
    )
}

/// `explain_wrong_value`: stop there watching it, split it, trace its parts back.
pub(super) fn wrong_value(given: &Given) -> String {
    let file = q(given.required("file"));
    let line = given.required("line");
    let expression = q(given.required("expression"));
    let (program, note) = match given.get("program") {
        Some(program) => (q(program), ""),
        None => (
            file.clone(),
            " (when the file is not what runs, such as a C or Rust source, put the binary \
             in \"program\", or launch the test with \"test\")",
        ),
    };
    format!(
        "Explain how {expression} got its value at {file} line {line}, with the dapvisor tools.

1. Stop there, watching it: debug_launch {{\"program\": {program}, \"breakpoints\": \
[{{\"file\": {file}, \"line\": {line}}}], \"watch\": [{expression}]}}{note}. The stop shows \
the locals and the watch's value.
2. Split it: debug_evaluate {{\"session_id\": ID, \"expression\": ...}} on each part of it \
(its operands, the calls in it), to find which part is wrong.
3. Follow that part back: debug_stack_trace lists the callers, and debug_evaluate with a \
caller's frame_id shows what it passed in. To see every value it took over the run, launch \
again with a tracepoint where it is assigned, \"breakpoints\": [{{\"file\": FILE, \"line\": \
LINE, \"collect\": [PART, ...]}}], let it run (debug_continue) and read the rows with \
debug_trace.
4. Stop where the wrong value is made and step over it (debug_step {{\"session_id\": ID, \
\"kind\": \"over\"}}); each stop's `watches` say which value changed.
5. debug_terminate {{\"session_id\": ID}}. Explain the chain from the first wrong value to \
{file} line {line}, with the values you saw."
    )
}

/// A program's arguments: a JSON array of strings as it is, else words split on
/// spaces.
fn program_args(text: &str) -> Vec<String> {
    match serde_json::from_str::<Vec<String>>(text) {
        Ok(list) => list,
        Err(_) => text.split_whitespace().map(str::to_string).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_a_json_array_or_words() {
        assert_eq!(program_args("--n 3"), ["--n", "3"]);
        assert_eq!(program_args(r#"["a b", "c"]"#), ["a b", "c"]);
        assert!(program_args("  ").is_empty());
    }

    #[test]
    fn values_are_written_as_json_strings() {
        assert_eq!(q("say \"hi\"\n"), r#""say \"hi\"\n""#);
    }
}
