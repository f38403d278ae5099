//! A host application embeds dapvisor under its own ractor supervision tree.
//!
//! `HostActor` starts the runtime linked under itself, listens to the runtime's
//! events, and drives one debugpy session on `examples/programs/python/discount.py`
//! from a task of its own. When the runtime's supervisor ends, the host hears of it
//! in `handle_supervisor_evt` and decides what to do. When a session fails for good
//! (its adapter crashed past the restart budget), the host hears of it as a runtime
//! event and decides too: here, it ends that session.
//!
//! With `--kill-adapter`, the driver kills debugpy at the first hit: the runtime
//! restarts it, replays the breakpoint, and the program stops at its first hit again.
//!
//! With `--keep-killing`, the driver kills debugpy at every hit, and the runtime's
//! restart budget is two restarts: the third crash fails the session, the host hears
//! of it (`dap_session_failed`) and ends it, and the example shows that branch.
//!
//! An ordered shutdown when the host stops is the host's call: its `post_stop` below
//! calls `Runtime::shutdown`, which asks every adapter to `disconnect` before the
//! sessions stop. A host that is killed or fails skips `post_stop`; ractor then kills
//! the runtime's supervisor with it, and the adapters' process groups are killed from
//! the transports' `Drop` (no `disconnect`).
//!
//! ```text
//! cargo run --example embed_in_supervisor [-- --kill-adapter | --keep-killing]
//! ```
//! Exits 0 when the program's known bug was observed (the program exits with code 3),
//! or, with `--keep-killing`, when the session failed past its budget and was ended.

use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use dapvisor::{
    EventKind, LaunchSpec, Received, RestartPolicy, RunTicket, Runtime, RuntimeConfig,
    SessionError, SessionHandle, SessionId, StopOutcome,
};
use ractor::{Actor, ActorId, ActorProcessingErr, ActorRef, SupervisionEvent};
use tokio::sync::oneshot;

/// How long the driver waits for a stop (or the end) after each resume.
const STOP_WAIT: Duration = Duration::from_secs(60);

/// What reaches the host: from its event listener and from its driver task.
enum HostMsg {
    /// A runtime event worth a line.
    Event(String),
    /// A session failed for good: the host decides what to do with it.
    SessionFailed {
        /// Which.
        session: SessionId,
        /// Why.
        reason: String,
    },
    /// The program stopped at the breakpoint: the stack (innermost first) and two locals.
    Hit {
        n: usize,
        stack: Vec<String>,
        line_cents: String,
        discounted: String,
    },
    /// The driver is done: how the session ended, or why driving it failed.
    Finished(Result<Outcome, String>),
}

/// How the driven session ended.
#[derive(Debug)]
enum Outcome {
    /// The program ran to its end: its exit code and output.
    Exited(Option<i64>, String),
    /// The session failed past its restart budget, for this reason.
    Failed(String),
}

/// What the example was asked to do to the adapter.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kill {
    /// Nothing.
    Never,
    /// Kill it at the first hit.
    Once,
    /// Kill it at every hit, until the session fails.
    Always,
}

struct HostActor;

struct HostState {
    runtime: Runtime,
    supervisor: ActorId,
    kill: Kill,
    /// Tells `main` how the session ended.
    outcome: Option<oneshot::Sender<Outcome>>,
    /// The session the host ended after it failed, and how ending it went.
    ended_failed: Option<oneshot::Sender<bool>>,
}

impl Actor for HostActor {
    type Msg = HostMsg;
    type State = HostState;
    type Arguments = (Kill, oneshot::Sender<Outcome>, oneshot::Sender<bool>);

