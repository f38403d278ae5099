//! One debugger per attach target. A process or a debug server that a live session
//! holds (attached to it, or runs it: a process descending from the session's
//! adapter, such as a launched debuggee) is not attached to again, by anyone: two
//! debuggers on one process fight over it, and a second client would reach a program
//! another client's session holds without its owner sharing it. The refusal
//! ([`SessionError::TargetHeld`]) names the session and its owner.
//!
//! Nor is dapvisor's own process attached to.
//!
//! Two attaches to one target at once are told apart by a claim each takes before it
//! looks at the sessions and holds until its own session is started (or the attach
//! failed): the second finds the first's claim.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::core::attach_target::AttachTarget;
use crate::error::SessionError;
use crate::launch::AttachSpec;
use crate::limits::{MAX_ATTACH_ANCESTRY, MID_EXEC_WAIT};
use crate::registry::DEFAULT_ATTACH_HOST;
use crate::runtime::Runtime;
use crate::session::{SessionHandle, SessionId};
use crate::transport::process::{tag_owner, TREE_ENV};
use crate::transport::procfs::{ProcessId, Stat};
use crate::transport::tagged::env_var_once_shown;

/// The attaches under way, each with its target.
#[derive(Debug, Default)]
pub(crate) struct AttachClaims {
    pending: Mutex<Vec<(u64, AttachTarget)>>,
    next: AtomicU64,
}

/// An attach's hold on its target while it starts; let go when dropped.
pub(crate) struct Claim {
    claims: Arc<AttachClaims>,
    id: u64,
}

impl Drop for Claim {
    fn drop(&mut self) {
        let mut pending = self
            .claims
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        pending.retain(|(id, _)| *id != self.id);
    }
}

impl AttachClaims {
    /// Claim `target` for an attach, unless another attach to it is under way.
    fn take(self: &Arc<Self>, target: &AttachTarget) -> Result<Claim, SessionError> {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        if pending.iter().any(|(_, t)| t.same_as(target)) {
            return Err(SessionError::TargetHeld {
                target: target.to_string(),
                session: None,
                owner: None,
            });
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        pending.push((id, target.clone()));
        Ok(Claim {
            claims: self.clone(),
            id,
        })
    }
}

impl Runtime {
    /// What an attach for `spec` reaches: the debug server when it names a port (a
    /// port wins over a pid, as in the attach arguments), else the process, with its
    /// start time now; `None` when it names neither. [`Self::holder_of`] says which
    /// live session, if any, holds it.
    pub fn target_of(spec: &AttachSpec) -> Option<AttachTarget> {
        match (spec.port, spec.pid) {
            (Some(port), _) => Some(AttachTarget::Server {
                host: spec
                    .host
                    .clone()
                    .unwrap_or_else(|| DEFAULT_ATTACH_HOST.to_string()),
                port,
            }),
            (None, Some(pid)) => Some(AttachTarget::Process {
                pid,
                start: ProcessId::of(pid).map(|p| p.start),
            }),
            (None, None) => None,
        }
    }

    /// Claim `target` for an attach: refused when another attach to it is under way,
    /// or a live session holds it ([`Self::holder_of`]).
    pub(crate) async fn claim_target(&self, target: &AttachTarget) -> Result<Claim, SessionError> {
        let claim = self.attach_claims().take(target)?;
        self.target_free(target).await?;
        Ok(claim)
    }

    /// Whether an attach may reach `target` now: not this process itself (whose
    /// memory holds every session and the server's secrets), and no live session
    /// holds it ([`Self::holder_of`]; [`SessionError::TargetHeld`] names it).
    pub async fn target_free(&self, target: &AttachTarget) -> Result<(), SessionError> {
        if let AttachTarget::Process { pid, .. } = target {
            if *pid == std::process::id() {
                return Err(SessionError::InvalidArgument(format!(
                    "pid {pid} is dapvisor's own process: it does not debug itself"
                )));
            }
        }
        match self.holder_of(target).await {
            None => Ok(()),
            Some(holder) => Err(SessionError::TargetHeld {
                target: target.to_string(),
                session: Some(holder.id().to_string()),
                owner: holder.owner().map(|o| o.to_string()),
            }),
        }
    }

