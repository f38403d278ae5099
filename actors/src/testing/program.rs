//! What the fake adapter answers: a tiny model of a debugged program (one thread,
//! one frame, breakpoints hit once each in id order) driven by DAP requests.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

use crate::testing::fake_adapter::Script;
use crate::testing::memory::{Memory, S_ADDRESS, X_ADDRESS};
use crate::wire::{Event, Message, Request, Response};

/// The one thread of the modelled program.
const THREAD_ID: i64 = 1;
/// The id of its one frame.
const FRAME_ID: i64 = 1;
/// The variables reference of the frame's `Locals` scope.
const LOCALS_REF: i64 = 1000;

/// One thing the serving task does, in order.
#[derive(Debug)]
pub(crate) enum Out {
    /// Send a message (its seq is filled in when it is written).
    Message(Message),
    /// Flush, then wait this long (tokio time).
    Pause(Duration),
    /// Flush, then close the connection.
    Close,
    /// Write these bytes as they are: a frame that is not a DAP message.
    Raw(Vec<u8>),
}

/// How the adapter reacts to one request.
#[derive(Debug)]
pub(crate) enum Reaction {
    /// Do this now.
    Now(Vec<Out>),
    /// Do this after a while.
    Later(Duration, Vec<Out>),
    /// Never answer.
    Nothing,
}

/// One connection's view of the program.
pub(crate) struct Program {
    script: Arc<Script>,
    program: String,
    /// Breakpoints by id: (source path, line).
    breakpoints: BTreeMap<i64, (String, i64)>,
    /// The last breakpoint id hit (each is hit once, in id order).
    last_hit: i64,
    next_breakpoint_id: i64,
    line: i64,
    /// Where the program's variables live.
    memory: Memory,
}

impl Program {
    pub(crate) fn new(script: Arc<Script>) -> Self {
        Self {
            script,
            program: String::new(),
            breakpoints: BTreeMap::new(),
            last_hit: 0,
            next_breakpoint_id: 1,
            line: 1,
            memory: Memory::new(),
        }
    }

    pub(crate) fn handle(&mut self, request: &Request) -> Reaction {
        let command = request.command.as_str();
        if self.script.close.contains(command) {
            return Reaction::Now(vec![Out::Close]);
        }
        if self.script.hang.contains(command) {
            return Reaction::Nothing;
        }
        let outs = match self.script.fail.get(command) {
            Some(message) => vec![failure(request, message)],
            None => self.answer(request),
        };
        match self.script.late.get(command) {
            Some(after) => Reaction::Later(*after, outs),
            None => Reaction::Now(outs),
        }
    }

