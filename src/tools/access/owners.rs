//! Session owners in the catalogue. A catalogue made [`for a
//! client`](crate::tools::ToolCatalogue::for_client) starts sessions that belong to that
//! client; any client may read any session (stack, variables, output, the listing),
//! but only its owner, and the clients it shares it with (`debug.share`), may call a
//! tool on it whose effect is more than reading ([`check`]). When a client leaves
//! ([`ToolCatalogue::client_left`](crate::tools::ToolCatalogue::client_left)), the sessions
//! it still owns end after [`OWNER_GRACE`]. A catalogue with no client (stdio, or a
//! host calling it directly) may drive every session.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

use crate::permission::{classify, CallTarget, Effect};
use crate::{Owner, Ownership, Runtime};

use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::spec::{ToolError, ToolSpec};
use crate::tools::results::sessions::SharedWithEntry;
use crate::tools::ToolCatalogue;

/// How long the sessions a client still owns outlive it once it has left (its MCP
/// session ended: an HTTP `DELETE`, or the server closed it): 60 s, time for the
/// clients it shared them with to read what they need. Then they end as
/// `debug.terminate` ends them (an attached program is detached from). Sessions it
/// handed over are not its any more, and stay.
pub const OWNER_GRACE: Duration = Duration::from_secs(60);

/// The longest [`OWNER_GRACE`] a setter takes: 1 hour.
pub const MAX_OWNER_GRACE: Duration = Duration::from_secs(3600);

/// The [`crate::tools::ToolError::kind`] of a call refused because another client
/// owns the session.
pub const NOT_OWNER: &str = "not_owner";

/// `grace` if it is at most [`MAX_OWNER_GRACE`] (0 ends a departed client's sessions
/// at once), else why not.
pub fn check_grace(grace: Duration) -> Result<Duration, String> {
    if grace > MAX_OWNER_GRACE {
        return Err(format!(
            "an owner grace of {} s is longer than the most, {} s",
            grace.as_secs(),
            MAX_OWNER_GRACE.as_secs()
        ));
    }
    Ok(grace)
}

/// The clients connected to one catalogue, so that a share names a real one.
#[derive(Debug, Default)]
pub(crate) struct Clients(Mutex<BTreeSet<Owner>>);

impl Clients {
    pub fn joined(&self, client: Owner) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(client);
    }

    pub fn left(&self, client: &Owner) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(client);
    }

    pub fn list(&self) -> Vec<Owner> {
        let clients = self.0.lock().unwrap_or_else(|e| e.into_inner());
        clients.iter().cloned().collect()
    }
}

/// The strongest effect of calling `spec` with `arguments` on `target`, as the owner
/// check weighs it: what [`classify`] finds, as the permission gate sees it (a call
/// that only reads stays [`Effect::Read`]; one whose arguments carry code, a watch
/// added or a condition, is more), except that a read-class tool that is not
/// read-only (`debug.watch`, whose list the owner's stop results show;
/// `debug.data_breakpoint_info`, whose `name` may be an expression) counts as
/// [`Effect::Control`].
pub(crate) fn strongest_effect(spec: &ToolSpec, arguments: &Value, target: &CallTarget) -> Effect {
    let effects = classify(spec, arguments, target);
    match effects.kinds().into_iter().max().unwrap_or(spec.effect) {
        Effect::Read if !spec.annotations.read_only => Effect::Control,
        effect => effect,
    }
}

