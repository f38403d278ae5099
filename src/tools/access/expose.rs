//! `debug.expose` and `debug.unexpose`: the owner of a session shows it to a person's
//! editor (`crate::expose`), read-only unless `control` is set, and stops showing it.
//! Each editor request passes the permission gate as the agent's own call doing the
//! same would: an `evaluate` as `debug.evaluate`, `terminate` as `debug.terminate`,
//! any other request as `debug.custom_request` sending it.

use std::sync::Arc;

use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::expose::{Ask, EditorGate};
use crate::permission::{depends_on_target, Adapters, Adds, Call, CallTarget, Effect};
use crate::wire::DapCommand;
use crate::SessionHandle;

use crate::tools::access::owners::NOT_OWNER;
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{tool, Outcome, Reply, ToolDef};
use crate::tools::catalogue::spec::{ToolAnnotations, ToolError};

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![
        tool(
            "debug.expose",
            "Show a session you own in a person's editor (VS Code, nvim-dap): a DAP server \
             on 127.0.0.1; its token and entries to paste go to a file only the user reads. \
             Read-only unless `control`; the editor's moves show in debug.wait.",
            ToolAnnotations::SETTING,
            expose,
        )
        .effect(Effect::Read)
        .adds(Adds::EditorControl),
        tool(
            "debug.unexpose",
            "Close a session's editor endpoint (debug.expose); the session goes on.",
            ToolAnnotations::SETTING,
            unexpose,
        )
        .effect(Effect::Read),
    ]
}

/// Arguments of `debug.expose`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ExposeArgs {
    /// The session, as debug.launch returned it (`s1`).
    session_id: String,
    /// Let the editor drive it too (default false).
    #[serde(default)]
    control: bool,
}

/// Arguments of `debug.unexpose`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct UnexposeArgs {
    /// The session.
    session_id: String,
}

async fn expose(ctx: Arc<Context>, args: ExposeArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    // The owner the editors will act for is the one checked here.
    let owner = session.owner();
    owned_by_caller(&ctx, &session, owner.as_ref(), "debug.expose")?;
    let snapshot = session.snapshot().await?;
    if snapshot.state == crate::SessionState::Terminated {
        return Err(crate::tools::results::exit_signal::session_ended(&snapshot));
    }
    // Moves kept for sessions that are gone only take room.
    let runtime = &ctx.runtime;
    ctx.exposures
        .moves()
        .forget_except(|id| runtime.session(id).is_some());
    let gate = Arc::new(GateForEditors {
        ctx: ctx.clone(),
        session: session.id().to_string(),
    });
    let adapter = snapshot.adapter.clone().unwrap_or_default();
    let open = ctx
        .exposures
        .expose(session.clone(), owner.clone(), args.control, &adapter, gate)
        .await
        .map_err(|e| ToolError::new(500, e, "try again; if it repeats, report it"))?;
    // Checked again now that the endpoint is open: a handover meanwhile (which closes
    // the exposures it finds) may have come before this one was there to close.
    let now = session.owner();
    if now != owner {
        ctx.exposures
            .close(session.id(), "the session changed hands as it was exposed");
        owned_by_caller(&ctx, &session, now.as_ref(), "debug.expose")?;
        return Err(ToolError::new(
            500,
            format!("session {} changed hands as it was exposed", session.id()),
            "expose it again if it is yours",
        )
        .with_kind(NOT_OWNER));
    }
    let id = session.id().to_string();
    let mode = if args.control {
        "the editor may drive it; its moves show in your next debug.wait"
    } else {
        "read-only"
    };
    let file = open.file.display().to_string();
    let text = format!(
        "session {id} is exposed at {} ({mode}). Tell the user: the token and the entries \
         to paste (VS Code launch.json, with the `{}` debug extension; nvim-dap) are in \
         {file}, readable by them only.\nVS Code: {}\nnvim-dap:\n{}",
        open.address,
        crate::expose::vscode_type(&adapter),
        open.vscode,
        open.nvim_dap,
    );
    Ok(Reply::new(
        json!({
            "session_id": id,
            "address": open.address.to_string(),
            "token": open.token,
            "setup_file": file,
            "control": args.control,
            "vscode": open.vscode,
            "nvim_dap": open.nvim_dap,
        }),
        text,
    ))
}

async fn unexpose(ctx: Arc<Context>, args: UnexposeArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    owned_by_caller(&ctx, &session, session.owner().as_ref(), "debug.unexpose")?;
    let id = session.id();
    let closed = ctx
        .exposures
        .close(id, "the owner closed the exposure (debug.unexpose)");
    let text = if closed {
        format!("session {id} is no longer exposed; its editors were disconnected")
    } else {
        format!("session {id} was not exposed")
    };
    Ok(Reply::new(
        json!({"session_id": id.to_string(), "closed": closed}),
        text,
    ))
}

