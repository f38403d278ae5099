//! The transport: one actor per adapter process or socket, and the tasks that move
//! its bytes.
//!
//! - `actor.rs`: the actor (start-up by transport kind, message dispatch);
//! - `messages.rs`: its arguments, limits, messages and output;
//! - `requests.rs`: the requests in flight, numbered and matched (pure);
//! - `state.rs`: its state, and requests sent, answered and timed out;
//! - `reverse.rs`: answers to the adapter's reverse requests;
//! - `terminal.rs`: how a `runInTerminal` command runs: its stdin, its end;
//! - `child_slots.rs`: the child sessions a session tree may have at once;
//! - `ending.rs`: how it ends, and the exit report;
//! - `io.rs`: the tasks that spawn, read, write, connect and watch;
//! - `io_tasks.rs`: the tasks that hold the stream, ended with the transport;
//! - `listen.rs`: finding the port of an adapter that picks its own;
//! - `connect_back.rs`, `loopback_peer.rs`: a port of ours for an adapter that dials
//!   back, and telling its connection from another user's;
//! - `malformed.rs`: frames that are JSON but not DAP, counted to a bound;
//! - `output_order.rs`: dlv's debuggee output kept in order with its events;
//! - `output_tail.rs`: the end of the adapter's stderr (and of a TCP adapter's stdout);
//! - `utf8_chunks.rs`: text from chunked bytes, characters split at a chunk edge whole;
//! - `pidfd.rs`, `procfs.rs`: watching and signalling processes, reading `/proc`;
//! - `process.rs`: the adapter's process group, and cleanup that holds through `Drop`;
//! - `sweeps.rs`: the groups not yet swept, waited for before the binary exits;
//! - `tagged.rs`: processes by the tag in their environment, those caught mid-`execve` too;
//! - `parent_death.rs`: adapters killed by the kernel if dapvisor itself is killed.

pub(crate) mod actor;
pub(crate) mod child_slots;
pub(crate) mod connect_back;
pub(crate) mod ending;
pub(crate) mod in_process;
#[cfg(any(test, feature = "testing"))]
pub(crate) mod injected_fault;
pub(crate) mod io;
pub(crate) mod io_tasks;
pub(crate) mod listen;
pub(crate) mod loopback_peer;
pub(crate) mod malformed;
pub(crate) mod messages;
pub(crate) mod output_order;
pub(crate) mod output_tail;
pub(crate) mod parent_death;
pub(crate) mod pidfd;
pub(crate) mod process;
pub(crate) mod procfs;
pub(crate) mod requests;
pub(crate) mod reverse;
#[cfg(test)]
mod scans_tests;
pub(crate) mod state;
pub(crate) mod sweeps;
pub(crate) mod tagged;
pub(crate) mod terminal;
pub(crate) mod traffic;
pub(crate) mod utf8_chunks;

pub use actor::TransportActor;
pub use child_slots::{ChildSlot, ChildSlots};
pub use in_process::{InProcessAdapters, InProcessConnect};
pub use messages::{FrameCredit, TransportArgs, TransportConfig, TransportMsg, TransportOutput};
pub use sweeps::{all_process_groups_swept, unswept_process_groups};
