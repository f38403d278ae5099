//! A person's editor on an agent's session (`debug.expose`): a DAP server endpoint on
//! 127.0.0.1 for one session, which any DAP client joins (VS Code with `debugServer`,
//! nvim-dap with a server adapter) by showing a fresh token in its `attach`
//! arguments. The editor sees the session as the agent does (its stop, threads,
//! stack, variables, sources, evaluations as the permission gate allows) and its
//! events as they happen; it moves the program only when the owner exposed it with
//! `control: true`, and each move it makes is kept for the agent's next look.
//!
//! It lives in the agent surface, not the runtime: what an editor may do is rated by
//! the permission gate and the session's owner, which are this crate's. The pure
//! parts (what each command may do, the conversation, the events, the snippets) are
//! tested synchronously; `server.rs` and `connection.rs` carry them over the socket,
//! framed by the runtime's own DAP codec.

mod access;
mod activity;
mod connection;
mod conversation;
mod events;
mod framing;
mod moves;
mod server;
mod setup;
mod setup_file;
mod token;
mod turn_away;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

pub use access::{access_of, IdeAccess};
pub use activity::{EditorActivity, EditorActivityFeed, EditorDid, EDITOR_ACTIVITY_BACKLOG};
pub use connection::{
    EDITOR_BACKLOG, EDITOR_HANDSHAKE_TIMEOUT, MAX_EDITOR_MESSAGE_BYTES,
    MAX_EDITOR_REQUESTS_IN_FLIGHT,
};
pub use conversation::Ask;
pub use moves::{EditorMove, EditorMoves, MovesSeen, MAX_KEPT_EDITOR_MOVES};
pub use server::{EditorGate, EDITOR_FLUSH_TIMEOUT, MAX_EXPOSED_CLIENTS};
pub use setup::{nvim_dap, vscode, vscode_type};
pub use setup_file::EXPOSED_DIR;
pub use token::TOKEN_FIELD;
pub use turn_away::{EDITOR_REFUSAL_TIMEOUT, MAX_EDITORS_BEING_TURNED_AWAY};

use dapvisor_actors::{Owner, SessionHandle, SessionId};

/// The largest cap a setter takes on the editors of one exposure: 64.
pub const MAX_EXPOSED_CLIENTS_LIMIT: usize = 64;

/// `clients` if it is a valid cap on the editors of one exposure (1 to
/// [`MAX_EXPOSED_CLIENTS_LIMIT`]), else why not.
pub fn check_max_clients(clients: usize) -> Result<usize, String> {
    if (1..=MAX_EXPOSED_CLIENTS_LIMIT).contains(&clients) {
        Ok(clients)
    } else {
        Err(format!(
            "at most {clients} editors per exposed session: it must be 1 to \
             {MAX_EXPOSED_CLIENTS_LIMIT} (default {MAX_EXPOSED_CLIENTS})"
        ))
    }
}

/// An exposure that is open.
#[derive(Debug, Clone)]
pub struct OpenExposure {
    /// Where editors connect.
    pub address: SocketAddr,
    /// The token they show.
    pub token: String,
    /// Whether editors may drive the session.
    pub control: bool,
    /// The VS Code `launch.json` configuration that joins it.
    pub vscode: serde_json::Value,
    /// The nvim-dap Lua that joins it.
    pub nvim_dap: String,
    /// The file (the user's only) that holds all of the above, for the person: an
    /// agent's answer hides the token.
    pub file: PathBuf,
}

struct Entry {
    generation: u64,
    open: OpenExposure,
    closer: server::Closer,
}

impl Entry {
    fn close(self, why: &str) {
        self.closer.close(why);
        setup_file::remove(&self.open.file);
    }
}

/// The open exposures of one catalogue, one at most per session, and the moves their
/// editors made.
pub struct Exposures {
    open: Mutex<HashMap<SessionId, Entry>>,
    generations: std::sync::atomic::AtomicU64,
    moves: Arc<EditorMoves>,
    max_clients: usize,
    home: PathBuf,
}

