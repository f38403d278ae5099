//! The machine level and raw requests: `debug.disassemble`, `debug.read_memory`,
//! `debug.write_memory` (memory as base64, as DAP carries it), `debug.cancel` and
//! `debug.custom_request`.

use std::fmt::Write as _;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::permission::{Adds, Effect};
use crate::wire::base64;
use crate::Operation;

use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{tool, Outcome, Reply, ToolDef};
use crate::tools::catalogue::spec::{ToolAnnotations, ToolError};
use crate::tools::results::bounds::{adapter_int, cut_chars};

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![
        tool(
            "debug.disassemble",
            "Machine instructions of the stopped program, from the instruction pointer unless \
             `memory_reference` names an address; `offset` shifts the start in bytes, \
             `instruction_offset` in instructions (negative: back). 20 unless \
             `instruction_count` says (at most {max_instructions}); `current` marks the pointer.",
            ToolAnnotations::READ_ONLY,
            disassemble,
        ).effect(Effect::Read).asks(Operation::Inspect),
        tool(
            "debug.read_memory",
            "Read `count` bytes (at most {max_memory}) of the stopped program's memory at \
             `memory_reference` (an address, or a variable's) plus `offset`. Returns `data` \
             in base64, its `address`, and `unreadable_bytes` not read.",
            ToolAnnotations::READ_ONLY,
            read_memory,
        ).effect(Effect::Read).asks(Operation::Inspect),
        tool(
            "debug.write_memory",
            "Write `data` (base64, at most {max_memory}) into the stopped program's memory at \
             `memory_reference` plus `offset`. WARNING: changes the program's state arbitrarily. With \
             `allow_partial`, writes what it can and says how much.",
            ToolAnnotations::ARBITRARY_CODE,
            write_memory,
        ).effect(Effect::Code).adds(Adds::MemoryWrite).asks(Operation::Modify),
        tool(
            "debug.cancel",
            "Ask the adapter to give up on a request (`request_id`, its DAP seq) or a \
             long-running operation (`progress_id` from a progress event).",
            ToolAnnotations::SETTING,
            cancel,
        ).effect(Effect::Control).asks(Operation::Query),
        tool(
            "debug.custom_request",
            "Send any DAP request by name (`command`) with any `arguments` (a JSON object), \
             such as an adapter's own commands (debugpy: `pydevdSystemInfo`); the answer is \
             the adapter's body as sent (cut to 16 KiB). WARNING: a command can do \
             anything the adapter can.",
            ToolAnnotations::ARBITRARY_CODE,
            custom_request,
        ).effect(Effect::Host).adds(Adds::CustomRequest).asks(Operation::CustomRequest),
    ]
}

/// Arguments of `debug.disassemble`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DisassembleArgs {
    session_id: String,
    /// Where to start: an address or memory reference; the instruction pointer by default.
    memory_reference: Option<String>,
    /// Bytes to move the start by (may be negative).
    offset: Option<i64>,
    /// Instructions to move the start by after `offset` (negative: look back).
    instruction_offset: Option<i64>,
    /// How many instructions (default {instruction_count}, at most {max_instructions}).
    instruction_count: Option<usize>,
}

/// Arguments of `debug.read_memory`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReadMemoryArgs {
    session_id: String,
    /// An address or memory reference.
    memory_reference: String,
    /// Bytes from `memory_reference` (may be negative).
    offset: Option<i64>,
    /// How many bytes (at most {max_memory}).
    count: usize,
}

/// Arguments of `debug.write_memory`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct WriteMemoryArgs {
    session_id: String,
    /// An address or memory reference.
    memory_reference: String,
    /// Bytes from `memory_reference` (may be negative).
    offset: Option<i64>,
    /// The bytes to write, in base64.
    data: String,
    /// Write what can be written instead of failing on an unwritable part.
    #[serde(default)]
    allow_partial: bool,
}

/// Arguments of `debug.cancel`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CancelArgs {
    session_id: String,
    /// The DAP `seq` of the request to cancel.
    request_id: Option<i64>,
    /// The id of the progress to cancel.
    progress_id: Option<String>,
}

/// Arguments of `debug.custom_request`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CustomArgs {
    session_id: String,
    /// The DAP command.
    command: String,
    /// Its arguments (a JSON object).
    arguments: Option<Value>,
}

async fn disassemble(ctx: Arc<Context>, args: DisassembleArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let max = ctx.bounds.max_instructions;
    let count = args
        .instruction_count
        .unwrap_or(ctx.bounds.instruction_count.min(max));
    if count == 0 || count > max {
        return Err(ToolError::invalid(
            format!("instruction_count {count} is not between 1 and {max}"),
            "ask for fewer instructions and move on with offset or instruction_offset",
        ));
    }
    if let Some(n) = args.instruction_offset {
        adapter_int(
            usize::try_from(n.unsigned_abs()).unwrap_or(usize::MAX),
            "instruction_offset",
        )?;
    }
    // Without an address, the instruction pointer is where to start, and failing to
    // get it is the answer (not stopped, a timeout, no pointer from this adapter);
    // with one, the pointer only marks the current line when there is one.
    let (reference, ip) = match args.memory_reference {
        Some(r) => (r, session.instruction_pointer().await.ok()),
        None => {
            let ip = session.instruction_pointer().await?;
            (ip.clone(), Some(ip))
        }
    };
    let list = session
        .disassemble(
            Some(&reference),
            args.offset,
            args.instruction_offset,
            count as i64,
        )
        .await?;
    let same = |a: &str, b: &str| {
        a.trim_start_matches("0x")
            .eq_ignore_ascii_case(b.trim_start_matches("0x"))
    };
    let mut text = String::new();
    let mut file: Option<String> = None;
    let rows: Vec<Value> = list
        .iter()
        .map(|i| {
            if let Some(path) = i.location.as_ref().and_then(|l| l.path.clone()) {
                file = Some(path);
            }
            let current = ip.as_deref().is_some_and(|ip| same(ip, &i.address));
            let marker = if current { "->" } else { "  " };
            let _ = write!(text, "{marker} {} {}", i.address, i.instruction.trim());
            if let Some(symbol) = &i.symbol {
                let _ = write!(text, " <{symbol}>");
            }
            if let Some(line) = i.line {
                let _ = write!(text, "  ; line {line}");
            }
            text.push('\n');
            json!({
                "address": i.address,
                "instruction": i.instruction.trim(),
                "bytes": i.instruction_bytes,
                "symbol": i.symbol,
                "file": i.line.and(file.clone()),
                "line": i.line,
                "current": current,
            })
        })
        .collect();
    Ok(Reply::new(
        json!({
            "memory_reference": reference,
            "instruction_pointer": ip,
            "instructions": rows,
        }),
        text.trim_end(),
    ))
}

