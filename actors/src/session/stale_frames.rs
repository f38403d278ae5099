//! For an adapter whose frames of a stop go stale once an evaluation ran code
//! ([`Quirks::evaluation_stales_frames`](crate::quirks::Quirks::evaluation_stales_frames):
//! JdiDapServer, where a method call resumes the thread and JDI then invalidates the
//! frames it keeps, so that every later `evaluate` or `variables` of a scope fails
//! with "Thread has been resumed"): the stopped thread's stack is asked for again
//! before either. While nothing ran since the stop, the stop cache answers that from
//! memory and nothing reaches the adapter; after an evaluation (which empties the
//! cache) it is asked, and it takes the thread's frames afresh, under the same ids.

use crate::session::SessionHandle;

impl SessionHandle {
    /// Have the adapter take the stopped thread's frames afresh, where its family needs
    /// it; nothing otherwise. A failure is left to the request that follows.
    pub(crate) async fn refresh_stale_frames(&self) {
        let stales = self
            .snapshot()
            .await
            .ok()
            .and_then(|s| s.adapter_flavor)
            .is_some_and(|f| f.quirks().evaluation_stales_frames);
        if stales {
            let _ = self.stack_trace(None, None).await;
        }
    }
}
