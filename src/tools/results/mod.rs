//! Results as agents read them: their bounds, rendering, how a session ended, the sessions
//! listing, and redaction on the way out.

pub(super) mod bounds;
pub(super) mod core_stop;
pub(super) mod exit_signal;
pub(super) mod redaction;
pub(super) mod render;
pub(super) mod sessions;