    fn answer(&mut self, request: &Request) -> Vec<Out> {
        let args = request.arguments.clone().unwrap_or_else(|| json!({}));
        match request.command.as_str() {
            "initialize" => {
                let mut caps = capabilities();
                for (name, value) in &self.script.capabilities {
                    caps[name] = value.clone();
                }
                vec![success(request, Some(caps))]
            }
            "launch" | "attach" => {
                if let Some(program) = args["program"].as_str() {
                    self.program = program.to_string();
                }
                vec![success(request, None), event("initialized", None)]
            }
            "setBreakpoints" => {
                let path = args["source"]["path"].as_str().unwrap_or_default();
                self.breakpoints.retain(|_, (p, _)| p != path);
                let mut answered = Vec::new();
                for bp in args["breakpoints"].as_array().into_iter().flatten() {
                    let line = bp["line"].as_i64().unwrap_or(1);
                    let id = self.new_breakpoint_id();
                    self.breakpoints.insert(id, (path.to_string(), line));
                    answered.push(json!({
                        "id": id, "verified": true, "line": line, "source": {"path": path}
                    }));
                }
                vec![success(request, Some(json!({ "breakpoints": answered })))]
            }
            "setFunctionBreakpoints" => {
                let count = args["breakpoints"].as_array().map_or(0, Vec::len);
                let answered: Vec<Value> = (0..count)
                    .map(|_| json!({ "id": self.new_breakpoint_id(), "verified": true }))
                    .collect();
                vec![success(request, Some(json!({ "breakpoints": answered })))]
            }
            "setExceptionBreakpoints" => vec![success(request, None)],
            "configurationDone" => {
                let mut outs = vec![success(request, None)];
                for (command, arguments) in &self.script.reverse {
                    let reverse = Request::new(command.clone(), Some(arguments.clone()));
                    outs.push(Out::Message(Message::Request(reverse)));
                }
                outs.extend(junk_frames(self.script.junk_frames));
                outs.extend(thread_churn(self.script.thread_churn));
                match self.script.burst {
                    Some((pairs, outputs)) => outs.extend(self.burst(pairs, outputs)),
                    None => outs.extend(self.run_on()),
                }
                outs
            }
            "continue" => {
                let mut outs = vec![success(
                    request,
                    Some(json!({ "allThreadsContinued": true })),
                )];
                outs.extend(self.run_on());
                outs
            }
            "next" | "stepIn" | "stepOut" => {
                self.line += 1;
                vec![success(request, None), stopped("step", None)]
            }
            "pause" => vec![success(request, None), stopped("pause", None)],
            "threads" => vec![success(
                request,
                Some(json!({ "threads": [{ "id": THREAD_ID, "name": "main" }] })),
            )],
            "stackTrace" => {
                let frame = json!({
                    "id": FRAME_ID,
                    "name": "main",
                    "source": { "name": file_name(&self.program), "path": self.program },
                    "line": self.line,
                    "column": 1,
                });
                vec![success(
                    request,
                    Some(json!({ "stackFrames": [frame], "totalFrames": 1 })),
                )]
            }
            "scopes" => vec![success(
                request,
                Some(json!({ "scopes": [{
                    "name": "Locals", "variablesReference": LOCALS_REF, "expensive": false
                }] })),
            )],
            "variables" => {
                let variables = if args["variablesReference"].as_i64() == Some(LOCALS_REF) {
                    json!([
                        {
                            "name": "x", "value": self.memory.x().to_string(), "type": "int",
                            "variablesReference": 0,
                            "memoryReference": Memory::reference(X_ADDRESS),
                        },
                        {
                            "name": "s", "value": "\"hi\"", "type": "str",
                            "variablesReference": 0,
                            "memoryReference": Memory::reference(S_ADDRESS),
                        },
                    ])
                } else {
                    json!([])
                };
                vec![success(request, Some(json!({ "variables": variables })))]
            }
            "evaluate" => {
                let expression = args["expression"].as_str().unwrap_or_default();
                let result = match self.script.evaluate.get(expression) {
                    Some(fixed) => fixed.clone(),
                    None => expression.chars().rev().collect(),
                };
                let mut body = json!({ "result": result, "variablesReference": 0 });
                if expression == "x" {
                    body["memoryReference"] = json!(Memory::reference(X_ADDRESS));
                }
                vec![success(request, Some(body))]
            }
            "readMemory" => match self.memory.read(&args) {
                Ok(body) => vec![success(request, Some(body))],
                Err(why) => vec![failure(request, &why)],
            },
            "writeMemory" => match self.memory.write(&args) {
                Ok(body) => vec![success(request, Some(body))],
                Err(why) => vec![failure(request, &why)],
            },
            "terminate" => vec![success(request, None), event("terminated", None)],
            "disconnect" => vec![success(request, None), Out::Close],
            other => vec![failure(
                request,
                &format!("the fake adapter does not handle `{other}`"),
            )],
        }
    }

    fn new_breakpoint_id(&mut self) -> i64 {
        let id = self.next_breakpoint_id;
        self.next_breakpoint_id += 1;
        id
    }

    /// Run to the next breakpoint not hit yet, or to the end (unless kept running).
    fn run_on(&mut self) -> Vec<Out> {
        let next = self
            .breakpoints
            .range(self.last_hit + 1..)
            .next()
            .map(|(id, (_, line))| (*id, *line));
        match next {
            Some((id, line)) => {
                self.last_hit = id;
                self.line = line;
                vec![stopped("breakpoint", Some(id))]
            }
            None if self.script.keep_running => Vec::new(),
            None => self.end(),
        }
    }

