//! One real-adapter session's script, for [`super::real`]: launch with a breakpoint,
//! stop, stack, scopes, variables, evaluate, add a breakpoint while stopped,
//! continue to it, evaluate again, continue to the exit, read the output. Every value
//! read is checked against the token only this session's program holds.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dapvisor::wire::types::SourceBreakpoint;
use dapvisor::{RunTicket, Runtime, SessionError, SessionHandle};
use dapvisor::{SessionState, StopOutcome};

use super::fate::Cause;
use super::ledger::Ledger;
use crate::support::python::PYDEVD_NODELAY;
use crate::support::token::TokenProgram;

/// How long a session waits for a stop or the exit (the ledger's watchdog is longer).
const STOP_WAIT: Duration = Duration::from_secs(60);

/// What one session task saw.
pub struct Outcome {
    /// The session's token.
    pub token: i64,
    /// The session, unless its launch failed.
    pub session: Option<SessionHandle>,
    /// The step that failed, and why; `None` if the session ran to its exit.
    pub broke: Option<Broke>,
}

/// Why a session's script stopped early.
pub struct Broke {
    /// The call and its error.
    pub what: String,
    /// What kind of break it is.
    pub cause: Cause,
}

impl From<&str> for Broke {
    fn from(what: &str) -> Broke {
        Broke {
            what: what.to_string(),
            cause: Cause::Wrong,
        }
    }
}

/// Shared by the session tasks.
pub struct Context {
    /// The runtime the sessions run in.
    pub runtime: Runtime,
    /// Every call and check.
    pub ledger: Ledger,
    /// Every adapter pid seen, to check none is left.
    pub pids: Mutex<HashSet<u32>>,
}

impl Context {
    fn note_pid(&self, session: &SessionHandle) {
        if let Some(pid) = session.adapter_pid() {
            self.pids
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(pid);
        }
    }

    /// One call through the ledger; an error or no answer ends the session's script.
    pub async fn step<T>(
        &self,
        op: &'static str,
        call: impl std::future::Future<Output = Result<T, SessionError>>,
    ) -> Result<T, Broke> {
        match self.ledger.call(op, call).await {
            Some(Ok(value)) => Ok(value),
            Some(Err(err)) => Err(Broke {
                what: format!("{op}: {err}"),
                cause: Cause::of(&err),
            }),
            None => Err(Broke {
                what: format!("{op}: no answer"),
                cause: Cause::NoAnswer,
            }),
        }
    }

    fn check(&self, token: i64, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            self.ledger
                .fail(format!("isolation (token {token}): {}", what()));
        }
    }
}

/// One session's script.
pub async fn one(context: Arc<Context>, program: TokenProgram, nodelay: bool) -> Outcome {
    let token = program.token;
    let spec = program.launch_spec();
    let session = match context.step("launch", context.runtime.launch(spec)).await {
        Ok(session) => session,
        Err(broke) => {
            return Outcome {
                token,
                session: None,
                broke: Some(broke),
            }
        }
    };
    context.note_pid(&session);
    let broke = script(&context, &session, &program, nodelay).await.err();
    context.note_pid(&session);
    Outcome {
        token,
        session: Some(session),
        broke,
    }
}

async fn script(
    context: &Context,
    session: &SessionHandle,
    program: &TokenProgram,
    nodelay: bool,
) -> Result<(), Broke> {
    let token = program.token;
    let ticket = RunTicket { epoch: 0 };
    expect_stop(context, session, ticket).await?;
    let frames = context
        .step("stack_trace", session.stack_trace(None, None))
        .await?;
    let top = frames.first().ok_or("stack_trace: no frames")?;
    if nodelay {
        let set = session.evaluate(PYDEVD_NODELAY, Some(top.id), None);
        context.step("pydevd_nodelay", set).await?;
    }
    context.check(
        token,
        top.name == program.function() && top.line == program.first_line,
        || format!("first stop at {}:{}", top.name, top.line),
    );
    let scopes = context.step("scopes", session.scopes(top.id)).await?;
    let scope = scopes.first().ok_or("scopes: none")?;
    let vars = context
        .step("variables", session.variables(scope.variables_reference))
        .await?;
    let seen = vars
        .iter()
        .find(|v| v.name == "token")
        .map(|v| v.value.clone());
    context.check(
        token,
        seen.as_deref() == Some(token.to_string().as_str()),
        || format!("local token is {seen:?}"),
    );
    let eval = context
        .step(
            "evaluate",
            session.evaluate("token * 7", Some(top.id), None),
        )
        .await?;
    context.check(token, eval.result == (token * 7).to_string(), || {
        format!("token * 7 evaluated to {}", eval.result)
    });
    let at_return = SourceBreakpoint {
        line: program.return_line,
        ..Default::default()
    };
    context
        .step(
            "set_breakpoint",
            session.add_breakpoint(&program.source, at_return),
        )
        .await?;
    context.step("snapshot", session.snapshot()).await?;
    let ticket = context.step("continue", session.continue_(None)).await?;
    expect_stop(context, session, ticket).await?;
    let frames = context
        .step("stack_trace", session.stack_trace(None, Some(1)))
        .await?;
    let top = frames.first().ok_or("stack_trace: no frames")?;
    context.check(token, top.line == program.return_line, || {
        format!("second stop at line {}", top.line)
    });
    let eval = context
        .step(
            "evaluate",
            session.evaluate("doubled + tripled", Some(top.id), None),
        )
        .await?;
    context.check(token, eval.result == program.total().to_string(), || {
        format!("doubled + tripled evaluated to {}", eval.result)
    });
    let ticket = context.step("continue", session.continue_(None)).await?;
    let end = context
        .step("wait_for_exit", session.wait_for_stop(ticket, STOP_WAIT))
        .await?;
    context.check(
        token,
        end == StopOutcome::Terminated { exit_code: Some(0) },
        || format!("ended with {end:?}"),
    );
    let out = context
        .step("output", session.output(0, 1 << 16))
        .await?
        .text();
    context.check(
        token,
        out.matches("total ").count() == 1 && out.contains(&format!("total {}", program.total())),
        || format!("output was {out:?}"),
    );
    let state = context.step("snapshot", session.snapshot()).await?.state;
    context.check(token, state == SessionState::Terminated, || {
        format!("state {state:?} after the exit")
    });
    Ok(())
}

async fn expect_stop(
    context: &Context,
    session: &SessionHandle,
    ticket: RunTicket,
) -> Result<(), Broke> {
    match context
        .step("wait_for_stop", session.wait_for_stop(ticket, STOP_WAIT))
        .await?
    {
        StopOutcome::Stopped(_) => Ok(()),
        StopOutcome::TimedOut => Err(Broke {
            what: "wait_for_stop: timed out".into(),
            cause: Cause::Deadline,
        }),
        other => Err(Broke {
            what: format!("wait_for_stop: expected a stop, got {other:?}"),
            cause: Cause::Ended,
        }),
    }
}
