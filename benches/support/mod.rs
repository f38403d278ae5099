//! Code shared by the benchmarks (`benches/*.rs`) and the stress harness
//! (`examples/stress.rs`): timing statistics, memory and process readings, DAP sample
//! messages, a runtime on the in-process fake adapter, and a minimal direct DAP client
//! to compare dapvisor with.
#![allow(dead_code)]

pub mod allocations;
pub mod counters;
pub mod direct_client;
pub mod fake;
pub mod first_stop;
pub mod memory;
pub mod messages;
pub mod procs;
pub mod python;
pub mod stats;
pub mod token;
