//! dapvisor's own logs, on stderr, with secrets hidden as in what agents read: a log
//! line can quote an adapter's malformed frame, a child's program and arguments, or a
//! failure's reason, and logs are kept and shared too. Off with `--no-redact`.

use std::borrow::Cow;
use std::io::Write;

use tracing_subscriber::fmt::MakeWriter;

use crate::redact::{redact_text, Known};

/// Makes a [`RedactingStderr`] for each log record.
#[derive(Debug, Clone, Copy)]
pub struct LogWriter {
    /// Whether to hide secrets.
    pub redact: bool,
}

impl<'a> MakeWriter<'a> for LogWriter {
    type Writer = RedactingStderr;

    fn make_writer(&'a self) -> Self::Writer {
        RedactingStderr {
            redact: self.redact,
        }
    }
}

/// stderr, hiding secrets in each write. The formatter writes a record whole, in one
/// write, so a secret is never split across two.
#[derive(Debug)]
pub struct RedactingStderr {
    redact: bool,
}

impl Write for RedactingStderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        std::io::stderr()
            .lock()
            .write_all(&record(buf, self.redact))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

/// One log record as written: secrets hidden when `redact`. Each record on its own:
/// logs do not remember what tool results hid.
fn record(buf: &[u8], redact: bool) -> Cow<'_, [u8]> {
    if !redact {
        return Cow::Borrowed(buf);
    }
    let text = String::from_utf8_lossy(buf);
    Cow::Owned(redact_text(&text, &mut Known::default()).into_bytes())
}

#[cfg(test)]
mod tests {
    use super::record;

    #[test]
    fn a_log_record_hides_secrets_unless_told_not_to() {
        let line = b"WARN child session: program=\"app\" args=[\"--token=ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789\"]\n";
        let hidden = String::from_utf8(record(line, true).into_owned()).unwrap();
        assert!(!hidden.contains("aBcDeFgH"), "{hidden}");
        assert!(
            hidden.contains("«redacted: github-token, 40 chars»"),
            "{hidden}"
        );
        assert_eq!(&*record(line, false), line);
    }
}
