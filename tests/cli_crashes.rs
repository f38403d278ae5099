//! At a crash, `dapvisor debug` prints the backtrace and the innermost frame of the
//! program's own code with its locals, saying which frames it skipped: a Rust panic
//! under lldb-dap (which now stops on it), a Go panic under dlv (stopped in
//! `runtime.fatalpanic`), an `abort()` under lldb-dap (stopped in
//! `__pthread_kill_implementation`), and a Python `SyntaxError` (stopped in runpy),
//! whose own line is the one the error names. Real lldb-dap, dlv, debugpy, rustc, cc.

mod cli_support;

use cli_support::*;
use serde_json::Value;

const PANIC_RS: &str = "fn average(xs: &[u32]) -> u32 {\n    let total: u32 = xs.iter().sum();\n    \
                        let idx = xs.len();\n    let last = xs[idx];\n    total / last\n}\n\
                        fn main() {\n    let xs = vec![3, 4];\n    println!(\"avg {}\", average(&xs));\n}\n";

const PANIC_GO: &str = "package main\n\nimport \"fmt\"\n\nfunc pick(xs []int, i int) int {\n\
                        \treturn xs[i]\n}\n\nfunc main() {\n\txs := []int{1, 2}\n\tfmt.Println(pick(xs, 5))\n}\n";

const ABORT_C: &str = "#include <stdlib.h>\nint check(int n) {\n    if (n > 2) abort();\n    \
                       return n;\n}\nint main(void) {\n    int total = 0;\n    \
                       for (int i = 0; i < 5; i++) total += check(i);\n    return total;\n}\n";

#[tokio::test]
async fn a_crash_shows_the_backtrace_and_the_program_s_own_frame_with_its_locals() {
    let dir = scratch("crashes");
    std::fs::write(dir.join("panic.rs"), PANIC_RS).unwrap();
    std::fs::create_dir_all(dir.join("gop")).unwrap();
    std::fs::write(dir.join("gop/main.go"), PANIC_GO).unwrap();
    std::fs::write(dir.join("abort.c"), ABORT_C).unwrap();
    std::fs::write(dir.join("syn.py"), "def f(:\n    pass\n").unwrap();
    for (program, own, local) in [
        ("panic.rs", "average", "idx = 2"),
        ("gop/main.go", "main.pick", "i = 5"),
        ("abort.c", "check", "n = 3"),
    ] {
        let path = dir.join(program).display().to_string();
        let run = dapvisor(&["debug", &path, "--max-stops", "1"]).await;
        let said = format!("{program}:\n{}\n{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("crashed; backtrace"), "{said}");
        let own_line = run
            .stdout
            .lines()
            .find(|l| l.starts_with("your code: #"))
            .unwrap_or_else(|| panic!("no own frame: {said}"));
        assert!(own_line.contains(own), "{said}");
        assert!(own_line.contains("(skipped #0-#"), "{said}");
        assert!(run.stdout.contains("=> #"), "{said}");
        assert!(run.stdout.contains(local), "{said}");
        // --max-stops 1: said when reached.
        assert!(run.stderr.contains("--max-stops"), "{said}");

        let json = dapvisor(&["debug", &path, "--max-stops", "1", "--json"]).await;
        let stop: Value = json
            .stdout
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|o| o["event"] == "stop")
            .unwrap_or_else(|| panic!("no stop: {}", json.stdout));
        let at = stop["crash"]["own_frame"].as_u64().expect("an own frame") as usize;
        assert!(at > 0, "{stop}");
        let name = stop["crash"]["backtrace"][at]["name"].as_str().unwrap();
        assert!(name.contains(own), "{stop}");
    }
    let syn = dir.join("syn.py").display().to_string();
    let run = dapvisor(&["debug", &syn, "--max-stops", "1"]).await;
    let said = format!("{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("no frame of the backtrace is in the program's own code"),
        "{said}"
    );
    assert!(run.stdout.contains("syn.py:1"), "{said}");
    assert!(run.stdout.contains("->     1 | def f(:"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
