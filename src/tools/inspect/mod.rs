//! Inspecting a stopped program: threads, stacks, scopes, variables, locals, evaluation and
//! watches, and the ids an agent passes back.

pub(super) mod evaluate;
pub(super) mod ids;
pub(super) mod locals;
pub(super) mod results;
pub(super) mod stack;
pub(super) mod watches;
