//! Re-attaching after a crash. An attach's adapter is restarted only while what it
//! attached to is still there: a process by its pid and start time (a later process
//! that reuses the pid is not it), a debug server by whether its port still accepts a
//! TCP connection. Connecting takes a round trip, so that check runs in a task of its
//! own whose verdict comes back to the session as a message; the session's handler
//! never waits on it. A launch with a [`ReplayCheck`] is checked again the same way,
//! on a blocking thread (the check reads the file system).

use std::time::Duration;

use crate::core::attach_target::AttachTarget;
use crate::core::command::{Input, StartPlan};
use crate::core::failure::Failure;
use crate::core::session::SessionCore;
use crate::core::start_plan::ReplayCheck;
use crate::transport::procfs::Stat;

/// What to do with a restart that is due.
#[derive(Debug)]
pub(crate) enum Check {
    /// Feed the core this input now.
    Now(Input),
    /// Ask whether the debug server at `host:port` is still there first (with
    /// [`server_gone`], off the handler), then feed [`restart_input`]'s answer.
    Probe {
        /// The server's host.
        host: String,
        /// The server's port.
        port: u16,
    },
    /// Check the launch's `plan` with `check` first (with [`replay_refused`], on a
    /// blocking thread), then feed [`restart_input`]'s answer.
    Replay {
        /// The check.
        check: ReplayCheck,
        /// The plan the restart would start.
        plan: Box<StartPlan>,
    },
}

/// What restart `attempt` for the supervisor's crash `crash` needs before it starts.
/// A stale restart (the core no longer waits for it) goes straight to the core,
/// which ignores it; so does a launch's.
pub(crate) fn check(core: &SessionCore, attempt: u32, crash: u64) -> Check {
    if !core.awaits_restart(crash) {
        return Check::Now(Input::RestartAdapter { attempt, crash });
    }
    match core.attach_target() {
        Some(AttachTarget::Process { pid, start }) => {
            let gone = process_gone(*pid, *start, Stat::read(*pid));
            Check::Now(restart_input(core, attempt, crash, gone))
        }
        Some(AttachTarget::Server { host, port }) => Check::Probe {
            host: host.clone(),
            port: *port,
        },
        None => match core.replay_check() {
            Some((check, plan)) => Check::Replay {
                check,
                plan: Box::new(plan),
            },
            None => Check::Now(Input::RestartAdapter { attempt, crash }),
        },
    }
}

/// Why `plan` may not be started again after its adapter crashed: what `check` says
/// of it now; `None` when it passes.
pub(crate) fn replay_refused(check: &ReplayCheck, plan: &StartPlan) -> Option<String> {
    check.check(plan).err().map(|why| {
        format!(
            "the adapter crashed, and the launch was not started again: {why}; launch the \
             program anew once it passes"
        )
    })
}

/// The restart, or the session's failure when the target is `gone` (only while the
/// core still waits for this restart: a verdict that comes back late changes nothing).
pub(crate) fn restart_input(
    core: &SessionCore,
    attempt: u32,
    crash: u64,
    gone: Option<String>,
) -> Input {
    match gone {
        Some(reason) if core.awaits_restart(crash) => Input::Fail {
            cause: Failure::TargetGone(reason),
        },
        _ => Input::RestartAdapter { attempt, crash },
    }
}

/// Why process `pid` (started at `start`, when known) is gone, given what `/proc`
/// says of the pid now; `None` while it still runs.
pub(crate) fn process_gone(pid: u32, start: Option<u64>, now: Option<Stat>) -> Option<String> {
    let why = match now {
        None => "is gone (it exited)",
        Some(stat) if !stat.is_alive() => "is gone (it exited)",
        Some(stat) if start.is_some_and(|s| s != stat.start) => {
            "is gone (its pid now belongs to another process)"
        }
        Some(_) => return None,
    };
    Some(format!(
        "the attached process {pid} {why}, so there is nothing to re-attach to after \
         the adapter crashed; start the program again and attach to it anew"
    ))
}

/// Why the debug server at `host:port` is gone: its port refused a TCP connection or
/// did not accept one within `timeout`; `None` while it accepts.
pub(crate) async fn server_gone(host: &str, port: u16, timeout: Duration) -> Option<String> {
    let connect = tokio::net::TcpStream::connect((host, port));
    let why = match tokio::time::timeout(timeout, connect).await {
        Ok(Ok(_)) => return None,
        Ok(Err(err)) => format!("connecting to it failed: {err}"),
        Err(_) => format!("it did not accept a connection within {timeout:?}"),
    };
    Some(format!(
        "the debug server at {host}:{port} is gone ({why}), so there is nothing to \
         re-attach to after the adapter crashed; start the debug server again and \
         attach to it anew"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::procfs::ProcessId;

    fn stat(state: char, start: u64) -> Stat {
        Stat {
            pid: 4242,
            state,
            ppid: 1,
            pgrp: 4242,
            start,
        }
    }

    #[test]
    fn this_process_is_not_gone_and_a_different_start_is_not_it() {
        let me = std::process::id();
        let start = ProcessId::of(me).expect("our own start time").start;
        assert_eq!(process_gone(me, Some(start), Stat::read(me)), None);
        assert!(process_gone(me, Some(start + 1), Stat::read(me)).is_some());
    }

    #[test]
    fn a_process_is_there_only_while_it_runs_with_the_start_time_it_had() {
        assert_eq!(process_gone(4242, Some(100), Some(stat('S', 100))), None);
        assert_eq!(process_gone(4242, None, Some(stat('R', 7))), None);
        let reused = process_gone(4242, Some(100), Some(stat('S', 900))).unwrap();
        assert!(
            reused.contains("4242 is gone (its pid now belongs to another process)"),
            "{reused}"
        );
        for now in [None, Some(stat('Z', 100)), Some(stat('X', 100))] {
            let gone = process_gone(4242, Some(100), now).unwrap();
            assert!(gone.contains("attached process 4242 is gone"), "{gone}");
            assert!(gone.contains("attach to it anew"), "{gone}");
        }
    }

    #[test]
    fn a_replay_check_refuses_with_its_reason_and_passes_what_it_passes() {
        let plan = crate::core::tests::plan();
        let passes = ReplayCheck::new(|_| Ok(()));
        assert_eq!(replay_refused(&passes, &plan), None);
        let refuses = ReplayCheck::new(|plan| {
            Err(format!(
                "{} resolves outside the root",
                plan.program.as_deref().unwrap_or("?")
            ))
        });
        let why = replay_refused(&refuses, &plan).unwrap();
        assert!(why.contains("not started again"), "{why}");
        assert!(why.contains("resolves outside the root"), "{why}");
    }

    // Real time: the deadline is only a ceiling, and a paused clock could jump past it
    // while the connection is still under way.
    #[tokio::test]
    async fn a_server_is_there_while_its_port_accepts_and_gone_when_refused() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let timeout = Duration::from_secs(10);
        assert_eq!(server_gone("127.0.0.1", port, timeout).await, None);
        // Bound but not listening: refused, and no other process can listen there
        // meanwhile (as one could on a port merely closed).
        let closed = tokio::net::TcpSocket::new_v4().unwrap();
        closed.bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let port = closed.local_addr().unwrap().port();
        let gone = server_gone("127.0.0.1", port, timeout).await.unwrap();
        assert!(
            gone.starts_with(&format!("the debug server at 127.0.0.1:{port} is gone")),
            "{gone}"
        );
        assert!(gone.contains("start the debug server again"), "{gone}");
    }
}
