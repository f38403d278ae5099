//! The stress harness (`examples/stress.rs`, parts in `benches/stress/`) can fail: its
//! fake-adapter part, run in this process, passes on a well-behaved fake and fails
//! when the fake hangs (`--hang`: it never answers `evaluate`), naming the deadline.
//! A harness that forgave every deadline as "a slow machine" could not catch a hang.

#[path = "../benches/stress/mod.rs"]
#[allow(dead_code)]
mod stress;
#[path = "../benches/support/mod.rs"]
mod support;

use stress::args::Args;
use stress::fate::{Cause, Tally};

fn args(list: &[&str]) -> Args {
    Args::parse(list.iter().map(|s| s.to_string())).expect("harness arguments")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_part_passes_on_a_well_behaved_adapter() {
    let failures = stress::fake::run(&args(&["--sessions", "0", "--fake", "4"])).await;
    assert!(failures.is_empty(), "{failures:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_part_fails_when_sessions_hang() {
    let failures = stress::fake::run(&args(&["--sessions", "0", "--fake", "4", "--hang"])).await;
    let hung: Vec<&String> = failures
        .iter()
        .filter(|f| f.contains("evaluate") && f.contains(&Cause::Deadline.to_string()))
        .collect();
    assert_eq!(
        hung.len(),
        4,
        "each hung session is a failure: {failures:#?}"
    );
    assert!(
        failures
            .iter()
            .any(|f| f.contains("none of the 4 sessions")),
        "{failures:#?}"
    );
}

#[test]
fn kills_excuse_only_the_breaks_they_explain() {
    let mut tally = Tally::default();
    assert!(!tally.broke(Cause::Deadline, true));
    assert!(!tally.broke(Cause::NoAnswer, true));
    assert!(!tally.broke(Cause::Wrong, true));
    assert!(!tally.broke(Cause::AdapterGone, false));
    assert!(tally.broke(Cause::AdapterGone, true));
    assert!(tally.broke(Cause::Ended, true));
    tally.finished();
    assert_eq!(
        tally.to_string(),
        "1 finished; 1 broke off (a deadline passed); 1 broke off (a call got no answer); \
         1 broke off (the adapter went away); 1 excused (the adapter went away); \
         1 excused (the program ended early); 1 broke off (an error or a wrong answer)"
    );
    assert_eq!(tally.none_finished(7), None);
    assert!(Tally::default()
        .none_finished(4)
        .is_some_and(|f| f.contains("none of the 4 sessions")));
}
