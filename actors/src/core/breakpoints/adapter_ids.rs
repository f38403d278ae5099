//! The breakpoint cache's records found by the id the adapter gave them: the hits a
//! stop names, and the `breakpoint` events that change one.
//!
//! An id should name one breakpoint, but js-debug (v1.112) may answer a breakpoint
//! added to a file with the id another breakpoint of that file already has. Where an
//! id names several records, a stop counts as a hit of the one at the place it stopped
//! ([`StopPlace`]), and an event goes to the one at the line and file it gives.

use std::path::{Path, PathBuf};

use super::{BreakpointCache, SourceBreakpointRecord};
use crate::wire::types::Breakpoint;

/// Where a stop is: its top frame's file and line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StopPlace {
    pub(crate) file: PathBuf,
    pub(crate) line: i64,
}

/// A cached record, by where it is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Holder {
    Source(PathBuf, usize),
    Function(usize),
}

impl BreakpointCache {
    /// Whether the adapter gave `id` to one of the cached source or function
    /// breakpoints.
    pub(crate) fn has_id(&self, id: i64) -> bool {
        !self.holders(id).is_empty()
    }

    /// Whether one of `ids` names more than one cached breakpoint: then only the stop's
    /// place tells which one it hit (see [`Self::record_hits`]).
    pub(crate) fn shares_an_id(&self, ids: &[i64]) -> bool {
        ids.iter().any(|id| self.holders(*id).len() > 1)
    }

    /// Every record the adapter gave `id`, sources first.
    fn holders(&self, id: i64) -> Vec<Holder> {
        let has = |actual: &Option<Breakpoint>| actual.as_ref().and_then(|a| a.id) == Some(id);
        let sources = self.sources.iter().flat_map(|(file, records)| {
            let at = records.iter().enumerate().filter(|(_, r)| has(&r.actual));
            at.map(|(i, _)| Holder::Source(file.clone(), i))
        });
        let functions = self.functions.iter().enumerate();
        let functions = functions.filter(|(_, r)| has(&r.actual));
        sources
            .chain(functions.map(|(i, _)| Holder::Function(i)))
            .collect()
    }

    fn actual_mut(&mut self, holder: &Holder) -> Option<(&mut Option<Breakpoint>, &mut u64)> {
        match holder {
            Holder::Source(file, i) => {
                let r = self.sources.get_mut(file)?.get_mut(*i)?;
                Some((&mut r.actual, &mut r.hits))
            }
            Holder::Function(i) => {
                let r = self.functions.get_mut(*i)?;
                Some((&mut r.actual, &mut r.hits))
            }
        }
    }

    /// Of `holders`, the source records at `line` of `file` (either one given): by the
    /// file's full path, else by its name alone (a path the adapter wrote otherwise).
    fn at_place(&self, holders: &[Holder], file: Option<&Path>, line: Option<i64>) -> Vec<Holder> {
        let on_line = |r: &SourceBreakpointRecord| {
            line.is_none_or(|l| r.requested.line == l || r.actual_line() == Some(l))
        };
        let pick = |same_file: &dyn Fn(&Path) -> bool| -> Vec<Holder> {
            holders
                .iter()
                .filter(|h| match h {
                    Holder::Source(path, i) => {
                        same_file(path) && self.sources[path].get(*i).is_some_and(on_line)
                    }
                    Holder::Function(_) => false,
                })
                .cloned()
                .collect()
        };
        let Some(file) = file else {
            return pick(&|_| true);
        };
        let exact = pick(&|path| path == file);
        if !exact.is_empty() {
            return exact;
        }
        pick(&|path| {
            path.file_name()
                .is_some_and(|n| Some(n) == file.file_name())
        })
    }

    /// Follow a `breakpoint` event: the adapter changed one of its breakpoints (verified
    /// it later, moved it). Matched by id, and where the id names several records, by
    /// the line and file the event gives (none is changed if they do not tell which);
    /// returns whether a cached record changed.
    pub(crate) fn apply_event(&mut self, reason: &str, bp: &Breakpoint) -> bool {
        let Some(id) = bp.id else { return false };
        let mut holders = self.holders(id);
        if holders.is_empty() {
            return reason == "changed" && self.apply_renumbered(bp);
        }
        if holders.len() > 1 {
            let file = bp.source.as_ref().and_then(|s| s.path.as_deref());
            if file.is_none() && bp.line.is_none() {
                tracing::debug!(id, "breakpoint event for a shared id, with no place");
                return false;
            }
            holders = self.at_place(&holders, file.map(Path::new), bp.line);
            if holders.len() != 1 {
                tracing::debug!(id, "breakpoint event matches no single breakpoint");
                return false;
            }
        }
        let Some((actual, _)) = self.actual_mut(&holders[0]) else {
            return false;
        };
        *actual = (reason != "removed").then(|| bp.clone());
        true
    }

    /// A `changed` breakpoint under an id the adapter never gave, at a line of a file
    /// where the cache holds one it has not verified: that one, set once its class
    /// loaded and numbered anew (JdiDapServer does so, as clients match by file and
    /// line when the id is unknown).
    fn apply_renumbered(&mut self, bp: &Breakpoint) -> bool {
        let (Some(path), Some(line)) = (bp.source.as_ref().and_then(|s| s.path.as_ref()), bp.line)
        else {
            return false;
        };
        let Some(records) = self.sources.get_mut(Path::new(path)) else {
            return false;
        };
        let unverified = records
            .iter_mut()
            .find(|r| r.requested.line == line && !r.actual.as_ref().is_some_and(|a| a.verified));
        match unverified {
            Some(record) => {
                record.actual = Some(bp.clone());
                true
            }
            None => false,
        }
    }

    /// Count a stop that names `ids` (its `hitBreakpointIds`) as a hit of each cached
    /// breakpoint the adapter gave one of those ids. An id several records share is a
    /// hit of the one at `place` (the stop's top frame), bound there or asked for
    /// there; without a place, or with none there, of each of them (a stop that named
    /// the id is never lost). A breakpoint that stopped the program is bound, whatever
    /// the adapter said before: js-debug verifies one only in a `breakpoint` event
    /// after the stop it made.
    pub(crate) fn record_hits(&mut self, ids: &[i64], place: Option<&StopPlace>) {
        let mut hit: Vec<Holder> = Vec::new();
        for id in ids {
            let holders = self.holders(*id);
            let at = match place {
                Some(p) if holders.len() > 1 => {
                    self.at_place(&holders, Some(&p.file), Some(p.line))
                }
                _ => Vec::new(),
            };
            for holder in if at.is_empty() { holders } else { at } {
                if !hit.contains(&holder) {
                    hit.push(holder);
                }
            }
        }
        for holder in &hit {
            let Some((Some(actual), hits)) = self.actual_mut(holder) else {
                continue;
            };
            *hits += 1;
            if !actual.verified {
                actual.verified = true;
                actual.message = None;
            }
        }
    }

    /// The template of the tracepoint the adapter gave `id`, if it is one.
    pub(crate) fn template_of(&self, id: i64) -> Option<String> {
        self.sources
            .values()
            .flatten()
            .find(|r| r.actual.as_ref().and_then(|a| a.id) == Some(id))
            .and_then(|r| r.requested.log_message.clone())
            .filter(|m| crate::core::trace::collected(m).is_some())
    }
}
