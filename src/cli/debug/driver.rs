//! The run itself: launch, then print each stop and continue, to the end. Past
//! `--timeout`, or at the first SIGINT or SIGTERM, the program is paused and where it
//! was printed (its output with it) before the run ends, so that a hung program shows
//! where it hangs.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{json, Value};

use super::args::DebugArgs;
use super::interrupts::Interrupts;
use super::output::{self, NewOutput};
use super::{error_text, failed, stdout_gone, EXIT_TIMED_OUT};
use crate::cli::signals::StopSignal;
use crate::tools::{ToolCatalogue, ToolResult};
use crate::{SessionId, SessionState};

pub(super) struct Driver {
    pub(super) tools: ToolCatalogue,
    pub(super) args: DebugArgs,
    /// Where the next read of the program's output starts (a `debug.output` cursor).
    output_cursor: AtomicU64,
    interrupts: Interrupts,
}

/// Why the run gives up on a program that is still running.
#[derive(Debug, Clone, Copy)]
pub(super) enum GiveUp {
    /// It neither stopped nor ended within `--timeout` (seconds).
    TimedOut(f64),
    /// A stop signal came.
    Signal(StopSignal),
}

impl GiveUp {
    fn exit_code(self) -> ExitCode {
        match self {
            GiveUp::TimedOut(_) => ExitCode::from(EXIT_TIMED_OUT),
            GiveUp::Signal(signal) => ExitCode::from(signal.exit_status()),
        }
    }

    /// Why, in words for the shell.
    fn said(self) -> String {
        match self {
            GiveUp::TimedOut(t) => {
                format!("the program neither stopped nor ended within {t}s (--timeout)")
            }
            GiveUp::Signal(signal) => signal.name().to_string(),
        }
    }

    /// What the run does once it has shown where the program was.
    fn then(self) -> &'static str {
        match self {
            GiveUp::TimedOut(_) => "giving up",
            GiveUp::Signal(_) => "ending the session",
        }
    }
}

/// A call that moves the program, or the stop signal that came first.
enum Moved {
    Done(ToolResult),
    Interrupted(StopSignal),
}

impl Driver {
    pub(super) fn new(tools: ToolCatalogue, args: DebugArgs, interrupts: Interrupts) -> Self {
        Self {
            tools,
            args,
            output_cursor: AtomicU64::new(0),
            interrupts,
        }
    }

    /// What the program printed since the last call, once it has settled.
    pub(super) async fn new_output(&self, id: &str) -> NewOutput {
        output::settle(&self.tools, id).await;
        let mut cursor = self.output_cursor.load(Ordering::Relaxed);
        let output = output::read_since(&self.tools, id, &mut cursor, self.args.verbose).await;
        self.output_cursor.store(cursor, Ordering::Relaxed);
        output
    }

    /// `tool` called with `args`, unless a stop signal comes first.
    async fn moving(&self, tool: &str, args: Value) -> Moved {
        tokio::select! {
            result = self.tools.call(tool, args) => Moved::Done(result),
            signal = self.interrupts.beyond(0) => Moved::Interrupted(signal),
        }
    }

