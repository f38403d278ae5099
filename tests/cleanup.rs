//! No process left behind: for debugpy, lldb-dap, dlv, js-debug and CodeLLDB, and for
//! every way a session ends (terminate, disconnect, end_session, shutdown, dropping
//! the runtime, the program exiting by itself), the adapter and every process under it
//! (the debuggee among them) are gone afterwards. The processes are noted from `/proc`
//! while the session is stopped at a breakpoint, before it ends.

mod common;

use std::time::Duration;

use common::*;
use dapvisor::{
    EventKind, Received, RunTicket, Runtime, RuntimeConfig, SessionError, SessionHandle,
    SessionState,
};

/// A way for a session to end.
#[derive(Debug, Clone, Copy)]
enum Ending {
    /// `session.terminate()`: the session stays, ready to launch again.
    Terminate,
    /// `session.disconnect(true)`, ending the debuggee too; the session stays.
    Disconnect,
    /// `runtime.end_session(id)`: the session is removed.
    EndSession,
    /// `runtime.shutdown()`: every session is removed.
    Shutdown,
    /// The last `Runtime` clone and every handle dropped.
    DropRuntime,
    /// Continue: the program runs to its exit code and the session stays.
    ProgramExits,
    /// The runtime's supervisor killed (ractor skips `post_stop` on a kill, so
    /// cleanup must come from `Drop`).
    KillSupervisor,
    /// The idle reaper ends the session (a 1 s idle limit).
    Reaped,
}

/// Launch `example` to its breakpoint, note the adapter and everything under it, end
/// the session `ending`'s way, then assert that none of those processes is left.
async fn no_process_left(example: Example, ending: Ending) {
    let config = match ending {
        Ending::Reaped => RuntimeConfig::default().idle_limit(Some(Duration::from_secs(1))),
        _ => RuntimeConfig::default(),
    };
    let runtime = Runtime::start(config).await.unwrap();
    let mut runtime_events = runtime.subscribe();
    let session = runtime.launch(example.spec.clone()).await.unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    let adapter = session
        .adapter_pid()
        .expect("the adapter runs as a process");
    let mut pids = vec![adapter];
    pids.extend(descendants(adapter));
    // js-debug has dapvisor start its program.
    pids.extend(started_for_js_debug(adapter));
    let seen: Vec<String> = pids
        .iter()
        .map(|&p| format!("{p} {}", cmdline(p)))
        .collect();
    assert!(
        seen[1..].iter().any(|c| c.contains(&example.debuggee)),
        "the debuggee should run under the adapter (or for it): {seen:#?}"
    );

    match ending {
        Ending::Terminate => {
            session.terminate().await.unwrap();
            assert_stays_terminated(&runtime, &session).await;
        }
        Ending::Disconnect => {
            session.disconnect(true).await.unwrap();
            assert_stays_terminated(&runtime, &session).await;
        }
        Ending::EndSession => {
            runtime.end_session(session.id()).await.unwrap();
            assert!(runtime.session(session.id()).is_none());
            assert!(runtime.sessions().is_empty());
            assert_eq!(
                session.adapter_pid(),
                None,
                "the ended adapter is still named"
            );
        }
        Ending::Shutdown => {
            runtime.shutdown().await;
            assert!(runtime.sessions().is_empty());
            let state = session.state().await;
            assert!(
                matches!(state, Err(SessionError::SessionEnded(_))),
                "the session should be gone: {state:?}"
            );
            assert_eq!(
                session.adapter_pid(),
                None,
                "the ended adapter is still named"
            );
        }
        Ending::DropRuntime => {
            let supervisor = runtime.supervisor();
            drop(session);
            drop(runtime);
            supervisor
                .wait(Some(ACTOR_WAIT))
                .await
                .expect("the supervisor should stop with the last runtime clone");
        }
        Ending::KillSupervisor => {
            let supervisor = runtime.supervisor();
            supervisor.kill();
            supervisor
                .wait(Some(ACTOR_WAIT))
                .await
                .expect("a killed supervisor stops");
        }
        Ending::Reaped => {
            // Nothing asks anything of the session from here: it is reaped.
            let id = session.id();
            loop {
                let received = tokio::time::timeout(ACTOR_WAIT, runtime_events.recv()).await;
                match received.expect("the session is reaped within the wait") {
                    Some(Received::Event(event))
                        if event.session_id == id
                            && matches!(event.kind, EventKind::SessionReaped { .. }) =>
                    {
                        break
                    }
                    Some(_) => {}
                    None => panic!("the runtime's events ended"),
                }
            }
            assert!(runtime.session(id).is_none());
        }
        Ending::ProgramExits => {
            let ticket = session.continue_(None).await.unwrap();
            assert_eq!(expect_exit(&session, ticket).await, Some(example.exit_code));
            assert_stays_terminated(&runtime, &session).await;
        }
    }
    let left = wait_gone(pids).await;
    let left: Vec<String> = left
        .iter()
        .map(|&p| format!("{p} {}", cmdline(p)))
        .collect();
    assert!(
        left.is_empty(),
        "after {ending:?}, still alive: {left:#?}\nof the adapter and its descendants: {seen:#?}"
    );
}

