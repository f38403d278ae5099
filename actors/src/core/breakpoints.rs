//! The session's breakpoint cache: the whole list per source file, function
//! breakpoints and exception filters, with the adapter's view of each.
//!
//! DAP's `setBreakpoints` replaces every breakpoint of a file, so adding or removing
//! one breakpoint means sending the file's full list again. The cache is that list.

mod adapter_ids;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::SessionError;
use crate::wire::types::{
    Breakpoint, ExceptionFilterOptions, ExceptionOptions, FunctionBreakpoint,
    SetBreakpointsArguments, SetExceptionBreakpointsArguments, SetFunctionBreakpointsArguments,
    Source, SourceBreakpoint,
};

pub(crate) use adapter_ids::StopPlace;

/// One cached breakpoint: what was asked for and what the adapter made of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceBreakpointRecord {
    /// What the agent asked for.
    pub requested: SourceBreakpoint,
    /// The adapter's answer (verified, actual line, id, message), once it has answered.
    pub actual: Option<Breakpoint>,
    /// How many stops named it (`hitBreakpointIds`) since it was set, in this run of
    /// the adapter.
    pub hits: u64,
}

/// One cached function breakpoint.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FunctionBreakpointRecord {
    /// What the agent asked for.
    pub requested: FunctionBreakpoint,
    /// The adapter's answer, once it has answered.
    pub actual: Option<Breakpoint>,
    /// How many stops named it since it was set, in this run of the adapter.
    pub hits: u64,
}

/// Every breakpoint of a session.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BreakpointCache {
    sources: BTreeMap<PathBuf, Vec<SourceBreakpointRecord>>,
    functions: Vec<FunctionBreakpointRecord>,
    exception_filters: Vec<String>,
    /// Filters with conditions, as last set with the filters.
    #[serde(skip_serializing_if = "Option::is_none")]
    exception_filter_options: Option<Vec<ExceptionFilterOptions>>,
    /// Options for selected exceptions, as last set with the filters.
    #[serde(skip_serializing_if = "Option::is_none")]
    exception_options: Option<Vec<ExceptionOptions>>,
    #[serde(skip)]
    limit: usize,
}

impl BreakpointCache {
    /// An empty cache that holds at most `limit` breakpoints and filters together.
    pub(crate) fn new(limit: usize) -> Self {
        Self {
            limit,
            ..Self::default()
        }
    }

    /// How many breakpoints and filters are cached.
    pub fn count(&self) -> usize {
        self.sources.values().map(Vec::len).sum::<usize>()
            + self.functions.len()
            + self.exception_filters.len()
            + self.exception_filter_options.as_ref().map_or(0, Vec::len)
            + self.exception_options.as_ref().map_or(0, Vec::len)
    }

    /// The limit in force.
    pub fn limit(&self) -> usize {
        self.limit
    }

    fn check_limit(&self, removed: usize, added: usize) -> Result<(), SessionError> {
        if self.count() - removed + added > self.limit {
            return Err(SessionError::LimitExceeded {
                what: "breakpoints in this session".into(),
                limit: self.limit,
            });
        }
        Ok(())
    }

    /// Replace the whole list of `file` (an empty list clears it).
    pub(crate) fn set_file(
        &mut self,
        file: &Path,
        breakpoints: Vec<SourceBreakpoint>,
    ) -> Result<(), SessionError> {
        let old = self.sources.get(file).map_or(0, Vec::len);
        self.check_limit(old, breakpoints.len())?;
        // A breakpoint set again where it was keeps the count of its hits.
        let hits_at = |requested: &SourceBreakpoint| {
            self.file(file)
                .iter()
                .find(|r| same_place(&r.requested, requested))
                .map_or(0, |r| r.hits)
        };
        let records = breakpoints
            .into_iter()
            .map(|requested| SourceBreakpointRecord {
                hits: hits_at(&requested),
                requested,
                actual: None,
            })
            .collect();
        self.sources.insert(file.to_path_buf(), records);
        Ok(())
    }

    /// Add one breakpoint to `file`, replacing one already at the same line and column.
    pub(crate) fn add(
        &mut self,
        file: &Path,
        breakpoint: SourceBreakpoint,
    ) -> Result<(), SessionError> {
        let list = self.sources.get(file);
        let replaces =
            list.is_some_and(|l| l.iter().any(|r| same_place(&r.requested, &breakpoint)));
        self.check_limit(usize::from(replaces), 1)?;
        let list = self.sources.entry(file.to_path_buf()).or_default();
        let record = SourceBreakpointRecord {
            requested: breakpoint,
            actual: None,
            hits: 0,
        };
        match list
            .iter_mut()
            .find(|r| same_place(&r.requested, &record.requested))
        {
            Some(existing) => *existing = record,
            None => list.push(record),
        }
        Ok(())
    }

