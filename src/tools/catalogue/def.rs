//! How a tool is defined once: its name, description, annotations and a typed handler
//! whose argument type gives the JSON Schema, and what the rest of dapvisor knows of it:
//! its effect and how its arguments and adapter add to it (the permission table), the
//! session operation it asks for (what a state allows), and its place in the core
//! profile. The same definition serves the embedded catalogue, the MCP server, the
//! permission gate and the profiles: a tool is added in one place.

use std::future::Future;
use std::sync::Arc;

use futures::future::BoxFuture;
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::permission::{Adds, Effect};
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::describe;
use crate::tools::catalogue::operations::Asks;
use crate::tools::catalogue::profile::{CorePlace, Stage};
use crate::tools::catalogue::spec::{code_arguments_of, ToolAnnotations, ToolError, ToolSpec};
use crate::tools::{Bounds, ToolNames, ToolProfile};
use crate::Operation;

/// What a handler answers: structured content and its text rendering.
#[derive(Debug, Clone)]
pub(crate) struct Reply {
    pub structured: Value,
    pub text: String,
}

impl Reply {
    pub fn new(structured: Value, text: impl Into<String>) -> Self {
        Self {
            structured,
            text: text.into(),
        }
    }
}

pub(crate) type Outcome = Result<Reply, ToolError>;

/// What a handler of a [`typed_tool`] answers: its result as a Rust value, whose type
/// is the one home of the result's shape (it gives the structured content and the
/// tool's output schema both), and the text rendering.
#[derive(Debug, Clone)]
pub(crate) struct Typed<R> {
    pub value: R,
    pub text: String,
}

impl<R: Serialize> Typed<R> {
    pub fn new(value: R, text: impl Into<String>) -> Self {
        Self {
            value,
            text: text.into(),
        }
    }

    fn into_reply(self) -> Outcome {
        match serde_json::to_value(&self.value) {
            Ok(structured) => Ok(Reply::new(structured, self.text)),
            Err(e) => Err(ToolError::new(
                500,
                format!("the result could not be rendered as JSON: {e} (a bug in dapvisor)"),
                "try again; if it repeats, report it",
            )),
        }
    }
}

type Handler = Arc<dyn Fn(Arc<Context>, Value) -> BoxFuture<'static, Outcome> + Send + Sync>;

/// The `debug.launch` calls a call of this tool makes, each passed through the gate
/// as that call: (a JSON pointer to where the reply names the session it left to the
/// agent, if it did; its arguments). `debug.diff` makes two.
pub(crate) type GatedAs = fn(&Value) -> Result<Vec<(&'static str, Value)>, ToolError>;

/// A tool: its spec, its handler, the session operation it asks for and its place in
/// the core profile.
#[derive(Clone)]
pub(crate) struct ToolDef {
    pub spec: ToolSpec,
    pub run: Handler,
    pub asks: Asks,
    pub core: Option<CorePlace>,
    /// The `debug.launch` calls a call of it makes, gated as such ([`GatedAs`]).
    pub gated_as: Option<GatedAs>,
}

impl ToolDef {
    /// The effect it always has, whatever its arguments: what an allow rule naming it
    /// grants. A tool that does not say has [`Effect::Host`], the strongest.
    pub fn effect(mut self, effect: Effect) -> Self {
        self.spec.effect = effect;
        self
    }

    /// How its arguments and adapter add to its effect (default: only the code they
    /// carry).
    pub fn adds(mut self, adds: Adds) -> Self {
        self.spec.adds = adds;
        self
    }

    /// The session operation it asks for: a session's state allows it or not. A tool
    /// that does not say works in every state.
    pub fn asks(mut self, operation: Operation) -> Self {
        self.asks = Asks::Operation(operation);
        self
    }

    /// Each call makes the `debug.launch` calls `parts` finds in its arguments: each
    /// passes the gate as that launch would, besides the call itself.
    pub fn gated_as(mut self, parts: GatedAs) -> Self {
        self.gated_as = Some(parts);
        self
    }

    /// Served by the core profile, at `stage` of the loop, its schema without the
    /// arguments `left_out`.
    pub fn core(mut self, stage: Stage, left_out: &'static [&'static str]) -> Self {
        self.core = Some(CorePlace { stage, left_out });
        self
    }

    /// The tool as `profile` serves it under `bounds`: the limits its descriptions state
    /// filled in, and the arguments the profile leaves out taken out of its schema
    /// (still accepted, and still gated: `code_arguments` keeps them).
    pub fn served(mut self, profile: ToolProfile, bounds: &Bounds, names: ToolNames) -> Self {
        self.spec.description = names.in_text(&describe::render(&self.spec.description, bounds));
        if !profile.serves_output_schemas() {
            self.spec.output_schema = None;
        }
        let mut schema = describe::render_schema(&self.spec.input_schema, bounds, names);
        for argument in profile.left_out(&self) {
            leave_out(&mut schema, argument);
        }
        self.spec.input_schema = schema;
        self
    }
}

