//! Breakpoints in a remote target's files that no path mapping covers. A stack frame
//! of a debug server's target shows such a file marked as the target's
//! (`remote:/usr/lib/python3.11/threading.py`, [`REMOTE_MARK`]); an agent that wants
//! to stop there passes that path back. It goes to the adapter as the target's own
//! path and is reported back marked. The `--root` rule is about this machine's files,
//! so it does not apply to the target's, and nothing of them is read here (a
//! `statement` or `expected_text` needs the file's text: give `line`). A marked path
//! on a session that is not attached to a debug server is refused.

use std::path::{Path, PathBuf};

use crate::path_map::REMOTE_MARK;
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::spec::ToolError;
use crate::{AttachTarget, SessionHandle};

/// The file a breakpoint call on `session` names: a marked remote path as it is, if
/// the session's target is remote; any other resolved by the server's path rules.
pub(crate) async fn breakpoint_file(
    ctx: &Context,
    session: &SessionHandle,
    file: &str,
) -> Result<PathBuf, ToolError> {
    if !file.starts_with(REMOTE_MARK) {
        return ctx.paths.resolve(file, "file");
    }
    let snapshot = session.snapshot().await?;
    let remote = matches!(snapshot.attached_to, Some(AttachTarget::Server { .. }));
    marked(file, remote, &format!("session {}", session.id()))
}

/// The file a breakpoint of a start request names (`debug.launch`, `debug.attach`):
/// a marked remote path as it is when the session it starts is a debug server's
/// (`remote_target`); any other resolved by the server's path rules.
pub(crate) fn start_file(
    ctx: &Context,
    file: &str,
    remote_target: bool,
) -> Result<PathBuf, ToolError> {
    if !file.starts_with(REMOTE_MARK) {
        return ctx.paths.resolve(file, "file");
    }
    marked(file, remote_target, "the session this call starts")
}

/// The marked path `file`, if it is an absolute path of the target and `session`
/// (said so) is `remote`.
fn marked(file: &str, remote: bool, session: &str) -> Result<PathBuf, ToolError> {
    let on_target = file.strip_prefix(REMOTE_MARK).unwrap_or(file);
    if !crate::path_map::is_target_absolute(on_target) {
        return Err(ToolError::invalid(
            format!("`file` {file} names no absolute path on the target after `{REMOTE_MARK}`"),
            "pass the path a stack frame showed, such as \
             remote:/usr/lib/python3.11/threading.py (a Windows target's: \
             remote:C:\\Python311\\Lib\\threading.py)",
        ));
    }
    if !remote {
        return Err(ToolError::invalid(
            format!(
                "`file` {file} is a remote target's file (`{REMOTE_MARK}`), and {session} is \
                 not attached to a remote target (a debug server at host:port): its files \
                 are this machine's"
            ),
            "pass the file's path on this machine, without `remote:`",
        ));
    }
    Ok(PathBuf::from(file))
}

/// Why `file`'s text cannot be read here for `what` (`statement`), if it is a remote
/// target's.
pub(crate) fn unreadable(file: &Path, what: &str) -> Option<ToolError> {
    crate::path_map::is_remote(file).then(|| {
        ToolError::invalid(
            format!(
                "{} is the remote target's file, which dapvisor does not read, so {what} \
                 cannot be found in it",
                file.display()
            ),
            "give the breakpoint's `line` instead",
        )
    })
}
