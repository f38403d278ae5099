use std::time::Duration;

use futures::StreamExt;

use super::*;

/// A test event: `Out(n)` is lossy output, `Life(n)` a lifecycle event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ev {
    Out(u32),
    Life(u32),
}

impl Lossy for Ev {
    fn is_lossy(&self) -> bool {
        matches!(self, Ev::Out(_))
    }
}

/// Takes everything waiting now, stopping at `Empty` or `Closed`.
fn drain(stream: &mut EventStream<Ev>) -> Vec<Received<Ev>> {
    std::iter::from_fn(|| stream.try_recv().ok()).collect()
}

fn event(item: &Received<Ev>) -> Option<Ev> {
    match item {
        Received::Event(event) => Some(**event),
        Received::Lagged { .. } | Received::CutOff { .. } => None,
    }
}

#[tokio::test]
async fn fans_out_to_every_subscriber_in_order() {
    let hub = EventHub::new(16);
    let mut streams: Vec<_> = (0..3).map(|_| hub.subscribe()).collect();
    for n in 0..10 {
        hub.publish(if n % 2 == 0 { Ev::Out(n) } else { Ev::Life(n) });
    }
    for stream in &mut streams {
        let got: Vec<_> = drain(stream).iter().filter_map(event).collect();
        let want: Vec<_> = (0..10)
            .map(|n| if n % 2 == 0 { Ev::Out(n) } else { Ev::Life(n) })
            .collect();
        assert_eq!(got, want);
        assert_eq!(stream.try_recv(), Err(TryRecvError::Empty));
    }
}

#[tokio::test]
async fn shares_one_allocation_across_subscribers() {
    let hub = EventHub::new(4);
    let (mut a, mut b) = (hub.subscribe(), hub.subscribe());
    hub.publish(Ev::Life(1));
    let (Ok(Received::Event(x)), Ok(Received::Event(y))) = (a.try_recv(), b.try_recv()) else {
        panic!("both subscribers should get the event");
    };
    assert!(Arc::ptr_eq(&x, &y));
}

#[tokio::test]
async fn slow_subscriber_keeps_every_lifecycle_event() {
    const BACKLOG: usize = 64;
    let hub = EventHub::new(BACKLOG);
    let mut slow = hub.subscribe();
    let mut fast = hub.subscribe();
    let mut fast_got = Vec::new();
    // 10,000 lossy and 2,000 lifecycle events, one lifecycle after every five outputs.
    let (mut outs, mut lives) = (0u32, 0u32);
    for step in 0..12_000u32 {
        let ev = if step % 6 == 5 {
            lives += 1;
            Ev::Life(lives - 1)
        } else {
            outs += 1;
            Ev::Out(outs - 1)
        };
        hub.publish(ev);
        fast_got.extend(drain(&mut fast));
    }
    assert_eq!((outs, lives), (10_000, 2_000));

    // The fast reader missed nothing.
    assert!(fast_got.iter().all(|item| event(item).is_some()));
    assert_eq!(fast_got.len(), 12_000);

    let slow_got = drain(&mut slow);
    let lifecycle: Vec<_> = slow_got
        .iter()
        .filter_map(event)
        .filter(|ev| matches!(ev, Ev::Life(_)))
        .collect();
    assert_eq!(lifecycle, (0..2_000).map(Ev::Life).collect::<Vec<_>>());

    let delivered: Vec<u32> = slow_got
        .iter()
        .filter_map(|item| match event(item) {
            Some(Ev::Out(n)) => Some(n),
            _ => None,
        })
        .collect();
    let missed: u64 = slow_got
        .iter()
        .map(|item| match item {
            Received::Lagged { missed } => *missed,
            Received::Event(_) => 0,
            Received::CutOff { .. } => panic!("a subscriber under the limit was cut off"),
        })
        .sum();
    assert_eq!(delivered, (0..BACKLOG as u32).collect::<Vec<_>>());
    assert_eq!(delivered.len() as u64 + missed, 10_000);
    // Consecutive drops merge: one marker per run of drops between lifecycle events.
    assert!(slow_got
        .windows(2)
        .all(|w| !matches!(w, [Received::Lagged { .. }, Received::Lagged { .. }])));
}

#[tokio::test]
async fn lagged_marker_stands_where_events_were_dropped() {
    let hub = EventHub::new(1);
    let mut stream = hub.subscribe();
    hub.publish(Ev::Out(0));
    hub.publish(Ev::Out(1));
    hub.publish(Ev::Out(2));
    hub.publish(Ev::Life(0));
    hub.publish(Ev::Out(3));
    assert_eq!(stream.try_recv(), Ok(Received::Event(Arc::new(Ev::Out(0)))));
    // Room again: the next lossy event after reading is queued.
    hub.publish(Ev::Out(4));
    let rest = drain(&mut stream);
    assert_eq!(
        rest,
        vec![
            Received::Lagged { missed: 2 },
            Received::Event(Arc::new(Ev::Life(0))),
            Received::Lagged { missed: 1 },
            Received::Event(Arc::new(Ev::Out(4))),
        ]
    );
}

