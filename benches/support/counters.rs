//! Per-process work counters, to explain a latency difference rather than only
//! observe it: read and write system calls (`/proc/self/io`) and voluntary context
//! switches (threads that went to sleep and were woken; `getrusage`), summed over
//! every thread of this process.

use std::ops::Sub;

/// A reading of the counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    /// Read-family system calls.
    pub reads: u64,
    /// Write-family system calls.
    pub writes: u64,
    /// Voluntary context switches: a thread blocked (futex, epoll, read) and was woken.
    pub sleeps: u64,
}

impl Counters {
    /// The counters now.
    pub fn now() -> Counters {
        let io = std::fs::read_to_string("/proc/self/io").unwrap_or_default();
        let field = |name: &str| {
            io.lines()
                .find_map(|line| line.strip_prefix(name))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0)
        };
        // SAFETY: getrusage only writes the struct it is given.
        let sleeps = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            libc::getrusage(libc::RUSAGE_SELF, &mut usage);
            usage.ru_nvcsw as u64
        };
        Counters {
            reads: field("syscr:"),
            writes: field("syscw:"),
            sleeps,
        }
    }

    /// Each counter divided by `n` (such as per request), to one decimal.
    pub fn per(&self, n: usize) -> String {
        let n = n.max(1) as f64;
        format!(
            "{:.1} reads, {:.1} writes, {:.1} sleeps",
            self.reads as f64 / n,
            self.writes as f64 / n,
            self.sleeps as f64 / n
        )
    }
}

impl Sub for Counters {
    type Output = Counters;

    fn sub(self, earlier: Counters) -> Counters {
        Counters {
            reads: self.reads.saturating_sub(earlier.reads),
            writes: self.writes.saturating_sub(earlier.writes),
            sleeps: self.sleeps.saturating_sub(earlier.sleeps),
        }
    }
}

impl std::ops::AddAssign for Counters {
    fn add_assign(&mut self, other: Counters) {
        self.reads += other.reads;
        self.writes += other.writes;
        self.sleeps += other.sleeps;
    }
}
