//! Code and calls on a real lldb-dap 22 on average.c: disassembly at the instruction
//! pointer (counted in instructions and in bytes, both ways, and the offsets no adapter
//! can take refused), modules in pages even where lldb-dap sends them all, and a step
//! into a chosen call with name completions on the way.

mod common;
mod protocol_support;

use common::*;
use dapvisor::ErrorCode;
use dapvisor::SessionError;
use protocol_support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disassembles_at_the_current_instruction_pointer() {
    let (runtime, session, line) = average_c_stopped_at("double mean = sum / count;").await;
    let ip = session.instruction_pointer().await.unwrap();

    // No reference: the top frame's instruction pointer, on the stopped line.
    let here = session.disassemble(None, None, None, 5).await.unwrap();
    assert_eq!(here.len(), 5);
    assert_eq!(address(&here[0].address), address(&ip));
    assert_eq!(here[0].line, Some(line));
    let path = here[0].location.as_ref().and_then(|s| s.path.clone());
    assert!(path.unwrap().ends_with("average.c"));
    assert!(here.iter().all(|i| !i.instruction.trim().is_empty()));
    let addresses: Vec<u64> = here.iter().map(|i| address(&i.address)).collect();
    assert!(addresses.windows(2).all(|w| w[0] < w[1]), "{addresses:x?}");

    // Counted in instructions and in bytes, both ways (lldb-dap 19 read
    // `instructionOffset` as bytes and ignored `offset`, so the runtime asks from the
    // byte address and counts instructions itself; lldb-dap 22 reads both as the spec
    // says, and the answers are the same).
    let later = session
        .disassemble(Some(&ip), None, Some(2), 3)
        .await
        .unwrap();
    assert_eq!(later[0].address, here[2].address);
    let first_size = (addresses[1] - addresses[0]) as i64;
    let by_bytes = session
        .disassemble(Some(&ip), Some(first_size), None, 1)
        .await
        .unwrap();
    assert_eq!(by_bytes[0].address, here[1].address);
    // Offsets no adapter can take are refused before anything is sent.
    for (offset, instructions) in [(None, Some(i64::MIN)), (Some(i64::MAX), None)] {
        let refused = session
            .disassemble(Some(&ip), offset, instructions, 3)
            .await;
        assert!(
            matches!(refused, Err(SessionError::InvalidArgument(ref m)) if m.contains("32-bit")),
            "{refused:?}"
        );
    }
    let before = session.disassemble(None, None, Some(-3), 4).await.unwrap();
    assert_eq!(before.len(), 4);
    assert_eq!(address(&before[3].address), address(&ip));
    let back_then_on = session
        .disassemble(Some(&ip), Some(first_size), Some(-1), 1)
        .await
        .unwrap();
    assert_eq!(address(&back_then_on[0].address), address(&ip));

    let none = session.disassemble(None, None, None, 0).await.unwrap_err();
    assert_eq!(none.code(), 400, "{none}");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modules_come_in_pages_even_where_lldb_dap_sends_them_all() {
    let (runtime, session, _) = average_c_stopped_at("double mean = sum / count;").await;
    let all = session.modules(None, None).await.unwrap();
    let binary = c_binary();
    let name = binary.file_name().unwrap().to_str().unwrap();
    let program = all
        .modules
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no module {name} in {:?}", all.modules));
    assert_eq!(
        program.path.as_deref(),
        Some(binary.to_str().unwrap()),
        "{program:?}"
    );
    assert_eq!(program.symbol_status.as_deref(), Some("Symbols loaded."));
    assert!(all.modules.len() >= 3, "the program, the loader, libc");

    let page = session.modules(Some(1), Some(2)).await.unwrap();
    assert_eq!(page.modules, all.modules[1..3].to_vec());
    assert_eq!(page.total_modules, Some(all.modules.len() as i64));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_into_a_chosen_call_and_completes_names() {
    let (runtime, session, _) = average_c_stopped_at("s.mean = mean_of(s.sum, s.count);").await;
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();

    let names = session.completions("sc", 3, Some(frame.id)).await.unwrap();
    assert!(
        names.iter().any(|c| c.label.starts_with("scores")),
        "{names:?}"
    );

    let targets = session.step_in_targets(frame.id).await.unwrap();
    let mean_of = targets
        .iter()
        .find(|t| t.label.contains("mean_of"))
        .unwrap_or_else(|| panic!("no mean_of among {targets:?}"));
    let ticket = session.step_in_target(None, mean_of.id).await.unwrap();
    expect_stop(&session, ticket).await;
    let top = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();
    assert!(top.name.contains("mean_of"), "{top:?}");
    assert_eq!(local(&session, "sum").await, "426");
    runtime.shutdown().await;
}