#[tokio::test]
async fn dropped_subscribers_are_pruned() {
    let hub = EventHub::<Ev>::new(4);
    let a = hub.subscribe();
    let b = hub.subscribe();
    assert_eq!(hub.subscriber_count(), 2);
    drop(a);
    assert_eq!(hub.subscriber_count(), 1);
    drop(b);
    hub.publish(Ev::Life(0));
    assert_eq!(hub.subscriber_count(), 0);
}

#[tokio::test]
async fn close_drains_then_ends() {
    let hub = EventHub::new(4);
    let mut stream = hub.subscribe();
    hub.publish(Ev::Life(1));
    hub.publish(Ev::Out(2));
    hub.close();
    hub.publish(Ev::Life(3));
    assert!(hub.is_closed());
    assert_eq!(
        stream.recv().await,
        Some(Received::Event(Arc::new(Ev::Life(1))))
    );
    assert_eq!(
        stream.recv().await,
        Some(Received::Event(Arc::new(Ev::Out(2))))
    );
    assert_eq!(stream.recv().await, None);
    assert_eq!(stream.try_recv(), Err(TryRecvError::Closed));

    let mut late = hub.subscribe();
    assert_eq!(late.recv().await, None);
    assert_eq!(hub.subscriber_count(), 0);
}

#[tokio::test]
async fn dropping_every_hub_clone_ends_streams() {
    let hub = EventHub::new(4);
    let other = hub.clone();
    let stream = hub.subscribe();
    other.publish(Ev::Life(7));
    drop(hub);
    drop(other);
    let items: Vec<_> = stream.collect().await;
    assert_eq!(items, vec![Received::Event(Arc::new(Ev::Life(7)))]);
}

#[tokio::test(start_paused = true)]
async fn recv_wakes_on_publish_from_another_task() {
    let hub = EventHub::new(4);
    let mut stream = hub.subscribe();
    let reader = tokio::spawn(async move { stream.recv().await });
    // Let the reader park on an empty queue before publishing.
    tokio::task::yield_now().await;
    assert!(!reader.is_finished(), "nothing was published yet");
    hub.publish(Ev::Life(9));
    let got = tokio::time::timeout(Duration::from_secs(5), reader)
        .await
        .expect("reader should wake")
        .expect("reader task should not panic");
    assert_eq!(got, Some(Received::Event(Arc::new(Ev::Life(9)))));
}

