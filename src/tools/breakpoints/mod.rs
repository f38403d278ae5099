//! Breakpoints: the tools that set them, those a launch sets, by line or by statement, where
//! they bound, and the report of those that never fired.

pub(super) mod at_start;
pub(super) mod bound_lines;
pub(super) mod remote_file;
pub(super) mod report;
pub(super) mod set;
pub(super) mod statement;
pub(super) mod statement_marks;