/// Whether `caller` may make a call with `effect` on session `session`, owned as
/// `ownership` says: reads always; anything more (control, breakpoints, code, ending
/// it) only by the owner, the clients it shares with, or the host (`caller` `None`).
/// A refusal names the owner and the share that would let `caller` in.
pub fn check(
    ownership: &Ownership,
    caller: Option<&Owner>,
    tool: &str,
    effect: Effect,
    session: &str,
) -> Result<(), ToolError> {
    if effect == Effect::Read || ownership.may_drive(caller) {
        return Ok(());
    }
    let (Some(owner), Some(caller)) = (&ownership.owner, caller) else {
        return Ok(()); // may_drive holds for these
    };
    Err(ToolError::new(
        500,
        format!(
            "session {session} belongs to client {owner}, and you are client {caller}: \
             {tool} would change it, which only its owner and the clients it shares it with \
             may do"
        ),
        format!(
            "reading it needs no share (debug.stack_trace, debug.variables, debug.output, \
             debug.sessions); to drive it, ask client {owner} to call debug.share with \
             session_id {session} and with {caller} (or hand_over_to {caller}), or start a \
             session of your own with debug.launch"
        ),
    )
    .with_kind(NOT_OWNER))
}

/// How `ownership` reads in a session's listing: `owner` (null: anyone's) and, when
/// shared, `shared_with` (client ids, or `"*"`).
pub(crate) fn ownership_json(ownership: &Ownership) -> (Value, Option<Value>) {
    let owner = json!(ownership.owner.as_ref().map(Owner::as_str));
    let shared = SharedWithEntry::of(&ownership.shared_with).map(|s| json!(s));
    (owner, shared)
}

/// End the sessions `client` still owns, after `grace`.
pub(crate) async fn end_after_grace(runtime: Runtime, client: Owner, grace: Duration) {
    tokio::time::sleep(grace).await;
    for session in runtime.sessions_owned_by(&client) {
        // A child ends with its parent; one already gone is no matter.
        if runtime.session(session.id()).is_some() {
            tracing::info!(session = %session.id(), %client, "its owner left: ending it");
            let _ = runtime.end_session(session.id()).await;
        }
    }
}

/// The catalogue's side of owners: a catalogue per client, and what happens when one
/// leaves.
impl ToolCatalogue {
    /// The catalogue as client `client` calls it: the same runtime, tools and gate
    /// (but for approvals given for a session, which are the client's own); the
    /// sessions it starts belong to `client`, and it may drive only those and the
    /// ones shared with it (reading any session needs no share). Call
    /// [`Self::client_left`] on it when the client goes.
    pub fn for_client(&self, client: Owner) -> Self {
        self.ctx.clients.joined(client.clone());
        let mut catalogue = self.clone();
        // A user's approval for a session is theirs: another client the session is
        // shared with is asked its own.
        catalogue.gate = self.gate.with_own_grants();
        catalogue.ctx = Arc::new(Context {
            runtime: self.ctx.runtime.owned_by(client.clone()),
            caller: Some(client),
            gate: catalogue.gate.clone(),
            ..self.context()
        });
        catalogue
    }

    /// The client calling through this catalogue (see [`Self::for_client`]); `None`
    /// for the host's own catalogue, which may drive every session.
    pub fn caller(&self) -> Option<&Owner> {
        self.ctx.caller.as_ref()
    }

    /// The client of this catalogue has gone: the sessions it still owns end after
    /// the owner grace ([`OWNER_GRACE`] unless set with [`Self::with_owner_grace`]),
    /// from a task of the current tokio runtime. Sessions it handed over are not its
    /// any more. Nothing for the host's own catalogue.
    pub fn client_left(&self) {
        let Some(client) = self.ctx.caller.clone() else {
            return;
        };
        self.ctx.clients.left(&client);
        let Ok(tokio) = tokio::runtime::Handle::try_current() else {
            return;
        };
        tracing::info!(%client, grace = ?self.ctx.owner_grace, "a client left");
        tokio.spawn(end_after_grace(
            self.ctx.runtime.clone(),
            client,
            self.ctx.owner_grace,
        ));
    }

    /// Set how long a departed client's sessions outlive it (default
    /// [`OWNER_GRACE`]; 0 ends them at once); refused past [`MAX_OWNER_GRACE`].
    pub fn with_owner_grace(mut self, grace: std::time::Duration) -> Result<Self, String> {
        let owner_grace = check_grace(grace)?;
        self.ctx = Arc::new(Context {
            owner_grace,
            ..self.context()
        });
        Ok(self)
    }

