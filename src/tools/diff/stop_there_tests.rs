use std::path::Path;

use serde_json::json;

use super::*;
use crate::tools::diff::align::{align, Run};
use crate::tools::diff::test_rows::Script;

fn run(script: &Script) -> Run<'_> {
    Run {
        rows: &script.rows,
        gaps: None,
        cut_short: None,
    }
}

/// The shipping program's two inputs: the second parcel's quote differs.
fn shipping(grams: &str, rate: &str) -> Script {
    Script::default()
        .call("quote", &[("grams", "120")])
        .leaf("band", "120", "small")
        .leaf("small_rate", "120", "240")
        .ret("240")
        .call("quote", &[("grams", grams)])
        .leaf("band", grams, "x")
        .leaf(rate, grams, "0")
        .ret("0")
}

#[test]
fn a_call_that_differs_stops_each_side_at_that_call_by_its_hit_count() {
    let (a, b) = (shipping("499", "small_rate"), shipping("500", "large_rate"));
    let aligned = align(run(&a), run(&b));
    let first = &aligned.differences[0];
    let point = stop_point(first, Side::A, &a.rows).unwrap();
    assert_eq!(point.breakpoint, json!({ "function": "quote" }));
    assert_eq!(point.n, 2);
    assert_eq!(point.says, "the 2nd call of quote");
    assert!(point.counts("quote", Some(Path::new("/p/prog.py")), 10));
    assert_eq!(stop_point(first, Side::B, &b.rows).unwrap(), point);
}

#[test]
fn a_return_stops_at_its_calls_entry_and_a_side_lacking_a_call_where_the_runs_parted() {
    let (a, b) = (shipping("499", "small_rate"), shipping("499", "large_rate"));
    let aligned = align(run(&a), run(&b));
    // small_rate#1 inside quote#2 is a's alone; b made quote#2 and parted there.
    let first = &aligned.differences[0];
    assert_eq!(first.key.path_text(), "quote#2 > small_rate#1");
    let a_point = stop_point(first, Side::A, &a.rows).unwrap();
    assert_eq!(a_point.says, "the 2nd call of small_rate");
    let b_point = stop_point(first, Side::B, &b.rows).unwrap();
    assert_eq!(b_point.says, "the 2nd call of quote");
    // quote#2's return differs last: both stop at its entry.
    let last = aligned.differences.last().unwrap();
    assert_eq!(last.key.what, What::Return);
    assert_eq!(
        stop_point(last, Side::A, &a.rows).unwrap().says,
        "the 2nd call of quote"
    );
}

#[test]
fn a_tracepoint_row_stops_at_the_nth_pass_of_its_line_and_a_top_level_row_has_no_call() {
    let a = Script::default()
        .point("/p/prog.py", 7, &[("t", "1")])
        .point("/p/prog.py", 7, &[("t", "3")]);
    let b = Script::default()
        .point("/p/prog.py", 7, &[("t", "1")])
        .point("/p/prog.py", 7, &[("t", "4")]);
    let aligned = align(run(&a), run(&b));
    let point = stop_point(&aligned.differences[0], Side::B, &b.rows).unwrap();
    assert_eq!(point.breakpoint, json!({ "file": "/p/prog.py", "line": 7 }));
    assert_eq!(point.n, 2);
    assert_eq!(point.says, "the 2nd pass of prog.py:7");
    assert!(point.counts("f", Some(Path::new("/p/prog.py")), 7));
    assert!(!point.counts("f", Some(Path::new("/p/prog.py")), 8));
    let lone = Script::default().leaf("f", "1", "1");
    let none = Script::default();
    let aligned = align(run(&lone), run(&none));
    assert_eq!(
        stop_point(&aligned.differences[0], Side::B, &none.rows),
        None
    );
}

#[test]
fn a_function_is_counted_in_its_own_file_not_by_its_name_alone() {
    // weigh in right.py and weigh in left.py, called in turn; the runs differ at the
    // second call of left.py's.
    let weighs = |x: &str| {
        Script::default()
            .call_in("/p/right.py", "weigh", &[("x", "1")])
            .ret("1")
            .call_in("/p/left.py", "weigh", &[("x", "2")])
            .ret("2")
            .call_in("/p/right.py", "weigh", &[("x", "3")])
            .ret("3")
            .call_in("/p/left.py", "weigh", &[("x", x)])
            .ret(x)
    };
    let (a, b) = (weighs("4"), weighs("5"));
    let aligned = align(run(&a), run(&b));
    let point = stop_point(&aligned.differences[0], Side::B, &b.rows).unwrap();
    assert_eq!(
        point.n, 2,
        "the 2nd call of left.py's weigh, not the 4th weigh"
    );
    assert_eq!(point.says, "the 2nd call of weigh");
    let (left, right) = (Path::new("/p/left.py"), Path::new("/p/right.py"));
    assert!(point.counts("weigh", Some(left), 10));
    assert!(!point.counts("weigh", Some(right), 10));
    assert!(!point.counts("weigh", None, 10));
    assert!(!point.counts("other", Some(left), 10));
}

#[test]
fn ordinals_read_as_words_do() {
    let said: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(nth).to_vec();
    assert_eq!(
        said,
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
    );
}
