//! A broadcast hub that never loses lifecycle events.
//!
//! ractor's `OutputPort` (a tokio broadcast of capacity 10) silently drops events
//! for slow subscribers, which would lose `stopped` or `terminated`. Here every
//! subscriber owns a queue: events that say they are [`Lossy`] (bulk: output,
//! modules, progress, ...) are bounded per subscriber, all kinds together, and once
//! over the bound replaced by a [`Received::Lagged`] count; every other event is
//! queued, in order. A subscriber that lets more than a hub's `max_waiting` items pile
//! up unread (it has stopped reading, while an adapter floods thread or breakpoint
//! events) is cut off: it gets what it holds, then [`Received::CutOff`], then the end,
//! so the hub's memory stays bounded and the subscriber knows what happened.
//!
//! Publishing takes the hub's lock for the whole fan-out, so all subscribers see
//! the same total order even when many threads publish at once.

use std::collections::VecDeque;
use std::fmt;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::task::{Context, Poll, Waker};

use futures::Stream;

#[cfg(any(test, feature = "testing"))]
use crate::limits::DEFAULT_SUBSCRIBER_MAX_WAITING;

/// Says whether an event may be dropped for a subscriber that falls behind.
pub trait Lossy {
    /// True for high-volume events (output, modules, progress, ...) that a slow
    /// subscriber may miss; false for events every subscriber must receive.
    fn is_lossy(&self) -> bool;
}

/// One item taken from an [`EventStream`].
#[derive(Debug, PartialEq)]
pub enum Received<E> {
    /// An event, shared with every other subscriber.
    Event(Arc<E>),
    /// `missed` lossy events were dropped for this subscriber right here, between
    /// the items before and after this one.
    Lagged {
        /// How many lossy events were dropped.
        missed: u64,
    },
    /// This subscriber let `waiting` items pile up unread and was dropped by the hub
    /// here: nothing more comes after this. Subscribe again (and read the state from a
    /// snapshot) to carry on.
    CutOff {
        /// How many items were waiting when it was cut off.
        waiting: usize,
    },
}

impl<E> Clone for Received<E> {
    fn clone(&self) -> Self {
        match self {
            Received::Event(event) => Received::Event(Arc::clone(event)),
            Received::Lagged { missed } => Received::Lagged { missed: *missed },
            Received::CutOff { waiting } => Received::CutOff { waiting: *waiting },
        }
    }
}

/// Why [`EventStream::try_recv`] returned nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TryRecvError {
    /// Nothing is waiting now; more may come.
    #[error("no event is waiting")]
    Empty,
    /// The hub is closed and everything queued has been taken.
    #[error("the event hub is closed")]
    Closed,
}

/// Locks a mutex, ignoring poisoning: the guarded data stays consistent because
/// no code path panics halfway through an update.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// One queued item; `lossy` is remembered so the stream needs no `Lossy` bound.
enum Entry<E> {
    Event { event: Arc<E>, lossy: bool },
    Lagged(u64),
    CutOff(usize),
}

/// A subscriber's queue, shared by its stream (strong) and the hub (weak).
struct Queue<E> {
    state: Mutex<QueueState<E>>,
}

struct QueueState<E> {
    entries: VecDeque<Entry<E>>,
    /// Lossy events now in `entries`, compared with the hub's backlog bound.
    lossy_waiting: usize,
    closed: bool,
    /// The task parked in `poll_recv`, if any.
    waker: Option<Waker>,
}

/// Queues larger than this give their memory back once drained, so one burst
/// does not pin a big buffer for the subscriber's lifetime.
const SHRINK_ABOVE: usize = 1024;

impl<E> Queue<E> {
    fn new(closed: bool) -> Self {
        Queue {
            state: Mutex::new(QueueState {
                entries: VecDeque::new(),
                lossy_waiting: 0,
                closed,
                waker: None,
            }),
        }
    }

