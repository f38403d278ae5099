//! The frame ids and variables references the adapter handed out at the current stop.
//! DAP says both hold only while the program stays stopped, yet an adapter may answer
//! an old one all the same: debugpy answers `scopes` for the frame of a call that has
//! since returned. So a request that passes one back is checked here first: an id not
//! handed out since the program last stopped is refused, naming it, rather than sent
//! for an answer about a frame that is gone.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::core::command::Tag;
use crate::error::SessionError;
use crate::wire::Response;

/// Which argument of which request carries a frame id or a variables reference.
const FRAME_ARGUMENTS: [&str; 6] = [
    "scopes",
    "evaluate",
    "setExpression",
    "completions",
    "restartFrame",
    "stepInTargets",
];
const REFERENCE_ARGUMENTS: [&str; 3] = ["variables", "setVariable", "dataBreakpointInfo"];
/// The requests whose answers hand out frame ids or variables references.
const HANDING_OUT: [&str; 6] = [
    "stackTrace",
    "scopes",
    "variables",
    "evaluate",
    "setVariable",
    "setExpression",
];

/// The ids handed out since the last stop.
#[derive(Debug, Default)]
pub(crate) struct StopIds {
    /// The stop they belong to.
    epoch: u64,
    frames: HashSet<i64>,
    references: HashSet<i64>,
    /// Requests on their way whose answers hand out ids, and the stop each was sent
    /// at: an answer that comes after the program moved on belongs to that stop.
    in_flight: HashMap<Tag, u64>,
}

impl StopIds {
    /// Note that `command` went out as `tag` at stop `epoch` (while stopped).
    pub(crate) fn sent(&mut self, tag: Tag, epoch: u64, command: &str) {
        if HANDING_OUT.contains(&command) {
            self.in_flight.insert(tag, epoch);
        }
    }

    /// The answer to `tag` came: note the ids in `response` (`None`: it failed)
    /// under the stop its request was sent at. Only answers that hand out ids are read.
    pub(crate) fn answered(&mut self, tag: Tag, command: &str, response: Option<&Response>) {
        let Some(epoch) = self.in_flight.remove(&tag) else {
            return;
        };
        if let Some(body) = response.and_then(|r| r.parse_body::<Value>().ok()) {
            self.record(epoch, command, &body);
        }
    }

    /// Note the ids in the successful answer `body` to `command`, sent at stop `epoch`.
    fn record(&mut self, epoch: u64, command: &str, body: &Value) {
        if epoch < self.epoch {
            return; // a stop the program has left
        }
        if epoch > self.epoch {
            self.epoch = epoch;
            self.frames.clear();
            self.references.clear();
        }
        match command {
            "stackTrace" => {
                let frames = body.get("stackFrames").and_then(Value::as_array);
                let ids = frames.into_iter().flatten().filter_map(|f| f.get("id"));
                self.frames.extend(ids.filter_map(Value::as_i64));
            }
            "scopes" => self.references_in(body.get("scopes")),
            "variables" => self.references_in(body.get("variables")),
            "evaluate" | "setVariable" | "setExpression" => {
                let reference = body.get("variablesReference").and_then(Value::as_i64);
                self.references.extend(reference.filter(|r| *r > 0));
            }
            _ => {}
        }
    }

    fn references_in(&mut self, list: Option<&Value>) {
        let items = list.and_then(Value::as_array).into_iter().flatten();
        let references = items.filter_map(|v| v.get("variablesReference")?.as_i64());
        self.references.extend(references.filter(|r| *r > 0));
    }

