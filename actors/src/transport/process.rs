//! Adapter processes, ended with everything they started, and never a stranger.
//!
//! The adapter is spawned as the leader of a new process group, so a debuggee that
//! stays in the group is ended with one `killpg`. Some leave it: debugpy's launcher
//! starts the debuggee with `setpgrp`, and any program may call `setsid`. Those are
//! found as descendants through `/proc`, but only while the adapter lives: once it
//! exits, its orphans are re-parented to init and nothing links them to it any more.
//! So a [`ProcessGroup`] also *remembers* the adapter's descendants, each as a
//! [`ProcessId`] (pid and start time), whenever the transport says it is a good
//! moment ([`ProcessGroup::note_descendants`]: when the adapter reports the
//! debuggee's process, answers a launch or attach, or first stops); it ends those
//! too, if their pid still names them.
//!
//! No signal ever reaches a process that merely reused a pid:
//!
//! - the leader is held unreaped (a `Child` nobody waits on) until the group has been
//!   swept, so its pid, which is also the group id, cannot be given to anyone else
//!   meanwhile: its exit is watched through a pidfd without reaping (`pidfd.rs`), and
//!   the sweep reaps it last;
//! - a remembered descendant is signalled through a pidfd, after its start time was
//!   checked ([`kill_if_current`]).
//!
//! Remembering still leaves a window: a process that leaves the group and is
//! re-parented before any moment came (its adapter killed right after starting it, or
//! before the scan of that moment ran on a loaded machine). So every process we start
//! carries a tag in its environment ([`TREE_ENV`], one value per group), which
//! everything it starts inherits; the sweep also ends every process that carries it.
//! Only a process that clears its own environment and leaves the tree in such a
//! window escapes. A process caught in the middle of an `execve` shows no environment
//! yet; the sweep reads it again until it does (`tagged.rs`).
//!
//! The sweep runs once, on [`ProcessGroup::kill`] or on `Drop`, so cleanup holds
//! even where ractor skips `post_stop` (a kill or a panic).
//!
//! Noting and sweeping read all of `/proc`: blocking file reads, kept off the async
//! threads. The transport runs them on tokio's blocking pool ([`note_all`],
//! [`kill_all`]); a group dropped on an async thread sweeps from there too. What it cannot reach: a
//! process that leaves the group and is started *and* re-parented between two
//! moments the tree was noted (a debuggee that daemonizes itself after the last one).

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use tokio::process::Child;

use crate::limits::MID_EXEC_WAIT;
use crate::transport::pidfd::kill_if_current;
pub use crate::transport::procfs::ProcessId;
use crate::transport::procfs::{scan, trees};
use crate::transport::sweeps::Unswept;
use crate::transport::tagged::{carrying, carrying_once_shown};

/// The environment variable that marks every process of a group, and all they start.
pub const TREE_ENV: &str = "DAPVISOR_PROCESS_TREE";

/// A value for [`TREE_ENV`] that no other group of any dapvisor on this machine has:
/// this process's pid, who the processes are for (a session's id, when they are a
/// session's), and a count: `4242-s3-17`. A process that left the tree (a daemon)
/// still tells whose it is ([`tag_owner`]).
pub fn new_tree_tag(owner: Option<&str>) -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let count = NEXT.fetch_add(1, Ordering::Relaxed);
    match owner {
        Some(session) => format!("{}-{session}-{count}", std::process::id()),
        None => format!("{}-{count}", std::process::id()),
    }
}

/// Who the processes a [`TREE_ENV`] value `tag` marks are for, when this process made
/// the tag for someone; `None` for another dapvisor's tag, or one made for no one.
pub fn tag_owner(tag: &str) -> Option<&str> {
    let mut parts = tag.split('-');
    let (pid, owner) = (parts.next()?, parts.next()?);
    parts.next()?;
    (pid == std::process::id().to_string()).then_some(owner)
}

