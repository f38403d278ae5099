//! Each adapter family's words for the path mappings of an attach (`quirks/*.rs`),
//! and what a CodeLLDB attach to a gdb-remote server runs.

use serde_json::json;

use super::tests_arguments::{attach, by_port};
use crate::launch::AttachSpec;

fn mapped() -> AttachSpec {
    by_port(4711)
        .map_path("/home/me/app", "/srv/app")
        .map_path("/home/me/lib", "/opt/lib")
}

#[test]
fn each_family_is_told_the_mappings_in_its_own_words() {
    let spec = mapped();
    assert_eq!(
        attach("debugpy", &spec)["pathMappings"],
        json!([{"localRoot": "/home/me/app", "remoteRoot": "/srv/app"},
               {"localRoot": "/home/me/lib", "remoteRoot": "/opt/lib"}])
    );
    assert_eq!(
        attach("dlv", &spec)["substitutePath"],
        json!([{"from": "/home/me/app", "to": "/srv/app"},
               {"from": "/home/me/lib", "to": "/opt/lib"}])
    );
    assert_eq!(
        attach("lldb-dap", &spec)["sourceMap"],
        json!([["/srv/app", "/home/me/app"], ["/opt/lib", "/home/me/lib"]])
    );
    assert_eq!(
        attach("codelldb", &spec)["sourceMap"],
        json!({"/srv/app": "/home/me/app", "/opt/lib": "/home/me/lib"})
    );
    // js-debug takes one pair; dapvisor maps the others itself.
    let js = attach("js-debug", &spec);
    assert_eq!(
        (&js["localRoot"], &js["remoteRoot"]),
        (&json!("/home/me/app"), &json!("/srv/app"))
    );
    // No mappings, no keys.
    for name in ["debugpy", "dlv", "lldb-dap", "codelldb", "js-debug"] {
        let plain = attach(name, &by_port(4711));
        for key in ["pathMappings", "substitutePath", "sourceMap", "localRoot"] {
            assert!(plain.get(key).is_none(), "{name}: {plain}");
        }
    }
}

#[test]
fn codelldb_reaches_a_gdb_remote_server_with_lldb_s_own_command() {
    let spec = AttachSpec {
        host: Some("10.0.0.2".into()),
        ..by_port(1234)
    };
    assert_eq!(
        attach("codelldb", &spec),
        json!({"type": "lldb", "request": "attach",
               "processCreateCommands": ["gdb-remote 10.0.0.2:1234"]})
    );
}
