//! Memory and instructions against a real lldb-dap 22 on average.c, stopped in
//! `mean_of`: reads and writes of the program's own memory (and of an unmapped
//! address), breakpoint locations on a line, steps by instruction, instruction
//! breakpoints by address and offset, and `cancel`.

mod common;
mod protocol_support;

use common::*;
use dapvisor::wire::base64;
use dapvisor::wire::types::{InstructionBreakpoint, SteppingGranularity};
use dapvisor::{SessionHandle, StepKind};
use protocol_support::*;

/// `count` bytes of the program's memory at `reference` moved by `offset`, all readable.
async fn read_bytes(
    session: &SessionHandle,
    reference: &str,
    offset: Option<i64>,
    count: i64,
) -> Vec<u8> {
    let read = session.read_memory(reference, offset, count).await.unwrap();
    assert_eq!(read.unreadable_bytes.unwrap_or(0), 0, "{read:?}");
    let bytes = base64::decode(read.data.as_deref().unwrap_or("")).unwrap();
    assert_eq!(bytes.len() as i64, count, "{read:?}");
    bytes
}

fn int(bytes: Vec<u8>) -> i32 {
    i32::from_le_bytes(bytes.try_into().expect("4 bytes"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_instruction_breakpoints_locations_and_instruction_steps_on_lldb_dap_22() {
    let (runtime, session, line) = average_c_stopped_at("double mean = sum / count;").await;
    let source = program("c/average.c");
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].id;
    let locals = session.scopes(frame).await.unwrap()[0].variables_reference;
    let vars = session.variables(locals).await.unwrap();
    let at = |name: &str| {
        vars.iter()
            .find(|v| v.name == name)
            .and_then(|v| v.memory_reference.clone())
            .unwrap_or_else(|| panic!("no memory reference for `{name}` in {vars:?}"))
    };
    let (sum_at, count_at) = (at("sum"), at("count"));

    // A variable's memory reference is where it lives (lldb-dap 22 gives none for a
    // pointer's value, so `&sum` is read from its text).
    let pointer = session.evaluate("&sum", Some(frame), None).await.unwrap();
    assert_eq!(address(&pointer.result), address(&sum_at), "{pointer:?}");
    // Its four bytes are 426; moved by the distance to `count`, the same reference
    // reads 5.
    let read = session.read_memory(&sum_at, None, 4).await.unwrap();
    assert_eq!(address(&read.address), address(&sum_at));
    assert_eq!(int(read_bytes(&session, &sum_at, None, 4).await), 426);
    let to_count = address(&count_at) as i64 - address(&sum_at) as i64;
    assert_eq!(
        int(read_bytes(&session, &sum_at, Some(to_count), 4).await),
        5
    );
    // Nothing mapped at 0x1000: the answer says every byte was unreadable.
    let unmapped = session.read_memory("0x1000", None, 8).await.unwrap();
    assert_eq!(address(&unmapped.address), 0x1000);
    assert_eq!(unmapped.unreadable_bytes, Some(8), "{unmapped:?}");
    assert!(
        unmapped.data.as_deref().unwrap_or("").is_empty(),
        "{unmapped:?}"
    );

    // 500 written over sum: the program reads it back, and computes with it below.
    let data = base64::encode(&500i32.to_le_bytes());
    let written = session
        .write_memory(&sum_at, None, &data, false)
        .await
        .unwrap();
    assert_eq!(written.bytes_written, Some(4), "{written:?}");
    let sum = session.evaluate("sum", Some(frame), None).await.unwrap();
    assert_eq!(sum.result, "500");
    assert_eq!(int(read_bytes(&session, &sum_at, None, 4).await), 500);
    // Where nothing can be written, lldb-dap itself refuses.
    let refused = assert_adapter_refused(
        session.write_memory("0x1000", None, "AAAA", false).await,
        "writeMemory",
    );
    assert!(refused.contains("not writable"), "{refused}");

    // Where breakpoints can go on the line: the assignment and the division.
    let text = std::fs::read_to_string(&source).unwrap();
    let here = text.lines().nth(line as usize - 1).unwrap();
    let column = |needle: &str| here.find(needle).unwrap() as i64 + 1;
    let spots: Vec<(i64, Option<i64>)> = session
        .breakpoint_locations(&source, line, None)
        .await
        .unwrap()
        .iter()
        .map(|l| (l.line, l.column))
        .collect();
    assert_eq!(
        spots,
        [
            (line, Some(column("mean ="))),
            (line, Some(column("/ count")))
        ]
    );

    // One instruction at a time, over and into, still on the line.
    let ip = session.instruction_pointer().await.unwrap();
    let code = session.disassemble(Some(&ip), None, None, 6).await.unwrap();
    let ticket = session
        .step_with(
            StepKind::Over,
            None,
            Some(SteppingGranularity::Instruction),
            false,
        )
        .await
        .unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(
        (stop.reason.as_str(), stop.description.as_deref()),
        ("step", Some("instruction step over"))
    );
    let ip = session.instruction_pointer().await.unwrap();
    assert_eq!(address(&ip), address(&code[1].address));
    let ticket = session
        .step(StepKind::In, None, SteppingGranularity::Instruction)
        .await
        .unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(
        (stop.reason.as_str(), stop.description.as_deref()),
        ("step", Some("instruction step into"))
    );
    let top = session.stack_trace(None, Some(1)).await.unwrap().remove(0);
    let ip = top.instruction_pointer_reference.unwrap();
    assert_eq!(address(&ip), address(&code[2].address));
    assert_eq!(top.line, line);

    // An instruction breakpoint, by an instruction's address and by an offset in bytes
    // from another; the program stops on it once the line's breakpoint is gone.
    let by_offset = InstructionBreakpoint {
        instruction_reference: code[0].address.clone(),
        offset: Some((address(&code[3].address) - address(&code[0].address)) as i64),
        ..Default::default()
    };
    let set = session
        .set_instruction_breakpoints(vec![by_offset])
        .await
        .unwrap();
    let placed = set[0].instruction_reference.as_deref().unwrap_or("");
    assert!(set.len() == 1 && set[0].verified, "{set:?}");
    assert_eq!(address(placed), address(&code[3].address), "{set:?}");
    let target = &code[4];
    let set = session
        .set_instruction_breakpoints(vec![InstructionBreakpoint {
            instruction_reference: target.address.clone(),
            ..Default::default()
        }])
        .await
        .unwrap();
    assert!(set.len() == 1 && set[0].verified, "{set:?}");
    assert_eq!(set[0].line, Some(line), "{set:?}");
    let id = set[0].id.expect("the instruction breakpoint's id");
    session.remove_breakpoint(&source, line).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "instruction breakpoint", "{stop:?}");
    assert_eq!(stop.hit_breakpoint_ids, [id]);
    let ip = session.instruction_pointer().await.unwrap();
    assert_eq!(address(&ip), address(&target.address));
    assert!(session
        .set_instruction_breakpoints(vec![])
        .await
        .unwrap()
        .is_empty());

    // cancel is advertised and answered (the request it names was answered long ago).
    session.cancel(Some(1), None).await.unwrap();

    // The program divided the 500 written into its memory: 500 / 5.
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(4));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("average of 5 scores: 100.00"), "{out:?}");
    runtime.shutdown().await;
}