/// A process we started (the adapter, or a `runInTerminal` command), held unreaped
/// until it and everything it started have been ended.
#[derive(Debug)]
pub struct ProcessGroup {
    /// The leader's pid: its own for as long as it is held unreaped.
    leader: u32,
    /// Whether it leads its own process group (else it joined the adapter's).
    leads_group: bool,
    /// The leader, not reaped until the sweep.
    child: Mutex<Option<Child>>,
    /// Descendants seen so far; bounded by the processes alive, as entries that no
    /// longer name their process are dropped at each noting.
    remembered: Mutex<HashSet<ProcessId>>,
    /// The [`TREE_ENV`] value it was started with, if any.
    tag: Option<String>,
    swept: AtomicBool,
    /// Sweep in `Drop` itself, on whatever thread (this is the blocking pool's own
    /// copy, or there is no runtime to hand the sweep to).
    sweeps_in_drop: bool,
    /// Counts it among the groups not yet swept (`sweeps.rs`) until the sweep is done.
    unswept: Mutex<Option<Unswept>>,
    /// Where the leader's pid is named to the session's handles: emptied before the
    /// leader is reaped, so no handle names a pid the kernel may give another process.
    pid_slot: Option<Arc<AtomicU32>>,
}

impl ProcessGroup {
    /// Take charge of `child`, which has not been waited on. `leads_group` says
    /// whether it was spawned as the leader of a new process group. `None` if it has
    /// already been reaped.
    pub fn adopt(child: Child, leads_group: bool) -> Option<Self> {
        let leader = child.id()?;
        Some(Self {
            leader,
            leads_group,
            child: Mutex::new(Some(child)),
            remembered: Mutex::default(),
            tag: None,
            swept: AtomicBool::new(false),
            sweeps_in_drop: false,
            unswept: Mutex::new(Some(Unswept::new())),
            pid_slot: None,
        })
    }

    /// The leader's pid is named in `slot` (the session's handles read it): it is
    /// emptied before the leader is reaped.
    pub fn named_in(mut self, slot: Option<Arc<AtomicU32>>) -> Self {
        self.pid_slot = slot;
        self
    }

    /// It was started with `TREE_ENV` set to `tag`: the sweep ends every process
    /// that carries it.
    pub fn tagged(mut self, tag: String) -> Self {
        self.tag = Some(tag);
        self
    }

    /// The leader's pid (also the group id, when it leads one).
    pub fn pid(&self) -> u32 {
        self.leader
    }

    #[cfg(test)]
    /// The descendants remembered so far.
    pub fn remembered(&self) -> Vec<ProcessId> {
        lock(&self.remembered).iter().copied().collect()
    }

    /// Remember every process now under the leader or under a process remembered
    /// before (one pass over `/proc`); forget those that are gone.
    pub fn note_descendants(&self) {
        if self.swept.load(Ordering::SeqCst) {
            return;
        }
        let tree = self.tree();
        *lock(&self.remembered) = tree.into_iter().collect();
    }

    /// Every process under the leader or a remembered one, now, the leader aside.
    /// Called only while the leader is held unreaped, so its pid is its own.
    fn tree(&self) -> Vec<ProcessId> {
        self.tree_and_unread().0
    }

    /// [`Self::tree`], and the processes whose tag could not be read yet (caught in
    /// the middle of an `execve`: `tagged.rs`).
    fn tree_and_unread(&self) -> (Vec<ProcessId>, Vec<ProcessId>) {
        let stats = scan();
        let mut roots: Vec<ProcessId> = lock(&self.remembered).iter().copied().collect();
        roots.extend(stats.iter().find(|s| s.pid == self.leader).map(|s| s.id()));
        let mut unread = Vec::new();
        if let Some(tag) = &self.tag {
            let reading = carrying(&stats, TREE_ENV, tag);
            roots.extend(reading.found);
            unread = reading.unread;
        }
        let tree = trees(&stats, &roots)
            .into_iter()
            .filter(|p| p.pid != self.leader)
            .collect();
        (tree, unread)
    }

