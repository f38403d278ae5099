//! `dapvisor debug` and a program that writes more than the session keeps: the output
//! past the session's buffer is printed at each stop, in order, and the loss is said.

mod agent;
mod cli_support;
mod common;

use agent::*;
use cli_support::*;
use serde_json::{json, Value};

/// `tests/support/chatty.py`: prints about 250 KiB, more than a session keeps.
fn chatty() -> String {
    root().join("tests/support/chatty.py").display().to_string()
}

/// The flood chatty.py prints before its breakpoint: 5000 lines of 52 bytes.
const FLOOD_BYTES: u64 = 5000 * 52;
/// The line it prints once resumed from the breakpoint.
const MARKER: &str = "after the flood";

/// The byte count a dropped-output notice line gives, if `line` is one.
fn notice_bytes(line: &str) -> Option<u64> {
    let rest = line.strip_prefix('[')?;
    let (count, words) = rest.split_once(' ')?;
    words
        .starts_with("earlier bytes of output dropped")
        .then(|| count.parse().ok())?
}

/// The numbers of the whole flood lines (`line 01234 xxx...`) in `text`, checked to be
/// in order and none twice, with a notice of lost output before every gap.
fn flood_lines_in_order(text: &str) -> Vec<u32> {
    let mut numbers = Vec::new();
    let mut notice_since_last = true;
    for line in text.lines() {
        if notice_bytes(line).is_some() {
            notice_since_last = true;
            continue;
        }
        let Some(n) = line
            .strip_prefix("line ")
            .filter(|_| line.len() == 51)
            .and_then(|rest| rest[..5].parse::<u32>().ok())
        else {
            continue;
        };
        if let Some(&last) = numbers.last() {
            assert!(
                n > last,
                "line {n} after line {last}: out of order or twice"
            );
            assert!(
                n == last + 1 || notice_since_last,
                "lines {last} to {n} went missing without a notice"
            );
        }
        numbers.push(n);
        notice_since_last = false;
    }
    numbers
}

/// What is guaranteed of a program that prints more than a session keeps before a
/// breakpoint: every byte is printed once or counted by a notice standing where it was
/// lost, in order; the stop's report follows what was printed before it; what the
/// program prints once resumed follows the report; the exit comes last. Where the loss
/// falls, and whether the flood's tail is printed with the stop or after it, is not:
/// debugpy sends a program's output on another path than its stop, so output can
/// trail the stop past the moment `dapvisor debug` waits for it.
#[tokio::test]
async fn output_past_the_sessions_buffer_is_printed_at_each_stop_and_the_loss_said() {
    let file = chatty();
    let location = format!("{file}:{}", line_of(&file, "print(marker)"));

    let run = dapvisor(&["debug", &file, "--break", &location]).await;
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    let out = &run.stdout;
    let stop = out.find("stopped (breakpoint)").expect("the stop's report");
    let marker: Vec<usize> = out
        .match_indices(&format!("\n{MARKER}\n"))
        .map(|(at, _)| at)
        .collect();
    assert_eq!(marker.len(), 1, "the marker once: {out}");
    assert!(marker[0] > stop, "printed after the stop it follows");
    assert!(
        out.trim_end().ends_with("[the program exited with code 0]"),
        "{}",
        &out[out.len().saturating_sub(500)..]
    );
    flood_lines_in_order(out);
    let dropped: u64 = out.lines().filter_map(notice_bytes).sum();
    assert!(dropped < FLOOD_BYTES, "{dropped}");

    // --json: the stop's and the end's objects account for every byte between them.
    let run = dapvisor(&["debug", &file, "--break", &location, "--json"]).await;
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    let objects: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert_eq!(objects.len(), 2, "{}", run.stdout);
    let (stop, end) = (&objects[0], &objects[1]);
    assert_eq!(
        (&stop["event"], &end["event"]),
        (&json!("stop"), &json!("exit"))
    );
    let accounted: u64 = objects
        .iter()
        .map(|o| {
            o["output_dropped_bytes"].as_u64().unwrap() + o["output"].as_str().unwrap().len() as u64
        })
        .sum();
    let marker_line = format!("{MARKER}\n");
    assert_eq!(
        accounted,
        FLOOD_BYTES + marker_line.len() as u64,
        "nothing lost unannounced, nothing twice"
    );
    let end_output = end["output"].as_str().unwrap();
    assert!(end_output.ends_with(&marker_line), "{end_output}");
    // In order, none twice, the newest whole (a line may be cut between the two).
    let gap = match end["output_dropped_bytes"].as_u64().unwrap() {
        0 => String::new(),
        n => format!("\n[{n} earlier bytes of output dropped]\n"),
    };
    let kept = format!("{}{gap}{end_output}", stop["output"].as_str().unwrap());
    assert_eq!(flood_lines_in_order(&kept).last(), Some(&4999));
}