    pub(super) async fn drive(&self) -> ExitCode {
        let (tool, arguments) = match &self.args.attach {
            Some(at) => match self.attach_args(at) {
                Ok(arguments) => ("debug.attach", arguments),
                Err(why) => return failed(&why),
            },
            None => ("debug.launch", self.launch_args()),
        };
        let launch = self.tools.call(tool, arguments);
        tokio::pin!(launch);
        let mut result = tokio::select! {
            result = &mut launch => result,
            signal = self.interrupts.beyond(0) => {
                // The program may run before its handshake is answered (dlv runs it
                // once `configurationDone` is sent, and answers after): the launch is
                // given a moment (--pause-wait) to answer, and then the run is paused
                // and shown below. Otherwise nothing ran yet to show, and the launch,
                // given up, ends its session.
                let wait = self.args.pause_wait.unwrap_or(super::PAUSE_WAIT);
                let answered = if !self.program_may_run().await {
                    None
                } else {
                    tokio::select! {
                        result = &mut launch => Some(result),
                        _ = self.interrupts.beyond(1) => None,
                        _ = tokio::time::sleep(wait) => None,
                    }
                };
                match answered {
                    Some(result) => result,
                    None => {
                        eprintln!("dapvisor: {}: ending the session", signal.name());
                        return ExitCode::from(signal.exit_status());
                    }
                }
            }
        };
        let Some(id) = result.structured["session_id"].as_str().map(String::from) else {
            return failed(&error_text(&result));
        };
        if let Err(e) = self.print_launched(&result) {
            return stdout_gone(e);
        }
        // The launch answers as soon as the program runs; the wait for where it
        // first stops is the run's own, which a signal interrupts.
        if result.structured["state"] == "running" && !result.is_error {
            if let Some(signal) = self.interrupts.last() {
                return self.give_up(&id, GiveUp::Signal(signal)).await;
            }
            result = match self.moving("debug.wait", self.wait_args(&id)).await {
                Moved::Done(result) => result,
                Moved::Interrupted(s) => return self.give_up(&id, GiveUp::Signal(s)).await,
            };
            if let Err(e) = self.print_first_stop_notes(&id).await {
                return stdout_gone(e);
            }
        }
        let mut stops = 0;
        loop {
            if let Some(err) = result.error() {
                // A crash fails the wait that was under way; the supervisor restarts
                // the adapter, and the relaunched program stops at its breakpoints.
                if self.restarting(&id).await {
                    eprintln!("dapvisor: {}; waiting for the restart", err.error);
                    result = match self.moving("debug.wait", self.wait_args(&id)).await {
                        Moved::Done(result) => result,
                        Moved::Interrupted(s) => return self.give_up(&id, GiveUp::Signal(s)).await,
                    };
                    continue;
                }
                return failed(&error_text(&result));
            }
            let next = match result.structured["state"].as_str() {
                Some("stopped") => {
                    stops += 1;
                    if let Err(e) = self.print_stop(&id, &result).await {
                        return stdout_gone(e);
                    }
                    // A core dump cannot run: its one stop is all there is to show.
                    if self.args.core.is_some() {
                        return ExitCode::SUCCESS;
                    }
                    // A signal while the stop was printed: it showed where the
                    // program is; the run ends there.
                    if let Some(signal) = self.interrupts.last() {
                        eprintln!("dapvisor: {}: ending the session", signal.name());
                        return ExitCode::from(signal.exit_status());
                    }
                    if stops >= self.args.max_stops {
                        return failed(&max_stops_reached(stops));
                    }
                    self.moving("debug.continue", self.wait_args(&id)).await
                }
                Some("terminated") => return self.finish(&id, &result).await,
                Some("running") => match self.args.timeout {
                    Some(t) => return self.give_up(&id, GiveUp::TimedOut(t)).await,
                    // No limit asked for: keep waiting.
                    None => self.moving("debug.wait", self.wait_args(&id)).await,
                },
                Some("failed") => {
                    return failed(&format!(
                        "the session failed: {}",
                        result.structured["wait_error"]
                            .as_str()
                            .unwrap_or("see above")
                    ))
                }
                // Restarting after a crash, or starting again: wait for where it stops.
                state => {
                    eprintln!(
                        "dapvisor: the session is {}; waiting for the program",
                        state.unwrap_or("starting")
                    );
                    self.moving("debug.wait", self.wait_args(&id)).await
                }
            };
            result = match next {
                Moved::Done(result) => result,
                Moved::Interrupted(signal) => {
                    return self.give_up(&id, GiveUp::Signal(signal)).await
                }
            };
        }
    }

    /// `debug.attach`'s arguments from the flags, for a debug server at `at`: the
    /// launch's breakpoints, program and adapter, and the `--map` flags.
    fn attach_args(&self, (host, port): &(String, u16)) -> Result<Value, String> {
        let launch = self.launch_args();
        let mut mappings = Vec::new();
        for flag in &self.args.maps {
            let m = crate::tools::start::path_mappings::parse_flag(flag)?;
            mappings.push(json!({ "local": m.local, "remote": m.remote }));
        }
        let mut attach = json!({
            "host": host,
            "port": port,
            "breakpoints": launch["breakpoints"],
            "path_mappings": mappings,
            "timeout": 0,
        });
        for key in ["program", "adapter", "cwd"] {
            if !launch[key].is_null() {
                attach[key] = launch[key].clone();
            }
        }
        Ok(attach)
    }

    /// `debug.launch`'s arguments from the flags.
    fn launch_args(&self) -> Value {
        if let Some(core) = &self.args.core {
            // Only what opening a dump takes (clap refuses the flags of a run).
            let mut open = json!({ "program": self.args.program, "core": core, "timeout": 0 });
            if let Some(adapter) = &self.args.adapter {
                open["adapter"] = json!(adapter);
            }
            return open;
        }
        let mut breakpoints: Vec<Value> = self
            .args
            .breaks
            .iter()
            .map(|at| {
                let mut bp = json!({ "file": at.file, "line": at.line });
                if let Some(condition) = &at.condition {
                    bp["condition"] = json!(condition);
                }
                bp
            })
            .collect();
        breakpoints.extend(
            self.args
                .break_functions
                .iter()
                .map(|f| json!({ "function": f })),
        );
        let mut launch = json!({
            "args": self.args.args,
            "breakpoints": breakpoints,
        });
        if let Some(program) = &self.args.program {
            launch["program"] = json!(program);
        }
        if let Some(test) = &self.args.test {
            launch["test"] = json!(test);
        }
        if let Some(runner) = &self.args.runner {
            launch["runner"] = json!(runner);
        }
        if let Some(adapter) = &self.args.adapter {
            launch["adapter"] = json!(adapter);
        }
        if let Some(cwd) = &self.args.cwd {
            launch["cwd"] = json!(cwd);
        }
        if let Some(stdin) = self.args.stdin.clone().or_else(own_stdin) {
            launch["stdin_file"] = json!(stdin);
        }
        // Answer once the program runs (a stop or the end already there included).
        launch["timeout"] = json!(0);
        launch
    }

