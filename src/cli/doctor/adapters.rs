//! Each adapter: found (where, which version), and whether it starts and answers
//! `initialize` within the deadline. An adapter you need that is missing or broken
//! fails; one you do not (gdb, unproven, unless named) only warns.

use std::time::Duration;

use futures::future::join_all;
use serde_json::Value;

use super::report::Check;
use crate::registry::{
    adapter_version, dapvisor_home, AdapterDef, AdapterRegistry, Environment, RegistryError,
    ResolvedAdapter, TransportKind,
};

/// What was found of one adapter.
#[derive(Debug, Clone, PartialEq)]
pub struct AdapterReading {
    /// Its name.
    pub name: String,
    /// Whether the main job needs it (named with `--adapter`, or by default).
    pub needed: bool,
    /// What was found.
    pub found: Found,
}

/// An adapter found and tried, or why it was not found.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    /// No working executable.
    Missing {
        /// What was tried, and why each did not do.
        problem: String,
        /// How to install it.
        install: String,
    },
    /// Found, and started.
    Installed {
        /// Where: its executable (js-debug's server script; a TCP adapter's address).
        location: String,
        /// The command it is started with, to run by hand; `None` for a debug server
        /// dapvisor connects to, which it does not start.
        command: Option<String>,
        /// Its version, where it tells (or dapvisor's install record says).
        version: Option<String>,
        /// Its `initialize` answer's capabilities, or why there is none.
        answer: Result<Value, String>,
        /// How to install it again.
        install: String,
    },
}

/// How one adapter stands.
pub fn check(r: &AdapterReading) -> Check {
    let name = format!("adapter {}", r.name);
    let optional = if r.needed {
        ""
    } else {
        " (not needed unless named with --adapter)"
    };
    let checked = match &r.found {
        Found::Missing { problem, install } => Check::fail_if(
            r.needed,
            name,
            format!("{problem}{optional}"),
            install.clone(),
        ),
        Found::Installed {
            location,
            version,
            answer: Ok(capabilities),
            ..
        } => {
            let supported = capabilities.as_object().map_or(0, |caps| {
                caps.values().filter(|v| *v != &Value::Bool(false)).count()
            });
            Check::ok(
                name,
                format!(
                    "{} at {location}; answers initialize ({supported} capabilities)",
                    version.as_deref().unwrap_or("version unknown")
                ),
            )
        }
        Found::Installed {
            location,
            command,
            answer: Err(why),
            install,
            ..
        } => Check::fail_if(
            r.needed,
            name,
            format!("found at {location}, but it did not answer initialize: {why}{optional}"),
            match command {
                Some(command) => format!(
                    "run `{command}` by hand to see what it says; to install it again: {install}"
                ),
                None => format!(
                    "start the debug server at {location}, or change `host` and `port` in \
                     the adapter's `[adapters.{}]` table",
                    r.name
                ),
            },
        ),
    };
    let checked = checked
        .fact("adapter", r.name.as_str())
        .fact("needed", r.needed);
    match &r.found {
        Found::Missing { .. } => checked.fact("installed", false),
        Found::Installed {
            location,
            version,
            answer,
            ..
        } => checked
            .fact("installed", true)
            .fact("path", location.as_str())
            .fact("version", version.clone())
            .fact("answers_initialize", answer.is_ok()),
    }
}

/// What `err` says is missing, and how to install it.
pub fn missing(def: &AdapterDef, err: RegistryError) -> Found {
    let (problem, install) = match err {
        RegistryError::NotInstalled { tried, hint, .. } => {
            (format!("not found (tried: {})", tried.join("; ")), hint)
        }
        RegistryError::VersionTooOld {
            found,
            required,
            hint,
            ..
        } => (format!("too old: version {found}, needs {required}"), hint),
        other => (other.to_string(), def.install_hint.clone()),
    };
    Found::Missing { problem, install }
}

/// Find and try each of `chosen` (an adapter, and whether the main job needs it), at
/// once. Each start and answer is bounded by `timeout`, and so is each probe that
/// finds an executable or asks its version.
pub async fn read_all(
    registry: &AdapterRegistry,
    chosen: Vec<(AdapterDef, bool)>,
    timeout: Duration,
) -> Vec<AdapterReading> {
    let tries = chosen.into_iter().map(|(def, needed)| {
        let registry = registry.clone();
        async move {
            AdapterReading {
                name: def.name.clone(),
                needed,
                found: read_one(registry, def, timeout).await,
            }
        }
    });
    join_all(tries).await
}

