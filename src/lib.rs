//! dapvisor: lets AI agents debug programs through the Debug Adapter Protocol.
//!
//! This crate is the agent surface on top of the runtime in `dapvisor-actors`, which
//! it re-exports whole: start a [`Runtime`], [`Runtime::launch`] a program, and drive
//! the [`SessionHandle`] it returns.
//!
//! - [`tools`]: the tool catalogue (one tool per debugger action, JSON in and out).
//! - [`permission`]: the permission gate every tool call passes.
//! - [`redact`]: secrets hidden from everything handed to an agent.
//! - [`mcp`]: the catalogue served over MCP (`dapvisor mcp`).
//! - [`expose`]: a session shown to a person's editor as a DAP server (`debug.expose`).
//! - [`signals`]: events as agents read them, a signal name and a JSON payload.
//! - [`cli`]: the `dapvisor` command line.
#![warn(missing_docs)]

pub use dapvisor_actors::*;
pub use tools::ErrorCode;

pub mod cli;
pub mod expose;
pub mod mcp;
pub mod permission;
pub mod redact;
pub mod signals;
pub mod tools;
