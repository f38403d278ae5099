//! A launch of a C, C++ or single-file Rust source (`sum.c`, `grade.rs`): no adapter
//! runs a source file, so it is built first for debugging, into a folder of its own
//! kept until the session ends ([`BuiltSource`]). The program runs in the source's
//! folder; a failed build is a failed launch with the compiler's messages. Under a
//! root, a build that reads a file outside it is refused (`forbidden`).

use std::path::Path;

use crate::{BuiltSource, SessionHandle, SourceBuildError, SourceLanguage};

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
        Err(SourceBuildError::ReadsOutside { read }) => Err(ToolError::new(
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
        .with_kind(crate::permission::FORBIDDEN)),
        Err(SourceBuildError::Session(e)) => Err(e.into()),
        Err(e) => Err(ToolError::new(
            500,
            e.to_string(),
            "build it yourself and launch the binary",
        )),
    }
}

/// Keep `built` until `session` has ended (its events end), then remove it.
pub(crate) fn keep_for(built: BuiltSource, session: &SessionHandle) {
    let mut events = session.subscribe();
    tokio::spawn(async move {
        while events.recv().await.is_some() {}
        drop(built);
    });
}
