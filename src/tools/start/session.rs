//! Starting, listing and ending sessions: `debug.launch`, `debug.attach`,
//! `debug.sessions`, `debug.terminate`, `debug.disconnect`.

use std::sync::Arc;

use serde_json::{json, Value};

use crate::permission::{Adds, Effect};
use crate::tools::catalogue::profile::Stage;
use crate::Operation;
use crate::{LaunchSpec, RunTicket, SessionHandle};

use crate::tools::start::args::{LaunchArgs, NoArgs, SessionArgs};
use crate::tools::start::attach::attach;

use crate::tools::breakpoints::at_start::{split_breakpoints, StartBreakpoints};
use crate::tools::breakpoints::report;
use crate::tools::breakpoints::statement_marks;
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{tool, typed_tool, Outcome, Reply, ToolDef, Typed};
use crate::tools::catalogue::spec::{ToolAnnotations, ToolError};
use crate::tools::inspect::watches;
use crate::tools::output::call_names;
use crate::tools::results::render;
use crate::tools::results::sessions::{SessionEntry, SessionsResult};
use crate::tools::start::defaults::{panic_function_breakpoints, uncaught_exception_filters};
use crate::tools::start::rooted_launch;
use crate::tools::start::stdin::StdinText;
use crate::tools::start::test_launch;

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![
        tool(
            "debug.launch",
            "Start a program, or one `test`, under a debugger; returns its session_id. The \
             adapter follows the program (.py: debugpy, .go or a package folder: dlv, .js: \
             js-debug, native: lldb-dap) unless `adapter` says. Waits for the first stop \
             and returns it (`timeout`: {wait} s with `breakpoints`, else {initial_wait} s). \
             Stops at uncaught exceptions; `filters: [\"raised\"]` (js-debug: `all`) at \
             any raise.",
            ToolAnnotations::START,
            launch,
        )
        .effect(Effect::Start)
        .adds(Adds::Launch)
        .asks(Operation::Launch)
        .core(
            Stage::Start,
            &[
                "cwd",
                "module",
                "runner",
                "filters",
                "launch_args",
                "stdin_file",
                "breakpoints.hit_condition",
                "breakpoints.expected_text",
                "breakpoints.near_line",
                "core",
            ],
        ),
        tool(
            "debug.attach",
            "Attach a debugger to a running process (`pid`) or to a debug server (`host` and \
             `port`, such as `python -m debugpy --listen 5678`), and return its session_id. \
             Asks for approval.",
            ToolAnnotations::START,
            attach,
        )
        .effect(Effect::Foreign)
        .adds(Adds::Attach)
        .asks(Operation::Attach)
        .core(
            Stage::Start,
            &[
                "cwd",
                "breakpoints",
                "filters",
                "watch",
                "timeout",
                "path_mappings",
                "calls",
            ],
        ),
        typed_tool(
            "debug.sessions",
            "List the debug sessions: session_id, state, adapter, program, owner, \
             adapter_pid, restarts, idle_seconds.",
            ToolAnnotations::READ_ONLY,
            sessions,
        )
        .effect(Effect::Read)
        .core(Stage::End, &[]),
        tool(
            "debug.terminate",
            "End a session: stop the program and its debugger, and forget the session (read \
             its output first if you need it). Ending an attached program asks for approval.",
            ToolAnnotations {
                idempotent: true,
                ..ToolAnnotations::CONTROL
            },
            terminate,
        )
        .effect(Effect::Control)
        .adds(Adds::Ending)
        .asks(Operation::Terminate)
        .core(Stage::End, &[]),
        tool(
            "debug.disconnect",
            "Detach from a process you attached to and leave it running (a program the \
             session launched ends); the session is forgotten.",
            ToolAnnotations {
                idempotent: true,
                ..ToolAnnotations::CONTROL
            },
            disconnect,
        )
        .effect(Effect::Control)
        .asks(Operation::Disconnect)
        .core(Stage::End, &[]),
    ]
}

/// The working directory of a launch that names none: the program's folder (a
/// folder program, such as a Go package, is its own). Under a root this is inside it,
/// since the program is; without one it is what running the program by hand from its
/// folder gives, rather than whatever directory the server happened to start in.
fn default_cwd(program: &std::path::Path) -> Option<std::path::PathBuf> {
    if program.is_dir() {
        Some(program.to_path_buf())
    } else {
        program.parent().map(std::path::Path::to_path_buf)
    }
}

