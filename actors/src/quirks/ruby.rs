//! rdbg, the `debug` gem's debugger (Ruby; 1.4.0 ships with Debian 12's Ruby 3.1).
//! - rdbg is no adapter of its own: `rdbg --open` runs the program with a DAP server
//!   inside it. A launch therefore puts the program, its arguments and its environment
//!   on the adapter's command line ([`Dialect::adapter_args`]); the `launch` request
//!   itself only says "go". The process's exit is the program's: rdbg sends neither
//!   `exited` nor `terminated`, so the core reads the exit status of the process.
//! - `--port 0` lets the program's DAP server pick a free port; rdbg names it on
//!   stderr, not stdout (`DEBUGGER: Debugger can attach via TCP/IP (127.0.0.1:PORT)`).
//! - rdbg accepts a client as soon as it listens, but one that comes before the
//!   program has reached its first stop is failed (`ReaderThreadError: uninitialized
//!   constant`, and the program runs on alone): it is connected to only once rdbg has
//!   also printed `DEBUGGER: wait for debugger connection...`, in either order.
//! - The program writes to the pipes it inherited; the transport forwards them as
//!   `output` events, with rdbg's own `DEBUGGER: ` lines among the stderr.
//! - rdbg has no filter for uncaught exceptions (`any` stops at every raise, rescued or
//!   not; `RuntimeError` at every RuntimeError). Its postmortem mode stops where an
//!   exception nothing rescued was raised, as the program ends: it is turned on with
//!   the debug command `config set postmortem true` at the first stop. `exit` raises
//!   SystemExit, which it would stop at too: a second command adds an `at_exit` hook,
//!   run before rdbg's, that turns postmortem off when the program is exiting. The
//!   stop comes as a `step` stop, with no exception named; `continue` then ends the
//!   program.
//! - rdbg 1.4 raises on a request it does not know, on the thread that reads the
//!   socket, which ends the program: the requests it serves are listed in its
//!   definition, and any other is refused before it is sent.
//! - `setBreakpoints` only adds: rdbg 1.4 keeps each line it was ever sent, with the
//!   first condition given there, whatever later lists say. A change that drops or
//!   changes a breakpoint is refused rather than left to stop where it was.
//! - It claims `supportsFunctionBreakpoints`, but answers `setFunctionBreakpoints`
//!   and sets none; and `supportsStepBack`, which needs the `record on` debug command,
//!   which nothing sent over DAP can give; and `supportsTerminateRequest`, whose
//!   `exit` runs on the thread that reads the socket and ends that thread alone,
//!   leaving the program stopped with no one to talk to. These claims are dropped:
//!   the first two requests are refused, and a terminate is a `disconnect` with
//!   `terminateDebuggee`, which rdbg serves (`kill!`).
//! - `evaluate` needs a `frameId` from a stack trace it gave: with none it answers
//!   "can't evaluate" (the MCP tool passes the top frame).
//! - An attach to a port is to a program started with `rdbg --open --port N`, whose
//!   server speaks DAP itself. rdbg 1.4 cannot attach to a process by pid (its server
//!   is loaded as the program starts): such an attach is refused, saying so.

use super::dialect::{Dialect, LaunchDraft};
use super::Quirks;
use crate::launch::LaunchSpec;

pub(super) const QUIRKS: Quirks = Quirks {
    debuggee_output_on_adapter_pipes: true,
    listen_banner_on_stderr: true,
    listen_ready_line: Some("wait for debugger connection"),
    adapter_process_is_the_program: true,
    breakpoints_are_only_added: true,
    unhonoured_capabilities: &[
        "supportsFunctionBreakpoints",
        "supportsStepBack",
        "supportsTerminateRequest",
    ],
    attach_port_speaks_dap: true,
    no_pid_attach: Some(
        "rdbg 1.4 serves only a program started under it (its DAP server is loaded as \
         the program starts). Start the program with `rdbg --open --host 127.0.0.1 \
         --port N PROGRAM.rb` (Debian's rdbg is `ruby $(ruby -e 'print \
         Gem.bin_path(\"debug\", \"rdbg\")')`) and attach by `port` N, or launch it \
         under the debugger instead",
    ),
    dialect: Dialect {
        launch,
        adapter_args,
        ..Dialect::PLAIN
    },
    ..Quirks::NONE
};

/// The program is on the command line; the `launch` request carries nothing rdbg reads,
/// but the program and its folder are kept in it for the session's report.
fn launch(draft: &mut LaunchDraft<'_>) {
    // rdbg reads no environment from the request: it is set on the command line.
    draft.env = None;
}

/// Ruby run with the program's environment added, then rdbg's `exe/rdbg` (the first of
/// `args`, as resolved) with the definition's options, then `--`, the program and its
/// arguments. rdbg `exec`s Ruby on the program, which keeps the environment.
fn adapter_args(args: &mut Vec<String>, spec: &LaunchSpec) {
    let mut line = Vec::new();
    if !spec.env.is_empty() {
        // `ruby -e SCRIPT N K1 V1 ... RDBG ...`: set N/2 variables, then run rdbg with
        // what is left as its arguments.
        line.push("-e".to_string());
        line.push(SET_ENV_THEN_RDBG.to_string());
        line.push((spec.env.len() * 2).to_string());
        for (key, value) in &spec.env {
            line.push(key.clone());
            line.push(value.clone());
        }
    }
    line.append(args);
    line.push("--".into());
    line.push(spec.program.display().to_string());
    line.extend(spec.args.iter().cloned());
    *args = line;
}

/// Set the environment named in the first arguments, then run rdbg (the next one) as
/// if it had been started with the rest.
const SET_ENV_THEN_RDBG: &str =
    "ENV.update(ARGV.shift(Integer(ARGV.shift)).each_slice(2).to_h); load(ARGV.shift)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_program_its_arguments_and_environment_go_on_the_command_line() {
        let mut spec = LaunchSpec::new("/srv/app/main.rb");
        spec.args = vec!["--fast".into()];
        let mut args = vec!["/gems/rdbg".to_string(), "--open".into()];
        adapter_args(&mut args, &spec);
        assert_eq!(
            args,
            ["/gems/rdbg", "--open", "--", "/srv/app/main.rb", "--fast"]
        );
        spec.env.insert("MODE".into(), "a b".into());
        let mut args = vec!["/gems/rdbg".to_string()];
        adapter_args(&mut args, &spec);
        assert_eq!(
            args,
            [
                "-e",
                SET_ENV_THEN_RDBG,
                "2",
                "MODE",
                "a b",
                "/gems/rdbg",
                "--",
                "/srv/app/main.rb",
                "--fast"
            ]
        );
    }
}
