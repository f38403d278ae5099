//! [`Bounds`]: how much one tool result may carry, so that a deep stack, a huge object
//! or a chatty program cannot flood an agent's context. Whatever a bound cuts, the
//! result says so and says how to get the rest.

use std::time::Duration;

use crate::tools::catalogue::spec::ToolError;

/// Frames a `debug.stack_trace` returns unless `levels` asks for more: 20.
pub const DEFAULT_MAX_FRAMES: usize = 20;

/// Frames one `debug.stack_trace` call returns at most, whatever `levels` asks: 200
/// (a runaway recursion can be thousands deep, about 90 bytes a frame). The rest are
/// reached with `start_frame`.
pub const DEFAULT_MAX_FRAMES_PER_CALL: usize = 200;

/// Characters of values one `debug.variables` call returns in all: 64 KiB. With the
/// default 1024 characters per value and 50 variables a page never reaches it; a
/// `max_chars` raised towards the output bound would (50 × 16 KiB), so the page ends
/// early at this budget, says so, and the rest are reached with `offset`.
pub const DEFAULT_MAX_VARIABLES_CHARS: usize = 64 * 1024;

/// Threads a `debug.threads` call lists: 100 (a Go program can have thousands of
/// goroutines). The rest are reached with `offset`.
pub const DEFAULT_MAX_THREADS: usize = 100;

/// Variables returned per call of `debug.variables` (and locals in a stop summary,
/// see [`DEFAULT_STOP_LOCALS`]): 50. The rest are reached with `offset`.
pub const DEFAULT_MAX_VARIABLES: usize = 50;

/// Characters kept of one value (a variable's or an evaluation's): 1024. A longer
/// value is cut and marked; `max_chars` asks for more, up to the output bound.
pub const DEFAULT_MAX_VALUE_CHARS: usize = 1024;

/// Bytes of program output per `debug.output` call: 16 KiB. The rest is read by
/// passing the returned `next` as `since`.
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 16 * 1024;

/// Characters kept of an error message: 1024. Longer ones (an adapter's traceback, a
/// build log) keep their end, where the cause usually is.
pub const DEFAULT_MAX_ERROR_CHARS: usize = 1024;

/// Longest expression a tool passes to the adapter: 10,000 characters. It holds for
/// `debug.evaluate`'s expression, `debug.set_variable`'s value, `debug.set_expression`'s
/// expression and value, `debug.completions`' text, and `debug.custom_request`'s
/// arguments (as JSON).
pub const DEFAULT_MAX_EXPRESSION_CHARS: usize = 10_000;

/// Source lines shown on each side of the stopped line in a stop summary: 3.
pub const DEFAULT_SOURCE_CONTEXT_LINES: usize = 3;

/// Locals of the top frame shown in a stop summary: 20 (all of them are one
/// `debug.variables` call away).
pub const DEFAULT_STOP_LOCALS: usize = 20;

/// Bytes of the program's output (stdout and stderr since the previous stop) a stop or
/// end result carries: 2 KiB, the newest part; `debug.output` reads the rest.
pub const DEFAULT_STOP_OUTPUT_BYTES: usize = 2 * 1024;

/// Bytes a result at a stop (launch, attach, continue, a step, pause, wait) carries at
/// most, its structured content and its text together (an MCP client receives both):
/// 8 KiB. The stop's place, source, exception, the tracepoint note and the output tail
/// (whose own bound is [`DEFAULT_STOP_OUTPUT_BYTES`]) come first; watches, then locals,
/// fill what is left, and those left out are counted and said to be one call away.
pub const DEFAULT_STOP_RESULT_BYTES: usize = 8 * 1024;

/// Characters kept of each value (a local's, a watch's) and each source line in a
/// result at a stop: 200, so that more of them fit its bytes. debug.variables and
/// debug.evaluate give whole values (`max_chars`).
pub const DEFAULT_STOP_VALUE_CHARS: usize = 200;