    /// Queue `event`; false once this subscriber is cut off (or closed), so the hub
    /// can forget it.
    fn push(&self, event: &Arc<E>, lossy: bool, limits: Limits) -> bool {
        let (waker, keep) = {
            let mut state = lock(&self.state);
            if state.closed {
                return false;
            }
            let waiting = state.entries.len();
            let keep = if waiting >= limits.max_waiting {
                state.entries.push_back(Entry::CutOff(waiting));
                state.closed = true;
                tracing::warn!(waiting, "an event subscriber stopped reading; cut off");
                false
            } else if lossy && state.lossy_waiting >= limits.lossy_backlog {
                // Over the bound: count the drop where the event would have gone.
                match state.entries.back_mut() {
                    Some(Entry::Lagged(missed)) => *missed += 1,
                    _ => state.entries.push_back(Entry::Lagged(1)),
                }
                true
            } else {
                if lossy {
                    state.lossy_waiting += 1;
                }
                let event = Arc::clone(event);
                state.entries.push_back(Entry::Event { event, lossy });
                true
            };
            (state.waker.take(), keep)
        };
        // Wake outside the queue lock so the woken task never contends on it.
        if let Some(waker) = waker {
            waker.wake();
        }
        keep
    }

    fn close(&self) {
        let waker = {
            let mut state = lock(&self.state);
            state.closed = true;
            state.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

/// How much a subscriber may have waiting.
#[derive(Debug, Clone, Copy)]
struct Limits {
    /// Lossy events waiting before newer ones are dropped (counted).
    lossy_backlog: usize,
    /// Items of any kind waiting before the subscriber is cut off.
    max_waiting: usize,
}

/// The hub's shared state; dropping the last hub clone drops this and closes
/// every stream.
struct Core<E> {
    limits: Limits,
    subscribers: Mutex<Subscribers<E>>,
}

struct Subscribers<E> {
    queues: Vec<Weak<Queue<E>>>,
    closed: bool,
}

impl<E> Core<E> {
    fn close(&self) {
        let mut subscribers = lock(&self.subscribers);
        subscribers.closed = true;
        for queue in subscribers.queues.drain(..) {
            if let Some(queue) = queue.upgrade() {
                queue.close();
            }
        }
    }
}

impl<E> Drop for Core<E> {
    fn drop(&mut self) {
        self.close();
    }
}

/// A broadcast hub: every event published reaches every subscriber, in the
/// same order, except lossy events a slow subscriber had no room for.
///
/// Cheap to clone; all clones share the subscribers. Dropping every clone
/// closes the streams, as [`EventHub::close`] does.
pub struct EventHub<E> {
    core: Arc<Core<E>>,
}

impl<E> Clone for EventHub<E> {
    fn clone(&self) -> Self {
        EventHub {
            core: Arc::clone(&self.core),
        }
    }
}

impl<E> fmt::Debug for EventHub<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let subscribers = lock(&self.core.subscribers);
        f.debug_struct("EventHub")
            .field("limits", &self.core.limits)
            .field("subscribers", &subscribers.queues.len())
            .field("closed", &subscribers.closed)
            .finish()
    }
}

impl<E: Lossy + Send + Sync + 'static> EventHub<E> {
    #[cfg(any(test, feature = "testing"))]
    /// A hub where each subscriber may have up to `lossy_backlog` lossy events
    /// waiting before newer ones are dropped for it (0 drops every lossy event,
    /// counting each). Lifecycle events are not dropped; a subscriber with more than
    /// [`DEFAULT_SUBSCRIBER_MAX_WAITING`] items unread is cut off (see the module docs).
    pub fn new(lossy_backlog: usize) -> Self {
        Self::with_max_waiting(lossy_backlog, DEFAULT_SUBSCRIBER_MAX_WAITING)
    }

    /// [`EventHub::new`], cutting off a subscriber once `max_waiting` items (of any
    /// kind) wait unread for it.
    pub fn with_max_waiting(lossy_backlog: usize, max_waiting: usize) -> Self {
        EventHub {
            core: Arc::new(Core {
                limits: Limits {
                    lossy_backlog,
                    max_waiting,
                },
                subscribers: Mutex::new(Subscribers {
                    queues: Vec::new(),
                    closed: false,
                }),
            }),
        }
    }

    /// Sends `event` to every subscriber. Never blocks on a subscriber and never
    /// awaits, so it is safe inside actor handlers. Ignored once closed.
    pub fn publish(&self, event: E) {
        self.publish_arc(Arc::new(event));
    }

