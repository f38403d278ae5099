use super::*;

fn log_with(capacity: usize, file: &str, line: i64, collect: &[&str]) -> (TraceLog, String) {
    let mut log = TraceLog::new(capacity);
    let collect: Vec<String> = collect.iter().map(|e| e.to_string()).collect();
    let template = log.template(PathBuf::from(file), line, &collect).unwrap();
    (log, template)
}

/// What an adapter prints for `template` with these values: each `{expr}` replaced,
/// in order, and a newline.
fn printed(template: &str, values: &[&str]) -> String {
    let mut out = String::new();
    let mut rest = template;
    for value in values {
        let open = rest.find('{').unwrap();
        let close = rest.find('}').unwrap();
        out.push_str(&rest[..open]);
        out.push_str(value);
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out.push('\n');
    out
}

fn values(row: &TraceRow) -> Vec<(&str, &str)> {
    row.values
        .iter()
        .map(|v| (v.expression.as_str(), v.value.as_str()))
        .collect()
}

#[test]
fn a_hit_becomes_a_row_and_leaves_the_programs_text_alone() {
    let (mut log, template) = log_with(10, "cart.py", 7, &["total", "item.price"]);
    let text = format!("before\n{}after\n", printed(&template, &["41", "3.5"]));
    let (left, hits) = log.take_rows("console", &text);
    assert_eq!(left, "before\nafter\n");
    assert_eq!(hits, [(PathBuf::from("cart.py"), 7)]);
    let slice = log.read_since(0, 10);
    let row = &slice.rows[0];
    assert_eq!((row.index, row.hit, row.line, row.thread), (0, 1, 7, None));
    assert_eq!(values(row), [("total", "41"), ("item.price", "3.5")]);
    assert_eq!((slice.next, slice.more, slice.missed), (1, false, 0));
}

#[test]
fn values_holding_newlines_braces_and_other_sessions_marks_read_back_whole() {
    let (mut log, template) = log_with(10, "a.go", 3, &["s", "m"]);
    let (_, other) = log_with(10, "a.go", 3, &["x"]);
    let strange = format!("line one\nline two {{}} {}", printed(&other, &["9"]));
    let (left, _) = log.take_rows("stdout", &printed(&template, &[&strange, "@@"]));
    assert_eq!(left, "");
    let rows = log.read_since(0, 10).rows;
    assert_eq!(values(&rows[0]), [("s", strange.as_str()), ("m", "@@")]);
}

#[test]
fn a_row_split_across_pieces_of_output_waits_for_its_end() {
    let (mut log, template) = log_with(10, "m.c", 12, &["i"]);
    let whole = printed(&template, &["5"]);
    let (first, second) = whole.split_at(whole.len() / 2);
    let (left, hits) = log.take_rows("console", &format!("x{first}"));
    assert_eq!((left.as_str(), hits.len()), ("x", 0));
    // Another category's text is not mixed in.
    assert_eq!(log.take_rows("stdout", "y").0, "y");
    let (left, hits) = log.take_rows("console", &format!("{second}z"));
    assert_eq!((left.as_str(), hits.len()), ("z", 1));
    assert_eq!(values(&log.read_since(0, 1).rows[0]), [("i", "5")]);
}

/// Issue 27, item 6: a row held per category, in categories the adapter names, grew
/// without bound; past the named number of categories a begun row is text.
#[test]
fn rows_wait_for_their_end_in_a_bounded_number_of_categories() {
    let (mut log, template) = log_with(10, "m.c", 12, &["i"]);
    let whole = printed(&template, &["5"]);
    let (first, _) = whole.split_at(whole.len() / 2);
    for n in 0..limits::MAX_TRACE_PENDING_CATEGORIES {
        let (left, _) = log.take_rows(&format!("own{n}"), first);
        assert_eq!(left, "", "held in category {n}");
    }
    let (left, hits) = log.take_rows("one-more", first);
    assert_eq!(
        (left.as_str(), hits.len()),
        (first, 0),
        "given back as text"
    );
    assert_eq!(log.partial.len(), limits::MAX_TRACE_PENDING_CATEGORIES);
}

#[test]
fn hits_are_counted_per_tracepoint() {
    let mut log = TraceLog::new(10);
    let a = log.template("f.py".into(), 1, &["a".into()]).unwrap();
    let b = log.template("f.py".into(), 2, &["b".into()]).unwrap();
    let again = log.template("f.py".into(), 1, &["a".into()]).unwrap();
    assert_eq!(a, again, "the same tracepoint keeps its template");
    let text = [&a, &b, &a].map(|t| printed(t, &["0"])).concat();
    log.take_rows("console", &text);
    let rows = log.read_since(0, 10).rows;
    let hits: Vec<(i64, u64)> = rows.iter().map(|r| (r.line, r.hit)).collect();
    assert_eq!(hits, [(1, 1), (2, 1), (1, 2)]);
}

/// Issue 27, item 7: `read_since(since, 0)` answered no rows with `more: true`, so a
/// loop that reads while `more` never ended. A read hands over at least one row when
/// one waits, as a read of output hands over at least one character.
#[test]
fn a_read_of_zero_rows_still_moves_a_reader_on() {
    let (mut log, template) = log_with(10, "f.py", 1, &["i"]);
    for i in 0..3 {
        log.take_rows("console", &printed(&template, &[&i.to_string()]));
    }
    let (mut since, mut reads, mut rows) = (0, 0, 0);
    loop {
        let slice = log.read_since(since, 0);
        reads += 1;
        rows += slice.rows.len();
        assert!(reads <= 3, "a read-while-more loop does not end");
        since = slice.next;
        if !slice.more {
            break;
        }
    }
    assert_eq!((reads, rows, since), (3, 3, 3));
    // At the end, nothing to hand over: no row, no more, the cursor where it was.
    let end = log.read_since(u64::MAX, 0);
    assert_eq!((end.rows.len(), end.more, end.next), (0, false, 3));
}

#[test]
fn past_the_bound_the_oldest_rows_go_and_a_reader_learns_how_many_it_missed() {
    let (mut log, template) = log_with(3, "f.py", 1, &["i"]);
    for i in 0..5 {
        log.take_rows("console", &printed(&template, &[&i.to_string()]));
    }
    let slice = log.read_since(0, 2);
    assert_eq!((slice.missed, slice.dropped, slice.more), (2, 2, true));
    assert_eq!(values(&slice.rows[0]), [("i", "2")]);
    let rest = log.read_since(slice.next, 10);
    assert_eq!(rest.rows.len(), 1);
    assert_eq!((rest.next, rest.more, rest.missed), (5, false, 0));
    assert_eq!(log.read_since(99, 10).next, 5, "a cursor past the end");
    assert_eq!(log.total(), 5);
}

#[test]
fn a_long_value_is_cut_on_a_character_boundary() {
    let (mut log, template) = log_with(1, "f.py", 1, &["s"]);
    let long = "é".repeat(limits::MAX_TRACE_VALUE_BYTES);
    log.take_rows("console", &printed(&template, &[&long]));
    let value = &log.read_since(0, 1).rows[0].values[0].value;
    assert!(value.ends_with('…') && value.len() <= limits::MAX_TRACE_VALUE_BYTES + 3);
}

#[test]
fn a_start_with_no_end_in_sight_is_text_after_all() {
    let (mut log, template) = log_with(1, "f.py", 1, &["s"]);
    let start = &template[..template.find('{').unwrap()];
    let flood = "x".repeat(limits::MAX_TRACE_PENDING_BYTES + 1);
    let (left, hits) = log.take_rows("console", &format!("{start}{flood}"));
    assert_eq!((left.len(), hits.len()), (start.len() + flood.len(), 0));
}

#[test]
fn expressions_that_cannot_go_in_a_template_are_refused_with_the_reason() {
    let mut log = TraceLog::new(1);
    let err = |collect: &[&str]| {
        let collect: Vec<String> = collect.iter().map(|e| e.to_string()).collect();
        log.clone()
            .template("f".into(), 1, &collect)
            .unwrap_err()
            .to_string()
    };
    assert!(err(&[]).contains("at least one"));
    assert!(err(&["{1: 2}"]).contains("no `{` or `}`"));
    assert!(err(&[" "]).contains("non-empty"));
    let many = vec!["x"; limits::MAX_TRACE_EXPRESSIONS + 1];
    assert!(err(&many).contains("at most 16"));
    assert!(log.template("f".into(), 1, &["x".into()]).is_ok());
}

#[test]
fn a_template_says_what_it_collects() {
    let (_, template) = log_with(1, "f.py", 1, &["total", "len(items)"]);
    assert_eq!(
        collected(&template),
        Some(vec!["total".to_string(), "len(items)".to_string()])
    );
    assert_eq!(collected("x is {x}"), None);
}

#[test]
fn a_row_whose_start_a_read_cut_is_still_a_row() {
    let (mut log, template) = log_with(10, "m.js", 3, &["i"]);
    let whole = printed(&template, &["7"]);
    // Cut inside the row's start marker: neither piece holds all of it.
    let (first, second) = whole.split_at(3);
    let (left, hits) = log.take_rows("stdout", &format!("x{first}"));
    assert_eq!((left.as_str(), hits.len()), ("x", 0));
    let (left, hits) = log.take_rows("stdout", &format!("{second}z"));
    assert_eq!((left.as_str(), hits.len()), ("z", 1));
    assert_eq!(values(&log.read_since(0, 1).rows[0]), [("i", "7")]);
    // Text that only looks like a start's beginning comes out with what follows.
    assert_eq!(log.take_rows("stdout", "@").0, "");
    assert_eq!(log.take_rows("stdout", "@ plain\n").0, "@@ plain\n");
}
