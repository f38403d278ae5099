//! Tracepoints on every real adapter: a tracepoint over a 1,000-iteration loop
//! records 1,000 rows with the right values, in order, without a single stop; the
//! program's output holds none of the tracepoint's lines; and the breakpoint counts
//! its 1,000 hits.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use dapvisor::{InitialBreakpoint, LaunchSpec, RunTicket, Runtime, RuntimeConfig};

/// Launch `program` (under `adapter`, or the one its kind picks) with a tracepoint
/// collecting `i` and `reading` at `total += reading` in `source`, run it to its end,
/// and check every row.
async fn a_thousand_rows(adapter: Option<&str>, program: PathBuf, source: &Path) {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let line = line_of(source, "total += reading");
    let mut spec = LaunchSpec::new(program);
    spec.adapter = adapter.map(str::to_string);
    spec.breakpoints.push({
        let mut value = InitialBreakpoint::new(source.to_path_buf(), line);
        value.collect = vec!["i".into(), "reading".into()];
        value
    });
    let session = runtime.launch(spec).await.unwrap();
    // Not one stop: the first thing to come is the end.
    assert_eq!(
        expect_exit(&session, RunTicket { epoch: 0 }).await,
        Some(12)
    );

    let slice = session.trace(0, 5000).await.unwrap();
    assert_eq!(
        (slice.rows.len(), slice.dropped, slice.more),
        (1000, 0, false)
    );
    for (k, row) in slice.rows.iter().enumerate() {
        let k = k as i64;
        let values: Vec<(&str, &str)> = row
            .values
            .iter()
            .map(|v| (v.expression.as_str(), v.value.as_str()))
            .collect();
        let (i, reading) = (k.to_string(), ((k * 37) % 101).to_string());
        assert_eq!(
            values,
            [("i", i.as_str()), ("reading", reading.as_str())],
            "row {k}: {row:?}"
        );
        assert_eq!((row.hit, row.line), (k as u64 + 1, line), "{row:?}");
        assert_eq!(row.file, source, "{row:?}");
    }
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("average 50 over 1000 readings"), "{out:?}");
    assert!(
        !out.contains("@@dvt"),
        "a tracepoint line leaked into the output"
    );
    let snapshot = session.snapshot().await.unwrap();
    assert_eq!(snapshot.breakpoints.file(source)[0].hits, 1000);
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_records_a_row_per_iteration_without_stopping() {
    let source = program("python/readings.py");
    a_thousand_rows(None, source.clone(), &source).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_records_a_row_per_iteration_without_stopping() {
    a_thousand_rows(None, build_c("readings"), &program("c/readings.c")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_records_a_row_per_iteration_without_stopping() {
    let source = program("go/readings/main.go");
    a_thousand_rows(None, program("go/readings"), &source).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn js_debug_records_a_row_per_iteration_without_stopping() {
    let source = program("javascript/readings.js");
    a_thousand_rows(None, source.clone(), &source).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codelldb_records_a_row_per_iteration_without_stopping() {
    let source = program("rust/readings.rs");
    a_thousand_rows(Some("codelldb"), build_rust("readings"), &source).await;
}
