//! Typed serde views of DAP request arguments, response bodies and event bodies.
//!
//! Names follow the DAP specification: a spec type keeps its PascalCase name
//! (`StackFrame`), request arguments are `<Command>Arguments`, response bodies
//! `<Command>ResponseBody` and event bodies `<Event>EventBody`. Fields are the spec's
//! camelCase names in snake_case.
//!
//! Everything here is meant to read what real adapters send, not only what the
//! spec promises:
//! - optional fields are `Option`s that are left out when `None`;
//! - required fields of anything an adapter sends have serde defaults, so a missing
//!   field (a list, a count, a flag) costs that field, not the whole message;
//! - unknown fields are ignored, never rejected ([`Capabilities`] and [`Module`]
//!   even keep them);
//! - string sets the spec leaves open (stop reasons, output categories, hints) are
//!   plain `String`s so values no one has heard of survive.
//!
//! `configurationDone`, `threads` and `loadedSources` take no arguments (send `{}`
//! or nothing), so they have no argument type here.

mod breakpoints;
mod capabilities;
mod data_breakpoints;
mod events;
mod exceptions;
mod execution;
mod inspection;
mod memory;
mod modules;
mod progress;
mod reverse;
mod source;
mod variables;

#[cfg(test)]
mod tests;

pub use breakpoints::*;
pub use capabilities::*;
pub use data_breakpoints::*;
pub use events::*;
pub use exceptions::*;
pub use execution::*;
pub use inspection::*;
pub use memory::*;
pub use modules::*;
pub use progress::*;
pub use reverse::*;
pub use source::*;
pub use variables::*;
