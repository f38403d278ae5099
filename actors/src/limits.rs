//! Every limit the runtime enforces, named, with its default.
//!
//! Each constant here is a default; the matching setter lives on the type that
//! enforces it (named in the constant's docs), so an embedding host can change
//! any of them without forking.

use std::time::Duration;

/// Largest `Content-Length` a frame may declare: 16 MiB.
/// Checked before the body is buffered. Set with `ContentLengthCodec::with_max_content_length`
/// or `RuntimeConfig::max_frame_bytes`.
pub const DEFAULT_MAX_CONTENT_LENGTH: usize = 16 * 1024 * 1024;

/// Largest header block (all header lines up to the blank line): 8 KiB.
/// Set with `ContentLengthCodec::with_max_header_length` or `RuntimeConfig::max_header_bytes`.
pub const DEFAULT_MAX_HEADER_LENGTH: usize = 8 * 1024;

/// The smallest [`DEFAULT_MAX_CONTENT_LENGTH`] a runtime accepts: 4 KiB. Below it an
/// adapter's answer to `initialize` (its capabilities) may not fit, and every session
/// would fail to start; `Runtime::start` refuses a `RuntimeConfig::max_frame_bytes`
/// below it.
pub const MIN_MAX_CONTENT_LENGTH: usize = 4 * 1024;

/// The smallest [`DEFAULT_MAX_HEADER_LENGTH`] a runtime accepts: 64 bytes, room for
/// `Content-Length: N` and the blank line. `Runtime::start` refuses a
/// `RuntimeConfig::max_header_bytes` below it.
pub const MIN_MAX_HEADER_LENGTH: usize = 64;

/// The most `variables` answers one `SessionHandle::variables` call reads to preview
/// the objects it returned, for an adapter that shows objects as their class and id
/// (JdiDapServer): 32. Past it, objects keep their ids.
pub const MAX_PREVIEW_READS: usize = 32;

/// The most elements, entries or fields one such preview shows, then `…`: 10.
pub const MAX_PREVIEW_ITEMS: usize = 10;

/// How long a launch under an adapter that loses an early resume (JdiDapServer) waits
/// before asking again whether the program is held at its start, before
/// `configurationDone` (`core/held_start.rs`): 50 ms. Each check is two requests
/// (`threads`, `stackTrace`); the whole wait is bounded by the handshake's deadline.
pub const HELD_CHECK_INTERVAL: Duration = Duration::from_millis(50);

/// The longest dapvisor reads again a process it caught in the middle of an `execve`
/// (which shows no environment, so no tree tag, until its new program starts) before
/// giving it up: 1 s (`transport/tagged.rs`). A sweep of an adapter's processes waits
/// so for each such process, and so does an attach's check of which session holds
/// its target. A process started with no environment at all is told at its first
/// reading again.
pub const MID_EXEC_WAIT: Duration = Duration::from_secs(1);

/// Bytes of answers a session keeps from one stop's reads (`threads`, `stackTrace`,
/// `scopes`, `variables`) to answer them again without the adapter: 1 MiB. An answer
/// that would go past it is given and not kept. Fixed.
pub const MAX_STOP_CACHE_BYTES: usize = 1024 * 1024;

/// Deadline for one DAP request when the caller gives none: 30 s.
/// Set with `RuntimeConfig::request_timeout`, or per request.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Shortest deadline a request may be given: 5 s. Shorter ones are raised to this.
pub const MIN_REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

/// Longest deadline a request may be given: 300 s. Longer ones are lowered to this.
pub const MAX_REQUEST_TIMEOUT: Duration = Duration::from_secs(300);

/// Deadline of a launch or attach handshake as a whole (`initialize` to the program
/// running), and of each of its requests, for an adapter family with no deadline of
/// its own (debugpy, js-debug, any other): 120 s. Generous, as `launch` may start a
/// slow program. dlv has [`DLV_LAUNCH_TIMEOUT`], the native debuggers
/// [`NATIVE_LAUNCH_TIMEOUT`]. Set for every family with
/// `RuntimeConfig::launch_timeout`, or per start (`LaunchSpec::launch_timeout`,
/// `AttachSpec::launch_timeout`, or a `SessionHandle::with_timeout` view's deadline);
/// clamped to [`MIN_REQUEST_TIMEOUT`]..=[`MAX_LAUNCH_TIMEOUT`].
pub const DEFAULT_LAUNCH_TIMEOUT: Duration = Duration::from_secs(120);

