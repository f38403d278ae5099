//! Process file descriptors (Linux 5.3+): a handle on one process that stays bound to
//! it even after its pid is reused, for signalling it and for watching it exit
//! without reaping it.
//!
//! Watching without reaping is what lets the transport sweep an adapter's process
//! group after the adapter exited: a child that is not reaped stays a zombie, and a
//! zombie keeps its pid and its process group id from being given to anyone else.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use tokio::io::unix::AsyncFd;
use tokio::io::Interest;

use crate::transport::io::ExitInfo;
use crate::transport::procfs::ProcessId;

/// A pidfd.
#[derive(Debug)]
pub struct Pidfd(OwnedFd);

impl Pidfd {
    /// A pidfd for the process that holds `pid` now.
    pub fn open(pid: u32) -> io::Result<Self> {
        // SAFETY: pidfd_open takes a pid and flags and returns a new fd or -1.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the fd was just returned to us and is owned by nobody else.
        Ok(Self(unsafe { OwnedFd::from_raw_fd(fd as i32) }))
    }

    /// Send `signal` to exactly this process (nothing, once it has been reaped).
    pub fn signal(&self, signal: i32) -> io::Result<()> {
        // SAFETY: pidfd_send_signal with a null siginfo and no flags only signals.
        let rc = unsafe {
            libc::syscall(
                libc::SYS_pidfd_send_signal,
                self.0.as_raw_fd(),
                signal,
                std::ptr::null::<libc::siginfo_t>(),
                0,
            )
        };
        if rc < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// Wait until the process (a child of ours) exits, and say how, leaving it
    /// unreaped: its pid and group id stay reserved until someone waits for it.
    pub async fn exited(self) -> ExitInfo {
        // SAFETY: an OwnedFd stays open, and the same fd, for as long as it is owned.
        let Ok(fd) = (unsafe { AsyncFd::register_with_interest(self.0, Interest::READABLE) })
        else {
            return ExitInfo::UNKNOWN;
        };
        // A pidfd polls readable once its process has exited.
        if let Ok(mut ready) = fd.readable().await {
            ready.retain_ready();
        }
        exit_info(libc::P_PIDFD, fd.get_ref().as_raw_fd() as libc::id_t)
    }
}

/// How a child exited, by `waitid(kind, id, WEXITED | WNOWAIT)`: without reaping it.
/// Blocks until it has exited.
pub fn exit_info(kind: libc::idtype_t, id: libc::id_t) -> ExitInfo {
    // SAFETY: siginfo_t is plain data; all zeroes is a valid value.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waitid writes into `info`, which lives for the call.
    let rc = unsafe { libc::waitid(kind, id, &mut info, libc::WEXITED | libc::WNOWAIT) };
    if rc != 0 {
        return ExitInfo::UNKNOWN;
    }
    // SAFETY: for a child that exited, waitid filled the SIGCHLD fields.
    let status = unsafe { info.si_status() };
    match info.si_code {
        libc::CLD_EXITED => ExitInfo {
            code: Some(status),
            signal: None,
        },
        libc::CLD_KILLED | libc::CLD_DUMPED => ExitInfo {
            code: None,
            signal: Some(status),
        },
        _ => ExitInfo::UNKNOWN,
    }
}

/// Send SIGKILL to `process` if the pid still names it. Returns whether a signal was
/// sent.
///
/// The pidfd is opened first and the start time read after: if it is the remembered
/// one, the process holding the pid now is the remembered one, and it held the pid
/// when the pidfd was opened too (a pid does not change hands while its process
/// lives), so the signal, sent through the pidfd, reaches it and nothing else. Where
/// pidfds are not available (an old kernel, a seccomp filter), the start time is
/// checked just before `kill`, which leaves a window of microseconds.
pub fn kill_if_current(process: ProcessId) -> bool {
    match Pidfd::open(process.pid) {
        Ok(pidfd) => process.is_current() && pidfd.signal(libc::SIGKILL).is_ok(),
        Err(err) if err.raw_os_error() == Some(libc::ESRCH) => false,
        Err(_) => {
            // SAFETY: kill with a positive pid only sends a signal.
            process.is_current()
                && unsafe { libc::kill(process.pid as libc::pid_t, libc::SIGKILL) } == 0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};
    use std::time::Duration;

    fn sleeper() -> std::process::Child {
        Command::new("sleep")
            .arg("300")
            .stdout(Stdio::null())
            .spawn()
            .unwrap()
    }

    #[test]
    fn a_process_with_another_start_time_is_not_signalled() {
        let mut child = sleeper();
        let real = ProcessId::of(child.id()).unwrap();
        let impostor = ProcessId {
            start: real.start + 1,
            ..real
        };
        assert!(!kill_if_current(impostor), "a reused pid is not ours");
        assert!(crate::transport::procfs::is_alive(real.pid));
        assert!(kill_if_current(real));
        let status = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(libc::SIGKILL));
    }

    #[tokio::test]
    async fn an_exit_is_seen_without_reaping_the_child() {
        let mut child = Command::new("sh").args(["-c", "exit 7"]).spawn().unwrap();
        let pidfd = Pidfd::open(child.id()).unwrap();
        let info = tokio::time::timeout(Duration::from_secs(30), pidfd.exited())
            .await
            .expect("the exit is seen");
        assert_eq!(info.code, Some(7));
        let stat = crate::transport::procfs::Stat::read(child.id()).unwrap();
        assert_eq!(stat.state, 'Z', "still a zombie, its pid still reserved");
        assert_eq!(child.wait().unwrap().code(), Some(7), "reaped only now");
    }

    #[tokio::test]
    async fn a_death_by_signal_is_reported_as_the_signal() {
        let mut child = sleeper();
        let pidfd = Pidfd::open(child.id()).unwrap();
        pidfd.signal(libc::SIGTERM).unwrap();
        let info = tokio::time::timeout(Duration::from_secs(30), pidfd.exited())
            .await
            .expect("the exit is seen");
        assert_eq!((info.code, info.signal), (None, Some(libc::SIGTERM)));
        child.wait().unwrap();
    }
}
