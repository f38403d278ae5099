//! Breakpoints by statement outlive an edit: each one is remembered with the line it
//! bound to, and `debug.restart` binds it again before the program starts over. A
//! statement that moved takes its breakpoint (condition, log message or tracepoint
//! included) to its new line; one that is gone leaves the breakpoint where it was and
//! says so. Among several lines holding it, the one nearest its old line is taken.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::tracepoint_expressions as collected;
use crate::wire::types::SourceBreakpoint;
use crate::{SessionHandle, SessionId, Tracepoint};

use crate::tools::breakpoints::statement::LineChoice;
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::spec::ToolError;

/// A breakpoint set by statement, and the line it is bound to now.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StatementMark {
    pub file: PathBuf,
    pub statement: String,
    pub near_line: Option<i64>,
    pub line: i64,
}

/// Each session's breakpoints set by statement.
#[derive(Debug, Default)]
pub(crate) struct StatementMarks(Mutex<HashMap<SessionId, Vec<StatementMark>>>);

impl StatementMarks {
    /// Remember `marks` for session `id` (each replacing one at its line); sessions
    /// not in `live` are forgotten.
    pub(crate) fn remember(&self, id: SessionId, marks: Vec<StatementMark>, live: &[SessionId]) {
        if marks.is_empty() {
            return;
        }
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        all.retain(|id, _| live.contains(id));
        let list = all.entry(id).or_default();
        for mark in marks {
            list.retain(|m| !(m.file == mark.file && m.line == mark.line));
            list.push(mark);
        }
    }

    /// Forget the mark of `file` at `line` (every mark of `file` when `None`).
    pub(crate) fn forget(&self, id: SessionId, file: &Path, line: Option<i64>) {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(list) = all.get_mut(&id) {
            list.retain(|m| m.file != file || line.is_some_and(|l| l != m.line));
        }
    }

    fn of(&self, id: SessionId) -> Vec<StatementMark> {
        let all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        all.get(&id).cloned().unwrap_or_default()
    }

    fn moved(&self, id: SessionId, mark: &StatementMark, to: i64) {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(m) = all
            .get_mut(&id)
            .and_then(|list| list.iter_mut().find(|m| *m == mark))
        {
            m.line = to;
        }
    }
}

/// Remember `marks` for `session`.
pub(crate) fn remember(ctx: &Context, session: &SessionHandle, marks: Vec<StatementMark>) {
    let live: Vec<SessionId> = ctx.runtime.sessions().iter().map(|s| s.id()).collect();
    ctx.statements.remember(session.id(), marks, &live);
}

/// Bind `session`'s statement breakpoints again, moving each whose statement moved:
/// a line of text for each one moved or lost.
pub(crate) async fn rebind(
    ctx: &Context,
    session: &SessionHandle,
) -> Result<Vec<String>, ToolError> {
    let marks = ctx.statements.of(session.id());
    if marks.is_empty() {
        return Ok(Vec::new());
    }
    let snapshot = session.snapshot().await?;
    if !snapshot
        .state
        .allowed_operations()
        .contains(&crate::Operation::Restart)
    {
        return Ok(Vec::new()); // the restart is refused: nothing moves
    }
    let mut said = Vec::new();
    for mark in marks {
        let Some(record) = snapshot
            .breakpoints
            .file(&mark.file)
            .iter()
            .find(|r| r.requested.line == mark.line)
        else {
            // Removed some other way (a whole file's list replaced).
            ctx.statements
                .forget(session.id(), &mark.file, Some(mark.line));
            continue;
        };
        let choice = LineChoice {
            statement: Some(&mark.statement),
            near_line: Some(mark.near_line.unwrap_or(mark.line)),
            ..LineChoice::default()
        };
        let place = format!("{}:{}", short(&mark.file), mark.line);
        let line = match choice.resolve(&mark.file) {
            Ok(line) if line == mark.line => continue,
            Ok(line) => line,
            Err(err) => {
                said.push(format!(
                    "{place}: `{}` is no longer found ({}); the breakpoint stays there",
                    mark.statement, err.error
                ));
                continue;
            }
        };
        let requested = record.requested.clone();
        session.remove_breakpoint(&mark.file, mark.line).await?;
        match requested.log_message.as_deref().and_then(collected) {
            Some(collect) => {
                let mut tracepoint = Tracepoint::default();
                tracepoint.line = line;
                tracepoint.condition = requested.condition;
                tracepoint.hit_condition = requested.hit_condition;
                tracepoint.collect = collect;
                session.add_tracepoint(&mark.file, tracepoint).await?;
            }
            None => {
                let breakpoint = SourceBreakpoint { line, ..requested };
                session.add_breakpoint(&mark.file, breakpoint).await?;
            }
        }
        ctx.statements.moved(session.id(), &mark, line);
        said.push(format!(
            "{place}: `{}` moved to line {line}, and its breakpoint with it",
            mark.statement
        ));
    }
    Ok(said)
}

fn short(file: &Path) -> String {
    file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(file: &str, line: i64) -> StatementMark {
        StatementMark {
            file: file.into(),
            statement: "x += 1".into(),
            near_line: None,
            line,
        }
    }

    #[test]
    fn a_mark_replaces_the_one_at_its_line_and_ended_sessions_are_forgotten() {
        let marks = StatementMarks::default();
        let (one, two) = (SessionId(1), SessionId(2));
        marks.remember(one, vec![mark("a.py", 3), mark("a.py", 5)], &[one]);
        marks.remember(one, vec![mark("a.py", 3)], &[one]);
        assert_eq!(marks.of(one).len(), 2);
        marks.remember(two, vec![mark("b.py", 1)], &[two]);
        assert!(marks.of(one).is_empty(), "session 1 ended");
        marks.forget(two, Path::new("b.py"), None);
        assert!(marks.of(two).is_empty());
    }

    #[test]
    fn a_moved_mark_is_found_at_its_new_line() {
        let marks = StatementMarks::default();
        let id = SessionId(1);
        marks.remember(id, vec![mark("a.py", 3)], &[id]);
        marks.moved(id, &mark("a.py", 3), 9);
        assert_eq!(marks.of(id), [mark("a.py", 9)]);
        marks.forget(id, Path::new("a.py"), Some(3));
        assert_eq!(marks.of(id).len(), 1, "only line 9 is marked now");
    }
}