    fn end(&self) -> Vec<Out> {
        vec![
            event("exited", Some(json!({ "exitCode": self.script.exit_code }))),
            event("terminated", None),
        ]
    }

    /// `outputs` outputs with `pairs` stopped/continued pairs spread among them, then
    /// the end; paced as the script says.
    fn burst(&self, pairs: usize, outputs: usize) -> Vec<Out> {
        let mut outs = Vec::with_capacity(outputs + 2 * pairs + 2);
        let mut pairs_sent = 0;
        let pair = |outs: &mut Vec<Out>| {
            outs.push(stopped("pause", None));
            outs.push(event(
                "continued",
                Some(json!({ "threadId": THREAD_ID, "allThreadsContinued": true })),
            ));
        };
        for i in 0..outputs {
            outs.push(event(
                "output",
                Some(json!({ "category": "stdout", "output": format!("out {i}\n") })),
            ));
            // Pair k goes after output ceil((k + 1) * outputs / pairs): evenly spread.
            while pairs_sent < pairs && (pairs_sent + 1) * outputs <= (i + 1) * pairs {
                pair(&mut outs);
                pairs_sent += 1;
            }
            if let Some((every, pause)) = self.script.pace {
                if (i + 1) % every == 0 {
                    outs.push(Out::Pause(pause));
                }
            }
        }
        while pairs_sent < pairs {
            pair(&mut outs);
            pairs_sent += 1;
        }
        outs.extend(self.end());
        outs
    }
}

fn capabilities() -> Value {
    json!({
        "supportsConfigurationDoneRequest": true,
        "supportsConditionalBreakpoints": true,
        "supportsFunctionBreakpoints": true,
        "supportsHitConditionalBreakpoints": true,
        "supportsLogPoints": true,
        "supportsTerminateRequest": true,
        "supportsReadMemoryRequest": true,
        "supportsWriteMemoryRequest": true,
    })
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn success(request: &Request, body: Option<Value>) -> Out {
    respond(request, true, None, body)
}

fn failure(request: &Request, message: &str) -> Out {
    respond(request, false, Some(message.to_string()), None)
}

fn respond(request: &Request, success: bool, message: Option<String>, body: Option<Value>) -> Out {
    let result = if success {
        Ok(body)
    } else {
        Err(message.unwrap_or_default())
    };
    Out::Message(Message::Response(Response::new(
        request.seq,
        request.command.clone(),
        result,
    )))
}

fn event(name: &str, body: Option<Value>) -> Out {
    Out::Message(Message::Event(Event::new(name, body)))
}

fn stopped(reason: &str, hit: Option<i64>) -> Out {
    let mut body = json!({
        "reason": reason, "threadId": THREAD_ID, "allThreadsStopped": true
    });
    if let Some(id) = hit {
        body["hitBreakpointIds"] = json!([id]);
    }
    event("stopped", Some(body))
}

/// `count` well-framed JSON bodies that are not DAP messages, in turn: JSON that is
/// no message, an empty object, and a message of a type DAP does not have. (A body
/// that is not JSON at all ends the connection: nothing after it can be trusted.)
fn junk_frames(count: usize) -> Vec<Out> {
    const BODIES: [&str; 3] = [
        "[1, 2, 3]",
        "{}",
        r#"{"seq": 0, "type": "gossip", "text": "not a DAP message"}"#,
    ];
    (0..count)
        .map(|i| {
            let body = BODIES[i % BODIES.len()];
            let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
            Out::Raw(frame.into_bytes())
        })
        .collect()
}

/// `count` threads that start and exit at once (ids from 100), as a program that
/// churns through short-lived threads reports them.
fn thread_churn(count: usize) -> Vec<Out> {
    (0..count as i64)
        .flat_map(|i| {
            let thread = json!({ "threadId": 100 + i });
            let mut started = thread.clone();
            started["reason"] = json!("started");
            let mut exited = thread;
            exited["reason"] = json!("exited");
            [
                event("thread", Some(started)),
                event("thread", Some(exited)),
            ]
        })
        .collect()
}
