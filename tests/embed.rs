//! The runtime under a host application's own supervisor, against a real debugpy:
//! stopping the host ends every adapter and debuggee, the host hears of the runtime's
//! supervisor, and two runtimes live side by side in one process. Against the hostile
//! adapter: a session crashing past its restart budget fails, the host hears of it as
//! a runtime event, ends it, and no adapter is left.
//!
//! An ordered shutdown when the host stops is the host's call: its `post_stop` calls
//! `Runtime::shutdown` (every adapter gets a `disconnect` first). A host that is
//! killed or fails skips `post_stop`, and ractor kills the runtime's supervisor with
//! it; the adapters' process groups are then killed from the transports' `Drop`.

mod common;

use std::time::Duration;

use common::*;
use dapvisor::registry::AdapterDef;
use dapvisor::{
    EventKind, LaunchSpec, Received, RestartPolicy, RunTicket, Runtime, RuntimeConfig,
    SessionError, SessionId, StopOutcome,
};
use ractor::{Actor, ActorId, ActorProcessingErr, ActorRef, SupervisionEvent};
use tokio::sync::mpsc;
use tokio::time::timeout;

/// How long an actor may take to stop.
const ACTOR_WAIT: Duration = Duration::from_secs(30);

/// What the host tells the test.
enum Report {
    /// A supervision event about the runtime's supervisor, as `started`,
    /// `terminated: REASON` or `failed: ERROR`.
    Supervisor(String),
    /// The session stopped at its breakpoint; the pids of its adapter and of every
    /// descendant of the adapter running discount.py (the debuggee among them).
    Ready {
        runtime: Runtime,
        adapter: u32,
        debuggee: u32,
        program_pids: Vec<u32>,
    },
    /// Launching failed.
    Failed(String),
}

/// A host application's actor: runs the runtime linked under itself and launches one
/// session from a task. Its policy: when the runtime's supervisor ends, stop.
struct Host;

struct HostState {
    /// Held so that the runtime lives as long as the host (the last clone's drop
    /// stops the supervisor).
    runtime: Runtime,
    supervisor: ActorId,
    reports: mpsc::UnboundedSender<Report>,
}

impl Actor for Host {
    type Msg = ();
    type State = HostState;
    type Arguments = mpsc::UnboundedSender<Report>;

    async fn pre_start(
        &self,
        myself: ActorRef<()>,
        reports: Self::Arguments,
    ) -> Result<HostState, ActorProcessingErr> {
        let runtime = Runtime::start_linked(RuntimeConfig::default(), myself.get_cell()).await?;
        let supervisor = runtime.supervisor().get_id();
        // Launching waits on debugpy: a task, so the host's mailbox keeps flowing.
        let (tx, task_runtime) = (reports.clone(), runtime.clone());
        tokio::spawn(async move {
            let runtime = task_runtime;
            let report = match launch_to_breakpoint(&runtime).await {
                Ok((adapter, debuggee, program_pids)) => Report::Ready {
                    runtime,
                    adapter,
                    debuggee,
                    program_pids,
                },
                Err(err) => Report::Failed(err),
            };
            let _ = tx.send(report);
        });
        Ok(HostState {
            runtime,
            supervisor,
            reports,
        })
    }

    async fn handle(
        &self,
        _myself: ActorRef<()>,
        _message: (),
        _state: &mut HostState,
    ) -> Result<(), ActorProcessingErr> {
        Ok(())
    }

    /// The host's policy on the way out: end the runtime in order (every session,
    /// its adapter and its debuggee) before the host itself is gone.
    async fn post_stop(
        &self,
        _myself: ActorRef<()>,
        state: &mut HostState,
    ) -> Result<(), ActorProcessingErr> {
        state.runtime.shutdown().await;
        Ok(())
    }

    async fn handle_supervisor_evt(
        &self,
        myself: ActorRef<()>,
        event: SupervisionEvent,
        state: &mut HostState,
    ) -> Result<(), ActorProcessingErr> {
        let (cell, what, ended) = match event {
            SupervisionEvent::ActorStarted(cell) => (cell, "started".to_string(), false),
            SupervisionEvent::ActorTerminated(cell, _, reason) => {
                let reason = reason.unwrap_or_default();
                (cell, format!("terminated: {reason}"), true)
            }
            SupervisionEvent::ActorFailed(cell, err) => (cell, format!("failed: {err}"), true),
            _ => return Ok(()),
        };
        if cell.get_id() == state.supervisor {
            let _ = state.reports.send(Report::Supervisor(what));
            if ended {
                myself.stop(Some("the dapvisor runtime ended".into()));
            }
        }
        Ok(())
    }
}

