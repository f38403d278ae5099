//! The SessionActor: a thin shell around [`SessionCore`]. It feeds the core agent
//! commands, transport output and timers, and carries out the effects the core asks
//! for. It never waits on the adapter: a request's answer is a later message.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures::FutureExt;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, SupervisionEvent};
use tracing::Instrument;

use crate::core::command::BootstrapInput;
use crate::core::command::{Answer, Command, Input, Token};
use crate::core::failure::Failure;
use crate::core::session::{CoreConfig, SessionCore};
use crate::error::{AdapterExit, SessionError};
use crate::events::{EventHub, SessionEvent};
use crate::session::messages::{CrashDecision, SessionMsg};
use crate::session::report::Supervisor;
use crate::session::shared::SessionShared;
use crate::session::{SessionHandle, SessionId};
use crate::transport::{FrameCredit, TransportConfig, TransportMsg, TransportOutput};

/// What a session is started with.
pub struct SessionArgs {
    /// Its id.
    pub id: SessionId,
    /// Core limits.
    pub core: CoreConfig,
    /// Transport limits.
    pub transport: TransportConfig,
    /// The session's own event hub.
    pub hub: EventHub<SessionEvent>,
    /// The runtime-wide hub.
    pub runtime_hub: EventHub<SessionEvent>,
    /// Counters shared with handles.
    pub shared: Arc<SessionShared>,
    /// The supervisor that decides about crashes and starts children.
    pub supervisor: Supervisor,
    /// A child session's place in its tree's bound on child sessions.
    pub slot: Option<crate::transport::ChildSlot>,
}

/// The actor; see the module docs.
pub struct SessionActor;

/// The session's state: the core plus what the shell needs to carry out effects.
pub struct SessionActorState {
    pub(super) id: SessionId,
    /// `session{id, adapter, program}`: what it and its transports log is under it.
    pub(super) span: tracing::Span,
    pub(super) core: SessionCore,
    pub(super) transport_config: TransportConfig,
    pub(super) transport: Option<ActorRef<TransportMsg>>,
    pub(super) generation: u64,
    /// The connection that bootstrapped the program, and its generation, once the
    /// program's own connection was adopted (js-debug; see `core/bootstrap.rs`).
    pub(super) bootstrap: Option<(u64, ActorRef<TransportMsg>)>,
    /// Agents waiting for an answer, and whether their request counts as use.
    pub(super) replies: HashMap<Token, (RpcReplyPort<Result<Answer, SessionError>>, bool)>,
    /// The child sessions started for this one.
    pub(super) children: Vec<SessionHandle>,
    pub(super) hub: EventHub<SessionEvent>,
    pub(super) runtime_hub: EventHub<SessionEvent>,
    pub(super) shared: Arc<SessionShared>,
    pub(super) supervisor: Supervisor,
    /// The core's timers, ended when it cancels them or the actor goes.
    pub(super) timers: super::held::Timers,
    /// Queue places of withdrawn calls, given back when released or the actor goes.
    pub(super) withdrawn: super::held::WithdrawnPlaces,
    /// The place of the child session the adapter just asked for, while the core
    /// handles the request.
    pub(super) child_slot: Option<crate::transport::ChildSlot>,
    /// This session's own place in its tree's bound, if it is a child: held for its
    /// life.
    pub(super) _own_slot: Option<crate::transport::ChildSlot>,
}

impl Actor for SessionActor {
    type Msg = SessionMsg;
    type State = SessionActorState;
    type Arguments = SessionArgs;