impl Default for Exposures {
    fn default() -> Self {
        Self {
            open: Mutex::default(),
            generations: Default::default(),
            moves: Arc::default(),
            max_clients: MAX_EXPOSED_CLIENTS,
            home: dapvisor_actors::registry::dapvisor_home(),
        }
    }
}

impl std::fmt::Debug for Exposures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exposures")
            .field("open", &self.lock().len())
            .finish()
    }
}

impl Drop for Exposures {
    /// The catalogue is gone: its endpoints close, and their files go.
    fn drop(&mut self) {
        let open = std::mem::take(&mut *self.lock());
        for (_, entry) in open {
            entry.close("dapvisor's tool catalogue was dropped");
        }
    }
}

impl Exposures {
    /// Exposures whose endpoints take at most `max_clients` editors each (see
    /// [`check_max_clients`]).
    pub fn with_max_clients(max_clients: usize) -> Result<Self, String> {
        let mut exposures = Self::default();
        exposures.max_clients = check_max_clients(max_clients)?;
        Ok(exposures)
    }

    /// The most editors one endpoint takes.
    pub fn max_clients(&self) -> usize {
        self.max_clients
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, Entry>> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The moves editors made, for the agent's next look.
    pub fn moves(&self) -> &Arc<EditorMoves> {
        &self.moves
    }

    /// Expose `session` (owned by `owner`, debugged by `adapter`) to editors; one
    /// already open for it is closed first (its token no longer works).
    pub async fn expose(
        self: &Arc<Self>,
        session: SessionHandle,
        owner: Option<Owner>,
        control: bool,
        adapter: &str,
        gate: Arc<dyn EditorGate>,
    ) -> Result<OpenExposure, String> {
        let id = session.id();
        let name = id.to_string();
        setup_file::sweep(&self.home);
        self.close(id, "the session was exposed again, with a new token");
        let generation = self
            .generations
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let exposures = Arc::downgrade(self);
        let opened = server::open(
            server::Exposure {
                session,
                owner,
                control,
                gate,
                moves: self.moves.clone(),
                max_clients: self.max_clients,
            },
            move || {
                if let Some(exposures) = exposures.upgrade() {
                    exposures.forget(id, generation);
                }
            },
        )
        .await?;
        let token = opened.token.secret().to_string();
        let address = opened.address;
        let open = OpenExposure {
            address,
            vscode: setup::vscode(&name, adapter, address, &token),
            nvim_dap: setup::nvim_dap(&name, address, &token),
            file: setup_file::path_for(&self.home, &name, address.port()),
            token,
            control,
        };
        let written = serde_json::json!({
            "session_id": name,
            "address": address.to_string(),
            "token": open.token,
            "control": control,
            "vscode": open.vscode,
            "nvim_dap": open.nvim_dap,
        });
        if let Err(e) = setup_file::write(&open.file, &written) {
            opened.closer.close("its file could not be written");
            return Err(e);
        }
        self.lock().insert(
            id,
            Entry {
                generation,
                open: open.clone(),
                closer: opened.closer.clone(),
            },
        );
        // The endpoint may have closed meanwhile (the session ended) before its entry
        // was there to be forgotten.
        if opened.closer.is_closed() {
            self.forget(id, generation);
        }
        Ok(open)
    }

    /// The exposure open for `session`, if any.
    pub fn get(&self, session: SessionId) -> Option<OpenExposure> {
        self.lock().get(&session).map(|e| e.open.clone())
    }

    /// Close the exposure of `session`, telling its editors `why`; whether one was
    /// open.
    pub fn close(&self, session: SessionId, why: &str) -> bool {
        let entry = self.lock().remove(&session);
        match entry {
            Some(entry) => {
                entry.close(why);
                true
            }
            None => false,
        }
    }

    /// The endpoint of exposure `generation` of `session` has ended: its entry and
    /// file go (unless a newer exposure of the session holds the place).
    fn forget(&self, session: SessionId, generation: u64) {
        let mut open = self.lock();
        if open
            .get(&session)
            .is_some_and(|e| e.generation == generation)
        {
            if let Some(entry) = open.remove(&session) {
                entry.close("the exposure ended");
            }
        }
    }
}
