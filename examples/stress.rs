//! Parallel stress harness: N concurrent real-adapter sessions (debugpy, lldb-dap,
//! dlv, js-debug or CodeLLDB), M concurrent sessions on the in-process fake adapter,
//! optionally with adapters killed at random moments. Prints wall time, per-operation p50/p99, throughput,
//! memory (peak RSS, and RSS per idle session); exits 1 only when a correctness
//! check fails (isolation, a missing answer, a leftover process or connection).
//!
//! ```sh
//! cargo run --release --example stress                      # 4 debugpy + 100 fake
//! cargo run --release --example stress -- --sessions 32 --fake 1000
//! cargo run --release --example stress -- --kill --seed 7
//! cargo run --release --example stress -- --adapter dlv --fake 0   # Go under dlv
//! cargo run --release --example stress -- --adapter js-debug --fake 0
//! cargo run --release --example stress -- --adapter codelldb --fake 0  # Rust
//! ```
//!
//! The parts live in `benches/stress/`, next to the benchmarks' shared support.

#[path = "../benches/stress/mod.rs"]
mod stress;
#[path = "../benches/support/mod.rs"]
mod support;

use std::process::ExitCode;

use stress::args::{Args, USAGE};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> ExitCode {
    let args = match Args::parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(problem) => {
            if !problem.is_empty() {
                eprintln!("{problem}\n");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!("stress: {args:?}, {cpus} CPUs, 2 tokio workers");
    let mut failures = Vec::new();
    if args.sessions > 0 {
        failures.extend(stress::real::run(&args).await);
    }
    if args.fake > 0 {
        failures.extend(stress::fake::run(&args).await);
    }
    println!(
        "peak RSS of this process (VmHWM): {} KiB",
        support::memory::peak_rss_kib()
    );
    if failures.is_empty() {
        println!("stress: every check passed");
        ExitCode::SUCCESS
    } else {
        println!("stress: {} checks FAILED", failures.len());
        for failure in &failures {
            println!("  {failure}");
        }
        ExitCode::FAILURE
    }
}
