use proptest::collection::vec;
use proptest::prelude::*;

use super::*;

fn entry(category: &str, text: &str) -> OutputEntry {
    OutputEntry {
        category: category.into(),
        text: text.into(),
    }
}

#[test]
fn push_then_read_everything() {
    let mut ring = OutputRing::new(64);
    ring.push("stdout", "hello ");
    ring.push("stdout", "world\n");
    ring.push("stderr", "oops\n");
    ring.push("stdout", "");
    let slice = ring.read_since(0, 1000);
    assert_eq!(
        slice.entries,
        vec![entry("stdout", "hello world\n"), entry("stderr", "oops\n")]
    );
    assert_eq!((slice.next, slice.missed_bytes, slice.more), (17, 0, false));
    assert_eq!(slice.text(), "hello world\noops\n");
    assert_eq!((ring.start(), ring.end(), ring.bytes_held()), (0, 17, 17));
    assert!(!ring.truncated());
}

#[test]
fn cursor_continues_without_loss_or_duplication() {
    let mut ring = OutputRing::new(64);
    ring.push("stdout", "abcdef");
    ring.push("stderr", "ghij");
    let first = ring.read_since(0, 4);
    assert_eq!(first.entries, vec![entry("stdout", "abcd")]);
    assert!(first.more);
    let second = ring.read_since(first.next, 4);
    // A slice crossing an entry boundary keeps each part's category.
    assert_eq!(
        second.entries,
        vec![entry("stdout", "ef"), entry("stderr", "gh")]
    );
    let third = ring.read_since(second.next, 4);
    assert_eq!(third.entries, vec![entry("stderr", "ij")]);
    assert!(!third.more);
    let done = ring.read_since(third.next, 4);
    assert_eq!(
        done,
        OutputSlice {
            next: 10,
            ..OutputSlice::default()
        }
    );
}

#[test]
fn since_past_end_is_empty_at_end() {
    let mut ring = OutputRing::new(8);
    ring.push("stdout", "abc");
    assert_eq!(
        ring.read_since(99, 10),
        OutputSlice {
            next: 3,
            ..OutputSlice::default()
        }
    );
}

#[test]
fn trimming_reports_exact_missed_bytes() {
    let mut ring = OutputRing::new(10);
    ring.push("stdout", "0123456789");
    assert!(!ring.truncated());
    ring.push("stderr", "abcde");
    assert!(ring.truncated());
    assert_eq!((ring.start(), ring.end(), ring.bytes_held()), (5, 15, 10));
    let slice = ring.read_since(0, 100);
    assert_eq!(slice.missed_bytes, 5);
    assert_eq!(
        slice.entries,
        vec![entry("stdout", "56789"), entry("stderr", "abcde")]
    );
    let later = ring.read_since(7, 100);
    assert_eq!((later.missed_bytes, later.text().as_str()), (0, "789abcde"));
    // Whole entries go once nothing of them is held.
    ring.push("console", "0123456789");
    let slice = ring.read_since(0, 100);
    assert_eq!(slice.entries, vec![entry("console", "0123456789")]);
    assert_eq!(slice.missed_bytes, 15);
}

#[test]
fn trimming_never_splits_a_character() {
    let mut ring = OutputRing::new(5);
    ring.push("stdout", "aé€"); // 1 + 2 + 3 bytes: only "a" must go.
    assert_eq!((ring.start(), ring.bytes_held()), (1, 5));
    ring.push("stdout", "b"); // One byte must go, which would split "é".
    assert_eq!((ring.start(), ring.bytes_held()), (3, 4));
    assert_eq!(ring.read_since(0, 100).text(), "€b");
    assert_eq!(ring.read_since(0, 100).missed_bytes, 3);
}

#[test]
fn reads_stop_before_a_character_that_would_not_fit() {
    let mut ring = OutputRing::new(64);
    ring.push("stdout", "a€b");
    let slice = ring.read_since(0, 2);
    assert_eq!(
        (slice.text().as_str(), slice.next, slice.more),
        ("a", 1, true)
    );
    // max_bytes smaller than the next character still returns it whole.
    let slice = ring.read_since(1, 1);
    assert_eq!(
        (slice.text().as_str(), slice.next, slice.more),
        ("€", 4, true)
    );
    let slice = ring.read_since(4, 0);
    assert_eq!(
        (slice.text().as_str(), slice.next, slice.more),
        ("b", 5, false)
    );
    // A cursor inside a character moves on to the next one.
    assert_eq!(ring.read_since(2, 10).text(), "b");
}

