//! The path map's own cases: POSIX targets (Windows ones: `windows_tests.rs`).

use serde_json::json;

use super::*;

fn map(pairs: &[(&str, &str)]) -> PathMap {
    let mappings: Vec<_> = pairs.iter().map(|(l, r)| PathMapping::new(l, r)).collect();
    check(&mappings).unwrap();
    PathMap::new(&mappings)
}

#[test]
fn module_paths_come_back_local_or_marked() {
    let m = map(&[("/home/me/app", "/srv/app")]);
    let mut answer = json!({ "modules": [
        { "id": 1, "name": "prog", "path": "/srv/app/prog",
          "symbolFilePath": "/srv/app/prog.debug" },
        { "id": 2, "name": "libc.so.6", "path": "/usr/lib/libc.so.6" },
    ] });
    m.incoming(&mut answer);
    assert_eq!(answer["modules"][0]["path"], "/home/me/app/prog");
    assert_eq!(
        answer["modules"][0]["symbolFilePath"],
        "/home/me/app/prog.debug"
    );
    assert_eq!(answer["modules"][1]["path"], "remote:/usr/lib/libc.so.6");
    let mut event = json!({ "reason": "new", "module": { "id": 3, "path": "/srv/app/lib.so" } });
    m.incoming(&mut event);
    assert_eq!(event["module"]["path"], "/home/me/app/lib.so");
}

#[test]
fn local_paths_go_to_the_target_under_its_folders_and_come_back() {
    let m = map(&[("/home/me/app", "/srv/app"), ("/home/me/lib", "/opt/lib")]);
    assert_eq!(
        m.to_remote("/home/me/app/src/main.py"),
        "/srv/app/src/main.py"
    );
    assert_eq!(m.to_remote("/home/me/lib/x.go"), "/opt/lib/x.go");
    assert_eq!(m.to_remote("/home/me/app"), "/srv/app");
    // Component-wise: `/home/me/apple` is not under `/home/me/app`.
    assert_eq!(m.to_remote("/home/me/apple/a.py"), "/home/me/apple/a.py");
    assert_eq!(
        m.to_local("/srv/app/src/main.py"),
        "/home/me/app/src/main.py"
    );
    assert_eq!(m.to_local("/opt/lib/x.go"), "/home/me/lib/x.go");
    // Mapped already (by the adapter): kept.
    assert_eq!(m.to_local("/home/me/app/a.py"), "/home/me/app/a.py");
}

#[test]
fn a_target_path_with_no_mapping_is_marked_and_goes_back_unmarked() {
    let m = map(&[("/home/me/app", "/srv/app")]);
    let marked = m.to_local("/usr/lib/python3.11/threading.py");
    assert_eq!(marked, "remote:/usr/lib/python3.11/threading.py");
    assert_eq!(m.to_local(&marked), marked, "marked once");
    assert_eq!(m.to_remote(&marked), "/usr/lib/python3.11/threading.py");
    assert_eq!(
        m.to_local("/srv/application/a.py"),
        "remote:/srv/application/a.py"
    );
    for name in ["<string>", "node:internal/timers", ""] {
        assert_eq!(m.to_local(name), name, "no file path");
    }
}

#[test]
fn the_deepest_mapping_of_a_path_wins() {
    let m = map(&[("/w/app", "/srv"), ("/w/vendored", "/srv2/lib/vendored")]);
    assert_eq!(m.to_local("/srv2/lib/vendored/a.go"), "/w/vendored/a.go");
    let nested = map(&[("/w/app", "/srv"), ("/w/shared", "/srv/shared")]);
    assert_eq!(nested.to_local("/srv/shared/a.py"), "/w/shared/a.py");
    assert_eq!(nested.to_local("/srv/main.py"), "/w/app/main.py");
    assert_eq!(nested.to_remote("/w/shared/a.py"), "/srv/shared/a.py");
}

