//! The runtime against a real js-debug (its DAP server under node, port read from its
//! banner): the program runs in the session js-debug asks for, which the launched
//! session adopts, so the agent has one session that stops, steps, evaluates and
//! reports the exit code. Scripts (`.js`), ES modules (`.mjs`), CommonJS (`.cjs`),
//! TypeScript through its source map, uncaught and caught exceptions, a worker thread
//! and a child process as child sessions, and attaching to `node --inspect`.

mod common;

use std::io::BufRead;
use std::path::Path;

use common::*;
use dapvisor::wire::types::{SourceBreakpoint, StackFrame};
use dapvisor::{
    AttachSpec, EventKind, LaunchSpec, Received, RunTicket, Runtime, RuntimeConfig, SessionHandle,
    SessionId,
};

/// The top `n` frames' (function, file name, line).
async fn top(session: &SessionHandle, n: i64) -> Vec<(String, String, i64)> {
    let frames: Vec<StackFrame> = session.stack_trace(None, Some(n)).await.unwrap();
    frames
        .into_iter()
        .map(|f| {
            let file = f
                .source
                .and_then(|s| s.path)
                .map(|p| {
                    Path::new(&p)
                        .file_name()
                        .unwrap()
                        .to_string_lossy()
                        .into_owned()
                })
                .unwrap_or_default();
            (f.name, file, f.line)
        })
        .collect()
}