    /// Remove one breakpoint of `file`: the one asked for at `line`, or else the one
    /// the adapter moved to `line` (a breakpoint asked for on a blank line is known
    /// by where it landed). A breakpoint that only landed on `line` never goes in
    /// place of one asked for there. False if neither is found.
    pub(crate) fn remove(&mut self, file: &Path, line: i64) -> bool {
        let Some(list) = self.sources.get_mut(file) else {
            return false;
        };
        let found = list
            .iter()
            .position(|r| r.requested.line == line)
            .or_else(|| list.iter().position(|r| r.actual_line() == Some(line)));
        match found {
            Some(index) => {
                list.remove(index);
                true
            }
            None => false,
        }
    }

    /// The DAP arguments that set `file`'s whole cached list.
    pub(crate) fn arguments_for(&self, file: &Path) -> SetBreakpointsArguments {
        let list = self.sources.get(file).map(Vec::as_slice).unwrap_or(&[]);
        SetBreakpointsArguments {
            source: Source {
                path: Some(file.to_string_lossy().into_owned()),
                ..Source::default()
            },
            breakpoints: Some(list.iter().map(|r| r.requested.clone()).collect()),
            ..SetBreakpointsArguments::default()
        }
    }

    /// Files with cached breakpoints (including files whose list was cleared and the
    /// adapter has not yet answered the clearing, so it hears of it too).
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.sources.keys().map(PathBuf::as_path)
    }

    /// The breakpoints a request for `file` sends now, in order (as
    /// [`Self::arguments_for`] lists them): keep them to pair the answer with.
    pub(crate) fn requested(&self, file: &Path) -> Vec<SourceBreakpoint> {
        self.file(file)
            .iter()
            .map(|r| r.requested.clone())
            .collect()
    }

    /// Record the adapter's answer to a `setBreakpoints` for `file` that listed `sent`
    /// (the answer is in that order). Each verdict goes to the cached breakpoint it is
    /// for, the one asked for exactly so, even if the list changed while the request
    /// was out (another edit of the file, answered later, has its own list): a
    /// breakpoint no longer cached gets nothing, one added since waits for its own
    /// answer.
    pub(crate) fn record_file_result(
        &mut self,
        file: &Path,
        sent: &[SourceBreakpoint],
        actual: Vec<Breakpoint>,
    ) {
        let Some(list) = self.sources.get_mut(file) else {
            return;
        };
        if sent.is_empty() && list.is_empty() {
            // The adapter has heard of the clearing: nothing of the file is left to
            // send, to it or to a restarted adapter (issue 27, item 6).
            self.sources.remove(file);
            return;
        }
        let mut taken = vec![false; list.len()];
        for (requested, bp) in sent.iter().zip(actual) {
            let found = list
                .iter()
                .enumerate()
                .position(|(i, r)| !taken[i] && r.requested == *requested);
            if let Some(i) = found {
                taken[i] = true;
                list[i].actual = Some(bp);
            }
        }
    }

    /// The cached breakpoints of `file`.
    pub fn file(&self, file: &Path) -> &[SourceBreakpointRecord] {
        self.sources.get(file).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Every file's cached breakpoints.
    pub fn sources(&self) -> &BTreeMap<PathBuf, Vec<SourceBreakpointRecord>> {
        &self.sources
    }

    /// Replace the function breakpoints.
    pub(crate) fn set_functions(
        &mut self,
        list: Vec<FunctionBreakpoint>,
    ) -> Result<(), SessionError> {
        self.check_limit(self.functions.len(), list.len())?;
        self.functions = list
            .into_iter()
            .map(|requested| FunctionBreakpointRecord {
                requested,
                actual: None,
                hits: 0,
            })
            .collect();
        Ok(())
    }

    /// Add a function breakpoint, or replace the one on the same function.
    pub(crate) fn add_function(&mut self, bp: FunctionBreakpoint) -> Result<(), SessionError> {
        let record = FunctionBreakpointRecord {
            requested: bp,
            actual: None,
            hits: 0,
        };
        match self
            .functions
            .iter_mut()
            .find(|r| r.requested.name == record.requested.name)
        {
            Some(existing) => *existing = record,
            None => {
                self.check_limit(0, 1)?;
                self.functions.push(record);
            }
        }
        Ok(())
    }

    /// Remove the function breakpoint on `name`; whether there was one.
    pub(crate) fn remove_function(&mut self, name: &str) -> bool {
        let before = self.functions.len();
        self.functions.retain(|r| r.requested.name != name);
        self.functions.len() != before
    }

    /// The cached function breakpoints.
    pub fn functions(&self) -> &[FunctionBreakpointRecord] {
        &self.functions
    }

    /// The DAP arguments that set every function breakpoint.
    pub(crate) fn function_arguments(&self) -> SetFunctionBreakpointsArguments {
        SetFunctionBreakpointsArguments {
            breakpoints: self.functions.iter().map(|r| r.requested.clone()).collect(),
        }
    }

    /// The function breakpoints' names, in the order a request lists them.
    pub fn function_names(&self) -> Vec<String> {
        self.functions
            .iter()
            .map(|r| r.requested.name.clone())
            .collect()
    }

    /// Record the adapter's answer for the function breakpoints a request listed as
    /// `sent` (the answer is in that order): each verdict goes to the function it is
    /// for, by name, even if the list changed while the request was out.
    pub(crate) fn record_function_result(&mut self, sent: &[String], actual: Vec<Breakpoint>) {
        for (name, bp) in sent.iter().zip(actual) {
            if let Some(record) = self
                .functions
                .iter_mut()
                .find(|r| r.requested.name == *name)
            {
                record.actual = Some(bp);
            }
        }
    }

    /// Replace the exception filters (and drop any filter or exception options, as a
    /// `setExceptionBreakpoints` without them does).
    pub(crate) fn set_exception_filters(
        &mut self,
        filters: Vec<String>,
    ) -> Result<(), SessionError> {
        self.set_exceptions(SetExceptionBreakpointsArguments {
            filters,
            ..SetExceptionBreakpointsArguments::default()
        })
    }

    /// Replace the exception settings: filters, filters with conditions, and options
    /// for selected exceptions. A restarted adapter gets them all again.
    pub(crate) fn set_exceptions(
        &mut self,
        settings: SetExceptionBreakpointsArguments,
    ) -> Result<(), SessionError> {
        let before = self.exception_filters.len()
            + self.exception_filter_options.as_ref().map_or(0, Vec::len)
            + self.exception_options.as_ref().map_or(0, Vec::len);
        let after = settings.filters.len()
            + settings.filter_options.as_ref().map_or(0, Vec::len)
            + settings.exception_options.as_ref().map_or(0, Vec::len);
        self.check_limit(before, after)?;
        self.exception_filters = settings.filters;
        self.exception_filter_options = settings.filter_options.filter(|o| !o.is_empty());
        self.exception_options = settings.exception_options.filter(|o| !o.is_empty());
        Ok(())
    }

    /// The cached exception filters.
    pub fn exception_filters(&self) -> &[String] {
        &self.exception_filters
    }

    /// The DAP arguments that set the exception filters and options.
    pub(crate) fn exception_arguments(&self) -> SetExceptionBreakpointsArguments {
        SetExceptionBreakpointsArguments {
            filters: self.exception_filters.clone(),
            filter_options: self.exception_filter_options.clone(),
            exception_options: self.exception_options.clone(),
        }
    }

    /// Whether any exception setting is cached (filters or options).
    pub fn has_exception_settings(&self) -> bool {
        !self.exception_filters.is_empty()
            || self.exception_filter_options.is_some()
            || self.exception_options.is_some()
    }

    /// Count a hit of the tracepoint asked for at `file:line` (a log point: no stop
    /// names it).
    pub(crate) fn record_trace_hit(&mut self, file: &Path, line: i64) {
        if let Some(r) = self
            .sources
            .get_mut(file)
            .and_then(|list| list.iter_mut().find(|r| r.requested.line == line))
        {
            r.hits += 1;
        }
    }

    /// Forget the adapter's answers and the hits (a new adapter will answer afresh,
    /// in a new run) but keep what was asked for.
    pub(crate) fn clear_results(&mut self) {
        for r in self.sources.values_mut().flatten() {
            r.actual = None;
            r.hits = 0;
        }
        for r in &mut self.functions {
            r.actual = None;
            r.hits = 0;
        }
    }
}

impl SourceBreakpointRecord {
    /// The line the adapter placed it on, if it said.
    pub fn actual_line(&self) -> Option<i64> {
        self.actual.as_ref().and_then(|a| a.line)
    }
}

fn same_place(a: &SourceBreakpoint, b: &SourceBreakpoint) -> bool {
    a.line == b.line && a.column == b.column
}

#[cfg(test)]
#[path = "tests/breakpoints_unit.rs"]
mod tests;
