//! The protocol against a real rdbg 1.4 (the `debug` gem bundled with Debian 12's Ruby
//! 3.1) on the Ruby example: what it advertises, and the refusals of what it lacks or
//! claims without doing, each before anything reaches it (a request rdbg 1.4 does not
//! know ends the program), with the session alive after them.

mod common;
mod protocol_support;

use common::*;
use dapvisor::wire::types::FunctionBreakpoint;
use dapvisor::{Runtime, SessionHandle};
use protocol_support::*;

/// library.rb under rdbg, stopped in `Loan#days_late` for its first loan.
async fn stopped_in_days_late() -> (Runtime, SessionHandle) {
    stopped_at(&program("ruby/library.rb"), "late = kept - LOAN_DAYS + 1").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ruby_advertises_what_docs_protocol_md_records() {
    let (runtime, session) = stopped_in_days_late().await;
    assert_advertises_as_recorded(&session, "rdbg").await;
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_rdbg_1_4_lacks_is_refused_and_the_program_lives_on() {
    let (runtime, session) = stopped_in_days_late().await;
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].id;
    let scopes = session.scopes(frame).await.unwrap();
    // Not advertised: refused by the capability check.
    assert_unsupported(
        session
            .set_variable(scopes[0].variables_reference, "kept", "3")
            .await,
        "supportsSetVariable",
    );
    assert_unsupported(
        session.exception_info(None).await,
        "supportsExceptionInfoRequest",
    );
    // Claimed, not done: function breakpoints are answered and never set, and a step
    // back needs a recording nothing over DAP can start.
    assert_unsupported(
        session
            .set_function_breakpoints(vec![FunctionBreakpoint {
                name: "Loan#fee_cents".into(),
                ..FunctionBreakpoint::default()
            }])
            .await,
        "supportsFunctionBreakpoints",
    );
    assert_unsupported(session.step_back(None, None).await, "supportsStepBack");
    // Requests rdbg 1.4 does not know would end the program: refused by its list.
    let reason = "rdbg 1.4 ends the program on a request it does not serve";
    assert_unsupported(
        session.custom_request("modules", None).await,
        "supportsModulesRequest",
    );
    assert_unsupported(session.custom_request("madeUpCommand", None).await, reason);

    // The program is where it was, and runs to its end.
    // rdbg evaluates only in a frame it gave (with none: "can't evaluate").
    let kept = || async {
        let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].id;
        session
            .evaluate("@kept", Some(frame), None)
            .await
            .unwrap()
            .result
    };
    assert_eq!(kept().await, "17");
    let ticket = session.continue_(None).await.unwrap();
    expect_stop(&session, ticket).await;
    assert_eq!(kept().await, "14");
    session.terminate().await.unwrap();
    runtime.shutdown().await;
}
