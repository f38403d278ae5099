//! Ids an agent passes back (thread, frame, variables, source, target and location
//! ids) are the adapter's, and valid only while the program stays stopped. When the
//! adapter refuses a request that carried one, the agent gets a 400 that names the ids
//! it gave and says where fresh ones come from, rather than a 500.

use crate::SessionError;

use crate::tools::catalogue::spec::ToolError;

/// Where fresh ids come from, and for how long they hold.
pub(crate) const FRESH_IDS: &str = "take ids from debug.threads (thread_id), \
    debug.stack_trace (frame_id) and debug.scopes or debug.variables \
    (variables_reference); ids are valid only while the program stays stopped, so ask \
    again after every stop";

/// Errors of a request that carried ids the agent gave.
pub(crate) trait AgentIds<T> {
    /// The error, as a 400 naming `given` (`("frame_id", Some(7))`, ...) where the
    /// adapter refused the request and the agent gave at least one of them.
    fn ids(self, given: &[(&str, Option<i64>)]) -> Result<T, ToolError>;
}

impl<T> AgentIds<T> for Result<T, SessionError> {
    fn ids(self, given: &[(&str, Option<i64>)]) -> Result<T, ToolError> {
        self.map_err(|err| refused(err, given))
    }
}

/// `err` as a 400 when the adapter refused a request carrying agent-given ids.
pub(crate) fn refused(err: SessionError, given: &[(&str, Option<i64>)]) -> ToolError {
    let named: Vec<String> = given
        .iter()
        .filter_map(|(name, id)| id.map(|id| format!("{name} {id}")))
        .collect();
    match err {
        SessionError::Adapter {
            command, message, ..
        } if !named.is_empty() => ToolError::invalid(
            format!(
                "the adapter refused `{command}` for {}: {message}",
                named.join(", ")
            ),
            FRESH_IDS,
        ),
        other => other.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adapter_error() -> SessionError {
        SessionError::Adapter {
            command: "scopes".into(),
            message: "unknown frame".into(),
            body: None,
        }
    }

    #[test]
    fn a_refusal_of_given_ids_is_a_400_naming_them() {
        let err = refused(
            adapter_error(),
            &[("frame_id", Some(7)), ("thread_id", None)],
        );
        assert_eq!(err.code, 400);
        assert!(err.error.contains("frame_id 7") && !err.error.contains("thread_id"));
        assert!(err.hint.contains("debug.stack_trace"), "{err}");
    }

    #[test]
    fn without_given_ids_or_for_other_errors_it_stays_as_it_was() {
        let err = refused(adapter_error(), &[("frame_id", None)]);
        assert_eq!(err.code, 500);
        let timeout = SessionError::timeout("scopes", std::time::Duration::from_secs(5));
        assert_eq!(refused(timeout, &[("frame_id", Some(7))]).kind, "timeout");
    }
}
