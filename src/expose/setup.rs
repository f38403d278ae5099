//! What a person pastes into their editor to join an exposed session: a VS Code
//! `launch.json` configuration (`debugServer` points it at the endpoint instead of
//! starting an adapter) and an nvim-dap server adapter with its configuration. Kept
//! small: the agent reads them whole.

use std::net::SocketAddr;

use serde_json::{json, Value};

use super::token::TOKEN_FIELD;

/// The VS Code debug type of the extension that knows dapvisor's adapter `adapter`
/// (its name in the registry): VS Code takes `debugServer` only in a configuration
/// whose type an installed extension registers. An adapter not listed keeps its own
/// name.
pub fn vscode_type(adapter: &str) -> &str {
    match adapter {
        "debugpy" => "debugpy",
        "lldb-dap" => "lldb-dap",
        "dlv" => "go",
        "js-debug" => "pwa-node",
        "codelldb" => "lldb",
        "gdb" => "gdb",
        "rdbg" => "rdbg",
        "java" => "java",
        other => other,
    }
}

/// The VS Code `launch.json` configuration that joins session `session` at `address`.
pub fn vscode(session: &str, adapter: &str, address: SocketAddr, token: &str) -> Value {
    json!({
        "name": format!("dapvisor {session}"),
        "type": vscode_type(adapter),
        "request": "attach",
        "debugServer": address.port(),
        TOKEN_FIELD: token,
    })
}

/// The nvim-dap Lua that joins session `session` at `address`: a server adapter and
/// a run of an attach configuration carrying the token.
pub fn nvim_dap(session: &str, address: SocketAddr, token: &str) -> String {
    format!(
        "local dap = require('dap')\n\
         dap.adapters.dapvisor = {{ type = 'server', host = '{}', port = {} }}\n\
         dap.run({{ type = 'dapvisor', request = 'attach', name = 'dapvisor {session}', \
         {TOKEN_FIELD} = '{token}' }})",
        address.ip(),
        address.port()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snippets_name_the_port_and_carry_the_token() {
        let address: SocketAddr = "127.0.0.1:41234".parse().unwrap();
        let code = vscode("s1", "debugpy", address, "abc");
        assert_eq!(
            code,
            json!({"name": "dapvisor s1", "type": "debugpy", "request": "attach",
                   "debugServer": 41234, "token": "abc"})
        );
        assert_eq!(vscode("s2", "dlv", address, "abc")["type"], "go");
        let lua = nvim_dap("s1", address, "abc");
        assert!(lua.contains("host = '127.0.0.1', port = 41234"), "{lua}");
        assert!(lua.contains("token = 'abc'"), "{lua}");
    }
}
