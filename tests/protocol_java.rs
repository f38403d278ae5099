//! The protocol against the real Java adapter (JdiDapServer from
//! `@debugmcp/mcp-debugger` 0.24.2, on Debian's OpenJDK 17) on the Java example: what
//! it advertises, what it does with what it claims (function breakpoints, the `caught`
//! filter, terminate), and the refusals of what it lacks, each before anything reaches
//! it, with the session alive after them.

mod common;
mod protocol_support;

use common::*;
use dapvisor::wire::types::{FunctionBreakpoint, SourceBreakpoint};
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionHandle};
use protocol_support::*;

/// Parcels.java under JdiDapServer, stopped in `extraKilos` for its first parcel.
async fn stopped_in_extra_kilos() -> (Runtime, SessionHandle) {
    stopped_at(&program("java/Parcels.java"), "int kilos = past / 1000;").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn java_advertises_what_docs_protocol_md_records() {
    let (runtime, session) = stopped_in_extra_kilos().await;
    assert_advertises_as_recorded(&session, "java").await;
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_jdidapserver_lacks_is_refused_and_what_it_claims_it_does() {
    let (runtime, session) = stopped_in_extra_kilos().await;
    let source = program("java/Parcels.java");
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].id;
    let scopes = session.scopes(frame).await.unwrap();
    // Not advertised: refused by the capability check.
    assert_unsupported(
        session
            .set_variable(scopes[0].variables_reference, "past", "3")
            .await,
        "supportsSetVariable",
    );
    assert_unsupported(
        session.completions("pa", 3, Some(frame)).await,
        "supportsCompletionsRequest",
    );
    let line = line_of(&source, "return kilos;");
    for (breakpoint, flag) in [
        (
            SourceBreakpoint {
                line,
                log_message: Some("kilos={kilos}".into()),
                ..SourceBreakpoint::default()
            },
            "supportsLogPoints",
        ),
        (
            SourceBreakpoint {
                line,
                hit_condition: Some("2".into()),
                ..SourceBreakpoint::default()
            },
            "supportsHitConditionalBreakpoints",
        ),
    ] {
        assert_unsupported(
            session.set_breakpoints(&source, vec![breakpoint]).await,
            flag,
        );
    }
    assert_unsupported(
        session.custom_request("modules", None).await,
        "supportsModulesRequest",
    );

    // Claimed and done: a function breakpoint, by class and method.
    session.set_breakpoints(&source, vec![]).await.unwrap();
    let set = session
        .set_function_breakpoints(vec![FunctionBreakpoint {
            name: "Parcels.charge".into(),
            ..FunctionBreakpoint::default()
        }])
        .await
        .unwrap();
    assert!(set[0].verified, "{set:?}");
    let ticket = session.continue_(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(frames[0].name, "Parcels.charge", "{frames:?}");
    assert_eq!(
        session
            .evaluate("parcel.to()", Some(frames[0].id), None)
            .await
            .unwrap()
            .result,
        "\"Oslo\""
    );
    // Within one expression, a local read after a method call finds the frame stale:
    // JdiDapServer's own failure, passed on. Each call alone evaluates.
    let twice = session
        .evaluate("parcel.grams() * parcel.grams()", Some(frames[0].id), None)
        .await
        .unwrap_err()
        .to_string();
    assert!(twice.contains("Thread has been resumed"), "{twice}");
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(
        session
            .evaluate("parcel.grams()", Some(frames[0].id), None)
            .await
            .unwrap()
            .result,
        "800"
    );
    // Terminate ends the program.
    session.terminate().await.unwrap();
    runtime.shutdown().await;
}

/// How many of the JDK's own caught exceptions may come before the program's.
const MAX_JDK_STOPS: usize = 200;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_caught_filter_stops_at_an_exception_the_program_catches() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = root().join("tests/support/java/Raises.java");
    let mut spec = LaunchSpec::new(&source);
    spec.exception_filters = vec!["caught".into()];
    let session = runtime.launch(spec).await.unwrap();
    // The JDK catches exceptions of its own as it loads classes (the source-file
    // launcher's compiler more than most): each stops too, before the program's.
    let mut ticket = RunTicket { epoch: 0 };
    let mut seen = Vec::new();
    loop {
        let stop = expect_stop(&session, ticket).await;
        assert_eq!(stop.reason, "exception");
        let info = session.exception_info(None).await.unwrap();
        if info.exception_id == "java.lang.NumberFormatException" {
            break;
        }
        seen.push(info.exception_id);
        assert!(
            seen.len() < MAX_JDK_STOPS,
            "no NumberFormatException after {seen:?}"
        );
        ticket = session.continue_(None).await.unwrap();
    }
    // Thrown in the JDK's parseInt, called from the program's parse.
    let frames = session.stack_trace(None, None).await.unwrap();
    assert!(
        frames.iter().any(|f| f.name == "Raises.parse"),
        "{frames:?}"
    );
    session.terminate().await.unwrap();
    runtime.shutdown().await;
}
