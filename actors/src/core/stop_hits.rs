//! The breakpoints a stop hit, counted in the cache. A stop names them by the ids the
//! adapter gave them (`hitBreakpointIds`); where one of those ids is shared by several
//! breakpoints (js-debug v1.112 may give a breakpoint added to a file the id of another
//! one there), the session reads the stop's top frame first, and the hit goes to the
//! breakpoint at that file and line.

use std::path::PathBuf;

use serde_json::json;

use crate::core::breakpoints::StopPlace;
use crate::core::pending::Pending;
use crate::core::session::SessionCore;
use crate::error::TransportError;
use crate::wire::types::StackTraceResponseBody;
use crate::wire::{DapCommand, Response};

impl SessionCore {
    /// Count the hits of a stop on `thread` naming `ids`: at once, or, for an id
    /// several breakpoints share, once the stop's top frame is read.
    pub(super) fn count_stop_hits(&mut self, thread: Option<i64>, ids: &[i64]) {
        match thread.filter(|_| self.breakpoints.shares_an_id(ids)) {
            Some(thread) => {
                let arguments = json!({ "threadId": thread, "startFrame": 0, "levels": 1 });
                self.send(
                    DapCommand::StackTrace,
                    Some(arguments),
                    None,
                    Pending::StopHits(ids.to_vec()),
                );
            }
            None => self.breakpoints.record_hits(ids, None),
        }
    }

    /// The answer to the read of a stop's top frame: the hits are counted at its
    /// place (unread, on each breakpoint of a shared id, as before).
    pub(super) fn on_stop_place(&mut self, ids: &[i64], result: Result<Response, TransportError>) {
        let place = result
            .ok()
            .filter(|r| r.success)
            .and_then(|r| r.parse_body::<StackTraceResponseBody>().ok())
            .and_then(|body| {
                let top = body.stack_frames.into_iter().next()?;
                let file = PathBuf::from(top.source?.path?);
                Some(StopPlace {
                    file,
                    line: top.line,
                })
            });
        if place.is_none() {
            tracing::debug!(?ids, "no top frame to place a stop's shared breakpoint id");
        }
        self.breakpoints.record_hits(ids, place.as_ref());
    }
}
