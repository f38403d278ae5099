use super::*;
use crate::tools::diff::test_rows::Script;

fn run(script: &Script) -> Run<'_> {
    Run {
        rows: &script.rows,
        gaps: None,
        cut_short: None,
    }
}

#[test]
fn equal_runs_have_no_difference() {
    let make = || Script::default().leaf("f", "1", "2").leaf("f", "2", "4");
    let (a, b) = (make(), make());
    let aligned = align(run(&a), run(&b));
    assert_eq!((aligned.matched, aligned.differences.len()), (4, 0));
}

#[test]
fn the_first_difference_is_a_value_with_its_path_and_the_rows_matched_before_it() {
    let make = |band: &str| {
        Script::default()
            .leaf("price", "120", "small")
            .call("quote", &[("grams", "500")])
            .leaf("band", "500", band)
            .ret("1")
    };
    let (a, b) = (make("small"), make("large"));
    let aligned = align(run(&a), run(&b));
    assert_eq!(aligned.differences.len(), 1);
    let first = &aligned.differences[0];
    assert_eq!(first.kind, Kind::Values);
    assert_eq!(first.key.path_text(), "quote#1 > band#1");
    assert_eq!(first.key.what, What::Return);
    assert_eq!(
        first.matched_before, 4,
        "price's two rows, quote's and band's calls"
    );
    assert_eq!(content(first.a.as_ref().unwrap())[0].1, "small");
    assert_eq!(content(first.b.as_ref().unwrap())[0].1, "large");
    assert_eq!(first.function(), Some("band"));
    assert_eq!(first.unsure, None);
}

#[test]
fn calls_in_a_loop_align_by_ordinal_and_a_missing_call_is_one_sides_alone() {
    // b makes one call of f fewer, in the middle: the calls after it are the same
    // ordinals shifted, which is what a run that called f once less looks like.
    let a = Script::default()
        .leaf("f", "1", "1")
        .leaf("f", "2", "2")
        .leaf("g", "0", "0");
    let b = Script::default().leaf("f", "1", "1").leaf("g", "0", "0");
    let aligned = align(run(&a), run(&b));
    let kinds: Vec<(Kind, String, What)> = aligned
        .differences
        .iter()
        .map(|d| (d.kind, d.key.path_text(), d.key.what.clone()))
        .collect();
    assert_eq!(
        kinds,
        [
            (Kind::OnlyIn(Side::A), "f#2".into(), What::Call),
            (Kind::OnlyIn(Side::A), "f#2".into(), What::Return),
        ]
    );
    assert_eq!(aligned.matched, 4);
    assert_eq!(aligned.differences[0].matched_before, 2);
}

#[test]
fn recursion_is_a_path_of_the_same_function_and_a_deeper_level_is_one_sides_alone() {
    let a = Script::default()
        .call("layers", &[("n", "2")])
        .call("layers", &[("n", "1")])
        .leaf("layers", "0", "0")
        .ret("1")
        .ret("2");
    let b = Script::default()
        .call("layers", &[("n", "2")])
        .call("layers", &[("n", "1")])
        .ret("0")
        .ret("1");
    let aligned = align(run(&a), run(&b));
    let first = &aligned.differences[0];
    // The second level's call matches; the third level is a's alone, and then both
    // levels' returns differ.
    assert_eq!(first.kind, Kind::OnlyIn(Side::A));
    assert_eq!(first.key.path_text(), "layers#1 > layers#1 > layers#1");
    assert_eq!(first.matched_before, 2);
    let last = aligned.differences.last().unwrap();
    assert_eq!(last.kind, Kind::Values);
    assert_eq!(last.key.path_text(), "layers#1");
}

#[test]
fn a_branch_taken_on_one_side_shows_both_sides_rows_alone() {
    let a = Script::default()
        .call("quote", &[("grams", "499")])
        .leaf("small_price", "499", "998")
        .ret("998");
    let b = Script::default()
        .call("quote", &[("grams", "499")])
        .leaf("large_price", "499", "1497")
        .ret("1497");
    let aligned = align(run(&a), run(&b));
    let kinds: Vec<(Kind, String)> = aligned
        .differences
        .iter()
        .map(|d| (d.kind, d.key.path_text()))
        .collect();
    assert_eq!(
        kinds,
        [
            (Kind::OnlyIn(Side::A), "quote#1 > small_price#1".into()),
            (Kind::OnlyIn(Side::A), "quote#1 > small_price#1".into()),
            (Kind::OnlyIn(Side::B), "quote#1 > large_price#1".into()),
            (Kind::OnlyIn(Side::B), "quote#1 > large_price#1".into()),
            (Kind::Values, "quote#1".into()),
        ]
    );
}

#[test]
fn tracepoint_rows_at_one_line_align_by_hit_inside_their_call() {
    let a = Script::default()
        .call("total", &[])
        .point("/a/prog.py", 7, &[("t", "1")])
        .point("/a/prog.py", 7, &[("t", "3")])
        .ret("3");
    // The same program at another path (a copy before a change): same file name.
    let b = Script::default()
        .call("total", &[])
        .point("/b/prog.py", 7, &[("t", "1")])
        .point("/b/prog.py", 7, &[("t", "4")])
        .ret("4");
    let aligned = align(run(&a), run(&b));
    let first = &aligned.differences[0];
    assert_eq!(first.kind, Kind::Values);
    assert_eq!(
        first.key.what,
        What::Point {
            file: "prog.py".into(),
            line: 7,
            ordinal: 2
        }
    );
    assert_eq!(first.key.path_text(), "total#1");
    assert_eq!(first.matched_before, 2);
}

