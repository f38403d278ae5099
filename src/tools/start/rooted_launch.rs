//! What a root (`--root`, [`PathPolicy::rooted`]) holds a launch to besides its
//! program, working directory and breakpoint files (`paths.rs`): every path the
//! launch hands an adapter or a test runner resolves inside the root, at the moment
//! the launch is made, or the launch is refused (kind `forbidden`).
//!
//! - `launch_args`, the adapter's own arguments, are taken only from a list of those
//!   known ([`ACCEPTED`]): settings that name no file as given, paths and the local
//!   sides of path mappings resolved inside the root. Anything else (an interpreter,
//!   its options, commands to run, a core file) is refused: an argument not on the
//!   list may name a file or code outside the root, and no list of dangerous ones is
//!   ever complete.
//! - a Python `module` runs only from the working folder, inside the root: elsewhere
//!   it would be an installed module, code from outside the root.
//! - a test takes no runner arguments (they name files, plugins and configuration);
//!   the test's own paths are the runner's (`TestRequest::within`).
//! - a restart runs the program again only while it still resolves inside the root:
//!   an agent's (`debug.restart`, [`restart_inside`]) and the runtime's own after an
//!   adapter crashed ([`replay_check`]), whose program and working folder are
//!   resolved again when the restart is due.

use std::path::Path;

use serde_json::{Map, Value};

use crate::tools::access::paths::PathPolicy;
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::spec::ToolError;

/// How an accepted launch argument is checked under a root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Accepted {
    /// A setting that names no file: taken as given.
    Setting,
    /// A path: resolved inside the root, and passed resolved.
    Path,
    /// Mappings between where the program was built and here (`sourceMap`,
    /// `pathMappings`, `substitutePath`): each local side resolved inside the root.
    Mappings,
    /// A Python module: found in the working folder, inside the root.
    Module,
}

/// The adapters' launch arguments a rooted launch takes, and how each is checked.
const ACCEPTED: &[(&str, Accepted)] = &[
    // Every adapter.
    ("program", Accepted::Path),
    ("cwd", Accepted::Path),
    ("stopOnEntry", Accepted::Setting),
    ("console", Accepted::Setting),
    ("timeout", Accepted::Setting),
    // debugpy.
    ("module", Accepted::Module),
    ("justMyCode", Accepted::Setting),
    ("showReturnValue", Accepted::Setting),
    ("redirectOutput", Accepted::Setting),
    ("subProcess", Accepted::Setting),
    ("django", Accepted::Setting),
    ("jinja", Accepted::Setting),
    ("gevent", Accepted::Setting),
    ("pathMappings", Accepted::Mappings),
    // lldb-dap and CodeLLDB.
    ("disableASLR", Accepted::Setting),
    ("disableSTDIO", Accepted::Setting),
    ("detachOnError", Accepted::Setting),
    ("enableAutoVariableSummaries", Accepted::Setting),
    ("enableSyntheticChildDebugging", Accepted::Setting),
    ("displayExtendedBacktrace", Accepted::Setting),
    ("sourcePath", Accepted::Path),
    ("debuggerRoot", Accepted::Path),
    ("sourceMap", Accepted::Mappings),
    ("sourceLanguages", Accepted::Setting),
    ("expressions", Accepted::Setting),
    ("relativePathBase", Accepted::Path),
    // dlv.
    ("mode", Accepted::Setting),
    ("showGlobalVariables", Accepted::Setting),
    ("showRegisters", Accepted::Setting),
    ("hideSystemGoroutines", Accepted::Setting),
    ("stackTraceDepth", Accepted::Setting),
    ("substitutePath", Accepted::Mappings),
    // js-debug.
    ("outputCapture", Accepted::Setting),
    ("skipFiles", Accepted::Setting),
    ("smartStep", Accepted::Setting),
    ("sourceMaps", Accepted::Setting),
    ("pauseForSourceMap", Accepted::Setting),
    ("showAsyncStacks", Accepted::Setting),
    ("autoAttachChildProcesses", Accepted::Setting),
    ("localRoot", Accepted::Path),
];

