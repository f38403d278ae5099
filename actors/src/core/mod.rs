//! The pure session core: no tasks, no I/O. Inputs in, effects out.

mod adapter_events;
pub mod breakpoints;
pub mod capability;
mod children;
pub mod command;
pub mod output;
mod restart;
pub mod session;
pub mod snapshot;
pub mod startup;
pub mod state;

#[cfg(test)]
mod session_tests;
#[cfg(test)]
mod session_tests_breakpoints;
#[cfg(test)]
mod session_tests_control;
#[cfg(test)]
mod session_tests_failed;
#[cfg(test)]
mod session_tests_lifecycle;
#[cfg(test)]
mod session_tests_restart;
#[cfg(test)]
mod session_tests_startup;
