//! dapvisor's own logs, on stderr, with secrets hidden as in what agents read: a log
//! line can quote an adapter's malformed frame, a child's program and arguments, or a
//! failure's reason, and logs are kept and shared too. By the same rules as the tools'
//! (`--redact`, `--redact-name`, `--redact-pattern`); off with `--redact off`.

use std::borrow::Cow;
use std::io::Write;
use std::sync::Arc;

use tracing_subscriber::fmt::MakeWriter;

use crate::redact::{redact_text, RedactLevel, RedactRules, Redactor};

/// Makes a [`RedactingStderr`] for each log record.
#[derive(Debug, Clone)]
pub struct LogWriter {
    /// The rules secrets are hidden by; `None`: not hidden.
    rules: Option<Arc<RedactRules>>,
}

impl LogWriter {
    /// A writer hiding secrets by `rules` (none at [`RedactLevel::Off`]).
    pub fn new(rules: &RedactRules) -> Self {
        Self {
            rules: (rules.level() != RedactLevel::Off).then(|| Arc::new(rules.clone())),
        }
    }
}

impl<'a> MakeWriter<'a> for LogWriter {
    type Writer = RedactingStderr;

    fn make_writer(&'a self) -> Self::Writer {
        RedactingStderr {
            rules: self.rules.clone(),
        }
    }
}

/// stderr, hiding secrets in each write. The formatter writes a record whole, in one
/// write, so a secret is never split across two.
#[derive(Debug)]
pub struct RedactingStderr {
    rules: Option<Arc<RedactRules>>,
}

impl Write for RedactingStderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        std::io::stderr()
            .lock()
            .write_all(&record(buf, self.rules.as_ref()))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

/// One log record as written: secrets hidden by `rules`, if any. Each record on its
/// own: logs do not remember what tool results hid.
fn record<'a>(buf: &'a [u8], rules: Option<&Arc<RedactRules>>) -> Cow<'a, [u8]> {
    let Some(rules) = rules else {
        return Cow::Borrowed(buf);
    };
    let text = String::from_utf8_lossy(buf);
    Cow::Owned(redact_text(&text, &mut Redactor::new(Arc::clone(rules))).into_bytes())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::record;
    use crate::redact::{RedactLevel, RedactRules};

    #[test]
    fn a_log_record_hides_secrets_unless_told_not_to() {
        let line = b"WARN child session: program=\"app\" args=[\"--token=ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789\"]\n";
        let rules = Arc::new(RedactRules::default());
        let hidden = String::from_utf8(record(line, Some(&rules)).into_owned()).unwrap();
        assert!(!hidden.contains("aBcDeFgH"), "{hidden}");
        assert!(
            hidden.contains("«redacted: github-token, 40 chars»"),
            "{hidden}"
        );
        assert_eq!(&*record(line, None), line);
    }

    #[test]
    fn a_log_record_follows_the_added_rules() {
        let rules = RedactRules::new(RedactLevel::Default)
            .with_pattern(r"ACME-\d{6}")
            .unwrap();
        let line = b"INFO launching: args=[\"--licence\", \"ACME-123456\"]\n";
        let hidden = String::from_utf8(record(line, Some(&Arc::new(rules))).into_owned()).unwrap();
        assert!(!hidden.contains("123456"), "{hidden}");
        assert!(hidden.contains("«redacted: pattern, 11 chars»"), "{hidden}");
    }
}
