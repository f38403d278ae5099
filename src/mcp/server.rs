//! [`DebugServer`]: the MCP server handler. It lists the catalogue's tools under their
//! MCP names, calls them (asking the user through elicitation where the permission
//! mode says to ask), serves the session resources, and notifies subscribers.

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[allow(deprecated)] // logging: the handshake-era way, which dapvisor serves
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, Implementation, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, ServerCapabilities, ServerConfig, SubscribeRequestParams,
    Tool, UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use crate::tools::{ToolCatalogue, ToolError, ToolNames, ToolResult, ToolSpec};
use crate::Owner;

use super::approval::{ElicitationApprover, DEFAULT_APPROVAL_TIMEOUT};
use super::instructions::instructions;
use super::logging::LogLevel;
use super::notify::{self, Subscriptions};
use super::progress;
use super::prompts;
use super::resources::{self, SESSIONS_URI, SESSION_URI_TEMPLATE};

/// The MCP server over one tool catalogue.
#[derive(Clone)]
pub struct DebugServer {
    catalogue: ToolCatalogue,
    approval_timeout: Duration,
    subscriptions: Subscriptions,
    log_level: LogLevel,
    forwarding: Arc<AtomicBool>,
    /// How many clients [`Self::for_another_client`] has made, shared by every
    /// server made from one, so each client gets an id of its own.
    clients_made: Arc<AtomicU64>,
    /// The client connection this server serves, if it is one of several; when the
    /// last clone goes (the MCP session ended), the client has left.
    seat: Option<Arc<ClientSeat>>,
}

/// One client's place on the server: dropped with the client's last server, it says
/// the client has left, so that the sessions it still owns end after the grace.
struct ClientSeat(ToolCatalogue);

impl Drop for ClientSeat {
    fn drop(&mut self) {
        self.0.client_left();
    }
}

impl DebugServer {
    /// A server for `catalogue`.
    pub fn new(catalogue: ToolCatalogue) -> Self {
        Self {
            // Its clients call the tools by their MCP names: every text they read
            // names them so.
            catalogue: catalogue.with_tool_names(ToolNames::Mcp),
            approval_timeout: DEFAULT_APPROVAL_TIMEOUT,
            subscriptions: Subscriptions::default(),
            log_level: LogLevel::default(),
            forwarding: Arc::new(AtomicBool::new(false)),
            clients_made: Arc::default(),
            seat: None,
        }
    }

    /// Set how long the user has to answer an approval request (default
    /// [`DEFAULT_APPROVAL_TIMEOUT`]).
    pub fn approval_timeout(mut self, timeout: Duration) -> Self {
        self.approval_timeout = timeout;
        self
    }

    /// A server for another client connection: the same catalogue (so the same
    /// runtime and sessions) and settings, with its own subscriptions, log level and
    /// notification forwarder, and a client id of its own (`c1`, `c2`, ... in the
    /// order they come; never the MCP session id, which would let anyone who sees it
    /// act as the client). The sessions the client starts are its own (see
    /// [`ToolCatalogue::for_client`]); when the server and its clones are dropped
    /// (the MCP session ended), the ones it still owns end after the owner grace.
    pub fn for_another_client(&self) -> Self {
        let number = self.clients_made.fetch_add(1, Ordering::SeqCst) + 1;
        let client = Owner::new(&format!("c{number}")).expect("c<N> is a client id");
        let catalogue = self.catalogue.for_client(client);
        let mut server = Self::new(catalogue.clone()).approval_timeout(self.approval_timeout);
        server.clients_made = self.clients_made.clone();
        server.seat = Some(Arc::new(ClientSeat(catalogue)));
        server
    }

    /// The catalogue served.
    pub fn catalogue(&self) -> &ToolCatalogue {
        &self.catalogue
    }
}

