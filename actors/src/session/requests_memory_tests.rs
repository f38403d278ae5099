//! Memory through the runtime on the in-process fake adapter, which models 32 bytes
//! at `0x1000` holding the variables `x` (an `i32`, 42) and `s` (`"hi"`): memory
//! references passed through from variables and evaluations, base64 in and out, reads
//! past the end, writes that do not fit, and bad input refused before it is sent.

use crate::testing::FakeAdapter;
use crate::wire::base64;
use crate::SessionError;

use super::test_support::stopped_on;

/// The fake's locals scope.
const LOCALS: i64 = 1000;

#[tokio::test(start_paused = true)]
async fn memory_references_of_variables_and_evaluations_are_passed_through() {
    let (runtime, session, _) = stopped_on(FakeAdapter::new()).await;
    let locals = session.variables(LOCALS).await.unwrap();
    let reference = |name: &str| {
        locals
            .iter()
            .find(|v| v.name == name)
            .and_then(|v| v.memory_reference.clone())
    };
    assert_eq!(reference("x").as_deref(), Some("0x1000"));
    assert_eq!(reference("s").as_deref(), Some("0x1004"));
    let eval = session.evaluate("x", None, None).await.unwrap();
    assert_eq!(eval.memory_reference.as_deref(), Some("0x1000"));
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn reads_come_back_as_base64_with_what_could_not_be_read() {
    let (runtime, session, _) = stopped_on(FakeAdapter::new()).await;
    let x = session.read_memory("0x1000", None, 4).await.unwrap();
    assert_eq!(x.address, "0x1000");
    assert_eq!(
        base64::decode(x.data.as_deref().unwrap()).unwrap(),
        [42, 0, 0, 0]
    );
    assert_eq!(x.unreadable_bytes, None);

    // `s` by the reference of `x` moved 4 bytes.
    let s = session.read_memory("0x1000", Some(4), 3).await.unwrap();
    assert_eq!(s.address, "0x1004");
    assert_eq!(base64::decode(s.data.as_deref().unwrap()).unwrap(), b"hi\0");

    // Past the end of what the program has: the rest is unreadable.
    let tail = session.read_memory("0x1000", Some(28), 10).await.unwrap();
    assert_eq!(
        base64::decode(tail.data.as_deref().unwrap()).unwrap().len(),
        4
    );
    assert_eq!(tail.unreadable_bytes, Some(6));
    let nothing = session.read_memory("0x1000", Some(0), 0).await.unwrap();
    assert_eq!(nothing.data.as_deref(), Some(""));
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_write_changes_the_program_and_one_that_does_not_fit_is_refused_or_partial() {
    let (runtime, session, _) = stopped_on(FakeAdapter::new()).await;
    let seven = base64::encode(&7i32.to_le_bytes());
    let written = session
        .write_memory("0x1000", None, &seven, false)
        .await
        .unwrap();
    assert_eq!(written.bytes_written, Some(4));
    let x = session.variables(LOCALS).await.unwrap();
    assert_eq!(x[0].value, "7", "the program sees what was written");

    let four = base64::encode(&[1, 2, 3, 4]);
    match session.write_memory("0x1000", Some(30), &four, false).await {
        Err(SessionError::Adapter {
            command, message, ..
        }) => {
            assert_eq!(command, "writeMemory");
            assert_eq!(message, "cannot write 4 bytes at 0x101e: only 2 fit");
        }
        other => panic!("want the adapter's refusal, got {other:?}"),
    }
    let partial = session
        .write_memory("0x1000", Some(30), &four, true)
        .await
        .unwrap();
    assert_eq!(partial.bytes_written, Some(2));
    let back = session.read_memory("0x101e", None, 2).await.unwrap();
    assert_eq!(
        base64::decode(back.data.as_deref().unwrap()).unwrap(),
        [1, 2]
    );
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn bad_memory_arguments_are_refused_before_they_are_sent() {
    let (runtime, session, probe) = stopped_on(FakeAdapter::new()).await;
    let err = session
        .write_memory("0x1000", None, "not base64!", false)
        .await
        .unwrap_err();
    assert!(matches!(err, SessionError::InvalidArgument(_)), "{err}");
    assert!(err.to_string().contains("not base64"), "{err}");
    let err = session.read_memory("0x1000", None, -1).await.unwrap_err();
    assert!(matches!(err, SessionError::InvalidArgument(_)), "{err}");
    let sent = probe.commands();
    assert!(
        !sent.iter().any(|c| c == "readMemory" || c == "writeMemory"),
        "{sent:?}"
    );
    runtime.shutdown().await;
}
