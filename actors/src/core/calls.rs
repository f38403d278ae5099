//! Call traces, the pure part: which breakpoints are the session's own call
//! breakpoints, the calls open on each thread (to pair a return with its call and to
//! know how deep a call is), whether a step stop is the session's own step out of a
//! call, and the rate past which calls go unrecorded.
//!
//! How a call is recorded (`call_stops.rs`): a function breakpoint stops the program at
//! the function's entry; the session reads the arguments, steps out, reads the return
//! value the adapter shows in the caller's locals, and goes on: a step out again while
//! calls are still open on that thread (each step out ends the innermost frame), else
//! a continue. Frame counts pair each return with its call: a step out that lands at
//! `n` frames ends every open call entered at more than `n`, and reads the return
//! value of the one entered at exactly `n + 1`.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use crate::core::call_patterns::CallPattern;

/// A call recorded and not yet returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OpenCall {
    /// The call's id (the session's calls are numbered from 1).
    pub call: u64,
    /// Frames on the thread's stack at the function's entry, its own included.
    pub frames: usize,
    /// The trace row of the call.
    pub row: u64,
    /// How many traced calls it is inside on its thread.
    pub depth: usize,
    pub function: String,
}

/// How a call ended, as a step out showed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ended {
    pub open: OpenCall,
    /// Whether this step out ended this call's own frame (its return value is the one
    /// shown); `false` for a call that ended while the program ran past it.
    pub own_frame: bool,
}

/// What to do after an internal stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Resume {
    StepOut,
    Continue,
}

/// The session's call tracing state.
#[derive(Debug, Clone)]
pub(crate) struct CallTracker {
    pub patterns: Vec<CallPattern>,
    /// The adapter's ids of the call breakpoints.
    ids: HashSet<i64>,
    next_call: u64,
    open: HashMap<i64, Vec<OpenCall>>,
    /// Threads the session stepped out on, whose next `step` stop is its own.
    stepping: HashSet<i64>,
    /// Calls recorded in the current second, and when it began.
    window: Option<(Instant, u32)>,
    rate: u32,
    /// Calls not recorded because they came faster than the rate.
    pub over_rate: u64,
    /// The agent's step in flight: its thread, and whether it steps into calls.
    agent_step: Option<(i64, bool)>,
}

impl CallTracker {
    pub(crate) fn new(rate: u32) -> Self {
        Self {
            patterns: Vec::new(),
            ids: HashSet::new(),
            next_call: 1,
            open: HashMap::new(),
            stepping: HashSet::new(),
            window: None,
            rate: rate.max(1),
            over_rate: 0,
            agent_step: None,
        }
    }

    /// Forget the call breakpoints' ids: a new list of them was answered.
    pub(crate) fn clear_ids(&mut self) {
        self.ids.clear();
    }

    /// A new adapter run: its breakpoints and threads are new.
    pub(crate) fn new_run(&mut self) {
        self.ids.clear();
        self.open.clear();
        self.stepping.clear();
        self.agent_step = None;
    }

    pub(crate) fn add_id(&mut self, id: i64) {
        self.ids.insert(id);
    }

    /// Whether a stop hit the session's call breakpoints and nothing else.
    pub(crate) fn is_call_hit(&self, hits: &[i64]) -> bool {
        !hits.is_empty() && hits.iter().all(|id| self.ids.contains(id))
    }

    /// Whether a `step` stop on `thread` is the session's own step out (and so no
    /// longer awaited).
    pub(crate) fn take_step(&mut self, reason: &str, thread: i64) -> bool {
        reason == "step" && self.stepping.remove(&thread)
    }

    /// A stop that is someone's (an agent's breakpoint, a pause): the session's step
    /// out on that thread, if any, is over. Its open calls stay: a later step out of
    /// theirs still ends them.
    pub(crate) fn interrupted(&mut self, thread: Option<i64>) {
        self.agent_step = None;
        match thread {
            Some(thread) => {
                self.stepping.remove(&thread);
            }
            None => self.stepping.clear(),
        }
    }