/// Take the argument at `path` out of `schema`: a top-level name (`cwd`), or a field
/// of an object or of an array's items (`breakpoints.near_line`). Whether it was there.
pub(crate) fn leave_out(schema: &mut Map<String, Value>, path: &str) -> bool {
    let (head, rest) = match path.split_once('.') {
        Some((head, rest)) => (head, Some(rest)),
        None => (path, None),
    };
    let Some(Value::Object(properties)) = schema.get_mut("properties") else {
        return false;
    };
    match rest {
        None => properties.remove(head).is_some(),
        Some(rest) => {
            let Some(Value::Object(field)) = properties.get_mut(head) else {
                return false;
            };
            let object = match field.get_mut("items") {
                Some(Value::Object(items)) => items,
                _ => field,
            };
            leave_out(object, rest)
        }
    }
}

/// Define a tool whose arguments are an `A`, parsed (and described) by serde and
/// schemars; a malformed call is a 400 that quotes the parser and points at the schema.
pub(crate) fn tool<A, F, Fut>(
    name: &'static str,
    description: &'static str,
    annotations: ToolAnnotations,
    handler: F,
) -> ToolDef
where
    A: DeserializeOwned + JsonSchema + Send + 'static,
    F: Fn(Arc<Context>, A) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Outcome> + Send + 'static,
{
    let run: Handler = Arc::new(move |ctx, args| {
        // An absent `arguments` means "all defaults".
        let args = if args.is_null() {
            Value::Object(Map::new())
        } else {
            args
        };
        match serde_json::from_value::<A>(args) {
            Ok(parsed) => Box::pin(handler(ctx, parsed)),
            Err(e) => Box::pin(std::future::ready(Err(ToolError::invalid(
                format!("bad arguments for {name}: {e}"),
                "pass the arguments the tool's input schema describes (snake_case names)",
            )))),
        }
    });
    let input_schema = schema_of::<A>();
    ToolDef {
        spec: ToolSpec {
            name,
            description: description.to_string(),
            // Declared by the argument type: any field named as code (a breakpoint's
            // condition, say) makes a call that sets it destructive, so a new tool
            // taking a condition is gated without anyone remembering to say so.
            code_arguments: code_arguments_of(&input_schema),
            input_schema,
            annotations,
            // Until the tool says its effect, it is taken for the strongest an allow
            // rule could grant by name.
            effect: Effect::Host,
            adds: Adds::Nothing,
            output_schema: None,
        },
        run,
        asks: Asks::AnyState,
        core: None,
        gated_as: None,
    }
}

/// Define a tool as [`tool`] does, whose result has a fixed shape: an `R`, which gives
/// both the structured content of every successful call and the tool's output schema.
pub(crate) fn typed_tool<A, R, F, Fut>(
    name: &'static str,
    description: &'static str,
    annotations: ToolAnnotations,
    handler: F,
) -> ToolDef
where
    A: DeserializeOwned + JsonSchema + Send + 'static,
    R: Serialize + JsonSchema + Send + 'static,
    F: Fn(Arc<Context>, A) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Typed<R>, ToolError>> + Send + 'static,
{
    let handler = Arc::new(handler);
    let mut def = tool(name, description, annotations, move |ctx, args: A| {
        let answer = handler(ctx, args);
        async move { answer.await.and_then(Typed::into_reply) }
    });
    def.spec.output_schema = Some(output_schema_of::<R>());
    def
}

/// The JSON Schema of a result of type `R`, as serde serializes it, self-contained
/// and compact (see [`schema::compact_output`](crate::tools::catalogue::schema::compact_output)).
pub(crate) fn output_schema_of<R: JsonSchema>() -> Map<String, Value> {
    let mut settings = SchemaSettings::draft2020_12().for_serialize();
    settings.inline_subschemas = true;
    let schema = settings.into_generator().into_root_schema_for::<R>();
    let mut object = schema.as_object().cloned().unwrap_or_default();
    crate::tools::catalogue::schema::compact_output(&mut object);
    object
}

/// The JSON Schema of `A`, self-contained (no `$ref`s), as MCP clients expect, and
/// compact (see [`schema::compact`](crate::tools::catalogue::schema::compact)).
fn schema_of<A: JsonSchema>() -> Map<String, Value> {
    let mut settings = SchemaSettings::draft2020_12().for_deserialize();
    settings.inline_subschemas = true;
    let schema = settings.into_generator().into_root_schema_for::<A>();
    let mut object = schema.as_object().cloned().unwrap_or_default();
    crate::tools::catalogue::schema::compact(&mut object);
    // The root's description documents the Rust type ("Arguments of `debug.x`"); the
    // tool's own description is what a model reads.
    object.remove("description");
    // Clients want an object schema with `properties`, even for tools without arguments.
    object.entry("type").or_insert_with(|| "object".into());
    object
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    object
}