/// How long a Rust test's crate may take to build (`cargo test --no-run`) before a
/// `debug.launch` with `test` gives up: 10 minutes.
pub const DEFAULT_TEST_BUILD_TIMEOUT: Duration = Duration::from_secs(600);

/// How long a control action (continue, step, pause, wait) waits for the program to
/// stop or end when the call gives no `timeout`: 30 s. Past it the answer is
/// `running` with `timed_out: true`.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(30);

/// The longest `timeout` a call may ask for: 300 s (longer ones are lowered to it).
pub const MAX_WAIT: Duration = Duration::from_secs(300);

/// How long `debug.launch` and `debug.attach` wait for a first stop when no breakpoint
/// and no stop on entry was asked for (a crash or a quick exit is then reported at
/// once): 5 s. With breakpoints they wait [`DEFAULT_WAIT`].
pub const DEFAULT_INITIAL_STOP_WAIT: Duration = Duration::from_secs(5);

/// Entries of a list result (modules, loaded sources, completions, step-in and goto
/// targets, breakpoint locations, tracepoint rows) per call: 100. The rest are reached with `offset`.
pub const DEFAULT_MAX_ITEMS: usize = 100;

/// Instructions per `debug.disassemble` call: 100.
pub const DEFAULT_MAX_INSTRUCTIONS: usize = 100;

/// Instructions `debug.disassemble` shows when `instruction_count` is not given: 20
/// (at most [`DEFAULT_MAX_INSTRUCTIONS`], or whatever `max_instructions` is set to).
pub const DEFAULT_INSTRUCTION_COUNT: usize = 20;

/// Bytes per `debug.read_memory` or `debug.write_memory` call: 4 KiB. Read on with
/// `offset`; write larger blocks in pieces.
pub const DEFAULT_MAX_MEMORY_BYTES: usize = 4096;

/// The largest count or index a tool passes on to an adapter: 2^31 - 1. Not a bound
/// of dapvisor's own: DAP's integers are read as 32-bit by adapters, so a larger
/// `offset` or `levels` is refused (400) rather than sent wrapped or cut.
pub const MAX_ADAPTER_INT: usize = i32::MAX as usize;

/// The least [`Bounds::stop_result_bytes`] a setter takes: 4 KiB.
pub const MIN_STOP_RESULT_BYTES: usize = 4 * 1024;