    async fn pre_start(
        &self,
        _myself: ActorRef<Self::Msg>,
        args: SessionArgs,
    ) -> Result<Self::State, ActorProcessingErr> {
        let span = tracing::info_span!(
            "session",
            id = %args.id,
            adapter = tracing::field::Empty,
            program = tracing::field::Empty,
        );
        Ok(SessionActorState {
            span,
            id: args.id,
            core: SessionCore::new(args.core),
            transport_config: args.transport,
            transport: None,
            generation: 0,
            bootstrap: None,
            replies: HashMap::new(),
            children: Vec::new(),
            hub: args.hub,
            runtime_hub: args.runtime_hub,
            withdrawn: super::held::WithdrawnPlaces::new(args.shared.clone()),
            shared: args.shared,
            supervisor: args.supervisor,
            timers: Default::default(),
            child_slot: None,
            _own_slot: args.slot,
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<Self::Msg>,
        message: Self::Msg,
        state: &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        // A bug in this session's own code (an error or a panic) ends this session
        // only. The agents waiting on it are told why now: left to ractor, their
        // replies would be dropped before the supervisor had recorded the failure,
        // and they would hear only that the session ended.
        let span = state.span.clone();
        // Any other message may change the session: the published snapshot stops
        // holding before anything is answered or published from it. Answering a
        // snapshot changes nothing; the first one after a change is published once
        // the message is handled, for handles to read without a message while
        // nothing changes.
        let answers_snapshot = matches!(
            &message,
            SessionMsg::Agent {
                command: Command::Snapshot,
                ..
            }
        );
        if !answers_snapshot {
            state.shared.snapshot.invalidate();
        }
        let handled = AssertUnwindSafe(state.handle_message(&myself, message))
            .catch_unwind()
            .instrument(span)
            .await;
        let err: ActorProcessingErr = match handled {
            Ok(Ok(())) => {
                if answers_snapshot && state.shared.snapshot.current().is_none() {
                    state.shared.snapshot.publish(state.core.snapshot());
                }
                return Ok(());
            }
            Ok(Err(err)) => err,
            Err(panic) => panic_text(panic.as_ref()).into(),
        };
        state.fail_waiting(failure_reason(&err));
        // ractor skips `post_stop` after a failure; the transport, a linked child,
        // goes with this actor.
        state.forget_transport();
        Err(err)
    }

    async fn handle_supervisor_evt(
        &self,
        myself: ActorRef<Self::Msg>,
        event: SupervisionEvent,
        state: &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        // The default would stop this session when its transport stops. A transport
        // that stops normally has already said so through its sink; only a failure
        // (a panic) needs turning into the adapter's end here.
        state.shared.snapshot.invalidate();
        if let SupervisionEvent::ActorFailed(cell, err) = event {
            let current = state.transport.as_ref().map(|t| t.get_id());
            let bootstrap = state.bootstrap.as_ref().map(|(_, t)| t.get_id());
            if bootstrap == Some(cell.get_id()) {
                state.forget_bootstrap();
                let exit = AdapterExit {
                    reason: format!("the bootstrap's transport failed: {err}"),
                    ..AdapterExit::default()
                };
                let input = Input::Bootstrap(BootstrapInput::Closed(exit));
                state.run(&myself, input).await;
            } else if current == Some(cell.get_id()) {
                state.forget_transport();
                let exit = AdapterExit {
                    reason: format!("the transport failed: {err}"),
                    ..AdapterExit::default()
                };
                state.run(&myself, Input::Closed(exit)).await;
            }
        }
        Ok(())
    }

    async fn post_stop(
        &self,
        _myself: ActorRef<Self::Msg>,
        state: &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        state.shared.snapshot.invalidate();
        state.answer_waiting();
        // The transports (the bootstrap's too) are linked children: ractor kills
        // them, and their process group goes with their state.
        state.forget_transport();
        state.forget_bootstrap();
        Ok(())
    }
}

impl SessionActorState {
    async fn handle_message(
        &mut self,
        myself: &ActorRef<SessionMsg>,
        message: SessionMsg,
    ) -> Result<(), ActorProcessingErr> {
        let state = self;
        // An adapter event's place in its transport's bound, given back once the
        // event is handled (see `FrameCredit`).
        let mut handling = FrameCredit::none();
        let input = match message {
            SessionMsg::Agent {
                token,
                client,
                command,
                reply,
            } => {
                // Checked as the call is taken, after whatever it waited behind;
                // reading what the session holds acts on nothing.
                let acts = !command.reads_state();
                if let Some(refusal) = state.refusal_for(client.as_ref().filter(|_| acts)) {
                    let _ = reply.send(Err(refusal));
                    return Ok(());
                }
                if let Command::Start(plan) = &command {
                    let display = tracing::field::display;
                    state.span.record("adapter", display(&plan.adapter.name));
                    if let Some(program) = &plan.program {
                        state.span.record("program", display(program));
                    }
                }
                let counts_as_use = command.counts_as_use();
                state.replies.insert(token, (reply, counts_as_use));
                if counts_as_use {
                    state.shared.touch();
                }
                Input::Command { token, command }
            }
            SessionMsg::Transport { generation, output } if generation != state.generation => {
                let bootstrap = state.bootstrap.as_ref().map(|(g, _)| *g);
                if bootstrap != Some(generation) {
                    return Ok(());
                }
                if matches!(output, TransportOutput::Closed(_)) {
                    state.forget_bootstrap();
                }
                let (input, credit, child_slot) = super::bootstrap::input_of(output);
                handling = credit;
                state.child_slot = child_slot;
                input
            }
            SessionMsg::Transport { output, .. } => match output {
                TransportOutput::Event(event, credit) => {
                    handling = credit;
                    Input::Event(event)
                }
                TransportOutput::Response { tag, result } => Input::Response { tag, result },
                TransportOutput::StartDebugging {
                    request,
                    configuration,
                    server,
                    slot,
                } => {
                    // Given to the child the core asks for; dropped (given back) if
                    // it asks for none.
                    state.child_slot = Some(slot);
                    Input::StartDebugging {
                        request,
                        configuration,
                        server,
                    }
                }
                TransportOutput::Closed(exit) => {
                    state.forget_transport();
                    Input::Closed(exit)
                }
            },
            SessionMsg::Timer(id) => {
                state.timers.fired(id);
                Input::Timer(id)
            }
            SessionMsg::Withdraw { token, place } => {
                // Answered already (the answer crossed the withdrawal), or never
                // asked (given up on before its message went): it holds nothing here,
                // so its place comes back now.
                if state.replies.remove(&token).is_none() {
                    if place {
                        state.withdrawn.give_back();
                    }
                    return Ok(());
                }
                // Else its place stays until the core has no request of it pending.
                if place {
                    state.withdrawn.keep(token);
                }
                Input::Withdraw { token }
            }
            SessionMsg::ChildStarted(child) => {
                state
                    .children
                    .retain(|c| c.actor().get_status() != ractor::ActorStatus::Stopped);
                state.children.push(child);
                return Ok(());
            }
            #[cfg(any(test, feature = "testing"))]
            SessionMsg::InjectFault(fault) if fault.is_transport() => {
                if let Some(transport) = &state.transport {
                    let _ = transport.cast(TransportMsg::InjectFault(fault));
                }
                return Ok(());
            }
            #[cfg(any(test, feature = "testing"))]
            SessionMsg::InjectFault(fault) => return fault.fail("session"),
            SessionMsg::Supervision(decision) => match decision {
                CrashDecision::Scheduled {
                    attempt,
                    after,
                    crash,
                } => Input::AdapterRestartScheduled {
                    attempt,
                    after,
                    crash,
                },
                CrashDecision::RestartNow { attempt, crash } => {
                    match crate::session::reattach::check(&state.core, attempt, crash) {
                        crate::session::reattach::Check::Now(input) => input,
                        crate::session::reattach::Check::Probe { host, port } => {
                            let timeout = state.transport_config.connect_timeout;
                            let me = myself.clone();
                            tokio::spawn(async move {
                                let gone =
                                    crate::session::reattach::server_gone(&host, port, timeout)
                                        .await;
                                let verdict = SessionMsg::Reattach {
                                    attempt,
                                    crash,
                                    gone,
                                };
                                let _ = me.cast(verdict);
                            });
                            return Ok(());
                        }
                        crate::session::reattach::Check::Replay { check, plan } => {
                            let me = myself.clone();
                            tokio::task::spawn_blocking(move || {
                                let gone = crate::session::reattach::replay_refused(&check, &plan);
                                let verdict = SessionMsg::Reattach {
                                    attempt,
                                    crash,
                                    gone,
                                };
                                let _ = me.cast(verdict);
                            });
                            return Ok(());
                        }
                    }
                }
                CrashDecision::GiveUp { reason } => Input::Fail {
                    cause: Failure::RestartBudgetSpent(reason),
                },
            },
            SessionMsg::Reattach {
                attempt,
                crash,
                gone,
            } => crate::session::reattach::restart_input(&state.core, attempt, crash, gone),
        };
        state.run(myself, input).await;
        drop(handling);
        state.child_slot = None;
        Ok(())
    }

    /// Why a call made for `client` may not act on this session now: another client
    /// owns it and does not share it with `client`. `None`: the call may act.
    fn refusal_for(&self, client: Option<&crate::session::Owner>) -> Option<SessionError> {
        let client = client?;
        let ownership = self.shared.ownership();
        if ownership.may_drive(Some(client)) {
            return None;
        }
        Some(SessionError::NotOwner {
            session: self.id.to_string(),
            owner: ownership.owner.map(|o| o.to_string()).unwrap_or_default(),
            client: client.to_string(),
        })
    }

    /// The bootstrap connection ended (closed, or failed): the adapter process it held
    /// goes with it.
    fn forget_bootstrap(&mut self) {
        self.bootstrap = None;
        self.shared.forget_adapter();
    }

    /// The current transport is gone (closed, or failed): its adapter's pid goes with
    /// it, however it ended, so no handle names a process that may be reused.
    fn forget_transport(&mut self) {
        self.transport = None;
        // A bootstrap connection (js-debug) still holds the adapter process.
        if self.bootstrap.is_none() {
            self.shared.forget_adapter();
        }
    }

    /// Answer every agent still waiting with the session's failure, recorded first so
    /// that later requests through any handle say the same.
    fn fail_waiting(&mut self, reason: String) {
        self.shared
            .set_ended(SessionError::SessionFailed { reason });
        self.answer_waiting();
    }

    /// Answer every agent still waiting with why the session ended (as recorded:
    /// reaped, failed), or that it ended.
    fn answer_waiting(&mut self) {
        let why = self
            .shared
            .ended()
            .unwrap_or_else(|| SessionError::SessionEnded(self.id.to_string()));
        for (_, (reply, _)) in self.replies.drain() {
            let _ = reply.send(Err(why.clone()));
        }
    }
}

/// How a failed session actor is described, to its agents and by its supervisor alike.
pub(crate) fn failure_reason(err: &dyn std::fmt::Display) -> String {
    format!("the session actor failed: {err}")
}

/// The message a panic carried.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = panic.downcast_ref::<&str>() {
        format!("panicked: {text}")
    } else if let Some(text) = panic.downcast_ref::<String>() {
        format!("panicked: {text}")
    } else {
        "panicked (no message)".into()
    }
}
