//! Child sessions on real debugpy: a program that runs workers in subprocesses gets
//! one child session per subprocess (debugpy's `startDebugging`), listed with its
//! parent, stopping at the parent's breakpoints with events of its own, and ended
//! with its parent: when the parent is removed, and when it is terminated while a
//! child's debuggee is stopped.

mod common;

use common::*;
use dapvisor::signals::Signal;
use dapvisor::{
    EventKind, LaunchSpec, Owner, Received, RunTicket, Runtime, RuntimeConfig, SessionHandle,
    SessionId, StopOutcome,
};

/// The next child session the runtime announces for `parent`.
async fn next_child(
    events: &mut dapvisor::EventStream<dapvisor::SessionEvent>,
    parent: SessionId,
) -> SessionId {
    loop {
        match tokio::time::timeout(STOP_WAIT, events.recv()).await {
            Ok(Some(Received::Event(event))) => {
                if let EventKind::ChildSession { child } = event.kind {
                    assert_eq!(event.session_id, parent);
                    return child;
                }
            }
            Ok(Some(Received::Lagged { .. })) => {}
            Ok(Some(Received::CutOff { waiting })) => {
                panic!("cut off with {waiting} events unread")
            }
            other => panic!("no child session was announced: {other:?}"),
        }
    }
}

/// The value of `name` among the top frame's locals.
async fn local_of(session: &SessionHandle, name: &str) -> String {
    local(session, name).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_subprocess_is_a_child_session_that_stops_at_the_parents_breakpoint() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut events = runtime.subscribe();
    let parent_file = program("python/jobs.py");
    let worker = program("python/job_worker.py");
    let line = line_of(&worker, "return product");
    // Started for a client, the parent and every child belong to it.
    let owner = Owner::new("c1").unwrap();
    let parent = runtime
        .owned_by(owner.clone())
        .launch(LaunchSpec::new(&parent_file).breakpoint(&worker, line))
        .await
        .unwrap();
    assert_eq!(parent.owner(), Some(owner.clone()));

    let mut quantities = Vec::new();
    for job in 1..=3 {
        let id = next_child(&mut events, parent.id()).await;
        let child = runtime.session(id).expect("the child is listed");
        let snapshot = child.snapshot().await.unwrap();
        assert_eq!(snapshot.parent, Some(parent.id()));
        assert_eq!(
            child.owner(),
            Some(owner.clone()),
            "the child is its parent's owner's"
        );
        let owned: Vec<SessionId> = runtime
            .sessions_owned_by(&owner)
            .iter()
            .map(SessionHandle::id)
            .collect();
        assert!(
            owned.contains(&parent.id()) && owned.contains(&id),
            "{owned:?}"
        );
        // They share one ownership: a share of the parent is one of the child, at
        // once, with nothing to pass it on (a child started meanwhile misses none).
        let other = Owner::new("c2").unwrap();
        parent.update_ownership(|o| o.share(Some(other.clone())));
        assert!(child.ownership().may_drive(Some(&other)), "shared with c2");
        child.update_ownership(|o| o.stop_sharing(None)).unwrap();
        assert!(!parent.ownership().may_drive(Some(&other)), "unshared");
        let mut child_events = child.subscribe();

        let stop = expect_stop(&child, RunTicket { epoch: 0 }).await;
        assert_eq!(stop.reason, "breakpoint");
        let frames = child.stack_trace(None, Some(1)).await.unwrap();
        assert_eq!((frames[0].name.as_str(), frames[0].line), ("work", line));
        assert_eq!(local_of(&child, "job").await, job.to_string());
        quantities.push(local_of(&child, "quantity").await);

        let ticket = child.continue_(None).await.unwrap();
        match child.wait_for_stop(ticket, STOP_WAIT).await.unwrap() {
            // debugpy ends a subprocess's session with `terminated` and no `exited`.
            StopOutcome::Terminated { .. } => {}
            other => panic!("the worker should end, got {other:?}"),
        }
        // The child's own stream carried its run, and nothing of anyone else's.
        let mut signals = Vec::new();
        while let Ok(received) = child_events.try_recv() {
            if let Received::Event(event) = received {
                assert_eq!(event.session_id, id, "a child sees only its own events");
                signals.push(event.signal());
            }
        }
        for expected in ["dap_state_changed", "dap_continued", "dap_terminated"] {
            assert!(
                signals.iter().any(|s| s == expected),
                "child {id} never saw {expected}: {signals:?}"
            );
        }
    }
    // The third job got the wrong quantity: the bug, found in the subprocess.
    assert_eq!(quantities, ["2", "4", "2"]);

    let ticket = RunTicket {
        epoch: parent.snapshot().await.unwrap().stop_epoch,
    };
    match parent.wait_for_stop(ticket, STOP_WAIT).await.unwrap() {
        StopOutcome::Terminated { exit_code } => assert_eq!(exit_code, Some(2)),
        other => panic!("the parent should end, got {other:?}"),
    }
    let out = parent.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("jobs total: 16"), "{out:?}");

    // Ending the parent ends its children.
    let children: Vec<SessionId> = runtime
        .sessions()
        .iter()
        .map(|s| s.id())
        .filter(|id| *id != parent.id())
        .collect();
    assert_eq!(children.len(), 3);
    runtime.end_session(parent.id()).await.unwrap();
    assert!(
        runtime.sessions().is_empty(),
        "the children end with their parent"
    );
    for id in children {
        assert!(runtime.session(id).is_none());
    }
    runtime.shutdown().await;
}

/// The debuggee's pid, as debugpy reports it.
async fn debuggee_pid(session: &SessionHandle) -> u32 {
    let info = session
        .custom_request("pydevdSystemInfo", None)
        .await
        .unwrap();
    info["process"]["pid"].as_u64().unwrap() as u32
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terminating_the_parent_ends_a_child_stopped_in_its_subprocess() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut events = runtime.subscribe();
    let worker = program("python/job_worker.py");
    let line = line_of(&worker, "return product");
    let parent = runtime
        .launch(LaunchSpec::new(program("python/jobs.py")).breakpoint(&worker, line))
        .await
        .unwrap();
    let id = next_child(&mut events, parent.id()).await;
    let child = runtime.session(id).expect("the child is listed");
    expect_stop(&child, RunTicket { epoch: 0 }).await;

    // The worker is stopped at the breakpoint; jobs.py waits for it.
    let worker_pid = debuggee_pid(&child).await;
    let jobs_pid = debuggee_pid(&parent).await;
    assert!(
        cmdline(worker_pid).contains("job_worker.py"),
        "{}",
        cmdline(worker_pid)
    );
    assert!(
        cmdline(jobs_pid).contains("jobs.py"),
        "{}",
        cmdline(jobs_pid)
    );
    assert_eq!(
        parent.state().await.unwrap(),
        dapvisor::SessionState::Running
    );

    parent.terminate().await.unwrap();
    let ticket = RunTicket {
        epoch: child.snapshot().await.unwrap().stop_epoch,
    };
    match child.wait_for_stop(ticket, STOP_WAIT).await.unwrap() {
        StopOutcome::Terminated { .. } => {}
        other => panic!("the child should end with its parent, got {other:?}"),
    }
    assert_eq!(
        wait_gone(vec![worker_pid, jobs_pid]).await,
        Vec::<u32>::new(),
        "the worker and jobs.py are gone"
    );
    // Both sessions stay, ended: the parent can launch again.
    assert_eq!(
        child.state().await.unwrap(),
        dapvisor::SessionState::Terminated
    );
    assert!(runtime.session(id).is_some());
    runtime.shutdown().await;
}
