//! `dapvisor mcp`: serve the tool catalogue over MCP on stdin/stdout, until the client
//! goes or a signal (SIGINT, SIGTERM) asks dapvisor to stop.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::mcp::{serve_http_until, serve_stdio_until, DebugServer, MCP_PATH};
use crate::permission::{
    EnvAllowlist, PermissionGate, PermissionMode, PermissionRule, RuleBehavior,
};
use crate::redact::RedactRules;
use crate::registry::AdapterRegistry;
use crate::tools::{PathPolicy, ToolCatalogue, ToolProfile};
use crate::{Runtime, RuntimeConfig, SessionError};

/// Flags of `dapvisor mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// default (reads, control and launches run; code in the debuggee, commands on the
    /// host and processes dapvisor did not start ask the user), plan_only (only reads,
    /// and what --allow grants), bypass_all (no questions), deny_unauthorized (only what
    /// --allow grants). --deny always wins.
    #[arg(long, default_value = "default", value_name = "MODE")]
    pub permission_mode: PermissionMode,
    /// Run without asking: the tools matching PATTERN (`debug.evaluate`, `debug.*`; a
    /// tool's own effect only, not what its arguments or adapter add), or every call
    /// with an effect (`effect:read`, `effect:control`, `effect:start`, `effect:code`,
    /// `effect:host`, `effect:foreign`).
    #[arg(long = "allow", value_name = "PATTERN", value_parser = allow_rule)]
    pub allow: Vec<PermissionRule>,
    /// Never run the tools matching PATTERN, or the calls with an effect
    /// (`effect:host`). Wins over --allow.
    #[arg(long = "deny", value_name = "PATTERN", value_parser = deny_rule)]
    pub deny: Vec<PermissionRule>,
    /// Take the environment variables matching PATTERN (`MYAPP_*`) for inert: a launch
    /// may set them without its call counting as code. Only locale, time zone,
    /// terminal and colour settings are inert without it (`permission::INERT_ENV`).
    #[arg(long = "allow-env", value_name = "PATTERN", value_parser = env_pattern)]
    pub allow_env: Vec<String>,
    /// End sessions no tool has used for this many seconds (0: never) [default: 600].
    #[arg(long, value_name = "SECONDS")]
    pub idle_timeout: Option<u64>,
    /// Sessions held at once [default: 100].
    #[arg(long, value_name = "N")]
    pub max_sessions: Option<usize>,
    /// Deadline of one debugger request, 5..300 [default: 30].
    #[arg(long, value_name = "SECONDS")]
    pub request_timeout: Option<u64>,
    /// A TOML file adding or overriding adapters.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Which tools to serve: core (the tools of the find-the-bug loop) or all (one per
    /// DAP request besides).
    #[arg(long, default_value = "core", value_name = "PROFILE")]
    pub tools: ToolProfile,
    /// Serve MCP over streamable HTTP at http://ADDR/mcp instead of stdio, to every
    /// client that shows the token, on one runtime. ADDR is `IP:PORT`,
    /// `localhost:PORT`, or a PORT on 127.0.0.1 (0: any free port; the address is
    /// printed on stderr).
    #[arg(long, value_name = "ADDR", value_parser = super::http_flags::http_addr)]
    pub http: Option<SocketAddr>,
    /// With --http: the file holding the token clients must send as `Authorization:
    /// Bearer TOKEN`. Without it, DAPVISOR_TOKEN; without that, a new token is written
    /// to a file only you can read, whose path is printed on stderr.
    #[arg(long, value_name = "FILE", requires = "http")]
    pub token_file: Option<PathBuf>,
    /// With --http: how many seconds the sessions a client still owns outlive its
    /// MCP session (0..=3600) [default: 60].
    #[arg(long, value_name = "SECONDS", requires = "http")]
    pub owner_grace: Option<u64>,
    /// Editors (debug.expose) one exposed session takes at once, 1..=64 [default: 4].
    #[arg(long, value_name = "N")]
    pub max_exposed_clients: Option<usize>,
    /// Only debug programs, working directories and breakpoint files under DIR
    /// (relative paths resolve against it).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Redaction of keys, passwords and tokens in what the tools, resources and
    /// notifications return. Only the person starting the server sets it.
    #[command(flatten)]
    pub redact: super::redact_flags::RedactFlags,
    /// With --http: allowed origins and connection limits.
    #[command(flatten)]
    pub http_limits: super::http_flags::HttpFlags,
}

fn allow_rule(pattern: &str) -> Result<PermissionRule, String> {
    PermissionRule::parse(RuleBehavior::Allow, pattern)
}