#[test]
fn equal_redactions_are_equal_and_different_ones_differ() {
    let hidden = "«redacted: named-secret, 8 chars»";
    let a = Script::default().leaf("connect", hidden, "ok");
    let b = Script::default().leaf("connect", hidden, "ok");
    assert!(align(run(&a), run(&b)).differences.is_empty());
    let c = Script::default().leaf("connect", "«redacted: named-secret, 9 chars»", "ok");
    assert_eq!(align(run(&a), run(&c)).differences.len(), 1);
}

#[test]
fn a_side_with_calls_left_unrecorded_makes_every_difference_unsure() {
    let a = Script::default().leaf("f", "1", "1").leaf("f", "2", "2");
    let b = Script::default().leaf("f", "2", "2");
    let mut runs = (run(&a), run(&b));
    runs.1.gaps = Some("1 call left unrecorded (the rate cap)");
    let aligned = align(runs.0, runs.1);
    let first = &aligned.differences[0];
    assert_eq!(first.kind, Kind::Values, "f#1 reads 1 against 2");
    assert!(
        first
            .unsure
            .as_deref()
            .unwrap()
            .starts_with("b: 1 call left"),
        "{first:?}"
    );
}

#[test]
fn rows_past_a_side_cut_short_are_said_to_be_missing_not_different() {
    let a = Script::default().leaf("f", "1", "1").leaf("g", "2", "2");
    let b = Script::default().call("f", &[("x", "1")]);
    let mut runs = (run(&a), run(&b));
    runs.1.cut_short = Some("stopped at an exception");
    let aligned = align(runs.0, runs.1);
    assert_eq!(aligned.matched, 1);
    assert!(aligned
        .differences
        .iter()
        .all(|d| d.kind == Kind::OnlyIn(Side::A)
            && d.unsure.as_deref() == Some("b stopped at an exception")));
}

#[test]
fn the_same_calls_in_another_order_compare_each_with_its_partner() {
    let a = Script::default().leaf("f", "1", "1").leaf("g", "1", "1");
    let b = Script::default().leaf("g", "1", "1").leaf("f", "1", "9");
    let aligned = align(run(&a), run(&b));
    assert_eq!(aligned.matched, 3);
    assert_eq!(aligned.differences.len(), 1);
    assert_eq!(aligned.differences[0].key.path_text(), "f#1");
    assert_eq!(aligned.differences[0].key.what, What::Return);
}

#[test]
fn a_return_whose_call_row_is_missing_still_aligns() {
    let mut a = Script::default().leaf("f", "1", "1");
    a.rows.remove(0);
    let b = Script::default().leaf("f", "1", "2");
    let aligned = align(run(&a), run(&b));
    let kinds: Vec<Kind> = aligned.differences.iter().map(|d| d.kind).collect();
    assert_eq!(
        kinds,
        [
            Kind::OnlyIn(Side::A),
            Kind::OnlyIn(Side::B),
            Kind::OnlyIn(Side::B)
        ]
    );
}

/// `weigh` of right.py and `weigh` of left.py (under `dir`), called in turn with
/// `xs`: right's first, then left's, and so on.
fn weighs(dir: &str, xs: &[&str]) -> Script {
    let mut script = Script::default();
    for (n, x) in xs.iter().enumerate() {
        let file = if n % 2 == 0 { "right.py" } else { "left.py" };
        script = script
            .call_in(&format!("{dir}/{file}"), "weigh", &[("x", x)])
            .ret(x);
    }
    script
}

#[test]
fn two_functions_of_one_name_in_two_files_are_counted_apart() {
    let a = weighs("/p", &["1", "2", "3", "4"]);
    let b = weighs("/p", &["1", "2", "3", "5"]);
    let aligned = align(run(&a), run(&b));
    let first = &aligned.differences[0];
    assert_eq!(first.key.what, What::Call);
    let step = first.key.path.last().unwrap();
    assert_eq!((step.file.as_str(), step.ordinal), ("left.py", 2));
    assert_eq!(
        first.key.path_text(),
        "weigh#2",
        "left.py's 2nd, not the 4th weigh"
    );
}

#[test]
fn a_call_of_a_same_named_function_one_run_lacks_leaves_the_other_file_aligned() {
    // b never calls right.py's weigh: left.py's calls still align with a's.
    let a = weighs("/p", &["1", "2"]);
    let b = Script::default()
        .call_in("/p/left.py", "weigh", &[("x", "2")])
        .ret("2");
    let aligned = align(run(&a), run(&b));
    let differences: Vec<(Kind, String)> = aligned
        .differences
        .iter()
        .map(|d| (d.kind, d.key.path.last().unwrap().file.clone()))
        .collect();
    assert_eq!(
        differences,
        [
            (Kind::OnlyIn(Side::A), "right.py".into()),
            (Kind::OnlyIn(Side::A), "right.py".into()),
        ]
    );
    assert_eq!(aligned.matched, 2, "left.py's call and return");
}

#[test]
fn copies_of_a_program_at_two_paths_align_by_file_name() {
    let a = weighs("/before", &["1", "2"]);
    let b = weighs("/after", &["1", "2"]);
    let aligned = align(run(&a), run(&b));
    assert_eq!((aligned.matched, aligned.differences.len()), (4, 0));
}
