//! Carrying out what the session core asks for ([`Effect`]): starting and stopping
//! adapters, sending requests, answering agents, publishing events, timers, and the
//! reports to the supervisor. Inputs an effect produces (a transport that could not
//! start, a request that could not be sent) are fed back to the core.

use std::collections::VecDeque;
use std::sync::Arc;

use ractor::{Actor, ActorRef};

use crate::core::command::{Effect, Input};
use crate::core::failure::Failure;
use crate::error::{AdapterExit, SessionError, TransportError};
use crate::events::{EventKind, SessionEvent};
use crate::registry::ResolvedAdapter;
use crate::session::actor::SessionActorState;
use crate::session::messages::SessionMsg;
use crate::session::report::SessionReport;
use crate::transport::{TransportActor, TransportArgs, TransportMsg};

impl SessionActorState {
    /// Feed `input` and carry out the effects, feeding back any inputs they produce
    /// (a transport that could not start, a request that could not be sent).
    pub(super) async fn run(&mut self, myself: &ActorRef<SessionMsg>, input: Input) {
        let mut inputs = VecDeque::from([input]);
        while let Some(input) = inputs.pop_front() {
            for effect in self.core.handle(input) {
                if let Some(feedback) = self.apply(myself, effect).await {
                    inputs.push_back(feedback);
                }
            }
        }
    }

    async fn apply(&mut self, myself: &ActorRef<SessionMsg>, effect: Effect) -> Option<Input> {
        match effect {
            Effect::StartAdapter(adapter) => {
                // A new run: the old one's bootstrap goes with its adapter.
                if let Some((_, bootstrap)) = self.bootstrap.take() {
                    let _ = bootstrap.cast(TransportMsg::StopAdapter);
                }
                self.shared.stales_frames.store(
                    adapter.flavor.quirks().evaluation_stales_frames,
                    std::sync::atomic::Ordering::Relaxed,
                );
                return self.start_adapter(myself, *adapter).await;
            }
            Effect::AdoptTarget(adapter) => {
                // The current connection stays, as the bootstrap.
                if let Some(current) = self.transport.take() {
                    self.bootstrap = Some((self.generation, current));
                }
                return self.start_adapter(myself, *adapter).await;
            }
            Effect::StopBootstrap => {
                // Kept until it says it closed, so its last words are still heard.
                if let Some((_, bootstrap)) = &self.bootstrap {
                    let _ = bootstrap.cast(TransportMsg::StopAdapter);
                }
            }
            Effect::Send {
                tag,
                request,
                timeout,
            } => {
                let Some(transport) = &self.transport else {
                    let exit = AdapterExit {
                        reason: "no adapter is connected".into(),
                        ..AdapterExit::default()
                    };
                    return Some(Input::Response {
                        tag,
                        result: Err(TransportError::AdapterGone { exit }),
                    });
                };
                // A transport that refuses the message has just ended: its `Closed`
                // (or its failure) is already on its way here, and answers this
                // request as it answers the others (as a crash's, if it is one).
                let _ = transport.cast(TransportMsg::Send {
                    tag,
                    request,
                    timeout,
                });
            }
            Effect::Cancel { tag } => {
                if let Some(transport) = &self.transport {
                    let _ = transport.cast(TransportMsg::Cancel { tag });
                }
            }
            Effect::Reply { token, result } => {
                if let Some((reply, counts_as_use)) = self.replies.remove(&token) {
                    if counts_as_use {
                        // The agent was busy with the session until now (a long wait
                        // for a stop is use, not idleness): marked before the answer
                        // goes and the call stops counting as in flight (its handle
                        // gives its place back), so no sweep sees neither.
                        self.shared.touch();
                    }
                    let _ = reply.send(result);
                }
            }
            Effect::Emit(kind) => {
                if let EventKind::AdapterRestarted { .. } = &kind {
                    // The supervisor measures the stable period from here.
                    let session = self.id;
                    let _ = self
                        .supervisor
                        .send_message(SessionReport::AdapterRestarted { session });
                }
                if let EventKind::SessionFailed { reason } = &kind {
                    // Failed is final: handles and the runtime keep the reason after
                    // the session is ended or reaped.
                    let reason = reason.clone();
                    self.shared
                        .set_ended(SessionError::SessionFailed { reason });
                }
                self.publish(kind)
            }
            Effect::StartTimer { id, after } => self.timers.start(myself, id, after),
            Effect::CancelTimer { id } => self.timers.cancel(id),
            Effect::Release { token } => self.withdrawn.released(token),
            Effect::StopAdapter => {
                if let Some(t) = &self.transport {
                    let _ = t.cast(TransportMsg::StopAdapter);
                }
            }
            Effect::EndChildren { terminate_debuggee } => self.end_children(terminate_debuggee),
            Effect::SpawnChild(mut plan) => {
                plan.parent = Some(self.id);
                // The place the transport took when it told the adapter yes; without
                // one (none can be without), no child.
                if let Some(slot) = self.child_slot.take() {
                    let _ = self
                        .supervisor
                        .send_message(SessionReport::SpawnChild { plan, slot });
                }
            }
            Effect::ReportCrash(exit) => {
                let report = SessionReport::AdapterCrashed {
                    session: self.id,
                    exit,
                };
                if self.supervisor.send_message(report).is_err() {
                    // No supervisor to decide (the runtime is stopping): fail.
                    return Some(Input::Fail {
                        cause: Failure::RuntimeStopping,
                    });
                }
            }
        }
        None
    }