#[tokio::test(start_paused = true)]
async fn recv_wakes_on_close() {
    let hub = EventHub::<Ev>::new(4);
    let mut stream = hub.subscribe();
    let reader = tokio::spawn(async move { stream.recv().await });
    tokio::task::yield_now().await;
    hub.close();
    let got = tokio::time::timeout(Duration::from_secs(5), reader).await;
    assert_eq!(got.expect("reader should wake").expect("no panic"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_publishers_keep_their_own_order_everywhere() {
    const PER: u32 = 2_000;
    let hub = EventHub::new(0);
    let mut streams: Vec<_> = (0..3).map(|_| hub.subscribe()).collect();
    let publishers: Vec<_> = (0..4u32)
        .map(|p| {
            let hub = hub.clone();
            std::thread::spawn(move || (0..PER).for_each(|n| hub.publish(Ev::Life(p * PER + n))))
        })
        .collect();
    for publisher in publishers {
        publisher.join().expect("publisher thread");
    }
    let seen: Vec<Vec<Ev>> = streams
        .iter_mut()
        .map(|s| drain(s).iter().filter_map(event).collect())
        .collect();
    // Every subscriber saw the same total order.
    assert!(seen.windows(2).all(|w| w[0] == w[1]));
    for p in 0..4 {
        let mine: Vec<u32> = seen[0]
            .iter()
            .map(|ev| match ev {
                Ev::Life(n) | Ev::Out(n) => *n,
            })
            .filter(|n| n / PER == p)
            .collect();
        assert_eq!(mine, (p * PER..(p + 1) * PER).collect::<Vec<_>>());
    }
}

/// A session's events as an adapter like lldb-dap sends them: many modules, a progress
/// stream, loaded sources and output, with lifecycle events among them.
#[tokio::test]
async fn a_subscriber_that_never_reads_holds_every_lifecycle_event_and_a_bounded_bulk() {
    use crate::events::{EventKind, SessionEvent};
    use crate::session::SessionId;
    use serde_json::json;

    const BACKLOG: usize = 32;
    let hub = EventHub::new(BACKLOG);
    let mut idle = hub.subscribe();
    let event = |kind| SessionEvent {
        session_id: SessionId(1),
        kind,
    };
    let adapter = |name: &str| EventKind::Adapter {
        event: name.into(),
        body: Some(json!({})),
    };
    let mut lifecycle_sent = 0;
    for n in 0..500i64 {
        hub.publish(event(EventKind::Module {
            reason: "new".into(),
            module: json!({ "id": n }),
        }));
        for name in [
            "progressUpdate",
            "loadedSource",
            "invalidated",
            "memory",
            "x",
        ] {
            hub.publish(event(adapter(name)));
        }
        hub.publish(event(EventKind::Output {
            category: "stdout".into(),
            output: format!("{n}\n"),
        }));
        if n % 50 == 0 {
            hub.publish(event(EventKind::Thread {
                reason: "started".into(),
                thread_id: n,
            }));
            hub.publish(event(adapter("capabilities")));
            lifecycle_sent += 2;
        }
    }
    let bulk_sent = 500 * 7;

    let got = drain_any(&mut idle);
    let lifecycle: Vec<_> = got
        .iter()
        .filter_map(|item| match item {
            Received::Event(e) if e.kind.is_lifecycle() => Some(e.kind.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        lifecycle.len(),
        lifecycle_sent,
        "every lifecycle event is kept"
    );
    let thread_ids: Vec<i64> = lifecycle
        .iter()
        .filter_map(|k| match k {
            EventKind::Thread { thread_id, .. } => Some(*thread_id),
            _ => None,
        })
        .collect();
    assert_eq!(thread_ids, (0..500).step_by(50).collect::<Vec<_>>());
    let bulk_kept = got
        .iter()
        .filter(|item| matches!(item, Received::Event(e) if !e.kind.is_lifecycle()))
        .count();
    let missed: u64 = got
        .iter()
        .map(|item| match item {
            Received::Lagged { missed } => *missed,
            Received::Event(_) => 0,
            Received::CutOff { .. } => panic!("a subscriber under the limit was cut off"),
        })
        .sum();
    assert_eq!(
        bulk_kept, BACKLOG,
        "bulk of every kind counts toward one bound"
    );
    assert_eq!(bulk_kept as u64 + missed, bulk_sent as u64);
    assert!(
        got.len() <= BACKLOG + 2 * lifecycle_sent + 1,
        "{} items",
        got.len()
    );
}

fn drain_any<E>(stream: &mut EventStream<E>) -> Vec<Received<E>> {
    std::iter::from_fn(|| stream.try_recv().ok()).collect()
}

#[tokio::test]
async fn a_subscriber_that_stops_reading_is_cut_off_and_the_others_carry_on() {
    let hub = EventHub::with_max_waiting(2, 5);
    let (mut stalled, mut reading) = (hub.subscribe(), hub.subscribe());
    for n in 0..8 {
        hub.publish(Ev::Life(n));
        // One subscriber keeps up; the other reads nothing.
        assert_eq!(event(&reading.try_recv().unwrap()), Some(Ev::Life(n)));
    }
    // The stalled one holds the five that fitted, then the cut-off, then the end.
    let got = drain(&mut stalled);
    let events: Vec<_> = got.iter().filter_map(event).collect();
    assert_eq!(events, (0..5).map(Ev::Life).collect::<Vec<_>>());
    assert_eq!(got.last(), Some(&Received::CutOff { waiting: 5 }));
    assert_eq!(stalled.try_recv(), Err(TryRecvError::Closed));
    assert_eq!(stalled.recv().await, None);
    // The hub forgot it; the reading one is still served.
    assert_eq!(hub.subscriber_count(), 1);
    hub.publish(Ev::Life(99));
    assert_eq!(event(&reading.try_recv().unwrap()), Some(Ev::Life(99)));
}

#[tokio::test]
async fn lagged_markers_and_lifecycle_events_count_toward_the_cut_off() {
    // Lossy events beyond their own backlog become one counted marker, which takes
    // one place; lifecycle events take one each.
    let hub = EventHub::with_max_waiting(1, 3);
    let mut stream = hub.subscribe();
    for n in 0..4 {
        hub.publish(Ev::Out(n)); // Out(0) queued, then one Lagged counting 3
    }
    hub.publish(Ev::Life(10)); // third item: still room
    hub.publish(Ev::Life(11)); // the fourth would pass the limit: cut off
    assert_eq!(
        drain(&mut stream),
        vec![
            Received::Event(Arc::new(Ev::Out(0))),
            Received::Lagged { missed: 3 },
            Received::Event(Arc::new(Ev::Life(10))),
            Received::CutOff { waiting: 3 },
        ]
    );
}
