//! Who may show a session to a person's editor, and when the showing ends: only the
//! session's owner exposes it (not a client it is shared with); handing it over
//! closes the endpoint and hangs up on its editors, and a change of hands no tool made
//! is seen at the editor's next request; an endpoint takes at most its
//! cap of editors at once, and tells the one past it why, in DAP terms; the runtime's
//! end ends every endpoint. Real debugpy
//! sessions, through the catalogue as two clients of one host.

mod agent;
mod common;
mod editor_support;

use agent::*;
use dapvisor::Owner;
use editor_support::Editor;
use serde_json::{json, Value};

/// The address and token of an exposure, from the file its answer names (the answer
/// itself hides the token).
fn exposure(exposed: &Value) -> (String, String, String) {
    let file = exposed["setup_file"].as_str().unwrap().to_string();
    let setup: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let address = setup["address"].as_str().unwrap().to_string();
    (address, setup["token"].as_str().unwrap().to_string(), file)
}

/// The text of every `output` event an editor was sent.
fn outputs(editor: &Editor) -> Vec<String> {
    editor
        .events
        .iter()
        .filter_map(|e| e.body_or_empty()["output"].as_str().map(str::to_string))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_owner_exposes_a_handover_closes_it_and_a_full_endpoint_turns_editors_away() {
    let host = catalogue().await;
    for wrong in [0, 65] {
        let refused = host.clone().with_max_exposed_clients(wrong).err().unwrap();
        assert!(refused.contains("1 to 64"), "{refused}");
    }
    let host = host.with_max_exposed_clients(1).unwrap();
    let c1 = host.for_client(Owner::new("c1").unwrap());
    let c2 = host.for_client(Owner::new("c2").unwrap());
    let file = discount();
    let (id, _) = launched(&c1, &file, &file, "discounted = apply_discount").await;

    // A client the session is shared with drives it, and still may not show it.
    ok(&c1, "debug.share", json!({"session_id": id, "with": "c2"})).await;
    for control in [false, true] {
        let refused = fails(
            &c2,
            "debug.expose",
            json!({"session_id": id, "control": control}),
            500,
        )
        .await;
        let err = refused.error().unwrap();
        assert_eq!(err.kind, "not_owner", "{}", refused.text);
        assert!(err.error.contains("only its owner"), "{}", refused.text);
    }

    let exposed = ok(&c1, "debug.expose", json!({"session_id": id})).await;
    let (address, token, setup_file) = exposure(&exposed);
    let mut editor = Editor::connect(&address).await;
    assert!(editor.join(&token).await.success);
    editor.event("stopped").await;
    // The endpoint takes one editor here: the next is turned away as it connects, told
    // why (the cap, who holds the place, how to raise it), its `initialize` refused
    // with the same, and `terminated`.
    let mut second = Editor::connect(&address).await;
    let init = second
        .request("initialize", json!({"adapterID": "x"}))
        .await;
    let why = editor_support::refused(&init);
    for part in [
        "already has 1 editor connected",
        "MAX_EXPOSED_CLIENTS, 1 on this server",
        "held by editor 1 (from 127.0.0.1:",
        "--max-exposed-clients N",
    ] {
        assert!(why.contains(part), "{part}: {why}");
    }
    second.until_closed().await;
    let console = outputs(&second);
    assert!(console.iter().any(|o| o.contains(&why)), "{console:?}");
    assert!(second.events.iter().any(|e| e.event == "terminated"));

    // A DAP message larger than an editor may send is answered too, before the hang-up
    // (the editor holding the place leaves first).
    assert!(editor.request("disconnect", json!({})).await.success);
    editor.until_closed().await;
    let mut big = Editor::connect(&address).await;
    big.send_bytes(b"Content-Length: 2000000\r\n\r\n{").await;
    big.until_closed().await;
    let console = outputs(&big);
    assert!(
        console.iter().any(|o| o.contains("cannot read")),
        "{console:?}"
    );
    assert!(big.events.iter().any(|e| e.event == "terminated"));
    let mut editor = Editor::connect(&address).await;
    assert!(editor.join(&token).await.success);
    editor.event("stopped").await;

    // Handing the session over closes its endpoint: the editor hears why.
    ok(
        &c1,
        "debug.share",
        json!({"session_id": id, "hand_over_to": "c2"}),
    )
    .await;
    editor.until_closed().await;
    let said = outputs(&editor);
    assert!(
        said.iter().any(|o| o.contains("handed over to client c2")),
        "{said:?}"
    );
    assert!(editor.events.iter().any(|e| e.event == "terminated"));
    assert!(
        !std::path::Path::new(&setup_file).exists(),
        "{setup_file} is left"
    );
    let refused = fails(&c1, "debug.expose", json!({"session_id": id}), 500).await;
    assert_eq!(refused.error().unwrap().kind, "not_owner");

    // The new owner shows it. A change of hands that no tool made (the host's own,
    // through the Rust API) is seen by the editor's next request, which is refused and
    // closes the endpoint.
    let exposed = ok(&c2, "debug.expose", json!({"session_id": id})).await;
    let (address, token, _) = exposure(&exposed);
    let mut editor = Editor::connect(&address).await;
    assert!(editor.join(&token).await.success);
    let session = host.runtime().find(id.parse().unwrap()).unwrap();
    session.update_ownership(|o| o.hand_over(Owner::new("c1").unwrap()));
    let answer = editor.request("threads", json!({})).await;
    assert!(
        editor_support::refused(&answer).contains("handed over"),
        "{answer:?}"
    );
    editor.until_closed().await;
    assert!(editor.events.iter().any(|e| e.event == "terminated"));

    // The runtime's end ends the endpoint with the session.
    let exposed = ok(&c1, "debug.expose", json!({"session_id": id})).await;
    let (address, token, _) = exposure(&exposed);
    let mut editor = Editor::connect(&address).await;
    assert!(editor.join(&token).await.success);
    host.runtime().shutdown().await;
    editor.until_closed().await;
    assert!(editor.events.iter().any(|e| e.event == "terminated"));
    // A new editor finds the endpoint closed.
    if let Ok(stream) = tokio::net::TcpStream::connect(&address).await {
        drop(stream);
        let mut late = Editor::connect(&address).await;
        late.until_closed().await;
    }
}
