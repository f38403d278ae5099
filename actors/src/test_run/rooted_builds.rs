//! What a test's build compiles, kept under the root as the test itself is
//! (`rooted.rs`). A build runs code: Cargo's build scripts and proc macros, and Go's
//! compiler over whatever the module points at. A crate inside the root can name a
//! path dependency outside it (`path = "../../elsewhere"`), or belong to a workspace
//! above it; a Go module can `replace` a module with a folder outside it, or a
//! `go.work` above the root can add one. Each such source is refused before anything
//! builds. Downloaded code (the Go module cache, Cargo's registry and git sources)
//! is not a path the agent names, and is taken as the build takes it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use super::cargo::{bounded, run};
use super::rooted::inside;
use super::TestRunError;

/// Refuse a Go test of `package` whose build reads source outside `root`: a `go.work`
/// file, or a package folder that is neither the standard library's nor in the module
/// cache (a `replace` with a local path).
pub(crate) async fn go_sources(
    package: &Path,
    root: &Path,
    deadline: Duration,
) -> Result<(), TestRunError> {
    let env = go(package, &["env", "GOWORK", "GOMODCACHE"], deadline).await?;
    let mut lines = env.lines();
    let (work, cache) = (lines.next().unwrap_or(""), lines.next().unwrap_or(""));
    if !work.is_empty() && work != "off" {
        inside(root, Path::new(work), "the Go workspace file")?;
    }
    let format = "{{if not .Standard}}{{.Dir}}{{end}}";
    let listed = go(
        package,
        &["list", "-deps", "-test", "-f", format, "."],
        deadline,
    )
    .await?;
    for dir in listed.lines().filter(|line| !line.is_empty()) {
        if !cache.is_empty() && Path::new(dir).starts_with(cache) {
            continue;
        }
        inside(root, Path::new(dir), "a Go package the test builds")?;
    }
    Ok(())
}

/// Refuse a Rust test of the crate at `krate` whose build reads source outside `root`:
/// a workspace above the root, or a path dependency outside it.
pub(crate) async fn cargo_sources(
    krate: &Path,
    root: &Path,
    deadline: Duration,
) -> Result<(), TestRunError> {
    let mut command = crate::clean_start::tokio_command("cargo");
    command
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(krate.join("Cargo.toml"))
        .current_dir(krate)
        .kill_on_drop(true);
    let out = run(command, deadline, "cargo metadata").await?;
    if !out.status.success() {
        return Err(TestRunError::BuildFailed {
            message: bounded(String::from_utf8_lossy(&out.stderr).trim().to_string()),
        });
    }
    let metadata: Value =
        serde_json::from_slice(&out.stdout).map_err(|error| TestRunError::Io {
            what: "cargo metadata".into(),
            error: format!("its output is not the JSON it documents: {error}"),
        })?;
    for (path, what) in local_sources(&metadata) {
        inside(root, &path, what)?;
    }
    Ok(())
}

/// The folders a crate's build reads that are not downloaded: its workspace's, and
/// each package's without a source (a path dependency, or a workspace member).
fn local_sources(metadata: &Value) -> Vec<(PathBuf, &'static str)> {
    let mut found = Vec::new();
    if let Some(workspace) = metadata["workspace_root"].as_str() {
        found.push((PathBuf::from(workspace), "the crate's workspace"));
    }
    let packages = metadata["packages"].as_array().map(Vec::as_slice);
    for package in packages.unwrap_or_default() {
        if !package["source"].is_null() {
            continue; // from a registry or git: downloaded
        }
        if let Some(manifest) = package["manifest_path"].as_str() {
            let folder = Path::new(manifest).parent().unwrap_or(Path::new(manifest));
            found.push((folder.to_path_buf(), "a path dependency the test builds"));
        }
    }
    found
}

/// What `go ARGS` in `dir` prints, or the build failure it reports.
async fn go(dir: &Path, args: &[&str], deadline: Duration) -> Result<String, TestRunError> {
    let mut command = crate::clean_start::tokio_command("go");
    command.args(args).current_dir(dir).kill_on_drop(true);
    let what = format!("go {}", args[0]);
    let out = run(command, deadline, &what).await?;
    if !out.status.success() {
        return Err(TestRunError::BuildFailed {
            message: bounded(String::from_utf8_lossy(&out.stderr).trim().to_string()),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_packages_without_a_source_and_the_workspace_are_local() {
        let metadata = json!({
            "workspace_root": "/r/app",
            "packages": [
                { "name": "app", "source": null, "manifest_path": "/r/app/Cargo.toml" },
                { "name": "util", "source": null, "manifest_path": "/elsewhere/util/Cargo.toml" },
                { "name": "serde", "source": "registry+https://github.com/rust-lang/crates.io-index",
                  "manifest_path": "/home/u/.cargo/registry/src/serde/Cargo.toml" },
            ],
        });
        let folders: Vec<PathBuf> = local_sources(&metadata)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        assert_eq!(
            folders,
            [
                PathBuf::from("/r/app"),
                PathBuf::from("/r/app"),
                PathBuf::from("/elsewhere/util")
            ]
        );
    }
}
