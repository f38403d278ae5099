//! `--root` covers what a test's build compiles, over MCP with real Go and Cargo: a
//! Go module inside the root that `replace`s a module with a folder outside it, and a
//! crate inside the root with a path dependency outside it (whose build script would
//! leave a mark), are refused before anything builds; the same projects with their
//! dependencies inside the root run.

mod agent;
mod common;

use std::path::{Path, PathBuf};

use agent::mcp_client::{Elicitation, McpClient};
use serde_json::{json, Value};

/// A root with a Go module and a crate in it, each depending on a sibling outside the
/// root; removed when dropped.
struct Projects(PathBuf);

impl Projects {
    /// The projects of test `name` (each test its own folder: they run at once).
    fn new(name: &str) -> Self {
        let top = std::env::temp_dir().join(format!(
            "dapvisor-root-builds-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&top);
        let projects = Self(top);
        let mark = projects.mark().display().to_string();
        for place in ["root", "outside"] {
            projects.write(
                &format!("{place}/gohelp/go.mod"),
                "module example.com/gohelp\n\ngo 1.19\n",
            );
            projects.write(
                &format!("{place}/gohelp/help.go"),
                "package gohelp\n\nfunc Double(n int) int { return 2 * n }\n",
            );
            projects.write(
                &format!("{place}/dep/Cargo.toml"),
                "[package]\nname = \"dep\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            );
            projects.write(
                &format!("{place}/dep/build.rs"),
                &format!("fn main() {{ std::fs::write({mark:?}, \"built\").unwrap(); }}\n"),
            );
            projects.write(
                &format!("{place}/dep/src/lib.rs"),
                "pub fn double(n: i32) -> i32 { 2 * n }\n",
            );
        }
        projects.write(
            "root/goapp/app_test.go",
            "package app\n\nimport (\n\t\"testing\"\n\n\t\"example.com/gohelp\"\n)\n\n\
             func TestDouble(t *testing.T) {\n\tif gohelp.Double(2) != 4 {\n\t\tt.Fail()\n\t}\n}\n",
        );
        projects.write(
            "root/crate/src/lib.rs",
            "#[test]\nfn doubles() {\n    assert_eq!(dep::double(2), 4);\n}\n",
        );
        projects.depend_on("../../outside");
        projects
    }

    /// Point the Go module and the crate at their dependency in `place`.
    fn depend_on(&self, place: &str) {
        self.write(
            "root/goapp/go.mod",
            &format!(
                "module example.com/app\n\ngo 1.19\n\nrequire example.com/gohelp v0.0.0\n\n\
                 replace example.com/gohelp => {place}/gohelp\n"
            ),
        );
        self.write(
            "root/crate/Cargo.toml",
            &format!(
                "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
                 [workspace]\n\n[dependencies]\ndep = {{ path = \"{place}/dep\" }}\n"
            ),
        );
    }

    fn root(&self) -> PathBuf {
        std::fs::canonicalize(self.0.join("root")).unwrap()
    }

    fn write(&self, file: &str, text: &str) {
        let path = self.0.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// Where the dependency's build script writes when it runs.
    fn mark(&self) -> PathBuf {
        self.0.join("built")
    }
}

impl Drop for Projects {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

async fn rooted_server(root: &Path) -> McpClient {
    let root = root.display().to_string();
    let flags = ["--permission-mode", "bypass_all", "--root", root.as_str()];
    McpClient::start_all_tools(&flags, Elicitation::Unsupported).await
}

fn go_test() -> Value {
    json!({ "test": "TestDouble", "runner": "go", "program": "goapp", "timeout": 300 })
}

fn cargo_test() -> Value {
    json!({ "test": "doubles", "runner": "cargo", "program": "crate", "timeout": 300 })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rooted_test_builds_no_source_from_outside_the_root() {
    let projects = Projects::new("tests");
    let client = rooted_server(&projects.root()).await;
    for (launch, names) in [
        (go_test(), "a Go package the test builds"),
        (cargo_test(), "a path dependency the test builds"),
    ] {
        let err = client.fails("debug_launch", launch.clone(), 500).await;
        assert_eq!(err["kind"], "forbidden", "{launch}: {err}");
        let said = err["error"].as_str().unwrap();
        assert!(said.contains(names) && said.contains("outside"), "{err}");
    }
    assert!(
        !projects.mark().exists(),
        "the dependency's build script ran"
    );

    // With their dependencies inside the root, both run.
    projects.depend_on("..");
    for launch in [go_test(), cargo_test()] {
        let ran = client.ok("debug_launch", launch.clone()).await;
        assert_eq!(ran["state"], "terminated", "{launch}: {ran}");
        assert_eq!(ran["test"]["passed"], true, "{launch}: {ran}");
    }
    assert!(
        projects.mark().exists(),
        "the dependency inside the root was built"
    );
    assert!(client.close().await.success());
}

/// A C and a Rust source under the root that read a file beside the root: refused
/// before they build, the file's words withheld; one that reads only inside runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rooted_source_builds_reading_nothing_from_outside_the_root() {
    let projects = Projects::new("sources");
    let secret = "top secret words of the host";
    projects.write("outside/secret.h", &format!("{secret}\n"));
    projects.write("outside/secret.rs", &format!("{secret}\n"));
    projects.write(
        "root/peek.c",
        "#include \"../outside/secret.h\"\nint main(void) { return 0; }\n",
    );
    projects.write(
        "root/peek.rs",
        "#[path = \"../outside/secret.rs\"]\nmod secret;\nfn main() {}\n",
    );
    projects.write("root/inside.h", "#define CODE 7\n");
    projects.write(
        "root/fine.c",
        "#include \"inside.h\"\n#include <stdio.h>\nint main(void) { return CODE; }\n",
    );
    let client = rooted_server(&projects.root()).await;
    for program in ["peek.c", "peek.rs"] {
        let err = client
            .fails("debug_launch", json!({ "program": program }), 500)
            .await;
        assert_eq!(err["kind"], "forbidden", "{program}: {err}");
        let said = err.to_string();
        assert!(
            said.contains("secret") && said.contains("outside the root"),
            "{err}"
        );
        assert!(
            !said.contains(secret),
            "{program}: the file's words leaked: {err}"
        );
    }
    let ran = client
        .ok(
            "debug_launch",
            json!({ "program": "fine.c", "timeout": 120 }),
        )
        .await;
    assert_eq!(ran["state"], "terminated", "{ran}");
    assert_eq!(ran["exit_code"], 7, "{ran}");
    assert!(client.close().await.success());
}