    async fn pre_start(
        &self,
        myself: ActorRef<HostMsg>,
        (kill, outcome, ended_failed): Self::Arguments,
    ) -> Result<HostState, ActorProcessingErr> {
        let mut config = RuntimeConfig::default();
        if kill == Kill::Always {
            // A small budget, so that the session fails after a few kills.
            config = config.restart_policy(RestartPolicy {
                max_restarts: 2,
                ..RestartPolicy::default()
            });
        }
        // A failure here reaches `main` as a spawn error, not as a supervision event.
        let runtime = Runtime::start_linked(config, myself.get_cell()).await?;
        let mut events = runtime.subscribe();
        let host = myself.clone();
        tokio::spawn(async move {
            while let Some(received) = events.recv().await {
                let Received::Event(event) = received else {
                    continue;
                };
                if let EventKind::SessionFailed { reason } = &event.kind {
                    let failed = HostMsg::SessionFailed {
                        session: event.session_id,
                        reason: reason.clone(),
                    };
                    let _ = host.cast(failed);
                }
                let Some(line) = describe(&event.kind) else {
                    continue;
                };
                if host.cast(HostMsg::Event(line)).is_err() {
                    break; // the host is gone
                }
            }
        });
        let supervisor = runtime.supervisor().get_id();
        Ok(HostState {
            runtime,
            supervisor,
            kill,
            outcome: Some(outcome),
            ended_failed: Some(ended_failed),
        })
    }

    async fn post_start(
        &self,
        myself: ActorRef<HostMsg>,
        state: &mut HostState,
    ) -> Result<(), ActorProcessingErr> {
        // Every step of the driver waits on debugpy (start-up alone takes a second or
        // more). Awaited in this handler, that would stall the host's mailbox: no other
        // message and no supervision event would be handled meanwhile. As a task that
        // reports back by message, it leaves the host's mailbox flowing.
        let (runtime, host, kill) = (state.runtime.clone(), myself.clone(), state.kill);
        tokio::spawn(async move {
            let result = drive(&runtime, &host, kill)
                .await
                .map_err(|e| e.to_string());
            let _ = host.cast(HostMsg::Finished(result));
        });
        Ok(())
    }

    async fn handle(
        &self,
        _myself: ActorRef<HostMsg>,
        message: HostMsg,
        state: &mut HostState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            HostMsg::Event(line) => println!("  [event] {line}"),
            HostMsg::SessionFailed { session, reason } => {
                // The host's policy: a session that keeps crashing is ended (its
                // processes go with it); others carry on. It could instead launch it
                // anew with another adapter, or alert a person.
                println!("host: session {session} failed ({reason}); ending it");
                let runtime = state.runtime.clone();
                let told = state.ended_failed.take();
                tokio::spawn(async move {
                    let ended = runtime.end_session(session).await;
                    println!("host: ended session {session}: {ended:?}");
                    // The runtime still says why it ended.
                    if let Err(why) = runtime.find(session) {
                        println!("host: the runtime now says of it: {why}");
                    }
                    if let Some(told) = told {
                        let _ = told.send(ended.is_ok());
                    }
                    // Nothing else to debug here: shut the runtime down (as below).
                    runtime.shutdown().await;
                });
            }
            HostMsg::Hit {
                n,
                stack,
                line_cents,
                discounted,
            } => println!(
                "hit {n}: stack {}; line_cents = {line_cents}, discounted = {discounted}",
                stack.join(" <- ")
            ),
            HostMsg::Finished(result) => {
                match &result {
                    Ok(Outcome::Exited(code, output)) => {
                        println!("program ended with exit code {code:?}; its output:");
                        output.lines().for_each(|line| println!("  | {line}"));
                    }
                    Ok(Outcome::Failed(reason)) => println!("the session failed: {reason}"),
                    Err(err) => println!("driving the session failed: {err}"),
                }
                let failed = matches!(result, Ok(Outcome::Failed(_)));
                if let (Some(tx), Ok(outcome)) = (state.outcome.take(), result) {
                    let _ = tx.send(outcome);
                }
                if failed {
                    // The host's failure policy above ends the session, then the runtime.
                    return Ok(());
                }
                // Done with debugging: shut the runtime down. Its supervisor then ends
                // and `handle_supervisor_evt` below decides what the host does. The
                // shutdown waits for sessions to stop, so it too runs as a task.
                let runtime = state.runtime.clone();
                tokio::spawn(async move { runtime.shutdown().await });
            }
        }
        Ok(())
    }

    /// The host's part in an ordered shutdown: whatever stops the host, its runtime
    /// ends first (a no-op if it already has).
    async fn post_stop(
        &self,
        _myself: ActorRef<HostMsg>,
        state: &mut HostState,
    ) -> Result<(), ActorProcessingErr> {
        state.runtime.shutdown().await;
        Ok(())
    }

    async fn handle_supervisor_evt(
        &self,
        myself: ActorRef<HostMsg>,
        event: SupervisionEvent,
        state: &mut HostState,
    ) -> Result<(), ActorProcessingErr> {
        // Overridden on purpose: ractor's default stops the host when any child ends,
        // silently. Here the host says what happened and chooses. Its choice is to stop.
        // Alternatives: restart the runtime (`Runtime::start_linked` again; starting does
        // no adapter I/O, so it may be awaited here) and launch the sessions anew; or
        // carry on without it (keep the runtime in an `Option`, set it to `None`, refuse
        // debugging work) while the rest of the host keeps serving.
        let (cell, what) = match event {
            SupervisionEvent::ActorTerminated(cell, _, reason) => {
                let reason = reason.unwrap_or_else(|| "no reason given".into());
                (cell, format!("terminated ({reason})"))
            }
            SupervisionEvent::ActorFailed(cell, err) => (cell, format!("failed: {err}")),
            _ => return Ok(()),
        };
        if cell.get_id() == state.supervisor {
            println!("host: the runtime's supervisor {what}; stopping the host");
            myself.stop(Some("the dapvisor runtime ended".into()));
        }
        Ok(())
    }
}

