//! Every process dapvisor starts (adapters, `runInTerminal` commands, adapter probes,
//! the debugpy install) starts clean: every signal at its default disposition and
//! none blocked, whatever dapvisor itself inherited.
//!
//! A process inherits the signals its parent ignores and the parent's signal mask
//! across `exec`. A non-interactive shell starts a background job (`cmd &`) with
//! SIGINT and SIGQUIT ignored, so dapvisor run that way (a CI step, `bash -c '... &
//! wait'`) would pass the ignored SIGINT to its adapters and their debuggees: debugpy's
//! graceful `terminate` interrupts the program with SIGINT, which then does nothing.
//! Handled signals are reset by `exec` itself; ignored ones and the mask are reset
//! here, between `fork` and `exec`.

use std::io;

/// The highest signal number on Linux (`NSIG - 1`, real-time signals included).
const LAST_SIGNAL: libc::c_int = 64;

/// A [`std::process::Command`] for `program` that starts clean.
pub fn std_command(program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
    use std::os::unix::process::CommandExt;
    let mut command = std::process::Command::new(program);
    // SAFETY: the hook runs in the child between fork and exec and calls only
    // async-signal-safe functions (sigprocmask, sigaction), allocating nothing.
    unsafe {
        command.pre_exec(reset_signals);
    }
    command
}

/// A [`tokio::process::Command`] for `program` that starts clean.
pub fn tokio_command(program: impl AsRef<std::ffi::OsStr>) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(program);
    // SAFETY: as in `std_command`.
    unsafe {
        command.pre_exec(reset_signals);
    }
    command
}

/// In the child before `exec`: unblock every signal, and give every ignored signal
/// back its default disposition. Only async-signal-safe calls; nothing allocates.
fn reset_signals() -> io::Result<()> {
    // SAFETY: sigemptyset, sigprocmask and sigaction are async-signal-safe; the structs
    // are plain data, zeroed then filled in by the calls.
    unsafe {
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        if libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut()) != 0 {
            return Err(io::Error::last_os_error());
        }
        for signal in 1..=LAST_SIGNAL {
            if signal == libc::SIGKILL || signal == libc::SIGSTOP {
                continue;
            }
            let mut current: libc::sigaction = std::mem::zeroed();
            // A number the C library keeps for itself answers EINVAL: not ours to touch.
            if libc::sigaction(signal, std::ptr::null(), &mut current) != 0 {
                continue;
            }
            if current.sa_sigaction == libc::SIG_IGN {
                let mut default: libc::sigaction = std::mem::zeroed();
                default.sa_sigaction = libc::SIG_DFL;
                libc::sigemptyset(&mut default.sa_mask);
                if libc::sigaction(signal, &default, std::ptr::null_mut()) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
        }
    }
    Ok(())
}