/// The session ended but is still the runtime's, ready to launch again.
async fn assert_stays_terminated(runtime: &Runtime, session: &SessionHandle) {
    assert_eq!(session.state().await.unwrap(), SessionState::Terminated);
    assert_eq!(runtime.sessions().len(), 1, "the session stays");
}

/// One test per row: `name: example, ending;`.
macro_rules! no_process_left {
    ($($(#[$meta:meta])* $name:ident: $example:ident, $ending:ident;)*) => {$(
        $(#[$meta])*
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            no_process_left($example(), Ending::$ending).await;
        }
    )*};
}

no_process_left! {
    terminate_leaves_no_debugpy_process: discount_example, Terminate;
    terminate_leaves_no_lldb_dap_process: average_example, Terminate;
    terminate_leaves_no_dlv_process: inventory_example, Terminate;
    terminate_leaves_no_js_debug_process: cart_example, Terminate;
    terminate_leaves_no_codelldb_process: shelf_example, Terminate;

    disconnect_leaves_no_debugpy_process: discount_example, Disconnect;
    disconnect_leaves_no_lldb_dap_process: average_example, Disconnect;
    disconnect_leaves_no_dlv_process: inventory_example, Disconnect;
    disconnect_leaves_no_js_debug_process: cart_example, Disconnect;
    disconnect_leaves_no_codelldb_process: shelf_example, Disconnect;

    end_session_leaves_no_debugpy_process: discount_example, EndSession;
    end_session_leaves_no_lldb_dap_process: average_example, EndSession;
    end_session_leaves_no_dlv_process: inventory_example, EndSession;
    end_session_leaves_no_js_debug_process: cart_example, EndSession;
    end_session_leaves_no_codelldb_process: shelf_example, EndSession;

    shutdown_leaves_no_debugpy_process: discount_example, Shutdown;
    shutdown_leaves_no_lldb_dap_process: average_example, Shutdown;
    shutdown_leaves_no_dlv_process: inventory_example, Shutdown;
    shutdown_leaves_no_js_debug_process: cart_example, Shutdown;
    shutdown_leaves_no_codelldb_process: shelf_example, Shutdown;

    dropping_the_runtime_leaves_no_debugpy_process: discount_example, DropRuntime;
    dropping_the_runtime_leaves_no_lldb_dap_process: average_example, DropRuntime;
    dropping_the_runtime_leaves_no_dlv_process: inventory_example, DropRuntime;
    dropping_the_runtime_leaves_no_js_debug_process: cart_example, DropRuntime;
    dropping_the_runtime_leaves_no_codelldb_process: shelf_example, DropRuntime;

    the_program_exiting_leaves_no_debugpy_process: discount_example, ProgramExits;
    the_program_exiting_leaves_no_lldb_dap_process: average_example, ProgramExits;
    the_program_exiting_leaves_no_dlv_process: inventory_example, ProgramExits;
    the_program_exiting_leaves_no_js_debug_process: cart_example, ProgramExits;
    the_program_exiting_leaves_no_codelldb_process: shelf_example, ProgramExits;

    killing_the_supervisor_leaves_no_debugpy_process: discount_example, KillSupervisor;
    killing_the_supervisor_leaves_no_lldb_dap_process: average_example, KillSupervisor;
    killing_the_supervisor_leaves_no_dlv_process: inventory_example, KillSupervisor;
    killing_the_supervisor_leaves_no_js_debug_process: cart_example, KillSupervisor;
    killing_the_supervisor_leaves_no_codelldb_process: shelf_example, KillSupervisor;

    reaping_leaves_no_debugpy_process: discount_example, Reaped;
    reaping_leaves_no_lldb_dap_process: average_example, Reaped;
    reaping_leaves_no_dlv_process: inventory_example, Reaped;
    reaping_leaves_no_js_debug_process: cart_example, Reaped;
    reaping_leaves_no_codelldb_process: shelf_example, Reaped;
}