    /// Give up on a program still running: pause it and print where it was (the
    /// output so far with it), then say why the run ends. If it ended meanwhile, its
    /// end is reported as usual; if it does not pause within `--pause-wait`
    /// ([`super::PAUSE_WAIT`] by default), what it printed is shown all the same.
    async fn give_up(&self, id: &str, why: GiveUp) -> ExitCode {
        let again = match why {
            GiveUp::Signal(signal) => format!("; {} again ends it at once", signal.name()),
            GiveUp::TimedOut(_) => String::new(),
        };
        eprintln!(
            "dapvisor: {}: pausing the program to show where it is{again}",
            why.said()
        );
        let wait = self
            .args
            .pause_wait
            .unwrap_or(super::PAUSE_WAIT)
            .as_secs_f64();
        let short = json!({ "session_id": id, "timeout": wait });
        let mut paused = self.tools.call("debug.pause", short.clone()).await;
        if paused.is_error {
            // It stopped or ended on its own meanwhile (or cannot be paused): a wait
            // answers at once with where it is.
            paused = self.tools.call("debug.wait", short).await;
        }
        let printed = match paused.structured["state"].as_str() {
            Some("terminated") => return self.finish(id, &paused).await,
            Some("stopped") if !paused.is_error => self.print_stop(id, &paused).await,
            state => {
                let output = self.new_output(id).await;
                let why_not = match state {
                    Some("running") => format!("it did not pause within {wait}s (--pause-wait)"),
                    _ => error_text(&paused),
                };
                eprintln!("dapvisor: the program could not be paused: {why_not}");
                self.print_output(&output)
            }
        };
        if let Err(e) = printed {
            return stdout_gone(e);
        }
        eprintln!("dapvisor: {}: {}", why.said(), why.then());
        why.exit_code()
    }

    /// Whether the program of the run's session may run already: it runs or is
    /// stopped, or its configuration is being finished (where an adapter may start it
    /// before it answers `configurationDone`).
    async fn program_may_run(&self) -> bool {
        for session in self.tools.runtime().sessions() {
            if let Ok(snapshot) = session.snapshot().await {
                if matches!(
                    snapshot.state,
                    SessionState::Configured | SessionState::Running | SessionState::Stopped
                ) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the adapter is being restarted after a crash (or the restarted one is
    /// starting): then the program runs again and a wait will see it.
    async fn restarting(&self, id: &str) -> bool {
        let Ok(id) = id.parse::<SessionId>() else {
            return false;
        };
        let Ok(session) = self.tools.runtime().find(id) else {
            return false;
        };
        matches!(
            session.snapshot().await.map(|s| s.state),
            Ok(SessionState::AdapterRestarting
                | SessionState::Initializing
                | SessionState::Configured)
        )
    }

    fn wait_args(&self, id: &str) -> Value {
        let timeout = self
            .args
            .timeout
            .unwrap_or(crate::tools::MAX_WAIT.as_secs_f64());
        json!({ "session_id": id, "timeout": timeout })
    }
}

/// dapvisor's own stdin, as a path the program's stdin can be opened from, where it is
/// a pipe or a file: the program reads what is piped or redirected into dapvisor. Not
/// a terminal (it stays dapvisor's: the program reads an empty input), and not
/// `/dev/null` (the default anyway).
fn own_stdin() -> Option<PathBuf> {
    use std::io::IsTerminal as _;
    use std::os::unix::fs::FileTypeExt as _;
    if std::io::stdin().is_terminal() {
        return None;
    }
    let path = PathBuf::from(format!("/proc/{}/fd/0", std::process::id()));
    let kind = std::fs::metadata(&path).ok()?.file_type();
    (kind.is_fifo() || kind.is_file()).then_some(path)
}

/// What the run says when it ends at `--max-stops`: that it did, and how to see the
/// stops that matter.
fn max_stops_reached(stops: usize) -> String {
    format!(
        "the program stopped {stops} times, the most --max-stops allows; the run ends \
         there. To see other stops, raise --max-stops, or stop \
         less often: a condition (--break 'FILE:LINE if EXPR'), or a line past the loop"
    )
}
