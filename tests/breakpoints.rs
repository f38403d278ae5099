mod common;
use common::*;
use dapvisor::wire::types::{SourceBreakpoint, FunctionBreakpoint};
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig, InitialBreakpoint};

fn frames_s(f: &[dapvisor::wire::types::StackFrame]) -> Vec<(String, i64)> { f.iter().map(|f| (f.name.clone(), f.line)).collect() }

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explore_py() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut ev = runtime.subscribe();
    let file = program("python/discount.py");
    let l45 = line_of(&file, "total += discounted");
    let mut spec = LaunchSpec::new(&file);
    spec.breakpoints.push(InitialBreakpoint { file: file.clone(), line: l45, hit_condition: Some("2".into()), ..Default::default() });
    spec.breakpoints.push(InitialBreakpoint { file: file.clone(), line: line_of(&file, "line_cents = qty * price"), condition: Some("qty == 1".into()), ..Default::default() });
    spec.breakpoints.push(InitialBreakpoint { file: file.clone(), line: line_of(&file, "return total"), log_message: Some("LOG total={total}".into()), ..Default::default() });
    spec.breakpoints.push(InitialBreakpoint { file: file.clone(), line: 500, ..Default::default() });
    spec.breakpoints.push(InitialBreakpoint { file: file.clone(), line: 10, ..Default::default() });
    let session = runtime.launch(spec).await.unwrap();
    println!("at launch {:?}", session.snapshot().await.unwrap().breakpoints);
    let mut t = RunTicket { epoch: 0 };
    loop {
        match session.wait_for_stop(t, STOP_WAIT).await.unwrap() {
            dapvisor::StopOutcome::Stopped(s) => {
                let frames = session.stack_trace(None, None).await.unwrap();
                println!("stop {s:?} {:?} name={}", frames_s(&frames), local(&session, "name").await);
                t = session.continue_(None).await.unwrap();
            }
            o => { println!("{o:?}"); break; }
        }
    }
    println!("end {:?}", session.snapshot().await.unwrap().breakpoints);
    println!("OUT {:?}", session.output(0, 1<<20).await.unwrap());
    while let Ok(e) = ev.try_recv() { if let dapvisor::Received::Event(e) = e { if matches!(e.kind, dapvisor::EventKind::Output{..} | dapvisor::EventKind::Breakpoint{..}) {println!("EV {:?}", e.kind);} } }
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explore_c() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut ev = runtime.subscribe();
    let source = program("c/average.c");
    let line = line_of(&source, "struct stats result = compute_stats");
    let session = runtime.launch(LaunchSpec::new(c_binary()).breakpoint(&source, line)).await.unwrap();
    let pid = session.adapter_pid().unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    println!("C stop {stop:?} {:?}", frames_s(&session.stack_trace(None, None).await.unwrap()));
    for d in dapvisor::transport::process::descendants(pid) { println!("C desc {d} {:?}", std::fs::read_to_string(format!("/proc/{d}/cmdline"))); }
    let r = session.set_function_breakpoints(vec![FunctionBreakpoint { name: "mean_of".into(), ..Default::default() }]).await;
    println!("C fbp {r:?}");
    let t = session.continue_(None).await.unwrap();
    let stop = expect_stop(&session, t).await;
    println!("C stop {stop:?} {:?}", frames_s(&session.stack_trace(None, None).await.unwrap()));
    let r = session.set_breakpoints(&source, vec![SourceBreakpoint { line: line_of(&source, "Average of a fixed"), ..Default::default() }, SourceBreakpoint { line: 9999, ..Default::default() }]).await;
    println!("C codeless {r:?}");
    let r = session.set_breakpoints("/nonexistent/x.c", vec![SourceBreakpoint { line: 3, ..Default::default() }]).await;
    println!("C unknown {r:?}");
    let t = session.continue_(None).await.unwrap();
    println!("{:?}", session.wait_for_stop(t, STOP_WAIT).await);
    while let Ok(e) = ev.try_recv() { if let dapvisor::Received::Event(e) = e { if matches!(e.kind, dapvisor::EventKind::Process{..} | dapvisor::EventKind::Breakpoint{..}) {println!("C EV {:?}", e.kind);} } }
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explore_go() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut ev = runtime.subscribe();
    let source = program("go/inventory/main.go");
    let line = line_of(&source, "orders := restock(items)");
    let session = runtime.launch(LaunchSpec::new(go_binary()).breakpoint(&source, line)).await.unwrap();
    let pid = session.adapter_pid().unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    println!("G stop {stop:?} {:?}", frames_s(&session.stack_trace(None, None).await.unwrap()));
    println!("G adapter {pid} {:?}", std::fs::read_to_string(format!("/proc/{pid}/cmdline")));
    for d in dapvisor::transport::process::descendants(pid) { println!("G desc {d} {:?}", std::fs::read_to_string(format!("/proc/{d}/cmdline"))); }
    let r = session.set_function_breakpoints(vec![FunctionBreakpoint { name: "main.needsRestock".into(), ..Default::default() }]).await;
    println!("G fbp {r:?}");
    let t = session.continue_(None).await.unwrap();
    let stop = expect_stop(&session, t).await;
    println!("G stop {stop:?} {:?}", frames_s(&session.stack_trace(None, None).await.unwrap()));
    let r = session.set_breakpoints(&source, vec![SourceBreakpoint { line: 1, ..Default::default() }]).await;
    println!("G codeless {r:?}");
    session.set_breakpoints(&source, vec![]).await.unwrap();
    session.set_function_breakpoints(vec![]).await.unwrap();
    let t = session.continue_(None).await.unwrap();
    println!("{:?}", session.wait_for_stop(t, STOP_WAIT).await);
    while let Ok(e) = ev.try_recv() { if let dapvisor::Received::Event(e) = e { if matches!(e.kind, dapvisor::EventKind::Process{..} | dapvisor::EventKind::Breakpoint{..}) {println!("G EV {:?}", e.kind);} } }
    runtime.shutdown().await;
}
