//! The program's variables on a real lldb-dap 22 on average.c: a data breakpoint (by a
//! variable, and by its address and size) stops where the variable is written, and
//! setVariable changes what the program computes.

mod common;
mod protocol_support;

use common::*;
use dapvisor::wire::types::{
    DataBreakpoint, DataBreakpointAccessType, DataBreakpointInfoArguments,
};
use protocol_support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_data_breakpoint_stops_where_the_variable_is_written() {
    let (runtime, session, line) = average_c_stopped_at("s.sum += scores[i];").await;
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();
    let locals = session.scopes(frame.id).await.unwrap()[0].variables_reference;
    let s = session
        .variables(locals)
        .await
        .unwrap()
        .into_iter()
        .find(|v| v.name == "s")
        .expect("local s");

    let info = session
        .data_breakpoint_info(DataBreakpointInfoArguments {
            variables_reference: Some(s.variables_reference),
            name: "sum".into(),
            ..DataBreakpointInfoArguments::default()
        })
        .await
        .unwrap();
    let data_id = info.data_id.clone().expect("s.sum can be watched");
    assert!(info.description.contains("sum"), "{info:?}");
    let access = info.access_types.unwrap_or_default();
    assert!(
        access.contains(&DataBreakpointAccessType::Write),
        "{access:?}"
    );

    // lldb-dap 22 also takes an address and a size (supportsDataBreakpointBytes): s.sum's
    // own address, 4 bytes, names the same watch.
    let sum_at = session
        .variables(s.variables_reference)
        .await
        .unwrap()
        .into_iter()
        .find(|v| v.name == "sum")
        .and_then(|v| v.memory_reference)
        .expect("s.sum has a memory reference");
    let by_address = session
        .data_breakpoint_info(DataBreakpointInfoArguments {
            name: sum_at.clone(),
            as_address: Some(true),
            bytes: Some(4),
            ..DataBreakpointInfoArguments::default()
        })
        .await
        .unwrap();
    assert_eq!(by_address.data_id.as_deref(), Some(data_id.as_str()));
    assert_eq!(
        data_id,
        format!("{}/4", sum_at.trim_start_matches("0x")),
        "lldb-dap 22's data ids are ADDRESS/SIZE"
    );

    let set = session
        .set_data_breakpoints(vec![DataBreakpoint {
            data_id,
            access_type: Some(DataBreakpointAccessType::Write),
            ..DataBreakpoint::default()
        }])
        .await
        .unwrap();
    assert_eq!(set.len(), 1);
    assert!(set[0].verified, "{set:?}");
    let id = set[0].id.expect("the data breakpoint's id");
    session
        .remove_breakpoint(program("c/average.c"), line)
        .await
        .unwrap();

    // Each write to s.sum stops right after it, with the new value in place: a
    // `data breakpoint` stop on that breakpoint (lldb-dap 19 said "watchpoint").
    for expected in ["90", "175"] {
        let ticket = session.continue_(None).await.unwrap();
        let stop = expect_stop(&session, ticket).await;
        let description = format!("data breakpoint {id}");
        assert_eq!(
            (stop.reason.as_str(), stop.description.as_deref()),
            ("data breakpoint", Some(description.as_str())),
            "{stop:?}"
        );
        assert_eq!(stop.hit_breakpoint_ids, [id]);
        let top = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();
        assert_eq!(top.line, line + 1, "stopped after the write");
        let sum = session.evaluate("s.sum", Some(top.id), None).await.unwrap();
        assert_eq!(sum.result, expected);
    }

    // Removed: the program runs to its end.
    assert!(session
        .set_data_breakpoints(vec![])
        .await
        .unwrap()
        .is_empty());
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(4));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_variable_changes_what_the_program_computes() {
    let (runtime, session, line) = average_c_stopped_at("double mean = sum / count;").await;
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();
    let locals = session.scopes(frame.id).await.unwrap()[0].variables_reference;

    // lldb-dap 19 answered with `result`, lldb-dap 22 with `value`; the typed answer
    // has the value either way.
    let set = session.set_variable(locals, "sum", "500").await.unwrap();
    assert_eq!(set.value, "500");
    assert_eq!(local(&session, "sum").await, "500");
    let mean = session
        .evaluate("sum / count", Some(frame.id), None)
        .await
        .unwrap();
    assert_eq!(mean.result, "100");

    let bad = session.set_variable(locals, "no_such_local", "1").await;
    assert_adapter_refused(bad, "setVariable");

    session
        .remove_breakpoint(program("c/average.c"), line)
        .await
        .unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(4));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("average of 5 scores: 100.00"), "{out:?}");
    runtime.shutdown().await;
}