/// dlv's handshake deadline, where neither the start nor the runtime names one:
/// 300 s, as dlv's `debug` and `test` modes run `go build` (a large module, a cold
/// build cache) inside `launch`.
pub const DLV_LAUNCH_TIMEOUT: Duration = Duration::from_secs(300);

/// The native debuggers' handshake deadline (lldb-dap, CodeLLDB, gdb), where neither
/// the start nor the runtime names one: 180 s, as they load the program's symbols
/// (a large C++ or Rust binary with full debug info) inside `launch` or `attach`.
pub const NATIVE_LAUNCH_TIMEOUT: Duration = Duration::from_secs(180);

/// Longest deadline a launch or attach handshake may be given: 30 min.
pub const MAX_LAUNCH_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// The longest a wait for a stop (`SessionHandle::wait_for_stop`) lasts before it is
/// answered `TimedOut`, whatever it asked for: 1 hour. A wait keeps the session from
/// being reaped and holds a place in its request queue; wait again to go on.
pub const MAX_STOP_WAIT: Duration = Duration::from_secs(60 * 60);

/// How many sessions one runtime holds at once: 100. Set with `RuntimeConfig::max_sessions`.
pub const DEFAULT_MAX_SESSIONS: usize = 100;

/// How many breakpoints (source, function and exception filters together) one session
/// holds: 1000. Set with `RuntimeConfig::max_breakpoints`.
pub const DEFAULT_MAX_BREAKPOINTS: usize = 1000;

/// Bytes of debuggee output a session keeps: 128 KiB. Older output is trimmed and the
/// ring says so. Set with `RuntimeConfig::output_buffer_bytes`.
pub const DEFAULT_OUTPUT_BUFFER_BYTES: usize = 128 * 1024;

/// Tracepoint rows a session keeps: 10,000. Older rows are dropped and counted. Set
/// with `RuntimeConfig::max_trace_rows`.
pub const DEFAULT_MAX_TRACE_ROWS: usize = 10_000;

/// The most bytes of one value a tracepoint row keeps: 1 KiB (a longer one is cut and
/// ends in `…`; evaluate it at a breakpoint for the whole).
pub const MAX_TRACE_VALUE_BYTES: usize = 1024;

/// The most call patterns a session traces at once (`calls`): 64.
pub const MAX_CALL_PATTERNS: usize = 64;

/// The longest call pattern: 512 bytes.
pub const MAX_CALL_PATTERN_BYTES: usize = 512;

/// Calls a session records a second at most: 200. Each recorded call stops the
/// program twice inside the session (at its entry and its return, never shown); past
/// this rate calls run unrecorded for the rest of that second, and the session counts
/// them (`calls_dropped` in `debug.trace`). Set with `RuntimeConfig::max_calls_per_second`.
pub const DEFAULT_MAX_CALLS_PER_SECOND: u32 = 200;

/// The most expressions one tracepoint collects: 16.
pub const MAX_TRACE_EXPRESSIONS: usize = 16;

/// The most bytes of a tracepoint row held while its end has not come: 64 KiB (more
/// is taken for the program's own text).
pub const MAX_TRACE_PENDING_BYTES: usize = 64 * 1024;

/// The most output categories at once with a tracepoint row held for its end: 8
/// (DAP's own are `console`, `stdout`, `stderr`, `important`, `telemetry`; an adapter
/// names the rest). A row begun in a category past these is taken for text.
pub const MAX_TRACE_PENDING_CATEGORIES: usize = 8;

/// Bytes kept for error reports of each of an adapter's output streams that is not
/// DAP (its stderr; for an adapter reached over TCP, its stdout too): 8 KiB each.
/// Set with `RuntimeConfig::stderr_tail_bytes`.
pub const DEFAULT_STDERR_TAIL_BYTES: usize = 8 * 1024;