#[test]
fn no_mappings_change_nothing() {
    let m = PathMap::default();
    assert_eq!(m.to_local("/usr/lib/a.py"), "/usr/lib/a.py");
    let mut body = json!({"stackFrames": [{"source": {"path": "/a.py"}}]});
    let before = body.clone();
    m.incoming(&mut body);
    assert_eq!(body, before);
    m.outgoing(&mut body);
    assert_eq!(body, before);
    // But for a marked remote path an agent passes back, which loses its mark.
    let mut marked = json!({"source": {"path": "remote:/usr/lib/a.py"}});
    m.outgoing(&mut marked);
    assert_eq!(marked["source"]["path"], "/usr/lib/a.py");
    assert!(is_remote(std::path::Path::new("remote:/usr/lib/a.py")));
    assert!(!is_remote(std::path::Path::new("/remote:/a.py")));
}

#[test]
fn sources_are_rewritten_wherever_they_are_in_a_message() {
    let m = map(&[("/home/me/app", "/srv/app")]);
    let mut body = json!({
        "stackFrames": [
            {"id": 1, "name": "f", "source": {"path": "/srv/app/a.py", "name": "a.py"}},
            {"id": 2, "name": "g", "source": {"path": "/usr/lib/b.py"}},
            {"id": 3, "name": "h", "source": {"sourceReference": 7}},
        ],
        "breakpoint": {"source": {"path": "/srv/app/c.py",
                       "sources": [{"path": "/srv/app/d.py"}]}},
        "sources": [{"path": "/srv/app/e.py"}],
        "path": "/srv/app/not-a-source",
    });
    m.incoming(&mut body);
    assert_eq!(
        body["stackFrames"][0]["source"]["path"],
        "/home/me/app/a.py"
    );
    assert_eq!(
        body["stackFrames"][1]["source"]["path"],
        "remote:/usr/lib/b.py"
    );
    assert_eq!(
        body["stackFrames"][2]["source"],
        json!({"sourceReference": 7})
    );
    assert_eq!(body["breakpoint"]["source"]["path"], "/home/me/app/c.py");
    assert_eq!(
        body["breakpoint"]["source"]["sources"][0]["path"],
        "/home/me/app/d.py"
    );
    assert_eq!(body["sources"][0]["path"], "/home/me/app/e.py");
    assert_eq!(body["path"], "/srv/app/not-a-source", "only sources");
    let mut args = json!({"source": {"path": "/home/me/app/a.py"}, "lines": [3]});
    m.outgoing(&mut args);
    assert_eq!(args["source"]["path"], "/srv/app/a.py");
}

#[test]
fn mappings_that_cannot_be_applied_exactly_are_refused_saying_why() {
    let refused = |pairs: &[(&str, &str)]| {
        let mappings: Vec<_> = pairs.iter().map(|(l, r)| PathMapping::new(l, r)).collect();
        check(&mappings).unwrap_err()
    };
    let why = refused(&[("app", "/srv")]);
    assert!(
        why.contains("local path app") && why.contains("not absolute"),
        "{why}"
    );
    let why = refused(&[("/w/app", "srv")]);
    assert!(why.contains("remote path srv"), "{why}");
    let why = refused(&[("/w/app/../x", "/srv")]);
    assert!(why.contains("`..`"), "{why}");
    let why = refused(&[("/w/a", "/srv"), ("/w/b", "/srv/")]);
    assert!(why.contains("remote folder /srv is mapped twice"), "{why}");
    let why = refused(&[("/w/a", "/srv"), ("/w/a/", "/srv2")]);
    assert!(why.contains("local folder /w/a is mapped twice"), "{why}");
    let why = refused(&[("/app/src", "/app")]);
    assert!(why.contains("overlap"), "{why}");
    let why = refused(&[("/app", "/app")]);
    assert!(why.contains("overlap"), "{why}");
    let many: Vec<_> = (0..=MAX_PATH_MAPPINGS)
        .map(|i| PathMapping::new(format!("/l/{i}"), format!("/r/{i}")))
        .collect();
    assert!(check(&many).unwrap_err().contains("more than the 64"));
    assert!(check(&[]).is_ok());
}
