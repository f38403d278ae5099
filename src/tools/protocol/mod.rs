//! One tool per DAP request beyond the find-the-bug loop (the `all` profile).

pub(super) mod breakpoints;
pub(super) mod execution;
pub(super) mod inspect;
pub(super) mod memory;
pub(super) mod modify;
pub(super) mod restarts;