/// A catalogue tool as MCP lists it, under its MCP name. No `title`: it would only
/// repeat the name, and every byte of `tools/list` costs every conversation tokens.
pub fn mcp_tool(spec: &ToolSpec) -> Tool {
    // Only the hints that differ from MCP's defaults (not read-only, destructive, not
    // idempotent, open world): a client reads an absent hint as its default.
    let a = spec.annotations;
    let mut annotations = rmcp::model::ToolAnnotations::new();
    annotations.read_only_hint = a.read_only.then_some(true);
    annotations.destructive_hint = (!a.read_only && !a.destructive).then_some(false);
    annotations.idempotent_hint = a.idempotent.then_some(true);
    annotations.open_world_hint = (!a.open_world).then_some(false);
    let mut tool = Tool::new(
        spec.mcp_name(),
        spec.description.clone(),
        Arc::new(spec.input_schema.clone()),
    );
    tool.annotations = Some(annotations);
    if let Some(schema) = &spec.output_schema {
        tool = tool.with_raw_output_schema(Arc::new(schema.clone()));
    }
    tool
}

/// A catalogue result as MCP returns it: structured content, and its text rendering.
pub fn mcp_result(result: ToolResult) -> CallToolResult {
    let mut out = if result.is_error {
        CallToolResult::structured_error(result.structured)
    } else {
        CallToolResult::structured(result.structured)
    };
    out.content = vec![ContentBlock::text(result.text)];
    out
}

fn json_contents(uri: &str, value: &Value) -> ReadResourceResult {
    let text = serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string());
    ReadResourceResult::new(vec![
        ResourceContents::text(text, uri).with_mime_type("application/json")
    ])
}

