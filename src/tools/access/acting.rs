//! Checked where a call acts, not only where it was asked (DESIGN 15). The permission
//! gate may wait on the user for minutes, and a handler waits on the session's queue;
//! meanwhile a session may start under the id the call names, end, be handed over or
//! stop being shared. So a call that names a session is weighed once, before the gate
//! ([`SessionCall`]: its session and the strongest effect it has there), and then:
//!
//! - before the gate: a call that does more than read, on an id no session has, is
//!   refused at once ([`UNKNOWN_SESSION`]), never approved and then run on whatever
//!   session starts under that id later; one on another client's session is refused
//!   (`owners.rs`), and so is an attach to a process or debug server a live session
//!   holds (`target_held`), so that no one is asked to approve a call that cannot run;
//! - after the gate, right before the handler: the session must still be there and
//!   still be the caller's to drive;
//! - in the handler: the session it looks up is the caller's to drive at that moment,
//!   and every call it makes on it goes through a view acting for the caller
//!   ([`crate::SessionHandle::acting_as`]), which the session itself checks when it
//!   takes the call from its queue. Its state is checked there too, as for any call.

use serde_json::Value;

use crate::permission::{depends_on_target, Adapters, CallTarget, Effect};
use crate::Owner;

use crate::tools::access::owners::strongest_effect;
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::spec::{ToolError, ToolSpec};
use crate::tools::ToolCatalogue;

/// The [`ToolError::kind`] of a call refused because no session has the id it names
/// and it would do more than read (404).
pub const UNKNOWN_SESSION: &str = "unknown_session";

/// A call that names a session: the id as the runtime writes it, and the strongest
/// effect the call has there (as the owner check weighs it).
pub(in crate::tools) struct SessionCall {
    pub(in crate::tools) id: String,
    pub(in crate::tools) tool: &'static str,
    effect: Effect,
}

/// Who a handler acts for and what its call does, so that the sessions it looks up
/// are checked as it takes them ([`Context::session`]).
#[derive(Debug, Clone)]
pub(crate) struct Acting {
    /// The client the call is made for.
    pub client: Owner,
    /// The tool called.
    pub tool: &'static str,
    /// Its strongest effect on the session.
    pub effect: Effect,
}

impl ToolCatalogue {
    /// Weigh a call before the gate, and refuse it when it cannot run: it would do
    /// more than read on an id no session has, or on another client's session.
    /// `None` for a call that names no session.
    pub(in crate::tools) async fn session_call(
        &self,
        spec: &ToolSpec,
        arguments: &Value,
    ) -> Result<Option<SessionCall>, ToolError> {
        if spec.adds == crate::permission::Adds::Attach {
            self.attach_target_free(arguments).await?;
        }
        let Some(id) = crate::tools::access::reach::session_named(arguments) else {
            return Ok(None);
        };
        // What the call does on this session's adapter, found as the gate finds it;
        // an id no session has counts as any adapter, possibly attached.
        let target = if depends_on_target(spec, arguments) {
            crate::tools::access::reach::target_of(&self.ctx, spec, arguments).await
        } else {
            CallTarget {
                session: Some(id.clone()),
                ..CallTarget::reaching(Adapters::Some(Vec::new()))
            }
        };
        let call = SessionCall {
            effect: strongest_effect(spec, arguments, &target),
            tool: spec.name,
            id,
        };
        self.may_act_on(&call)?;
        Ok(Some(call))
    }

    /// Whether `call` may act on its session now: reads always (the tool says if the
    /// session is not there); anything more only on a live session the caller may
    /// drive.
    pub(in crate::tools) fn may_act_on(&self, call: &SessionCall) -> Result<(), ToolError> {
        if call.effect == Effect::Read {
            return Ok(());
        }
        let session = self
            .ctx
            .session(&call.id)
            .map_err(|err| unknown(err, call))?;
        let Some(caller) = self.ctx.caller.as_ref() else {
            return Ok(());
        };
        crate::tools::access::owners::check(
            &session.ownership(),
            Some(caller),
            call.tool,
            call.effect,
            &call.id,
        )
        .map_err(|refusal| self.with_share_hint(refusal))
    }

    /// The context `call`'s handler runs in: for a client's call that does more than
    /// read on a session, one that acts for the client (see [`Acting`]).
    pub(in crate::tools) fn acting_context(
        &self,
        call: Option<&SessionCall>,
    ) -> std::sync::Arc<Context> {
        let acting = match (call, self.ctx.caller.as_ref()) {
            (Some(call), Some(client)) if call.effect != Effect::Read => Acting {
                client: client.clone(),
                tool: call.tool,
                effect: call.effect,
            },
            _ => return self.ctx.clone(),
        };
        std::sync::Arc::new(Context {
            acting: Some(acting),
            ..self.context()
        })
    }
}

impl ToolCatalogue {
    /// Refuse an attach to a target a live session holds (or to dapvisor itself)
    /// before anyone is asked to approve it; the runtime checks again as it attaches
    /// (`Runtime::attach`).
    async fn attach_target_free(&self, arguments: &Value) -> Result<(), ToolError> {
        let number = |field| arguments.get(field).and_then(Value::as_u64);
        let mut spec = crate::AttachSpec::default();
        spec.pid = number("pid").and_then(|p| u32::try_from(p).ok());
        spec.port = number("port").and_then(|p| u16::try_from(p).ok());
        spec.host = arguments
            .get("host")
            .and_then(Value::as_str)
            .map(str::to_string);
        let Some(target) = crate::Runtime::target_of(&spec) else {
            return Ok(()); // the tool says what an attach needs
        };
        Ok(self.ctx.runtime.target_free(&target).await?)
    }
}

/// `err` (the session named cannot be found) as the refusal of `call`: an id no
/// session ever had is [`UNKNOWN_SESSION`], and says why the call is not held for one.
fn unknown(mut err: ToolError, call: &SessionCall) -> ToolError {
    if err.code == 404 && err.kind == "not_found" {
        err.kind = UNKNOWN_SESSION.to_string();
        err.error = format!(
            "{}: {} would change a session, and is refused for an id no session has \
             rather than run on whichever session starts under it later",
            err.error, call.tool
        );
    }
    err
}

impl Context {
    /// Whether the call this context acts for may drive `session` now (see
    /// [`Acting`]); always for the host, and for a call that only reads.
    pub(crate) fn may_act(&self, session: &crate::SessionHandle) -> Result<(), ToolError> {
        let Some(acting) = &self.acting else {
            return Ok(());
        };
        crate::tools::access::owners::check(
            &session.ownership(),
            Some(&acting.client),
            acting.tool,
            acting.effect,
            &session.id().to_string(),
        )
    }
}
