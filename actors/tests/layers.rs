//! The runtime's layers depend only downwards: wire, then the session core, then the
//! transport, then the session, then the supervisor, then the runtime. A layer's code
//! (comments aside) names no layer above it, so the picture a newcomer draws from the
//! folder names is the code's. Modules beside the chain (registry, quirks, events,
//! errors, limits) are not ranked.

use std::path::{Path, PathBuf};

/// The chain, lowest first: a folder (or file) under `actors/src`, and its module name.
const LAYERS: &[&str] = &[
    "wire",
    "core",
    "transport",
    "session",
    "supervisor",
    "runtime",
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

/// The lines of `path` that name `crate::<above>`, comments left out.
fn arrows_up(path: &Path, above: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let needle = format!("crate::{above}");
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .filter(|(_, line)| {
            line.match_indices(&needle).any(|(at, _)| {
                let next = line[at + needle.len()..].chars().next();
                // `crate::session` but not `crate::session_id`.
                !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        })
        .map(|(n, line)| format!("{}:{}: {}", path.display(), n + 1, line.trim()))
        .collect()
}

#[test]
fn no_layer_names_a_layer_above_it() {
    let mut found = Vec::new();
    for (rank, layer) in LAYERS.iter().enumerate() {
        for file in files_of(layer) {
            for above in &LAYERS[rank + 1..] {
                found.extend(arrows_up(&file, above));
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
fn an_arrow_up_would_be_found() {
    // The check itself: a line of the session layer that names the supervisor is one.
    let dir = std::env::temp_dir().join(format!("dapvisor-layers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("probe.rs");
    std::fs::write(
        &file,
        "// crate::supervisor in a comment is not one\nuse crate::supervisor::SupervisorMsg;\nuse crate::session_id::SessionId;\n",
    )
    .unwrap();
    assert_eq!(arrows_up(&file, "supervisor").len(), 1);
    assert!(arrows_up(&file, "session").is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