/// The limits a [`ToolCatalogue`](crate::tools::ToolCatalogue) applies to its results.
/// `Bounds::default()` has every default above; each has a setter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounds {
    /// See [`DEFAULT_MAX_FRAMES`].
    pub max_frames: usize,
    /// See [`DEFAULT_MAX_FRAMES_PER_CALL`].
    pub max_frames_per_call: usize,
    /// See [`DEFAULT_MAX_VARIABLES_CHARS`].
    pub max_variables_chars: usize,
    /// See [`DEFAULT_MAX_THREADS`].
    pub max_threads: usize,
    /// See [`DEFAULT_MAX_VARIABLES`].
    pub max_variables: usize,
    /// See [`DEFAULT_MAX_VALUE_CHARS`].
    pub max_value_chars: usize,
    /// See [`DEFAULT_MAX_OUTPUT_BYTES`].
    pub max_output_bytes: usize,
    /// See [`DEFAULT_MAX_ERROR_CHARS`].
    pub max_error_chars: usize,
    /// See [`DEFAULT_MAX_EXPRESSION_CHARS`].
    pub max_expression_chars: usize,
    /// See [`DEFAULT_SOURCE_CONTEXT_LINES`].
    pub source_context_lines: usize,
    /// See [`DEFAULT_STOP_LOCALS`].
    pub stop_locals: usize,
    /// See [`DEFAULT_STOP_OUTPUT_BYTES`].
    pub stop_output_bytes: usize,
    /// See [`DEFAULT_STOP_RESULT_BYTES`].
    pub stop_result_bytes: usize,
    /// See [`DEFAULT_STOP_VALUE_CHARS`].
    pub stop_value_chars: usize,
    /// See [`DEFAULT_TEST_BUILD_TIMEOUT`].
    pub test_build_timeout: Duration,
    /// See [`DEFAULT_WAIT`].
    pub wait: Duration,
    /// See [`DEFAULT_INITIAL_STOP_WAIT`].
    pub initial_stop_wait: Duration,
    /// See [`DEFAULT_MAX_ITEMS`].
    pub max_items: usize,
    /// See [`DEFAULT_MAX_INSTRUCTIONS`].
    pub max_instructions: usize,
    /// See [`DEFAULT_INSTRUCTION_COUNT`].
    pub instruction_count: usize,
    /// See [`DEFAULT_MAX_MEMORY_BYTES`].
    pub max_memory_bytes: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Self {
            max_frames: DEFAULT_MAX_FRAMES,
            max_frames_per_call: DEFAULT_MAX_FRAMES_PER_CALL,
            max_variables_chars: DEFAULT_MAX_VARIABLES_CHARS,
            max_threads: DEFAULT_MAX_THREADS,
            max_variables: DEFAULT_MAX_VARIABLES,
            max_value_chars: DEFAULT_MAX_VALUE_CHARS,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
            max_error_chars: DEFAULT_MAX_ERROR_CHARS,
            max_expression_chars: DEFAULT_MAX_EXPRESSION_CHARS,
            source_context_lines: DEFAULT_SOURCE_CONTEXT_LINES,
            stop_locals: DEFAULT_STOP_LOCALS,
            stop_output_bytes: DEFAULT_STOP_OUTPUT_BYTES,
            stop_result_bytes: DEFAULT_STOP_RESULT_BYTES,
            stop_value_chars: DEFAULT_STOP_VALUE_CHARS,
            test_build_timeout: DEFAULT_TEST_BUILD_TIMEOUT,
            wait: DEFAULT_WAIT,
            initial_stop_wait: DEFAULT_INITIAL_STOP_WAIT,
            max_items: DEFAULT_MAX_ITEMS,
            max_instructions: DEFAULT_MAX_INSTRUCTIONS,
            instruction_count: DEFAULT_INSTRUCTION_COUNT,
            max_memory_bytes: DEFAULT_MAX_MEMORY_BYTES,
        }
    }
}

impl Bounds {
    /// The frames a `debug.stack_trace` without `levels` asks the adapter for: its
    /// page and one more (which tells whether there are more). The stop summary asks
    /// for the same, so that the agent's first look at the stack comes from the stop's
    /// cache instead of a second `stackTrace`.
    pub(crate) fn default_stack_levels(&self) -> usize {
        self.max_frames
            .min(self.max_frames_per_call)
            .saturating_add(1)
    }

    /// Set [`Self::max_frames`] (at least 1).
    pub fn max_frames(mut self, n: usize) -> Self {
        self.max_frames = n.max(1);
        self
    }

    /// Set [`Self::max_frames_per_call`] (at least 1).
    pub fn max_frames_per_call(mut self, n: usize) -> Self {
        self.max_frames_per_call = n.max(1);
        self
    }

    /// Set [`Self::max_variables_chars`] (at least 1; a page always holds at least
    /// one variable, so reading on never gets stuck).
    pub fn max_variables_chars(mut self, n: usize) -> Self {
        self.max_variables_chars = n.max(1);
        self
    }

    /// Set [`Self::max_threads`] (at least 1).
    pub fn max_threads(mut self, n: usize) -> Self {
        self.max_threads = n.max(1);
        self
    }

    /// Set [`Self::max_variables`] (at least 1).
    pub fn max_variables(mut self, n: usize) -> Self {
        self.max_variables = n.max(1);
        self
    }

    /// Set [`Self::max_value_chars`] (at least 1).
    pub fn max_value_chars(mut self, n: usize) -> Self {
        self.max_value_chars = n.max(1);
        self
    }

    /// Set [`Self::max_output_bytes`] (at least 1).
    pub fn max_output_bytes(mut self, n: usize) -> Self {
        self.max_output_bytes = n.max(1);
        self
    }