#[test]
fn an_entry_larger_than_capacity_keeps_its_tail() {
    let mut ring = OutputRing::new(4);
    ring.push("stdout", "xy");
    ring.push("stderr", "hello world");
    assert_eq!((ring.start(), ring.end(), ring.bytes_held()), (9, 13, 4));
    let slice = ring.read_since(0, 100);
    assert_eq!(slice.entries, vec![entry("stderr", "orld")]);
    assert_eq!(slice.missed_bytes, 9);
    // The tail starts at a character boundary, so it may be shorter.
    ring.push("stdout", "€€");
    assert_eq!(ring.read_since(0, 100).entries, vec![entry("stdout", "€")]);
    assert_eq!((ring.start(), ring.end()), (16, 19));
}

#[test]
fn zero_capacity_holds_nothing_but_counts() {
    let mut ring = OutputRing::new(0);
    ring.push("stdout", "abc");
    assert_eq!((ring.start(), ring.end(), ring.bytes_held()), (3, 3, 0));
    assert!(ring.truncated());
    let slice = ring.read_since(0, 10);
    assert!(slice.entries.is_empty());
    assert_eq!(slice.next, 3);
}

#[test]
fn set_capacity_shrinks_at_once_and_can_grow_again() {
    let mut ring = OutputRing::new(10);
    ring.push("stdout", "0123456789");
    ring.set_capacity(3);
    assert_eq!(
        (ring.capacity(), ring.bytes_held(), ring.start()),
        (3, 3, 7)
    );
    assert!(ring.truncated());
    assert_eq!(ring.read_since(0, 100).text(), "789");
    ring.set_capacity(6);
    ring.push("stdout", "abc");
    assert_eq!(ring.read_since(0, 100).text(), "789abc");
}

const CATEGORIES: [&str; 3] = ["stdout", "stderr", "console"];

#[derive(Debug, Clone)]
enum Op {
    Push(usize, String),
    Read(usize),
    Capacity(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..CATEGORIES.len(), "[ab\né€😀]{0,12}").prop_map(|(c, t)| Op::Push(c, t)),
        2 => (0..24usize).prop_map(Op::Read),
        1 => (0..48usize).prop_map(Op::Capacity),
    ]
}

/// What was pushed: the whole stream, and each byte's category.
#[derive(Default)]
struct Model {
    all: String,
    categories: Vec<usize>,
}

/// A reader following the stream from cursor 0.
#[derive(Default)]
struct Reader {
    cursor: u64,
    text: String,
    missed: u64,
}

impl Reader {
    fn read(&mut self, ring: &OutputRing, model: &Model, max: usize) -> Result<(), TestCaseError> {
        let slice = ring.read_since(self.cursor, max);
        let from = self.cursor + slice.missed_bytes;
        prop_assert_eq!(from, self.cursor.max(ring.start()).min(ring.end()));
        let text = slice.text();
        prop_assert_eq!(&text, &model.all[from as usize..slice.next as usize]);
        prop_assert_eq!(slice.more, slice.next < ring.end());
        if self.cursor < ring.end() && ring.bytes_held() > 0 {
            prop_assert!(
                slice.next > self.cursor,
                "a read with data waiting must progress"
            );
        }
        if text.len() > max {
            prop_assert_eq!(text.chars().count(), 1);
        }
        let mut pos = from as usize;
        for entry in &slice.entries {
            prop_assert!(!entry.text.is_empty());
            let category = model.categories[pos];
            prop_assert_eq!(entry.category.as_str(), CATEGORIES[category]);
            let span = &model.categories[pos..pos + entry.text.len()];
            prop_assert!(span.iter().all(|c| *c == category));
            pos += entry.text.len();
        }
        self.text.push_str(&text);
        self.missed += slice.missed_bytes;
        self.cursor = slice.next;
        Ok(())
    }
}

proptest! {
    #[test]
    fn reading_from_zero_yields_the_stream_minus_missed(
        capacity in 0..48usize,
        ops in vec(op(), 0..80),
        drain_max in 0..16usize,
    ) {
        let mut ring = OutputRing::new(capacity);
        let mut model = Model::default();
        let mut reader = Reader::default();
        for op in ops {
            match op {
                Op::Push(c, text) => {
                    ring.push(CATEGORIES[c], &text);
                    model.all.push_str(&text);
                    model.categories.extend(std::iter::repeat_n(c, text.len()));
                }
                Op::Read(max) => reader.read(&ring, &model, max)?,
                Op::Capacity(bytes) => ring.set_capacity(bytes),
            }
            prop_assert!(ring.bytes_held() <= ring.capacity());
            prop_assert_eq!(ring.end(), model.all.len() as u64);
            prop_assert_eq!(ring.end() - ring.start(), ring.bytes_held() as u64);
            prop_assert_eq!(ring.truncated(), ring.start() > 0);
        }
        while reader.cursor < ring.end() {
            reader.read(&ring, &model, drain_max)?;
        }
        prop_assert_eq!(reader.text.len() as u64 + reader.missed, model.all.len() as u64);
    }
}