/// The session, start to end: stop at each hit of the breakpoint, report, continue.
async fn drive(
    runtime: &Runtime,
    host: &ActorRef<HostMsg>,
    kill: Kill,
) -> Result<Outcome, Box<dyn Error + Send + Sync>> {
    let file =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/programs/python/discount.py");
    let line = line_of(&file, "total += discounted")?;
    println!(
        "launching {} with a breakpoint at line {line}",
        file.display()
    );
    let session = runtime
        .launch(LaunchSpec::new(&file).breakpoint(&file, line))
        .await?;
    let (mut ticket, mut n) = (RunTicket { epoch: 0 }, 0);
    let mut kill_adapter = kill != Kill::Never;
    let exit_code = loop {
        let outcome = match session.wait_for_stop(ticket, STOP_WAIT).await {
            // The adapter died under the wait; the runtime restarts it and the program
            // runs again from its start, so the next stop is its first hit again.
            Err(SessionError::AdapterCrashed { attempt, .. }) => {
                println!("the adapter crashed; restart {attempt} is under way");
                n = 0;
                continue;
            }
            // Past the restart budget: the host hears of it too, and decides.
            Err(SessionError::SessionFailed { reason }) => return Ok(Outcome::Failed(reason)),
            other => other?,
        };
        match outcome {
            StopOutcome::Stopped(stop) => {
                n += 1;
                if kill_adapter {
                    kill_adapter = kill == Kill::Always;
                    if let Some(pid) = session.adapter_pid() {
                        println!("killing the adapter (pid {pid}) at hit {n}");
                        // SAFETY: a signal to the adapter this example started.
                        unsafe { libc::kill(pid as i32, libc::SIGKILL) };
                        ticket = RunTicket { epoch: stop.epoch };
                        continue;
                    }
                }
                let frames = session.stack_trace(None, None).await?;
                let stack = frames.iter().map(|f| f.name.clone()).collect();
                let [line_cents, discounted] =
                    locals(&session, frames[0].id, ["line_cents", "discounted"]).await?;
                let hit = HostMsg::Hit {
                    n,
                    stack,
                    line_cents,
                    discounted,
                };
                host.cast(hit).map_err(|_| "the host is gone")?;
                ticket = session.continue_(None).await?;
            }
            StopOutcome::Terminated { exit_code } => break exit_code,
            StopOutcome::TimedOut => return Err("the program neither stopped nor ended".into()),
            other => return Err(format!("an outcome this example does not know: {other:?}").into()),
        }
    };
    let output = session.output(0, 64 * 1024).await?.text();
    runtime.end_session(session.id()).await?;
    Ok(Outcome::Exited(exit_code, output))
}

