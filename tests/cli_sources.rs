//! `dapvisor debug sum.c` (and `.cpp`, a single-file `.rs`) builds the source for
//! debugging into a folder of its own, stops at its breakpoints in the source, and
//! removes the folder at the end; a source that does not compile is a failed launch
//! that shows the compiler's messages. Real cc, c++, rustc and lldb-dap.

mod cli_support;

use std::path::Path;

use cli_support::*;
use tokio::process::Command;

const SUM_C: &str = "#include <stdio.h>\nint main(void) {\n    int xs[4] = {1, 2, 3, 4};\n    \
                     int total = 0;\n    for (int i = 0; i < 4; i++) total += xs[i];\n    \
                     printf(\"total %d\\n\", total);\n    return 3;\n}\n";

const SHELF_CPP: &str = "#include <iostream>\n#include <vector>\nint main() {\n    \
                         std::vector<int> shelf{5, 6};\n    int total = shelf[0] + shelf[1];\n    \
                         std::cout << \"total \" << total << std::endl;\n    return 3;\n}\n";

const GRADE_RS: &str = "fn main() {\n    let scores = vec![95, 85];\n    let total: u32 = \
                        scores.iter().sum();\n    println!(\"total {total}\");\n    \
                        std::process::exit(3);\n}\n";

/// `dapvisor debug ARGS` in `dir`, with `dir` as its temporary folder (where builds go).
async fn debug_in(dir: &Path, args: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dapvisor"));
    command
        .arg("debug")
        .args(args)
        .current_dir(dir)
        .env("TMPDIR", dir);
    run(&mut command, args).await
}

/// The build folders left in `dir`.
fn builds_left(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("dapvisor-build-"))
        .collect()
}

#[tokio::test]
async fn c_cpp_and_rust_sources_are_built_stop_in_their_source_and_leave_nothing() {
    for (name, text, line, local) in [
        ("sum.c", SUM_C, 6, "total = 10"),
        ("shelf.cpp", SHELF_CPP, 6, "total = 11"),
        ("grade.rs", GRADE_RS, 4, "total = 180"),
    ] {
        let dir = scratch(&format!("sources-{name}"));
        std::fs::write(dir.join(name), text).unwrap();
        let at = format!("{name}:{line}");
        let run = debug_in(&dir, &[name, "--break", &at]).await;
        let said = format!("{name}:\n{}\n{}", run.stdout, run.stderr);
        assert_eq!(run.code, Some(3), "{said}");
        assert!(run.stdout.contains(&format!("{name}:{line}")), "{said}");
        assert!(run.stdout.contains(local), "{said}");
        assert!(run.stdout.contains("total "), "{said}");
        assert!(
            builds_left(&dir).is_empty(),
            "{said}: {:?}",
            builds_left(&dir)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[tokio::test]
async fn a_source_that_does_not_compile_is_a_failed_launch_with_the_compilers_words() {
    let dir = scratch("sources-broken");
    std::fs::write(dir.join("bad.c"), "int main(void) { return nosuch; }\n").unwrap();
    std::fs::write(dir.join("bad.rs"), "fn main() { let x: u8 = nosuch; }\n").unwrap();
    for name in ["bad.c", "bad.rs"] {
        let run = debug_in(&dir, &[name]).await;
        let said = format!("{name}:\n{}\n{}", run.stdout, run.stderr);
        assert_eq!(run.code, Some(125), "{said}");
        assert!(run.stderr.contains("building"), "{said}");
        assert!(run.stderr.contains("nosuch"), "{said}");
        assert!(!run.stderr.contains("configurationDone"), "{said}");
        assert!(builds_left(&dir).is_empty(), "{said}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
