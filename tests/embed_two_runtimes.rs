//! Two runtimes live side by side in one process, against a real debugpy: each with
//! its own supervisor, adapter and session, both stopped at once, moving one leaving
//! the other where it was, and both shut down with no adapter left.

mod common;

use common::*;
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig};

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
