//! Percentiles over latency samples. Criterion reports means and confidence
//! intervals; the latency targets are percentiles, so those are computed here.

use std::fmt;
use std::time::Duration;

/// The distribution of a set of latency samples.
#[derive(Debug, Clone, Copy)]
pub struct Summary {
    /// How many samples.
    pub count: usize,
    /// Median (nearest rank).
    pub p50: Duration,
    /// 99th percentile (nearest rank).
    pub p99: Duration,
    /// The slowest sample.
    pub max: Duration,
    /// Arithmetic mean.
    pub mean: Duration,
}

impl Summary {
    /// Summarize `samples` (sorted in place). `None` when there are none.
    pub fn of(samples: &mut [Duration]) -> Option<Summary> {
        if samples.is_empty() {
            return None;
        }
        samples.sort_unstable();
        let total: Duration = samples.iter().sum();
        Some(Summary {
            count: samples.len(),
            p50: percentile(samples, 50.0),
            p99: percentile(samples, 99.0),
            max: samples[samples.len() - 1],
            mean: total / samples.len() as u32,
        })
    }
}

/// The nearest-rank percentile of sorted, non-empty `samples`: the smallest sample
/// with at least `p`% of the samples at or below it.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// A duration with a unit that keeps three significant digits or so.
pub fn human(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    if ns < 1_000.0 {
        format!("{ns:.0} ns")
    } else if ns < 1_000_000.0 {
        format!("{:.1} µs", ns / 1e3)
    } else if ns < 1_000_000_000.0 {
        format!("{:.1} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "p50 {:>9}  p99 {:>9}  max {:>9}  mean {:>9}  (n={})",
            human(self.p50),
            human(self.p99),
            human(self.max),
            human(self.mean),
            self.count
        )
    }
}