/// The values of `names` in a frame's scopes ("?" for any not found).
async fn locals<const N: usize>(
    session: &SessionHandle,
    frame_id: i64,
    names: [&str; N],
) -> Result<[String; N], SessionError> {
    let mut values = names.map(|_| "?".to_string());
    for scope in session.scopes(frame_id).await? {
        if scope.variables_reference == 0 || values.iter().all(|v| v != "?") {
            continue;
        }
        for var in session.variables(scope.variables_reference).await? {
            if let Some(i) = names.iter().position(|n| *n == var.name) {
                values[i] = var.value;
            }
        }
    }
    Ok(values)
}

/// The 1-based line of `file` that contains `needle`.
fn line_of(file: &Path, needle: &str) -> Result<i64, Box<dyn Error + Send + Sync>> {
    let text = std::fs::read_to_string(file)?;
    let index = text.lines().position(|l| l.contains(needle));
    Ok(index.ok_or_else(|| format!("no line contains `{needle}`"))? as i64 + 1)
}

/// A line for the runtime events this example shows; `None` for the rest.
fn describe(kind: &EventKind) -> Option<String> {
    match kind {
        EventKind::Process { body } => {
            Some(format!("debuggee started, pid {}", body["systemProcessId"]))
        }
        EventKind::Exited { exit_code } => Some(format!("debuggee exited with code {exit_code}")),
        EventKind::SessionClosed { reason } => Some(format!("session closed ({reason})")),
        EventKind::AdapterCrashed {
            exit,
            restart_in_ms: Some(ms),
            ..
        } => Some(format!("adapter crashed ({exit}); restarting in {ms}ms")),
        EventKind::AdapterRestarted { attempt } => {
            Some(format!("adapter restarted (attempt {attempt})"))
        }
        EventKind::SessionFailed { reason } => Some(format!("session failed ({reason})")),
        _ => None,
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let kill = if args.iter().any(|a| a == "--keep-killing") {
        Kill::Always
    } else if args.iter().any(|a| a == "--kill-adapter") {
        Kill::Once
    } else {
        Kill::Never
    };
    let (tx, rx) = oneshot::channel();
    let (ended_tx, ended_rx) = oneshot::channel();
    let (_host, ended) = match Actor::spawn(None, HostActor, (kill, tx, ended_tx)).await {
        Ok(spawned) => spawned,
        Err(err) => {
            eprintln!("the host could not start: {err}");
            return ExitCode::FAILURE;
        }
    };
    let _ = ended.await;
    match (rx.await, kill) {
        (Ok(Outcome::Failed(_)), Kill::Always) => {
            if ended_rx.await == Ok(true) {
                println!("the session failed past its budget and the host ended it");
                ExitCode::SUCCESS
            } else {
                println!("the session failed, but the host did not end it");
                ExitCode::FAILURE
            }
        }
        (Ok(Outcome::Exited(Some(3), _)), Kill::Never | Kill::Once) => {
            println!("bug observed: exit code 3 (55.25 charged instead of 51.30)");
            ExitCode::SUCCESS
        }
        (Ok(outcome), _) => {
            println!("not what this run should show: {outcome:?}");
            ExitCode::FAILURE
        }
        (Err(_), _) => {
            println!("the host ended before the session did");
            ExitCode::FAILURE
        }
    }
}
