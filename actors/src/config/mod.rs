//! [`RuntimeConfig`]: every limit of a runtime, with its default, and a setter each;
//! checked as a whole when a runtime starts (`validate.rs`).

mod restart_policy;
mod validate;

use std::time::Duration;

use crate::core::session::CoreConfig;
use crate::limits;
use crate::registry::{AdapterDef, AdapterRegistry};
use crate::transport::{InProcessAdapters, InProcessConnect, TransportConfig};
pub use restart_policy::RestartPolicy;

/// How a [`Runtime`](crate::Runtime) is set up: a builder. `RuntimeConfig::default()`
/// has every default of [`crate::limits`] and the built-in adapters; each setter
/// changes one limit, clamping a deadline into its range, and
/// [`crate::Runtime::start`] refuses what no clamp can fix (a 0 that would refuse
/// everything, see [`RuntimeConfig::validate`]). The fields are private, so a value
/// only ever arrives through its setter.
#[derive(Clone)]
pub struct RuntimeConfig {
    /// Sessions held at once (default [`limits::DEFAULT_MAX_SESSIONS`]).
    pub(crate) max_sessions: usize,
    /// Deadline of a request that names none (default
    /// [`limits::DEFAULT_REQUEST_TIMEOUT`], clamped to 5..300 s).
    pub(crate) request_timeout: Duration,
    /// Deadline of a launch or attach handshake, and of each of its requests, when
    /// the start names none, for every adapter family (clamped to 5 s..30 min). Unset,
    /// each family has its own: [`limits::DEFAULT_LAUNCH_TIMEOUT`], dlv
    /// [`limits::DLV_LAUNCH_TIMEOUT`], the native debuggers
    /// [`limits::NATIVE_LAUNCH_TIMEOUT`].
    pub(crate) launch_timeout: Option<Duration>,
    /// Breakpoints per session (default [`limits::DEFAULT_MAX_BREAKPOINTS`]).
    pub(crate) max_breakpoints: usize,
    /// Output kept per session (default [`limits::DEFAULT_OUTPUT_BUFFER_BYTES`]).
    pub(crate) output_buffer_bytes: usize,
    /// Tracepoint rows kept per session (default [`limits::DEFAULT_MAX_TRACE_ROWS`];
    /// at least 1).
    pub(crate) max_trace_rows: usize,
    /// Calls recorded per second per session (default
    /// [`limits::DEFAULT_MAX_CALLS_PER_SECOND`]; at least 1).
    pub(crate) max_calls_per_second: u32,
    /// Largest frame accepted from an adapter (default
    /// [`limits::DEFAULT_MAX_CONTENT_LENGTH`]).
    pub(crate) max_frame_bytes: usize,
    /// Largest header block accepted from an adapter (default
    /// [`limits::DEFAULT_MAX_HEADER_LENGTH`]).
    pub(crate) max_header_bytes: usize,
    /// Adapter stderr kept for errors (default [`limits::DEFAULT_STDERR_TAIL_BYTES`]).
    pub(crate) stderr_tail_bytes: usize,
    /// TCP adapter start-up and connect limit (default [`limits::DEFAULT_CONNECT_TIMEOUT`]).
    pub(crate) connect_timeout: Duration,
    /// How long a stopping adapter may take before it is killed, and how long a
    /// runtime's shutdown lets each adapter answer `disconnect` (default
    /// [`limits::DEFAULT_SHUTDOWN_GRACE`]).
    pub(crate) shutdown_grace: Duration,
    /// How long an adapter whose output ended may take to exit before it is killed
    /// (default [`limits::DEFAULT_EXIT_WAIT`]).
    pub(crate) exit_wait: Duration,
    /// How long an exited adapter's output may take to end before its connection is
    /// closed (default [`limits::DEFAULT_OUTPUT_DRAIN_WAIT`]).
    pub(crate) output_drain_wait: Duration,
    /// How long an agent's terminate gives the debuggee to end itself before
    /// `disconnect`, where the adapter takes DAP's `terminate` (default
    /// [`limits::DEFAULT_TERMINATE_GRACE`], clamped to 5..300 s).
    pub(crate) terminate_grace: Duration,
    /// The deadline of the `disconnect` that lets an adapter go (default
    /// [`limits::DEFAULT_DISCONNECT_TIMEOUT`], clamped to 5..300 s).
    pub(crate) disconnect_timeout: Duration,
    /// Responses matching no request kept to report in timeouts (default
    /// [`limits::DEFAULT_UNMATCHED_RESPONSES_KEPT`]).
    pub(crate) unmatched_responses_kept: usize,
    /// Frames that are JSON but not DAP an adapter connection may send before it is
    /// ended (default [`limits::DEFAULT_MAX_MALFORMED_FRAMES`]).
    pub(crate) max_malformed_frames: usize,
    /// `runInTerminal` processes running at once per adapter connection (default
    /// [`limits::DEFAULT_MAX_TERMINAL_PROCESSES`]).
    pub(crate) max_terminal_processes: usize,
    /// Child sessions one session tree may have at once (default
    /// [`limits::DEFAULT_MAX_CHILD_SESSIONS`]).
    pub(crate) max_child_sessions: usize,
    /// Adapter events read but not yet handled by their session before the transport
    /// stops reading (default [`limits::DEFAULT_MAX_UNHANDLED_EVENTS`]).
    pub(crate) max_unhandled_events: usize,
    /// Reads of forwarded debuggee output not yet handled by their session before
    /// the transport stops reading them (default
    /// [`limits::DEFAULT_MAX_UNHANDLED_OUTPUT`]).
    pub(crate) max_unhandled_output: usize,
    /// Messages waiting to be written to an adapter before a new request is refused
    /// (default [`limits::DEFAULT_MAX_UNWRITTEN_MESSAGES`]).
    pub(crate) max_unwritten_messages: usize,
    /// Bulk events (output, modules, progress, ...) a subscriber may have unread
    /// before it misses some (default [`limits::DEFAULT_SUBSCRIBER_OUTPUT_BACKLOG`]).
    pub(crate) subscriber_output_backlog: usize,
    /// Items that may wait unread for one subscriber before it is cut off
    /// (default [`limits::DEFAULT_SUBSCRIBER_MAX_WAITING`]).
    pub(crate) subscriber_max_waiting: usize,
    /// Agent requests queued per session (default [`limits::DEFAULT_MAX_QUEUED_REQUESTS`]).
    pub(crate) max_queued_requests: usize,
    /// The adapters sessions can use (default: the built-ins).
    pub(crate) registry: AdapterRegistry,
    /// Adapters served in-process (default: none).
    pub(crate) in_process: InProcessAdapters,
    /// How crashed adapters are restarted (default: 5 restarts in 60 s, backoff from
    /// 250 ms doubling to 30 s, with jitter).
    pub(crate) restart_policy: RestartPolicy,
    /// A session with no agent request for this long is ended and removed (default
    /// [`limits::DEFAULT_IDLE_LIMIT`]; `None` keeps idle sessions forever).
    pub(crate) idle_limit: Option<Duration>,
    /// Ended sessions remembered to say how they ended (default
    /// [`limits::DEFAULT_ENDED_SESSIONS_REMEMBERED`]).
    pub(crate) ended_sessions_remembered: usize,

