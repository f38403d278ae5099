//! dapvisor: lets AI agents debug programs through the Debug Adapter Protocol.
//!
//! This crate is the agent surface on top of the runtime in `dapvisor-actors`, which
//! it re-exports whole: start a [`Runtime`], [`Runtime::launch`] a program, and drive
//! the [`SessionHandle`] it returns.
#![warn(missing_docs)]

pub use dapvisor_actors::*;
