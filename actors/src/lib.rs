//! dapvisor's runtime: DAP sessions as supervised ractor actors.
#![warn(missing_docs)]

pub mod launch;
pub mod limits;
pub mod wire;
