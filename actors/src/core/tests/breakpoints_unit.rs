//! The breakpoint cache's own tests: lists replaced and edited, removal by the line
//! asked for or the line landed on, the limit, and answers paired with what was sent.

use super::*;

fn bp(line: i64) -> SourceBreakpoint {
    SourceBreakpoint {
        line,
        ..SourceBreakpoint::default()
    }
}

fn lines(args: &SetBreakpointsArguments) -> Vec<i64> {
    args.breakpoints
        .as_ref()
        .unwrap()
        .iter()
        .map(|b| b.line)
        .collect()
}

#[test]
fn adding_one_breakpoint_sends_the_whole_file_list() {
    let mut cache = BreakpointCache::new(10);
    let f = Path::new("/src/a.py");
    cache.add(f, bp(3)).unwrap();
    cache.add(f, bp(9)).unwrap();
    assert_eq!(lines(&cache.arguments_for(f)), vec![3, 9]);
    assert_eq!(
        cache.arguments_for(f).source.path.as_deref(),
        Some("/src/a.py")
    );
}

#[test]
fn adding_at_the_same_line_replaces() {
    let mut cache = BreakpointCache::new(10);
    let f = Path::new("a.py");
    cache.add(f, bp(3)).unwrap();
    let mut conditional = bp(3);
    conditional.condition = Some("x > 1".into());
    cache.add(f, conditional).unwrap();
    let args = cache.arguments_for(f);
    let list = args.breakpoints.unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].condition.as_deref(), Some("x > 1"));
}

#[test]
fn removing_keeps_the_others_and_clearing_still_names_the_file() {
    let mut cache = BreakpointCache::new(10);
    let f = Path::new("a.py");
    cache.set_file(f, vec![bp(1), bp(2), bp(3)]).unwrap();
    assert!(cache.remove(f, 2));
    assert!(!cache.remove(f, 2));
    assert_eq!(lines(&cache.arguments_for(f)), vec![1, 3]);
    cache.set_file(f, vec![]).unwrap();
    assert_eq!(cache.files().collect::<Vec<_>>(), vec![f]);
    assert!(lines(&cache.arguments_for(f)).is_empty());
    // Once the adapter answered the clearing, the file is forgotten: a restarted
    // adapter is not sent every file ever set (issue 27, item 6).
    cache.record_file_result(f, &[], Vec::new());
    assert_eq!(cache.files().count(), 0);
}

#[test]
fn a_clearing_answered_after_a_new_list_leaves_the_new_list() {
    let mut cache = BreakpointCache::new(10);
    let f = Path::new("a.py");
    cache.set_file(f, vec![]).unwrap();
    cache.add(f, bp(7)).unwrap();
    cache.record_file_result(f, &[], Vec::new());
    assert_eq!(lines(&cache.arguments_for(f)), vec![7]);
}

#[test]
fn removing_by_the_line_the_adapter_moved_it_to() {
    let mut cache = BreakpointCache::new(10);
    let f = Path::new("a.c");
    cache.add(f, bp(4)).unwrap();
    cache.record_file_result(
        f,
        &cache.requested(f),
        vec![Breakpoint {
            id: Some(1),
            verified: true,
            line: Some(6),
            ..Breakpoint::default()
        }],
    );
    assert!(cache.remove(f, 6));
    assert!(cache.file(f).is_empty());
}

/// Breakpoints asked for at lines `asked`, both placed by the adapter on line 6.
fn two_on_line_six(asked: [i64; 2]) -> (BreakpointCache, &'static Path) {
    let mut cache = BreakpointCache::new(10);
    let f = Path::new("a.c");
    cache.set_file(f, asked.map(bp).to_vec()).unwrap();
    let placed = |id| Breakpoint {
        id: Some(id),
        verified: true,
        line: Some(6),
        ..Breakpoint::default()
    };
    cache.record_file_result(f, &cache.requested(f), vec![placed(1), placed(2)]);
    (cache, f)
}

#[test]
fn removing_a_line_prefers_the_breakpoint_asked_for_there() {
    let (mut cache, f) = two_on_line_six([4, 6]);
    assert!(cache.remove(f, 6));
    // The one asked for at 4 and moved to 6 stays.
    assert_eq!(lines(&cache.arguments_for(f)), vec![4]);
    // Now only the moved one is on 6: it goes by its landing line.
    assert!(cache.remove(f, 6));
    assert!(cache.file(f).is_empty());
    assert!(!cache.remove(f, 6));
}

