//! CodeLLDB (C, C++, Rust, on LLDB).
//! - CodeLLDB 1.11 reports a stop made by an exception filter (`cpp_throw`,
//!   `rust_panic`) as a `breakpoint` stop that hits a breakpoint it set for the
//!   filter, which is none of the session's: the core reads it as an exception stop.
//! - `rust_panic` stops a Rust program where it panics, so it is set by default.

use super::Quirks;

pub(super) const QUIRKS: Quirks = Quirks {
    exception_stops_look_like_breakpoints: true,
    uncaught_exception_filters: &["rust_panic"],
    ..Quirks::NONE
};
