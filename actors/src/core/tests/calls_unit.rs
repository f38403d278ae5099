use std::time::{Duration, Instant};

use super::*;

#[test]
fn a_recursion_pairs_each_return_with_its_own_call_innermost_first() {
    let mut t = CallTracker::new(1000);
    t.add_id(7);
    assert!(t.is_call_hit(&[7]));
    assert!(
        !t.is_call_hit(&[7, 8]),
        "an agent's breakpoint among them: a real stop"
    );
    assert!(!t.is_call_hit(&[]));
    // fact(3) -> fact(2) -> fact(1), at 3, 4, 5 frames.
    assert_eq!(t.enter(1, 3, "fact"), (1, 0));
    assert_eq!(t.resume(1), Resume::StepOut);
    assert_eq!(t.enter(1, 4, "fact"), (2, 1));
    assert_eq!(t.enter(1, 5, "fact"), (3, 2));
    assert_eq!(t.resume(1), Resume::StepOut);
    assert!(t.take_step("step", 1));
    assert!(!t.take_step("step", 1), "taken once");
    let ended = t.returned(1, 4);
    assert_eq!(ended.len(), 1);
    assert_eq!((ended[0].open.call, ended[0].own_frame), (3, true));
    assert_eq!(t.resume(1), Resume::StepOut);
    assert_eq!(t.returned(1, 3)[0].open.call, 2);
    assert_eq!(t.returned(1, 2)[0].open.call, 1);
    assert_eq!(t.resume(1), Resume::Continue);
}

#[test]
fn a_step_out_of_an_untraced_frame_ends_no_call_and_one_past_several_ends_them_all() {
    let mut t = CallTracker::new(1000);
    t.enter(1, 3, "outer");
    // outer calls an untraced helper (4 frames) which calls inner (5).
    t.enter(1, 5, "inner");
    let ended = t.returned(1, 4);
    assert_eq!(
        (ended[0].open.function.as_str(), ended[0].own_frame),
        ("inner", true)
    );
    assert!(
        t.returned(1, 3).is_empty(),
        "the helper returned, not outer"
    );
    // An agent's stop interrupted: the program ran on, and the next step out lands
    // below both: both end, only the frame just left is its own.
    t.enter(1, 4, "again");
    t.interrupted(Some(1));
    assert!(!t.take_step("step", 1));
    let ended = t.returned(1, 1);
    assert_eq!(ended.len(), 2);
    assert!(!ended[0].own_frame && !ended[1].own_frame);
}

#[test]
fn a_call_entered_where_open_ones_were_ends_them_unseen() {
    let mut t = CallTracker::new(1000);
    t.enter(1, 3, "outer");
    t.enter(1, 4, "inner");
    t.interrupted(Some(1)); // an agent's stop inside inner; the program ran on
    let stale = t.stale(1, 4);
    assert_eq!(stale.len(), 1);
    assert_eq!(
        (stale[0].open.function.as_str(), stale[0].own_frame),
        ("inner", false)
    );
    assert_eq!(
        t.enter(1, 4, "inner").1,
        1,
        "nested in outer again, not in the stale one"
    );
    assert_eq!(t.stale(1, 2).len(), 2);
}

#[test]
fn an_agents_step_is_remembered_until_a_stop_that_is_someones() {
    let mut t = CallTracker::new(1000);
    t.agent_moves(1, Some(false));
    assert_eq!(t.agent_step(1), Some(false));
    assert_eq!(t.agent_step(2), None, "another thread's");
    t.interrupted(Some(1));
    assert_eq!(t.agent_step(1), None);
    t.agent_moves(1, Some(true));
    t.agent_moves(1, None);
    assert_eq!(t.agent_step(1), None, "a continue is no step");
}

