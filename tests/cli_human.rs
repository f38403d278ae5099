//! What `dapvisor debug` prints for a person: containers with a bounded preview of
//! their first elements (a C array, a JavaScript array of objects) instead of `int[4]`
//! or `(2) [{…}, {…}]`, no frame ids or variables references (`--json` keeps them),
//! `--break 'FILE:LINE if EXPR'` stopping only where EXPR holds, and `--max-stops`
//! saying it was reached and how to narrow. Real lldb-dap, js-debug and cc.

mod cli_support;

use cli_support::*;
use serde_json::Value;

const LOOP_C: &str = "#include <stdio.h>\nstruct point { int x; int y; };\nint main(void) {\n    \
                      int xs[4] = {1, 2, 3, 4};\n    struct point p = {5, 6};\n    int total = 0;\n    \
                      for (int i = 0; i < 4; i++) {\n        total += xs[i] * p.x;\n    }\n    \
                      printf(\"total %d\\n\", total);\n    return 0;\n}\n";

const ITEMS_JS: &str = "const items = [{ id: 1, qty: 2 }, { id: 2, qty: 5 }];\nlet total = 0;\n\
                        for (const it of items) total += it.qty;\nconsole.log(total);\n";

#[tokio::test]
async fn stops_read_as_a_person_wants_them() {
    let dir = scratch("human");
    std::fs::write(dir.join("loop.c"), LOOP_C).unwrap();
    std::fs::write(dir.join("items.js"), ITEMS_JS).unwrap();
    let program = dir.join("loop.c").display().to_string();
    let at = format!("{}:8 if i == 2", dir.join("loop.c").display());
    let run = dapvisor(&["debug", &program, "--break", &at]).await;
    let said = format!("{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.code, Some(0), "{said}");
    assert_eq!(
        run.stdout.matches("stopped (breakpoint)").count(),
        1,
        "{said}"
    );
    assert!(run.stdout.contains("  i = 2 (int)"), "{said}");
    assert!(
        run.stdout.contains("  xs = [1, 2, 3, 4] (int[4])"),
        "{said}"
    );
    assert!(run.stdout.contains("  p = {x: 5, y: 6}"), "{said}");
    assert!(!run.stdout.contains("variables_reference"), "{said}");
    assert!(!run.stdout.contains(", frame "), "{said}");

    // --json keeps the ids an agent reads on with.
    let json = dapvisor(&["debug", &program, "--break", &at, "--json"]).await;
    let stop: Value = json
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|o| o["event"] == "stop")
        .unwrap_or_else(|| panic!("no stop: {}", json.stdout));
    assert!(stop["frame_id"].is_i64(), "{stop}");
    let xs = stop["locals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == "xs");
    assert!(
        xs.unwrap()["variables_reference"].as_i64().unwrap() > 0,
        "{stop}"
    );

    // Every pass of the loop: --max-stops ends the run and says how to narrow.
    let every = format!("{}:8", dir.join("loop.c").display());
    let run = dapvisor(&["debug", &program, "--break", &every, "--max-stops", "2"]).await;
    let said = format!("{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout.matches("stopped (breakpoint)").count(),
        2,
        "{said}"
    );
    assert!(run.stderr.contains("the most --max-stops allows"), "{said}");
    assert!(run.stderr.contains("--break 'FILE:LINE if EXPR'"), "{said}");

    let items = dir.join("items.js").display().to_string();
    let end = format!("{items}:4");
    let run = dapvisor(&["debug", &items, "--break", &end]).await;
    let said = format!("{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("  items = [{id: 1, qty: 2}, {id: 2, qty: 5}] (Array)"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
