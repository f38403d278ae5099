//! The runtime's modules depend only downwards. The main chain is wire, then the
//! session core, then the transport, then the session, then the supervisor, then the
//! runtime; every module beside it (limits, registry, quirks, errors, events, config,
//! ...) has its rank too, so that no two modules name each other and the picture a
//! newcomer draws from the folder names is the code's. A module's code (comments and
//! its test module aside) names no module ranked above it.
//!
//! An arrow is a path to the module (`crate::supervisor::...`) or to an item the crate
//! root re-exports from it (`crate::Runtime`, `crate::{Runtime, ...}`). Test-only files
//! (`*_tests.rs`, `test_support.rs`, anything in a `tests` folder) and a file's closing
//! `#[cfg(test)] mod tests` may drive the crate from its root, as its users do.

use std::path::{Path, PathBuf};

/// Every module, lowest first: a folder (or file) under `actors/src`, and its module
/// name. Between the main chain's layers sit what they build on: the session core on
/// the shared vocabulary (states and operations, launch specs), the adapter families'
/// quirks and the registry, errors; the transport on the event hub; the supervisor on
/// the runtime's configuration.
const LAYERS: &[&str] = &[
    "limits",
    "wire",
    "clean_start",
    "path_map",
    "core_signal",
    "host_probe",
    "session_state",
    "launch",
    "quirks",
    "registry",
    "test_run",
    "error",
    "core",
    "events",
    "source_build",
    "transport",
    "adapter_check",
    "session",
    "config",
    "supervisor",
    "runtime",
    "testing",
];

/// Every `.rs` file of layer `name` (its folder, or `name.rs`).
fn files_of(name: &str) -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let single = src.join(format!("{name}.rs"));
    if single.is_file() {
        return vec![single];
    }
    let mut files = Vec::new();
    let mut folders = vec![src.join(name)];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap_or_else(|e| panic!("{folder:?}: {e}")) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    assert!(!files.is_empty(), "no files for layer {name}");
    files
}

/// Whether `path` is compiled only for the crate's tests.
fn test_only(path: &Path) -> bool {
    let name = path.file_name().unwrap().to_string_lossy();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let in_tests_folder = path
        .strip_prefix(&src)
        .is_ok_and(|inside| inside.components().any(|c| c.as_os_str() == "tests"));
    in_tests_folder
        || name.ends_with("_tests.rs")
        || name == "tests.rs"
        || name == "test_support.rs"
}

/// Whether `text` names `word` at `at`, as a whole path segment: `crate::session`
/// but not `crate::session_id`.
fn whole_word_at(text: &str, at: usize, word: &str) -> bool {
    let next = text[at + word.len()..].chars().next();
    !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// The items the crate root (`lib.rs`) re-exports, each with the module it comes
/// from: `pub use runtime::Runtime;` gives `("Runtime", "runtime")`.
fn root_exports(lib: &str) -> Vec<(String, String)> {
    let code: String = lib
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = Vec::new();
    for statement in code.split(';') {
        let Some((_, path)) = statement.split_once("pub use ") else {
            continue;
        };
        let path = path.trim();
        let Some((module, rest)) = path.split_once("::") else {
            continue;
        };
        // The names it brings in: the last segment, or each name of a `{...}` list,
        // renamed where `as` says so.
        let names = match rest.split_once('{') {
            Some((_, list)) => list
                .trim_end_matches('}')
                .split(',')
                .map(str::to_string)
                .collect(),
            None => vec![rest.rsplit("::").next().unwrap_or(rest).to_string()],
        };
        for name in names {
            let name = name
                .rsplit(" as ")
                .next()
                .unwrap_or(&name)
                .trim()
                .to_string();
            if !name.is_empty() {
                out.push((name, module.trim().to_string()));
            }
        }
    }
    out
}

/// The lines of `path` that name `crate::<above>`, or an item the root re-exports
/// from it (`exports`, see [`root_exports`]), comments left out.
fn arrows_up(path: &Path, above: &str, exports: &[(String, String)]) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let needle = format!("crate::{above}");
    let from_above: Vec<&str> = exports
        .iter()
        .filter(|(_, module)| module == above)
        .map(|(name, _)| name.as_str())
        .collect();
    // A grouped root import may run over several lines: `crate::{` up to its `}`.
    let mut in_group = false;
    let mut found = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (n, line) in lines.iter().enumerate() {
        if line.trim() == "#[cfg(test)]"
            && lines
                .get(n + 1)
                .is_some_and(|next| next.trim_start().starts_with("mod tests {"))
        {
            break; // the file's own tests
        }
        if line.trim_start().starts_with("//") {
            continue;
        }
        let direct = line
            .match_indices(&needle)
            .any(|(at, _)| whole_word_at(line, at, &needle));
        let mut names = String::new();
        for (at, _) in line.match_indices("crate::") {
            let rest = &line[at + "crate::".len()..];
            if rest.starts_with('{') {
                in_group = true;
            } else {
                names.push_str(
                    rest.split(|c: char| !c.is_alphanumeric() && c != '_')
                        .next()
                        .unwrap_or(""),
                );
                names.push(' ');
            }
        }
        if in_group {
            names.push_str(line);
            if line.contains('}') {
                in_group = false;
            }
        }
        let via_root = from_above.iter().any(|name| {
            names.match_indices(name).any(|(at, _)| {
                let before = names[..at].chars().next_back();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                    && whole_word_at(&names, at, name)
            })
        });
        if direct || via_root {
            found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
        }
    }
    found
}

