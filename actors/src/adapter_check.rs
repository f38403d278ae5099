//! Whether an adapter starts and answers `initialize`, without a session: what
//! `dapvisor doctor` asks of every installed adapter.
//!
//! The adapter runs under a transport of its own, exactly as a session would start it
//! (the same transports, clean start, process group and cleanup), is asked
//! `initialize` with the arguments a session sends, and is stopped; every process it
//! started has ended by the time [`check_initialize`] answers.

use std::sync::Arc;
use std::time::Duration;

use ractor::{Actor, ActorRef};
use serde_json::Value;
use tokio::sync::mpsc;

use crate::core::handshake::initialize_arguments;
use crate::registry::ResolvedAdapter;
use crate::transport::TransportOutput;
use crate::transport::{TransportActor, TransportArgs, TransportConfig, TransportMsg};
use crate::wire::DapCommand;
use crate::wire::Request;

/// The tag of the one request sent.
const INITIALIZE: u64 = 1;

/// Start `adapter`, ask it `initialize`, and stop it. Answers the capabilities it
/// gave (its `initialize` body, `{}` when it sent none), or why it gave none: it did
/// not start, its `initialize` failed, it ended first, or `timeout` passed (`timeout`
/// bounds the start, a TCP adapter's banner and connection included, and the answer
/// each). Every process the adapter started is ended before this returns.
pub async fn check_initialize(
    mut adapter: ResolvedAdapter,
    timeout: Duration,
) -> Result<Value, String> {
    let quirks = adapter.flavor.quirks();
    if quirks.adapter_process_is_the_program {
        // rdbg is the program's own process and starts only with one: Ruby's `-e nil`,
        // which has a first line to wait for its client at (an empty file has none,
        // and ends before rdbg listens for anyone).
        let mut nothing = crate::launch::LaunchSpec::new("-e");
        nothing.args = vec!["nil".into()];
        (quirks.dialect.adapter_args)(&mut adapter.args, &nothing);
    }
    let adapter_id = adapter.adapter_id.clone();
    let config = TransportConfig {
        connect_timeout: timeout,
        ..TransportConfig::default()
    };
    // The stop may take the shutdown grace, then the exit wait; past both and a
    // margin, the transport is stopped outright and its `Drop` sweeps the processes.
    let stop_wait = config.shutdown_grace + config.exit_wait + config.output_drain_wait;
    let (tx, mut output) = mpsc::unbounded_channel();
    let args = TransportArgs {
        adapter,
        sink: Arc::new(move |out| {
            let _ = tx.send(out);
        }),
        config,
        pid_slot: None,
        traffic: Default::default(),
        span: tracing::Span::none(),
        // `initialize` starts no program, so no child session can come.
        child_slots: Default::default(),
        tree_owner: None,
    };
    let (transport, handle) = match Actor::spawn(None, TransportActor, args).await {
        Ok(spawned) => spawned,
        Err(ractor::SpawnErr::StartupFailed(cause)) => return Err(cause.to_string()),
        Err(other) => return Err(other.to_string()),
    };
    let request = Request::new(
        DapCommand::Initialize.name(),
        Some(initialize_arguments(&adapter_id)),
    );
    let sent = transport.cast(TransportMsg::Send {
        tag: INITIALIZE,
        request,
        timeout,
    });
    let answer = match sent {
        Ok(()) => {
            // The transport's own deadline answers first; this one only guards
            // against a transport that says nothing at all.
            let bound = timeout * 2 + stop_wait;
            tokio::time::timeout(bound, answer(&mut output))
                .await
                .unwrap_or_else(|_| Err(format!("no answer within {}s", bound.as_secs())))
        }
        Err(err) => Err(format!("the transport stopped: {err}")),
    };
    stop(&transport, &mut output, stop_wait).await;
    transport.stop(None);
    let _ = handle.await;
    answer
}

/// The answer to `initialize`, or why there is none.
async fn answer(output: &mut mpsc::UnboundedReceiver<TransportOutput>) -> Result<Value, String> {
    while let Some(out) = output.recv().await {
        match out {
            TransportOutput::Response { tag, result } if tag == INITIALIZE => {
                let response = result.map_err(|err| err.to_string())?;
                if !response.success {
                    let why = response.message.unwrap_or_default();
                    return Err(format!("it refused `initialize`: {why}"));
                }
                return Ok(response.body_or_empty());
            }
            TransportOutput::Closed(exit) => {
                return Err(format!("it ended before answering `initialize`: {exit}"))
            }
            // Events (and their places in the transport's bound) are dropped.
            _ => {}
        }
    }
    Err("the transport stopped before the adapter answered".to_string())
}

/// Ask the transport to end the adapter, and wait (at most `wait`) until it says the
/// adapter's processes are gone.
async fn stop(
    transport: &ActorRef<TransportMsg>,
    output: &mut mpsc::UnboundedReceiver<TransportOutput>,
    wait: Duration,
) {
    if transport.cast(TransportMsg::StopAdapter).is_err() {
        return;
    }
    let closed = async {
        while let Some(out) = output.recv().await {
            if let TransportOutput::Closed(_) = out {
                return;
            }
        }
    };
    if tokio::time::timeout(wait, closed).await.is_err() {
        tracing::warn!("the adapter did not stop within {wait:?}; its processes are killed");
    }
}