    /// Set [`Self::max_error_chars`] (at least 1).
    pub fn max_error_chars(mut self, n: usize) -> Self {
        self.max_error_chars = n.max(1);
        self
    }

    /// Set [`Self::max_expression_chars`].
    pub fn max_expression_chars(mut self, n: usize) -> Self {
        self.max_expression_chars = n;
        self
    }

    /// Set [`Self::source_context_lines`].
    pub fn source_context_lines(mut self, n: usize) -> Self {
        self.source_context_lines = n;
        self
    }

    /// Set [`Self::stop_locals`].
    pub fn stop_locals(mut self, n: usize) -> Self {
        self.stop_locals = n;
        self
    }

    /// Set [`Self::stop_output_bytes`] (0: no output in stop results).
    pub fn stop_output_bytes(mut self, bytes: usize) -> Self {
        self.stop_output_bytes = bytes;
        self
    }

    /// Set [`Self::stop_result_bytes`] (at least 4 KiB: room for the stop's place, its
    /// source and the output tail).
    pub fn stop_result_bytes(mut self, bytes: usize) -> Self {
        self.stop_result_bytes = bytes.max(MIN_STOP_RESULT_BYTES);
        self
    }

    /// Set [`Self::stop_value_chars`] (at least 16).
    pub fn stop_value_chars(mut self, n: usize) -> Self {
        self.stop_value_chars = n.max(16);
        self
    }

    /// Set [`Self::test_build_timeout`] (at least 1 s).
    pub fn test_build_timeout(mut self, deadline: Duration) -> Self {
        self.test_build_timeout = deadline.max(Duration::from_secs(1));
        self
    }

    /// Set [`Self::wait`] (at most [`MAX_WAIT`]).
    pub fn wait(mut self, wait: Duration) -> Self {
        self.wait = wait.min(MAX_WAIT);
        self
    }

    /// Set [`Self::initial_stop_wait`] (at most [`MAX_WAIT`]).
    pub fn initial_stop_wait(mut self, wait: Duration) -> Self {
        self.initial_stop_wait = wait.min(MAX_WAIT);
        self
    }

    /// Set [`Self::max_items`] (at least 1).
    pub fn max_items(mut self, n: usize) -> Self {
        self.max_items = n.max(1);
        self
    }

    /// Set [`Self::max_instructions`] (at least 1).
    pub fn max_instructions(mut self, n: usize) -> Self {
        self.max_instructions = n.max(1);
        self
    }

    /// Set [`Self::instruction_count`] (at least 1; a call shows at most
    /// [`Self::max_instructions`] whatever this says).
    pub fn instruction_count(mut self, n: usize) -> Self {
        self.instruction_count = n.max(1);
        self
    }

    /// Set [`Self::max_memory_bytes`] (at least 1).
    pub fn max_memory_bytes(mut self, n: usize) -> Self {
        self.max_memory_bytes = n.max(1);
        self
    }

    /// A 400 when `text`, the call's `what`, is longer than
    /// [`Self::max_expression_chars`].
    pub(crate) fn check_expression(&self, what: &str, text: &str) -> Result<(), ToolError> {
        let chars = text.chars().count();
        if chars > self.max_expression_chars {
            return Err(ToolError::invalid(
                format!(
                    "{what} is {chars} characters long; the limit is {}",
                    self.max_expression_chars
                ),
                "pass something shorter, or do it in several smaller steps",
            ));
        }
        Ok(())
    }

    /// The wait a call asked for in seconds, or the default; clamped to [`MAX_WAIT`].
    /// Negative or non-finite requests count as no wait at all.
    pub(crate) fn wait_for(&self, timeout_secs: Option<f64>) -> Duration {
        match timeout_secs {
            None => self.wait,
            Some(secs) if secs.is_finite() && secs > 0.0 => {
                Duration::from_secs_f64(secs.min(MAX_WAIT.as_secs_f64()))
            }
            Some(_) => Duration::ZERO,
        }
    }
}

