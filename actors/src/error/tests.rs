//! The error texts and hints agents rely on.

use super::*;

#[test]
fn an_exit_names_each_stream_it_quotes() {
    let exit = AdapterExit {
        code: Some(4),
        reason: "the adapter closed its output".into(),
        stderr_tail: "warning: no port\n".into(),
        stdout_tail: "API server listening soon\n".into(),
        ..AdapterExit::default()
    };
    assert_eq!(
        exit.to_string(),
        "the adapter closed its output (exit code 4); \
         adapter stderr ends with: warning: no port; \
         adapter stdout ends with: API server listening soon"
    );
    let quiet = AdapterExit {
        signal: Some(9),
        reason: "gone".into(),
        ..AdapterExit::default()
    };
    assert_eq!(quiet.to_string(), "gone (killed by signal 9)");
}

#[test]
fn an_exit_without_a_stdout_tail_still_deserializes() {
    let json = r#"{"code":1,"signal":null,"reason":"r","stderr_tail":"e","requested":false}"#;
    let exit: AdapterExit = serde_json::from_str(json).unwrap();
    assert_eq!(
        (exit.stderr_tail.as_str(), exit.stdout_tail.as_str()),
        ("e", "")
    );
}

#[test]
fn attach_and_a_lost_debuggee_get_their_own_hints() {
    let failed = |operation| SessionError::StartFailed {
        operation,
        message: "connection refused".into(),
        output: String::new(),
    };
    let attach = failed(Operation::Attach).hint();
    assert!(
        attach.contains("pid") && attach.contains("listening"),
        "{attach}"
    );
    assert!(!attach.contains("build"), "{attach}");
    assert!(failed(Operation::Launch).hint().contains("build"));

    let refusal = |message: &str| SessionError::Adapter {
        command: "threads".into(),
        message: message.into(),
        body: None,
    };
    let gone = refusal("Server[pid=42] disconnected unexpectedly").hint();
    assert!(gone.contains("ended") && gone.contains("launch"), "{gone}");
    assert!(refusal("bad expression")
        .hint()
        .contains("check the arguments"));
}

#[test]
fn a_config_refusal_reads_and_hints_as_an_invalid_argument() {
    let config = ConfigError::new("max_sessions", 0, ConfigRule::AtLeast { min: 1 })
        .because("with 0, no session could be started")
        .with_default(1000);
    let err = SessionError::from(config.clone());
    assert_eq!(
        err.to_string(),
        "invalid argument: RuntimeConfig::max_sessions is 0; it must be at least 1 (with 0, \
         no session could be started); the default is 1000"
    );
    assert_eq!(
        err.hint(),
        SessionError::InvalidArgument(String::new()).hint()
    );
    assert!(matches!(err, SessionError::Config(inner) if inner == config));
}

#[test]
fn each_transport_failure_reads_the_same_as_the_session_error_it_becomes() {
    let exit = AdapterExit {
        reason: "end of stream".into(),
        ..AdapterExit::default()
    };
    let failures = [
        TransportError::Timeout {
            command: "evaluate".into(),
            after: Duration::from_secs(30),
            seq: 12,
            cancel_sent: true,
            unmatched: Vec::new(),
            unmatched_count: 0,
        },
        TransportError::AdapterGone { exit },
        TransportError::NotDap(ProtocolError::NotDap {
            command: "threads".into(),
            detail: "no `type`".into(),
        }),
        TransportError::NotReading {
            adapter: "debugpy".into(),
            limit: 64,
        },
    ];
    let kinds: Vec<&str> = failures
        .iter()
        .map(|failure| {
            let text = failure.to_string();
            let session = SessionError::from(failure.clone());
            assert_eq!(
                session.to_string(),
                text,
                "the agent reads what the log said"
            );
            match session {
                SessionError::Timeout { seq: 12, .. } => "timeout",
                SessionError::AdapterExited { .. } => "adapter gone",
                SessionError::Protocol(ProtocolError::NotDap { .. }) => "protocol",
                SessionError::LimitExceeded { limit: 64, .. } => "limit",
                other => panic!("{failure:?} became {other:?}"),
            }
        })
        .collect();
    assert_eq!(kinds, ["timeout", "adapter gone", "protocol", "limit"]);
}
