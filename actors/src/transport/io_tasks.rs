//! The tasks that hold a connection's stream (connecting, reading, writing), ended
//! with their transport. Left alone, a reader ends only when the peer closes: an
//! adapter reached over TCP or in-process that keeps its end open would keep the
//! socket, the frame buffer (up to `max_frame_bytes`) and an event place for as long
//! as it lives, after its session let it go.
//!
//! The transport holds the [`IoTasksOwner`]; every task is spawned through an
//! [`IoTasks`] and aborted when the owner goes (the transport's state dropped, however
//! the actor ended), or at once if it is spawned after that.

use std::future::Future;
use std::sync::{Arc, Mutex};

use tokio::task::AbortHandle;

/// Spawns a connection's tasks so that its transport can end them.
#[derive(Clone, Default)]
pub struct IoTasks {
    /// The tasks still running; `None` once the transport ended them.
    running: Arc<Mutex<Option<Vec<AbortHandle>>>>,
}

impl IoTasks {
    /// A set of tasks, and its owner, which ends them when dropped.
    pub fn new() -> (Self, IoTasksOwner) {
        let tasks = Self {
            running: Arc::new(Mutex::new(Some(Vec::new()))),
        };
        (tasks.clone(), IoTasksOwner(tasks))
    }

    /// Run `task`, ended with the others (at once, if they already were).
    pub fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) {
        let handle = tokio::spawn(task).abort_handle();
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        match running.as_mut() {
            Some(tasks) => {
                tasks.retain(|t| !t.is_finished());
                tasks.push(handle);
            }
            None => handle.abort(),
        }
    }

    fn end(&self) {
        let tasks = self
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        for task in tasks.into_iter().flatten() {
            task.abort();
        }
    }
}

/// Ends every task of its [`IoTasks`] when dropped.
pub struct IoTasksOwner(IoTasks);

impl Drop for IoTasksOwner {
    fn drop(&mut self) {
        self.0.end();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn dropping_the_owner_ends_every_task_and_any_spawned_later() {
        let (tasks, owner) = IoTasks::new();
        let (tx, mut rx) = tokio::sync::mpsc::channel::<()>(1);
        for _ in 0..3 {
            let tx = tx.clone();
            tasks.spawn(async move {
                std::future::pending::<()>().await;
                drop(tx);
            });
        }
        drop(owner);
        let late = tx.clone();
        tasks.spawn(async move {
            std::future::pending::<()>().await;
            drop(late);
        });
        drop(tx);
        // Every sender went with its aborted task: the channel closes.
        let closed = tokio::time::timeout(std::time::Duration::from_secs(10), rx.recv());
        assert_eq!(closed.await, Ok(None), "a task outlived its owner");
    }
}