/// `n` (the call's `what`) as an adapter takes it, or a 400 when it is past
/// [`MAX_ADAPTER_INT`].
pub(crate) fn adapter_int(n: usize, what: &str) -> Result<i64, ToolError> {
    if n > MAX_ADAPTER_INT {
        return Err(ToolError::invalid(
            format!("`{what}` reaches {n}, past the largest an adapter takes ({MAX_ADAPTER_INT})"),
            format!("pass a smaller `{what}`; no program has that many"),
        ));
    }
    Ok(n as i64)
}

/// The entries a page holds: the call's `count` up to `bound`, or the bound.
pub(crate) fn page_size(count: Option<usize>, bound: usize) -> Result<usize, ToolError> {
    match count {
        None => Ok(bound),
        Some(0) => Err(ToolError::invalid(
            "`count` is 0: a page holds at least one entry",
            format!("pass a count from 1 to {bound}, or leave it out for {bound}"),
        )),
        Some(n) => Ok(n.min(bound)),
    }
}

/// `text` cut to at most `max` characters. Returns the text and how many characters
/// were dropped (0 when it fit).
pub(crate) fn cut_chars(text: &str, max: usize) -> (String, usize) {
    match text.char_indices().nth(max) {
        None => (text.to_string(), 0),
        Some((at, _)) => (text[..at].to_string(), text[at..].chars().count()),
    }
}

/// `text` cut to about `max` characters: its first quarter (the headline) and its
/// last three quarters (where a traceback or build log names the cause), marked.
pub(crate) fn keep_ends(text: &str, max: usize) -> String {
    let total = text.chars().count();
    if total <= max {
        return text.to_string();
    }
    let head = max / 4;
    let tail = max - head;
    // The head ends where the bound says (a secret's known prefix there hides it
    // whole); the tail starts past a token the cut falls inside, whose second half
    // nothing would recognise.
    let offset = |chars: usize| {
        text.char_indices()
            .nth(chars)
            .map_or(text.len(), |(i, _)| i)
    };
    let head_end = offset(head);
    let tail_start = crate::redact::start_after_token(text, offset(total - tail)).max(head_end);
    let (start, end) = (&text[..head_end], &text[tail_start..]);
    let cut = total - start.chars().count() - end.chars().count();
    format!("{start}[… {cut} chars cut …]{end}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_chars_keeps_whole_characters_and_counts_the_rest() {
        assert_eq!(cut_chars("hello", 10), ("hello".to_string(), 0));
        assert_eq!(cut_chars("héllo", 2), ("hé".to_string(), 3));
        assert_eq!(cut_chars("", 0), (String::new(), 0));
    }

    #[test]
    fn keep_ends_keeps_the_headline_and_the_end() {
        assert_eq!(keep_ends("short", 10), "short");
        assert_eq!(keep_ends("abcdefghijkl", 8), "ab[… 4 chars cut …]ghijkl");
    }

    #[test]
    fn counts_past_what_adapters_take_are_refused() {
        assert_eq!(adapter_int(5, "offset").unwrap(), 5);
        assert_eq!(
            adapter_int(MAX_ADAPTER_INT, "offset").unwrap(),
            i32::MAX as i64
        );
        let err = adapter_int(usize::MAX, "offset").unwrap_err();
        assert_eq!(err.code, 400);
        assert!(err.error.contains("`offset`"), "{err}");
    }

    #[test]
    fn waits_are_clamped_and_bad_ones_do_not_wait() {
        let b = Bounds::default();
        assert_eq!(b.wait_for(None), DEFAULT_WAIT);
        assert_eq!(b.wait_for(Some(1e9)), MAX_WAIT);
        assert_eq!(b.wait_for(Some(-1.0)), Duration::ZERO);
        assert_eq!(b.wait_for(Some(f64::NAN)), Duration::ZERO);
        assert_eq!(b.wait_for(Some(2.5)), Duration::from_millis(2500));
    }
}
