//! Starting sessions and ending them: `debug.launch` (with a test, stdin, under a root),
//! `debug.attach`, and what a launch sets when the agent does not say.

pub(super) mod args;
pub(super) mod attach;
pub(super) mod core_launch;
pub(super) mod defaults;
pub(super) mod launch_effects;
pub(crate) mod path_mappings;
pub(super) mod rooted_launch;
pub(super) mod session;
pub(super) mod source_launch;
pub(super) mod stdin;
pub(super) mod test_launch;