#[test]
fn the_programs_end_ends_every_open_call_innermost_first() {
    let mut t = CallTracker::new(1000);
    t.enter(1, 3, "a");
    t.enter(2, 3, "b");
    t.enter(1, 4, "c");
    let ended: Vec<u64> = t.end_all().iter().map(|(_, e)| e.open.call).collect();
    assert_eq!(ended, [3, 2, 1]);
    assert_eq!(t.depth(1), 0);
}

#[test]
fn calls_past_the_rate_are_counted_not_recorded_until_the_second_is_over() {
    let mut t = CallTracker::new(2);
    let now = Instant::now();
    assert!(t.admit(now));
    assert!(t.admit(now));
    assert!(!t.admit(now + Duration::from_millis(500)));
    assert_eq!(t.over_rate, 1);
    assert!(t.admit(now + Duration::from_millis(1000)));
}

#[test]
fn threads_keep_their_own_calls() {
    let mut t = CallTracker::new(1000);
    t.enter(1, 3, "a");
    assert_eq!(t.enter(2, 3, "b"), (2, 0));
    assert_eq!(t.resume(2), Resume::StepOut);
    assert!(!t.take_step("step", 1));
    assert!(t.take_step("step", 2));
    assert_eq!(t.returned(2, 2)[0].open.function, "b");
    assert_eq!(t.depth(1), 1);
}

fn vars(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

#[test]
fn each_adapters_return_slot_is_read_and_left_out_of_arguments() {
    // debugpy keeps every function's returned into the frame: the one named is read.
    let python = vars(&[
        ("(return) parse", "120"),
        ("(return) fact", "1"),
        ("n", "2"),
    ]);
    assert_eq!(return_value_of(&python, "fact").as_deref(), Some("1"));
    assert_eq!(return_value_of(&python, "other"), None);
    let codelldb = vars(&[("[return value]", "{cents:1, band:0}"), ("i", "0")]);
    assert_eq!(
        return_value_of(&codelldb, "f").as_deref(),
        Some("{cents:1, band:0}")
    );
    let lldb = vars(&[("(Return Value)", "6"), ("p", "pt")]);
    assert_eq!(return_value_of(&lldb, "fact").as_deref(), Some("6"));
    let go = vars(&[("x", "1"), ("~r0", "3"), ("~r1", "error nil")]);
    assert_eq!(
        return_value_of(&go, "main.f").as_deref(),
        Some("3, error nil")
    );
    assert_eq!(arguments_of(go), vars(&[("x", "1")]));
    assert_eq!(
        return_value_of(&vars(&[("n", "2"), ("~rx", "1")]), "f"),
        None
    );
    assert_eq!(
        arguments_of(vars(&[("self", "<C>"), ("special variables", "")])),
        vars(&[("self", "<C>")])
    );
}

#[test]
fn a_struct_shown_as_its_type_is_read_by_its_members() {
    assert!(shows_only_a_type("price", 5));
    assert!(!shows_only_a_type("price", 0), "no children");
    assert!(
        !shows_only_a_type("0x5555", 5),
        "a pointer keeps its address"
    );
    assert!(!shows_only_a_type("Price(cents=1, band='x')", 5));
    assert!(!shows_only_a_type("main.price {cents: 1}", 5));
    // CodeLLDB gives a Rust u32 returned a `[raw]` child: the number is the value.
    assert!(!shows_only_a_type("300", 1030));
    assert!(!shows_only_a_type("-1", 1030));
    assert!(!shows_only_a_type("true", 1030));
    assert_eq!(
        members_shown(&vars(&[("[raw]", "unsigned int")])),
        None,
        "a raw view alone is no member"
    );
    assert_eq!(
        members_shown(&vars(&[("cents", "1100"), ("[raw]", "price")])).as_deref(),
        Some("{cents=1100}")
    );
    assert_eq!(
        members_text(&vars(&[("cents", "1100"), ("band", "1")])),
        "{cents=1100, band=1}"
    );
    let many: Vec<(String, String)> = (0..20).map(|i| (format!("m{i}"), "0".into())).collect();
    assert!(members_text(&many).ends_with("m15=0, …}"));
}
