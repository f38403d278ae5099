//! MCP logging (`notifications/message`) of what the client's user should see even when
//! no agent asked: an adapter crashed, was restarted, a session failed for good or was
//! reaped for idling. The client sets the least level it wants with `logging/setLevel`;
//! until it does, every such message is sent. (Logging exists in the revisions with an
//! `initialize` handshake, the ones dapvisor serves; later revisions drop it, hence
//! the allowed deprecation.)
#![allow(deprecated)]

use crate::signals::Signal;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::{Peer, RoleServer};
use serde_json::json;

use crate::{EventKind, SessionEvent};

/// The logger name on every message.
pub(crate) const LOGGER: &str = "dapvisor";

/// The least level the client wants; every level at first. Shared by one connection's
/// handler and its event forwarder.
#[derive(Debug, Clone, Default)]
pub(crate) struct LogLevel(Arc<AtomicU8>);

impl LogLevel {
    /// Send messages of `level` and above only.
    pub fn set(&self, level: LoggingLevel) {
        self.0.store(rank(level), Ordering::Relaxed);
    }

    pub(crate) fn wants(&self, level: LoggingLevel) -> bool {
        rank(level) >= self.0.load(Ordering::Relaxed)
    }
}

/// Levels in order of severity, `debug` lowest.
fn rank(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// The message `event` makes for the user, with its level; `None` for an event the
/// user need not hear of (agents see those through their tools and resources).
fn message(event: &SessionEvent) -> Option<(LoggingLevel, String)> {
    let id = event.session_id;
    Some(match &event.kind {
        EventKind::AdapterCrashed {
            exit,
            restart_in_ms,
            ..
        } => {
            let next = match restart_in_ms {
                Some(ms) => format!("restarting it in {ms} ms"),
                None => "no restart is left".to_string(),
            };
            (
                LoggingLevel::Warning,
                format!(
                    "session {id}: the debug adapter crashed ({}); {next}",
                    exit.reason
                ),
            )
        }
        EventKind::AdapterRestarted { attempt } => (
            LoggingLevel::Info,
            format!("session {id}: the debug adapter was restarted (restart {attempt})"),
        ),
        EventKind::SessionFailed { reason } => (
            LoggingLevel::Error,
            format!("session {id} failed: {reason}"),
        ),
        EventKind::SessionReaped { idle_secs } => (
            LoggingLevel::Notice,
            format!("session {id} was ended after {idle_secs} s without a call"),
        ),
        _ => return None,
    })
}

/// Tell the client's user of `event`, if it is one they should hear of at the level
/// they asked for.
pub(crate) async fn send(
    peer: &Peer<RoleServer>,
    level: &LogLevel,
    event: &SessionEvent,
    redaction: &crate::tools::Redaction,
) -> Result<(), rmcp::ServiceError> {
    let Some((severity, text)) = message(event) else {
        return Ok(());
    };
    if !level.wants(severity) {
        return Ok(());
    }
    let mut data = json!({
        "message": text,
        "session_id": event.session_id.to_string(),
        "signal": event.kind.signal(),
        "payload": event.kind.payload(),
    });
    redaction.json(&mut data);
    let mut param = LoggingMessageNotificationParam::new(severity, data);
    param.logger = Some(LOGGER.to_string());
    peer.notify_logging_message(param).await
}