#[test]
fn removing_by_a_moved_line_removes_one_breakpoint_only() {
    let (mut cache, f) = two_on_line_six([3, 4]);
    assert!(cache.remove(f, 6));
    // One breakpoint per removal: the first that landed there.
    assert_eq!(lines(&cache.arguments_for(f)), vec![4]);
}

#[test]
fn removing_by_the_requested_line_leaves_one_moved_onto_another_line() {
    let (mut cache, f) = two_on_line_six([4, 6]);
    assert!(cache.remove(f, 4));
    assert_eq!(lines(&cache.arguments_for(f)), vec![6]);
}

#[test]
fn the_limit_counts_every_kind_together() {
    let mut cache = BreakpointCache::new(3);
    let f = Path::new("a.go");
    cache.set_file(f, vec![bp(1), bp(2)]).unwrap();
    cache.set_exception_filters(vec!["raised".into()]).unwrap();
    let err = cache.add(f, bp(5)).unwrap_err();
    assert!(matches!(err, SessionError::LimitExceeded { limit: 3, .. }));
    // Replacing in place does not grow the count.
    cache.add(f, bp(2)).unwrap();
    assert!(cache
        .set_functions(vec![FunctionBreakpoint {
            name: "main.add".into(),
            ..FunctionBreakpoint::default()
        }])
        .is_err());
}

#[test]
fn source_verdicts_go_to_the_breakpoints_they_were_sent_for() {
    let mut cache = BreakpointCache::new(10);
    let f = Path::new("a.c");
    cache.set_file(f, vec![bp(3), bp(5)]).unwrap();
    let sent = cache.requested(f);
    // While the answer for [3, 5] is out, 3 is removed and 8 added.
    cache.remove(f, 3);
    cache.add(f, bp(8)).unwrap();
    let verdict = |id| Breakpoint {
        id: Some(id),
        verified: true,
        ..Breakpoint::default()
    };
    cache.record_file_result(f, &sent, vec![verdict(1), verdict(2)]);
    let ids: Vec<(i64, Option<i64>)> = cache
        .file(f)
        .iter()
        .map(|r| (r.requested.line, r.actual.as_ref().and_then(|a| a.id)))
        .collect();
    assert_eq!(ids, vec![(5, Some(2)), (8, None)], "8 has no answer yet");
}

#[test]
fn function_verdicts_go_to_the_functions_they_were_sent_for() {
    let mut cache = BreakpointCache::new(10);
    let f = |name: &str| FunctionBreakpoint {
        name: name.into(),
        ..FunctionBreakpoint::default()
    };
    cache.add_function(f("a")).unwrap();
    cache.add_function(f("b")).unwrap();
    let sent = cache.function_names();
    // While the answer for [a, b] is out, `a` is removed and `c` added.
    cache.remove_function("a");
    cache.add_function(f("c")).unwrap();
    let verdict = |id| Breakpoint {
        id: Some(id),
        verified: true,
        ..Breakpoint::default()
    };
    cache.record_function_result(&sent, vec![verdict(1), verdict(2)]);
    let ids: Vec<Option<i64>> = cache
        .functions()
        .iter()
        .map(|r| r.actual.as_ref().and_then(|a| a.id))
        .collect();
    assert_eq!(
        ids,
        vec![Some(2), None],
        "b keeps its own id; c has none yet"
    );
}

#[test]
fn breakpoint_events_update_the_record_by_id() {
    let mut cache = BreakpointCache::new(10);
    let f = Path::new("a.py");
    cache.add(f, bp(7)).unwrap();
    let unverified = Breakpoint {
        id: Some(4),
        verified: false,
        line: Some(7),
        ..Breakpoint::default()
    };
    cache.record_file_result(f, &cache.requested(f), vec![unverified.clone()]);
    let verified = Breakpoint {
        verified: true,
        ..unverified
    };
    assert!(cache.apply_event("changed", &verified));
    assert!(cache.file(f)[0].actual.as_ref().unwrap().verified);
    assert!(!cache.apply_event(
        "changed",
        &Breakpoint {
            id: Some(99),
            ..Breakpoint::default()
        }
    ));
}