    /// The agent moved the program on `thread`: a step (`Some(into)`: whether it steps
    /// into calls), or a continue or pause (`None`).
    pub(crate) fn agent_moves(&mut self, thread: i64, step_into: Option<bool>) {
        self.agent_step = step_into.map(|into| (thread, into));
    }

    /// Whether the agent's step on `thread` is still to end, and if so whether it
    /// steps into calls. A call trace's stop inside it ends it instead of going on:
    /// at the entry of a call stepped into, or where the program is once the traced
    /// calls it stepped over returned.
    pub(crate) fn agent_step(&self, thread: i64) -> Option<bool> {
        self.agent_step
            .filter(|(t, _)| *t == thread)
            .map(|(_, into)| into)
    }

    /// Whether one more call may be recorded at `now`: at most the rate a second;
    /// past it, the call is counted in [`Self::over_rate`].
    pub(crate) fn admit(&mut self, now: Instant) -> bool {
        let (start, count) = match self.window {
            Some((start, count)) if now.duration_since(start) < Duration::from_secs(1) => {
                (start, count)
            }
            _ => (now, 0),
        };
        if count >= self.rate {
            self.window = Some((start, count));
            self.over_rate += 1;
            return false;
        }
        self.window = Some((start, count + 1));
        true
    }

    /// A call of `function` entered on `thread` with `frames` frames: its id, and
    /// how many traced calls it is nested in on that thread.
    pub(crate) fn enter(&mut self, thread: i64, frames: usize, function: &str) -> (u64, usize) {
        let call = self.next_call;
        self.next_call += 1;
        let stack = self.open.entry(thread).or_default();
        let depth = stack.len();
        stack.push(OpenCall {
            call,
            frames,
            row: 0,
            depth,
            function: function.to_string(),
        });
        (call, depth)
    }

    /// A call is entered on `thread` at `frames` frames: the open calls entered at as
    /// many frames or more ended unseen (the program ran on from someone's stop inside
    /// them), innermost first.
    pub(crate) fn stale(&mut self, thread: i64, frames: usize) -> Vec<Ended> {
        let Some(stack) = self.open.get_mut(&thread) else {
            return Vec::new();
        };
        let mut ended = Vec::new();
        while let Some(open) = stack.pop_if(|o| o.frames >= frames) {
            ended.push(Ended {
                open,
                own_frame: false,
            });
        }
        ended
    }

    /// Every call still open, on every thread: the program ended.
    pub(crate) fn end_all(&mut self) -> Vec<(i64, Ended)> {
        self.stepping.clear();
        self.agent_step = None;
        let mut ended = Vec::new();
        for (thread, stack) in self.open.iter_mut() {
            while let Some(open) = stack.pop() {
                ended.push((
                    *thread,
                    Ended {
                        open,
                        own_frame: false,
                    },
                ));
            }
        }
        ended.sort_by_key(|(_, e)| std::cmp::Reverse(e.open.call));
        ended
    }

    /// The trace row the call `call` was recorded at.
    pub(crate) fn set_row(&mut self, thread: i64, call: u64, row: u64) {
        if let Some(open) = self
            .open
            .get_mut(&thread)
            .and_then(|s| s.iter_mut().find(|o| o.call == call))
        {
            open.row = row;
        }
    }

    /// A step out on `thread` landed with `frames` frames: the calls it ended,
    /// innermost first.
    pub(crate) fn returned(&mut self, thread: i64, frames: usize) -> Vec<Ended> {
        let Some(stack) = self.open.get_mut(&thread) else {
            return Vec::new();
        };
        let mut ended = Vec::new();
        while stack.last().is_some_and(|o| o.frames > frames) {
            let open = stack.pop().expect("checked");
            let own_frame = open.frames == frames + 1;
            ended.push(Ended { open, own_frame });
        }
        ended
    }

    /// How many traced calls are open on `thread`.
    pub(crate) fn depth(&self, thread: i64) -> usize {
        self.open.get(&thread).map_or(0, Vec::len)
    }