impl ServerHandler for DebugServer {
    #[allow(deprecated)] // logging: the handshake-era way, which dapvisor serves
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_resources_list_changed()
            .enable_logging()
            .enable_prompts()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("dapvisor", env!("CARGO_PKG_VERSION")))
            .with_instructions(instructions(self.catalogue.profile()))
    }

    /// The revisions with an `initialize` handshake, where a server may ask the user
    /// (elicitation) in the middle of a tool call.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(
            &ProtocolVersion::LATEST_WITH_INITIALIZE,
        ))
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        // One forwarder per connection, however often a client says it is ready.
        if self.forwarding.swap(true, Ordering::SeqCst) {
            return;
        }
        tokio::spawn(notify::forward(
            self.catalogue.runtime().clone(),
            context.peer,
            self.subscriptions.clone(),
            self.log_level.clone(),
            self.catalogue.redaction().clone(),
            notify::EditorNotices {
                feed: self.catalogue.editor_activity(),
                caller: self.catalogue.caller().cloned(),
            },
        ));
    }

    /// The least level of log message the client wants (`logging.rs`).
    #[allow(deprecated)] // logging: the handshake-era way, which dapvisor serves
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.log_level.set(request.level);
        Ok(())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = self.catalogue.list().iter().map(mcp_tool).collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if self.catalogue.spec(&request.name).is_none() {
            let refusal = self.catalogue.not_served(&request.name);
            return Err(ErrorData::invalid_params(
                format!("{}; {}", refusal.error, refusal.hint),
                None,
            ));
        }
        let arguments = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        let approver = ElicitationApprover::new(context.peer.clone(), self.approval_timeout);
        let progress = progress::report(
            context.peer.clone(),
            context.meta.get_progress_token(),
            request.name.to_string(),
            approver.asking(),
        );
        let call = self
            .catalogue
            .call_with_approver(&request.name, arguments, &approver);
        // The client's `notifications/cancelled` ends the call at once: dropped, the
        // call withdraws what it waits for (a stop, an approval: one approved later
        // runs nothing) and cancels the DAP request it has in flight where the adapter
        // takes `cancel`; the session serves the next call. The client expects no
        // answer, and rmcp sends none.
        tokio::select! {
            result = call => Ok(mcp_result(result).into()),
            () = progress => unreachable!("progress reports until the call ends"),
            () = context.ct.cancelled() => {
                tracing::info!(tool = %request.name, "the client cancelled the call");
                let cancelled = ToolError::invalid(
                    "the client cancelled the call",
                    "no one reads this: MCP sends no answer to a cancelled request",
                )
                .with_kind("cancelled");
                Ok(mcp_result(cancelled.into()).into())
            }
        }
    }

    /// Plans for the usual jobs, in the core tools (`prompts.rs`).
    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(prompts::list()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        prompts::get(&request.name, request.arguments.as_ref()).map(Into::into)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let mut list = vec![Resource::new(SESSIONS_URI, "sessions")
            .with_description("Every debug session: id, state, adapter, program, idle time")
            .with_mime_type("application/json")];
        for entry in resources::list(self.catalogue.runtime(), self.catalogue.caller()).await {
            let id = entry["session_id"].as_str().unwrap_or_default().to_string();
            list.push(
                Resource::new(format!("{SESSIONS_URI}/{id}"), format!("session {id}"))
                    .with_description(format!(
                        "{} under {}: {}",
                        entry["program"].as_str().unwrap_or("?"),
                        entry["adapter"].as_str().unwrap_or("?"),
                        entry["state"].as_str().unwrap_or("?"),
                    ))
                    .with_mime_type("application/json"),
            );
        }
        Ok(ListResourcesResult::with_all_items(list))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new(SESSION_URI_TEMPLATE, "session")
                .with_description(
                    "One debug session: state, allowed operations, breakpoints, last stop, \
                     capabilities, threads, exit code",
                )
                .with_mime_type("application/json"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match resources::read(
            self.catalogue.runtime(),
            &request.uri,
            self.catalogue.bounds(),
            self.catalogue.caller(),
        )
        .await
        {
            // Resources pass the same redaction as tool results.
            Ok(mut value) => {
                // What the session allows, in the tools this client has, by its names.
                if let Some(allowed) = value.get_mut("allowed_tools") {
                    let canonical: Vec<&str> = allowed
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .collect();
                    *allowed = Value::from(self.catalogue.as_served(&canonical));
                }
                self.catalogue.redaction().json(&mut value);
                Ok(json_contents(&request.uri, &value).into())
            }
            Err(err) => Err(ErrorData::resource_not_found(
                self.catalogue
                    .redaction()
                    .text(&format!("{}; {}", err.error, err.hint)),
                None,
            )),
        }
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscriptions.add(request.uri);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscriptions.remove(&request.uri);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::tools::OWNER_GRACE;
    use crate::{Runtime, RuntimeConfig};

    #[tokio::test(start_paused = true)]
    async fn each_client_gets_the_next_id_and_its_sessions_end_once_its_last_server_goes() {
        let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
        let template = DebugServer::new(ToolCatalogue::new(runtime.clone()));
        let first = template.for_another_client();
        let second = template.for_another_client();
        let id = |server: &DebugServer| server.catalogue().caller().map(|c| c.to_string());
        assert_eq!(id(&template), None, "the template is no client");
        assert_eq!(id(&first).as_deref(), Some("c1"));
        assert_eq!(id(&second).as_deref(), Some("c2"));
        assert_eq!(id(&second.for_another_client()).as_deref(), Some("c3"));

        let session = first.catalogue().runtime().new_session().await.unwrap();
        assert_eq!(
            session.owner().map(|o| o.to_string()).as_deref(),
            Some("c1")
        );
        let still_serving = first.clone();
        drop(first);
        tokio::time::sleep(OWNER_GRACE * 2).await;
        assert!(
            runtime.session(session.id()).is_some(),
            "a clone serves c1 yet"
        );
        drop(still_serving);
        tokio::time::sleep(OWNER_GRACE + Duration::from_secs(1)).await;
        assert!(runtime.session(session.id()).is_none(), "c1 left");
        runtime.shutdown().await;
    }
}
