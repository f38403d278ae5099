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

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Stdio;
    use std::time::Duration;
    use tokio::io::{AsyncBufReadExt, BufReader};

    /// Set in the helper run of this test binary (see below).
    const HELPER: &str = "DAPVISOR_PARENT_DEATH_HELPER";

    /// In the helper run only: spawn `sleep` as an adapter would be, print its pid,
    /// and wait to be killed. In a normal run it does nothing.
    #[tokio::test]
    async fn helper_spawns_a_child_and_waits() {
        if std::env::var_os(HELPER).is_none() {
            return;
        }
        let mut command = Command::new("sleep");
        command.arg("300").stdout(Stdio::null());
        die_with_parent(&mut command);
        let child = command.spawn().unwrap();
        println!("child {}", child.id().unwrap());
        tokio::time::sleep(Duration::from_secs(300)).await;
    }

    #[tokio::test]
    async fn a_child_spawned_so_dies_when_its_parent_is_killed() {
        // The parent: this test binary again, running only the helper above.
        let mut parent = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "transport::parent_death::tests::helper_spawns_a_child_and_waits",
            ])
            .args(["--nocapture", "--test-threads", "1"])
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
            .expect("the child dies with its parent");
    }
}