/// The smallest [`DEFAULT_STDERR_TAIL_BYTES`] a runtime accepts: 256 bytes. The tail
/// of an adapter's stdout also holds the line in which an adapter that picks its own
/// port names it (js-debug's banner), so a smaller one would never find the port.
/// `Runtime::start` refuses a `RuntimeConfig::stderr_tail_bytes` below it.
pub const MIN_STDERR_TAIL_BYTES: usize = 256;

/// How many bulk events (output, module, loadedSource, progress, invalidated, memory
/// and unknown adapter events, all together) a subscriber may have waiting before
/// newer ones are dropped for it and counted as missed: 1024. Lifecycle events are
/// never dropped. Set with `RuntimeConfig::subscriber_output_backlog`.
pub const DEFAULT_SUBSCRIBER_OUTPUT_BACKLOG: usize = 1024;

/// Items (lifecycle and bulk events together) that may wait unread for one event
/// subscriber before it is cut off with `Received::CutOff`: a subscriber that stopped
/// reading while an adapter floods thread or breakpoint events must not grow without
/// bound. At about 24 bytes a waiting item (the events themselves are shared), this
/// is about 6 MiB. Set with `RuntimeConfig::subscriber_max_waiting`.
pub const DEFAULT_SUBSCRIBER_MAX_WAITING: usize = 262_144;

/// How many agent requests one session may have waiting in its mailbox or in flight
/// before new ones are refused as busy: 256. A call given up on keeps its place while
/// a request of it is still with the adapter. Set with
/// `RuntimeConfig::max_queued_requests`.
pub const DEFAULT_MAX_QUEUED_REQUESTS: usize = 256;

/// Places past `max_queued_requests` kept for the calls that end a session
/// (terminate, disconnect) and read its state (snapshot, output, trace): 4. A session
/// whose queue is full of calls on a hung adapter is still ended in order (an attached
/// program detached from, its breakpoints taken out) rather than stopped with them in.
/// A reserve, not a limit a caller sets.
pub const ENDING_PLACES: usize = 4;

/// How long a TCP adapter may take to print its listening banner, or to accept the
/// connection; and how long an adapter that dials back (CodeLLDB) may take to connect
/// and name its token: 30 s. 10 s proved too short: CodeLLDB missed it once in a
/// release run of the suite on a loaded machine (it loads liblldb before it dials), and
/// a slow start only delays a launch where a missed one fails it. Set with
/// `RuntimeConfig::connect_timeout`.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a session waits for the adapter to exit after `disconnect` before its
/// process group is killed, and how long a runtime's shutdown lets each adapter
/// answer its `disconnect`: 2 s. Set with `RuntimeConfig::shutdown_grace`.
pub const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// After an adapter's output ends, how long its process may take to exit (and its
/// stderr to drain) before it is killed: 500 ms. Waiting lets the exit report carry the
/// exit status and the adapter's last words. Set with `RuntimeConfig::exit_wait`.
pub const DEFAULT_EXIT_WAIT: Duration = Duration::from_millis(500);

/// After an adapter's process exits, how long its output may take to end before the
/// connection is closed anyway: 1 s. Messages it wrote just before exiting are still
/// delivered; a process that inherited its pipes (a debuggee) may keep them open
/// forever. Set with `RuntimeConfig::output_drain_wait`.
pub const DEFAULT_OUTPUT_DRAIN_WAIT: Duration = Duration::from_secs(1);

/// How many responses that matched no request in flight (a wrong `request_seq`, an
/// answer after the deadline) a transport keeps, the most recent first, to report in
/// the timeout of a request that was waiting meanwhile: 4. Older ones are only
/// counted. Set with `RuntimeConfig::unmatched_responses_kept`.
pub const DEFAULT_UNMATCHED_RESPONSES_KEPT: usize = 4;

/// Events read from an adapter that its session has not handled yet, before the
/// transport stops reading (and an adapter that floods blocks on its own output):
/// 4096. Without it, a flood faster than the session handles events would pile up in
/// the actors' mailboxes without bound. Set with `RuntimeConfig::max_unhandled_events`.
pub const DEFAULT_MAX_UNHANDLED_EVENTS: usize = 4096;

