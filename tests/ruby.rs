//! The runtime against a real rdbg (the `debug` gem's DAP server, inside the Ruby
//! program it runs; port read from its banner on stderr) on the Ruby example.

mod common;

use common::*;
use dapvisor::wire::types::SourceBreakpoint;
use dapvisor::{InitialBreakpoint, LaunchSpec, RunTicket, Runtime, RuntimeConfig};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finds_the_late_fee_bug_with_a_conditional_breakpoint() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("ruby/library.rb");
    let line = line_of(&source, "late = kept - LOAN_DAYS + 1");
    let mut spec = LaunchSpec::new(&source);
    spec.breakpoints.push({
        let mut at = InitialBreakpoint::new(source.clone(), line);
        at.condition = Some("title == \"Emma\"".into());
        at
    });
    let session = runtime.launch(spec).await.unwrap();
    assert_eq!(
        session.snapshot().await.unwrap().adapter.as_deref(),
        Some("rdbg")
    );

    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    let frames = session.stack_trace(None, None).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[0].line),
        ("Loan#days_late", line)
    );
    assert_eq!(frames[1].name, "Loan#fee_cents");
    assert_eq!(frames[2].name, "block in charge_all");

    // The loan is `self`; its instance variables are its children.
    let scopes = session.scopes(frames[0].id).await.unwrap();
    let locals = session
        .variables(scopes[0].variables_reference)
        .await
        .unwrap();
    let me = locals.iter().find(|v| v.name == "%self").unwrap();
    assert!(me.value.starts_with("#<Loan"), "{me:?}");
    let fields = session.variables(me.variables_reference).await.unwrap();
    let field = |name: &str| {
        fields
            .iter()
            .find(|v| v.name == name)
            .map(|v| v.value.clone())
            .unwrap_or_else(|| panic!("no {name} in {fields:?}"))
    };
    assert_eq!(field("@title"), "\"Emma\"");
    assert_eq!(field("@kept"), "14");

    // Returned on its due day: not late, but the line counts it as a day.
    let eval = |expression: &'static str| {
        let session = session.clone();
        let frame = frames[0].id;
        async move {
            session
                .evaluate(expression, Some(frame), None)
                .await
                .unwrap()
                .result
        }
    };
    assert_eq!(eval("kept - LOAN_DAYS + 1").await, "1");
    assert_eq!(eval("kept - LOAN_DAYS").await, "0");
    assert_eq!(eval("@kept * 2").await, "28");

    let ticket = session.next(None).await.unwrap();
    assert_eq!(expect_stop(&session, ticket).await.reason, "step");
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(
        frames[0].line,
        line_of(&source, "late.positive? ? late : 0")
    );
    assert_eq!(local(&session, "late").await, "1");

    // rdbg's step out stops as the method returns, still in it; the next step is in
    // the caller.
    let ticket = session.step_out(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let frames = session.stack_trace(None, Some(2)).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[1].name.as_str()),
        ("Loan#days_late", "Loan#fee_cents"),
        "{frames:?}"
    );
    let ticket = session.next(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(frames[0].name, "Loan#fee_cents", "{frames:?}");

    // rdbg 1.4 cannot take a breakpoint away: asking is refused, not ignored.
    let refused = session
        .set_breakpoints(&source, Vec::<SourceBreakpoint>::new())
        .await
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("does not support removing or changing a breakpoint"),
        "{refused}"
    );
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(13));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(
        out.contains("fees: 725 cents (expected 650)"),
        "output was {out:?}"
    );
    assert!(
        out.contains("Emma         kept 14 days:  25 cents"),
        "{out:?}"
    );
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_into_a_method_and_runs_to_the_end_with_the_exit_code() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("ruby/library.rb");
    let line = line_of(&source, "fee = loan.fee_cents");
    let session = runtime
        .launch(LaunchSpec::new(&source).breakpoint(&source, line))
        .await
        .unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert!(local(&session, "loan").await.contains("Dune"));
    let ticket = session.step_in(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(frames[0].name, "Loan#fee_cents");
    // The line runs once a loan: three more stops, then the end.
    for title in ["Emma", "Ulysses", "Walden"] {
        let ticket = session.continue_(None).await.unwrap();
        expect_stop(&session, ticket).await;
        assert!(local(&session, "loan").await.contains(title));
    }
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(13));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stops_where_an_exception_nothing_rescues_was_raised() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = root().join("tests/support/raises.rb");
    let session = runtime.launch(LaunchSpec::new(&source)).await.unwrap();
    // The rescued one is passed by; the stop is rdbg's postmortem, which it calls a
    // step.
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "step");
    let frames = session.stack_trace(None, None).await.unwrap();
    assert_eq!(frames[0].name, "Object#halve");
    assert_eq!(
        frames[0].line,
        line_of(&source, "raise ArgumentError, \"cannot halve")
    );
    assert_eq!(frames[1].line, line_of(&source, "puts halve(5)"));
    assert_eq!(local(&session, "count").await, "5");
    assert!(local(&session, "_raised").await.contains("cannot halve 5"));
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(1));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("rescued\n4\n"), "{out:?}");
    assert!(out.contains("cannot halve 5 (ArgumentError)"), "{out:?}");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exit_is_no_exception_stop_and_the_environment_reaches_the_program() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let script = root().join("tests/support/greeting.rb");
    let mut spec = LaunchSpec::new(&script);
    spec.env
        .insert("GREETING".into(), "hello from the launch".into());
    let session = runtime.launch(spec).await.unwrap();
    assert_eq!(expect_exit(&session, RunTicket { epoch: 0 }).await, Some(7));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("hello from the launch"), "{out:?}");
    runtime.shutdown().await;
}