    /// How long a departed client's sessions outlive it.
    pub fn owner_grace(&self) -> std::time::Duration {
        self.ctx.owner_grace
    }

    /// `refusal` with a note when this catalogue's profile lacks `debug.share`, which
    /// the owner needs to let the caller in.
    pub(in crate::tools) fn with_share_hint(&self, mut refusal: ToolError) -> ToolError {
        if !self.profile.serves("debug.share") {
            refusal.hint.push_str(
                "; debug.share is in the `all` tool profile: the owner's server must run \
                 with `--tools all`",
            );
        }
        refusal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permission::Adapters;
    use crate::SessionHandle;

    fn client(id: &str) -> Owner {
        Owner::new(id).unwrap()
    }

    #[test]
    fn reads_pass_and_driving_another_clients_session_is_refused_naming_its_owner() {
        let (a, b) = (client("c1"), client("c2"));
        let owned = Ownership::new(Some(a.clone()));
        assert!(check(&owned, Some(&b), "debug.stack_trace", Effect::Read, "s1").is_ok());
        for effect in [Effect::Control, Effect::Code, Effect::Start, Effect::Host] {
            let refused = check(&owned, Some(&b), "debug.continue", effect, "s1").unwrap_err();
            assert_eq!((refused.code, refused.kind.as_str()), (500, NOT_OWNER));
            assert!(refused.error.contains("belongs to client c1"), "{refused}");
            assert!(refused.error.contains("you are client c2"), "{refused}");
            assert!(refused.hint.contains("ask client c1 to call debug.share"));
            assert!(refused.hint.contains("with c2"), "{refused}");
        }
        assert!(check(&owned, Some(&a), "debug.continue", Effect::Control, "s1").is_ok());
        // The host, and anyone on a session with no owner.
        assert!(check(&owned, None, "debug.terminate", Effect::Control, "s1").is_ok());
        let anyones = Ownership::default();
        assert!(check(&anyones, Some(&b), "debug.evaluate", Effect::Code, "s1").is_ok());
    }

    #[test]
    fn a_share_lets_in_whom_it_names_and_a_handover_shuts_the_old_owner_out() {
        let (a, b, c) = (client("c1"), client("c2"), client("c3"));
        let mut owned = Ownership::new(Some(a.clone()));
        owned.share(Some(b.clone()));
        assert!(check(&owned, Some(&b), "debug.evaluate", Effect::Code, "s1").is_ok());
        let refused = check(&owned, Some(&c), "debug.evaluate", Effect::Code, "s1").unwrap_err();
        assert_eq!(refused.kind, NOT_OWNER, "{refused}");
        assert!(refused.error.contains("you are client c3"), "{refused}");
        owned.share(None);
        assert!(check(&owned, Some(&c), "debug.pause", Effect::Control, "s1").is_ok());
        owned.hand_over(b.clone());
        let refused = check(&owned, Some(&a), "debug.terminate", Effect::Control, "s1");
        assert!(refused.unwrap_err().error.contains("belongs to client c2"));
        assert!(check(&owned, Some(&b), "debug.terminate", Effect::Control, "s1").is_ok());
        assert_eq!(ownership_json(&owned), (json!("c2"), None));
    }

    #[test]
    fn the_grace_has_a_ceiling() {
        assert_eq!(check_grace(OWNER_GRACE), Ok(OWNER_GRACE));
        assert_eq!(check_grace(Duration::ZERO), Ok(Duration::ZERO));
        let err = check_grace(MAX_OWNER_GRACE + Duration::from_secs(1)).unwrap_err();
        assert!(err.contains("3601 s") && err.contains("3600 s"), "{err}");
    }

    /// A call on a debugpy session.
    fn on_debugpy() -> CallTarget {
        CallTarget {
            session: Some("s1".into()),
            ..CallTarget::reaching(Adapters::Some(vec![
                crate::registry::AdapterFlavor::Debugpy,
            ]))
        }
    }

    #[test]
    fn a_call_that_carries_code_is_more_than_a_read() {
        let python = on_debugpy();
        let strongest_effect =
            |spec: &ToolSpec, arguments: &Value| strongest_effect(spec, arguments, &python);
        let tools = crate::tools::all_tools();
        let spec = |name: &str| {
            tools
                .iter()
                .find(|t| t.spec.name == name)
                .unwrap()
                .spec
                .clone()
        };
        // Its watches are part of the session: even removing one changes it.
        let watch = spec("debug.watch");
        assert_eq!(
            strongest_effect(&watch, &json!({"session_id": "s1", "remove": ["x"]})),
            Effect::Control
        );
        assert!(
            strongest_effect(&watch, &json!({"session_id": "s1", "add": ["x"]})) > Effect::Control
        );
        let variables = spec("debug.variables");
        assert_eq!(
            strongest_effect(&variables, &json!({"session_id": "s1", "scope": "Locals"})),
            Effect::Read
        );
        let stack = spec("debug.stack_trace");
        assert_eq!(
            strongest_effect(&stack, &json!({"session_id": "s1"})),
            Effect::Read
        );
        assert_eq!(
            strongest_effect(&spec("debug.continue"), &json!({})),
            Effect::Control
        );
    }

    #[test]
    fn every_read_only_tool_is_open_to_every_client_and_four_read_class_tools_are_not() {
        let session = json!({"session_id": "s1"});
        let mut closed = Vec::new();
        for tool in crate::tools::all_tools() {
            let effect = strongest_effect(&tool.spec, &session, &on_debugpy());
            if tool.spec.annotations.read_only {
                assert_eq!(effect, Effect::Read, "{}", tool.spec.name);
            } else if tool.spec.effect == Effect::Read {
                closed.push(tool.spec.name);
            }
        }
        // Showing a session in an editor is its owner's (the tool checks); watches
        // show in the owner's stop results; data_breakpoint_info's `name` can be an
        // expression.
        assert_eq!(
            closed,
            [
                "debug.expose",
                "debug.unexpose",
                "debug.watch",
                "debug.data_breakpoint_info"
            ]
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_departed_clients_sessions_end_after_the_grace_and_others_stay() {
        let runtime = Runtime::start(crate::RuntimeConfig::default())
            .await
            .unwrap();
        let (a, b) = (client("c1"), client("c2"));
        let left_behind = runtime.owned_by(a.clone()).new_session().await.unwrap();
        let handed = runtime.owned_by(a.clone()).new_session().await.unwrap();
        handed.update_ownership(|o| o.hand_over(b.clone()));
        let others = runtime.owned_by(b.clone()).new_session().await.unwrap();
        let untagged = runtime.new_session().await.unwrap();
        assert_eq!(untagged.owner(), None);
        let ids = |list: Vec<SessionHandle>| list.iter().map(|s| s.id()).collect::<Vec<_>>();
        assert_eq!(ids(runtime.sessions_owned_by(&a)), [left_behind.id()]);
        assert_eq!(
            ids(runtime.sessions_owned_by(&b)),
            [handed.id(), others.id()]
        );

        let ending = tokio::spawn(end_after_grace(runtime.clone(), a.clone(), OWNER_GRACE));
        tokio::time::sleep(OWNER_GRACE - Duration::from_secs(1)).await;
        assert!(runtime.session(left_behind.id()).is_some(), "not yet");
        ending.await.unwrap();
        assert!(runtime.session(left_behind.id()).is_none(), "ended");
        assert_eq!(
            ids(runtime.sessions()),
            [handed.id(), others.id(), untagged.id()]
        );
        runtime.shutdown().await;
    }
}