#[test]
fn a_changed_breakpoint_under_a_new_id_is_matched_by_file_and_line_when_unverified() {
    // JdiDapServer answers a breakpoint in a class not loaded yet unverified, as id 1,
    // and sets it once the class loads as id 2.
    let mut cache = BreakpointCache::new(10);
    let f = Path::new("/src/Shop.java");
    cache.set_file(f, vec![bp(9), bp(12)]).unwrap();
    let pending = |id, line| Breakpoint {
        id: Some(id),
        verified: false,
        line: Some(line),
        ..Breakpoint::default()
    };
    cache.record_file_result(f, &[bp(9), bp(12)], vec![pending(1, 9), pending(3, 12)]);
    let set_at = |id, line, path: &str| Breakpoint {
        source: Some(Source {
            path: Some(path.into()),
            ..Source::default()
        }),
        ..answered(id, line)
    };
    assert!(cache.apply_event("changed", &set_at(2, 9, "/src/Shop.java")));
    assert_eq!(cache.file(f)[0].actual.as_ref().unwrap().id, Some(2));
    assert!(cache.file(f)[0].actual.as_ref().unwrap().verified);
    assert!(!cache.file(f)[1].actual.as_ref().unwrap().verified);
    // Nothing unverified at that line or in that file: nothing is taken.
    assert!(!cache.apply_event("changed", &set_at(4, 9, "/src/Shop.java")));
    assert!(!cache.apply_event("changed", &set_at(5, 12, "/src/Other.java")));
    assert!(!cache.apply_event("new", &set_at(6, 12, "/src/Shop.java")));
    assert_eq!(cache.file(f)[1].actual.as_ref().unwrap().id, Some(3));
}

fn answered(id: i64, line: i64) -> Breakpoint {
    Breakpoint {
        id: Some(id),
        verified: true,
        line: Some(line),
        ..Breakpoint::default()
    }
}

#[test]
fn a_stop_counts_a_hit_of_the_breakpoints_it_names_and_a_new_run_starts_from_none() {
    let mut cache = BreakpointCache::new(10);
    let f = Path::new("/src/a.py");
    cache.set_file(f, vec![bp(3), bp(9)]).unwrap();
    cache.record_file_result(f, &[bp(3), bp(9)], vec![answered(1, 3), answered(2, 9)]);
    cache
        .set_functions(vec![FunctionBreakpoint {
            name: "main".into(),
            ..FunctionBreakpoint::default()
        }])
        .unwrap();
    cache.record_function_result(&["main".into()], vec![answered(7, 1)]);

    cache.record_hits(&[1], None);
    cache.record_hits(&[1, 7], None);
    cache.record_hits(&[42], None); // none of ours (an exception filter's, say)
    let hits = |c: &BreakpointCache| -> Vec<u64> { c.file(f).iter().map(|r| r.hits).collect() };
    assert_eq!(hits(&cache), [2, 0]);
    assert_eq!(cache.functions()[0].hits, 1);

    // Set again where it was, a breakpoint keeps its count; a new one starts at 0.
    cache.set_file(f, vec![bp(3), bp(5)]).unwrap();
    assert_eq!(hits(&cache), [2, 0]);

    cache.clear_results();
    assert_eq!(hits(&cache), [0, 0]);
    assert_eq!(cache.functions()[0].hits, 0);
}

#[test]
fn a_breakpoint_that_stopped_the_program_is_bound_whatever_the_adapter_said_before() {
    let mut cache = BreakpointCache::new(10);
    let f = Path::new("/src/lib.js");
    cache.set_file(f, vec![bp(2), bp(6)]).unwrap();
    // js-debug answers `setBreakpoints` with each held ("provisional") until its
    // script loads, and verifies it in an event after the stop it made.
    let provisional = |id| Breakpoint {
        id: Some(id),
        verified: false,
        message: Some("breakpoint.provisionalBreakpoint".into()),
        ..Breakpoint::default()
    };
    cache.record_file_result(f, &[bp(2), bp(6)], vec![provisional(1), provisional(2)]);

    cache.record_hits(&[1], None);
    let hit = cache.file(f)[0].actual.as_ref().unwrap();
    assert!(hit.verified);
    assert_eq!(hit.message, None);
    let other = cache.file(f)[1].actual.as_ref().unwrap();
    assert!(
        !other.verified,
        "one no stop named keeps what the adapter said"
    );
}

