//! The parallel stress harness behind `examples/stress.rs`: concurrent real-adapter
//! sessions ([`real`]: debugpy, lldb-dap, dlv, js-debug or CodeLLDB), many sessions on
//! the in-process fake adapter ([`fake`]), and random adapter kills during both
//! ([`kill`]). Every request is accounted for in a [`ledger::Ledger`], which also
//! holds the per-operation timings.

pub mod args;
pub mod fake;
pub mod fake_memory;
pub mod fate;
pub mod kill;
pub mod ledger;
pub mod real;
pub mod real_script;
