//! One editor's conversation with an exposed session, as pure logic: each request it
//! sends becomes a [`Step`] (answer it here, ask the session, or hang up), with no
//! I/O. The socket (`server.rs`) carries the steps out.
//!
//! The editor's handshake is the endpoint's own: `initialize` is answered with the
//! adapter's capabilities (those it may use here), `attach` must carry the token, and
//! is answered with `initialized` and the current stop; `configurationDone` is
//! acknowledged and `disconnect` ends this editor's connection only.

use dapvisor_actors::wire::{DapCommand, Event, Message, Request, Response};
use dapvisor_actors::StopInfo;
use serde_json::{json, Map, Value};

use super::access::{access_of, capabilities_for_editor, refusal, IdeAccess};
use super::events::{notice, stopped};
use super::token::{ExposeToken, TOKEN_FIELD};

/// What the session is now, for answering the handshake.
#[derive(Debug, Clone, Default)]
pub struct Now {
    /// The adapter's capabilities, as its `initialize` answer gave them.
    pub capabilities: Map<String, Value>,
    /// The stop the program is at, if it is stopped.
    pub stop: Option<StopInfo>,
}

/// What to do with one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Send these messages.
    Send(Vec<Message>),
    /// Send these messages, then close the connection.
    Close(Vec<Message>),
    /// Send the request to the session, and answer the editor with what it says.
    Ask(Ask),
}

/// A request for the session.
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    /// The editor's request, to answer.
    pub request_seq: i64,
    /// Its command.
    pub command: DapCommand,
    /// Its arguments, as the editor sent them.
    pub arguments: Option<Value>,
    /// How the endpoint treats it.
    pub access: IdeAccess,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Nothing yet: `initialize` comes first.
    New,
    /// Initialized; `attach` with the token comes next.
    Initialized,
    /// Admitted.
    Attached,
}

/// One editor's conversation.
#[derive(Debug)]
pub struct Conversation {
    token: ExposeToken,
    control: bool,
    owner: String,
    session: String,
    phase: Phase,
}

impl Conversation {
    /// A conversation with an editor on session `session` owned by `owner` (said for a
    /// person: `client c1`), which may drive it when `control` is set.
    pub fn new(token: ExposeToken, control: bool, owner: String, session: String) -> Self {
        Self {
            token,
            control,
            owner,
            session,
            phase: Phase::New,
        }
    }

    /// Whether the editor has shown the token.
    pub fn admitted(&self) -> bool {
        self.phase == Phase::Attached
    }

    /// What to do with `request`; `now` is the session as it is, for the handshake.
    pub fn on_request(&mut self, request: &Request, now: &Now) -> Step {
        let command = request.command.as_str();
        let answer = |result: Result<Option<Value>, String>| {
            Message::Response(Response::new(request.seq, command, result))
        };
        match (self.phase, command) {
            (_, "disconnect") => Step::Close(vec![answer(Ok(None))]),
            (Phase::New, "initialize") => {
                self.phase = Phase::Initialized;
                let capabilities = capabilities_for_editor(now.capabilities.clone(), self.control);
                Step::Send(vec![answer(Ok(Some(Value::Object(capabilities))))])
            }
            (Phase::Initialized, "attach") => self.attach(request, now),
            (Phase::Attached, "configurationDone") => Step::Send(vec![answer(Ok(None))]),
            (Phase::Attached, _) => self.ask(request),
            (_, _) => Step::Close(vec![answer(Err(format!(
                "`{command}` before the handshake: send `initialize`, then `attach` with \
                 `\"{TOKEN_FIELD}\": TOKEN` (the token debug.expose gave for session {})",
                self.session
            )))]),
        }
    }

    fn attach(&mut self, request: &Request, now: &Now) -> Step {
        if !self.token.admits(request.arguments.as_ref()) {
            let given = request
                .arguments
                .as_ref()
                .and_then(|a| a.get(TOKEN_FIELD))
                .is_some();
            let why = if given {
                "the token is not this exposure's"
            } else {
                "the attach arguments carry no token"
            };
            return Step::Close(vec![Message::Response(Response::new(
                request.seq,
                "attach",
                Err(format!(
                    "{why}: put `\"{TOKEN_FIELD}\": TOKEN` in the attach arguments, with the \
                     token debug.expose gave for session {} (a new exposure has a new token)",
                    self.session
                )),
            ))]);
        }
        self.phase = Phase::Attached;
        let mode = if self.control {
            "you may drive it too; each move you make is shown to the agent"
        } else {
            "read-only: you can look, not move it"
        };
        let mut sent = vec![
            Message::Response(Response::new(request.seq, "attach", Ok(None))),
            Message::Event(Event::new("initialized", None)),
            Message::Event(notice(&format!(
                "watching dapvisor session {} of {} ({mode})",
                self.session, self.owner
            ))),
        ];
        if let Some(stop) = &now.stop {
            sent.push(Message::Event(stopped(stop)));
        }
        Step::Send(sent)
    }

    fn ask(&self, request: &Request) -> Step {
        let command = request.command.as_str();
        if let Some(why) = refusal(command, self.control, &self.owner) {
            return Step::Send(vec![error(request.seq, command, why)]);
        }
        let known = DapCommand::from_name(command).expect("refusal() refuses unknown commands");
        Step::Ask(Ask {
            request_seq: request.seq,
            command: known,
            arguments: request.arguments.clone(),
            access: access_of(known),
        })
    }
}