    /// [`EventHub::publish`] for an event already shared.
    pub fn publish_arc(&self, event: Arc<E>) {
        let lossy = event.is_lossy();
        let limits = self.core.limits;
        // Holding the hub lock across the fan-out gives every subscriber the same
        // order; pruning in the same pass costs nothing extra.
        let mut subscribers = lock(&self.core.subscribers);
        subscribers.queues.retain(|queue| match queue.upgrade() {
            Some(queue) => queue.push(&event, lossy, limits),
            None => false,
        });
    }

    /// A new stream that receives every event published from now on. After
    /// [`EventHub::close`] the stream is already closed.
    pub fn subscribe(&self) -> EventStream<E> {
        let mut subscribers = lock(&self.core.subscribers);
        let queue = Arc::new(Queue::new(subscribers.closed));
        if !subscribers.closed {
            subscribers.queues.retain(|queue| queue.strong_count() > 0);
            subscribers.queues.push(Arc::downgrade(&queue));
        }
        EventStream { queue }
    }

    #[cfg(any(test, feature = "testing"))]
    /// How many streams are still alive (dropped ones are pruned here).
    pub fn subscriber_count(&self) -> usize {
        let mut subscribers = lock(&self.core.subscribers);
        subscribers.queues.retain(|queue| queue.strong_count() > 0);
        subscribers.queues.len()
    }

    /// Closes the hub: each stream yields what it already holds, then `None`.
    /// Later publishes are ignored and later subscribers get a closed stream.
    pub fn close(&self) {
        self.core.close();
    }

    #[cfg(any(test, feature = "testing"))]
    /// Whether [`EventHub::close`] has been called.
    pub fn is_closed(&self) -> bool {
        lock(&self.core.subscribers).closed
    }
}

/// One subscriber's view of a hub: every event published after it subscribed,
/// in order, with [`Received::Lagged`] where lossy events were dropped for it.
pub struct EventStream<E> {
    queue: Arc<Queue<E>>,
}

impl<E> fmt::Debug for EventStream<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = lock(&self.queue.state);
        f.debug_struct("EventStream")
            .field("waiting", &state.entries.len())
            .field("closed", &state.closed)
            .finish()
    }
}

impl<E> EventStream<E> {
    /// The next item, waiting for one if needed; `None` once the hub is closed
    /// (or every hub clone dropped) and the queue is drained. Cancel-safe.
    pub async fn recv(&mut self) -> Option<Received<E>> {
        futures::future::poll_fn(|cx| self.poll_recv(cx)).await
    }

    /// The next item if one is waiting now.
    pub fn try_recv(&mut self) -> Result<Received<E>, TryRecvError> {
        let mut state = lock(&self.queue.state);
        match Self::pop(&mut state) {
            Some(item) => Ok(item),
            None if state.closed => Err(TryRecvError::Closed),
            None => Err(TryRecvError::Empty),
        }
    }

    /// Polls for the next item, registering `cx`'s waker when none is waiting.
    pub fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Option<Received<E>>> {
        let mut state = lock(&self.queue.state);
        if let Some(item) = Self::pop(&mut state) {
            return Poll::Ready(Some(item));
        }
        if state.closed {
            return Poll::Ready(None);
        }
        match &mut state.waker {
            Some(waker) if waker.will_wake(cx.waker()) => {}
            slot => *slot = Some(cx.waker().clone()),
        }
        Poll::Pending
    }

    fn pop(state: &mut QueueState<E>) -> Option<Received<E>> {
        let item = match state.entries.pop_front()? {
            Entry::Event { event, lossy } => {
                if lossy {
                    state.lossy_waiting -= 1;
                }
                Received::Event(event)
            }
            Entry::Lagged(missed) => Received::Lagged { missed },
            Entry::CutOff(waiting) => Received::CutOff { waiting },
        };
        if state.entries.is_empty() && state.entries.capacity() > SHRINK_ABOVE {
            state.entries.shrink_to_fit();
        }
        Some(item)
    }
}

impl<E> Stream for EventStream<E> {
    type Item = Received<E>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().poll_recv(cx)
    }
}

#[cfg(test)]
#[path = "hub_tests.rs"]
mod tests;
