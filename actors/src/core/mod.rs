//! The pure session core: no tasks, no I/O. Inputs in, effects out.

mod adapter_events;
pub mod breakpoints;
pub mod command;
pub mod output;
pub mod session;
pub mod snapshot;
pub mod startup;
pub mod state;
