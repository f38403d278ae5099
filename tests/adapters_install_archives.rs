//! `dapvisor adapters install --from FILE` with hostile archives, through the real CLI and
//! a DAPVISOR_HOME of the test's own, beside a folder standing for the rest of the
//! user's files: a link, hard link or device entry, or a name that leaves the folder, is
//! refused with an error naming the entry, and nothing outside the home is written or
//! has its mode changed; a release whose files are not the ones dapvisor keeps digests
//! for is refused, and a version it has none for installs only with `--unverified`.

mod archive_support;
mod cli_support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use archive_support::*;
use cli_support::*;

/// A scratch folder with `home/` (DAPVISOR_HOME) and `outside/`, the user's other files:
/// a private file (0600), a JSON file and a script.
struct Scene {
    dir: PathBuf,
}

impl Scene {
    fn new(name: &str) -> Self {
        let dir = scratch(name);
        std::fs::create_dir_all(dir.join("home")).unwrap();
        std::fs::create_dir_all(dir.join("outside")).unwrap();
        std::fs::write(dir.join("outside/private"), "secret").unwrap();
        std::fs::set_permissions(
            dir.join("outside/private"),
            PermissionsExt::from_mode(0o600),
        )
        .unwrap();
        std::fs::write(dir.join("outside/victim.json"), "untouched").unwrap();
        std::fs::write(dir.join("outside/server.js"), "original").unwrap();
        Self { dir }
    }

    fn home(&self) -> PathBuf {
        self.dir.join("home")
    }

    fn outside(&self, name: &str) -> PathBuf {
        self.dir.join("outside").join(name)
    }