    // ---- Supervision: shutdown waits ----
    /// How long a shutdown waits for the sessions (all at once) to stop after their
    /// adapters' `disconnect`, before killing those left (default
    /// [`limits::DEFAULT_SESSION_STOP_WAIT`]).
    pub(crate) session_stop_wait: Duration,
}

impl Default for RuntimeConfig {
    fn default() -> Self {
        Self {
            max_sessions: limits::DEFAULT_MAX_SESSIONS,
            request_timeout: limits::DEFAULT_REQUEST_TIMEOUT,
            launch_timeout: None,
            max_breakpoints: limits::DEFAULT_MAX_BREAKPOINTS,
            output_buffer_bytes: limits::DEFAULT_OUTPUT_BUFFER_BYTES,
            max_trace_rows: limits::DEFAULT_MAX_TRACE_ROWS,
            max_calls_per_second: limits::DEFAULT_MAX_CALLS_PER_SECOND,
            max_frame_bytes: limits::DEFAULT_MAX_CONTENT_LENGTH,
            max_header_bytes: limits::DEFAULT_MAX_HEADER_LENGTH,
            stderr_tail_bytes: limits::DEFAULT_STDERR_TAIL_BYTES,
            connect_timeout: limits::DEFAULT_CONNECT_TIMEOUT,
            shutdown_grace: limits::DEFAULT_SHUTDOWN_GRACE,
            exit_wait: limits::DEFAULT_EXIT_WAIT,
            output_drain_wait: limits::DEFAULT_OUTPUT_DRAIN_WAIT,
            unmatched_responses_kept: limits::DEFAULT_UNMATCHED_RESPONSES_KEPT,
            max_malformed_frames: limits::DEFAULT_MAX_MALFORMED_FRAMES,
            max_terminal_processes: limits::DEFAULT_MAX_TERMINAL_PROCESSES,
            max_child_sessions: limits::DEFAULT_MAX_CHILD_SESSIONS,
            max_unhandled_events: limits::DEFAULT_MAX_UNHANDLED_EVENTS,
            max_unhandled_output: limits::DEFAULT_MAX_UNHANDLED_OUTPUT,
            max_unwritten_messages: limits::DEFAULT_MAX_UNWRITTEN_MESSAGES,
            terminate_grace: limits::DEFAULT_TERMINATE_GRACE,
            disconnect_timeout: limits::DEFAULT_DISCONNECT_TIMEOUT,
            subscriber_output_backlog: limits::DEFAULT_SUBSCRIBER_OUTPUT_BACKLOG,
            subscriber_max_waiting: limits::DEFAULT_SUBSCRIBER_MAX_WAITING,
            max_queued_requests: limits::DEFAULT_MAX_QUEUED_REQUESTS,
            registry: AdapterRegistry::builtin(),
            in_process: InProcessAdapters::default(),
            restart_policy: RestartPolicy::default(),
            idle_limit: Some(limits::DEFAULT_IDLE_LIMIT),
            ended_sessions_remembered: limits::DEFAULT_ENDED_SESSIONS_REMEMBERED,
            session_stop_wait: limits::DEFAULT_SESSION_STOP_WAIT,
        }
    }
}

