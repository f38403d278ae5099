//! Tests of the pure request table: numbering, matching, deadlines, cancel,
//! unmatched responses.

use super::*;
use serde_json::json;

const T: Duration = Duration::from_secs(5);

fn response(request_seq: i64, command: &str) -> Response {
    Response {
        seq: 1,
        ..Response::new(request_seq, command, Ok(None))
    }
}

/// Send `command` with tag `tag` at the same moment as every other, deadline `T`
/// later; its seq.
fn send(table: &mut RequestTable, tag: Tag, command: &str) -> i64 {
    send_at(table, tag, command, start(), T)
}

/// One fixed moment to send at: the table has no clock of its own.
fn start() -> Instant {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *START.get_or_init(Instant::now)
}

fn send_at(
    table: &mut RequestTable,
    tag: Tag,
    command: &str,
    at: Instant,
    timeout: Duration,
) -> i64 {
    let mut request = Request::new(command, None);
    let seq = table.send(&mut request, tag, timeout, at);
    assert_eq!(request.seq, seq);
    seq
}

#[test]
fn seqs_start_at_1_and_are_shared_with_responses_we_send() {
    let mut table = RequestTable::new();
    assert_eq!(send(&mut table, 7, "initialize"), 1);
    assert_eq!(send(&mut table, 8, "launch"), 2);
    assert_eq!(table.next_seq(), 3, "a response to a reverse request");
    assert_eq!(send(&mut table, 9, "threads"), 4);
    assert_eq!(table.len(), 3);
}

#[test]
fn an_answer_takes_its_request_out_with_its_deadline() {
    let mut table = RequestTable::new();
    let seq = send(&mut table, 7, "threads");
    assert_eq!(table.next_deadline(), Some(start() + T));
    let answered = table.answer(&response(seq, "threads")).unwrap();
    assert_eq!((answered.tag, answered.deadline), (7, start() + T));
    assert!(table.answer(&response(seq, "threads")).is_none(), "twice");
    assert!(table.is_empty());
    assert_eq!(table.next_deadline(), None, "no deadline is left to watch");
}

#[test]
fn the_next_deadline_is_the_earliest_in_flight_and_expire_due_takes_those_passed() {
    let mut table = RequestTable::new();
    let s = Duration::from_secs;
    let late = send_at(&mut table, 1, "evaluate", start(), s(30));
    let soon = send_at(&mut table, 2, "threads", start() + s(1), s(5));
    let sooner = send_at(&mut table, 3, "scopes", start() + s(2), s(1));
    assert_eq!(table.next_deadline(), Some(start() + s(3)));
    assert!(table.expire_due(start() + s(2)).is_empty(), "none yet");
    let due: Vec<i64> = table
        .expire_due(start() + s(6))
        .iter()
        .map(|e| timeout_of(e.error.clone()).1)
        .collect();
    assert_eq!(due, [sooner, soon], "earliest first, each once");
    assert_eq!(table.next_deadline(), Some(start() + s(30)));
    table.answer(&response(late, "evaluate")).unwrap();
    assert!(table.expire_due(start() + s(60)).is_empty());
}

#[test]
fn an_answer_to_no_request_in_flight_matches_nothing() {
    let mut table = RequestTable::new();
    let seq = send(&mut table, 7, "evaluate");
    assert!(table.answer(&response(seq + 1000, "evaluate")).is_none());
    assert_eq!(table.len(), 1, "the request is still in flight");
}

/// The timeout's command, seq, deadline and whether a cancel was sent.
fn timeout_of(error: TransportError) -> (String, i64, Duration, bool) {
    match error {
        TransportError::Timeout {
            command,
            after,
            seq,
            cancel_sent,
            ..
        } => (command, seq, after, cancel_sent),
        other => panic!("want a timeout, got {other:?}"),
    }
}

/// The unmatched responses a timeout names, and how many there were.
fn unmatched_of(error: &TransportError) -> (Vec<UnmatchedResponse>, usize) {
    match error {
        TransportError::Timeout {
            unmatched,
            unmatched_count,
            ..
        } => (unmatched.clone(), *unmatched_count),
        other => panic!("want a timeout, got {other:?}"),
    }
}

