//! Launch a program and print every event of its session as `signal payload`, until
//! the session ends. Breakpoints are given as FILE:LINE arguments after the program.
//!
//! ```text
//! cargo run --example watch_events -- PROGRAM [FILE:LINE ...] [--adapter NAME]
//! ```
//! At each stop it prints the top frame and continues.

use dapvisor::signals::Signal;
use std::time::Duration;

use dapvisor::{EventKind, LaunchSpec, Received, RunTicket, Runtime, RuntimeConfig, StopOutcome};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let program = args
        .next()
        .ok_or("usage: watch_events PROGRAM [FILE:LINE ...] [--adapter NAME]")?;
    let mut spec = LaunchSpec::new(&program);
    while let Some(arg) = args.next() {
        if arg == "--adapter" {
            spec.adapter = args.next();
        } else if let Some((file, line)) = arg.rsplit_once(':') {
            spec = spec.breakpoint(file, line.parse()?);
        }
    }
    let runtime = Runtime::start(RuntimeConfig::default()).await?;
    let mut events = runtime.subscribe();
    let printer = tokio::spawn(async move {
        while let Some(received) = events.recv().await {
            match received {
                Received::Event(ev) => {
                    println!("{} {} {}", ev.session_id, ev.signal(), ev.payload());
                    if matches!(ev.kind, EventKind::SessionClosed { .. }) {
                        break;
                    }
                }
                Received::Lagged { missed } => {
                    println!("(missed {missed} bulk events: output, modules, progress)")
                }
                Received::CutOff { waiting } => {
                    println!("(cut off with {waiting} events unread)");
                    break;
                }
            }
        }
    });
    let session = runtime.launch(spec).await?;
    let mut ticket = RunTicket { epoch: 0 };
    loop {
        match session
            .wait_for_stop(ticket, Duration::from_secs(30))
            .await?
        {
            StopOutcome::Stopped(stop) => {
                let frames = session.stack_trace(None, Some(1)).await?;
                if let Some(top) = frames.first() {
                    println!(
                        "-- stopped ({}) in {} at line {}",
                        stop.reason, top.name, top.line
                    );
                }
                ticket = session.continue_(None).await?;
            }
            StopOutcome::Terminated { exit_code } => {
                println!("-- ended with exit code {exit_code:?}");
                break;
            }
            StopOutcome::TimedOut => {
                println!("-- still running after 30 s; ending it");
                break;
            }
            other => {
                println!("-- {other:?}; ending it");
                break;
            }
        }
    }
    runtime.end_session(session.id()).await?;
    let _ = tokio::time::timeout(Duration::from_secs(5), printer).await;
    runtime.shutdown().await;
    Ok(())
}