/// A 1-based line, or a 400.
pub(crate) fn check_line(line: i64) -> Result<i64, ToolError> {
    if line < 1 {
        return Err(ToolError::invalid(
            format!("line {line} is not a line number"),
            "lines count from 1",
        ));
    }
    Ok(line)
}

/// A 400 naming the known adapters when `adapter` names none of them.
pub(in crate::tools) fn check_adapter(
    ctx: &Context,
    adapter: Option<&str>,
) -> Result<(), ToolError> {
    let Some(name) = adapter else { return Ok(()) };
    if ctx.runtime.registry().get(name).is_some() {
        return Ok(());
    }
    Err(ToolError::invalid(
        format!("no debug adapter named `{name}`"),
        format!(
            "pass one of: {} (or a language such as python, go, rust), or leave `adapter` \
             out to choose by the program",
            ctx.runtime.registry().names().join(", ")
        ),
    ))
}

async fn launch(ctx: Arc<Context>, args: LaunchArgs) -> Outcome {
    check_adapter(&ctx, args.adapter.as_deref())?;
    if args.core.is_some() {
        return crate::tools::start::core_launch::open(ctx, args).await;
    }
    let timeout = args.timeout;
    let (session, expects_stop) = start_launch(&ctx, args).await?;
    started(&ctx, session, "launched", expects_stop, timeout).await
}

/// Start the session `args` (not a core dump's) asks for, as `debug.launch` does, and
/// answer it at once, with whether the program is expected to stop (a breakpoint, a
/// stop at entry): `debug.diff` starts its runs so, holding each session from the
/// moment it exists.
pub(in crate::tools) async fn start_launch(
    ctx: &Arc<Context>,
    args: LaunchArgs,
) -> Result<(SessionHandle, bool), ToolError> {
    check_adapter(ctx, args.adapter.as_deref())?;
    let program = ctx
        .paths
        .resolve_given(args.program.as_deref(), "program")?;
    let cwd = ctx.paths.resolve_given(args.cwd.as_deref(), "cwd")?;
    let stdin_file = ctx
        .paths
        .resolve_given(args.stdin_file.as_deref(), "stdin_file")?;
    let stdin_text = match (&args.stdin, &stdin_file) {
        (Some(_), Some(_)) => {
            return Err(ToolError::invalid(
                "both stdin and stdin_file were given",
                "pass the input as text (stdin) or as a file (stdin_file), not both",
            ))
        }
        (Some(text), None) => Some(StdinText::write(text)?),
        (None, _) => None,
    };
    let start = split_breakpoints(ctx, args.breakpoints, false)?;
    let sources = program.as_deref().map(default_cwd).unwrap_or(cwd.clone());
    let calls = call_names::expand(args.calls, sources.as_deref(), &ctx.paths)?;
    let expects_stop = args.stop_on_entry || start.stop();
    let StartBreakpoints {
        sources: breakpoints,
        functions,
        conditional,
        statements,
    } = start;
    let mut built = None;
    let mut source = None;
    let (mut spec, runner) = match &args.test {
        Some(test) => {
            rooted_launch::test_args(&ctx.paths, &args.args)?;
            let (spec, runner) = test_launch::test_launch(
                ctx.bounds.test_build_timeout,
                test,
                args.runner.as_deref(),
                (program, cwd),
                ctx.paths.root(),
            )
            .await?;
            // The runner's own working folder (the crate, the project) stays.
            (spec, Some(runner))
        }
        None => {
            let Some(program) = program else {
                return Err(ToolError::invalid(
                    "debug.launch needs `program` (or `test`)",
                    "pass the program to run, or a test id as `test`",
                ));
            };
            let cwd = cwd.or_else(|| default_cwd(&program));
            // A C, C++ or Rust source runs built (source_launch.rs).
            built = crate::tools::start::source_launch::build(ctx, &program).await?;
            source = built.as_ref().map(|_| program.clone());
            let run = built.as_ref().map_or(program, |b| b.binary().to_path_buf());
            let mut spec = LaunchSpec::new(run);
            spec.cwd = cwd;
            spec.adapter = args.adapter.clone();
            (spec, None)
        }
    };
    spec.args.extend(args.args);
    spec.env.extend(args.env);
    spec.launch_timeout = longer_handshake(ctx, &spec, args.timeout);
    if args.adapter.is_some() {
        spec.adapter = args.adapter;
    }
    spec.stop_on_entry = args.stop_on_entry;
    spec.breakpoints = breakpoints;
    spec.function_breakpoints = functions;
    spec.conditional_function_breakpoints = conditional;
    spec.calls = calls;
    spec.exception_filters = match args.filters {
        Some(filters) => filters,
        None => {
            let adapter = ctx.runtime.registry().select_for_launch(&spec).ok();
            // Where the adapter has no panic filter, a Rust panic's function; not in a
            // test run, whose harness catches each test's panic and reports it as
            // the failure (as pytest does an assertion's, where no uncaught filter
            // stops either).
            if runner.is_none() {
                let panics = panic_function_breakpoints(adapter, &spec);
                spec.function_breakpoints.extend(panics);
            }
            uncaught_exception_filters(adapter)
        }
    };
    // Under a root, only what resolves inside it (`rooted_launch.rs`).
    let given = args.launch_args.unwrap_or_default();
    let launch_args = rooted_launch::launch_args(&ctx.paths, given, spec.cwd.as_deref())?;
    if let Some(module) = args.module {
        let cwd = match launch_args.get("cwd").and_then(Value::as_str) {
            Some(dir) => Some(std::path::PathBuf::from(dir)),
            None => spec.cwd.clone(),
        };
        rooted_launch::module(&ctx.paths, &module, cwd.as_deref())?;
        spec.extra.insert("module".into(), json!(module));
    }
    for (key, value) in launch_args {
        spec.extra.insert(key, value);
    }
    spec.stdin = stdin_file.or_else(|| stdin_text.as_ref().map(|t| t.path().to_path_buf()));
    let mut plan = ctx.runtime.plan_launch(spec).await?;
    plan.replay_check = rooted_launch::replay_check(&ctx.paths);
    let session = ctx.runtime.start_launch_plan(plan).await?;
    if let Some(text) = stdin_text {
        text.keep_for(&session);
    }
    if let (Some(built), Some(source)) = (built, source) {
        crate::tools::start::source_launch::keep_for(ctx, source, built, &session);
    }
    if let Some(runner) = runner {
        test_launch::remember(ctx, &session, runner);
    }
    watches::add(ctx, &session, &args.watch)?;
    statement_marks::remember(ctx, &session, statements);
    Ok((session, expects_stop))
}