/// `lib.js` with breakpoints at lines 3 and 6 that js-debug (v1.112) answered with
/// one id, 2: the one at 6 was added mid-run.
fn one_id_for_two() -> (BreakpointCache, &'static Path) {
    let mut cache = BreakpointCache::new(10);
    let f = Path::new("/src/lib.js");
    cache.set_file(f, vec![bp(3), bp(6)]).unwrap();
    cache.record_file_result(f, &[bp(3), bp(6)], vec![answered(2, 3), answered(2, 6)]);
    (cache, f)
}

fn at(file: &str, line: i64) -> StopPlace {
    StopPlace {
        file: file.into(),
        line,
    }
}

fn hits(cache: &BreakpointCache, f: &Path) -> Vec<u64> {
    cache.file(f).iter().map(|r| r.hits).collect()
}

#[test]
fn a_stop_at_an_id_two_breakpoints_share_is_a_hit_of_the_one_where_it_stopped() {
    let (mut cache, f) = one_id_for_two();
    assert!(cache.shares_an_id(&[2]));
    assert!(!cache.shares_an_id(&[5]));
    cache.record_hits(&[2], Some(&at("/src/lib.js", 6)));
    assert_eq!(hits(&cache, f), [0, 1]);
    cache.record_hits(&[2], Some(&at("/src/lib.js", 3)));
    assert_eq!(hits(&cache, f), [1, 1]);
    // The adapter wrote the file otherwise (a link, a mapped root): its name tells.
    cache.record_hits(&[2], Some(&at("/other/root/lib.js", 6)));
    assert_eq!(hits(&cache, f), [1, 2]);
}

#[test]
fn a_stop_at_a_shared_id_with_no_place_to_tell_by_is_a_hit_of_each() {
    let (mut cache, f) = one_id_for_two();
    cache.record_hits(&[2], None);
    assert_eq!(hits(&cache, f), [1, 1]);
    // Stopped where neither is: a stop that named the id is not lost.
    cache.record_hits(&[2], Some(&at("/src/lib.js", 9)));
    assert_eq!(hits(&cache, f), [2, 2]);
    cache.record_hits(&[2], Some(&at("/src/main.js", 6)));
    assert_eq!(hits(&cache, f), [3, 3]);
}

#[test]
fn a_held_breakpoint_sharing_an_id_is_placed_by_the_line_asked_for() {
    // js-debug holds a breakpoint ("provisional", no line) until its script loads.
    let mut cache = BreakpointCache::new(10);
    let f = Path::new("/src/lib.js");
    cache.set_file(f, vec![bp(3), bp(6)]).unwrap();
    let held = Breakpoint {
        id: Some(2),
        verified: false,
        message: Some("breakpoint.provisionalBreakpoint".into()),
        ..Breakpoint::default()
    };
    cache.record_file_result(f, &[bp(3), bp(6)], vec![held.clone(), held]);
    cache.record_hits(&[2], Some(&at("/src/lib.js", 6)));
    assert_eq!(hits(&cache, f), [0, 1]);
    let verified: Vec<bool> = cache
        .file(f)
        .iter()
        .map(|r| r.actual.as_ref().unwrap().verified)
        .collect();
    assert_eq!(verified, [false, true], "the one not hit keeps its verdict");
}

#[test]
fn an_event_for_a_shared_id_changes_the_breakpoint_at_its_line() {
    let (mut cache, f) = one_id_for_two();
    let moved = Breakpoint {
        source: Some(Source {
            path: Some("/src/lib.js".into()),
            ..Source::default()
        }),
        message: Some("moved".into()),
        ..answered(2, 6)
    };
    assert!(cache.apply_event("changed", &moved));
    let messages: Vec<Option<&str>> = cache
        .file(f)
        .iter()
        .map(|r| r.actual.as_ref().unwrap().message.as_deref())
        .collect();
    assert_eq!(messages, [None, Some("moved")]);
    // No line, no file, or a line neither is at: which one is unknown, none changes.
    let nowhere = Breakpoint {
        line: None,
        ..answered(2, 0)
    };
    assert!(!cache.apply_event("changed", &nowhere));
    assert!(!cache.apply_event("removed", &answered(2, 9)));
    assert!(cache.file(f).iter().all(|r| r.actual.is_some()));
    // Removed at line 3: that one only.
    assert!(cache.apply_event("removed", &answered(2, 3)));
    assert!(cache.file(f)[0].actual.is_none());
    assert_eq!(cache.file(f)[1].actual.as_ref().unwrap().line, Some(6));
}
