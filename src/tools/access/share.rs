//! `debug.share`: the owner of a session lets another client drive it too (`with` a
//! client id, or `"*"` for every client), stops letting it (`stop_sharing`), or hands
//! it over (`hand_over_to`), its child sessions with it. Only the owner shares; only a
//! connected client can be shared with or given a session.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::permission::Effect;
use crate::{Owner, Ownership};

use crate::tools::access::owners::{ownership_json, NOT_OWNER};
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{tool, Outcome, Reply, ToolDef};
use crate::tools::catalogue::spec::{ToolAnnotations, ToolError};

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![tool(
        "debug.share",
        "Let another client drive a session you own (control, evaluate, end): `with` a \
         client id, or \"*\" for all; `stop_sharing` undoes it; `hand_over_to` makes a \
         client the owner. Client ids: `you`, `owner` in debug.sessions.",
        ToolAnnotations::SETTING,
        share,
    )
    .effect(Effect::Control)]
}

/// Arguments of `debug.share`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ShareArgs {
    /// The session, as debug.launch returned it (`s1`).
    session_id: String,
    /// The client to share it with (`c2`), or "*" for every client.
    with: Option<String>,
    /// The client to give it to; you can no longer drive it after.
    hand_over_to: Option<String>,
    /// A client (or "*") to share it with no longer.
    stop_sharing: Option<String>,
}

/// What a share does.
enum Change {
    Share(Option<Owner>),
    StopSharing(Option<Owner>),
    HandOver(Owner),
}

async fn share(ctx: Arc<Context>, args: ShareArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let given = (
        args.with.as_deref(),
        args.stop_sharing.as_deref(),
        args.hand_over_to.as_deref(),
    );
    let change =
        match given {
            (Some("*"), None, None) => Change::Share(None),
            (Some(with), None, None) => Change::Share(Some(connected(&ctx, with)?)),
            (None, Some("*"), None) => Change::StopSharing(None),
            // A client that has left can still be dropped from the share.
            (None, Some(with), None) => Change::StopSharing(Some(client_id(with)?)),
            (None, None, Some(to)) => Change::HandOver(connected(&ctx, to)?),
            _ => return Err(ToolError::invalid(
                "debug.share takes one of `with`, `stop_sharing` and `hand_over_to`",
                "pass `with` (a client id, or \"*\") to share, `stop_sharing` to undo a share, \
                 or `hand_over_to` to give the session away",
            )),
        };
    let caller = ctx.caller.as_ref();
    let id = session.id().to_string();
    let ownership = session.update_ownership(|ownership| {
        match (&ownership.owner, caller) {
            (Some(owner), Some(caller)) if owner != caller => {
                return Err(ToolError::new(
                    500,
                    format!("session {id} belongs to client {owner}, not to you ({caller})"),
                    format!("only its owner shares it: ask client {owner} to share it with you"),
                )
                .with_kind(NOT_OWNER))
            }
            // The host may give a session with no owner to a client; a client cannot
            // take one.
            (None, Some(_)) => {
                return Err(ToolError::invalid(
                    format!("session {id} has no owner: every client may drive it already"),
                    "nothing to share; drive it as it is",
                ))
            }
            _ => {}
        }
        apply(ownership, &change).map_err(|why| ToolError::invalid(why, "nothing was changed"))?;
        Ok(ownership.clone())
    })?;
    // The old owner's editors go with the old owner: an exposure is the owner's.
    if let Change::HandOver(to) = &change {
        ctx.exposures.close(
            session.id(),
            &format!("the session was handed over to client {to}"),
        );
    }
    // Its child sessions (a debuggee's subprocesses) go with it: they have its
    // ownership, the same record (`Runtime`'s child sessions), so none started
    // meanwhile is left behind.
    let (owner, shared) = ownership_json(&ownership);
    let text = match &change {
        Change::HandOver(to) if caller.is_some_and(|c| c != to) => {
            format!("session {id} now belongs to client {to}; you can read it, not drive it")
        }
        Change::HandOver(to) => format!("session {id} now belongs to client {to}"),
        Change::Share(None) => format!("every client may now drive session {id}"),
        Change::Share(Some(with)) => format!("client {with} may now drive session {id}"),
        Change::StopSharing(None) => format!("only you may drive session {id} now"),
        Change::StopSharing(Some(with)) => {
            format!("client {with} may no longer drive session {id}")
        }
    };
    Ok(Reply::new(
        json!({ "session_id": id, "owner": owner, "shared_with": shared.unwrap_or(json!([])) }),
        text,
    ))
}

fn apply(ownership: &mut Ownership, change: &Change) -> Result<(), String> {
    match change {
        Change::Share(with) => ownership.share(with.clone()),
        Change::StopSharing(with) => ownership.stop_sharing(with.as_ref())?,
        Change::HandOver(to) => ownership.hand_over(to.clone()),
    }
    Ok(())
}

/// `id` as a client id.
fn client_id(id: &str) -> Result<Owner, ToolError> {
    id.parse::<Owner>()
        .map_err(|e| ToolError::invalid(e, "pass a client id such as c2, or \"*\""))
}

/// The client called `id`, if it is connected now.
fn connected(ctx: &Context, id: &str) -> Result<Owner, ToolError> {
    let clients = ctx.clients.list();
    let names = clients.iter().map(Owner::as_str).collect::<Vec<_>>();
    let client = client_id(id)?;
    if !clients.contains(&client) {
        return Err(ToolError::invalid(
            format!("no client `{client}` is connected"),
            format!(
                "the connected clients are: {} (debug.sessions shows each client its id as `you`)",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        ));
    }
    Ok(client)
}