/// The launch handshake's deadline when the agent's `timeout` is longer than the
/// one its adapter family has (a build, a symbol load the agent knows to be slow):
/// the wait for the first stop then covers the handshake too. `None` (the usual
/// deadline) otherwise.
fn longer_handshake(
    ctx: &Context,
    spec: &LaunchSpec,
    timeout: Option<f64>,
) -> Option<std::time::Duration> {
    timeout?;
    let wait = ctx.bounds.wait_for(timeout);
    let flavor = ctx.runtime.registry().select_for_launch(spec).ok()?.flavor;
    (wait > ctx.runtime.config().launch_timeout_for(flavor)).then_some(wait)
}

/// The answer to a launch or attach: the session, and its first stop if one came
/// within the wait.
pub(in crate::tools) async fn started(
    ctx: &Context,
    session: SessionHandle,
    verb: &str,
    expects_stop: bool,
    timeout: Option<f64>,
) -> Outcome {
    let wait = match (timeout, expects_stop) {
        (Some(_), _) | (None, true) => ctx.bounds.wait_for(timeout),
        (None, false) => ctx.bounds.initial_stop_wait,
    };
    let outcome = session.wait_for_stop(RunTicket { epoch: 0 }, wait).await;
    let snapshot = session.snapshot().await?;
    // The session exists now: whatever the wait says, the agent gets its id.
    let (mut json, text) = match outcome {
        Ok(outcome) => render::outcome(ctx, &session, outcome, wait).await,
        Err(e) => (
            json!({ "state": snapshot.state.name(), "timed_out": false,
                    "wait_error": e.to_string() }),
            format!(
                "{}; waiting for a first stop failed: {e}. Call {} to try again.",
                snapshot.state,
                ctx.tool("debug.wait")
            ),
        ),
    };
    json["session_id"] = json!(session.id().to_string());
    if let Some(owner) = session.owner() {
        json["owner"] = json!(owner.as_str());
    }
    json["adapter"] = json!(snapshot.adapter);
    json["program"] = json!(snapshot.program);
    // The breakpoints as they are once the stop was read: js-debug verifies one (or
    // moves it) in events that follow its stop.
    let snapshot = session.snapshot().await.unwrap_or(snapshot);
    let (unverified, unverified_text) = report::unverified(&snapshot);
    if !unverified.is_empty() {
        json["unverified_breakpoints"] = json!(unverified);
    }
    let (moved, moved_text) = crate::tools::breakpoints::bound_lines::moved(&snapshot);
    if !moved.is_empty() {
        json["moved_breakpoints"] = json!(moved);
    }
    let unverified_text = format!("{unverified_text}{moved_text}");
    let head = format!(
        "session {}: {verb} {} under {}",
        session.id(),
        snapshot.program.as_deref().unwrap_or("the target"),
        snapshot.adapter.as_deref().unwrap_or("?"),
    );
    Ok(Reply::new(json, format!("{head}\n{unverified_text}{text}")))
}

