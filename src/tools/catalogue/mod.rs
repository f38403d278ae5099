//! How a tool is defined, described and served: its definition, schema, profile, and the
//! context its handler works with.

pub(super) mod cli_names;
pub(super) mod context;
pub(super) mod def;
pub(super) mod describe;
pub(super) mod error_code;
pub(super) mod names;
pub(super) mod operations;
pub(super) mod profile;
pub(super) mod schema;
pub(super) mod spec;