/// Reads of debuggee output a transport forwards that its session has not handled
/// yet (dlv's debuggee writes to dlv's own stdout and stderr; `runInTerminal`
/// commands write to pipes of ours), before the transport stops reading them: 1024
/// reads of at most 4 KiB, so at most 4 MiB. A program printing faster than its
/// session keeps up then blocks on its own output, as at a terminal; nothing is
/// dropped. Set with `RuntimeConfig::max_unhandled_output`.
pub const DEFAULT_MAX_UNHANDLED_OUTPUT: usize = 1024;

/// Messages for an adapter waiting to be written to it (it reads its input slower
/// than requests come, or not at all): 4096. A request past it fails at once with
/// [`crate::SessionError::LimitExceeded`]; an answer to the adapter's own reverse
/// request holds the place its request took in [`DEFAULT_MAX_UNHANDLED_EVENTS`], so an
/// adapter that sends requests without reading the answers is no longer read. Set
/// with `RuntimeConfig::max_unwritten_messages`.
pub const DEFAULT_MAX_UNWRITTEN_MESSAGES: usize = 4096;

/// Frames an adapter connection may send that are JSON but not DAP messages (`{}`,
/// a response without `request_seq`) before the connection is ended as broken: 100.
/// Each fails the request it names, if any, and is logged at debug level (the first
/// one as a warning); one more ends the connection with an error that counts them, and
/// one warning that sums them up. 0 ends it at the first. Set with
/// `RuntimeConfig::max_malformed_frames`.
pub const DEFAULT_MAX_MALFORMED_FRAMES: usize = 100;

/// Processes one adapter connection's `runInTerminal` requests may have running at
/// once: 16. Each is reaped (and what it left behind ended) when it exits; a request
/// past the bound is answered with an error. Set with
/// `RuntimeConfig::max_terminal_processes`.
pub const DEFAULT_MAX_TERMINAL_PROCESSES: usize = 16;

/// Child sessions (`startDebugging`) one session tree may have at once: a session, its
/// children and theirs all count against their root's bound, so no adapter takes the
/// runtime's whole `max_sessions`: 32. A request past it is answered with an error.
/// Set with `RuntimeConfig::max_child_sessions`.
pub const DEFAULT_MAX_CHILD_SESSIONS: usize = 32;

/// Adapter restarts allowed per session within [`DEFAULT_RESTART_WINDOW`]; one more
/// crash fails the session. Set with `RuntimeConfig::restart_policy`.
pub const DEFAULT_MAX_RESTARTS: u32 = 5;

/// The sliding window the restart budget counts in.
pub const DEFAULT_RESTART_WINDOW: Duration = Duration::from_secs(60);

/// The delay before the first restart of a series; it doubles with each attempt.
pub const DEFAULT_RESTART_BACKOFF: Duration = Duration::from_millis(250);

/// The longest delay between restarts.
pub const DEFAULT_MAX_RESTART_BACKOFF: Duration = Duration::from_secs(30);

/// An adapter that ran this long after its last restart came up is stable: its next
/// crash starts a new series (the backoff starts over and the earlier restarts no
/// longer count against the budget): 60 s. Set with `RuntimeConfig::restart_policy`.
pub const DEFAULT_RESTART_STABLE: Duration = Duration::from_secs(60);

/// A session with no agent request for this long is terminated and removed. Set with
/// `RuntimeConfig::idle_limit`.
pub const DEFAULT_IDLE_LIMIT: Duration = Duration::from_secs(10 * 60);

/// The idle sweep runs at least this often (and at least twice per idle limit).
pub const MAX_IDLE_SWEEP_INTERVAL: Duration = Duration::from_secs(30);

/// How many ended sessions a runtime remembers, so that a request to one says how it
/// ended (reaped, failed) rather than a bare "not found".
pub const DEFAULT_ENDED_SESSIONS_REMEMBERED: usize = 1024;