/// An error answer to request `seq`, which an editor shows its user (`body.error`).
pub fn error(seq: i64, command: &str, message: String) -> Message {
    let mut response = Response::new(seq, command, Err(message.clone()));
    response.body = Some(json!({"error": {"id": 1, "format": message, "showUser": true}}).into());
    Message::Response(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(seq: i64, command: &str, arguments: Option<Value>) -> Request {
        Request {
            seq,
            ..Request::new(command, arguments)
        }
    }

    fn now() -> Now {
        Now {
            capabilities: json!({"supportsSetVariable": true})
                .as_object()
                .unwrap()
                .clone(),
            stop: Some(StopInfo {
                reason: "breakpoint".into(),
                thread_id: Some(1),
                all_threads_stopped: true,
                hit_breakpoint_ids: vec![],
                description: None,
                text: None,
                epoch: 1,
            }),
        }
    }

    fn conversation(control: bool) -> (Conversation, String) {
        let token = ExposeToken::fresh().unwrap();
        let secret = token.secret().to_string();
        let c = Conversation::new(token, control, "client c1".into(), "s1".into());
        (c, secret)
    }

    fn names(messages: &[Message]) -> Vec<String> {
        messages
            .iter()
            .map(|m| match m {
                Message::Response(r) => format!("{}:{}", r.command, r.success),
                Message::Event(e) => e.event.clone(),
                Message::Request(r) => r.command.clone(),
            })
            .collect()
    }

    fn attached(control: bool) -> Conversation {
        let (mut c, secret) = conversation(control);
        c.on_request(&request(1, "initialize", None), &now());
        c.on_request(
            &request(2, "attach", Some(json!({"token": secret}))),
            &now(),
        );
        assert!(c.admitted());
        c
    }

    #[test]
    fn the_handshake_gives_capabilities_then_initialized_and_the_current_stop() {
        let (mut c, secret) = conversation(false);
        let Step::Send(init) = c.on_request(&request(1, "initialize", None), &now()) else {
            panic!("initialize is answered");
        };
        let Message::Response(caps) = &init[0] else {
            panic!()
        };
        assert_eq!(caps.body_or_empty()["supportsSetVariable"], false);
        let attach = request(2, "attach", Some(json!({"token": secret})));
        let Step::Send(sent) = c.on_request(&attach, &now()) else {
            panic!("attach is answered");
        };
        assert_eq!(
            names(&sent),
            ["attach:true", "initialized", "output", "stopped"]
        );
        let done = c.on_request(&request(3, "configurationDone", None), &now());
        assert!(matches!(done, Step::Send(m) if names(&m) == ["configurationDone:true"]));
    }

    #[test]
    fn a_wrong_or_missing_token_is_refused_and_the_connection_closed() {
        for arguments in [
            Some(json!({"token": "0".repeat(64)})),
            Some(json!({})),
            None,
        ] {
            let (mut c, _) = conversation(false);
            c.on_request(&request(1, "initialize", None), &now());
            let Step::Close(sent) = c.on_request(&request(2, "attach", arguments), &now()) else {
                panic!("a wrong token closes");
            };
            assert_eq!(names(&sent), ["attach:false"]);
            assert!(!c.admitted());
        }
    }

    #[test]
    fn nothing_but_the_handshake_goes_before_the_token() {
        let (mut c, _) = conversation(true);
        let step = c.on_request(&request(1, "threads", None), &now());
        let Step::Close(sent) = step else {
            panic!("closes")
        };
        let Message::Response(r) = &sent[0] else {
            panic!()
        };
        assert!(r
            .message
            .as_deref()
            .unwrap()
            .contains("before the handshake"));
        let (mut c, _) = conversation(true);
        c.on_request(&request(1, "initialize", None), &now());
        assert!(matches!(
            c.on_request(&request(2, "continue", None), &now()),
            Step::Close(_)
        ));
    }

    #[test]
    fn reads_are_asked_and_moves_refused_read_only() {
        let mut c = attached(false);
        let step = c.on_request(
            &request(5, "stackTrace", Some(json!({"threadId": 1}))),
            &now(),
        );
        assert!(matches!(
            step,
            Step::Ask(Ask {
                command: DapCommand::StackTrace,
                request_seq: 5,
                ..
            })
        ));
        let Step::Send(sent) = c.on_request(&request(6, "continue", None), &now()) else {
            panic!("refused here");
        };
        let Message::Response(r) = &sent[0] else {
            panic!()
        };
        assert!(!r.success);
        assert!(r.message.as_deref().unwrap().contains("read-only"));
        assert!(r.message.as_deref().unwrap().contains("client c1"));
    }

    #[test]
    fn with_control_a_move_is_asked_and_disconnect_only_hangs_up() {
        let mut c = attached(true);
        let step = c.on_request(&request(5, "next", Some(json!({"threadId": 1}))), &now());
        assert!(matches!(
            step,
            Step::Ask(Ask {
                access: IdeAccess::Drive,
                ..
            })
        ));
        let step = c.on_request(&request(6, "disconnect", None), &now());
        assert!(matches!(step, Step::Close(m) if names(&m) == ["disconnect:true"]));
    }
}