/// `given` launch arguments as a launch under `paths`' root takes them (paths
/// resolved), a module looked for in `cwd`; all of them when there is no root.
pub(crate) fn launch_args(
    paths: &PathPolicy,
    given: Map<String, Value>,
    cwd: Option<&Path>,
) -> Result<Map<String, Value>, ToolError> {
    if paths.root().is_none() {
        return Ok(given);
    }
    // A module is looked for where the program will run.
    let cwd = match given.get("cwd") {
        Some(dir) => Some(resolve(paths, dir, "launch_args `cwd`")?.into()),
        None => cwd.map(Path::to_path_buf),
    };
    let mut taken = Map::new();
    for (key, value) in given {
        let Some((_, accepted)) = ACCEPTED.iter().find(|(name, _)| *name == key) else {
            return Err(refused(
                paths,
                format!("launch_args `{key}` is not one this server takes under its root"),
                format!(
                    "it may name a file or code outside the root; pass only these: {}",
                    ACCEPTED
                        .iter()
                        .map(|(name, _)| *name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        };
        let what = format!("launch_args `{key}`");
        let value = match accepted {
            Accepted::Setting => value,
            Accepted::Path => Value::String(resolve(paths, &value, &what)?),
            Accepted::Mappings => mappings(paths, value, &what)?,
            Accepted::Module => {
                module(paths, value.as_str().unwrap_or_default(), cwd.as_deref())?;
                value
            }
        };
        taken.insert(key, value);
    }
    Ok(taken)
}

/// Refuse Python module `name` under a root unless it lies in the working folder
/// `cwd` (a `name.py` or a package folder), inside the root.
pub(crate) fn module(paths: &PathPolicy, name: &str, cwd: Option<&Path>) -> Result<(), ToolError> {
    let Some(root) = paths.root() else {
        return Ok(());
    };
    let dotted = !name.is_empty()
        && name.split('.').all(|part| {
            part.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && part.chars().all(|c| c.is_alphanumeric() || c == '_')
        });
    if !dotted {
        return Err(ToolError::invalid(
            format!("`module` {name:?} is not a Python module name"),
            "pass a dotted module name such as `app.main`",
        ));
    }
    let folder = cwd.unwrap_or(root);
    let top = name.split('.').next().unwrap_or(name);
    let found = [folder.join(format!("{top}.py")), folder.join(top)]
        .into_iter()
        .find(|candidate| candidate.exists());
    match found {
        Some(candidate) => paths
            .resolve(&candidate.to_string_lossy(), "module")
            .map(|_| ()),
        None => Err(refused(
            paths,
            format!(
                "`module` {name} is not in the working folder {} under the root: it would \
                 run an installed module, from outside the root",
                folder.display()
            ),
            format!(
                "run a module of the project (its `{top}.py` or `{top}/` in the working \
                 folder), or the program's file as `program`"
            ),
        )),
    }
}

/// Refuse runner arguments for a test under a root: they can name files, plugins and
/// configuration outside it.
pub(crate) fn test_args(paths: &PathPolicy, args: &[String]) -> Result<(), ToolError> {
    if paths.root().is_none() || args.is_empty() {
        return Ok(());
    }
    Err(refused(
        paths,
        format!(
            "a test under the root takes no runner arguments ({})",
            args.join(" ")
        ),
        "they can name files, plugins and configuration outside the root: put the runner's \
         options in the project's own configuration, under the root, and launch the test \
         without `args`",
    ))
}

/// Refuse a restart of `session` under a root once its program no longer resolves
/// inside it (a link put in its place since the launch).
pub(crate) async fn restart_inside(
    ctx: &Context,
    session: &crate::SessionHandle,
) -> Result<(), ToolError> {
    if ctx.paths.root().is_none() {
        return Ok(());
    }
    let snapshot = session.snapshot().await?;
    match (&snapshot.attached_to, &snapshot.program) {
        // A program dapvisor built from a source inside the root.
        (None, Some(program)) if crate::BuiltSource::is_kept(Path::new(program)) => Ok(()),
        (None, Some(program)) => ctx.paths.resolve(program, "program").map(|_| ()),
        _ => Ok(()),
    }
}

/// The check a launch under the root makes again before the runtime restarts it after
/// its adapter crashed: its program and working folder still resolve inside the root
/// (a link put in their place since the launch does not). `None` without a root.
pub(crate) fn replay_check(paths: &PathPolicy) -> Option<crate::ReplayCheck> {
    paths.root()?;
    let paths = paths.clone();
    Some(crate::ReplayCheck::new(move |plan| {
        let cwd = plan.arguments.get("cwd").and_then(Value::as_str);
        for (path, what) in [(plan.program.as_deref(), "program"), (cwd, "cwd")] {
            // A program dapvisor built from a source inside the root is taken.
            let built = |p: &str| what == "program" && crate::BuiltSource::is_kept(Path::new(p));
            if let Some(path) = path.filter(|p| !built(p)) {
                paths.resolve(path, what).map_err(|refused| refused.error)?;
            }
        }
        Ok(())
    }))
}

/// A path argument resolved inside the root.
fn resolve(paths: &PathPolicy, value: &Value, what: &str) -> Result<String, ToolError> {
    let Some(path) = value.as_str() else {
        return Err(ToolError::invalid(
            format!("{what} is not a path"),
            "pass a path as a string",
        ));
    };
    Ok(paths.resolve(path, what)?.to_string_lossy().into_owned())
}

/// Path mappings with each local side resolved inside the root: `{remote: local}`
/// (CodeLLDB), `[[remote, local]]` (lldb-dap), `[{localRoot, remoteRoot}]` (debugpy),
/// `[{from, to}]` (dlv, `from` local).
fn mappings(paths: &PathPolicy, value: Value, what: &str) -> Result<Value, ToolError> {
    let local = |v: &Value| resolve(paths, v, what).map(Value::String);
    match value {
        Value::Object(map) => map
            .into_iter()
            .map(|(remote, l)| Ok((remote, local(&l)?)))
            .collect::<Result<Map<_, _>, ToolError>>()
            .map(Value::Object),
        Value::Array(items) => items
            .into_iter()
            .map(|item| match item {
                Value::Array(mut pair) if pair.len() == 2 => {
                    pair[1] = local(&pair[1])?;
                    Ok(Value::Array(pair))
                }
                Value::Object(mut entry) => {
                    let key = ["localRoot", "from"]
                        .into_iter()
                        .find(|k| entry.contains_key(*k))
                        .ok_or_else(|| not_a_mapping(what))?;
                    let resolved = local(&entry[key])?;
                    entry.insert(key.to_string(), resolved);
                    Ok(Value::Object(entry))
                }
                _ => Err(not_a_mapping(what)),
            })
            .collect::<Result<Vec<_>, ToolError>>()
            .map(Value::Array),
        _ => Err(not_a_mapping(what)),
    }
}

fn not_a_mapping(what: &str) -> ToolError {
    ToolError::invalid(
        format!("{what} is not a list of path mappings this server reads"),
        "pass {\"remote\": \"local\"}, [[\"remote\", \"local\"]], [{\"localRoot\": ..., \
         \"remoteRoot\": ...}] or [{\"from\": local, \"to\": remote}]",
    )
}

/// A refusal under the root (500, `forbidden`).
fn refused(paths: &PathPolicy, error: String, hint: impl Into<String>) -> ToolError {
    let root = paths
        .root()
        .map(|r| r.display().to_string())
        .unwrap_or_default();
    ToolError::new(
        500,
        format!("{error}; this server only debugs under {root}"),
        hint,
    )
    .with_kind(crate::permission::FORBIDDEN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A root with a project in it and a file beside it; removed when dropped.
    struct Tree(std::path::PathBuf);

    impl Tree {
        fn new(name: &str) -> Self {
            let top = std::env::temp_dir().join(format!(
                "dapvisor-rooted-launch-{}-{name}",
                std::process::id()
            ));
            let _ = std::fs::remove_dir_all(&top);
            std::fs::create_dir_all(top.join("root/app")).unwrap();
            std::fs::create_dir_all(top.join("elsewhere")).unwrap();
            std::fs::write(top.join("root/app/__init__.py"), "").unwrap();
            std::fs::write(top.join("root/main.py"), "").unwrap();
            Self(std::fs::canonicalize(top).unwrap())
        }

        fn policy(&self) -> PathPolicy {
            PathPolicy::rooted(self.0.join("root")).unwrap()
        }
    }

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn map(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn launch_args_outside_the_list_are_refused_and_paths_resolve_inside_the_root() {
        let tree = Tree::new("args");
        let paths = tree.policy();
        let root = tree.0.join("root");
        let taken = launch_args(
            &paths,
            map(json!({ "justMyCode": false, "cwd": "app", "sourceMap": [["/build", "app"]] })),
            None,
        )
        .unwrap();
        assert_eq!(taken["justMyCode"], false);
        assert_eq!(taken["cwd"], root.join("app").display().to_string());
        assert_eq!(
            taken["sourceMap"][0][1],
            root.join("app").display().to_string()
        );
        for refused in [
            json!({ "python": "/usr/bin/python3" }),
            json!({ "runtimeExecutable": "node" }),
            json!({ "initCommands": ["platform shell id"] }),
            json!({ "coreFile": "core" }),
        ] {
            let err = launch_args(&paths, map(refused.clone()), None).unwrap_err();
            assert_eq!(
                (err.code, err.kind.as_str()),
                (500, "forbidden"),
                "{refused}"
            );
            assert!(err.hint.contains("justMyCode"), "{err}");
        }
        let outside = tree.0.join("elsewhere").display().to_string();
        for escape in [
            json!({ "program": outside }),
            json!({ "cwd": "../elsewhere" }),
            json!({ "pathMappings": [{ "localRoot": outside, "remoteRoot": "/app" }] }),
            json!({ "substitutePath": [{ "from": outside, "to": "/app" }] }),
            json!({ "sourceMap": { "/build": outside } }),
        ] {
            let err = launch_args(&paths, map(escape.clone()), None).unwrap_err();
            assert_eq!(err.kind, "forbidden", "{escape}: {err}");
        }
        // Without a root, nothing is looked at.
        let open = launch_args(
            &PathPolicy::unrestricted(),
            map(json!({ "python": "x" })),
            None,
        );
        assert_eq!(open.unwrap()["python"], "x");
    }

    #[test]
    fn a_module_runs_only_from_the_working_folder_inside_the_root() {
        let tree = Tree::new("module");
        let paths = tree.policy();
        let root = tree.0.join("root");
        module(&paths, "app", Some(&root)).unwrap();
        module(&paths, "main", None).unwrap();
        module(&paths, "app.sub", Some(&root)).unwrap();
        let installed = module(&paths, "http.server", Some(&root)).unwrap_err();
        assert_eq!(installed.kind, "forbidden", "{installed}");
        assert!(installed.error.contains("installed module"), "{installed}");
        assert_eq!(
            module(&paths, "../evil", Some(&root)).unwrap_err().code,
            400
        );
        std::os::unix::fs::symlink(tree.0.join("elsewhere"), root.join("linked")).unwrap();
        assert_eq!(
            module(&paths, "linked", Some(&root)).unwrap_err().kind,
            "forbidden"
        );
        module(&PathPolicy::unrestricted(), "http.server", None).unwrap();
    }

    #[test]
    fn a_rooted_test_takes_no_runner_arguments() {
        let tree = Tree::new("tests");
        let err = test_args(&tree.policy(), &["-p".into(), "evil".into()]).unwrap_err();
        assert_eq!(err.kind, "forbidden");
        assert!(err.error.contains("-p evil"), "{err}");
        test_args(&tree.policy(), &[]).unwrap();
        test_args(&PathPolicy::unrestricted(), &["-x".into()]).unwrap();
    }
}
