//! Adapters end with dapvisor, even when dapvisor is killed outright. A session's end
//! kills its adapter's process group (see `process.rs`), but a killed dapvisor runs no
//! code: an adapter on stdio then sees its input close and exits, while a server that
//! waits for connections (js-debug's) would run on forever, its program with it. The
//! kernel is asked to kill each adapter when dapvisor goes (`PR_SET_PDEATHSIG`).

use std::io;

use tokio::process::Command;

/// Have the kernel SIGKILL the process `command` starts when this process ends.
///
/// The signal follows the death of the thread that spawns, so adapters are spawned
/// from the runtime's own tasks (never from a short-lived thread). If this process
/// died between the fork and the request, the child ends at once.
pub fn die_with_parent(command: &mut Command) {
    let parent = std::process::id();
    // SAFETY: the closure runs in the forked child before exec and calls only
    // async-signal-safe functions (prctl, getppid, _exit).
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(io::Error::last_os_error());
            }
            if libc::getppid() as u32 != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

/// A helper run of this test binary, killed, and whether the child it started dies
/// with it: shared by the tests of each kind of child (an adapter, a `runInTerminal`
/// command).
#[cfg(test)]
pub(crate) mod test_support {
    use std::process::Stdio;
    use std::time::Duration;

    use tokio::io::{AsyncBufReadExt, BufReader};
    use tokio::process::Command;

    /// Set in the helper run of the test binary.
    pub(crate) const HELPER: &str = "DAPVISOR_PARENT_DEATH_HELPER";

    /// In the helper run only (else `false`): print `child PID` for the child just
    /// started, then wait to be killed.
    pub(crate) async fn in_helper_report_and_wait(pid: impl FnOnce() -> u32) -> bool {
        if std::env::var_os(HELPER).is_none() {
            return false;
        }
        println!("child {}", pid());
        tokio::time::sleep(Duration::from_secs(300)).await;
        true
    }

    /// Run this test binary's `helper` test as a parent, read the pid of the child it
    /// starts, kill the parent, and wait (at most 10 s) for the child to die.
    pub(crate) async fn child_dies_with_its_killed_parent(helper: &str) -> bool {
        let mut parent = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", helper, "--nocapture", "--test-threads", "1"])
            .env(HELPER, "1")
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(parent.stdout.take().unwrap()).lines();
        let child = loop {
            let line = lines
                .next_line()
                .await
                .unwrap()
                .expect("the helper prints the pid");
            // libtest may print the test's name on the same line first.
            if let Some((_, pid)) = line.split_once("child ") {
                break pid.trim().parse::<u32>().unwrap();
            }
        };
        let watched = crate::transport::pidfd::Pidfd::open(child).unwrap();
        parent.kill().await.unwrap();
        tokio::time::timeout(Duration::from_secs(10), watched.exited())
            .await
            .is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;
    use std::process::Stdio;

    /// In the helper run only: spawn `sleep` as an adapter would be, print its pid,
    /// and wait to be killed. In a normal run it does nothing.
    #[tokio::test]
    async fn helper_spawns_a_child_and_waits() {
        let mut command = Command::new("sleep");
        command.arg("300").stdout(Stdio::null());
        die_with_parent(&mut command);
        in_helper_report_and_wait(|| command.spawn().unwrap().id().unwrap()).await;
    }

    #[tokio::test]
    async fn a_child_spawned_so_dies_when_its_parent_is_killed() {
        let helper = "transport::parent_death::tests::helper_spawns_a_child_and_waits";
        assert!(child_dies_with_its_killed_parent(helper).await);
    }
}