    /// `dapvisor adapters install ARGS --from FILE` in this scene's home.
    async fn install(&self, file: &Path, args: &[&str]) -> Run {
        let mut all = vec!["adapters", "install"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--from", file.to_str().unwrap()]);
        dapvisor_in(&self.home(), &all).await
    }

    /// Refused, naming `entry` and saying `why`, with nothing written outside the home
    /// nor left in it.
    fn assert_refused(&self, run: &Run, entry: &str, why: &str) {
        assert_eq!(run.code, Some(1), "{}\n{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains(&format!("entry `{entry}` {why}")),
            "{}",
            run.stderr
        );
        assert!(
            run.stderr.contains("nothing was installed"),
            "{}",
            run.stderr
        );
        self.assert_outside_untouched();
        assert_eq!(listing(&self.home()), [], "the home holds nothing");
    }

    fn assert_outside_untouched(&self) {
        let private = self.outside("private");
        assert_eq!(std::fs::read_to_string(&private).unwrap(), "secret");
        let mode = std::fs::metadata(&private).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the private file's mode is unchanged");
        let victim = std::fs::read_to_string(self.outside("victim.json")).unwrap();
        assert_eq!(victim, "untouched");
        let server = std::fs::read_to_string(self.outside("server.js")).unwrap();
        assert_eq!(server, "original");
        let names: Vec<_> = listing(&self.dir.join("outside"));
        let expected = ["private", "server.js", "victim.json"].map(|n| (n.to_string(), false));
        assert_eq!(names, expected);
        let mut top: Vec<_> = listing(&self.dir)
            .into_iter()
            .filter(|(p, _)| !p.contains('/'))
            .map(|(p, _)| p)
            .collect();
        top.retain(|p| !p.starts_with("archive."));
        assert_eq!(top, ["home", "outside"], "nothing new beside the home");
    }
}

impl Drop for Scene {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A CodeLLDB .vsix's plain entries (the version one it would claim).
fn vsix_base(version: &str) -> Vec<Entry> {
    vec![
        file(
            "extension/package.json",
            format!(r#"{{"version": "{version}"}}"#).as_bytes(),
        ),
        program("extension/adapter/codelldb", b"#!/bin/sh\n"),
    ]
}

/// js-debug's plain entries in the npm package's layout, its manifest giving its
/// server's true sha256 (which the archive itself vouches for).
fn npm_js_debug_base() -> Vec<Entry> {
    vec![
        file("package/dist/vendor/js-debug/vsDebugServer.js", b"// server\n"),
        file(
            "package/dist/vendor/js-debug/manifest.json",
            br#"{"version": "v1.112.0", "sha256": "3f07d328aebcbbaf8c32883553ca463a2ad30d355e693cba6c62e505497719c3"}"#,
        ),
    ]
}

#[tokio::test]
async fn a_codelldb_vsix_whose_lldb_program_is_a_link_changes_no_mode_outside() {
    let scene = Scene::new("vsix-link");
    let mut entries = vsix_base("1.11.8");
    entries.push(symlink(
        "extension/lldb/bin/lldb",
        &scene.outside("private"),
    ));
    let vsix = scene.dir.join("archive.vsix");
    zip(&vsix, &entries);

    let run = scene.install(&vsix, &["codelldb"]).await;
    scene.assert_refused(&run, "extension/lldb/bin/lldb", "is a symbolic link");
    // Not even for a version taken unchecked.
    let run = scene.install(&vsix, &["codelldb", "--unverified"]).await;
    scene.assert_refused(&run, "extension/lldb/bin/lldb", "is a symbolic link");
}

#[tokio::test]
async fn a_codelldb_vsix_whose_install_record_is_a_link_writes_nothing_outside() {
    let scene = Scene::new("vsix-record");
    let mut entries = vsix_base("1.11.8");
    entries.push(symlink(
        "extension/dapvisor-install.json",
        &scene.outside("victim.json"),
    ));
    let vsix = scene.dir.join("archive.vsix");
    zip(&vsix, &entries);
    let run = scene.install(&vsix, &["codelldb"]).await;
    scene.assert_refused(
        &run,
        "extension/dapvisor-install.json",
        "is a symbolic link",
    );
}

#[tokio::test]
async fn a_js_debug_npm_archive_whose_server_is_a_link_overwrites_nothing() {
    let scene = Scene::new("npm-link");
    let mut entries = npm_js_debug_base();
    entries.push(symlink(
        "package/dist/vendor/js-debug/dapDebugServer.js",
        &scene.outside("server.js"),
    ));
    let tgz = scene.dir.join("archive.tgz");
    tar_gz(&tgz, &entries);
    let run = scene.install(&tgz, &["js-debug"]).await;
    scene.assert_refused(
        &run,
        "package/dist/vendor/js-debug/dapDebugServer.js",
        "is a symbolic link",
    );
}

#[tokio::test]
async fn tar_hard_links_devices_and_names_that_leave_the_folder_are_refused_by_name() {
    let scene = Scene::new("tar-hostile");
    let private = scene.outside("private");
    let cases = [
        (
            Entry {
                name: "package/dist/vendor/js-debug/hash.js".into(),
                kind: Kind::HardLink(private.to_str().unwrap().into()),
            },
            "is a hard link",
        ),
        (
            Entry {
                name: "package/dist/vendor/js-debug/tty".into(),
                kind: Kind::CharDevice,
            },
            "is a device",
        ),
        (file("../outside/escaped", b"x"), "climbs out"),
        (file("package/../../outside/escaped", b"x"), "climbs out"),
        (file(private.to_str().unwrap(), b"x"), "is an absolute path"),
    ];
    for (hostile, why) in cases {
        let name = hostile.name.clone();
        let mut entries = npm_js_debug_base();
        entries.push(hostile);
        let tgz = scene.dir.join("archive.tgz");
        tar_gz(&tgz, &entries);
        let run = scene.install(&tgz, &["js-debug"]).await;
        scene.assert_refused(&run, &name, why);
    }
}

#[tokio::test]
async fn zip_names_that_leave_the_folder_are_refused_by_name() {
    let scene = Scene::new("zip-hostile");
    for name in ["../outside/escaped", "extension/../../outside/escaped"] {
        let mut entries = vsix_base("1.11.8");
        entries.push(program(name, b"#!/bin/sh\n"));
        let vsix = scene.dir.join("archive.vsix");
        zip(&vsix, &entries);
        let run = scene.install(&vsix, &["codelldb"]).await;
        scene.assert_refused(&run, name, "climbs out");
    }
}

#[tokio::test]
async fn a_js_debug_release_is_checked_and_an_unknown_version_needs_unverified() {
    let scene = Scene::new("release-pins");
    let release = |version: &str| {
        vec![
            file(
                "js-debug/package.json",
                format!(r#"{{"version": "{version}"}}"#).as_bytes(),
            ),
            file(
                "js-debug/src/dapDebugServer.js",
                b"// not js-debug's server\n",
            ),
            file("js-debug/src/bootloader.js", b"// bootloader\n"),
        ]
    };
    let tgz = scene.dir.join("archive.tgz");

    // A version dapvisor knows, with files that are not that version's.
    tar_gz(&tgz, &release("1.112.0"));
    let run = scene.install(&tgz, &["js-debug"]).await;
    assert_eq!(run.code, Some(1), "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "js-debug v1.112.0 from ARCHIVE (a js-debug-dap release) does not match the sha256 dapvisor keeps"
                .replace("ARCHIVE", tgz.to_str().unwrap())
                .as_str()
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("src/dapDebugServer.js has sha256"),
        "{}",
        run.stderr
    );
    assert_eq!(listing(&scene.home()), []);

    // A version it has no digest for: refused unless asked for, then recorded unverified.
    tar_gz(&tgz, &release("1.999.0"));
    let run = scene.install(&tgz, &["js-debug"]).await;
    assert_eq!(run.code, Some(1), "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("keeps no sha256 for js-debug v1.999.0 (it knows v1.112.0)"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--unverified"), "{}", run.stderr);
    assert_eq!(listing(&scene.home()), []);

    let run = scene.install(&tgz, &["js-debug", "--unverified"]).await;
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("UNVERIFIED"), "{}", run.stdout);
    assert!(run.stdout.contains("were not checked"), "{}", run.stdout);
    let installed = scene.home().join("js-debug/src/dapDebugServer.js");
    assert_eq!(
        std::fs::read_to_string(installed).unwrap(),
        "// not js-debug's server\n"
    );
    let record = std::fs::read_to_string(scene.home().join("js-debug/dapvisor-install.json"));
    let record: serde_json::Value = serde_json::from_str(&record.unwrap()).unwrap();
    assert_eq!(record["version"], "v1.999.0");
    assert_eq!(record["verified"], false);
    scene.assert_outside_untouched();
}
