//! The stop-scoped cache: what a stopped program's reads (`threads`, `stackTrace`,
//! `scopes`, `variables`) answered, kept until the program may have changed, so that
//! the stop summary, the tools' default frame and the agent's own reads cost one
//! adapter round trip each per stop, not one per tool call.
//!
//! Rules (all plain code, tested below):
//! - **Fills**: the successful answer to a read of those four commands sent while the
//!   session is stopped, keyed by its exact arguments (a paged `variables` or
//!   `stackTrace` is its own entry). A `stackTrace` for frames `start..start+levels`
//!   of a thread is also served from a cached whole-thread answer from frame 0 that
//!   holds those frames: the same frames, ids and `totalFrames` the adapter gave.
//! - **Invalidates everything** (entries, and answers still on their way): every
//!   request sent that is not known to leave the program as it is ([`harmless`]): so
//!   every `evaluate` in any context (an expression can call code on every adapter),
//!   `setVariable`, `setExpression`, `writeMemory`, `completions`, every moving
//!   request (`continue`, steps, `goto`, `restart`...), and any request the session
//!   does not know; every adapter event but output, breakpoint, module, loaded-source,
//!   progress and capabilities ones (so `stopped`, `continued`, `invalidated`,
//!   `memory`, `thread`...); and the session leaving the stopped state.
//! - A hit is served only while the session is stopped; an entry is filled only from
//!   an answer whose request was sent since the last invalidation.
//! - At most [`limits::MAX_STOP_CACHE_BYTES`] of answers are kept; larger ones are
//!   answered and not kept.
//! - A read asked while the same read is on its way (since the last invalidation)
//!   is not sent again: it follows the first, and gets the same answer or error.

use std::collections::HashMap;

use serde_json::Value;

use crate::core::command::{Tag, Token};
use crate::limits;
use crate::wire::{DapCommand, RawJson, StopCacheRule};

/// What a request is kept under: its command and its arguments with keys sorted, or
/// `None` when the command is not one the cache keeps.
pub(crate) fn key(command: &str, arguments: Option<&Value>) -> Option<String> {
    if rule(command) != StopCacheRule::Kept {
        return None;
    }
    let mut key = String::from(command);
    key.push(' ');
    canonical(arguments.unwrap_or(&Value::Null), &mut key);
    Some(key)
}

/// `value` as JSON text with every object's keys in order, whatever order the map
/// keeps them in; a missing or null argument list is the empty one.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("{}"),
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                match &map[k] {
                    Value::Null => out.push_str("null"),
                    v => canonical(v, out),
                }
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// Whether sending `command` leaves the stopped program's threads, stack, scopes and
/// variables as they are: reads, and breakpoint settings. Anything else, including a
/// command not named here, may change them.
pub(crate) fn harmless(command: &str) -> bool {
    rule(command) != StopCacheRule::Invalidates
}

/// What `command`'s description says it does to the cache; a command this runtime
/// does not know may change anything.
fn rule(command: &str) -> StopCacheRule {
    DapCommand::from_name(command).map_or(StopCacheRule::Invalidates, |c| c.spec().stop_cache)
}

/// Whether an adapter event named `event` leaves the cached reads as they are.
fn harmless_event(event: &str) -> bool {
    matches!(
        event,
        "output"
            | "breakpoint"
            | "module"
            | "loadedSource"
            | "progressStart"
            | "progressUpdate"
            | "progressEnd"
            | "capabilities"
    )
}

/// The answers of one stop's reads.
#[derive(Debug, Default)]
pub(crate) struct StopCache {
    /// Answers by [`key`].
    entries: HashMap<String, RawJson>,
    /// The bytes of the answers kept.
    bytes: usize,
    /// Reads sent since the last invalidation, by tag, whose answer fills an entry;
    /// with the agent who asked.
    expected: HashMap<Tag, (String, Token)>,
    /// Agents waiting for the answer another agent's read will get, by that agent.
    /// Kept through invalidations: they are answered whatever happens to the read.
    followers: HashMap<Token, Vec<Token>>,
    /// Answers served from memory so far (for tests and tracing).
    hits: u64,
}

impl StopCache {
    /// The answer kept for `command` with `arguments`, if any.
    pub(crate) fn get(&mut self, command: &str, arguments: Option<&Value>) -> Option<RawJson> {
        let key = key(command, arguments)?;
        let found = match self.entries.get(&key) {
            Some(body) => Some(body.clone()),
            None if command == DapCommand::StackTrace.name() => self.frames_within(arguments?),
            None => None,
        };
        if found.is_some() {
            self.hits += 1;
        }
        found
    }

    /// Answers served from memory so far.
    #[cfg(test)]
    pub(crate) fn hits(&self) -> u64 {
        self.hits
    }

