//! The pure session core: no tasks, no I/O. Inputs in, effects out.

mod adapter_events;
mod answer;
pub mod attach_target;
pub mod bootstrap;
mod breakpoint_commands;
pub mod breakpoints;
mod call_breakpoints;
pub mod call_patterns;
mod call_stops;
mod calls;
pub mod capability;
mod children;
pub mod command;
mod commands;
mod control;
mod crashed;
mod ending;
mod failed;
pub mod failure;
mod graceful;
pub(crate) mod handshake;
mod mapped_paths;
pub mod output;
mod pending;
mod phase;
mod pid_injection;
pub(crate) mod post_mortem;
mod program_session;
mod raw_requests;
mod relaunch;
mod releases;
mod responses;
mod run;
pub mod session;
pub mod session_event;
pub mod session_id;
pub mod snapshot;
pub mod start_plan;
mod starting;
pub mod state;
mod stop_cache;
mod target_gone;
pub mod trace;
mod trace_stops;

#[cfg(test)]
pub(crate) mod tests;
