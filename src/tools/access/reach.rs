//! Where a call lands, for the permission gate ([`CallTarget`]): the adapter of the
//! session it names and whether that session attached to a process dapvisor did not
//! start; for a launch, every adapter that could serve the program; for an attach,
//! the one the registry picks.

use serde_json::Value;

use crate::permission::{Adapters, Adds, CallTarget};
use crate::registry::AdapterFlavor;
use crate::tools::ToolSpec;
use crate::{AttachSpec, LaunchSpec, SessionError, SessionHandle, SessionId};

use crate::tools::catalogue::context::Context;

/// How many parents of a child session are looked at to tell whether it descends
/// from an attach: more than any adapter nests.
const MAX_PARENTS: usize = 8;

/// The session a call names, as the runtime writes its id (`s1` for `1` or ` s1`), so
/// that approvals for it match however the agent wrote it.
pub(crate) fn session_named(arguments: &Value) -> Option<String> {
    let id = arguments.get("session_id").and_then(Value::as_str)?.trim();
    Some(match id.parse::<SessionId>() {
        Ok(parsed) => parsed.to_string(),
        Err(_) => id.to_string(),
    })
}

/// Where a call of `tool` with `arguments` lands.
pub(crate) async fn target_of(ctx: &Context, tool: &ToolSpec, arguments: &Value) -> CallTarget {
    if let Some(id) = session_named(arguments) {
        let mut target = session_target(ctx, &id).await;
        if tool.adds == Adds::Restart {
            if let Ok(parsed) = id.parse::<SessionId>() {
                target.replays = ctx.launch_effects.replayed(parsed);
            }
        }
        return target;
    }
    match tool.adds {
        Adds::Launch => CallTarget::reaching(launch_adapters(ctx, arguments).await),
        Adds::Attach => CallTarget::reaching(attach_adapters(ctx, arguments).await),
        _ => CallTarget::reaching(Adapters::Some(Vec::new())),
    }
}

/// The session `id` names: its adapter and what it attached to. A session the runtime
/// never knew may yet start under this id between the gate and the tool, so it counts
/// as any adapter, possibly attached; one that ended cannot run anything again.
async fn session_target(ctx: &Context, id: &str) -> CallTarget {
    let named = Some(id.to_string());
    let ended = CallTarget {
        session: named.clone(),
        ..CallTarget::reaching(Adapters::Some(vec![AdapterFlavor::Generic]))
    };
    let Ok(parsed) = id.parse::<SessionId>() else {
        // No session can ever have this id: the tool refuses it.
        return ended;
    };
    let handle = match ctx.runtime.find(parsed) {
        Ok(handle) => handle,
        Err(SessionError::NotFound(_)) => return CallTarget::unknown(named),
        Err(_) => return ended,
    };
    let Ok(snapshot) = handle.snapshot().await else {
        return ended;
    };
    let adapters = match snapshot.adapter_flavor {
        Some(flavor) => Adapters::Some(vec![flavor]),
        // Created and not started (the runtime's API allows that): any adapter.
        None => Adapters::Any,
    };
    let attached_to = match snapshot.attached_to {
        Some(target) => Some(target.to_string()),
        None => attached_ancestor(ctx, snapshot.parent).await,
    };
    CallTarget {
        adapters,
        session: named,
        attached_to,
        replays: Vec::new(),
    }
}

/// What the nearest attached ancestor of a child session attached to: a child runs
/// in (or is started by) its parent's debuggee.
async fn attached_ancestor(ctx: &Context, mut parent: Option<SessionId>) -> Option<String> {
    for _ in 0..MAX_PARENTS {
        let handle: SessionHandle = ctx.runtime.find(parent?).ok()?;
        let snapshot = handle.snapshot().await.ok()?;
        if let Some(target) = snapshot.attached_to {
            return Some(format!("{target}, through session {}", handle.id()));
        }
        parent = snapshot.parent;
    }
    None
}

/// The adapters that could serve a launch: the one named, else every adapter that
/// serves the program (the first installed of them will), or any when the program
/// cannot be read (the launch then fails).
async fn launch_adapters(ctx: &Context, arguments: &Value) -> Adapters {
    let Some(program) = arguments.get("program").and_then(Value::as_str) else {
        return Adapters::Any;
    };
    let Ok(program) = ctx.paths.resolve(program, "program") else {
        return Adapters::Any;
    };
    let mut spec = LaunchSpec::new(program);
    spec.adapter = adapter_name(arguments);
    let registry = ctx.runtime.registry().clone();
    // The registry reads the start of the program to tell binaries and scripts apart.
    let flavors = tokio::task::spawn_blocking(move || {
        registry
            .candidates_for_launch(&spec)
            .map(|defs| defs.iter().map(|d| d.flavor).collect::<Vec<_>>())
    })
    .await;
    match flavors {
        Ok(Ok(list)) if !list.is_empty() => Adapters::Some(list),
        _ => Adapters::Any,
    }
}

/// The adapter the registry picks for an attach, or any when it picks none (the
/// attach then fails).
async fn attach_adapters(ctx: &Context, arguments: &Value) -> Adapters {
    let number = |field| arguments.get(field).and_then(Value::as_u64);
    let program = arguments
        .get("program")
        .and_then(Value::as_str)
        .and_then(|p| ctx.paths.resolve(p, "program").ok());
    let mut spec = AttachSpec::default();
    spec.pid = number("pid").and_then(|p| u32::try_from(p).ok());
    spec.port = number("port").and_then(|p| u16::try_from(p).ok());
    spec.host = arguments
        .get("host")
        .and_then(Value::as_str)
        .map(str::to_string);
    spec.program = program;
    spec.adapter = adapter_name(arguments);
    let registry = ctx.runtime.registry().clone();
    let flavor = tokio::task::spawn_blocking(move || {
        registry.select_for_attach(&spec).map(|def| def.flavor)
    })
    .await;
    match flavor {
        Ok(Ok(flavor)) => Adapters::Some(vec![flavor]),
        _ => Adapters::Any,
    }
}

fn adapter_name(arguments: &Value) -> Option<String> {
    arguments
        .get("adapter")
        .and_then(Value::as_str)
        .map(str::to_string)
}