fn deny_rule(pattern: &str) -> Result<PermissionRule, String> {
    PermissionRule::parse(RuleBehavior::Deny, pattern)
}

fn env_pattern(pattern: &str) -> Result<String, String> {
    crate::permission::check_env_pattern(pattern)
}

/// The inert environment variables the `--allow-env` patterns add.
fn inert_env(patterns: &[String]) -> Result<EnvAllowlist, String> {
    patterns
        .iter()
        .try_fold(EnvAllowlist::default(), |env, p| env.allow(p))
        .map_err(|e| format!("--allow-env: {e}"))
}

/// The permission gate the flags describe.
pub fn gate(
    mode: PermissionMode,
    allow: &[PermissionRule],
    deny: &[PermissionRule],
) -> PermissionGate {
    allow
        .iter()
        .chain(deny)
        .fold(PermissionGate::new(mode), |gate, rule| {
            gate.rule(rule.clone())
        })
}

/// The runtime configuration the flags describe.
fn runtime_config(args: &McpArgs) -> Result<RuntimeConfig, String> {
    let mut registry = AdapterRegistry::builtin();
    if let Some(path) = &args.config {
        super::config::apply_file(path, &mut registry)?;
    }
    let mut config = RuntimeConfig::default().registry(registry);
    if let Some(n) = args.max_sessions {
        config = config.max_sessions(n);
    }
    if let Some(secs) = args.request_timeout {
        config = config.request_timeout(Duration::from_secs(secs));
    }
    if let Some(secs) = args.idle_timeout {
        config = config.idle_limit((secs > 0).then(|| Duration::from_secs(secs)));
    }
    Ok(config)
}

/// Why the runtime would not start; a refused configuration value is named by the
/// flag that set it, which the person at the shell typed (the runtime's text names
/// its `RuntimeConfig` field). Only `--max-sessions` can be refused: the request
/// timeout is clamped, and an idle timeout of 0 means never.
fn start_refused(err: SessionError) -> String {
    match &err {
        SessionError::Config(config) if config.field() == "max_sessions" => {
            format!("--max-sessions {}: {err}", config.value())
        }
        _ => err.to_string(),
    }
}

/// Run the server until the client goes away, or SIGINT or SIGTERM asks it to stop;
/// either way the sessions end in order (attached programs are detached from).
pub async fn run(args: McpArgs, redaction: RedactRules) -> Result<(), String> {
    let paths = match &args.root {
        Some(root) => PathPolicy::rooted(root).map_err(|e| e.to_string())?,
        None => PathPolicy::unrestricted(),
    };
    let gate =
        gate(args.permission_mode, &args.allow, &args.deny).inert_env(inert_env(&args.allow_env)?);
    let config = runtime_config(&args)?;
    let runtime = Runtime::start(config).await.map_err(start_refused)?;
    let mut catalogue = ToolCatalogue::new(runtime)
        .with_profile(args.tools)
        .with_paths(paths)
        .with_permissions(gate)
        .with_redaction_rules(redaction);
    if let Some(secs) = args.owner_grace {
        catalogue = catalogue
            .with_owner_grace(Duration::from_secs(secs))
            .map_err(|e| format!("--owner-grace: {e}"))?;
    }
    if let Some(clients) = args.max_exposed_clients {
        catalogue = catalogue
            .with_max_exposed_clients(clients)
            .map_err(|e| format!("--max-exposed-clients: {e}"))?;
    }
    let stop = async {
        let signal = super::signals::stop_requested().await;
        tracing::info!(signal = signal.name(), "stopping: ending every session");
    };
    let server = DebugServer::new(catalogue);
    let Some(addr) = args.http else {
        tracing::info!(
            mode = %args.permission_mode,
            tools = %args.tools,
            root = ?args.root,
            "dapvisor MCP server on stdio"
        );
        return serve_stdio_until(server, stop)
            .await
            .map_err(|e| format!("the MCP connection failed: {e}"));
    };
    let (token, made_up) = super::http_token::resolve(args.token_file.as_deref())?;
    let settings = args.http_limits.settings()?;
    let listener = crate::mcp::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    super::http_flags::warn_if_exposed(local);
    // What a user starting the server needs, whatever the log level.
    eprintln!("dapvisor: MCP over HTTP at http://{local}{MCP_PATH}");
    if let Some(path) = made_up {
        eprintln!("dapvisor: the token for clients is in {}", path.display());
    }
    tracing::info!(
        mode = %args.permission_mode,
        tools = %args.tools,
        root = ?args.root,
        %local,
        "dapvisor MCP server on HTTP"
    );
    serve_http_until(listener, server, token, settings, stop)
        .await
        .map_err(|e| format!("the MCP server failed: {e}"))
}