    /// Send SIGKILL to the group, to every descendant (live or remembered) whose pid
    /// still names it, and to the leader; then reap the leader. Only the first call
    /// acts.
    pub fn kill(&self) {
        if self.swept.swap(true, Ordering::SeqCst) {
            return;
        }
        let child = lock(&self.child).take();
        // Noted before any signal, so that nothing killed first re-parents the rest.
        let (targets, unread) = self.tree_and_unread();
        if self.leads_group && child.is_some() {
            // SAFETY: killpg only sends a signal. The group id is the unreaped
            // leader's pid, so it is still this group's.
            unsafe {
                libc::killpg(self.leader as libc::pid_t, libc::SIGKILL);
            }
        }
        for process in targets {
            kill_if_current(process);
        }
        // One of ours caught mid-`execve` whose parent died: its tag shows only once
        // its new program starts.
        if let (Some(tag), false) = (&self.tag, unread.is_empty()) {
            for process in carrying_once_shown(unread, TREE_ENV, tag, MID_EXEC_WAIT) {
                kill_if_current(process);
            }
        }
        if let Some(mut child) = child {
            // tokio signals only a child it has not reaped.
            let _ = child.start_kill();
            if let Some(slot) = &self.pid_slot {
                // Only if it still names this leader (a restart may name another).
                let _ = slot.compare_exchange(self.leader, 0, Ordering::SeqCst, Ordering::SeqCst);
            }
            reap(child);
        }
        // Every signal is sent: counted as swept.
        drop(lock(&self.unswept).take());
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        if self.sweeps_in_drop || self.swept.load(Ordering::SeqCst) {
            return self.kill();
        }
        // On an async thread (the transport's state dropped by a kill): hand the
        // sweep to the blocking pool. A runtime shutting down may drop the task
        // unrun; the copy then sweeps in its own `Drop`, where it is.
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                let copy = self.hand_over();
                runtime.spawn_blocking(move || copy.kill());
            }
            Err(_) => self.kill(),
        }
    }
}

impl ProcessGroup {
    /// A copy that takes over the sweep (and sweeps in its own `Drop`); this one is
    /// left swept.
    fn hand_over(&mut self) -> ProcessGroup {
        self.swept.store(true, Ordering::SeqCst);
        ProcessGroup {
            leader: self.leader,
            leads_group: self.leads_group,
            child: Mutex::new(lock(&self.child).take()),
            remembered: Mutex::new(std::mem::take(&mut *lock(&self.remembered))),
            tag: self.tag.take(),
            swept: AtomicBool::new(false),
            sweeps_in_drop: true,
            unswept: Mutex::new(lock(&self.unswept).take()),
            pid_slot: self.pid_slot.take(),
        }
    }
}

/// Note the descendants of each of `groups` ([`ProcessGroup::note_descendants`]) on
/// tokio's blocking pool, as `/proc` is read; at once, where there is no runtime.
pub fn note_all(groups: Vec<Arc<ProcessGroup>>) {
    off_the_async_threads(move || groups.iter().for_each(|g| g.note_descendants()));
}

/// Sweep each of `groups` ([`ProcessGroup::kill`]) on tokio's blocking pool, then
/// call `then`; at once, where there is no runtime.
pub fn kill_all(groups: Vec<Arc<ProcessGroup>>, then: impl FnOnce() + Send + 'static) {
    off_the_async_threads(move || {
        groups.iter().for_each(|g| g.kill());
        then();
    });
}