/// Launch discount.py with a breakpoint, wait for the stop, and find the processes.
async fn launch_to_breakpoint(runtime: &Runtime) -> Result<(u32, u32, Vec<u32>), String> {
    let file = program("python/discount.py");
    let line = line_of(&file, "total += discounted");
    let mut events = runtime.subscribe();
    let spec = LaunchSpec::new(&file).breakpoint(&file, line);
    let session = runtime.launch(spec).await.map_err(|e| e.to_string())?;
    let stop = session
        .wait_for_stop(RunTicket { epoch: 0 }, STOP_WAIT)
        .await
        .map_err(|e| e.to_string())?;
    let adapter = session.adapter_pid().ok_or("no adapter pid")?;
    let debuggee = loop {
        let received = timeout(STOP_WAIT, events.recv()).await;
        match received.map_err(|_| format!("no process event (stop: {stop:?})"))? {
            Some(Received::Event(event)) => {
                if let EventKind::Process { body } = &event.kind {
                    let pid = body["systemProcessId"]
                        .as_u64()
                        .ok_or("no systemProcessId")?;
                    break pid as u32;
                }
            }
            Some(Received::Lagged { .. }) => {}
            Some(Received::CutOff { waiting }) => panic!("cut off with {waiting} events unread"),
            None => return Err("the runtime's events ended".into()),
        }
    };
    let program_pids: Vec<u32> = descendants(adapter)
        .into_iter()
        .filter(|&pid| cmdline(pid).contains("discount.py"))
        .collect();
    Ok((adapter, debuggee, program_pids))
}

/// Wait for the host's session to be ready; supervision reports seen on the way are
/// kept in `log`.
async fn wait_ready(
    reports: &mut mpsc::UnboundedReceiver<Report>,
    log: &mut Vec<String>,
) -> (Runtime, u32, Vec<u32>) {
    loop {
        let report = timeout(2 * STOP_WAIT, reports.recv()).await;
        match report.expect("the host's session never got ready") {
            Some(Report::Supervisor(what)) => log.push(what),
            Some(Report::Ready {
                runtime,
                adapter,
                debuggee,
                program_pids,
            }) => {
                assert!(
                    program_pids.contains(&debuggee),
                    "the debuggee {debuggee} should be under the adapter {adapter} \
                     (found {program_pids:?})"
                );
                let mut pids = vec![adapter];
                pids.extend(program_pids);
                return (runtime, debuggee, pids);
            }
            Some(Report::Failed(err)) => panic!("launching failed: {err}"),
            None => panic!("the host ended before its session was ready"),
        }
    }
}

