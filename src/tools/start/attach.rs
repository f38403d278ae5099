//! `debug.attach`: a debugger joins a process or debug server that runs already. Its
//! target is held for the session (`Runtime::attach`), and under a root its program
//! and working folder resolve inside it as a launch's do, as do the local folders of
//! its `path_mappings` (`path_mappings.rs`).

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::AttachSpec;

use crate::tools::breakpoints::at_start::{split_breakpoints, StartBreakpoint, StartBreakpoints};
use crate::tools::breakpoints::statement_marks;
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::Outcome;
use crate::tools::catalogue::spec::ToolError;
use crate::tools::inspect::watches;
use crate::tools::output::call_names;
use crate::tools::start::defaults::uncaught_exception_filters;
use crate::tools::start::path_mappings;
use crate::tools::start::session::{check_adapter, started};

/// Arguments of `debug.attach`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AttachArgs {
    /// Process id of a local process.
    pid: Option<u32>,
    /// Host of a debug server (default 127.0.0.1).
    host: Option<String>,
    /// Port of a debug server.
    port: Option<u16>,
    /// The program's path, where the adapter needs it for symbols.
    program: Option<String>,
    /// Working directory.
    cwd: Option<String>,
    /// Adapter name; chosen from `program` or `port` when absent.
    adapter: Option<String>,
    /// Breakpoints set before the target resumes.
    #[serde(default)]
    breakpoints: Vec<StartBreakpoint>,
    /// Exception filters; default uncaught, []: none.
    filters: Option<Vec<String>>,
    /// Seconds to wait for a first stop (default {wait} with breakpoints, else
    /// {initial_wait}).
    timeout: Option<f64>,
    /// Also watch these.
    #[serde(default)]
    watch: Vec<String>,
    /// Record each call of these functions (as debug.launch's `calls`).
    #[serde(default)]
    calls: Vec<String>,
    /// Your folders as the target (container, remote host) has them, absolute:
    /// paths shown are yours, or `remote:PATH` where none maps.
    #[serde(default)]
    path_mappings: Vec<MappingArg>,
}

/// A folder of yours and the target's.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MappingArg {
    pub(crate) local: String,
    pub(crate) remote: String,
}

pub(in crate::tools) async fn attach(ctx: Arc<Context>, args: AttachArgs) -> Outcome {
    check_adapter(&ctx, args.adapter.as_deref())?;
    let program = ctx
        .paths
        .resolve_given(args.program.as_deref(), "program")?;
    let cwd = ctx.paths.resolve_given(args.cwd.as_deref(), "cwd")?;
    if args.pid.is_none() && args.port.is_none() {
        return Err(ToolError::invalid(
            "attach needs `pid`, or `port` (and `host`)",
            "pass the pid of a local process, or the port of a running debug server",
        ));
    }
    let path_mappings = path_mappings::resolve(&ctx.paths, &args.path_mappings)?;
    let start = split_breakpoints(&ctx, args.breakpoints, args.port.is_some())?;
    let expects_stop = start.stop();
    let StartBreakpoints {
        sources: breakpoints,
        functions,
        conditional,
        statements,
    } = start;
    let sources = cwd
        .clone()
        .or_else(|| program.as_deref().and_then(|p| p.parent()).map(Into::into));
    let calls = call_names::expand(args.calls, sources.as_deref(), &ctx.paths)?;
    let mut spec = AttachSpec::default();
    spec.pid = args.pid;
    spec.host = args.host;
    spec.port = args.port;
    spec.program = program;
    spec.cwd = cwd;
    spec.adapter = args.adapter;
    spec.path_mappings = path_mappings;
    spec.breakpoints = breakpoints;
    spec.function_breakpoints = functions;
    spec.conditional_function_breakpoints = conditional;
    spec.calls = calls;
    spec.exception_filters = match args.filters {
        Some(filters) => filters,
        None => uncaught_exception_filters(ctx.runtime.registry().select_for_attach(&spec).ok()),
    };
    let server = match crate::Runtime::target_of(&spec) {
        Some(server @ crate::AttachTarget::Server { .. }) => {
            let adapter = ctx.runtime.registry().select_for_attach(&spec).ok();
            Some((server.to_string(), adapter.map(|def| def.name.clone())))
        }
        _ => None,
    };
    let session = ctx
        .runtime
        .attach(spec)
        .await
        .map_err(|err| at_server(ToolError::from(err), server))?;
    watches::add(&ctx, &session, &args.watch)?;
    statement_marks::remember(&ctx, &session, statements);
    started(&ctx, session, "attached", expects_stop, args.timeout).await
}

/// `err`, from an attach to a debug server, saying which: its host, port and adapter
/// (a wrong port, or a server that refused the handshake, otherwise reads as the
/// adapter's own words only).
fn at_server(mut err: ToolError, server: Option<(String, Option<String>)>) -> ToolError {
    if let Some((said, adapter)) = server {
        let adapter = adapter.unwrap_or_else(|| "the adapter".to_string());
        // The transport names a debug server it connects to itself already.
        if !err
            .error
            .contains(&format!("the {adapter} debug server at {said}"))
        {
            err.error = format!(
                "attaching {adapter} to the debug server at {said} failed: {}",
                err.error
            );
        }
    }
    err
}