    /// The live session that holds `target`: the one attached to it, or, for a
    /// process, the one whose adapter it descends from (a launched debuggee, or a
    /// process it started), or whose tree tag it carries (one that daemonized and
    /// left the tree). `None` when no session holds it.
    pub async fn holder_of(&self, target: &AttachTarget) -> Option<SessionHandle> {
        let sessions = self.sessions();
        for session in &sessions {
            let Ok(snapshot) = session.snapshot().await else {
                continue;
            };
            if snapshot.attached_to.is_some_and(|t| t.same_as(target)) {
                return Some(session.clone());
            }
        }
        let AttachTarget::Process { pid, .. } = target else {
            return None;
        };
        let pid = *pid;
        // Reading /proc blocks: off the async threads.
        let (lineage, tagged) = tokio::task::spawn_blocking(move || {
            // Read again while the process is mid-`execve`, which shows no tag.
            let tag = env_var_once_shown(pid, TREE_ENV, MID_EXEC_WAIT);
            let owner = tag.as_deref().and_then(tag_owner);
            (
                ancestry(pid),
                owner.and_then(|id| id.parse::<SessionId>().ok()),
            )
        })
        .await
        .unwrap_or_default();
        let by_lineage = lineage.iter().find_map(|ancestor| {
            sessions
                .iter()
                .find(|s| s.adapter_pid() == Some(*ancestor))
                .cloned()
        });
        by_lineage.or_else(|| sessions.into_iter().find(|s| Some(s.id()) == tagged))
    }
}

/// `pid` and its parents, nearest first, up to [`MAX_ATTACH_ANCESTRY`] of them (init and the
/// kernel's threads aside).
fn ancestry(pid: u32) -> Vec<u32> {
    let mut lineage = Vec::new();
    let mut next = Some(pid);
    while let Some(pid) = next.filter(|p| *p > 1 && lineage.len() < MAX_ATTACH_ANCESTRY) {
        lineage.push(pid);
        next = Stat::read(pid).map(|s| s.ppid);
    }
    lineage
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_claim_on_a_target_waits_for_the_first_to_go() {
        let claims = Arc::new(AttachClaims::default());
        let server = |port| AttachTarget::Server {
            host: "127.0.0.1".into(),
            port,
        };
        let first = claims.take(&server(5678)).unwrap();
        let other_name = AttachTarget::Server {
            host: "localhost".into(),
            port: 5678,
        };
        let refused = claims.take(&other_name).err().unwrap();
        assert!(
            matches!(refused, SessionError::TargetHeld { .. }),
            "{refused}"
        );
        assert!(refused.to_string().contains("another attach"), "{refused}");
        let elsewhere = claims.take(&server(5679)).unwrap();
        drop(first);
        assert!(claims.take(&other_name).is_ok());
        drop(elsewhere);
    }

    #[test]
    fn a_process_lineage_reaches_this_test() {
        let me = std::process::id();
        let lineage = ancestry(me);
        assert_eq!(lineage.first(), Some(&me));
        let parent = Stat::read(me).unwrap().ppid;
        assert!(parent <= 1 || lineage.contains(&parent), "{lineage:?}");
        assert!(lineage.len() <= MAX_ATTACH_ANCESTRY);
    }

    #[test]
    fn a_pid_is_the_process_with_its_start_time_now() {
        let me = std::process::id();
        let spec = AttachSpec {
            pid: Some(me),
            ..AttachSpec::default()
        };
        let start = ProcessId::of(me).map(|p| p.start);
        assert!(start.is_some(), "our own start time");
        assert_eq!(
            Runtime::target_of(&spec),
            Some(AttachTarget::Process { pid: me, start })
        );
        assert_eq!(Runtime::target_of(&AttachSpec::default()), None);
    }

    #[test]
    fn a_port_wins_over_a_pid_and_the_host_defaults_to_loopback() {
        let spec = AttachSpec {
            pid: Some(1),
            port: Some(5678),
            ..AttachSpec::default()
        };
        assert_eq!(
            Runtime::target_of(&spec),
            Some(AttachTarget::Server {
                host: "127.0.0.1".into(),
                port: 5678
            })
        );
    }
}