fn drain_supervision(reports: &mut mpsc::UnboundedReceiver<Report>, log: &mut Vec<String>) {
    while let Ok(report) = reports.try_recv() {
        if let Report::Supervisor(what) = report {
            log.push(what);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_the_host_ends_the_runtime_and_every_process() {
    let (tx, mut reports) = mpsc::unbounded_channel();
    let (host, ended) = Actor::spawn(None, Host, tx).await.unwrap();
    let mut log = Vec::new();
    let (runtime, debuggee, pids) = wait_ready(&mut reports, &mut log).await;
    let supervisor = runtime.supervisor();
    drop(runtime); // only the host keeps the runtime now
    assert!(pids.iter().all(|&p| is_alive(p)), "{pids:?} should run");

    host.stop(None);
    timeout(ACTOR_WAIT, ended).await.unwrap().unwrap();
    drain_supervision(&mut reports, &mut log);
    println!("supervision events the host saw: {log:?}");
    assert!(
        log.iter().any(|w| w == "started"),
        "the host should have heard of its runtime's supervisor: {log:?}"
    );
    supervisor
        .wait(Some(ACTOR_WAIT))
        .await
        .expect("the runtime's supervisor should stop with its host");
    let left = wait_gone(pids.clone()).await;
    assert!(
        left.is_empty(),
        "still alive after the host stopped: {left:?} of {pids:?} (debuggee {debuggee})"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_hears_when_the_runtime_ends_and_decides() {
    let (tx, mut reports) = mpsc::unbounded_channel();
    let (_host, ended) = Actor::spawn(None, Host, tx).await.unwrap();
    let mut log = Vec::new();
    let (runtime, debuggee, pids) = wait_ready(&mut reports, &mut log).await;

    // The runtime ends while the host runs: the host hears of it and, as its policy
    // says, stops.
    runtime.shutdown().await;
    timeout(ACTOR_WAIT, ended)
        .await
        .expect("the host should stop when its runtime ends")
        .unwrap();
    drain_supervision(&mut reports, &mut log);
    assert!(
        log.iter().any(|w| w == "terminated: runtime shutdown"),
        "the host should have heard of the supervisor's end: {log:?}"
    );
    let left = wait_gone(pids.clone()).await;
    assert!(
        left.is_empty(),
        "still alive after the runtime ended: {left:?} of {pids:?} (debuggee {debuggee})"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_runtimes_in_one_process_work_at_once() {
    let (one, two) = tokio::join!(
        Runtime::start(RuntimeConfig::default()),
        Runtime::start(RuntimeConfig::default())
    );
    let (one, two) = (one.unwrap(), two.unwrap());
    assert_ne!(one.supervisor().get_id(), two.supervisor().get_id());
    let file = program("python/discount.py");
    let line = line_of(&file, "total += discounted");
    let spec = LaunchSpec::new(&file).breakpoint(&file, line);
    let (a, b) = tokio::join!(one.launch(spec.clone()), two.launch(spec));
    let (a, b) = (a.unwrap(), b.unwrap());

    // Both programs are stopped at their first hit at the same time.
    let first = RunTicket { epoch: 0 };
    let (stop_a, stop_b) = tokio::join!(expect_stop(&a, first), expect_stop(&b, first));
    assert_eq!(
        (stop_a.reason.as_str(), stop_b.reason.as_str()),
        ("breakpoint", "breakpoint")
    );
    assert_eq!(local(&a, "line_cents").await, "1000");
    assert_eq!(local(&b, "line_cents").await, "1000");
    let (pid_a, pid_b) = (a.adapter_pid().unwrap(), b.adapter_pid().unwrap());
    assert_ne!(pid_a, pid_b);
    assert_eq!(one.sessions().len(), 1);
    assert_eq!(two.sessions().len(), 1);

    // Moving one does not move the other.
    let next = a.continue_(None).await.unwrap();
    let stop = expect_stop(&a, next).await;
    assert_eq!(local(&a, "line_cents").await, "1200", "after {stop:?}");
    assert_eq!(local(&b, "line_cents").await, "1000");

    for session in [&a, &b] {
        session.remove_breakpoint(&file, line).await.unwrap();
    }
    let (ta, tb) = tokio::join!(a.continue_(None), b.continue_(None));
    let (ea, eb) = tokio::join!(expect_exit(&a, ta.unwrap()), expect_exit(&b, tb.unwrap()));
    assert_eq!((ea, eb), (Some(3), Some(3)));

    tokio::join!(one.shutdown(), two.shutdown());
    let left = wait_gone(vec![pid_a, pid_b]).await;
    assert!(left.is_empty(), "adapters still alive: {left:?}");
}

// ---- a session failing past its budget, and the host deciding ----

/// What the budget host tells the test.
#[derive(Debug)]
enum BudgetReport {
    /// The driver saw the adapter stop at the breakpoint, run by this pid.
    Adapter(u32),
    /// The driver's last request was answered with this (the failure, expected).
    DriverDone(Result<(), SessionError>),
    /// The host heard that a session failed, and ended it: how that went, then what
    /// the runtime said of it and how many sessions it still listed.
    Ended {
        reason: String,
        ended: Result<(), SessionError>,
        found: Result<SessionId, SessionError>,
        listed: usize,
    },
}

/// What reaches the budget host: a runtime event its listener forwards.
enum BudgetMsg {
    Failed { session: SessionId, reason: String },
}

/// A host whose one session runs on the hostile adapter, which crashes on every
/// `continue`, with a budget of one restart. Its policy when a session fails: end it.
struct BudgetHost;

struct BudgetState {
    runtime: Runtime,
    reports: mpsc::UnboundedSender<BudgetReport>,
}

/// The hostile adapter, crashing on `continue`, registered as `hostile`.
fn crash_on_continue() -> RuntimeConfig {
    let python = std::env::var("DAPVISOR_PYTHON").unwrap_or_else(|_| "python3".into());
    let mut def = AdapterDef::generic("hostile", python);
    let script = root().join("tests/support/hostile_adapter.py");
    def.args = vec![
        script.display().to_string(),
        "--fault".into(),
        "crash-on=continue".into(),
    ];
    let mut config = RuntimeConfig::default().restart_policy(RestartPolicy {
        max_restarts: 1,
        initial_backoff: Duration::from_millis(10),
        ..RestartPolicy::default()
    });
    config.adapters_mut().register(def);
    config
}

impl Actor for BudgetHost {
    type Msg = BudgetMsg;
    type State = BudgetState;
    type Arguments = mpsc::UnboundedSender<BudgetReport>;

    async fn pre_start(
        &self,
        myself: ActorRef<BudgetMsg>,
        reports: Self::Arguments,
    ) -> Result<BudgetState, ActorProcessingErr> {
        let runtime = Runtime::start_linked(crash_on_continue(), myself.get_cell()).await?;
        // The host listens to the runtime's events for failures.
        let mut events = runtime.subscribe();
        let host = myself.clone();
        tokio::spawn(async move {
            while let Some(received) = events.recv().await {
                if let Received::Event(event) = received {
                    if let EventKind::SessionFailed { reason } = &event.kind {
                        let reason = reason.clone();
                        let failed = BudgetMsg::Failed {
                            session: event.session_id,
                            reason,
                        };
                        if host.cast(failed).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        // The agent's side: stop, continue (the adapter crashes), again, from a task.
        let (tx, driver_runtime) = (reports.clone(), runtime.clone());
        tokio::spawn(async move {
            let done = drive_until_failed(&driver_runtime, &tx).await;
            let _ = tx.send(BudgetReport::DriverDone(done));
        });
        Ok(BudgetState { runtime, reports })
    }

    async fn handle(
        &self,
        _myself: ActorRef<BudgetMsg>,
        message: BudgetMsg,
        state: &mut BudgetState,
    ) -> Result<(), ActorProcessingErr> {
        let BudgetMsg::Failed { session, reason } = message;
        // The host's decision: end the failed session. Ending waits on the runtime,
        // so it runs as a task and the host's mailbox keeps flowing.
        let (runtime, reports) = (state.runtime.clone(), state.reports.clone());
        tokio::spawn(async move {
            let ended = runtime.end_session(session).await;
            let _ = reports.send(BudgetReport::Ended {
                reason,
                ended,
                found: runtime.find(session).map(|h| h.id()),
                listed: runtime.sessions().len(),
            });
        });
        Ok(())
    }

    async fn post_stop(
        &self,
        _myself: ActorRef<BudgetMsg>,
        state: &mut BudgetState,
    ) -> Result<(), ActorProcessingErr> {
        state.runtime.shutdown().await;
        Ok(())
    }
}

/// Launch on the hostile adapter and continue from every stop until a request is
/// refused with something other than a crash.
async fn drive_until_failed(
    runtime: &Runtime,
    reports: &mpsc::UnboundedSender<BudgetReport>,
) -> Result<(), SessionError> {
    let file = program("python/discount.py");
    let spec = LaunchSpec::new(&file)
        .adapter("hostile")
        .breakpoint(&file, 42);
    let session = runtime.launch(spec).await?;
    let mut ticket = RunTicket { epoch: 0 };
    loop {
        match session.wait_for_stop(ticket, STOP_WAIT).await {
            Ok(StopOutcome::Stopped(stop)) => {
                ticket = RunTicket { epoch: stop.epoch };
                if let Some(pid) = session.adapter_pid() {
                    let _ = reports.send(BudgetReport::Adapter(pid));
                }
                match session.continue_(None).await {
                    Ok(_) | Err(SessionError::AdapterCrashed { .. }) => {}
                    Err(other) => return Err(other),
                }
            }
            Ok(other) => panic!("the hostile program should stop, got {other:?}"),
            Err(SessionError::AdapterCrashed { .. }) => {}
            Err(other) => return Err(other),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_hears_a_session_fail_past_its_budget_and_ends_it() {
    let (tx, mut reports) = mpsc::unbounded_channel();
    let (host, ended) = Actor::spawn(None, BudgetHost, tx).await.unwrap();
    let (mut adapters, mut driver, mut decision) = (Vec::new(), None, None);
    while driver.is_none() || decision.is_none() {
        match timeout(2 * STOP_WAIT, reports.recv()).await {
            Ok(Some(BudgetReport::Adapter(pid))) => adapters.push(pid),
            Ok(Some(BudgetReport::DriverDone(done))) => driver = Some(done),
            Ok(Some(ended @ BudgetReport::Ended { .. })) => decision = Some(ended),
            other => panic!("the host stopped reporting: {other:?}"),
        }
    }
    // Two adapters (the first and its one restart) stopped at the breakpoint.
    assert_eq!(adapters.len(), 2, "{adapters:?}");
    assert_ne!(adapters[0], adapters[1]);
    let Some(BudgetReport::Ended {
        reason,
        ended: decided,
        found,
        listed,
    }) = decision
    else {
        unreachable!()
    };
    assert!(reason.contains("restart budget: 1 in 60s"), "{reason}");
    assert!(reason.contains("crashing on `continue`"), "{reason}");
    decided.expect("the host ended the failed session");
    // The agent's last request was told the same reason.
    match driver.unwrap() {
        Err(SessionError::SessionFailed { reason: told }) => assert_eq!(told, reason),
        other => panic!("the driver should end with the failure, got {other:?}"),
    }

    // Gone from the runtime, remembered as failed; no adapter left.
    assert_eq!(listed, 0);
    match found {
        Err(SessionError::SessionFailed { reason: kept }) => assert_eq!(kept, reason),
        other => panic!("the runtime should remember the failure, got {other:?}"),
    }
    let left = wait_gone(adapters.clone()).await;
    assert!(left.is_empty(), "adapters still alive: {left:?}");
    host.stop(None);
    timeout(ACTOR_WAIT, ended).await.unwrap().unwrap();
}