fn exports() -> Vec<(String, String)> {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    root_exports(&std::fs::read_to_string(lib).unwrap())
}

#[test]
fn no_layer_names_a_layer_above_it() {
    let exports = exports();
    let mut found = Vec::new();
    for (rank, layer) in LAYERS.iter().enumerate() {
        for file in files_of(layer).into_iter().filter(|f| !test_only(f)) {
            for above in &LAYERS[rank + 1..] {
                found.extend(arrows_up(&file, above, &exports));
            }
        }
    }
    assert!(
        found.is_empty(),
        "arrows running back up:\n{}",
        found.join("\n")
    );
}

#[test]
fn every_module_has_its_rank() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut unranked = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let module = path.is_dir() || path.extension().is_some_and(|e| e == "rs");
        if module && name != "lib" && !LAYERS.contains(&name.as_str()) {
            unranked.push(name);
        }
    }
    assert!(unranked.is_empty(), "not in LAYERS: {unranked:?}");
}

#[test]
fn an_arrow_up_would_be_found() {
    // The check itself: a line of the session layer that names the supervisor is one;
    // one in the file's test module is not.
    let dir = std::env::temp_dir().join(format!("dapvisor-layers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("probe.rs");
    std::fs::write(
        &file,
        "// crate::supervisor in a comment is not one\nuse crate::supervisor::SupervisorMsg;\nuse crate::session_id::SessionId;\n#[cfg(test)]\nmod tests {\n    use crate::supervisor::Tested;\n}\n",
    )
    .unwrap();
    assert_eq!(arrows_up(&file, "supervisor", &[]).len(), 1);
    assert!(arrows_up(&file, "session", &[]).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_arrow_up_through_the_crate_root_would_be_found() {
    let exports = root_exports(
        "//! pub use nothing::Here;\npub use runtime::Runtime;\npub use session::{Owner, SessionHandle as Handle};\n",
    );
    assert_eq!(
        exports,
        [
            ("Runtime".to_string(), "runtime".to_string()),
            ("Owner".to_string(), "session".to_string()),
            ("Handle".to_string(), "session".to_string()),
        ]
    );
    let dir = std::env::temp_dir().join(format!("dapvisor-layers-root-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("probe.rs");
    std::fs::write(
        &file,
        "// crate::Runtime in a comment is not one\nlet r = crate::Runtime::start;\nuse crate::{\n    Handle,\n    RuntimeConfig,\n};\nuse crate::Owners;\n",
    )
    .unwrap();
    let runtime = arrows_up(&file, "runtime", &exports);
    assert_eq!(runtime.len(), 1, "{runtime:?}");
    assert!(runtime[0].ends_with("crate::Runtime::start;"));
    let session = arrows_up(&file, "session", &exports);
    assert_eq!(session.len(), 1, "{session:?}");
    assert!(session[0].ends_with("Handle,"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_root_exports_are_read_from_lib_rs() {
    let exports = exports();
    for (name, module) in [("Runtime", "runtime"), ("SessionHandle", "session")] {
        assert!(
            exports.iter().any(|(n, m)| n == name && m == module),
            "{name} from {module} not among {exports:?}"
        );
    }
}