#[test]
fn a_timeout_names_the_unmatched_responses_that_came_while_it_waited() {
    let mut table = RequestTable::new();
    let early = send(&mut table, 1, "threads");
    assert!(table.answer(&response(500, "threads")).is_none());
    let seq = send(&mut table, 2, "evaluate");
    assert!(table.answer(&response(seq + 1000, "evaluate")).is_none());
    assert!(table.answer(&response(early, "threads")).is_some());
    assert!(table.answer(&response(early, "threads")).is_none(), "twice");

    let error = table.expire(seq).unwrap().error;
    let (unmatched, count) = unmatched_of(&error);
    assert_eq!(count, 2, "the one before it was sent is not its business");
    assert_eq!(
        unmatched,
        [
            UnmatchedResponse {
                request_seq: seq + 1000,
                command: "evaluate".into(),
                success: true,
                never_sent: true,
            },
            UnmatchedResponse {
                request_seq: early,
                command: "threads".into(),
                success: true,
                never_sent: false,
            },
        ]
    );
    let text = error.to_string();
    assert!(
        text.ends_with(
            "; meanwhile the adapter sent 2 response(s) matching no request in flight: \
             a `evaluate` success for request 1002, which was never sent; \
             a `threads` success for request 1, which was no longer in flight"
        ),
        "{text}"
    );
    let hint = crate::error::SessionError::from(error).hint();
    assert!(hint.contains("misbehaving"), "{hint}");
}

#[test]
fn only_the_most_recent_unmatched_responses_are_kept() {
    let mut table = RequestTable::new().keep_unmatched(2);
    let seq = send(&mut table, 1, "evaluate");
    for wrong in 100..105 {
        table.answer(&response(wrong, "evaluate"));
    }
    assert_eq!(table.unmatched.len(), 2, "bounded");
    let error = table.expire(seq).unwrap().error;
    let (unmatched, count) = unmatched_of(&error);
    assert_eq!(count, 5);
    let seqs: Vec<i64> = unmatched.iter().map(|u| u.request_seq).collect();
    assert_eq!(seqs, [103, 104]);
    assert!(error.to_string().contains("sent 5 response(s)"), "{error}");
    assert!(error.to_string().contains(", the last 2:"), "{error}");
}

#[test]
fn the_answer_to_our_cancel_is_not_unexpected() {
    let mut table = RequestTable::new();
    table.observe(&initialized(Some(true)));
    let first = send(&mut table, 1, "evaluate");
    let cancel = table.expire(first).unwrap().cancel.unwrap();
    let second = send(&mut table, 2, "evaluate");
    assert!(table.answer(&response(cancel.seq, "cancel")).is_none());
    let (_, count) = unmatched_of(&table.expire(second).unwrap().error);
    assert_eq!(count, 0);
}

#[test]
fn a_timeout_with_nothing_unexpected_says_nothing_of_it() {
    let mut table = RequestTable::new();
    let seq = send(&mut table, 1, "evaluate");
    let error = table.expire(seq).unwrap().error;
    assert_eq!(unmatched_of(&error), (vec![], 0));
    assert!(!error.to_string().contains("meanwhile"), "{error}");
    let hint = crate::error::SessionError::from(error).hint();
    assert!(hint.contains("longer timeout"), "{hint}");
}

fn initialized(supports_cancel: Option<bool>) -> Message {
    let mut answer = response(1, "initialize");
    answer.body = supports_cancel.map(|s| json!({ "supportsCancelRequest": s }).into());
    Message::Response(answer)
}

#[test]
fn a_deadline_fails_the_request_naming_its_command_seq_and_timeout() {
    let mut table = RequestTable::new();
    send(&mut table, 6, "threads");
    let seq = send(&mut table, 7, "evaluate");
    let expired = table.expire(seq).unwrap();
    assert_eq!(expired.request.tag, 7);
    assert!(expired.cancel.is_none(), "no cancel without the capability");
    let timeout = timeout_of(expired.error);
    assert_eq!(timeout, ("evaluate".into(), 2, T, false));
    assert!(table.expire(seq).is_none(), "a deadline fires once");
    assert!(table.answer(&response(seq, "evaluate")).is_none(), "late");
}

