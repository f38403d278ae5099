//! The main job, end to end: find the bug in `examples/programs/python/discount.py`
//! the way a person would with a debugger, and print what was seen.
//!
//! ```text
//! cargo run --example find_bug
//! ```
//! Provisions debugpy into dapvisor's own venv first if no Python here has it.

use std::process::ExitCode;
use std::time::Duration;

use dapvisor::registry::{install_debugpy, RegistryError};
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionHandle, StopOutcome};

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            println!("The run did not show the bug this example looks for.");
            ExitCode::from(1)
        }
        Err(err) => {
            eprintln!("find_bug: {err}");
            ExitCode::from(2)
        }
    }
}

async fn run() -> Result<bool, Box<dyn std::error::Error>> {
    let program = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/programs/python/discount.py");
    let runtime = Runtime::start(RuntimeConfig::default()).await?;
    ensure_debugpy(&runtime).await?;

    // Break where each line item's discounted amount is added to the total.
    let source = std::fs::read_to_string(&program)?;
    let line = source
        .lines()
        .position(|l| l.contains("total += discounted"))
        .ok_or("the breakpoint line is missing from discount.py")? as i64
        + 1;
    let session = runtime
        .launch(LaunchSpec::new(&program).breakpoint(&program, line))
        .await?;
    println!(
        "Launched {} under debugpy (session {}), breakpoint at line {line}.",
        program.display(),
        session.id()
    );

    let mut ticket = RunTicket { epoch: 0 };
    let mut per_line_total = 0i64;
    let mut order_percent = String::new();
    let mut whole_order_total = String::new();
    let exit_code = loop {
        match session
            .wait_for_stop(ticket, Duration::from_secs(60))
            .await?
        {
            StopOutcome::Stopped(_) => {
                let frame = session.stack_trace(None, None).await?;
                let (top, caller) = (&frame[0], &frame[1]);
                let value = |expr: &'static str| eval(&session, expr, top.id);
                let (name, line_cents, discounted) = (
                    value("name").await?,
                    value("line_cents").await?,
                    value("discounted").await?,
                );
                let percent = value("discount_percent(line_cents)").await?;
                per_line_total += discounted.parse::<i64>().unwrap_or(0);
                println!(
                    "  stopped in {}() (called from {}()) at line {}: {name} costs {line_cents} cents, \
                     discounted {percent}% to {discounted}",
                    top.name, caller.name, top.line
                );
                // What the whole order would get, asked of the running program itself.
                order_percent = value("discount_percent(sum(q * p for _, q, p in items))").await?;
                whole_order_total =
                    value("apply_discount(sum(q * p for _, q, p in items))").await?;
                ticket = session.continue_(None).await?;
            }
            StopOutcome::Terminated { exit_code } => break exit_code,
            StopOutcome::TimedOut => {
                return Err("the program neither stopped nor ended in 60 s".into())
            }
            other => return Err(format!("an outcome this example does not know: {other:?}").into()),
        }
    };
    let output = session.output(0, 64 * 1024).await?.text();
    println!("The program ended with exit code {exit_code:?} and printed:");
    for line in output.lines() {
        println!("  | {line}");
    }

    let expected: i64 = whole_order_total.parse().unwrap_or(-1);
    let bug = per_line_total != expected;
    if bug {
        println!(
            "Found it: order_total() discounts each line item on its own, so no line reaches a \
             higher tier and the items add up to {per_line_total} cents. The whole order qualifies \
             for {order_percent}%, which gives {expected} cents. The discount must be applied once, \
             to the order's subtotal."
        );
    }
    runtime.shutdown().await;
    Ok(bug)
}

async fn eval(
    session: &SessionHandle,
    expression: &str,
    frame: i64,
) -> Result<String, dapvisor::SessionError> {
    Ok(session
        .evaluate(expression, Some(frame), None)
        .await?
        .result
        .trim_matches('\'')
        .to_string())
}

/// Find debugpy, or install it into dapvisor's own venv.
async fn ensure_debugpy(runtime: &Runtime) -> Result<(), Box<dyn std::error::Error>> {
    let registry = runtime.registry().clone();
    let found = tokio::task::spawn_blocking(move || {
        let def = registry
            .get("debugpy")
            .cloned()
            .ok_or("no debugpy definition")?;
        registry.resolve(&def).map(|_| ()).map_err(|e| match e {
            RegistryError::NotInstalled { .. } => "missing".to_string(),
            other => other.to_string(),
        })
    })
    .await?;
    match found {
        Ok(()) => Ok(()),
        Err(reason) if reason == "missing" => {
            println!("debugpy is not installed here; installing it into dapvisor's venv...");
            let python = tokio::task::spawn_blocking(install_debugpy).await??;
            println!("debugpy installed for {}.", python.display());
            Ok(())
        }
        Err(other) => Err(other.into()),
    }
}