/// Whether `frame` is in a function whose name contains `function`, in `file` at `line`.
fn at(frame: &(String, String, i64), function: &str, file: &str, line: i64) -> bool {
    frame.0.contains(function) && frame.1 == file && frame.2 == line
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finds_the_delivery_bug_stepping_in_out_and_over() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let file = program("javascript/cart.js");
    let call = line_of(&file, "const cents = lineCents(line);");
    // No adapter named: `.js` is js-debug's.
    let session = runtime
        .launch(LaunchSpec::new(&file).breakpoint(&file, call))
        .await
        .unwrap();
    let snapshot = session.snapshot().await.unwrap();
    assert_eq!(snapshot.adapter.as_deref(), Some("js-debug"));
    // One session: js-debug's bootstrap connection is not a second one to manage.
    assert_eq!(runtime.sessions().len(), 1);
    let server = session.adapter_pid().expect("the server runs");
    assert!(cmdline(server).contains("node"), "{}", cmdline(server));

    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    let frames = top(&session, 2).await;
    assert!(at(&frames[0], "cartTotal", "cart.js", call), "{frames:?}");
    assert!(frames[1].0.contains("main"), "{frames:?}");
    let line = session.snapshot().await.unwrap().last_stop.unwrap();
    assert_eq!(line.epoch, 1);

    // Into lineCents, then into salePrice, out again, over the return's line.
    let ticket = session.step_in(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let unit = line_of(&file, "const unit = salePrice(");
    assert!(at(&top(&session, 1).await[0], "lineCents", "cart.js", unit));
    let ticket = session.step_in(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let off = line_of(&file, "const off = Math.floor(");
    assert!(at(&top(&session, 1).await[0], "salePrice", "cart.js", off));
    assert_eq!(local(&session, "unitCents").await, "450");
    let ticket = session.step_out(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let frames = top(&session, 1).await;
    assert!(frames[0].0.contains("lineCents"), "{frames:?}");
    let ticket = session.next(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "step");
    let ret = line_of(&file, "return line.qty * unit;");
    assert!(at(&top(&session, 1).await[0], "lineCents", "cart.js", ret));
    assert_eq!(local(&session, "unit").await, "450");

    // Back in the loop, the bug in the locals and in an evaluation.
    let bug = line_of(&file, "total += cents + DELIVERY_CENTS;");
    session
        .set_breakpoints(
            &file,
            vec![SourceBreakpoint {
                line: bug,
                ..Default::default()
            }],
        )
        .await
        .unwrap();
    let ticket = session.continue_(None).await.unwrap();
    expect_stop(&session, ticket).await;
    assert!(at(&top(&session, 1).await[0], "cartTotal", "cart.js", bug));
    assert_eq!(local(&session, "cents").await, "1350");
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].id;
    let eval = session
        .evaluate("cents + DELIVERY_CENTS", Some(frame), None)
        .await
        .unwrap();
    assert_eq!(eval.result, "1849");
    let scopes = session.scopes(frame).await.unwrap();
    let mut vars = Vec::new();
    for scope in scopes.iter().filter(|s| !s.expensive) {
        vars.extend(session.variables(scope.variables_reference).await.unwrap());
    }
    let names: Vec<(&str, &str)> = scopes.iter().map(|s| (s.name.as_str(), "")).collect();
    let line_var = vars
        .iter()
        .find(|v| v.name == "line")
        .unwrap_or_else(|| panic!("`line` is a local: {names:?} {vars:?}"));
    assert!(line_var.value.contains("tea"), "{line_var:?}");
    let fields = session
        .variables(line_var.variables_reference)
        .await
        .unwrap();
    assert!(
        fields.iter().any(|v| v.name == "qty" && v.value == "3"),
        "{fields:?}"
    );

    // To the end: the exit code, from js-debug's launcher, and the output.
    session
        .set_breakpoints(&file, Vec::<SourceBreakpoint>::new())
        .await
        .unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(6));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("cart total: 55.46"), "{out:?}");
    assert!(out.contains("expected 45.48: MISMATCH"), "{out:?}");
    runtime.shutdown().await;
    assert!(
        wait_gone(vec![server]).await.is_empty(),
        "the server is gone"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn es_modules_and_commonjs_files_stop_and_report_their_exit_codes() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let receipt = program("javascript/receipt.mjs");
    let tally = program("javascript/tally.cjs");
    let (esm, cjs) = tokio::join!(
        runtime.launch(
            LaunchSpec::new(&receipt).breakpoint(&receipt, line_of(&receipt, "vat += vatOf("))
        ),
        runtime.launch(
            LaunchSpec::new(&tally)
                .breakpoint(&tally, line_of(&tally, "const choice = ballots[i];"))
        ),
    );
    let (esm, cjs) = (esm.unwrap(), cjs.unwrap());

    expect_stop(&esm, RunTicket { epoch: 0 }).await;
    assert!(top(&esm, 1).await[0].0.contains("receiptVat"));
    assert_eq!(local(&esm, "vat").await, "0");
    // A call in an evaluation: 133 cents at 20% is 26.6, rounded up.
    let frame = esm.stack_trace(None, Some(1)).await.unwrap()[0].id;
    let eval = esm
        .evaluate("vatOf(item.cents)", Some(frame), None)
        .await
        .unwrap();
    assert_eq!(eval.result, "27");
    expect_stop(&cjs, RunTicket { epoch: 0 }).await;
    // The bug: the loop starts at the second ballot.
    assert_eq!(local(&cjs, "i").await, "1");

    for (session, file, code, prints) in [
        (&esm, &receipt, 7, "vat on 699 cents: 141"),
        (&cjs, &tally, 8, "oak has 2 votes"),
    ] {
        session
            .set_breakpoints(file, Vec::<SourceBreakpoint>::new())
            .await
            .unwrap();
        let ticket = session.continue_(None).await.unwrap();
        assert_eq!(expect_exit(session, ticket).await, Some(code));
        let out = session.output(0, 1 << 20).await.unwrap().text();
        assert!(out.contains(prints), "{out:?}");
    }
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typescript_breakpoints_stop_in_the_ts_source_through_its_source_map() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("typescript/invoice.ts");
    let compiled = program("typescript/out/invoice.js");
    let gross = line_of(&source, "const gross = line.qty * line.unitCents;");
    assert_ne!(
        gross,
        line_of(&compiled, "const gross = line.qty * line.unitCents;")
    );
    let session = runtime
        .launch(LaunchSpec::new(&compiled).breakpoint(&source, gross))
        .await
        .unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    let frames = top(&session, 2).await;
    assert!(
        at(&frames[0], "lineCents", "invoice.ts", gross),
        "{frames:?}"
    );
    let call = line_of(&source, "total += lineCents(line);");
    assert!(
        at(&frames[1], "invoiceTotal", "invoice.ts", call),
        "{frames:?}"
    );
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].id;
    let qty = session
        .evaluate("line.qty", Some(frame), None)
        .await
        .unwrap();
    assert_eq!(qty.result, "10");
    // A step goes to the next line of the TypeScript.
    let ticket = session.next(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let discount = line_of(&source, "const discount = Math.floor(");
    assert!(at(
        &top(&session, 1).await[0],
        "lineCents",
        "invoice.ts",
        discount
    ));
    assert_eq!(local(&session, "gross").await, "1200");

    session
        .set_breakpoints(&source, Vec::<SourceBreakpoint>::new())
        .await
        .unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(9));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("invoice total: 2100"), "{out:?}");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exception_filters_stop_where_errors_are_thrown() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let file = program("javascript/parse_orders.js");

    // Uncaught only: the TypeError that ends the program, where it is thrown.
    let mut spec = LaunchSpec::new(&file);
    spec.exception_filters = vec!["uncaught".into()];
    let session = runtime.launch(spec).await.unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "exception");
    let bug = line_of(&file, "if (orders.get(sku).qty > orders.get(best).qty)");
    assert!(at(
        &top(&session, 1).await[0],
        "biggestOrder",
        "parse_orders.js",
        bug
    ));
    assert_eq!(local(&session, "sku").await, "'mug'");
    // js-debug puts the error's text in the id, and its stack in the details.
    let info = session.exception_info(None).await.unwrap();
    assert!(info.exception_id.starts_with("TypeError"), "{info:?}");
    let stack = info.details.and_then(|d| d.stack_trace).unwrap_or_default();
    assert!(stack.contains("at biggestOrder"), "{stack}");
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(1));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("read 2 orders, skipped 1"), "{out:?}");

    // Caught ones too: first the malformed line, thrown in parseLine and caught.
    let mut spec = LaunchSpec::new(&file);
    spec.exception_filters = vec!["all".into()];
    let session = runtime.launch(spec).await.unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "exception");
    let throw = line_of(&file, "throw new Error(`bad quantity");
    assert!(at(
        &top(&session, 1).await[0],
        "parseLine",
        "parse_orders.js",
        throw
    ));
    assert_eq!(local(&session, "line").await, "'mug x two'");
    session.set_exception_breakpoints(Vec::new()).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(1));
    runtime.shutdown().await;
}

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
            other => panic!("no child session was announced: {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_thread_and_a_child_process_are_child_sessions_on_the_same_server() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut events = runtime.subscribe();
    let main = program("javascript/workers.js");
    let worker = program("javascript/worker_job.js");
    let child = program("javascript/child_job.js");
    let spec = LaunchSpec::new(&main)
        .breakpoint(&worker, line_of(&worker, "return sum;"))
        .breakpoint(&child, line_of(&child, "return sum;"));
    let parent = runtime.launch(spec).await.unwrap();
    let server = parent.adapter_pid().expect("the server runs");

    let mut sums = Vec::new();
    for _ in 0..2 {
        let id = next_child(&mut events, parent.id()).await;
        let session = runtime.session(id).expect("the child is listed");
        expect_stop(&session, RunTicket { epoch: 0 }).await;
        let snapshot = session.snapshot().await.unwrap();
        assert_eq!(snapshot.parent, Some(parent.id()));
        assert_eq!(snapshot.adapter.as_deref(), Some("js-debug"));
        // A connection to the parent's server, not a server of its own.
        assert_eq!(session.adapter_pid(), None);
        let frames = top(&session, 1).await;
        assert!(frames[0].0.contains("sumRange"), "{frames:?}");
        sums.push((frames[0].1.clone(), local(&session, "sum").await));
        let ticket = session.continue_(None).await.unwrap();
        expect_exit(&session, ticket).await;
    }
    sums.sort();
    assert_eq!(
        sums,
        [
            ("child_job.js".to_string(), "3775".to_string()),
            ("worker_job.js".to_string(), "1275".to_string())
        ]
    );
    let ticket = RunTicket {
        epoch: parent.snapshot().await.unwrap().stop_epoch,
    };
    assert_eq!(expect_exit(&parent, ticket).await, Some(0));
    let out = parent.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("total: 5050"), "{out:?}");
    let mut pids = vec![server];
    pids.extend(descendants(server));
    runtime.end_session(parent.id()).await.unwrap();
    assert!(
        runtime.sessions().is_empty(),
        "the children end with their parent"
    );
    assert!(wait_gone(pids).await.is_empty());
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attaches_to_node_inspect_by_port_and_detaches_leaving_it_running() {
    let file = program("javascript/ticker.js");
    let mut node = Program(
        std::process::Command::new("node")
            .arg("--inspect=127.0.0.1:0")
            .arg(&file)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("node must be installed"),
    );
    // `Debugger listening on ws://127.0.0.1:PORT/<id>`, on stderr.
    let stderr = node.0.stderr.take().unwrap();
    let port = tokio::task::spawn_blocking(move || {
        let mut lines = std::io::BufReader::new(stderr).lines();
        let banner = lines.next().unwrap().unwrap();
        let port = banner
            .split("127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse::<u16>().ok())
            .unwrap_or_else(|| panic!("no port in {banner:?}"));
        // Keep draining, so that node never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        port
    })
    .await
    .unwrap();

    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let line = line_of(&file, "console.log(`tick ${ticks}`);");
    let mut spec = AttachSpec::default();
    spec.port = Some(port);
    spec.adapter = Some("js-debug".into());
    spec.breakpoints
        .push(dapvisor::InitialBreakpoint::new(file.clone(), line));
    let session = runtime.attach(spec).await.unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    assert!(at(&top(&session, 1).await[0], "tick", "ticker.js", line));
    let ticks: u64 = local(&session, "ticks").await.parse().unwrap();
    assert!(ticks >= 1);
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].id;
    let pid = session
        .evaluate("process.pid", Some(frame), None)
        .await
        .unwrap();
    assert_eq!(
        pid.result,
        node.0.id().to_string(),
        "the attached process itself"
    );

    session.disconnect(false).await.unwrap();
    runtime.shutdown().await;
    assert!(runs_untraced(node.0.id()), "detached, the program runs on");
}

/// A program the test started, killed when the test ends, however it ends.
struct Program(std::process::Child);

impl Drop for Program {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
