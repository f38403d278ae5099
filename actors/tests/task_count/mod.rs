//! How many tokio tasks are alive, for tests that show nothing outlives what it
//! served: counted once every other task is idle, under paused time.

use std::time::Duration;

/// Tokio tasks alive now, once every other task is idle (paused time: the second
/// passes at once when nothing else can run).
pub async fn settled_tasks() -> usize {
    tokio::time::sleep(Duration::from_secs(1)).await;
    tokio::runtime::Handle::current()
        .metrics()
        .num_alive_tasks()
}
