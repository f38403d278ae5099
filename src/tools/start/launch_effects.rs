//! What each session's launch did beyond starting a program, as the permission gate
//! found it (code run through its environment, a module, the test runner's own
//! arguments, the adapter's launch arguments), so that `debug.restart`, which runs
//! that launch again, is rated with the same effects and asks where the launch asked.
//! An approval given once for the launch is not an approval of every restart.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::permission::{Effect, Effects, Found};
use crate::SessionId;

/// The launches' effects beyond [`Effect::Start`], by session; as small as the runtime.
#[derive(Debug, Default)]
pub(crate) struct LaunchEffects(Mutex<HashMap<SessionId, Vec<Found>>>);

impl LaunchEffects {
    /// Remember what `session`'s launch did beyond starting it, forgetting the
    /// sessions not in `live`.
    pub fn remember(&self, session: SessionId, launch: &Effects, live: &[SessionId]) {
        let beyond: Vec<Found> = launch
            .0
            .iter()
            .filter(|found| found.effect > Effect::Start)
            .cloned()
            .collect();
        let mut all = self.lock();
        all.retain(|id, _| live.contains(id));
        if !beyond.is_empty() {
            all.insert(session, beyond);
        }
    }

    /// What a restart of `session` does again beyond starting its program, each said
    /// as carried by the launch it replays.
    pub fn replayed(&self, session: SessionId) -> Vec<Found> {
        let all = self.lock();
        let Some(launch) = all.get(&session) else {
            return Vec::new();
        };
        launch
            .iter()
            .map(|found| {
                let carrier = match found.carrier.as_str() {
                    "" => "the launch it runs again".to_string(),
                    carrier => format!("the launch it runs again: {carrier}"),
                };
                Found::new(found.effect, found.what.clone(), carrier)
            })
            .collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, Vec<Found>>> {
        // Each change is one retain and one insert: a panic leaves the map whole.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}