impl RuntimeConfig {
    /// Sessions held at once (default [`limits::DEFAULT_MAX_SESSIONS`]).
    pub fn max_sessions(mut self, n: usize) -> Self {
        self.max_sessions = n;
        self
    }

    /// Deadline of a request that names none (default
    /// [`limits::DEFAULT_REQUEST_TIMEOUT`], clamped to 5..300 s).
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = limits::clamp_request_timeout(timeout);
        self
    }

    /// Deadline of a launch or attach handshake, and of each of its requests, when
    /// the start names none, for every adapter family (clamped to 5 s..30 min). Unset,
    /// each family has its own: [`limits::DEFAULT_LAUNCH_TIMEOUT`], dlv
    /// [`limits::DLV_LAUNCH_TIMEOUT`], the native debuggers
    /// [`limits::NATIVE_LAUNCH_TIMEOUT`].
    pub fn launch_timeout(mut self, timeout: Duration) -> Self {
        self.launch_timeout = Some(limits::clamp_launch_timeout(timeout));
        self
    }

    /// The handshake deadline of a start that names none, for an adapter of `flavor`:
    /// the runtime's [`Self::launch_timeout`] if set, else the family's own.
    pub fn launch_timeout_for(&self, flavor: crate::registry::AdapterFlavor) -> Duration {
        self.launch_timeout
            .unwrap_or_else(|| flavor.launch_timeout())
    }

    /// Breakpoints per session (default [`limits::DEFAULT_MAX_BREAKPOINTS`]).
    pub fn max_breakpoints(mut self, n: usize) -> Self {
        self.max_breakpoints = n;
        self
    }

    /// Output kept per session (default [`limits::DEFAULT_OUTPUT_BUFFER_BYTES`]).
    pub fn output_buffer_bytes(mut self, bytes: usize) -> Self {
        self.output_buffer_bytes = bytes;
        self
    }

    /// Tracepoint rows kept per session (default [`limits::DEFAULT_MAX_TRACE_ROWS`];
    /// at least 1).
    pub fn max_trace_rows(mut self, rows: usize) -> Self {
        self.max_trace_rows = rows;
        self
    }

    /// Calls a session's call trace records a second at most (default
    /// [`limits::DEFAULT_MAX_CALLS_PER_SECOND`]; at least 1); the rest are counted.
    pub fn max_calls_per_second(mut self, calls: u32) -> Self {
        self.max_calls_per_second = calls;
        self
    }

    /// Largest frame accepted from an adapter (default
    /// [`limits::DEFAULT_MAX_CONTENT_LENGTH`]).
    pub fn max_frame_bytes(mut self, bytes: usize) -> Self {
        self.max_frame_bytes = bytes;
        self
    }

    /// Largest header block accepted from an adapter (default
    /// [`limits::DEFAULT_MAX_HEADER_LENGTH`]).
    pub fn max_header_bytes(mut self, bytes: usize) -> Self {
        self.max_header_bytes = bytes;
        self
    }

    /// Adapter stderr kept for errors (default [`limits::DEFAULT_STDERR_TAIL_BYTES`]).
    pub fn stderr_tail_bytes(mut self, bytes: usize) -> Self {
        self.stderr_tail_bytes = bytes;
        self
    }

    /// TCP adapter start-up and connect limit (default [`limits::DEFAULT_CONNECT_TIMEOUT`]).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// How long a stopping adapter may take before it is killed, and how long a
    /// runtime's shutdown lets each adapter answer `disconnect` (default
    /// [`limits::DEFAULT_SHUTDOWN_GRACE`]).
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.shutdown_grace = grace;
        self
    }

    /// How long an adapter whose output ended may take to exit before it is killed
    /// (default [`limits::DEFAULT_EXIT_WAIT`]).
    pub fn exit_wait(mut self, wait: Duration) -> Self {
        self.exit_wait = wait;
        self
    }

    /// How long an exited adapter's output may take to end before its connection is
    /// closed (default [`limits::DEFAULT_OUTPUT_DRAIN_WAIT`]).
    pub fn output_drain_wait(mut self, wait: Duration) -> Self {
        self.output_drain_wait = wait;
        self
    }

    /// Responses matching no request kept to report in timeouts (default
    /// [`limits::DEFAULT_UNMATCHED_RESPONSES_KEPT`]).
    pub fn unmatched_responses_kept(mut self, n: usize) -> Self {
        self.unmatched_responses_kept = n;
        self
    }

    /// Frames that are JSON but not DAP messages an adapter connection may send
    /// before it is ended as broken (default [`limits::DEFAULT_MAX_MALFORMED_FRAMES`];
    /// 0 ends it at the first).
    pub fn max_malformed_frames(mut self, n: usize) -> Self {
        self.max_malformed_frames = n;
        self
    }

    /// `runInTerminal` processes one adapter connection may have running at once;
    /// past it the request is answered with an error (default
    /// [`limits::DEFAULT_MAX_TERMINAL_PROCESSES`]; 0 refuses every `runInTerminal`).
    pub fn max_terminal_processes(mut self, n: usize) -> Self {
        self.max_terminal_processes = n;
        self
    }

    /// Child sessions (`startDebugging`) one session tree may have at once; past it
    /// the request is answered with an error (default
    /// [`limits::DEFAULT_MAX_CHILD_SESSIONS`]).
    ///
    /// At least 1: [`crate::Runtime::start`] refuses 0, with which js-debug, whose
    /// program runs in a session it asks for, could never start one.
    pub fn max_child_sessions(mut self, n: usize) -> Self {
        self.max_child_sessions = n;
        self
    }

    /// Adapter events read but not yet handled by their session before the transport
    /// stops reading (default [`limits::DEFAULT_MAX_UNHANDLED_EVENTS`]).
    ///
    /// At least 1: [`crate::Runtime::start`] refuses 0.
    pub fn max_unhandled_events(mut self, n: usize) -> Self {
        self.max_unhandled_events = n;
        self
    }

    /// Reads of forwarded debuggee output not yet handled by their session before
    /// the transport stops reading them (default
    /// [`limits::DEFAULT_MAX_UNHANDLED_OUTPUT`]).
    ///
    /// At least 1: [`crate::Runtime::start`] refuses 0.
    pub fn max_unhandled_output(mut self, n: usize) -> Self {
        self.max_unhandled_output = n;
        self
    }

    /// Messages waiting to be written to an adapter before a new request is refused
    /// (default [`limits::DEFAULT_MAX_UNWRITTEN_MESSAGES`]).
    ///
    /// At least 1: [`crate::Runtime::start`] refuses 0.
    pub fn max_unwritten_messages(mut self, n: usize) -> Self {
        self.max_unwritten_messages = n;
        self
    }

    /// Bulk events (output, modules, progress, ...) a subscriber may have unread
    /// before it misses some (default [`limits::DEFAULT_SUBSCRIBER_OUTPUT_BACKLOG`]).
    pub fn subscriber_output_backlog(mut self, n: usize) -> Self {
        self.subscriber_output_backlog = n;
        self
    }

    /// Items that may wait unread for one subscriber before it is cut off
    /// (default [`limits::DEFAULT_SUBSCRIBER_MAX_WAITING`]).
    ///
    /// At least 1: [`crate::Runtime::start`] refuses 0.
    pub fn subscriber_max_waiting(mut self, n: usize) -> Self {
        self.subscriber_max_waiting = n;
        self
    }

    /// Agent requests queued per session (default [`limits::DEFAULT_MAX_QUEUED_REQUESTS`]).
    ///
    /// At least 1: [`crate::Runtime::start`] refuses 0.
    pub fn max_queued_requests(mut self, n: usize) -> Self {
        self.max_queued_requests = n;
        self
    }

    /// How crashed adapters are restarted (default: 5 restarts in 60 s, backoff from
    /// 250 ms doubling to 30 s, with jitter).
    ///
    /// [`crate::Runtime::start`] refuses a policy that [`RestartPolicy::validate`]
    /// refuses.
    pub fn restart_policy(mut self, policy: RestartPolicy) -> Self {
        self.restart_policy = policy;
        self
    }

    /// A session with no agent request for this long is ended and removed (default
    /// [`limits::DEFAULT_IDLE_LIMIT`]; `None` keeps idle sessions forever).
    ///
    /// `None` never reaps.
    pub fn idle_limit(mut self, limit: Option<Duration>) -> Self {
        self.idle_limit = limit;
        self
    }

    /// Ended sessions remembered to say how they ended (default
    /// [`limits::DEFAULT_ENDED_SESSIONS_REMEMBERED`]).
    pub fn ended_sessions_remembered(mut self, n: usize) -> Self {
        self.ended_sessions_remembered = n;
        self
    }

    /// How often the idle sweep runs: at least every
    /// [`limits::MAX_IDLE_SWEEP_INTERVAL`] and twice per idle limit.
    pub fn idle_sweep_interval(&self) -> Option<Duration> {
        let limit = self.idle_limit?;
        Some(
            (limit / 2)
                .min(limits::MAX_IDLE_SWEEP_INTERVAL)
                .max(Duration::from_millis(1)),
        )
    }

    /// Replace the adapter registry.
    pub fn registry(mut self, registry: AdapterRegistry) -> Self {
        self.registry = registry;
        self
    }

    /// The adapters sessions will be able to use.
    pub fn adapters(&self) -> &AdapterRegistry {
        &self.registry
    }

    /// The adapter registry, to add or override an adapter in place
    /// ([`AdapterRegistry::register`]).
    pub fn adapters_mut(&mut self) -> &mut AdapterRegistry {
        &mut self.registry
    }

    /// Serve adapter `name` in-process: `connect` starts an adapter task and returns
    /// the client's end of its stream. Sessions use it with `adapter: name`.
    pub fn in_process_adapter(mut self, name: &str, connect: InProcessConnect) -> Self {
        self.registry.register(AdapterDef::in_process(name));
        self.in_process.insert(name, connect);
        self
    }

    // ---- Supervision: shutdown waits ----

    /// How long an agent's terminate gives the debuggee to end itself before
    /// `disconnect`, where the adapter takes DAP's `terminate` (default
    /// [`limits::DEFAULT_TERMINATE_GRACE`], clamped to 5..300 s).
    pub fn terminate_grace(mut self, grace: Duration) -> Self {
        self.terminate_grace = limits::clamp_request_timeout(grace);
        self
    }

    /// The deadline of the `disconnect` that lets an adapter go (default
    /// [`limits::DEFAULT_DISCONNECT_TIMEOUT`], clamped to 5..300 s).
    pub fn disconnect_timeout(mut self, timeout: Duration) -> Self {
        self.disconnect_timeout = limits::clamp_request_timeout(timeout);
        self
    }

    /// How long a shutdown waits for the sessions (all at once) to stop after their
    /// adapters' `disconnect`, before killing those left (default
    /// [`limits::DEFAULT_SESSION_STOP_WAIT`]).
    pub fn session_stop_wait(mut self, wait: Duration) -> Self {
        self.session_stop_wait = wait;
        self
    }

    pub(crate) fn core(&self) -> CoreConfig {
        CoreConfig {
            request_timeout: self.request_timeout,
            launch_timeout: self.launch_timeout,
            max_breakpoints: self.max_breakpoints,
            output_buffer_bytes: self.output_buffer_bytes,
            max_trace_rows: self.max_trace_rows,
            max_calls_per_second: self.max_calls_per_second,
            terminate_grace: self.terminate_grace,
            disconnect_timeout: self.disconnect_timeout,
            parent: None,
        }
    }

    /// An event hub with this configuration's subscriber limits.
    pub(crate) fn event_hub<E: crate::events::Lossy + Send + Sync + 'static>(
        &self,
    ) -> crate::events::EventHub<E> {
        crate::events::EventHub::with_max_waiting(
            self.subscriber_output_backlog,
            self.subscriber_max_waiting,
        )
    }

    pub(crate) fn transport(&self) -> TransportConfig {
        TransportConfig {
            max_frame_bytes: self.max_frame_bytes,
            max_header_bytes: self.max_header_bytes,
            stderr_tail_bytes: self.stderr_tail_bytes,
            connect_timeout: self.connect_timeout,
            shutdown_grace: self.shutdown_grace,
            exit_wait: self.exit_wait,
            output_drain_wait: self.output_drain_wait,
            unmatched_responses_kept: self.unmatched_responses_kept,
            max_malformed_frames: self.max_malformed_frames,
            max_terminal_processes: self.max_terminal_processes,
            max_unhandled_events: self.max_unhandled_events,
            max_unhandled_output: self.max_unhandled_output,
            max_unwritten_messages: self.max_unwritten_messages,
            in_process: self.in_process.clone(),
        }
    }
}

#[cfg(test)]
mod tests;
