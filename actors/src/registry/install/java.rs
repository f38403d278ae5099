//! JdiDapServer, the Java adapter: one source file on the JDK's JDI, shipped in the npm
//! package js-debug and CodeLLDB come from ([`super::VENDOR_PACKAGE`]). Its source is
//! checked against the digest dapvisor keeps, then compiled here with `javac` for the
//! JDK on this machine (the package's own classes are built for Java 21; Debian 12 has
//! 17). Installed as `java/` in dapvisor's home:
//!
//! - `src/JdiDapServer.java`, the checked source;
//! - `classes/`, what `javac` made of it (the adapter runs as `java -cp classes
//!   JdiDapServer`);
//! - `bin/debuggee-java`, dapvisor's own `java` for the program (see [`DEBUGGEE_JAVA`]);
//! - the install record.

use std::path::{Path, PathBuf};

use crate::clean_start::std_command;

use super::layout;
use super::pins::Unpinned;
use super::record::InstallRecord;
use super::run;
use super::vendored::{finish, install, Unpacked};

/// The Java adapter's folder in dapvisor's home.
pub(super) const JAVA_DIR: &str = "java";
/// Where the compiled classes are, in that folder.
const CLASSES: &str = "classes";
/// Where the program's `java` is, in that folder.
const DEBUGGEE_JAVA_FILE: &str = "bin/debuggee-java";

/// The `java` JdiDapServer is told to start the program with (its `javaPath`).
/// JdiDapServer starts it as `java -agentlib:jdwp=...,address=*:PORT ...`, whose debug
/// agent listens on every network interface until the adapter attaches: anyone who
/// reaches the port first runs code in the program. This runs the JDK's `java` with
/// the agent on loopback (`127.0.0.1:PORT`) and quiet (it would print its port among
/// the program's output), and gives the program the adapter's own stdin (the file a
/// launch names, or `/dev/null`), where JdiDapServer gives it a pipe no one writes to.
/// An agent option of another shape is refused rather than passed on. The launch's
/// environment comes as `-Ddapvisor.env=` options, each a `K=V` in octal escapes
/// (JdiDapServer reads no `env`): each is exported and dropped.
pub const DEBUGGEE_JAVA: &str = r#"#!/bin/sh
# Written by dapvisor: the `java` JdiDapServer starts the program with (see
# dapvisor's registry/install/java.rs). Its debug agent goes on loopback, quiet;
# the program reads the adapter's stdin and gets the launch's environment.
for arg do
  shift
  case $arg in
    -Ddapvisor.env=*)
      kv=$(printf "${arg#-Ddapvisor.env=}x")
      export "${kv%x}"
      continue ;;
    -agentlib:jdwp=*,address=\*:*)
      arg="${arg%%,address=\**},address=127.0.0.1:${arg##*,address=\*:},quiet=y" ;;
    -agentlib:jdwp=*)
      echo "dapvisor: $arg is not the debug agent option dapvisor knows; not starting the program" >&2
      exit 125 ;;
  esac
  set -- "$@" "$arg"
done
exec java "$@" < "/proc/$PPID/fd/0"
"#;

/// Where an install puts the adapter's compiled classes under `home`.
pub(crate) fn java_classes(home: &Path) -> PathBuf {
    home.join(JAVA_DIR).join(CLASSES)
}

/// Where an install puts the program's `java` ([`DEBUGGEE_JAVA`]) under `home`.
pub(crate) fn debuggee_java(home: &Path) -> PathBuf {
    home.join(JAVA_DIR).join(DEBUGGEE_JAVA_FILE)
}

/// Install JdiDapServer from `unpacked` into `home` (`java/`): its source once it
/// matches the digest kept for its version (or, with [`Unpinned::Install`], a version
/// that has none), compiled with the `javac` on PATH, and [`DEBUGGEE_JAVA`].
pub fn install_java(
    unpacked: &Unpacked,
    home: &Path,
    unpinned: Unpinned,
) -> Result<InstallRecord, String> {
    let made = install("java", &layout::java(), "any", unpacked, unpinned)?;
    let source = made.path().join("src/JdiDapServer.java");
    let classes = made.folder.subfolder(CLASSES)?;
    run(
        std_command("javac")
            // No annotation processor runs: compiling must run nothing but javac.
            .args([
                "--release",
                "17",
                "-proc:none",
                "-nowarn",
                "-encoding",
                "UTF-8",
            ])
            .arg("-d")
            .arg(classes.path())
            .arg(&source),
        "compile JdiDapServer with javac (is a JDK 17 or newer installed? apt-get install \
         openjdk-17-jdk-headless)",
    )?;
    let mut budget = DEBUGGEE_JAVA.len() as u64;
    made.folder.write_file(
        DEBUGGEE_JAVA_FILE,
        &mut DEBUGGEE_JAVA.as_bytes(),
        true,
        &mut budget,
        &|| "the program's java is larger than itself".into(),
    )?;
    finish(made, &home.join(JAVA_DIR))
}