impl crate::tools::ToolCatalogue {
    /// What the editors of this catalogue's exposed sessions do with control, from now
    /// on, as they do it (an MCP server notifies its clients of it).
    pub fn editor_activity(
        &self,
    ) -> tokio::sync::broadcast::Receiver<crate::expose::EditorActivity> {
        self.ctx.exposures.moves().feed().subscribe()
    }
}

/// Refuse unless the caller is `owner`, the owner of `session` (or is the host, or
/// the session is anyone's): a client it is only shared with may not show it to others.
fn owned_by_caller(
    ctx: &Context,
    session: &SessionHandle,
    owner: Option<&crate::Owner>,
    tool: &str,
) -> Result<(), ToolError> {
    let (Some(caller), Some(owner)) = (ctx.caller.as_ref(), owner) else {
        return Ok(());
    };
    if caller == owner {
        return Ok(());
    }
    Err(ToolError::new(
        500,
        format!(
            "session {} belongs to client {owner}, not to you ({caller}): only its owner \
             calls {tool}",
            session.id()
        ),
        format!("ask client {owner} to expose it"),
    )
    .with_kind(NOT_OWNER))
}

/// The gate an exposed session's editors pass: the catalogue's, rating each request
/// as the agent's own call doing the same. It cannot ask a person (the editor's user
/// is not the agent's client): what the gate would ask about is refused, unless a
/// rule or an approval for the session already grants it.
struct GateForEditors {
    ctx: Arc<Context>,
    session: String,
}

impl GateForEditors {
    /// The tool call the agent would make for `ask`, and its arguments.
    fn as_tool_call(&self, ask: &Ask) -> (&'static str, Value) {
        let given = ask.arguments.clone().unwrap_or(Value::Null);
        match ask.command {
            DapCommand::Evaluate => (
                "debug.evaluate",
                json!({
                    "session_id": self.session,
                    "expression": given.get("expression").cloned().unwrap_or(Value::Null),
                    "frame_id": given.get("frameId").cloned().unwrap_or(Value::Null),
                    "context": given.get("context").cloned().unwrap_or(Value::Null),
                }),
            ),
            DapCommand::Terminate => ("debug.terminate", json!({"session_id": self.session})),
            command => (
                "debug.custom_request",
                json!({"session_id": self.session, "command": command.name(), "arguments": given}),
            ),
        }
    }
}

impl EditorGate for GateForEditors {
    fn check<'a>(&'a self, ask: &'a Ask) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            let (name, arguments) = self.as_tool_call(ask);
            let Some(tool) = crate::tools::catalogue_tools()
                .iter()
                .find(|t| t.spec.name == name)
            else {
                return Err(format!("{name} is no tool (a bug in dapvisor)"));
            };
            let spec = &tool.spec;
            let target = if depends_on_target(spec, &arguments) {
                crate::tools::access::reach::target_of(&self.ctx, spec, &arguments).await
            } else {
                CallTarget {
                    session: Some(self.session.clone()),
                    ..CallTarget::reaching(Adapters::Some(Vec::new()))
                }
            };
            let gate = &self.ctx.gate;
            let effects = gate.classify(spec, &arguments, &target);
            let call = Call {
                tool: spec,
                arguments: &arguments,
                effects: &effects,
                session: Some(&self.session),
            };
            // Where the gate would ask, its own approver is asked (the host's, if it
            // set one); the editor's user is not the agent's client and is never asked.
            let asked = match gate.decide(&call) {
                crate::permission::Decision::Ask { effects } => effects.describe(),
                _ => String::new(),
            };
            gate.check(&call, None)
                .await
                .map(|_| ())
                .map_err(|refused| {
                    let because = if asked.is_empty() {
                        String::new()
                    } else {
                        format!(" (this `{}` request {asked})", ask.command)
                    };
                    format!("{}{because}; {}", refused.error, refused.hint)
                })
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::permission::{
        Adapters, Call, CallTarget, Decision, Effect, PermissionGate, PermissionMode,
    };

    #[test]
    fn the_gate_rates_an_exposure_by_what_it_lets_the_editor_do() {
        let spec = &crate::tools::catalogue_tools()
            .iter()
            .find(|t| t.spec.name == "debug.expose")
            .unwrap()
            .spec;
        let gate = PermissionGate::new(PermissionMode::PlanOnly);
        let target = CallTarget {
            session: Some("s1".into()),
            ..CallTarget::reaching(Adapters::Some(Vec::new()))
        };
        for (control, strongest) in [(false, Effect::Read), (true, Effect::Control)] {
            let args = json!({"session_id": "s1", "control": control});
            let effects = gate.classify(spec, &args, &target);
            assert_eq!(effects.0.iter().map(|f| f.effect).max(), Some(strongest));
            let call = Call {
                tool: spec,
                arguments: &args,
                effects: &effects,
                session: Some("s1"),
            };
            // Plan-only lets a person look, not drive.
            assert_eq!(gate.decide(&call) == Decision::Allow, !control, "{control}");
        }
    }
}
