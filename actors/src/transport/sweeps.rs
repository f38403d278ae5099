//! The process groups of this process not yet swept, counted, so that a process about
//! to exit can wait until each has been.
//!
//! A group is swept on tokio's blocking pool (it reads all of `/proc`), often after
//! the runtime's shutdown has returned: a stopped session's transport is dropped, and
//! its group swept, in the moments after. A binary that then returns from `main` ends
//! every thread, a sweep half done with them: what it had not yet killed runs on. The
//! adapter itself still goes (the kernel kills it with dapvisor, `parent_death.rs`),
//! but not a debuggee outside its group, such as the node program js-debug starts:
//! re-parented to init, it would spin on. So the command line waits here
//! ([`all_process_groups_swept`]) before it exits.
//!
//! The count is process-wide (every runtime's groups), which is what a process about
//! to exit needs; a runtime that ends while others run on should not wait on it.

use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::Notify;

/// Groups adopted and not yet swept.
static UNSWEPT: AtomicUsize = AtomicUsize::new(0);
/// Told each time a group has been swept.
static SWEPT: Notify = Notify::const_new();

/// One group not yet swept: counted while it lives, dropped once the sweep is done.
#[derive(Debug)]
pub(crate) struct Unswept(());

impl Unswept {
    /// Count one more group.
    pub(crate) fn new() -> Self {
        UNSWEPT.fetch_add(1, Ordering::SeqCst);
        Self(())
    }
}

impl Drop for Unswept {
    fn drop(&mut self) {
        UNSWEPT.fetch_sub(1, Ordering::SeqCst);
        SWEPT.notify_waiters();
    }
}

/// How many process groups of this process (adapters, `runInTerminal` commands, in
/// every runtime) have not been swept yet.
pub fn unswept_process_groups() -> usize {
    UNSWEPT.load(Ordering::SeqCst)
}

/// Resolves once every process group of this process has been swept: each adapter
/// and everything it started ended. For a process about to exit, after its runtimes
/// have shut down (a group whose session still runs is not swept until it ends).
pub async fn all_process_groups_swept() {
    loop {
        let swept = SWEPT.notified();
        tokio::pin!(swept);
        // Registered before the count is read: a sweep that ends in between still
        // wakes this wait.
        swept.as_mut().enable();
        if unswept_process_groups() == 0 {
            return;
        }
        swept.await;
    }
}
