//! Notifications of what a person's editor with control does on an exposed session
//! (`crate::expose`): it took over, moved the program, gave the moves back. The agent
//! that owns the session, and every client it is shared with, hears each as it
//! happens, not only in its next tool result: a `notifications/message` (level
//! `notice`, logger `dapvisor`) whose data names the session, the signal
//! (`editor_took_over`, `editor_moved`, `editor_gave_back`) and its payload; and, for
//! a subscribed session resource, `notifications/resources/updated` with the same
//! under `_meta["dapvisor/event"]`, as a stop is.
#![allow(deprecated)] // logging: the handshake-era way, which dapvisor serves

use rmcp::model::{
    LoggingLevel, LoggingMessageNotificationParam, MetaObject, NotificationMetaObject,
    ResourceUpdatedNotificationParam,
};
use rmcp::{Peer, RoleServer};
use serde_json::json;

use crate::expose::EditorActivity;
use crate::{Owner, Runtime};

use super::logging::LogLevel;
use super::notify::Subscriptions;
use super::resources::session_uri;

/// Whether the client `caller` (`None`: the host's own, on stdio) hears of `activity`:
/// it may drive the session, whose moves the editor now shares with it (the owner,
/// a client it is shared with by `debug.share`, or anyone for a session that is
/// anyone's). Another client, which may only read the session, does not. A session
/// that is gone is no one's concern.
pub(crate) fn concerns(
    runtime: &Runtime,
    caller: Option<&Owner>,
    activity: &EditorActivity,
) -> bool {
    runtime
        .session(activity.session)
        .is_some_and(|session| session.ownership().may_drive(caller))
}

/// Tell the client of `activity`.
pub(crate) async fn send(
    peer: &Peer<RoleServer>,
    level: &LogLevel,
    subscriptions: &Subscriptions,
    activity: &EditorActivity,
) -> Result<(), rmcp::ServiceError> {
    let session_id = activity.session.to_string();
    let event = json!({
        "session_id": session_id,
        "signal": activity.signal(),
        "payload": activity.payload(),
    });
    if level.wants(LoggingLevel::Notice) {
        let mut data = event.clone();
        data["message"] = activity.sentence().into();
        let mut param = LoggingMessageNotificationParam::new(LoggingLevel::Notice, data);
        param.logger = Some(super::logging::LOGGER.to_string());
        peer.notify_logging_message(param).await?;
    }
    let uri = session_uri(activity.session);
    if subscriptions.contains(&uri) {
        let mut param = ResourceUpdatedNotificationParam::new(uri);
        let mut object = serde_json::Map::new();
        object.insert("dapvisor/event".into(), event);
        param.meta = Some(NotificationMetaObject(MetaObject(object)));
        peer.notify_resource_updated(param).await?;
    }
    Ok(())
}