    /// Whether `command` with `arguments`, sent at stop `epoch`, passes back only ids
    /// handed out at that stop; else the error naming the first that was not.
    pub(crate) fn check(
        &self,
        epoch: u64,
        command: &str,
        arguments: Option<&Value>,
    ) -> Result<(), SessionError> {
        let given = |name: &str| arguments.and_then(|a| a.get(name)).and_then(Value::as_i64);
        let current = epoch == self.epoch;
        if FRAME_ARGUMENTS.contains(&command) {
            if let Some(id) = given("frameId") {
                if !(current && self.frames.contains(&id)) {
                    return Err(SessionError::StaleId {
                        argument: "frameId",
                        id,
                    });
                }
            }
        }
        if REFERENCE_ARGUMENTS.contains(&command) {
            if let Some(id) = given("variablesReference").filter(|r| *r > 0) {
                if !(current && self.references.contains(&id)) {
                    return Err(SessionError::StaleId {
                        argument: "variablesReference",
                        id,
                    });
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn response(body: Value) -> Response {
        Response::new(1, "stackTrace", Ok(Some(body)))
    }

    fn stale(result: Result<(), SessionError>) -> Option<(&'static str, i64)> {
        match result {
            Err(SessionError::StaleId { argument, id }) => Some((argument, id)),
            _ => None,
        }
    }

    #[test]
    fn ids_handed_out_at_this_stop_pass_and_others_are_named() {
        let mut ids = StopIds::default();
        ids.record(
            1,
            "stackTrace",
            &json!({ "stackFrames": [{ "id": 2 }, { "id": 3 }] }),
        );
        ids.record(
            1,
            "scopes",
            &json!({ "scopes": [{ "variablesReference": 7 }] }),
        );
        ids.record(
            1,
            "variables",
            &json!({ "variables": [{ "variablesReference": 8 }, { "variablesReference": 0 }] }),
        );
        ids.record(
            1,
            "evaluate",
            &json!({ "result": "x", "variablesReference": 9 }),
        );
        assert!(ids
            .check(1, "scopes", Some(&json!({ "frameId": 3 })))
            .is_ok());
        assert!(ids
            .check(1, "evaluate", Some(&json!({ "expression": "x" })))
            .is_ok());
        for reference in [7, 8, 9] {
            let args = json!({ "variablesReference": reference });
            assert!(ids.check(1, "variables", Some(&args)).is_ok());
        }
        assert_eq!(
            stale(ids.check(1, "scopes", Some(&json!({ "frameId": 10 })))),
            Some(("frameId", 10))
        );
        let args = json!({ "variablesReference": 11, "name": "x", "value": "1" });
        assert_eq!(
            stale(ids.check(1, "setVariable", Some(&args))),
            Some(("variablesReference", 11))
        );
    }

    #[test]
    fn a_new_stop_makes_every_earlier_id_stale() {
        let mut ids = StopIds::default();
        ids.record(1, "stackTrace", &json!({ "stackFrames": [{ "id": 2 }] }));
        assert_eq!(
            stale(ids.check(2, "scopes", Some(&json!({ "frameId": 2 })))),
            Some(("frameId", 2))
        );
        ids.record(2, "stackTrace", &json!({ "stackFrames": [{ "id": 4 }] }));
        assert!(ids
            .check(2, "scopes", Some(&json!({ "frameId": 4 })))
            .is_ok());
        assert!(stale(ids.check(2, "scopes", Some(&json!({ "frameId": 2 })))).is_some());
    }

    #[test]
    fn an_answer_counts_for_the_stop_its_request_was_sent_at() {
        let mut ids = StopIds::default();
        ids.sent(5, 1, "stackTrace");
        ids.sent(6, 2, "stackTrace");
        ids.sent(7, 2, "threads");
        let frames = |id: i64| response(json!({ "stackFrames": [{ "id": id }] }));
        ids.answered(6, "stackTrace", Some(&frames(4)));
        ids.answered(5, "stackTrace", Some(&frames(2)));
        assert!(ids
            .check(2, "scopes", Some(&json!({ "frameId": 4 })))
            .is_ok());
        assert!(stale(ids.check(2, "scopes", Some(&json!({ "frameId": 2 })))).is_some());
        assert!(ids.in_flight.is_empty(), "{:?}", ids.in_flight);
    }

    #[test]
    fn requests_that_carry_no_such_id_are_not_checked() {
        let ids = StopIds::default();
        assert!(ids.check(1, "threads", None).is_ok());
        assert!(ids
            .check(1, "stackTrace", Some(&json!({ "threadId": 1 })))
            .is_ok());
        let args = json!({ "variablesReference": 0, "name": "x" });
        assert!(ids.check(1, "dataBreakpointInfo", Some(&args)).is_ok());
    }
}
