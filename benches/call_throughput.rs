//! Call-trace throughput per adapter: a tight loop of small calls
//! (`benches/fixtures/call_loop.{py,c}`, `call_loop_go/`) run to its end with its one
//! function traced (`LaunchSpec::calls`), against the same loop untraced, alternating in
//! one run. The program times its own loop and writes it to a file, so the adapter's
//! start and end are in neither figure.
//!
//! Printed per adapter: the loop's time untraced and traced (medians), recorded calls a
//! second, the ratio of the two loop times, and the DAP requests the traced run sent more
//! than the untraced one, as `per call x calls + left over` (exact counts). Every
//! traced run must record every call (`calls_dropped` 0, a call and a return row each),
//! or the bench fails. The rate cap (`max_calls_per_second`) is lifted for the bench.
//!
//! debugpy runs twice: as shipped, and with `TCP_NODELAY` set on pydevd's socket first
//! (`PYDEVD_NODELAY`, one `evaluate` at a breakpoint before the loop), which shows how
//! much of its time per call is its 44 ms delay per answer (BENCHMARKS.md, "debugpy's
//! delay per answer").
//!
//! Needs debugpy (`$DAPVISOR_PYTHON`), lldb-dap, CodeLLDB, dlv, cc and go.
//! `$DAPVISOR_CALL_ROUNDS` rounds per adapter (3 by default); `$DAPVISOR_CALL_ADAPTERS`
//! a comma list to run some (`debugpy,debugpy-nodelay,lldb-dap,codelldb,dlv`).
//! `cargo bench --profile dev --bench call_throughput`; figures in BENCHMARKS.md,
//! "Call-trace throughput per adapter".

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionHandle, StopOutcome};

use support::python::{python, scratch_dir, PYDEVD_NODELAY};

/// How long one run may take before the bench gives up on it (debugpy records about
/// three calls a second).
const RUN_WAIT: Duration = Duration::from_secs(600);

/// What one run measured.
struct Run {
    /// The loop's own time, as the program measured it.
    loop_time: Duration,
    requests_sent: u64,
}

/// One adapter's case: the program, how to launch it, the calls it makes.
struct Case {
    name: &'static str,
    adapter: &'static str,
    program: PathBuf,
    /// The pattern that traces the loop's function.
    pattern: &'static str,
    calls: usize,
    /// Set `TCP_NODELAY` on pydevd's socket at a breakpoint on this line first.
    nodelay_at: Option<i64>,
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/fixtures")
}

fn build(argv: &[&str], cwd: &Path, what: &str) {
    let status = Command::new(argv[0])
        .args(&argv[1..])
        .current_dir(cwd)
        .env("GOFLAGS", "-mod=mod")
        .status()
        .unwrap_or_else(|e| panic!("{}: {e} (is it installed?)", argv[0]));
    assert!(status.success(), "building {what} failed");
}

fn line_of(file: &Path, needle: &str) -> i64 {
    let text = std::fs::read_to_string(file).expect("the fixture is there");
    let at = text.lines().position(|l| l.contains(needle)).expect(needle);
    i64::try_from(at + 1).expect("a line number")
}

fn cases(dir: &Path, only: Option<&str>) -> Vec<Case> {
    let c = dir.join("call_loop");
    let go = dir.join("call_loop_go");
    let script = fixtures().join("call_loop.py");
    let source = fixtures().join("call_loop.c");
    let nodelay = line_of(&script, "total = 0");
    let mut all = vec![
        ("debugpy", "debugpy", script.clone(), "step", 30, None),
        (
            "debugpy-nodelay",
            "debugpy",
            script,
            "step",
            300,
            Some(nodelay),
        ),
        ("lldb-dap", "lldb-dap", c.clone(), "step", 300, None),
        ("codelldb", "codelldb", c, "step", 300, None),
        ("dlv", "dlv", go, "main.step", 300, None),
    ];
    if let Some(only) = only {
        all.retain(|case| only.split(',').any(|name| name.trim() == case.0));
    }
    let needs_c = all.iter().any(|case| case.2.ends_with("call_loop"));
    if needs_c {
        let out = dir.join("call_loop");
        let (src, out) = (source.to_str().unwrap(), out.to_str().unwrap());
        build(
            &["cc", "-g", "-O0", "-Wall", "-o", out, src],
            dir,
            "call_loop.c",
        );
    }
    if all.iter().any(|case| case.2.ends_with("call_loop_go")) {
        let out = dir.join("call_loop_go");
        build(
            &[
                "go",
                "build",
                "-gcflags=all=-N -l",
                "-o",
                out.to_str().unwrap(),
                ".",
            ],
            &fixtures().join("call_loop_go"),
            "call_loop_go",
        );
    }
    all.into_iter()
        .map(
            |(name, adapter, program, pattern, calls, nodelay_at)| Case {
                name,
                adapter,
                program,
                pattern,
                calls,
                nodelay_at,
            },
        )
        .collect()
}