    /// End the live children from a task each: ending waits on their adapters,
    /// which a handler must not.
    fn end_children(&self, terminate_debuggee: bool) {
        for child in self.children.clone() {
            tokio::spawn(async move {
                if !child.state().await.is_ok_and(|s| s.is_live()) {
                    return;
                }
                let ended = if terminate_debuggee {
                    child.terminate().await
                } else {
                    child.disconnect(false).await
                };
                if let Err(err) = ended {
                    tracing::warn!(child = %child.id(), %err, "a child session did not end");
                }
            });
        }
    }

    fn publish(&self, kind: EventKind) {
        let event = Arc::new(SessionEvent {
            session_id: self.id,
            kind,
        });
        self.hub.publish_arc(event.clone());
        self.runtime_hub.publish_arc(event);
    }

    /// Replace the adapter: the old one is shut down and its output ignored from now.
    async fn start_adapter(
        &mut self,
        myself: &ActorRef<SessionMsg>,
        adapter: ResolvedAdapter,
    ) -> Option<Input> {
        if let Some(old) = self.transport.take() {
            let _ = old.cast(TransportMsg::StopAdapter);
        }
        self.generation += 1;
        let generation = self.generation;
        let me = myself.clone();
        let sink = Arc::new(move |output| {
            let _ = me.cast(SessionMsg::Transport { generation, output });
        });
        let name = adapter.name.clone();
        let args = TransportArgs {
            adapter,
            sink,
            config: self.transport_config.clone(),
            pid_slot: Some(self.shared.clone_pid_slot()),
            traffic: self.shared.traffic.clone(),
            span: self.span.clone(),
            child_slots: self.shared.child_slots.clone(),
            tree_owner: Some(self.id.to_string()),
        };
        // Spawning only starts the process (no adapter I/O), so awaiting it here
        // does not wait on the adapter.
        match Actor::spawn_linked(None, TransportActor, args, myself.get_cell()).await {
            Ok((transport, _)) => {
                self.transport = Some(transport);
                None
            }
            Err(err) => {
                // ractor words a failed pre_start as a panic; the cause is what counts.
                let cause = match err {
                    ractor::SpawnErr::StartupFailed(cause) => cause.to_string(),
                    other => other.to_string(),
                };
                Some(Input::Closed(AdapterExit {
                    reason: format!("could not start adapter `{name}`: {cause}"),
                    ..AdapterExit::default()
                }))
            }
        }
    }
}
