//! A remote or container target's paths, mapped at the edge of the session core: the
//! responses and events the adapter sends come in with the agent's paths (or the
//! target's, marked, where no mapping covers them), and the requests the core sends
//! go out with the target's (see [`crate::path_map`]). Everything inside the core (the
//! breakpoint cache, the stop, the trace) and everything an agent reads sees local
//! paths only. Nothing is done for a session without mappings.

use crate::core::attach_target::AttachTarget;
use crate::core::command::{Effect, Input};
use crate::core::session::SessionCore;
use crate::path_map::PathMap;
use crate::wire::RawJson;

impl SessionCore {
    fn path_map(&self) -> Option<&PathMap> {
        self.plan
            .as_ref()
            .map(|p| &p.path_map)
            .filter(|m| !m.is_empty())
    }

    /// `input` with the paths of its adapter message made the agent's.
    pub(super) fn map_incoming_paths(&self, mut input: Input) -> Input {
        let Some(map) = self.path_map() else {
            return input;
        };
        let body = match &mut input {
            Input::Response {
                result: Ok(response),
                ..
            } => &mut response.body,
            Input::Event(event) => &mut event.body,
            _ => return input,
        };
        if let Some(raw) = body.as_mut().filter(|b| names_a_path(b)) {
            let mut value = raw.to_value();
            map.incoming(&mut value);
            *raw = RawJson::from_value(&value);
        }
        input
    }

    /// The map for what goes out: a debug server's session has one even without
    /// mappings, for the marked remote paths an agent passes back (`remote:/usr/lib/a.py`
    /// goes out as `/usr/lib/a.py`).
    fn outgoing_map(&self) -> Option<&PathMap> {
        let plan = self.plan.as_ref()?;
        let server = matches!(plan.attach_target, Some(AttachTarget::Server { .. }));
        (server || !plan.path_map.is_empty()).then_some(&plan.path_map)
    }

    /// The requests among `effects` with their paths made the target's.
    pub(super) fn map_outgoing_paths(&self, effects: &mut [Effect]) {
        let Some(map) = self.outgoing_map() else {
            return;
        };
        for effect in effects {
            if let Effect::Send { request, .. } = effect {
                if let Some(arguments) = &mut request.arguments {
                    map.outgoing(arguments);
                }
            }
        }
    }
}

/// Whether `body` may hold a source's path (most bodies do not: skip parsing them).
fn names_a_path(body: &RawJson) -> bool {
    body.as_str().contains("\"path\"")
}