    /// The read `key` was sent as `tag` for `token`: its answer fills the entry.
    pub(crate) fn expect(&mut self, tag: Tag, key: String, token: Token) {
        self.expected.insert(tag, (key, token));
    }

    /// Make `token` wait for the answer to the read `key` already on its way, if one
    /// is; returns whether it does.
    pub(crate) fn follow(&mut self, key: &str, token: Token) -> bool {
        let leader = self
            .expected
            .values()
            .find(|(k, _)| k == key)
            .map(|(_, leader)| *leader);
        if let Some(leader) = leader {
            self.followers.entry(leader).or_default().push(token);
        }
        leader.is_some()
    }

    /// The agents to give the answer `token` gets.
    pub(crate) fn followers(&mut self, token: Token) -> Vec<Token> {
        self.followers.remove(&token).unwrap_or_default()
    }

    /// Whether agents wait for the answer `token` gets (its request must not be
    /// cancelled when `token` gives up).
    pub(crate) fn is_followed(&self, token: Token) -> bool {
        self.followers.contains_key(&token)
    }

    /// `token` gave up: it no longer waits for another's answer.
    pub(crate) fn withdraw(&mut self, token: Token) {
        for tokens in self.followers.values_mut() {
            tokens.retain(|t| *t != token);
        }
        self.followers.retain(|_, tokens| !tokens.is_empty());
    }

    /// The answer to request `tag` came: its body if it succeeded. Fills the entry
    /// when `tag` is a read sent since the last invalidation and the answer fits.
    pub(crate) fn answered(&mut self, tag: Tag, body: Option<RawJson>) {
        let (Some((key, _)), Some(body)) = (self.expected.remove(&tag), body) else {
            return;
        };
        let size = key.len() + body.as_str().len();
        if self.bytes.saturating_add(size) > limits::MAX_STOP_CACHE_BYTES {
            return;
        }
        if let Some(old) = self.entries.insert(key.clone(), body) {
            self.bytes -= key.len() + old.as_str().len();
        }
        self.bytes += size;
    }

    /// `command` is being sent: everything is forgotten unless it is [`harmless`].
    pub(crate) fn on_send(&mut self, command: &str) {
        if !harmless(command) {
            self.invalidate();
        }
    }

    /// The adapter sent `event`: everything is forgotten unless it is harmless.
    pub(crate) fn on_event(&mut self, event: &str) {
        if !harmless_event(event) {
            self.invalidate();
        }
    }

    /// Forget every answer, and the reads still on their way: what they answer may be
    /// from before the change.
    pub(crate) fn invalidate(&mut self) {
        if !self.entries.is_empty() || !self.expected.is_empty() {
            tracing::trace!(entries = self.entries.len(), "stop cache invalidated");
        }
        self.entries.clear();
        self.expected.clear();
        self.bytes = 0;
    }

    /// How many answers are kept.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// A `stackTrace` of frames `start..start+levels` of a thread, cut from a kept
    /// answer for the same thread from frame 0 that holds them all. Only the plain
    /// form (`threadId`, `startFrame`, `levels`) on both sides: a `format` changes the
    /// frames' names.
    fn frames_within(&self, arguments: &Value) -> Option<RawJson> {
        let (thread, start, levels) = plain_stack_request(arguments)?;
        let levels = levels.filter(|l| *l > 0)?;
        let end = start.checked_add(levels)?;
        self.entries.iter().find_map(|(key, body)| {
            let cached: Value = serde_json::from_str(key.strip_prefix("stackTrace ")?).ok()?;
            let (t, s, _) = plain_stack_request(&cached)?;
            if t != thread || s != 0 {
                return None;
            }
            let mut body: Value = body.parse().ok()?;
            let frames = body.get("stackFrames")?.as_array()?;
            let end = usize::try_from(end).ok()?;
            if frames.len() < end {
                return None;
            }
            let slice = frames[usize::try_from(start).ok()?..end].to_vec();
            body["stackFrames"] = Value::Array(slice);
            Some(RawJson::from_value(&body))
        })
    }
}

/// The thread, first frame and levels of a `stackTrace` that asks for nothing else.
fn plain_stack_request(arguments: &Value) -> Option<(i64, i64, Option<i64>)> {
    let map = arguments.as_object()?;
    if map
        .keys()
        .any(|k| !matches!(k.as_str(), "threadId" | "startFrame" | "levels"))
    {
        return None;
    }
    let thread = map.get("threadId")?.as_i64()?;
    let start = map.get("startFrame").map_or(Some(0), Value::as_i64)?;
    let levels = match map.get("levels") {
        None | Some(Value::Null) => None,
        Some(l) => Some(l.as_i64()?),
    };
    (start >= 0).then_some((thread, start, levels))
}

#[cfg(test)]
#[path = "tests/stop_cache_unit.rs"]
mod tests;
