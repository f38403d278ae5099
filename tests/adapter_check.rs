//! `check_initialize`, which `dapvisor doctor` runs on each adapter: every real adapter
//! answers over its own transport (stdio for debugpy and lldb-dap, a listening port for
//! dlv and js-debug, the port named on stderr for rdbg, a port it is told for java, a dial-back for CodeLLDB), and one that never answers or ends at
//! once is reported so, its processes ended before the call returns.

mod common;

use std::time::Duration;

use dapvisor::check_initialize;
use dapvisor::registry::{AdapterDef, AdapterRegistry, ResolvedAdapter};

/// Long enough for an adapter to start on a loaded 2-core machine.
const ANSWER_WAIT: Duration = Duration::from_secs(60);

async fn resolve(def: AdapterDef) -> ResolvedAdapter {
    tokio::task::spawn_blocking(move || {
        let name = def.name.clone();
        AdapterRegistry::builtin()
            .resolve(&def)
            .unwrap_or_else(|e| panic!("{name} must be installed here: {e}"))
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_real_adapter_answers_initialize_over_its_own_transport() {
    let registry = AdapterRegistry::builtin();
    let checks = [
        "debugpy", "lldb-dap", "dlv", "codelldb", "js-debug", "rdbg", "java",
    ]
    .map(|name| {
        let def = registry.get(name).unwrap().clone();
        async move {
            let answer = check_initialize(resolve(def).await, ANSWER_WAIT).await;
            (name, answer)
        }
    });
    for (name, answer) in futures::future::join_all(checks).await {
        let capabilities = answer.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(capabilities.is_object(), "{name}: {capabilities}");
        assert_eq!(
            capabilities["supportsConfigurationDoneRequest"], true,
            "{name}: {capabilities}"
        );
    }
}

#[tokio::test]
async fn an_adapter_that_never_answers_is_reported_and_ended() {
    // A mark no other process carries, to look for it afterwards.
    let mark = format!("3600.{}", std::process::id());
    let mut def = AdapterDef::generic("silent", "/bin/sleep");
    def.args = vec![mark.clone()];
    let why = check_initialize(resolve(def).await, Duration::from_secs(1))
        .await
        .unwrap_err();
    assert!(
        why.contains("no answer from the adapter within 1s"),
        "{why}"
    );
    // Gone while this process lives on: ended by the check, not by our death.
    let left = common::wait_gone(common::procs_with_cmdline_ending(&mark)).await;
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[tokio::test]
async fn an_adapter_that_ends_at_once_is_reported_with_how_it_ended() {
    let def = AdapterDef::generic("quitter", "/bin/false");
    let why = check_initialize(resolve(def).await, Duration::from_secs(30))
        .await
        .unwrap_err();
    assert!(why.contains("ended before answering `initialize`"), "{why}");
}
