//! The child sessions one session tree may have at once (`startDebugging`): a place
//! each, taken when the adapter is told yes and held by the child session for its
//! life. A root session and all its descendants share one [`ChildSlots`], so no
//! adapter, nor a chain of children each asking for another, can take more than
//! [`crate::RuntimeConfig::max_child_sessions`] of the runtime's `max_sessions`;
//! past it the adapter's request is answered with an error.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::limits;

/// The places for child sessions of one session tree.
#[derive(Debug, Clone)]
pub struct ChildSlots {
    places: Arc<Semaphore>,
    limit: usize,
}

/// One child session's place, given back when dropped.
#[derive(Debug)]
pub struct ChildSlot {
    _place: OwnedSemaphorePermit,
}

impl ChildSlots {
    /// Room for `limit` child sessions at once.
    pub fn new(limit: usize) -> Self {
        Self {
            places: Arc::new(Semaphore::new(limit)),
            limit,
        }
    }

    /// A place for one more child session, or why there is none.
    pub fn take(&self) -> Result<ChildSlot, String> {
        match self.places.clone().try_acquire_owned() {
            Ok(place) => Ok(ChildSlot { _place: place }),
            Err(_) => Err(format!(
                "this session already has {} child sessions (max_child_sessions); end \
                 one before starting another",
                self.limit
            )),
        }
    }
}

impl Default for ChildSlots {
    fn default() -> Self {
        Self::new(limits::DEFAULT_MAX_CHILD_SESSIONS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_comes_back_when_its_child_goes() {
        let slots = ChildSlots::new(2);
        let first = slots.take().unwrap();
        let shared = slots.clone();
        let _second = shared.take().unwrap();
        let err = slots.take().unwrap_err();
        assert!(err.contains("already has 2 child sessions"), "{err}");
        drop(first);
        assert!(slots.take().is_ok());
    }
}
