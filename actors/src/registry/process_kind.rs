//! What a running process is, for an attach by pid that names no adapter: a Python
//! interpreter wants debugpy, node js-debug, ruby rdbg, a Go binary dlv, anything
//! else the native debugger. Told from the process's executable and the libraries it
//! has loaded (`/proc/PID/exe`, `/proc/PID/maps`): an interpreter embedded in another
//! program (a `libpython` in its maps) counts as that interpreter.

use std::path::Path;

use super::go_binary::is_go_binary;

/// Most bytes of `/proc/PID/maps` read: 4 MiB (a large program maps a few thousand
/// regions, a line each).
const MAX_MAPS_BYTES: u64 = 4 * 1024 * 1024;

/// The runtimes known by their executable's name and their library's.
const RUNTIMES: &[(&str, &str, &str)] = &[
    // (extension key, executable name starts with, library name starts with)
    ("py", "python", "libpython"),
    ("js", "node", "libnode"),
    ("rb", "ruby", "libruby"),
];

/// The extension key (as a program's: `py`, `js`, `rb`, `go`, "" for native) of the
/// process `pid`, or `None` when it cannot be read (gone, another user's).
pub(crate) fn process_key(pid: u32) -> Option<&'static str> {
    let proc = Path::new("/proc").join(pid.to_string());
    let exe = std::fs::read_link(proc.join("exe")).ok()?;
    let name = exe.file_name()?.to_string_lossy().into_owned();
    let maps = read_maps(&proc.join("maps"));
    Some(key_of(&name, &maps, || is_go_binary(&proc.join("exe"))))
}

/// The key of a process whose executable is called `name` and whose maps are `maps`;
/// `go` asks whether the executable is a Go binary.
fn key_of(name: &str, maps: &str, go: impl FnOnce() -> bool) -> &'static str {
    for (key, executable, library) in RUNTIMES {
        let loaded = maps.lines().any(|line| {
            line.rsplit('/')
                .next()
                .is_some_and(|file| file.starts_with(library))
        });
        if name.starts_with(executable) || loaded {
            return key;
        }
    }
    if go() {
        return "go";
    }
    ""
}

fn read_maps(path: &Path) -> String {
    use std::io::Read as _;
    let mut text = String::new();
    if let Ok(file) = std::fs::File::open(path) {
        let _ = file.take(MAX_MAPS_BYTES).read_to_string(&mut text);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_is_told_by_its_executable_and_loaded_runtime() {
        let never = || false;
        assert_eq!(key_of("python3.11", "", never), "py");
        let embedded = "7f00-7f01 r-xp 0 08:01 1 /usr/lib/libpython3.11.so.1.0\n";
        assert_eq!(key_of("blender", embedded, never), "py");
        assert_eq!(key_of("node", "", never), "js");
        assert_eq!(key_of("ruby3.1", "", never), "rb");
        assert_eq!(key_of("server", "", || true), "go");
        assert_eq!(
            key_of(
                "sum",
                "7f00-7f01 r-xp 0 08:01 1 /usr/lib/libc.so.6\n",
                never
            ),
            ""
        );
    }

    #[test]
    fn a_running_native_program_is_native_and_a_gone_one_unknown() {
        // Not this test binary: it holds Go's build-info marker, as a constant.
        let mut sleeper = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        assert_eq!(process_key(sleeper.id()), Some(""));
        let _ = sleeper.kill();
        let _ = sleeper.wait();
        assert_eq!(process_key(u32::MAX), None);
    }
}