fn off_the_async_threads(work: impl FnOnce() + Send + 'static) {
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) => drop(runtime.spawn_blocking(work)),
        Err(_) => work(),
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Reap a child that was just sent SIGKILL: at once if it is gone, else in a task;
/// outside a runtime, tokio's orphan queue reaps it once dropped.
fn reap(mut child: Child) {
    if let Ok(None) = child.try_wait() {
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = child.wait().await;
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::procfs::{is_alive, parent_of, Stat};

    #[test]
    fn a_tag_names_the_session_of_this_process_only() {
        let tag = new_tree_tag(Some("s3"));
        assert!(
            tag.starts_with(&format!("{}-s3-", std::process::id())),
            "{tag}"
        );
        assert_eq!(tag_owner(&tag), Some("s3"));
        assert_eq!(tag_owner(&new_tree_tag(None)), None);
        let elsewhere = format!("{}-s3-1", std::process::id() + 1);
        assert_eq!(tag_owner(&elsewhere), None, "another dapvisor's session");
        assert_eq!(tag_owner("garbage"), None);
    }

    use std::process::Stdio;
    use std::time::Duration;
    use tokio::io::{AsyncBufReadExt, BufReader};
    use tokio::process::Command;

    /// How long a killed process may take to go: the kernel delivers SIGKILL at once,
    /// but a loaded machine may take a while to run the dying process.
    const GONE_WAIT: Duration = Duration::from_secs(10);

    /// Wait (bounded) until `pid` no longer runs, on its pidfd, which polls readable
    /// once the process has exited (any process, not only a child of ours).
    async fn gone(pid: u32) -> bool {
        let Ok(pidfd) = crate::transport::pidfd::Pidfd::open(pid) else {
            return !is_alive(pid); // already reaped, or never there
        };
        tokio::time::timeout(GONE_WAIT, pidfd.exited())
            .await
            .is_ok()
            && !is_alive(pid)
    }

    /// Wait (bounded) until `pid` has been reaped. The reaping is done by a task of
    /// the group's after the process exits, and says so to nobody, so this looks
    /// again every 10 ms: the one poll in these tests, as no event exists to wait on.
    async fn reaped(pid: u32) -> bool {
        let poll = async {
            while Stat::read(pid).is_some() {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        tokio::time::timeout(GONE_WAIT, poll).await.is_ok()
    }

    /// `sh -c script` as the leader of a new group, printing pids on stdout.
    fn leader(
        script: &str,
    ) -> (
        Child,
        tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
    ) {
        let mut child = Command::new("sh")
            .args(["-c", script])
            .stdout(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        (child, lines)
    }

    async fn next_pid(lines: &mut tokio::io::Lines<BufReader<tokio::process::ChildStdout>>) -> u32 {
        let line = lines.next_line().await.unwrap().expect("a pid");
        line.trim().parse().unwrap()
    }

    #[tokio::test]
    async fn killing_the_group_ends_the_leader_and_its_grandchildren() {
        // A shell with a child in the group and a grandchild under it.
        let (child, mut lines) = leader("sh -c 'sleep 300 & echo $!; wait' & wait");
        let grandchild = next_pid(&mut lines).await;
        let group = ProcessGroup::adopt(child, true).unwrap();
        let leader = group.pid();
        drop(group);
        assert!(gone(grandchild).await, "grandchild {grandchild} survived");
        assert!(reaped(leader).await, "the leader is reaped");
    }

    /// Issue 27, item 11: the session's handles named the adapter's pid from its
    /// reaping until the session heard of it; the name goes first.
    #[tokio::test]
    async fn the_leaders_pid_is_no_longer_named_once_it_is_reaped() {
        let (child, _lines) = leader("exec sleep 300");
        let pid = child.id().unwrap();
        let slot = Arc::new(AtomicU32::new(pid));
        let group = ProcessGroup::adopt(child, true)
            .unwrap()
            .named_in(Some(slot.clone()));
        group.kill();
        assert_eq!(slot.load(Ordering::SeqCst), 0, "still named");
        assert!(reaped(pid).await, "reaped");

        // A slot that names another adapter by now (a restart's) is left alone.
        let (child, _lines) = leader("exec sleep 300");
        let slot = Arc::new(AtomicU32::new(4_000_000));
        ProcessGroup::adopt(child, true)
            .unwrap()
            .named_in(Some(slot.clone()))
            .kill();
        assert_eq!(slot.load(Ordering::SeqCst), 4_000_000);
    }

    #[tokio::test]
    async fn a_descendant_that_left_the_group_is_ended_after_the_leader_exited() {
        // The pid is printed from inside the new session, so it has left the group.
        let script = "setsid sh -c 'echo $$; exec sleep 300' & exec sleep 300";
        let (child, mut lines) = leader(script);
        let detached = next_pid(&mut lines).await;
        let group = ProcessGroup::adopt(child, true).unwrap();
        let leader = group.pid();
        assert_eq!(
            Stat::read(detached).unwrap().pgrp,
            detached,
            "left the group"
        );
        group.note_descendants();
        assert!(group.remembered().iter().any(|p| p.pid == detached));

        // The leader exits; its orphan goes to init, out of reach of a tree walk.
        let pidfd = crate::transport::pidfd::Pidfd::open(leader).unwrap();
        pidfd.signal(libc::SIGTERM).unwrap();
        pidfd.exited().await;
        assert_eq!(Stat::read(leader).unwrap().state, 'Z', "held unreaped");
        assert_ne!(parent_of(detached), Some(leader), "re-parented");
        assert!(is_alive(detached), "nothing ended it yet");

        group.kill();
        assert!(
            gone(detached).await,
            "the remembered process {detached} survived"
        );
        assert!(Stat::read(leader).is_none(), "the leader is reaped");
    }
}
