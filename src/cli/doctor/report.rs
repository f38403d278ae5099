//! What `dapvisor doctor` found: one [`Check`] per thing it looked at, each `ok`, a
//! warning or a failure with the fix, printed as a table or as JSON, and the exit
//! code they make.

use serde_json::{json, Map, Value};

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// It holds.
    Ok,
    /// It does not hold, but the main job does not need it (core dumps, an adapter
    /// you did not ask for); what it costs is said.
    Warn,
    /// What the main job needs does not hold: the doctor exits 1.
    Fail,
}

impl Status {
    /// How it is written: `ok`, `warn`, `fail`.
    pub fn word(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Warn => "warn",
            Status::Fail => "fail",
        }
    }
}

/// One thing the doctor looked at.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// What was checked: `adapter debugpy`, `ptrace`, `home`, ...
    pub name: String,
    /// How it came out.
    pub status: Status,
    /// What was found, in words.
    pub detail: String,
    /// What to do about it; `None` when it holds.
    pub fix: Option<String>,
    /// What was found, for scripts (`--json`): paths, versions, numbers.
    pub facts: Map<String, Value>,
}

impl Check {
    /// A check that holds.
    pub fn ok(name: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(name, Status::Ok, detail, None)
    }

    /// A check that warns, with its fix.
    pub fn warn(
        name: impl Into<String>,
        detail: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Self::new(name, Status::Warn, detail, Some(fix.into()))
    }

    /// A check that failed, with its fix.
    pub fn fail(
        name: impl Into<String>,
        detail: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Self::new(name, Status::Fail, detail, Some(fix.into()))
    }

    /// A check that fails when `needed`, else warns.
    pub fn fail_if(
        needed: bool,
        name: impl Into<String>,
        detail: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        let status = if needed { Status::Fail } else { Status::Warn };
        Self::new(name, status, detail, Some(fix.into()))
    }

    fn new(
        name: impl Into<String>,
        status: Status,
        detail: impl Into<String>,
        fix: Option<String>,
    ) -> Self {
        Self {
            name: name.into(),
            status,
            detail: detail.into(),
            fix,
            facts: Map::new(),
        }
    }

    /// This check with the fact `key` for scripts.
    pub fn fact(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.facts.insert(key.to_string(), value.into());
        self
    }
}

/// Every check, in the order they were made.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The checks.
    pub checks: Vec<Check>,
}

impl Report {
    /// How many checks came out `status`.
    pub fn count(&self, status: Status) -> usize {
        self.checks.iter().filter(|c| c.status == status).count()
    }

    /// Whether what the main job needs holds: no check failed.
    pub fn healthy(&self) -> bool {
        self.count(Status::Fail) == 0
    }

    /// The process's exit code: 0 when healthy, 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        if self.healthy() {
            0
        } else {
            1
        }
    }

    /// The report as JSON: `ok`, the counts, and each check with its facts.
    pub fn to_json(&self) -> Value {
        let checks: Vec<Value> = self
            .checks
            .iter()
            .map(|c| {
                let mut entry = json!({
                    "check": c.name,
                    "status": c.status.word(),
                    "detail": c.detail,
                    "fix": c.fix,
                });
                entry
                    .as_object_mut()
                    .expect("an object")
                    .extend(c.facts.clone());
                entry
            })
            .collect();
        json!({
            "ok": self.healthy(),
            "failed": self.count(Status::Fail),
            "warnings": self.count(Status::Warn),
            "checks": checks,
        })
    }

    /// The report as a table: a line per check, its fix under it, and a last line
    /// that says how it came out.
    pub fn to_text(&self) -> String {
        let width = self.checks.iter().map(|c| c.name.len()).max().unwrap_or(0);
        let mut out = String::new();
        for c in &self.checks {
            out.push_str(&format!(
                "{:<4}  {:<width$}  {}\n",
                c.status.word(),
                c.name,
                c.detail
            ));
            if let Some(fix) = &c.fix {
                out.push_str(&format!("      {:<width$}  fix: {fix}\n", ""));
            }
        }
        let (failed, warned) = (self.count(Status::Fail), self.count(Status::Warn));
        out.push_str(&match failed {
            0 => format!("ready: nothing failed ({warned} warnings)\n"),
            n => format!("not ready: {n} failed, {warned} warnings; the fixes are above\n"),
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_makes_exit_1_and_warnings_do_not() {
        let mut report = Report {
            checks: vec![
                Check::ok("home", "/h, yours"),
                Check::warn("core dumps", "ulimit -c is 0", "ulimit -c unlimited"),
            ],
        };
        assert_eq!(report.exit_code(), 0);
        assert!(report
            .to_text()
            .ends_with("ready: nothing failed (1 warnings)\n"));
        report.checks.push(
            Check::fail("adapter dlv", "not found", "apt-get install delve").fact("needed", true),
        );
        assert_eq!(report.exit_code(), 1);
        let text = report.to_text();
        assert!(text.contains("fail  adapter dlv  not found\n"), "{text}");
        assert!(text.contains("fix: apt-get install delve"), "{text}");
        let json = report.to_json();
        assert_eq!(json["ok"], false);
        assert_eq!(
            (json["failed"].as_u64(), json["warnings"].as_u64()),
            (Some(1), Some(1))
        );
        assert_eq!(json["checks"][2]["check"], "adapter dlv");
        assert_eq!(json["checks"][2]["needed"], true);
        assert_eq!(json["checks"][0]["fix"], Value::Null);
    }
}
