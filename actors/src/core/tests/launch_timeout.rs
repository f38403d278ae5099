//! The launch handshake's deadline, for the whole and for each of its requests: the
//! plan's own, else that of the `with_timeout` view that started it, else the
//! runtime's `launch_timeout`, else the adapter family's own (not the request
//! deadline: `launch` may build the program first); clamped to 5 s..30 min; kept for
//! a restart after a crash.

use std::time::Duration;

use super::adapter_restart::killed;
use super::{dlv_plan, full_caps, lldb_plan, plan, Harness};
use crate::core::command::{Command, Input, StartPlan};
use crate::core::session::CoreConfig;
use crate::error::SessionError;
use crate::limits;

/// The handshake's timer, and the deadlines `initialize` and `launch` were sent with.
fn deadlines(h: &mut Harness, start: Command) -> (Duration, Duration, Duration) {
    let (_, out) = h.command(start);
    let timer = out.timers()[0].1;
    let (tag, _, initialize) = out.sent("initialize");
    let out = h.ok(tag, full_caps());
    let (_, _, launch) = out.sent("launch");
    (timer, initialize, launch)
}

fn start(plan: StartPlan) -> Command {
    Command::Start(Box::new(plan))
}

fn view(timeout: Duration, command: Command) -> Command {
    Command::WithTimeout {
        timeout,
        command: Box::new(command),
    }
}

fn plan_with(timeout: Duration) -> StartPlan {
    StartPlan {
        launch_timeout: Some(timeout),
        ..plan()
    }
}

#[test]
fn the_handshake_has_the_launch_deadline_not_the_request_deadline() {
    let mut h = Harness::new();
    let all = limits::DEFAULT_LAUNCH_TIMEOUT;
    assert_eq!(deadlines(&mut h, start(plan())), (all, all, all));
    assert!(all > limits::DEFAULT_REQUEST_TIMEOUT);

    let config = CoreConfig {
        launch_timeout: Some(Duration::from_secs(400)),
        ..CoreConfig::default()
    };
    let mut h = Harness::with_config(config);
    let all = Duration::from_secs(400);
    assert_eq!(deadlines(&mut h, start(plan())), (all, all, all));
}

/// Issue 27, item 13: one deadline (120 s) for every adapter, though a Go build or a
/// large symbol load needs more than debugpy.
#[test]
fn each_adapter_family_has_its_own_deadline_unless_the_runtime_names_one() {
    let family = |plan| deadlines(&mut Harness::new(), start(plan)).0;
    assert_eq!(family(plan()), limits::DEFAULT_LAUNCH_TIMEOUT, "debugpy");
    assert_eq!(family(dlv_plan()), limits::DLV_LAUNCH_TIMEOUT);
    assert_eq!(family(lldb_plan()), limits::NATIVE_LAUNCH_TIMEOUT);
    assert!(limits::DLV_LAUNCH_TIMEOUT > limits::DEFAULT_LAUNCH_TIMEOUT);
    assert!(limits::NATIVE_LAUNCH_TIMEOUT > limits::DEFAULT_LAUNCH_TIMEOUT);

    let config = CoreConfig {
        launch_timeout: Some(Duration::from_secs(45)),
        ..CoreConfig::default()
    };
    let mut h = Harness::with_config(config);
    assert_eq!(
        deadlines(&mut h, start(dlv_plan())).0,
        Duration::from_secs(45)
    );
}

#[test]
fn a_plans_deadline_wins_then_a_views_and_each_is_clamped() {
    let ten_min = Duration::from_secs(600);
    let mut h = Harness::new();
    assert_eq!(deadlines(&mut h, start(plan_with(ten_min))).0, ten_min);

    let ninety = Duration::from_secs(90);
    let mut h = Harness::new();
    assert_eq!(
        deadlines(&mut h, view(ninety, start(plan()))),
        (ninety, ninety, ninety)
    );
    let mut h = Harness::new();
    assert_eq!(
        deadlines(&mut h, view(ninety, start(plan_with(ten_min)))).0,
        ten_min
    );

    let mut h = Harness::new();
    let hour = Duration::from_secs(3600);
    assert_eq!(
        deadlines(&mut h, start(plan_with(hour))).0,
        limits::MAX_LAUNCH_TIMEOUT
    );
    let mut h = Harness::new();
    let blink = Duration::from_millis(1);
    assert_eq!(
        deadlines(&mut h, start(plan_with(blink))).0,
        limits::MIN_REQUEST_TIMEOUT
    );
}

#[test]
fn a_handshake_past_its_deadline_says_which_deadline() {
    let mut h = Harness::new();
    let (token, out) = h.command(start(plan_with(Duration::from_secs(200))));
    let (timer, _) = out.timers()[0];
    h.ok(out.tag("initialize"), full_caps());
    let out = h.timer(timer);
    match out.error(token) {
        SessionError::StartFailed { message, .. } => {
            assert!(message.contains("within 200s"), "{message}")
        }
        other => panic!("want StartFailed, got {other:?}"),
    }
}

#[test]
fn a_restart_after_a_crash_keeps_the_plans_deadline() {
    let mut h = Harness::new();
    let ten_min = Duration::from_secs(600);
    h.launch_with(plan_with(ten_min), full_caps());
    h.closed(killed());
    h.input(Input::AdapterRestartScheduled {
        attempt: 1,
        after: Duration::from_millis(250),
        crash: 1,
    });
    let out = h.input(Input::RestartAdapter {
        attempt: 1,
        crash: 1,
    });
    assert_eq!(out.timers()[0].1, ten_min);
    assert_eq!(out.sent("initialize").2, ten_min);
}
