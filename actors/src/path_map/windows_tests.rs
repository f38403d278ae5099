//! Mappings to a Windows target (a debugpy or js-debug server on Windows): its paths
//! come back local whatever the case of their drive letter and names and whichever
//! separator the adapter used; what goes to it uses `\`.

use serde_json::json;

use super::*;

fn map(pairs: &[(&str, &str)]) -> PathMap {
    let mappings: Vec<_> = pairs.iter().map(|(l, r)| PathMapping::new(l, r)).collect();
    check(&mappings).unwrap();
    PathMap::new(&mappings)
}

#[test]
fn a_drive_letter_root_is_checked_as_a_windows_folder() {
    let windows = |remote: &str| check(&[PathMapping::new("/home/me/app", remote)]);
    for fine in [r"C:\app\src", "c:/app/src", r"D:\", r"\\build\share\app"] {
        assert_eq!(windows(fine), Ok(()), "{fine}");
    }
    let dots = windows(r"C:\app\..\secret").unwrap_err();
    assert!(dots.contains("`..`"), "{dots}");
    let relative = windows(r"app\src").unwrap_err();
    assert!(relative.contains("not absolute"), "{relative}");
    assert!(relative.contains(r#""C:\\app""#), "{relative}");
    // One Windows folder, spelled twice.
    let twice = check(&[
        PathMapping::new("/w/a", r"C:\App"),
        PathMapping::new("/w/b", "c:/app/"),
    ])
    .unwrap_err();
    assert!(twice.contains("mapped twice"), "{twice}");
    // A Windows folder never overlaps one of this machine's.
    assert_eq!(check(&[PathMapping::new("/C:", r"C:\")]), Ok(()));
}

#[test]
fn a_windows_targets_paths_come_back_local_whatever_their_case_and_separators() {
    let m = map(&[("/home/me/app", r"C:\app\src")]);
    for spelled in [
        r"C:\app\src\pkg\main.py",
        r"c:\APP\Src\pkg\main.py",
        "C:/app/src/pkg/main.py",
        r"c:\app\src/pkg\main.py",
    ] {
        assert_eq!(m.to_local(spelled), "/home/me/app/pkg/main.py", "{spelled}");
    }
    assert_eq!(m.to_local(r"C:\app\src"), "/home/me/app");
    // Not under the folder: shown marked, as the target named it, and sent back so.
    let library = r"C:\Python311\Lib\threading.py";
    let marked = m.to_local(library);
    assert_eq!(marked, format!("remote:{library}"));
    assert_eq!(m.to_remote(&marked), library);
    assert_eq!(m.to_local(r"C:\app\srcs\x.py"), r"remote:C:\app\srcs\x.py");
    // Already local (debugpy was given the mapping and applied it): kept.
    assert_eq!(m.to_local("/home/me/app/a.py"), "/home/me/app/a.py");
    for name in ["<string>", "node:internal/timers"] {
        assert_eq!(m.to_local(name), name);
    }
}

#[test]
fn breakpoints_go_to_a_windows_target_with_its_separators() {
    let m = map(&[("/home/me/app", r"C:\app\src"), ("/home/me/lib", "d:/libs")]);
    assert_eq!(
        m.to_remote("/home/me/app/pkg/main.py"),
        r"C:\app\src\pkg\main.py"
    );
    assert_eq!(m.to_remote("/home/me/lib/x.js"), r"d:\libs\x.js");
    assert_eq!(m.to_remote("/home/me/app"), r"C:\app\src");
    let mut args = json!({"source": {"path": "/home/me/app/pkg/main.py"},
                          "breakpoints": [{"line": 3}]});
    m.outgoing(&mut args);
    assert_eq!(args["source"]["path"], r"C:\app\src\pkg\main.py");
    let unc = map(&[("/home/me/app", r"\\build\share\app")]);
    assert_eq!(
        unc.to_remote("/home/me/app/a.py"),
        r"\\build\share\app\a.py"
    );
    assert_eq!(unc.to_local(r"\\BUILD\share\app\a.py"), "/home/me/app/a.py");
}

#[test]
fn stops_and_stacks_of_a_windows_target_read_local() {
    let m = map(&[
        ("/home/me/app", r"C:\app"),
        ("/home/me/vendored", r"C:\app\lib\vendored"),
    ]);
    let mut stack = json!({"stackFrames": [
        {"id": 1, "source": {"path": r"c:\app\lib\vendored\v.py"}},
        {"id": 2, "source": {"path": r"C:\App\main.py"}},
        {"id": 3, "source": {"path": r"C:\Python311\Lib\runpy.py"}},
    ]});
    m.incoming(&mut stack);
    // The deepest mapping wins.
    assert_eq!(
        stack["stackFrames"][0]["source"]["path"],
        "/home/me/vendored/v.py"
    );
    assert_eq!(
        stack["stackFrames"][1]["source"]["path"],
        "/home/me/app/main.py"
    );
    assert_eq!(
        stack["stackFrames"][2]["source"]["path"],
        r"remote:C:\Python311\Lib\runpy.py"
    );
}

#[test]
fn a_posix_target_leaves_windows_looking_names_alone() {
    let m = map(&[("/home/me/app", "/srv/app")]);
    assert_eq!(m.to_local(r"C:\x.py"), r"C:\x.py");
    // A mix: each mapping in its own target's style.
    let mixed = map(&[("/home/me/app", r"C:\app"), ("/home/me/srv", "/srv")]);
    assert_eq!(mixed.to_local("/srv/a.py"), "/home/me/srv/a.py");
    assert_eq!(mixed.to_local(r"C:\app\a.py"), "/home/me/app/a.py");
    assert_eq!(mixed.to_local("/usr/lib/a.py"), "remote:/usr/lib/a.py");
    assert!(is_target_absolute(r"C:\a.py") && is_target_absolute("/a.py"));
    assert!(!is_target_absolute("a.py"));
}