/// An rdbg that stops answering (its process stopped, as a program holding Ruby's lock
/// would leave it), or whose program is running rather than stopped, is still
/// ended by a terminate: the `disconnect` that stands for it has its deadline,
/// and then the program's process is killed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terminate_ends_an_rdbg_that_stopped_answering_or_runs_on() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("ruby/library.rb");
    let line = line_of(&source, "late = kept - LOAN_DAYS + 1");
    let session = runtime
        .launch(LaunchSpec::new(&source).breakpoint(&source, line))
        .await
        .unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    let pid = session.adapter_pid().expect("rdbg's process");
    let stopped = std::process::Command::new("kill")
        .args(["-STOP", &pid.to_string()])
        .status()
        .unwrap();
    assert!(stopped.success());
    let ended = tokio::time::timeout(ACTOR_WAIT, session.terminate())
        .await
        .expect("a terminate is bounded by its disconnect's deadline");
    assert!(ended.is_ok(), "{ended:?}");
    assert_eq!(wait_gone(vec![pid]).await, Vec::<u32>::new(), "left behind");

    // A program running, not stopped, that would run until it is ended.
    let session = runtime
        .launch(LaunchSpec::new(root().join("tests/support/ticks.rb")))
        .await
        .unwrap();
    let pid = session.adapter_pid().expect("rdbg's process");
    let ended = tokio::time::timeout(ACTOR_WAIT, session.terminate())
        .await
        .expect("a terminate is bounded by its disconnect's deadline");
    assert!(ended.is_ok(), "{ended:?}");
    assert_eq!(wait_gone(vec![pid]).await, Vec::<u32>::new(), "left behind");
    runtime.shutdown().await;
}

/// A program started under `rdbg --open` by someone else is attached to by the port
/// rdbg names: the attach stops it where it is (rdbg pauses it), and a detach lets it
/// run on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attaches_by_port_to_a_program_started_under_rdbg_open() {
    use std::io::BufRead;
    let rdbg = std::process::Command::new("ruby")
        .args(["-e", "print Gem.bin_path('debug', 'rdbg')"])
        .output()
        .unwrap();
    let rdbg = String::from_utf8(rdbg.stdout).unwrap();
    let mut started = std::process::Command::new("ruby")
        .arg(&rdbg)
        .args(["--open", "--host", "127.0.0.1", "--port", "0", "--"])
        .arg(root().join("tests/support/ticks.rb"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // `DEBUGGER: Debugger can attach via TCP/IP (127.0.0.1:PORT)` and `DEBUGGER: wait
    // for debugger connection...`, in either order. rdbg fails a client that connects
    // before the second (see quirks/ruby.rs), so the attach waits for both, as a person
    // reading that stderr would.
    let mut stderr = std::io::BufReader::new(started.stderr.take().unwrap());
    let mut port = None;
    let mut waiting = false;
    let mut line = String::new();
    while (port.is_none() || !waiting) && stderr.read_line(&mut line).unwrap() > 0 {
        waiting |= line.contains("wait for debugger connection");
        port = port.or_else(|| {
            line.trim_end()
                .strip_suffix(')')
                .and_then(|l| l.rsplit_once(':'))
                .and_then(|(_, p)| p.parse::<u16>().ok())
        });
        line.clear();
    }
    assert!(waiting, "rdbg says it waits for a debugger");
    let port = port.expect("rdbg names its port");
    // Its stderr is drained so that rdbg never blocks on it.
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));

    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut spec = dapvisor::AttachSpec::default();
    spec.adapter = Some("rdbg".into());
    spec.port = Some(port);
    let session = runtime.attach(spec).await.unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "pause");
    let frames = session.stack_trace(None, None).await.unwrap();
    let file = frames[0].source.as_ref().and_then(|s| s.path.clone());
    assert_eq!(
        file,
        Some(root().join("tests/support/ticks.rb").display().to_string())
    );
    session.disconnect(false).await.unwrap();
    runtime.shutdown().await;
    assert!(is_alive(started.id()), "a detach lets the program run on");
    started.kill().unwrap();
    started.wait().unwrap();
}