async fn sessions(ctx: Arc<Context>, _: NoArgs) -> Result<Typed<SessionsResult>, ToolError> {
    let mut list = Vec::new();
    let mut text = String::new();
    for session in ctx.runtime.sessions() {
        // A session that ended while we looked is simply not listed.
        let Ok(snapshot) = session.snapshot().await else {
            continue;
        };
        let entry = SessionEntry::of(&session, &snapshot).for_caller(&session, ctx.caller.as_ref());
        let owner = match (&entry.owner, entry.may_drive) {
            (Some(owner), Some(false)) => format!(", owner {owner} (read only for you)"),
            (Some(owner), _) => format!(", owner {owner}"),
            (None, _) => String::new(),
        };
        text.push_str(&format!(
            "{} {} {} ({}), idle {}s{owner}\n",
            entry.session_id,
            entry.state,
            snapshot.program.as_deref().unwrap_or("-"),
            snapshot.adapter.as_deref().unwrap_or("-"),
            entry.idle_seconds.unwrap_or(0),
        ));
        list.push(entry);
    }
    if list.is_empty() {
        text = format!("no sessions; start one with {}", ctx.tool("debug.launch"));
    }
    if let Some(caller) = &ctx.caller {
        // Other clients share with this id.
        text = format!("you are client {caller}\n{text}");
    }
    let result = SessionsResult {
        sessions: list,
        you: ctx.caller.as_ref().map(|c| c.as_str().to_string()),
    };
    Ok(Typed::new(result, text.trim_end()))
}

async fn disconnect(ctx: Arc<Context>, args: SessionArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let program = session
        .snapshot()
        .await
        .ok()
        .and_then(|s| s.program)
        .unwrap_or_else(|| "the program".into());
    session.disconnect(false).await?;
    // Ending it goes past the session's queue: checked here, as it happens.
    ctx.may_act(&session)?;
    ctx.runtime.end_session(session.id()).await?;
    Ok(Reply::new(
        json!({
            "session_id": session.id().to_string(),
            "state": "detached",
        }),
        format!(
            "session {} detached; {program} runs on without the debugger",
            session.id()
        ),
    ))
}

async fn terminate(ctx: Arc<Context>, args: SessionArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let snapshot = session.snapshot().await.ok();
    // Ended here, not by end_session, which detaches from an attached program: the
    // agent asked for it to end (and the gate asked the user, for a foreign process).
    if snapshot.as_ref().is_some_and(|s| s.state.is_live()) {
        session.terminate().await?;
    }
    let exit_code = match session.snapshot().await {
        Ok(now) => now.exit_code,
        Err(_) => snapshot.and_then(|s| s.exit_code),
    };
    // Ending it goes past the session's queue: checked here, as it happens.
    ctx.may_act(&session)?;
    ctx.runtime.end_session(session.id()).await?;
    Ok(Reply::new(
        json!({
            "session_id": session.id().to_string(),
            "state": "terminated",
            "exit_code": exit_code,
        }),
        format!(
            "session {} ended; its program and debugger are stopped",
            session.id()
        ),
    ))
}
