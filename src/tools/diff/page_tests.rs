use super::*;
use crate::tools::diff::align::{align, Run};
use crate::tools::diff::test_rows::Script;
use serde_json::json;

fn side(id: &str, rows: usize) -> SideSummary {
    SideSummary {
        session_id: id.into(),
        program: Some("/p/prog.py".into()),
        end: "exited with code 0".into(),
        rows,
        calls_dropped: 0,
    }
}

/// The diff of two runs of `calls` calls each, whose arguments (`args` of
/// `value_chars` each) all differ.
fn kept(calls: usize, args: usize, value_chars: usize) -> KeptDiff {
    let make = |fill: char| {
        let value: String = std::iter::repeat_n(fill, value_chars).collect();
        let names: Vec<String> = (0..args).map(|n| format!("arg{n}")).collect();
        let pairs: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), value.as_str())).collect();
        (0..calls).fold(Script::default(), |s, _| s.call("f", &pairs).ret("1"))
    };
    let (a, b) = (make('a'), make('b'));
    KeptDiff {
        id: "d1".into(),
        owner: None,
        a: side("s1", a.rows.len()),
        b: side("s2", b.rows.len()),
        alignment: align(run(&a), run(&b)),
        keep: false,
        stopped: Vec::new(),
    }
}

fn run(script: &Script) -> Run<'_> {
    Run {
        rows: &script.rows,
        gaps: None,
        cut_short: None,
    }
}

fn bytes(page: &(Value, String)) -> usize {
    page.0.to_string().len() + page.1.len()
}

#[test]
fn a_page_shows_as_many_differences_as_fit_and_says_where_to_read_on() {
    let diff = kept(30, 4, 60);
    let page = page(&diff, 0, MAX_DIFFERENCES_A_PAGE, |t| t.to_string());
    assert!(bytes(&page) <= MAX_DIFF_RESULT_BYTES, "{}", bytes(&page));
    let shown = page.0["differences"].as_array().unwrap().len();
    assert!(shown > 1 && shown < MAX_DIFFERENCES_A_PAGE, "{shown}");
    assert_eq!(page.0["next_cursor"], shown);
    assert!(
        page.1.ends_with(&format!(
            "[{shown} of 30 differences shown: call debug.diff with diff_id=d1, cursor={shown} for more]"
        )),
        "{}",
        page.1
    );
}

#[test]
fn one_difference_too_big_alone_is_shortened_and_says_how_to_read_it_whole() {
    // Values cut at 200 chars fit.
    let diff = kept(2, 4, 1024);
    let shown = page(&diff, 0, 1, |t| t.to_string());
    assert!(bytes(&shown) <= MAX_DIFF_RESULT_BYTES, "{}", bytes(&shown));
    let value = shown.0["differences"][0]["a"]["values"]["arg0"]
        .as_str()
        .unwrap();
    assert_eq!(value.chars().count(), 201, "cut, with …");
    assert!(shown.1.contains("[shortened to fit 8 KiB"), "{}", shown.1);
    assert!(shown.1.contains("debug.trace"), "{}", shown.1);
    // Many values: at most eight a side, cut shorter, the rest counted.
    let diff = kept(2, 200, 1024);
    let page = page(&diff, 0, 1, |t| t.to_string());
    assert!(bytes(&page) <= MAX_DIFF_RESULT_BYTES, "{}", bytes(&page));
    let one = &page.0["differences"][0];
    assert_eq!(one["a"]["values"].as_object().unwrap().len(), 8, "{one}");
    assert_eq!(one["values_left_out"], 192, "{one}");
}

#[test]
fn a_shortened_difference_shows_only_the_values_that_differ() {
    let make = |last: &str| {
        let long = "x".repeat(1000);
        let mut args: Vec<(String, String)> = (0..12)
            .map(|n| (format!("same{n}"), long.clone()))
            .collect();
        args.push(("grams".into(), last.into()));
        let pairs: Vec<(&str, &str)> = args.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        Script::default().call("quote", &pairs).ret("1")
    };
    let (a, b) = (make("499"), make("500"));
    let diff = KeptDiff {
        alignment: align(run(&a), run(&b)),
        ..kept(0, 0, 0)
    };
    let page = page(&diff, 0, 1, |t| t.to_string());
    let one = &page.0["differences"][0];
    assert_eq!(one["a"]["values"], json!({ "grams": "499" }), "{one}");
    assert_eq!(one["b"]["values"], json!({ "grams": "500" }), "{one}");
    assert_eq!(one["values_left_out"], 12, "{one}");
}

#[test]
fn no_difference_says_how_many_rows_were_equal() {
    let mut diff = kept(2, 1, 1);
    diff.alignment.differences.clear();
    let page = page(&diff, 0, 1, |t| t.to_string());
    assert!(page.1.contains("no difference: the "), "{}", page.1);
    assert_eq!(page.0["total"], 0);
    assert!(page.0.get("next_cursor").is_none());
}