async fn read_one(registry: AdapterRegistry, def: AdapterDef, timeout: Duration) -> Found {
    // Resolving and asking the version run interpreters: off the async threads.
    let probe_def = def.clone();
    let probed = tokio::task::spawn_blocking(move || {
        let env = Environment {
            probe_timeout: timeout,
            ..Environment::from_process()
        };
        let resolved = registry.resolve_in(&probe_def, &env)?;
        let recorded =
            crate::cli::adapters::dapvisor_installed(&dapvisor_home(), &probe_def.name, &resolved)
                .map(|record| record.version);
        let version = recorded.or_else(|| adapter_version(&resolved, timeout));
        Ok::<_, RegistryError>((resolved, version))
    })
    .await;
    let (resolved, version) = match probed {
        Ok(Ok(found)) => found,
        Ok(Err(err)) => return missing(&def, err),
        Err(panicked) => {
            return Found::Missing {
                problem: format!("looking for it failed: {panicked}"),
                install: def.install_hint.clone(),
            }
        }
    };
    let (location, command) = describe(&resolved);
    let answer = crate::check_initialize(resolved, timeout).await;
    Found::Installed {
        location,
        command,
        version,
        answer,
        install: def.install_hint.clone(),
    }
}

/// Where a resolved adapter is, and the command that starts it (none for a debug
/// server that runs already).
fn describe(resolved: &ResolvedAdapter) -> (String, Option<String>) {
    if let TransportKind::TcpConnect { host, port } = &resolved.transport {
        return (format!("{host}:{port}"), None);
    }
    let program = resolved.program.display().to_string();
    // js-debug runs as node with its server script first.
    let location = match resolved.flavor {
        crate::registry::AdapterFlavor::JsDebug => {
            resolved.args.first().cloned().unwrap_or(program.clone())
        }
        _ => program.clone(),
    };
    let command = std::iter::once(program)
        .chain(resolved.args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    (location, Some(command))
}

#[cfg(test)]
mod tests {
    use super::super::report::Status;
    use super::*;
    use serde_json::json;

    fn installed(answer: Result<Value, String>) -> Found {
        Found::Installed {
            location: "/usr/bin/lldb-dap-22".into(),
            command: Some("/usr/bin/lldb-dap-22".into()),
            version: Some("22.1.8".into()),
            answer,
            install: "apt-get install lldb-22".into(),
        }
    }

    fn reading(needed: bool, found: Found) -> AdapterReading {
        AdapterReading {
            name: "lldb-dap".into(),
            needed,
            found,
        }
    }

    #[test]
    fn an_adapter_that_answers_is_fine_with_its_version_and_place() {
        let caps = json!({"supportsConfigurationDoneRequest": true, "supportsGotoTargetsRequest": false,
                          "exceptionBreakpointFilters": []});
        let fine = check(&reading(true, installed(Ok(caps))));
        assert_eq!(fine.status, Status::Ok);
        assert_eq!(
            fine.detail,
            "22.1.8 at /usr/bin/lldb-dap-22; answers initialize (2 capabilities)"
        );
        assert_eq!(fine.facts["version"], "22.1.8");
        assert_eq!(fine.facts["answers_initialize"], true);
    }

    #[test]
    fn a_missing_or_silent_adapter_fails_when_needed_and_warns_when_not() {
        let gone = Found::Missing {
            problem: "not found (tried: `lldb-dap-<version>` (none on PATH))".into(),
            install: "apt-get install lldb-22".into(),
        };
        let failed = check(&reading(true, gone.clone()));
        assert_eq!(failed.status, Status::Fail);
        assert_eq!(failed.fix.as_deref(), Some("apt-get install lldb-22"));
        assert_eq!(failed.facts["installed"], false);
        let optional = check(&reading(false, gone));
        assert_eq!(optional.status, Status::Warn);
        assert!(optional
            .detail
            .ends_with("(not needed unless named with --adapter)"));

        let silent = check(&reading(
            true,
            installed(Err("no answer within 20s".into())),
        ));
        assert_eq!(silent.status, Status::Fail);
        assert!(silent
            .detail
            .contains("did not answer initialize: no answer within 20s"));
        let fix = silent.fix.unwrap();
        assert!(
            fix.starts_with("run `/usr/bin/lldb-dap-22` by hand"),
            "{fix}"
        );
        assert!(fix.ends_with("apt-get install lldb-22"), "{fix}");

        let server = Found::Installed {
            location: "127.0.0.1:5678".into(),
            command: None,
            version: None,
            answer: Err("Connection refused".into()),
            install: String::new(),
        };
        let refused = check(&reading(true, server));
        assert!(refused
            .fix
            .unwrap()
            .starts_with("start the debug server at 127.0.0.1:5678"));
    }

    #[test]
    fn registry_errors_become_the_problem_and_its_install_hint() {
        let def = AdapterRegistry::builtin().get("gdb").unwrap().clone();
        let old = RegistryError::VersionTooOld {
            adapter: "gdb".into(),
            found: "13.1".into(),
            required: ">= 14".into(),
            hint: "install gdb 14".into(),
        };
        let Found::Missing { problem, install } = missing(&def, old) else {
            panic!("missing")
        };
        assert_eq!(problem, "too old: version 13.1, needs >= 14");
        assert_eq!(install, "install gdb 14");
    }
}