async fn read_memory(ctx: Arc<Context>, args: ReadMemoryArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let max = ctx.bounds.max_memory_bytes;
    if args.count == 0 || args.count > max {
        return Err(ToolError::invalid(
            format!("count {} is not between 1 and {max} bytes", args.count),
            "read in pieces: move on with offset",
        ));
    }
    let body = session
        .read_memory(&args.memory_reference, args.offset, args.count as i64)
        .await?;
    let data = body.data.unwrap_or_default();
    let bytes = base64::decode(&data).map_err(|why| {
        ToolError::new(
            500,
            format!("the adapter's memory is not base64: {why}"),
            "read it again; if it repeats, the adapter is at fault",
        )
    })?;
    let mut text = format!("{} byte(s) at {}:", bytes.len(), body.address);
    for line in bytes.chunks(16) {
        text.push_str("\n ");
        for b in line {
            let _ = write!(text, " {b:02x}");
        }
    }
    if let Some(n) = body.unreadable_bytes.filter(|n| *n > 0) {
        let _ = write!(text, "\n{n} byte(s) after these could not be read");
    }
    Ok(Reply::new(
        json!({
            "address": body.address,
            "data": data,
            "bytes_read": bytes.len(),
            "unreadable_bytes": body.unreadable_bytes.unwrap_or(0),
        }),
        text,
    ))
}

async fn write_memory(ctx: Arc<Context>, args: WriteMemoryArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let max = ctx.bounds.max_memory_bytes;
    // Measured before decoding: base64 is 4 characters per 3 bytes.
    let at_most = args.data.trim_end_matches('=').len() * 3 / 4;
    if at_most > max {
        return Err(ToolError::invalid(
            format!("`data` holds {at_most} bytes; at most {max} are written per call"),
            "write in pieces of at most that many bytes, moving on with offset",
        ));
    }
    let bytes = base64::decode(&args.data).map_err(|why| {
        ToolError::invalid(
            format!("`data` is not base64: {why}"),
            "encode the bytes in standard base64 (A-Z, a-z, 0-9, +, /, = padding)",
        )
    })?;
    if bytes.is_empty() {
        return Err(ToolError::invalid(
            "`data` holds no bytes",
            "pass at least one byte, base64-encoded",
        ));
    }
    let body = session
        .write_memory(
            &args.memory_reference,
            args.offset,
            &args.data,
            args.allow_partial,
        )
        .await?;
    let written = body.bytes_written.unwrap_or(bytes.len() as i64);
    Ok(Reply::new(
        json!({
            "memory_reference": args.memory_reference,
            "offset": body.offset.or(args.offset).unwrap_or(0),
            "bytes_written": written,
        }),
        format!(
            "wrote {written} of {} byte(s) at {}",
            bytes.len(),
            args.memory_reference
        ),
    ))
}

async fn cancel(ctx: Arc<Context>, args: CancelArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    session
        .cancel(args.request_id, args.progress_id.as_deref())
        .await?;
    Ok(Reply::new(
        json!({ "request_id": args.request_id, "progress_id": args.progress_id }),
        "cancel sent: the cancelled request answers with an error",
    ))
}

async fn custom_request(ctx: Arc<Context>, args: CustomArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    if args.arguments.as_ref().is_some_and(|a| !a.is_object()) {
        return Err(ToolError::invalid(
            "`arguments` must be a JSON object",
            "pass {\"arguments\": {\"name\": value}} or leave it out",
        ));
    }
    if let Some(arguments) = &args.arguments {
        ctx.bounds
            .check_expression("`arguments` as JSON", &arguments.to_string())?;
    }
    ctx.bounds.check_expression("the command", &args.command)?;
    let body = session
        .custom_request(args.command.trim(), args.arguments)
        .await?;
    let rendered = serde_json::to_string_pretty(&body).unwrap_or_default();
    let (shown, cut) = cut_chars(&rendered, ctx.bounds.max_output_bytes);
    let json = if cut == 0 {
        json!({ "command": args.command, "body": body })
    } else {
        json!({ "command": args.command, "body_text": shown, "truncated": true,
                "truncated_chars": cut })
    };
    let mut text = format!("`{}` answered:\n{shown}", args.command);
    if cut > 0 {
        let _ = write!(text, "\n… {cut} more characters cut");
    }
    Ok(Reply::new(json, text))
}
