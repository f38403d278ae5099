//! Session owners: who a session belongs to ([`Owner`]) and who else may drive it
//! ([`SharedWith`]), together an [`Ownership`]. A host that serves several clients
//! (the MCP server over HTTP names its clients `c1`, `c2`, ...) tags each session with
//! the client that started it, through [`Runtime::owned_by`](crate::Runtime::owned_by),
//! and lists a client's sessions with
//! [`Runtime::sessions_owned_by`](crate::Runtime::sessions_owned_by).
//!
//! The runtime only records ownership; the host enforces it. A session with no owner
//! is anyone's: embedders that never tag sessions see no change.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// A client of the host that can own sessions, by an id the host chooses: 1 to
/// [`Owner::MAX_LEN`] ASCII letters, digits, `-`, `_` or `.`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Owner(Arc<str>);

impl Owner {
    /// The longest id: 64 characters.
    pub const MAX_LEN: usize = 64;

    /// The owner called `id`, or why it cannot be one (empty, too long, or a
    /// character other than ASCII letters, digits, `-`, `_`, `.`; `*` means every
    /// client in a share, so it is no one's id).
    pub fn new(id: &str) -> Result<Self, String> {
        if id.is_empty() || id.len() > Self::MAX_LEN {
            return Err(format!(
                "a client id has 1 to {} characters; `{id}` has {}",
                Self::MAX_LEN,
                id.len()
            ));
        }
        if let Some(bad) = id
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
        {
            return Err(format!(
                "a client id is made of ASCII letters, digits, `-`, `_` and `.`; `{id}` has `{bad}`"
            ));
        }
        Ok(Self(id.into()))
    }

    /// The id.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for Owner {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::new(s.trim())
    }
}

/// Who besides its owner may drive a session.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum SharedWith {
    /// No one: the owner alone.
    #[default]
    Nobody,
    /// These clients.
    Clients(BTreeSet<Owner>),
    /// Every client.
    Everyone,
}

/// Who a session belongs to, and who else may drive it (control it, run code in it,
/// end it). Reading a session needs no ownership.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ownership {
    /// The owner; `None`: the session is anyone's.
    pub owner: Option<Owner>,
    /// Who else may drive it.
    pub shared_with: SharedWith,
}

impl Ownership {
    /// A session owned by `owner` (or by no one), shared with no one.
    pub fn new(owner: Option<Owner>) -> Self {
        Self {
            owner,
            shared_with: SharedWith::Nobody,
        }
    }

    /// Whether `caller` may drive the session: anyone may drive a session with no
    /// owner, the host itself (`None`, no client) any session; otherwise its owner,
    /// and the clients it is shared with.
    pub fn may_drive(&self, caller: Option<&Owner>) -> bool {
        let (Some(owner), Some(caller)) = (&self.owner, caller) else {
            return true;
        };
        owner == caller
            || match &self.shared_with {
                SharedWith::Nobody => false,
                SharedWith::Everyone => true,
                SharedWith::Clients(clients) => clients.contains(caller),
            }
    }

    /// Let `with` drive the session too: one client, or (`None`) every client.
    pub fn share(&mut self, with: Option<Owner>) {
        match (with, &mut self.shared_with) {
            (None, shared) => *shared = SharedWith::Everyone,
            (Some(_), SharedWith::Everyone) => {}
            (Some(client), SharedWith::Clients(clients)) => {
                clients.insert(client);
            }
            (Some(client), shared @ SharedWith::Nobody) => {
                *shared = SharedWith::Clients(BTreeSet::from([client]));
            }
        }
    }

    /// Stop letting `with` drive the session: one client, or (`None`) everyone it was
    /// shared with. A session shared with every client cannot stop for one of them
    /// alone (who else should keep it is not known): that is refused, saying so.
    pub fn stop_sharing(&mut self, with: Option<&Owner>) -> Result<(), String> {
        match (with, &mut self.shared_with) {
            (None, shared) => *shared = SharedWith::Nobody,
            (Some(client), SharedWith::Everyone) => {
                return Err(format!(
                    "the session is shared with every client, so it cannot stop for {client} \
                     alone: stop sharing it with \"*\", then share it with each client that \
                     should keep it"
                ))
            }
            (Some(client), shared @ SharedWith::Clients(_)) => {
                if let SharedWith::Clients(clients) = shared {
                    clients.remove(client);
                    if clients.is_empty() {
                        *shared = SharedWith::Nobody;
                    }
                }
            }
            (Some(_), SharedWith::Nobody) => {}
        }
        Ok(())
    }

    /// Make `to` the owner. The sharing ends with the handover: the new owner decides
    /// whom to share with, and the old one keeps no access.
    pub fn hand_over(&mut self, to: Owner) {
        self.owner = Some(to);
        self.shared_with = SharedWith::Nobody;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner(id: &str) -> Owner {
        Owner::new(id).unwrap()
    }

    #[test]
    fn ids_are_short_and_plain() {
        assert_eq!(owner("c1").as_str(), "c1");
        assert_eq!(" c2 ".parse::<Owner>().unwrap().to_string(), "c2");
        assert!(Owner::new("").unwrap_err().contains("1 to 64"));
        assert!(Owner::new("*").unwrap_err().contains("`*`"));
        assert!(Owner::new(&"x".repeat(65)).is_err());
    }

    #[test]
    fn the_owner_and_those_it_shares_with_drive_and_a_handover_moves_it_all() {
        let (a, b, c) = (owner("c1"), owner("c2"), owner("c3"));
        let mut ownership = Ownership::new(Some(a.clone()));
        assert!(ownership.may_drive(Some(&a)));
        assert!(!ownership.may_drive(Some(&b)));
        assert!(ownership.may_drive(None), "the host drives every session");
        ownership.share(Some(b.clone()));
        assert!(ownership.may_drive(Some(&b)) && !ownership.may_drive(Some(&c)));
        ownership.share(None);
        assert!(ownership.may_drive(Some(&c)));
        // Stopped for one, then for everyone.
        ownership.share(Some(c.clone()));
        assert!(ownership
            .stop_sharing(Some(&c))
            .unwrap_err()
            .contains("every client"));
        ownership.stop_sharing(None).unwrap();
        assert!(!ownership.may_drive(Some(&b)) && !ownership.may_drive(Some(&c)));
        ownership.share(Some(b.clone()));
        ownership.share(Some(c.clone()));
        ownership.stop_sharing(Some(&b)).unwrap();
        assert!(!ownership.may_drive(Some(&b)) && ownership.may_drive(Some(&c)));
        ownership.stop_sharing(Some(&c)).unwrap();
        assert_eq!(ownership.shared_with, SharedWith::Nobody);
        ownership.hand_over(b.clone());
        assert_eq!(ownership.owner, Some(b.clone()));
        assert!(!ownership.may_drive(Some(&a)) && !ownership.may_drive(Some(&c)));
        assert!(ownership.may_drive(Some(&b)));
        // No owner: anyone's.
        assert!(Ownership::default().may_drive(Some(&c)));
    }
}
