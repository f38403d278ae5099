//! The same read asked twice while on its way: the second follows the first.

use serde_json::json;

use super::*;

/// The body of an answer.
fn body_of(out: &Effects, token: crate::core::command::Token) -> String {
    match out.reply(token) {
        Ok(Answer::Body(body)) => body.as_str().to_string(),
        other => panic!("want a body for {token}, got {other:?}"),
    }
}

#[test]
fn a_read_asked_again_before_its_answer_follows_it_and_gets_the_same_answer() {
    let mut h = stopped();
    let (first, out) = h.command(stack_request());
    let tag = out.tag("stackTrace");
    let (second, out) = h.command(stack_request());
    assert!(out.sends().is_empty(), "not sent twice: {out:?}");
    assert_eq!(out.replies(), 0);
    let answered = answer_stack(&mut h, tag);
    assert_eq!(body_of(&answered, first), body_of(&answered, second));
    assert!(!read_stack(&mut h), "and kept");

    // An error is everyone's too.
    let mut h = stopped();
    let (first, out) = h.command(stack_request());
    let (second, _) = h.command(stack_request());
    let refused = h.refuse(out.tag("stackTrace"), "no such thread");
    for token in [first, second] {
        assert!(refused.reply(token).is_err(), "{token}");
    }
}

#[test]
fn a_read_asked_after_a_change_does_not_follow_one_sent_before_it() {
    let mut h = stopped();
    let (first, out) = h.command(stack_request());
    let tag = out.tag("stackTrace");
    h.command(request(
        Operation::Evaluate,
        "evaluate",
        json!({ "expression": "f()", "frameId": 1000 }),
    ));
    let (second, out) = h.command(stack_request());
    assert_eq!(out.commands(), ["stackTrace"], "asked afresh");
    let answered = answer_stack(&mut h, tag);
    assert!(answered.reply(first).is_ok());
    assert!(
        !answered.0.iter().any(|e| matches!(
            e,
            crate::core::command::Effect::Reply { token, .. } if *token == second
        )),
        "the second waits for its own read: {answered:?}"
    );
}

#[test]
fn giving_up_a_followed_read_keeps_it_for_the_followers_and_a_follower_can_give_up() {
    let mut h = stopped();
    let (first, out) = h.command(stack_request());
    let tag = out.tag("stackTrace");
    let (second, _) = h.command(stack_request());
    let (third, _) = h.command(stack_request());
    let withdrawn = Effects(
        h.core
            .handle(crate::core::command::Input::Withdraw { token: first }),
    );
    assert!(withdrawn.0.is_empty(), "not cancelled: {withdrawn:?}");
    h.core
        .handle(crate::core::command::Input::Withdraw { token: third });
    let answered = answer_stack(&mut h, tag);
    assert_eq!(body_of(&answered, second), STACK);
    let answered_to = |token| {
        answered.0.iter().any(
            |e| matches!(e, crate::core::command::Effect::Reply { token: t, .. } if *t == token),
        )
    };
    assert!(
        !answered_to(third),
        "the follower that gave up is not answered"
    );
}

#[test]
fn followers_are_answered_when_the_session_fails() {
    let mut h = stopped();
    let (first, _) = h.command(stack_request());
    let (second, _) = h.command(stack_request());
    let gone = Effects(h.core.handle(crate::core::command::Input::Fail {
        cause: crate::core::failure::Failure::TargetGone("the adapter is gone".into()),
    }));
    for token in [first, second] {
        assert!(gone.reply(token).is_err(), "{token}: {gone:?}");
    }
}
