//! Opening a core dump beside launching the same program to its crash, on the real
//! adapters: `Runtime::launch` of a `LaunchSpec` with `core` until its stop, then
//! `end_session`, against the same launch without `core`, which runs the program
//! until it stops at the crash that made the dump. The C program that dies of
//! SIGSEGV under lldb-dap and CodeLLDB, the Go program that panics under dlv.
//!
//! Rounds alternate the two sides so that the machine's load falls on both; each
//! side's p50 and the ratio of the p50s (core / launch) are printed: the ratio is the
//! figure to quote (BENCHMARKS.md, "Opening a core dump").
//!
//! The dumps are made as the tests make them (`tests/core_support`: the kernel's,
//! else gdb's `gcore`). Needs lldb-dap, CodeLLDB, dlv, cc, go (and gdb where the
//! kernel writes no file). `$DAPVISOR_CORE_ROUNDS` rounds, 10 by default.
//! `cargo bench --bench core_open`

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/core_support/mod.rs"]
mod core_support;
mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use dapvisor::{LaunchSpec, Runtime, RuntimeConfig};

use support::first_stop::timed_to_first_stop;
use support::stats::Summary;

/// Start `spec`, wait for its first stop, end the session: how long to the stop.
async fn to_first_stop(runtime: &Runtime, spec: LaunchSpec) -> Duration {
    let start = Instant::now();
    let session = runtime.launch(spec).await.expect("the start succeeds");
    timed_to_first_stop(runtime, session, start).await
}

/// Alternate `rounds` of opening `core` and launching `program` to its crash under
/// `adapter`; print each side and the ratio.
async fn compare(runtime: &Runtime, adapter: &str, program: &Path, core: &Path, rounds: usize) {
    let (mut opens, mut launches) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let open = LaunchSpec::new(program).core(core).adapter(adapter);
        opens.push(to_first_stop(runtime, open).await);
        let launch = LaunchSpec::new(program).adapter(adapter);
        launches.push(to_first_stop(runtime, launch).await);
    }
    let open = Summary::of(&mut opens).expect("samples");
    let launch = Summary::of(&mut launches).expect("samples");
    let ratio = open.p50.as_secs_f64() / launch.p50.as_secs_f64();
    println!("core_open {adapter:<9} open the core   {open}");
    println!("core_open {adapter:<9} launch to crash {launch}");
    println!("core_open {adapter:<9} ratio of p50s (core / launch): {ratio:.2}");
}

fn main() {
    let rounds = std::env::var("DAPVISOR_CORE_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(10);
    let c = core_support::parcels_binary();
    let c_dump = core_support::dump_of(&c, &[], &[]);
    let go = common::build_go("shares");
    let go_dump = core_support::dump_of(
        &go,
        &[("GOTRACEBACK", "crash")],
        &["SIGFPE", "SIGSEGV", "SIGURG", "SIGPIPE"],
    );
    println!(
        "dumps made by {:?} and {:?}; {rounds} rounds per adapter",
        c_dump.made_by, go_dump.made_by
    );
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    rt.block_on(async {
        let runtime = Runtime::start(RuntimeConfig::default())
            .await
            .expect("the runtime starts");
        compare(&runtime, "lldb-dap", &c, &c_dump.core, rounds).await;
        compare(&runtime, "codelldb", &c, &c_dump.core, rounds).await;
        compare(&runtime, "dlv", &go, &go_dump.core, rounds).await;
        runtime.shutdown().await;
    });
}