// ---- Supervision: restart jitter and shutdown waits ----

/// The restart backoff is scaled by a random factor in `1 ± jitter`, so that sessions
/// that crashed together do not restart in lockstep: 0.2. Must be a number from 0 to
/// 1; `Runtime::start` refuses others. Set with `RuntimeConfig::restart_policy`
/// (`RestartPolicy::jitter`).
pub const DEFAULT_RESTART_JITTER: f64 = 0.2;

/// How long a runtime's shutdown waits for a session to stop, once its adapter had
/// the shutdown grace to answer a `disconnect`: 5 s. Sessions stop all at once, so
/// this bounds the whole shutdown (with the grace), not each session; a session still
/// running after it is killed (its adapter's process group with it). Set with
/// `RuntimeConfig::session_stop_wait`.
pub const DEFAULT_SESSION_STOP_WAIT: Duration = Duration::from_secs(5);

/// How long an agent's terminate gives the debuggee to end itself, where the adapter
/// takes DAP's `terminate` (it asks the debuggee to end, running its exit handlers):
/// 5 s, counted from the request, before `disconnect` ends whatever is left. It is
/// also the `terminate` request's deadline, so it is clamped to
/// [`MIN_REQUEST_TIMEOUT`]..=[`MAX_REQUEST_TIMEOUT`]. Set with
/// `RuntimeConfig::terminate_grace`.
pub const DEFAULT_TERMINATE_GRACE: Duration = Duration::from_secs(5);

/// The deadline of the `disconnect` that lets an adapter go (an agent's terminate or
/// disconnect, or the debuggee's end): 5 s. Past it the adapter is stopped anyway.
/// Clamped to [`MIN_REQUEST_TIMEOUT`]..=[`MAX_REQUEST_TIMEOUT`] as every request
/// deadline. Set with `RuntimeConfig::disconnect_timeout`.
pub const DEFAULT_DISCONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Clamp a handshake's deadline into [`MIN_REQUEST_TIMEOUT`]..=[`MAX_LAUNCH_TIMEOUT`].
pub fn clamp_launch_timeout(requested: Duration) -> Duration {
    requested.clamp(MIN_REQUEST_TIMEOUT, MAX_LAUNCH_TIMEOUT)
}

/// Clamp a requested deadline into [`MIN_REQUEST_TIMEOUT`]..=[`MAX_REQUEST_TIMEOUT`].
pub fn clamp_request_timeout(requested: Duration) -> Duration {
    requested.clamp(MIN_REQUEST_TIMEOUT, MAX_REQUEST_TIMEOUT)
}

/// At most this much of the compiler's messages is kept in a test run's build
/// failure: 4 KiB. Fixed.
pub const MAX_BUILD_ERROR_BYTES: usize = 4 * 1024;

/// At most this much of a test run's failure text is kept (its start: the first
/// failure): 2 KiB. Fixed.
pub const MAX_FAILURE_TEXT_BYTES: usize = 2 * 1024;

/// How many parents of a process an attach looks at to tell whether it descends from
/// a live session's adapter (a launched debuggee), which holds it: 64, deeper than
/// any debuggee's tree under its adapter. Fixed.
pub const MAX_ATTACH_ANCESTRY: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_timeout_is_clamped_into_range() {
        assert_eq!(
            clamp_request_timeout(Duration::from_secs(1)),
            MIN_REQUEST_TIMEOUT
        );
        assert_eq!(
            clamp_request_timeout(Duration::from_secs(1000)),
            MAX_REQUEST_TIMEOUT
        );
        assert_eq!(
            clamp_request_timeout(Duration::from_secs(42)),
            Duration::from_secs(42)
        );
    }

    #[test]
    fn launch_timeout_is_clamped_into_its_own_range() {
        let clamp = clamp_launch_timeout;
        assert_eq!(clamp(Duration::from_secs(1)), MIN_REQUEST_TIMEOUT);
        assert_eq!(clamp(Duration::from_secs(3600)), MAX_LAUNCH_TIMEOUT);
        assert_eq!(clamp(Duration::from_secs(600)), Duration::from_secs(600));
    }
}
