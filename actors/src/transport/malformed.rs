//! Frames that are JSON but not DAP messages (`{}`, a response that names no request),
//! counted per connection. Each fails the request it names, if any, and the stream
//! goes on; but an adapter that sends nothing else would flood the log and the
//! transport's mailbox, so past `max_malformed_frames` the connection is ended as
//! broken, with an error that counts them and one warning that sums them up. Only
//! the first is a warning of its own; the others are logged at debug level.

/// The malformed frames of one connection so far.
#[derive(Debug)]
pub struct MalformedFrames {
    limit: usize,
    seen: usize,
    first: Option<String>,
}

impl MalformedFrames {
    /// None seen yet; the connection ends at the frame past `limit`.
    pub fn new(limit: usize) -> Self {
        Self {
            limit,
            seen: 0,
            first: None,
        }
    }

    /// One more, described by `detail`: `Err` with why the connection ends, when it
    /// is one too many.
    pub fn note(&mut self, detail: &str) -> Result<(), String> {
        self.seen += 1;
        let first = self.first.get_or_insert_with(|| detail.to_string());
        if self.seen > self.limit {
            let reason = format!(
                "the adapter sent {} frames that are JSON but not DAP messages, more than \
                 max_malformed_frames ({}) allows; the first: {first}; the last: {detail}",
                self.seen, self.limit
            );
            tracing::warn!(
                frames = self.seen,
                limit = self.limit,
                %first,
                last = %detail,
                "adapter connection ended: too many frames that are not DAP messages"
            );
            return Err(reason);
        }
        if self.seen == 1 {
            tracing::warn!(%detail, "adapter sent a frame that is not a DAP message");
        } else {
            tracing::debug!(%detail, count = self.seen, "adapter sent a frame that is not a DAP message");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frame_past_the_limit_ends_the_connection_counting_them() {
        let mut frames = MalformedFrames::new(2);
        assert!(frames.note("a: {}").is_ok());
        assert!(frames.note("b: {}").is_ok());
        let reason = frames.note("c: {}").unwrap_err();
        assert_eq!(
            reason,
            "the adapter sent 3 frames that are JSON but not DAP messages, more than \
             max_malformed_frames (2) allows; the first: a: {}; the last: c: {}"
        );
        assert!(
            MalformedFrames::new(0).note("x").is_err(),
            "0 ends it at the first"
        );
    }
}
