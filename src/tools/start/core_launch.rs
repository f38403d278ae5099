//! `debug.launch` with `core`: open a core dump of `program` instead of running it
//! (post-mortem). The dump's path is held to the root like the program's (it is the
//! program's memory: the permission gate rates opening it `read`), the adapter is
//! the program's own where it opens dumps (lldb-dap, CodeLLDB, dlv), and the answer
//! is the stop where the process died. What only a running program takes is refused
//! by name rather than dropped.

use std::sync::Arc;

use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::Outcome;
use crate::tools::catalogue::spec::ToolError;
use crate::tools::inspect::watches;
use crate::tools::start::args::LaunchArgs;
use crate::tools::start::rooted_launch;
use crate::tools::start::session::started;
use crate::LaunchSpec;

/// Open `args.core`, a core dump of `args.program`, in a new session, and answer its
/// stop.
pub(super) async fn open(ctx: Arc<Context>, args: LaunchArgs) -> Outcome {
    refuse_what_needs_a_run(&args)?;
    let Some(program) = ctx
        .paths
        .resolve_given(args.program.as_deref(), "program")?
    else {
        return Err(ToolError::invalid(
            "a core dump is opened with its program: `program` is missing",
            "pass the binary that crashed as `program`, beside `core`",
        ));
    };
    // Resolved as the launch is made, like every path: under a root, inside it.
    let core = ctx
        .paths
        .resolve(args.core.as_deref().unwrap_or(""), "core")?;
    let mut spec = LaunchSpec::new(program).core(core);
    spec.adapter = args.adapter;
    let given = args.launch_args.unwrap_or_default();
    spec.extra = rooted_launch::launch_args(&ctx.paths, given, None)?;
    // A longer wait than the family's handshake deadline (a large dump to load)
    // covers the handshake too.
    if let Some(timeout) = args.timeout {
        let wait = ctx.bounds.wait_for(Some(timeout));
        let flavor = ctx.runtime.registry().select_for_launch(&spec).ok();
        let deadline = flavor.map(|def| ctx.runtime.config().launch_timeout_for(def.flavor));
        if deadline.is_some_and(|deadline| wait > deadline) {
            spec.launch_timeout = Some(wait);
        }
    }
    let plan = ctx.runtime.plan_launch(spec).await?;
    let session = ctx.runtime.start_launch_plan(plan).await?;
    watches::add(&ctx, &session, &args.watch)?;
    started(&ctx, session, "opened the core dump of", true, args.timeout).await
}

/// Refuse the arguments only a running program takes, naming them.
fn refuse_what_needs_a_run(args: &LaunchArgs) -> Result<(), ToolError> {
    let given: Vec<&str> = [
        ("test", args.test.is_some()),
        ("runner", args.runner.is_some()),
        ("args", !args.args.is_empty()),
        ("cwd", args.cwd.is_some()),
        ("env", !args.env.is_empty()),
        ("module", args.module.is_some()),
        ("stop_on_entry", args.stop_on_entry),
        ("breakpoints", !args.breakpoints.is_empty()),
        (
            "filters",
            args.filters.as_ref().is_some_and(|f| !f.is_empty()),
        ),
        ("stdin", args.stdin.is_some()),
        ("stdin_file", args.stdin_file.is_some()),
        ("calls", !args.calls.is_empty()),
    ]
    .into_iter()
    .filter_map(|(name, is_given)| is_given.then_some(name))
    .collect();
    if given.is_empty() {
        return Ok(());
    }
    Err(ToolError::invalid(
        format!("a core dump does not run: it takes no {}", given.join(", ")),
        "pass only program, core (and adapter, watch, timeout) to open the dump, or \
         leave `core` out to run the program",
    ))
}