#[test]
fn an_adapter_that_supports_cancel_is_sent_one_for_an_expired_request() {
    let mut table = RequestTable::new();
    table.observe(&initialized(Some(true)));
    assert!(table.supports_cancel());
    let seq = send(&mut table, 7, "evaluate");
    let expired = table.expire(seq).unwrap();
    let cancel = expired.cancel.expect("a cancel");
    assert_eq!(cancel.command, "cancel");
    assert_eq!(cancel.seq, seq + 1, "numbered in the same sequence");
    assert_eq!(cancel.arguments, Some(json!({ "requestId": seq })));
    assert!(timeout_of(expired.error).3, "the error says so");
    assert!(table.is_empty());
    assert_eq!(send(&mut table, 8, "threads"), seq + 2);
}

#[test]
fn a_request_given_up_on_is_cancelled_where_the_adapter_can_and_stays_in_flight() {
    let mut table = RequestTable::new();
    let seq = send(&mut table, 7, "evaluate");
    assert!(
        table.cancel(7).is_none(),
        "no cancel before the adapter says it takes one"
    );
    table.observe(&initialized(Some(true)));
    assert!(table.cancel(99).is_none(), "no such request");
    let cancel = table.cancel(7).expect("a cancel");
    assert_eq!(cancel.seq, seq + 1, "numbered in the same sequence");
    assert_eq!(cancel.arguments, Some(json!({ "requestId": seq })));
    // Its answer (an error, or what it had) still comes, and still matches.
    assert_eq!(table.answer(&response(seq, "evaluate")).unwrap().tag, 7);
    assert!(table.cancel(7).is_none(), "answered: nothing to cancel");
}

#[test]
fn the_timeout_says_which_request_and_that_it_was_cancelled() {
    let mut table = RequestTable::new();
    table.observe(&initialized(Some(true)));
    let seq = send(&mut table, 7, "evaluate");
    let text = table.expire(seq).unwrap().error.to_string();
    assert_eq!(
        text,
        "`evaluate` (request 1) got no answer from the adapter within 5s; \
         the adapter was asked to cancel it"
    );
}

#[test]
fn a_cancel_is_never_cancelled() {
    let mut table = RequestTable::new();
    table.observe(&initialized(Some(true)));
    let seq = send(&mut table, 7, "cancel");
    assert!(table.expire(seq).unwrap().cancel.is_none());
}

#[test]
fn the_capability_comes_from_initialize_and_capabilities_events() {
    let mut table = RequestTable::new();
    table.observe(&initialized(None));
    assert!(!table.supports_cancel(), "absent means no");
    let event = |flag: bool| {
        let body = json!({ "capabilities": { "supportsCancelRequest": flag } });
        Message::Event(crate::wire::Event::new("capabilities", Some(body)))
    };
    table.observe(&event(true));
    assert!(table.supports_cancel());
    let other = json!({ "capabilities": { "supportsStepBack": true } });
    table.observe(&Message::Event(crate::wire::Event::new(
        "capabilities",
        Some(other),
    )));
    assert!(
        table.supports_cancel(),
        "an event that does not name it leaves it"
    );
    table.observe(&event(false));
    assert!(!table.supports_cancel());
    let mut failed = response(1, "initialize");
    failed.success = false;
    failed.body = Some(json!({ "supportsCancelRequest": true }).into());
    table.observe(&Message::Response(failed));
    assert!(!table.supports_cancel(), "a failed initialize says nothing");
}

#[test]
fn a_deadline_after_the_answer_does_nothing() {
    let mut table = RequestTable::new();
    let seq = send(&mut table, 7, "evaluate");
    table.answer(&response(seq, "evaluate")).unwrap();
    assert!(table.expire(seq).is_none());
}

#[test]
fn a_malformed_answer_fails_its_request_quoting_the_detail() {
    let mut table = RequestTable::new();
    let seq = send(&mut table, 7, "evaluate");
    let (request, error) = table.malformed(seq, "missing field `success`").unwrap();
    assert_eq!(request.tag, 7);
    let text = error.to_string();
    assert!(text.contains("`evaluate`"), "{text}");
    assert!(text.contains("missing field `success`"), "{text}");
    assert!(table.malformed(seq, "again").is_none());
}

#[test]
fn drain_empties_the_table() {
    let mut table = RequestTable::new();
    send(&mut table, 1, "a");
    send(&mut table, 2, "b");
    let mut tags: Vec<Tag> = table.drain().map(|r| r.tag).collect();
    tags.sort();
    assert_eq!(tags, [1, 2]);
    assert!(table.is_empty());
}
