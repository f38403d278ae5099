//! The pure session core: no tasks, no I/O. Inputs in, effects out.

mod adapter_events;
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
pub mod replay_check;
mod responses;
mod run;
pub mod session;
pub mod session_id;
pub mod snapshot;
mod starting;
pub mod state;
mod stop_cache;
mod target_gone;
pub mod trace;
mod trace_stops;

#[cfg(test)]
pub(crate) mod session_tests;
#[cfg(test)]
mod session_tests_adapter_restart;
#[cfg(test)]
mod session_tests_adapter_restart_replay;
#[cfg(test)]
mod session_tests_arguments;
#[cfg(test)]
mod session_tests_bootstrap;
#[cfg(test)]
mod session_tests_breakpoint_features;
#[cfg(test)]
mod session_tests_breakpoints;
#[cfg(test)]
mod session_tests_children;
#[cfg(test)]
mod session_tests_codelldb;
#[cfg(test)]
mod session_tests_control;
#[cfg(test)]
mod session_tests_events;
#[cfg(test)]
mod session_tests_failed;
#[cfg(test)]
mod session_tests_function_breakpoints;
#[cfg(test)]
mod session_tests_launch_timeout;
#[cfg(test)]
mod session_tests_lifecycle;
#[cfg(test)]
mod session_tests_moves;
#[cfg(test)]
mod session_tests_post_mortem;
#[cfg(test)]
mod session_tests_raw_requests;
#[cfg(test)]
mod session_tests_relaunch;
#[cfg(test)]
mod session_tests_releases;
#[cfg(test)]
mod session_tests_run_end;
#[cfg(test)]
mod session_tests_startup;
#[cfg(test)]
mod session_tests_startup_failures;
#[cfg(test)]
mod session_tests_states;
#[cfg(test)]
mod session_tests_target_gone;
#[cfg(test)]
mod session_tests_terminate;
#[cfg(test)]
mod session_tests_trace;
