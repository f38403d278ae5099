//! Changing a stopped program's values: `debug.set_variable` (by name in a scope or
//! a container) and `debug.set_expression` (any assignable expression). Both can run
//! code in the debuggee, so the permission gate classifies each call.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::permission::{Adds, Effect};
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{tool, Outcome, Reply, ToolDef};
use crate::tools::catalogue::spec::{ToolAnnotations, ToolError};
use crate::tools::inspect::ids::AgentIds;
use crate::tools::inspect::locals::scope_reference;
use crate::tools::inspect::stack::ScopeRef;
use crate::tools::results::render::cut_value;
use crate::Operation;

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![
        tool(
            "debug.set_variable",
            "Set `name` in a `scope` (\"Locals\", in `frame_id` or the top frame) or under a \
             `variables_reference` to `value`, an expression. WARNING: changes the \
             program's state; the expression can run code. Returns `value` and `type`.",
            ToolAnnotations::ARBITRARY_CODE,
            set_variable,
        )
        .effect(Effect::Code)
        .adds(Adds::VariableValue)
        .asks(Operation::Modify),
        tool(
            "debug.set_expression",
            "Assign `value` to an assignable `expression` (such as `scores['CY']` or \
             `item.Stock`) in `frame_id` (default: the top frame). WARNING: changes the \
             program's state, and the expressions can run code. Returns the new `value`.",
            ToolAnnotations::ARBITRARY_CODE,
            set_expression,
        )
        .effect(Effect::Code)
        .adds(Adds::Assignment)
        .asks(Operation::Modify),
    ]
}

/// Arguments of `debug.set_variable`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SetVariableArgs {
    session_id: String,
    /// The variable's name in its scope or container.
    name: String,
    /// The new value, an expression in the program's language.
    value: String,
    /// A scope: its name (`Locals`, ...) or its id.
    scope: Option<ScopeRef>,
    /// Or a container: the `variables_reference` of a structured value.
    variables_reference: Option<i64>,
    /// The frame whose scope is named; the top frame by default.
    frame_id: Option<i64>,
}

/// Arguments of `debug.set_expression`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SetExpressionArgs {
    session_id: String,
    /// An assignable expression.
    expression: String,
    /// The new value, an expression in the program's language.
    value: String,
    /// The frame; the top frame of the stopped thread by default.
    frame_id: Option<i64>,
}

async fn set_variable(ctx: Arc<Context>, args: SetVariableArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    ctx.bounds.check_expression("the value", &args.value)?;
    let container = match (args.variables_reference, args.scope) {
        (Some(r), None) | (None, Some(ScopeRef::Id(r))) => r,
        (None, Some(ScopeRef::Name(name))) => {
            scope_reference(&ctx, &session, &name, args.frame_id, &args.name).await?
        }
        _ => {
            return Err(ToolError::invalid(
                "pass `scope` or `variables_reference`, not both and not neither",
                "scope: \"Locals\" for a local of the top frame",
            ))
        }
    };
    let set = session
        .set_variable(container, &args.name, &args.value)
        .await
        .ids(&[("variables_reference", args.variables_reference)])?;
    let new = NewValue {
        value: set.value,
        type_: set.type_,
        variables_reference: set.variables_reference,
        memory_reference: set.memory_reference,
    };
    let (json, value) = new.reply(&ctx, json!({ "name": args.name }));
    Ok(Reply::new(json, format!("{} = {value}", args.name)))
}

async fn set_expression(ctx: Arc<Context>, args: SetExpressionArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    ctx.bounds
        .check_expression("the expression", &args.expression)?;
    ctx.bounds.check_expression("the value", &args.value)?;
    let frame_id = ctx.frame_or_top(&session, args.frame_id).await?;
    let set = session
        .set_expression(&args.expression, &args.value, Some(frame_id))
        .await
        .ids(&[("frame_id", args.frame_id)])?;
    let named = json!({ "expression": args.expression, "frame_id": frame_id });
    let new = NewValue {
        value: set.value,
        type_: set.type_,
        variables_reference: set.variables_reference,
        memory_reference: set.memory_reference,
    };
    let (json, value) = new.reply(&ctx, named);
    Ok(Reply::new(json, format!("{} = {value}", args.expression)))
}

/// What a change left: the adapter's answer to `setVariable` or `setExpression`.
struct NewValue {
    value: String,
    type_: Option<String>,
    variables_reference: Option<i64>,
    memory_reference: Option<String>,
}

impl NewValue {
    /// The tool's answer: `named` (what was set, where) with the new `value` (cut at
    /// the value bound), its `type` and `variables_reference`; and the value as shown.
    fn reply(self, ctx: &Context, mut named: Value) -> (Value, String) {
        let (value, cut) = cut_value(&self.value, ctx.bounds.max_value_chars);
        named["value"] = json!(value);
        named["type"] = json!(self.type_);
        named["variables_reference"] = json!(self.variables_reference.unwrap_or(0));
        if let Some(m) = self.memory_reference {
            named["memory_reference"] = json!(m);
        }
        if cut > 0 {
            named["value_truncated_chars"] = json!(cut);
        }
        (named, value)
    }
}