    /// How to go on after an internal stop on `thread`: step out while calls are open
    /// there (remembered, so that the `step` stop is known as the session's), else
    /// continue.
    pub(crate) fn resume(&mut self, thread: i64) -> Resume {
        if self.depth(thread) > 0 {
            self.stepping.insert(thread);
            Resume::StepOut
        } else {
            Resume::Continue
        }
    }
}

/// The arguments among a function's first scope's variables at its entry: all but
/// the adapters' own entries (a return value shown, debugpy's groups such as `special
/// variables`). Where the adapter lists locals with the arguments (lldb, dlv), the
/// locals come too, not yet set.
pub(crate) fn arguments_of(variables: Vec<(String, String)>) -> Vec<(String, String)> {
    variables
        .into_iter()
        .filter(|(name, _)| return_slot(name).is_none() && !name.contains(' '))
        .collect()
}

/// The return value the adapter shows among the caller's variables after `function`
/// returned: debugpy's `(return) NAME` (which keeps those of every function returned
/// from into that frame: the one named so), lldb-dap's `(Return Value)`, CodeLLDB's
/// `[return value]`, dlv's `~r0` (several results joined with `, `).
pub(crate) fn return_value_of(variables: &[(String, String)], function: &str) -> Option<String> {
    let values: Vec<&str> = variables
        .iter()
        .filter(|(name, _)| is_return_slot(name, function))
        .map(|(_, value)| value.as_str())
        .collect();
    (!values.is_empty()).then(|| values.join(", "))
}

/// Whether a variable named `name` holds what `function` returned (see
/// [`return_value_of`]).
pub(crate) fn is_return_slot(name: &str, function: &str) -> bool {
    let own = function.rsplit(['.', ':']).next().unwrap_or(function);
    match name.strip_prefix("(return)").map(str::trim) {
        Some(named) => named.rsplit('.').next().unwrap_or(named) == own,
        None => return_slot(name).is_some(),
    }
}

/// The most members of a struct returned that its row shows: 16.
const MAX_MEMBERS_SHOWN: usize = 16;

/// Whether a value with children shows only its type's name (lldb shows a struct as
/// `price`): then its members say more. Not a pointer's address, nor a value that
/// shows its contents (`Price(cents=1)`, `{...}`, `[1, 2]`), nor a number or a bool
/// (CodeLLDB gives a Rust `u32` a `[raw]` child: `300` is the value).
pub(crate) fn shows_only_a_type(value: &str, reference: i64) -> bool {
    reference > 0
        && value.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && !matches!(value, "true" | "false")
        && !value.contains(['{', '(', '[', '<', '"', '\'', '='])
}

/// CodeLLDB's child that shows a value without its language's formatter: not a member.
const RAW_VIEW: &str = "[raw]";

/// The text of a struct returned, from its members (CodeLLDB's `[raw]` view left
/// out); `None` when it has no other member, when the value shown says it all.
pub(crate) fn members_shown(members: &[(String, String)]) -> Option<String> {
    let own: Vec<(String, String)> = members
        .iter()
        .filter(|(name, _)| name != RAW_VIEW)
        .cloned()
        .collect();
    (!own.is_empty()).then(|| members_text(&own))
}

/// `{cents=1100, band=1}`: a struct's members, at most [`MAX_MEMBERS_SHOWN`].
pub(crate) fn members_text(members: &[(String, String)]) -> String {
    let mut shown: Vec<String> = members
        .iter()
        .take(MAX_MEMBERS_SHOWN)
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    if members.len() > MAX_MEMBERS_SHOWN {
        shown.push("…".into());
    }
    format!("{{{}}}", shown.join(", "))
}

/// Whether a variable's name is an adapter's return-value slot.
fn return_slot(name: &str) -> Option<()> {
    let dlv = name
        .strip_prefix("~r")
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    let lldb = name == "(Return Value)" || name == "[return value]"; // lldb-dap, CodeLLDB
    (name.starts_with("(return)") || lldb || dlv).then_some(())
}

#[cfg(test)]
#[path = "tests/calls_unit.rs"]
mod tests;
