//! What a run produced, read by cursor: the program's output and the rows its tracepoints
//! recorded.

pub(super) mod call_names;
pub(super) mod calls;
pub(super) mod read;
pub(super) mod result;
pub(super) mod tail;
pub(super) mod trace;
pub(super) mod trace_result;
