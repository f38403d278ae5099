//! The diffs a catalogue made, kept for their further differences: a later
//! `debug.diff` with `diff_id` and `cursor` reads on without running anything again.
//! Bounded ([`MAX_KEPT_DIFFS`], the oldest forgotten), and each readable only by the
//! client that made it.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use crate::tools::catalogue::spec::ToolError;
use crate::tools::diff::align::Alignment;
use crate::tools::diff::keep::StoppedRun;
use crate::Owner;

/// The most diffs a catalogue keeps for reading on: 16, the oldest forgotten first.
pub const MAX_KEPT_DIFFS: usize = 16;

/// What one side of a kept diff was.
#[derive(Debug, Clone)]
pub(crate) struct SideSummary {
    pub session_id: String,
    pub program: Option<String>,
    /// How it ended (`exited with code 0`, `stopped (...)`).
    pub end: String,
    pub rows: usize,
    pub calls_dropped: u64,
}

/// A diff made: both sides and every difference.
#[derive(Debug)]
pub(crate) struct KeptDiff {
    pub id: String,
    /// The client that made it (`None`: the host).
    pub owner: Option<Owner>,
    pub a: SideSummary,
    pub b: SideSummary,
    pub alignment: Alignment,
    /// Whether `keep` was asked.
    pub keep: bool,
    /// With `keep`: each side's second run, left stopped at the first difference.
    pub stopped: Vec<StoppedRun>,
}

/// The kept diffs of one catalogue.
#[derive(Debug, Default)]
pub(crate) struct Diffs {
    inner: Mutex<(u64, VecDeque<Arc<KeptDiff>>)>,
}

impl Diffs {
    /// Keep `diff` under a new id (`d1`, `d2`, ...), forgetting the oldest past
    /// [`MAX_KEPT_DIFFS`].
    pub fn keep(&self, make: impl FnOnce(String) -> KeptDiff) -> Arc<KeptDiff> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.0 += 1;
        let diff = Arc::new(make(format!("d{}", inner.0)));
        if inner.1.len() >= MAX_KEPT_DIFFS {
            inner.1.pop_front();
        }
        inner.1.push_back(diff.clone());
        diff
    }

    /// The diff `id`, if `caller` made it and it is still kept.
    pub fn get(&self, id: &str, caller: Option<&Owner>) -> Result<Arc<KeptDiff>, ToolError> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner
            .1
            .iter()
            .find(|d| d.id == id.trim() && (caller.is_none() || d.owner.as_ref() == caller))
            .cloned()
            .ok_or_else(|| {
                ToolError::new(
                    404,
                    format!("no diff `{}` is kept for you", id.trim()),
                    format!(
                        "the newest {MAX_KEPT_DIFFS} diffs a client made are kept: run the \
                         diff again with `a` and `b`"
                    ),
                )
            })
    }
}
