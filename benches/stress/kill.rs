//! Random adapter kills: a seeded generator, a background task that kills one
//! adapter at random moments, and for the fake adapter (which has no process)
//! connections that can be cut, which the runtime sees as the adapter dying.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use dapvisor::InProcessConnect;
use dapvisor::Runtime;
use tokio::sync::oneshot;
use tokio::task::{AbortHandle, JoinHandle};

use crate::support::procs;

/// Bytes each direction of a cuttable link buffers (as the fake's own stream does).
const LINK_BUFFER: usize = 64 * 1024;

/// xorshift64*: small, seeded, good enough to pick moments and victims.
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value; 0 is remapped).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A duration between `low` and `high`.
    pub fn between(&mut self, low: Duration, high: Duration) -> Duration {
        let span = (high - low).as_micros().max(1) as u64;
        low + Duration::from_micros(self.next() % span)
    }
}

/// A task that calls `kill_one` at random moments until stopped.
pub struct Killer {
    stop: oneshot::Sender<()>,
    task: JoinHandle<Vec<String>>,
}

impl Killer {
    /// Kill one victim every `low..high`; `kill_one` says whom it killed, if anyone.
    pub fn spawn(
        seed: u64,
        (low, high): (Duration, Duration),
        mut kill_one: impl FnMut(&mut Rng) -> Option<String> + Send + 'static,
    ) -> Killer {
        let (stop, mut stopped) = oneshot::channel();
        let task = tokio::spawn(async move {
            let mut rng = Rng::new(seed);
            let mut kills = Vec::new();
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(rng.between(low, high)) => {
                        kills.extend(kill_one(&mut rng));
                    }
                    _ = &mut stopped => return kills,
                }
            }
        });
        Killer { stop, task }
    }

    /// Stop killing; returns what was killed.
    pub async fn stop(self) -> Vec<String> {
        let _ = self.stop.send(());
        self.task.await.unwrap_or_default()
    }
}

/// SIGKILL the adapter of a random session of `runtime` that has one running.
pub fn kill_random_adapter(runtime: &Runtime, rng: &mut Rng) -> Option<String> {
    let live: Vec<_> = runtime
        .sessions()
        .into_iter()
        .filter_map(|s| Some((s.id(), s.adapter_pid()?)))
        .collect();
    if live.is_empty() {
        return None;
    }
    let (id, pid) = live[rng.below(live.len())];
    procs::kill(pid).then(|| format!("{id}: SIGKILL adapter pid {pid}"))
}

/// Connections to an in-process adapter, each relayed by a task that can be aborted:
/// aborting drops both ends, as if the adapter had died.
#[derive(Clone, Default)]
pub struct Cutter {
    links: Arc<Mutex<Vec<AbortHandle>>>,
}

impl Cutter {
    /// Wrap `connect` so that every connection it makes can be cut.
    pub fn wrap(&self, connect: InProcessConnect) -> InProcessConnect {
        let links = self.links.clone();
        Arc::new(move || {
            let (outer, mut relay) = tokio::io::duplex(LINK_BUFFER);
            let mut adapter = connect();
            let link = tokio::spawn(async move {
                let _ = tokio::io::copy_bidirectional(&mut relay, &mut adapter).await;
            });
            links
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(link.abort_handle());
            outer
        })
    }

    /// Cut one random connection still open.
    pub fn cut_random(&self, rng: &mut Rng) -> Option<String> {
        let mut links = self.links.lock().unwrap_or_else(|p| p.into_inner());
        links.retain(|link| !link.is_finished());
        if links.is_empty() {
            return None;
        }
        let victim = rng.below(links.len());
        let link = links.swap_remove(victim);
        link.abort();
        Some(format!("cut fake connection (task {})", link.id()))
    }
}
