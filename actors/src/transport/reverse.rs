//! Answers to the requests an adapter sends us (reverse requests).
//!
//! `runInTerminal` runs the command headless, with the cwd and environment it names
//! and clean signals ([`crate::clean_start`]), in a session of its own (the
//! adapter's group is in another session, out of reach; see `terminal.rs` for its
//! stdin and end), killed by the kernel if dapvisor dies (as the adapter is,
//! `parent_death.rs`), and answers with its process id; its stdout and stderr come
//! back as `output` events. It is reaped when it exits (and whatever it left running
//! is ended then), swept with the adapter's processes if the session ends first, and
//! at most `max_terminal_processes` run at once.
//! `startDebugging` is told yes, while its session tree has a place for one more
//! child (`child_slots.rs`), and passed to the owner, which starts the child session.
//! Anything else, and a request past a bound, is refused with a proper error
//! response, numbered in the same sequence as our requests.

use std::process::Stdio;
use std::sync::Arc;

use ractor::ActorRef;
use serde_json::{json, Value};
use tokio::io::AsyncRead;
use tokio::process::Child;
use tokio::sync::Semaphore;

use crate::transport::io::read_text;
use crate::transport::messages::{FrameCredit, TransportMsg, TransportOutput};
use crate::transport::process::ProcessGroup;
use crate::transport::state::TransportState;
use crate::transport::terminal::Terminal;
use crate::wire::types::RunInTerminalRequestArguments;
use crate::wire::DapCommand;
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
        .filter(|k| {
            matches!(
                DapCommand::from_name(k),
                Some(DapCommand::Launch | DapCommand::Attach)
            )
        })
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
/// new session (and group), with no controlling terminal. `on_output` receives the
/// process's output as `output` events, each read holding a place in `credits` until
/// the event is handled (the reading waits while every place is held, and the process
/// blocks on its output). `on_exit` is called with its pid once it has exited (and
/// how was read, see [`Terminal::watch_end`]).
/// The child is returned unreaped, for the caller to adopt as a [`ProcessGroup`]:
/// held until it is swept, so that its pid is never reused before its tree is.
pub fn run_in_terminal(
    request: &Request,
    pgid: Option<u32>,
    tag: &str,
    terminal: &Terminal,
    credits: Arc<Semaphore>,
    on_output: impl Fn(Event, FrameCredit) + Clone + Send + Sync + 'static,
    on_exit: impl FnOnce(u32) + Send + 'static,
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
    super::parent_death::die_with_parent(&mut command);
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
    terminal.watch_end(pid, readers, on_output, on_exit);
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
    pub(super) fn on_reverse_request(
        &mut self,
        myself: &ActorRef<TransportMsg>,
        request: Request,
        credit: FrameCredit,
    ) {
        let result = match request.command.as_str() {
            "runInTerminal" => self.run_terminal_command(myself, &request),
            "startDebugging" => start_debugging(&request).and_then(|(kind, configuration)| {
                let slot = self.child_slots.take()?;
                self.pass_on(TransportOutput::StartDebugging {
                    request: kind,
                    configuration,
                    server: self.server.clone(),
                    slot,
                });
                Ok(json!({}))
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

impl TransportState {
    /// Run a `runInTerminal` command, if fewer than `max_terminal_processes` run.
    fn run_terminal_command(
        &mut self,
        myself: &ActorRef<TransportMsg>,
        request: &Request,
    ) -> ReverseResult {
        let limit = self.config.max_terminal_processes;
        if self.terminal_processes.len() >= limit {
            return Err(format!(
                "{limit} processes started by runInTerminal still run, as many as dapvisor \
                 runs for one adapter (max_terminal_processes); wait for one to end"
            ));
        }
        let sink = self.sink.clone();
        // Not the adapter's group, which is in a session of its own (out of reach from
        // here): a session of the command's own, swept as the adapter's is.
        let pgid = None;
        let credits = self.output_credits.clone();
        let tag = crate::transport::process::new_tree_tag(self.tree_owner.as_deref());
        let on_output = move |ev, held| sink(TransportOutput::Event(ev, held));
        // Reaped as soon as it exits (its exit read first), not held until the session
        // ends.
        // Handled after this handler, so after the group is held below.
        let me = myself.clone();
        let on_exit = move |pid| {
            let _ = me.cast(TransportMsg::TerminalExited(pid));
        };
        let terminal = &self.terminal;
        let (child, body) =
            run_in_terminal(request, pgid, &tag, terminal, credits, on_output, on_exit)?;
        let Some(group) = ProcessGroup::adopt(child, pgid.is_none()) else {
            return Ok(body); // reaped already: nothing left to hold
        };
        self.terminal_processes.push(Arc::new(group.tagged(tag)));
        Ok(body)
    }

    /// A `runInTerminal` process exited: sweep what it left and reap it (off this
    /// handler), and forget it.
    pub(super) fn terminal_exited(&mut self, pid: u32) {
        let Some(at) = self.terminal_processes.iter().position(|g| g.pid() == pid) else {
            return; // swept with the connection already
        };
        let group = self.terminal_processes.swap_remove(at);
        crate::transport::process::kill_all(vec![group], || {});
    }
}

/// Our response to the reverse request `request`, numbered `seq`.
fn response_to(request: &Request, seq: i64, result: ReverseResult) -> Response {
    let mut response = Response::new(request.seq, request.command.clone(), result.map(Some));
    response.seq = seq;
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::parent_death::test_support::*;

    /// In the helper run only: run `sleep` as an adapter's `runInTerminal` asks, print
    /// its pid, and wait to be killed. In a normal run it does nothing.
    #[tokio::test]
    async fn helper_runs_a_terminal_command_and_waits() {
        let arguments = json!({ "kind": "integrated", "cwd": "", "args": ["sleep", "300"] });
        let request = Request::new("runInTerminal", Some(arguments));
        let credits = Arc::new(Semaphore::new(4));
        let mut child = None;
        in_helper_report_and_wait(|| {
            let terminal = Terminal::default();
            let started = run_in_terminal(
                &request,
                None,
                "test",
                &terminal,
                credits,
                |_, _| {},
                |_| {},
            );
            let (started, _) = started.expect("the command runs");
            let pid = started.id().unwrap();
            child = Some(started);
            pid
        })
        .await;
    }

    /// Issue 27, item 4: a `runInTerminal` process lacked the parent-death signal the
    /// adapter has, and outlived a SIGKILLed dapvisor.
    #[tokio::test]
    async fn a_terminal_command_dies_when_dapvisor_is_killed() {
        let helper = "transport::reverse::tests::helper_runs_a_terminal_command_and_waits";
        assert!(child_dies_with_its_killed_parent(helper).await);
    }
}
