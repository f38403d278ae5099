//! The SessionActor: a thin shell around [`SessionCore`]. It feeds the core agent
//! commands, transport output and timers, and carries out the effects the core asks
//! for. It never waits on the adapter: a request's answer is a later message.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, SupervisionEvent};

use crate::core::command::{Answer, Command, Effect, Input, TimerId, Token};
use crate::core::session::{CoreConfig, SessionCore};
use crate::error::{AdapterExit, SessionError};
use crate::events::{EventHub, EventKind, SessionEvent};
use crate::registry::ResolvedAdapter;
use crate::session::SessionId;
use crate::transport::{
    TransportActor, TransportArgs, TransportConfig, TransportMsg, TransportOutput,
};

/// Messages a session handles.
pub enum SessionMsg {
    /// An agent's command; the answer goes to `reply`.
    Agent {
        /// What is asked.
        command: Command,
        /// Where the answer goes.
        reply: RpcReplyPort<Result<Answer, SessionError>>,
    },
    /// Output of the transport of adapter `generation` (older generations are ignored).
    Transport {
        /// Which adapter start it came from.
        generation: u64,
        /// What it reported.
        output: TransportOutput,
    },
    /// A core timer fired.
    Timer(TimerId),
}

/// Counters shared between a session and its handles.
#[derive(Debug, Default)]
pub struct SessionShared {
    /// Agent requests queued or in flight.
    pub queued: AtomicUsize,
    /// The current adapter's pid (0 when none); the transport fills it in.
    pub adapter_pid: Arc<AtomicU32>,
}

impl SessionShared {
    fn clone_pid_slot(&self) -> Arc<AtomicU32> {
        self.adapter_pid.clone()
    }
}

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
}

/// The actor; see the module docs.
pub struct SessionActor;

/// The session's state: the core plus what the shell needs to carry out effects.
pub struct SessionActorState {
    id: SessionId,
    core: SessionCore,
    transport_config: TransportConfig,
    transport: Option<ActorRef<TransportMsg>>,
    generation: u64,
    replies: HashMap<Token, RpcReplyPort<Result<Answer, SessionError>>>,
    next_token: Token,
    hub: EventHub<SessionEvent>,
    runtime_hub: EventHub<SessionEvent>,
    shared: Arc<SessionShared>,
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
        Ok(SessionActorState {
            id: args.id,
            core: SessionCore::new(args.core),
            transport_config: args.transport,
            transport: None,
            generation: 0,
            replies: HashMap::new(),
            next_token: 1,
            hub: args.hub,
            runtime_hub: args.runtime_hub,
            shared: args.shared,
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<Self::Msg>,
        message: Self::Msg,
        state: &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        let input = match message {
            SessionMsg::Agent { command, reply } => {
                let token = state.next_token;
                state.next_token += 1;
                state.replies.insert(token, reply);
                Input::Command {
                    token,
                    command,
                    at: Instant::now(),
                }
            }
            SessionMsg::Transport { generation, output } => {
                if generation != state.generation {
                    return Ok(());
                }
                match output {
                    TransportOutput::Event(event) => Input::Event(event),
                    TransportOutput::Response { tag, result } => Input::Response { tag, result },
                    TransportOutput::Closed(exit) => {
                        state.transport = None;
                        state.shared.adapter_pid.store(0, Ordering::Relaxed);
                        Input::Closed(exit)
                    }
                }
            }
            SessionMsg::Timer(id) => Input::Timer(id),
        };
        state.run(&myself, input).await;
        Ok(())
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
        if let SupervisionEvent::ActorFailed(cell, err) = event {
            let current = state.transport.as_ref().map(|t| t.get_id());
            if current == Some(cell.get_id()) {
                state.transport = None;
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
        for (_, reply) in state.replies.drain() {
            let _ = reply.send(Err(SessionError::SessionEnded(state.id.to_string())));
            state.shared.queued.fetch_sub(1, Ordering::Relaxed);
        }
        // The transport is a linked child: ractor kills it, and its process group
        // goes with its state.
        Ok(())
    }
}

impl SessionActorState {
    /// Feed `input` and carry out the effects, feeding back any inputs they produce
    /// (a transport that could not start, a request that could not be sent).
    async fn run(&mut self, myself: &ActorRef<SessionMsg>, input: Input) {
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
            Effect::StartAdapter(adapter) => return self.start_adapter(myself, *adapter).await,
            Effect::Send {
                tag,
                request,
                timeout,
            } => {
                let sent = self.transport.as_ref().is_some_and(|t| {
                    t.cast(TransportMsg::Send {
                        tag,
                        request,
                        timeout,
                    })
                    .is_ok()
                });
                if !sent {
                    let exit = AdapterExit {
                        reason: "no adapter is connected".into(),
                        ..AdapterExit::default()
                    };
                    return Some(Input::Response {
                        tag,
                        result: Err(SessionError::AdapterExited { exit }),
                    });
                }
            }
            Effect::Reply { token, result } => {
                if let Some(reply) = self.replies.remove(&token) {
                    let _ = reply.send(result);
                    self.shared.queued.fetch_sub(1, Ordering::Relaxed);
                }
            }
            Effect::Emit(kind) => self.publish(kind),
            Effect::StartTimer { id, after } => {
                myself.send_after(after, move || SessionMsg::Timer(id));
            }
            Effect::StopAdapter => {
                if let Some(t) = &self.transport {
                    let _ = t.cast(TransportMsg::Shutdown);
                }
            }
        }
        None
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
            let _ = old.cast(TransportMsg::Shutdown);
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
        };
        // Spawning only starts the process (no adapter I/O), so awaiting it here
        // does not wait on the adapter.
        match Actor::spawn_linked(None, TransportActor, args, myself.get_cell()).await {
            Ok((transport, _)) => {
                self.transport = Some(transport);
                None
            }
            Err(err) => Some(Input::Closed(AdapterExit {
                reason: format!("could not start adapter `{name}`: {err}"),
                ..AdapterExit::default()
            })),
        }
    }
}
