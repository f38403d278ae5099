//! A launch of a C, C++ or single-file Rust source (`sum.c`, `grade.rs`): no adapter
//! runs a source file, so it is built first for debugging, into a folder of its own
//! kept until the session ends ([`BuiltSource`]). The program runs in the source's
//! folder; a failed build is a failed launch with the compiler's messages. Under a
//! root, a build that reads a file outside it is refused (`forbidden`). A
//! `debug.restart` builds it again first: the source was likely edited, and running
//! the old binary against the new source would show lines that are not the code run.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::{BuiltSource, SessionHandle, SessionId, SourceBuildError, SourceLanguage};

use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::spec::ToolError;

/// `program` built, when it is a source file of a language built from one file;
/// `None` for any other program.
pub(crate) async fn build(ctx: &Context, program: &Path) -> Result<Option<BuiltSource>, ToolError> {
    if SourceLanguage::of(program).is_none() {
        return Ok(None);
    }
    let root = ctx.paths.root();
    match BuiltSource::build(program, root, ctx.bounds.test_build_timeout).await {
        Ok(built) => Ok(Some(built)),
        Err(e) => Err(build_failed(ctx, program, e)),
    }
}

/// `session`'s source built again before a restart, when it was launched from one:
/// the source and a line saying so, or `None` for any other session. A failed build
/// fails the restart and leaves the session as it was.
pub(crate) async fn rebuild(
    ctx: &Context,
    session: &SessionHandle,
) -> Result<Option<(PathBuf, String)>, ToolError> {
    let Some((source, built)) = ctx.builds.of(session.id()) else {
        return Ok(None);
    };
    let root = ctx.paths.root();
    built
        .rebuild(&source, root, ctx.bounds.test_build_timeout)
        .await
        .map_err(|e| {
            let mut err = build_failed(ctx, &source, e);
            if err.code == 500 && err.kind != crate::permission::FORBIDDEN {
                // Nothing was restarted: the session is where it was, on the old build.
                err.hint = format!(
                    "fix the source and call {} again; the session is as it was, \
                     running the build from before the edit",
                    ctx.tool("debug.restart")
                );
            }
            err
        })?;
    let said = format!("rebuilt {} for debugging", source.display());
    Ok(Some((source, said)))
}

fn build_failed(ctx: &Context, program: &Path, err: SourceBuildError) -> ToolError {
    let root = ctx.paths.root();
    match err {
        SourceBuildError::ReadsOutside { read } => ToolError::new(
            500,
            format!(
                "building {} reads {}, outside the root; this server only debugs under {} \
                 (the compiler's messages are withheld)",
                program.display(),
                read.display(),
                root.map(|r| r.display().to_string()).unwrap_or_default()
            ),
            "keep every file the program includes inside the root",
        )
        .with_kind(crate::permission::FORBIDDEN),
        SourceBuildError::Session(e) => e.into(),
        other => ToolError::new(
            500,
            other.to_string(),
            "build it yourself and launch the binary",
        ),
    }
}

/// Each session's source and its build, kept until the session ends.
#[derive(Debug, Default)]
pub(crate) struct SourceBuilds(Mutex<HashMap<SessionId, (PathBuf, Arc<BuiltSource>)>>);

impl SourceBuilds {
    fn of(&self, id: SessionId) -> Option<(PathBuf, Arc<BuiltSource>)> {
        let all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        all.get(&id).cloned()
    }
}

/// Keep `built` (from `source`) until `session` has ended (its events end), then
/// remove it.
pub(crate) fn keep_for(
    ctx: &Context,
    source: PathBuf,
    built: BuiltSource,
    session: &SessionHandle,
) {
    let builds = Arc::clone(&ctx.builds);
    let id = session.id();
    builds
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id, (source, Arc::new(built)));
    let mut events = session.subscribe();
    tokio::spawn(async move {
        while events.recv().await.is_some() {}
        // The last holder: a rebuild under way holds it until it is done.
        builds
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
    });
}
