//! Answers to the requests an adapter sends us (reverse requests).
//!
//! `runInTerminal` runs the command headless, with the cwd and environment it names
//! and clean signals ([`crate::clean_start`]), in a session of its own (no terminal;
//! see `terminal.rs` for its stdin and end), swept with the adapter's processes when
//! the session ends, and answers with its process id; its stdout and stderr come back
//! as `output` events.
//! `startDebugging` is told yes and passed to the owner, which starts the child
//! session. Anything else is refused with a proper error response, numbered in the
//! same sequence as our requests.

use std::process::Stdio;
use std::sync::Arc;

use serde_json::{json, Value};
use tokio::io::AsyncRead;
use tokio::process::Child;
use tokio::sync::Semaphore;

use crate::transport::io::read_text;
use crate::transport::messages::{FrameCredit, TransportOutput};
use crate::transport::process::ProcessGroup;
use crate::transport::state::TransportState;
use crate::transport::terminal::Terminal;
use crate::wire::types::RunInTerminalRequestArguments;
use crate::wire::{Event, Message, Request, Response};

/// Check a `startDebugging` request: its `request` (`launch` or `attach`) and its
/// `configuration`, for the session that will carry it out.
pub fn start_debugging(
    request: &Request,
) -> Result<(String, serde_json::Map<String, Value>), String> {
    let args = request
        .arguments
        .as_ref()
        .ok_or("startDebugging without arguments")?;
    let kind = args
        .get("request")
        .and_then(Value::as_str)
        .filter(|k| *k == "launch" || *k == "attach")
        .ok_or("startDebugging needs `request`: `launch` or `attach`")?;
    let configuration = args
        .get("configuration")
        .and_then(Value::as_object)
        .ok_or("startDebugging needs a `configuration` object")?;
    Ok((kind.to_string(), configuration.clone()))
}

/// The outcome of a reverse request: the response body, or the error message.
pub type ReverseResult = Result<Value, String>;

/// Run a `runInTerminal` request. `pgid` is a process group to join; `None` starts a
/// new session (and group), with no controlling terminal. `on_output` receives the process's output as `output`
/// events, each read holding a place in `credits` until the event is handled (the
/// reading waits while every place is held, and the process blocks on its output).
/// The child is returned unreaped, for the caller to adopt as a [`ProcessGroup`]:
/// held until the session ends, so that its pid is never reused before its tree is
/// swept.
pub fn run_in_terminal(
    request: &Request,
    pgid: Option<u32>,
    tag: &str,
    terminal: &Terminal,
    credits: Arc<Semaphore>,
    on_output: impl Fn(Event, FrameCredit) + Clone + Send + Sync + 'static,
) -> Result<(Child, Value), String> {
    let args: RunInTerminalRequestArguments = request
        .parse_arguments()
        .map_err(|e| format!("malformed runInTerminal arguments: {e}"))?;
    let (program, rest) = args
        .args
        .split_first()
        .ok_or_else(|| "runInTerminal named no command".to_string())?;
    let mut command = crate::clean_start::tokio_command(program);
    command
        .args(rest)
        .stdin(terminal.stdin()?)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match pgid {
        Some(pgid) => drop(command.process_group(pgid as i32)),
        None => crate::transport::io::in_a_session_of_its_own(&mut command),
    }
    if !args.cwd.is_empty() {
        command.current_dir(&args.cwd);
    }
    for (key, value) in args.env.unwrap_or_default() {
        match value {
            Some(value) => command.env(key, value),
            None => command.env_remove(key),
        };
    }
    command.env(super::process::TREE_ENV, tag);
    let mut child = command
        .spawn()
        .map_err(|e| format!("could not run `{program}`: {e}"))?;
    let pid = child
        .id()
        .ok_or_else(|| "the process ended before its id was read".to_string())?;
    let mut readers = Vec::new();
    if let Some(out) = child.stdout.take() {
        let forwarded = (terminal, credits.clone(), on_output.clone());
        readers.push(forward(out, "stdout", forwarded));
    }
    if let Some(err) = child.stderr.take() {
        readers.push(forward(
            err,
            "stderr",
            (terminal, credits, on_output.clone()),
        ));
    }
    terminal.say_end(pid, readers, on_output);
    Ok((child, json!({ "processId": pid })))
}

fn forward<R: AsyncRead + Unpin + Send + 'static>(
    reader: R,
    category: &'static str,
    (terminal, credits, on_output): (
        &Terminal,
        Arc<Semaphore>,
        impl Fn(Event, FrameCredit) + Send + Sync + 'static,
    ),
) -> tokio::task::JoinHandle<()> {
    let terminal = terminal.clone();
    let emit = move |text: String, credit: FrameCredit| {
        let text = terminal.clean(category, text);
        if text.is_empty() {
            return;
        }
        let body = json!({ "category": category, "output": text });
        on_output(Event::new("output", Some(body)), credit);
    };
    tokio::spawn(read_text(reader, Some(credits), |_| {}, emit))
}

impl TransportState {
    /// Serve a reverse request and send its response, which keeps the request's
    /// place (`credit`) until it is written: an adapter that does not read its answers
    /// is no longer read.
    pub(super) fn on_reverse_request(&mut self, request: Request, credit: FrameCredit) {
        let result = match request.command.as_str() {
            "runInTerminal" => {
                let sink = self.sink.clone();
                // Not the adapter's group, which is in a session of its own (out of
                // reach from here): a session of the command's own, swept as the
                // adapter's is.
                let pgid = None;
                let credits = self.output_credits.clone();
                let tag = crate::transport::process::new_tree_tag();
                let terminal = &self.terminal;
                run_in_terminal(&request, pgid, &tag, terminal, credits, move |ev, held| {
                    sink(TransportOutput::Event(ev, held))
                })
                .map(|(child, body)| {
                    let leads_group = pgid.is_none();
                    let group = ProcessGroup::adopt(child, leads_group);
                    self.terminal_processes
                        .extend(group.map(|g| Arc::new(g.tagged(tag))));
                    body
                })
            }
            "startDebugging" => start_debugging(&request).map(|(kind, configuration)| {
                self.pass_on(TransportOutput::StartDebugging {
                    request: kind,
                    configuration,
                    server: self.server.clone(),
                });
                json!({})
            }),
            other => Err(format!(
                "dapvisor does not handle the reverse request `{other}`"
            )),
        };
        let response = response_to(&request, self.requests.next_seq(), result);
        if let Some(out) = &self.outgoing {
            let _ = out.send((Message::Response(response), credit));
        }
    }
}

/// Our response to the reverse request `request`, numbered `seq`.
fn response_to(request: &Request, seq: i64, result: ReverseResult) -> Response {
    let mut response = Response::new(request.seq, request.command.clone(), result.map(Some));
    response.seq = seq;
    response
}
