//! A host application's policy for a failed session, against the hostile adapter
//! crashing on every `continue` with a budget of one restart: the session fails past
//! its budget, the host hears of it as a runtime event and ends it, the agent's last
//! request is told the same reason, the runtime remembers the failure, and no adapter
//! is left.

mod common;

use std::time::Duration;

use common::*;
use dapvisor::{
    EventKind, LaunchSpec, Received, RestartPolicy, RunTicket, Runtime, RuntimeConfig,
    SessionError, SessionId, StopOutcome,
};
use ractor::{Actor, ActorProcessingErr, ActorRef};
use tokio::sync::mpsc;
use tokio::time::timeout;

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
    let def = hostile_adapter("hostile", &["crash-on=continue"]);
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
