//! The runtime under a host application's own supervisor, against a real debugpy:
//! stopping the host ends every adapter and debuggee, and the host hears of the
//! runtime's supervisor (its start, and its end, on which the host decides). Two
//! runtimes side by side in one process: `embed_two_runtimes.rs`; a host ending a
//! session that failed past its restart budget: `embed_budget.rs`.
//!
//! An ordered shutdown when the host stops is the host's call: its `post_stop` calls
//! `Runtime::shutdown` (every adapter gets a `disconnect` first). A host that is
//! killed or fails skips `post_stop`, and ractor kills the runtime's supervisor with
//! it; the adapters' process groups are then killed from the transports' `Drop`.

mod common;

use common::*;
use dapvisor::{EventKind, LaunchSpec, Received, RunTicket, Runtime, RuntimeConfig};
use ractor::{Actor, ActorId, ActorProcessingErr, ActorRef, SupervisionEvent};
use tokio::sync::mpsc;
use tokio::time::timeout;

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