/// Wait for the session's end; fail the bench on a stop or a time out.
async fn expect_end(session: &SessionHandle, ticket: RunTicket) {
    let outcome = session
        .wait_for_stop(ticket, RUN_WAIT)
        .await
        .expect("the wait is answered");
    assert!(
        matches!(outcome, StopOutcome::Terminated { exit_code } if exit_code.unwrap_or(0) == 0),
        "the loop runs to its end: {outcome:?}"
    );
}

/// Launch the case's loop (traced or not) to its end; what it measured.
async fn run(runtime: &Runtime, case: &Case, traced: bool, out: &Path) -> Run {
    let _ = std::fs::remove_file(out);
    let mut spec = LaunchSpec::new(&case.program)
        .adapter(case.adapter)
        .args([case.calls.to_string(), out.display().to_string()]);
    if traced {
        spec.calls = vec![case.pattern.to_string()];
    }
    if let Some(line) = case.nodelay_at {
        spec = spec.breakpoint(&case.program, line);
    }
    let session = runtime.launch(spec).await.expect("the launch succeeds");
    let mut ticket = RunTicket { epoch: 0 };
    if case.nodelay_at.is_some() {
        let stop = session
            .wait_for_stop(ticket, RUN_WAIT)
            .await
            .expect("a stop");
        assert!(matches!(stop, StopOutcome::Stopped(_)), "{stop:?}");
        let frames = session.stack_trace(None, Some(1)).await.expect("a stack");
        session
            .evaluate(PYDEVD_NODELAY, Some(frames[0].id), None)
            .await
            .expect("TCP_NODELAY is set");
        ticket = session.continue_(None).await.expect("continued");
    }
    expect_end(&session, ticket).await;
    let snapshot = session.snapshot().await.expect("a snapshot");
    if traced {
        let (mut rows, mut since) = (0, 0);
        loop {
            let slice = session.trace(since, 1000).await.expect("the trace");
            assert_eq!(slice.calls_dropped, 0, "{}: every call recorded", case.name);
            assert_eq!(slice.dropped, 0, "{}: every row kept", case.name);
            rows += slice.rows.len();
            since = slice.next;
            if !slice.more {
                break;
            }
        }
        assert_eq!(
            rows,
            2 * case.calls,
            "{}: a call and a return row each",
            case.name
        );
    }
    runtime
        .end_session(session.id())
        .await
        .expect("the session ends");
    let text = std::fs::read_to_string(out).expect("the loop wrote its time");
    let seconds: f64 = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("CALLS SECONDS");
    Run {
        loop_time: Duration::from_secs_f64(seconds),
        requests_sent: snapshot.traffic.requests_sent,
    }
}

fn median(samples: &mut [Duration]) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

/// Alternate `rounds` untraced and traced runs of `case`; print what they measured.
async fn measure(runtime: &Runtime, case: &Case, rounds: usize, dir: &Path) {
    let out = dir.join(format!("{}.out", case.name));
    let (mut plain, mut traced) = (Vec::new(), Vec::new());
    let mut extra = Vec::new();
    for _ in 0..rounds {
        let untraced = run(runtime, case, false, &out).await;
        let recorded = run(runtime, case, true, &out).await;
        plain.push(untraced.loop_time);
        traced.push(recorded.loop_time);
        extra.push(recorded.requests_sent as i64 - untraced.requests_sent as i64);
    }
    let (plain, traced) = (median(&mut plain), median(&mut traced));
    let calls = case.calls as f64;
    let ratio = traced.as_secs_f64() / plain.as_secs_f64();
    // Exact: the traced run's requests less the untraced run's, per call and left over
    // (the call breakpoints' `setFunctionBreakpoints`).
    let calls_i = case.calls as i64;
    let per_call: Vec<String> = extra
        .iter()
        .map(|e| format!("{e} = {} x {calls_i} + {}", e / calls_i, e % calls_i))
        .collect();
    println!(
        "call_throughput {:<16} {} calls: untraced {:.3?} ({:.0} calls/s), traced {:.3?} \
         ({:.1} recorded calls/s), ratio {ratio:.0}; more DAP requests traced: {}",
        case.name,
        case.calls,
        plain,
        calls / plain.as_secs_f64(),
        traced,
        calls / traced.as_secs_f64(),
        per_call.join(", ")
    );
}

fn main() {
    let rounds = std::env::var("DAPVISOR_CALL_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let only = std::env::var("DAPVISOR_CALL_ADAPTERS").ok();
    // The runtime starts debugpy with this Python.
    std::env::set_var("DAPVISOR_PYTHON", python());
    let dir = scratch_dir("call-throughput");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let cases = cases(&dir, only.as_deref());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    rt.block_on(async {
        let config = RuntimeConfig::default().max_calls_per_second(u32::MAX);
        let runtime = Runtime::start(config).await.expect("the runtime starts");
        println!("{rounds} rounds per adapter, alternating untraced and traced");
        for case in &cases {
            measure(&runtime, case, rounds, &dir).await;
        }
        runtime.shutdown().await;
    });
    let _ = std::fs::remove_dir_all(&dir);
}
