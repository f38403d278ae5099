//! Attaching to a remote debug server with path mappings beside launching the same
//! program, on real debugpy: `Runtime::attach` to a `debugpy.listen` server running a
//! copy of the ticker from a folder tree of its own (as a container's `/srv/app`), with
//! the agent's folder mapped to it and a breakpoint set by the agent's path, until the
//! first stop, then `end_session` (a detach: the target runs on and is then killed);
//! against `Runtime::launch` of the agent's own copy with the same breakpoint, until
//! the same stop. The server is started before the clock does, as one in a container
//! runs already.
//!
//! Rounds alternate the two sides so that the machine's load falls on both; each side's
//! p50 and the ratio of the p50s (attach / launch) are printed: the ratio is the figure
//! to quote (BENCHMARKS.md, "Attaching with path mappings"). `$DAPVISOR_ATTACH_ROUNDS`
//! rounds, 10 by default. `cargo bench --bench attach_mapped`

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/remote_support/mod.rs"]
mod remote_support;
mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use dapvisor::{AttachSpec, LaunchSpec, Runtime, RuntimeConfig};

use remote_support::{debugpy_server, RemoteTree};
use support::first_stop::timed_to_first_stop;
use support::stats::Summary;

/// One attach, with `local`'s folder mapped to the tree's, to a server started for it.
async fn attach_once(runtime: &Runtime, local: &Path, line: i64) -> Duration {
    let tree = RemoteTree::new("bench");
    let remote = tree.copy(local);
    let python = support::python::python().display().to_string();
    let (_target, port) = debugpy_server(&python, &remote).await;
    let mut spec = AttachSpec::default().map_path(local.parent().unwrap(), tree.app());
    spec.host = Some("127.0.0.1".into());
    spec.port = Some(port);
    spec.adapter = Some("debugpy".into());
    spec.breakpoints = LaunchSpec::new(local).breakpoint(local, line).breakpoints;
    let start = Instant::now();
    let session = runtime.attach(spec).await.expect("the attach succeeds");
    timed_to_first_stop(runtime, session, start).await
}

/// One launch of `local` with the same breakpoint.
async fn launch_once(runtime: &Runtime, local: &Path, line: i64) -> Duration {
    let start = Instant::now();
    let spec = LaunchSpec::new(local).breakpoint(local, line);
    let session = runtime.launch(spec).await.expect("the launch succeeds");
    timed_to_first_stop(runtime, session, start).await
}

fn main() {
    let rounds = std::env::var("DAPVISOR_ATTACH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(10);
    let local = common::program("python/ticker.py");
    let line = common::line_of(&local, "return next");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    rt.block_on(async {
        let runtime = Runtime::start(RuntimeConfig::default())
            .await
            .expect("the runtime starts");
        let (mut attaches, mut launches) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            attaches.push(attach_once(&runtime, &local, line).await);
            launches.push(launch_once(&runtime, &local, line).await);
        }
        let attach = Summary::of(&mut attaches).expect("samples");
        let launch = Summary::of(&mut launches).expect("samples");
        let ratio = attach.p50.as_secs_f64() / launch.p50.as_secs_f64();
        println!("attach_mapped debugpy attach with mappings {attach}");
        println!("attach_mapped debugpy launch               {launch}");
        println!("attach_mapped debugpy ratio of p50s (attach / launch): {ratio:.2}");
        runtime.shutdown().await;
    });
}
