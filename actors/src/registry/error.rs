//! Why the registry could not give an adapter, worded for an agent: each message names
//! the adapter and says what to install, pass or set next.

use std::path::PathBuf;

use thiserror::Error;

/// Errors from selecting or resolving an adapter.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// No adapter has this name, alias or language.
    #[error("{}", unknown_adapter(name, known))]
    UnknownAdapter {
        /// The name asked for.
        name: String,
        /// Names of the registered adapters.
        known: Vec<String>,
    },
    /// No registered adapter serves the program's extension.
    #[error("{}", no_adapter(program, extension.as_deref(), supported, adapters))]
    NoAdapterForProgram {
        /// The program.
        program: PathBuf,
        /// Its extension (lowercase, no dot), if it has one.
        extension: Option<String>,
        /// The extensions the registry serves, as shown to the agent (`.py`, ..., `none (native binaries)`).
        supported: Vec<String>,
        /// Names of the registered adapters, to choose one with `adapter`.
        adapters: Vec<String>,
    },
    /// No working executable was found for the adapter.
    #[error("no {adapter} debug adapter is installed here (tried: {}). {hint}", tried.join("; "))]
    NotInstalled {
        /// The adapter's name.
        adapter: String,
        /// What was tried, each with why it did not do.
        tried: Vec<String>,
        /// How to install it, or what to set.
        hint: String,
    },
    /// The adapter was found but its version cannot do what is needed.
    #[error(
        "the `{adapter}` debug adapter is too old: found version {found}, needs {required}. {hint}"
    )]
    VersionTooOld {
        /// The adapter's name.
        adapter: String,
        /// The version found.
        found: String,
        /// The version needed, such as `>= 14`.
        required: String,
        /// What to do instead.
        hint: String,
    },
    /// An attach named no adapter and gave nothing to choose one by.
    #[error(
        "attach needs a target: give `pid` to attach to a local process, or `port` (and `host`) \
         to attach to a running debug server; give `program` or `adapter` to choose the adapter"
    )]
    MissingAttachTarget,
    /// An attach by pid to a family that cannot attach to a running process.
    #[error("the `{adapter}` debug adapter cannot attach to a running process by pid: {instead}")]
    NoPidAttach {
        /// The adapter's name.
        adapter: String,
        /// Why not, and what to do instead.
        instead: String,
    },
}

impl RegistryError {
    /// The adapter that was chosen and could not be started (missing, too old); `None`
    /// where the caller's arguments chose none (an argument error).
    pub fn adapter(&self) -> Option<&str> {
        match self {
            RegistryError::NotInstalled { adapter, .. }
            | RegistryError::VersionTooOld { adapter, .. } => Some(adapter),
            RegistryError::UnknownAdapter { .. }
            | RegistryError::NoAdapterForProgram { .. }
            | RegistryError::MissingAttachTarget
            | RegistryError::NoPidAttach { .. } => None,
        }
    }
}

fn unknown_adapter(name: &str, known: &[String]) -> String {
    if known.is_empty() {
        return format!(
            "no debug adapter named `{name}`: none are registered; register an adapter definition first"
        );
    }
    format!(
        "no debug adapter named `{name}`; known adapters: {}. Pass one of these as `adapter` \
         (a language such as `python`, `rust` or `go` works too), or register a definition \
         named `{name}`",
        known.join(", ")
    )
}

fn no_adapter(
    program: &std::path::Path,
    extension: Option<&str>,
    supported: &[String],
    adapters: &[String],
) -> String {
    let what = match extension {
        Some(ext) => format!("extension `.{ext}`"),
        None => "no extension".to_string(),
    };
    let mut text = format!(
        "no debug adapter is registered for `{}` ({what}); supported extensions: {}",
        program.display(),
        if supported.is_empty() {
            "none".to_string()
        } else {
            supported.join(", ")
        }
    );
    if extension.is_none() {
        text.push_str(
            ". A folder can only be debugged as a Go package (holding go.mod or .go files)",
        );
    }
    if adapters.is_empty() {
        text.push_str(". Name the adapter with `adapter` to choose one yourself");
    } else {
        text.push_str(&format!(
            ". Name the adapter with `adapter` to choose one yourself: {}",
            adapters.join(", ")
        ));
    }
    text
}
