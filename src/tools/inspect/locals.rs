//! A frame's scopes as agents name them, and above all its locals, whatever the
//! adapter calls them: debugpy,
//! lldb-dap and dlv name a scope `Locals`, CodeLLDB names it `Local`, and js-debug
//! spreads a frame's locals over several scopes it marks as locals (`Block: f`, ...,
//! `Local: f`, innermost first). The stop summary's locals and `debug.variables` with
//! scope `"Locals"` both read them from here, so they are the same variables (and,
//! within a stop, the same cached answers: no request of their own).

use crate::wire::types::{Scope, Variable};
use crate::{SessionError, SessionHandle};

use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::spec::ToolError;
use crate::tools::inspect::ids::AgentIds;

/// Whether a scope name an agent gave asks for the locals (`Locals` or `Local`, in
/// any case), for a frame with no scope of that exact name.
fn asks_for_locals(name: &str) -> bool {
    let name = name.trim();
    name.eq_ignore_ascii_case("locals") || name.eq_ignore_ascii_case("local")
}

/// The scopes that hold a frame's locals: every cheap scope the adapter marks as
/// locals when it marks more than one (js-debug), else the scope named Locals, else
/// the first cheap scope (the locals, for debugpy, lldb-dap, dlv and CodeLLDB).
pub(crate) fn locals_scopes(scopes: &[Scope]) -> Vec<&Scope> {
    let cheap = |s: &&Scope| !s.expensive && s.variables_reference > 0;
    let marked: Vec<&Scope> = scopes
        .iter()
        .filter(cheap)
        .filter(|s| s.presentation_hint.as_deref() == Some("locals"))
        .collect();
    if marked.len() > 1 {
        return marked;
    }
    scopes
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case("locals") && s.variables_reference > 0)
        .or_else(|| scopes.iter().find(cheap))
        .into_iter()
        .collect()
}

/// The scopes a name an agent gave means: the one of that name (any case), else, for
/// `Locals` or `Local`, the locals' scopes; none when neither is there.
pub(crate) fn by_name<'a>(scopes: &'a [Scope], name: &str) -> Vec<&'a Scope> {
    match scopes
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
    {
        Some(scope) => vec![scope],
        None if asks_for_locals(name) => locals_scopes(scopes),
        None => Vec::new(),
    }
}

/// The variables of `scopes` (from [`locals_scopes`]), in order: a name that an
/// inner scope shadows is shown once, as the inner scope has it.
pub(crate) async fn gather(
    session: &SessionHandle,
    scopes: &[&Scope],
) -> Result<Vec<Variable>, SessionError> {
    let mut vars: Vec<Variable> = Vec::new();
    for scope in scopes {
        for var in session.variables(scope.variables_reference).await? {
            if !vars.iter().any(|v| v.name == var.name) {
                vars.push(var);
            }
        }
    }
    Ok(vars)
}

/// The scopes of `frame_id` (the top frame by default) that `name` means
/// ([`by_name`]), never none: a 400 listing the frame's scopes instead.
async fn named(
    ctx: &Context,
    session: &SessionHandle,
    name: &str,
    frame_id: Option<i64>,
) -> Result<Vec<Scope>, ToolError> {
    let given = frame_id;
    let frame_id = ctx.frame_or_top(session, frame_id).await?;
    let scopes = session.scopes(frame_id).await.ids(&[("frame_id", given)])?;
    let found: Vec<Scope> = by_name(&scopes, name).into_iter().cloned().collect();
    if found.is_empty() {
        let names: Vec<&str> = scopes.iter().map(|s| s.name.as_str()).collect();
        return Err(ToolError::invalid(
            format!("frame {frame_id} has no scope `{name}`"),
            format!("its scopes are: {}", names.join(", ")),
        ));
    }
    Ok(found)
}

/// What reading scope `name` of `frame_id` lists: its `variables_reference`, and,
/// where the name means locals spread over several scopes, their variables gathered
/// (the reference is then the innermost scope's).
pub(crate) async fn scope_variables(
    ctx: &Context,
    session: &SessionHandle,
    name: &str,
    frame_id: Option<i64>,
) -> Result<(i64, Option<Vec<Variable>>), ToolError> {
    let scopes = named(ctx, session, name, frame_id).await?;
    let reference = scopes[0].variables_reference;
    if scopes.len() == 1 {
        return Ok((reference, None));
    }
    let all: Vec<&Scope> = scopes.iter().collect();
    Ok((reference, Some(gather(session, &all).await?)))
}

/// The `variables_reference` of the scope named `name` in `frame_id` (the top frame
/// by default) that holds `member`: where the locals span several scopes, the
/// innermost one with a variable of that name (the first, if none has it); a 400
/// listing the frame's scopes when there is no such scope.
pub(crate) async fn scope_reference(
    ctx: &Context,
    session: &SessionHandle,
    name: &str,
    frame_id: Option<i64>,
    member: &str,
) -> Result<i64, ToolError> {
    let scopes = named(ctx, session, name, frame_id).await?;
    if scopes.len() > 1 {
        for scope in &scopes {
            let vars = session.variables(scope.variables_reference).await?;
            if vars.iter().any(|v| v.name == member) {
                return Ok(scope.variables_reference);
            }
        }
    }
    Ok(scopes[0].variables_reference)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(name: &str, reference: i64, hint: Option<&str>, expensive: bool) -> Scope {
        serde_json::from_value(serde_json::json!({
            "name": name, "variablesReference": reference, "expensive": expensive,
            "presentationHint": hint,
        }))
        .unwrap()
    }

    fn names<'a>(scopes: &[&'a Scope]) -> Vec<&'a str> {
        scopes.iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn locals_is_the_adapters_own_name_for_them() {
        assert!(asks_for_locals(" Locals") && asks_for_locals("local"));
        assert!(!asks_for_locals("Globals") && !asks_for_locals("Local: f"));
        // debugpy, lldb-dap, dlv: the scope named Locals, wherever it is.
        let named = [
            scope("Globals", 2, None, false),
            scope("Locals", 1, Some("locals"), false),
        ];
        assert_eq!(names(&locals_scopes(&named)), ["Locals"]);
        // CodeLLDB: the first cheap scope, `Local`.
        let codelldb = [
            scope("Local", 1001, None, false),
            scope("Static", 1002, None, false),
            scope("Registers", 1004, None, false),
        ];
        assert_eq!(names(&locals_scopes(&codelldb)), ["Local"]);
        // js-debug: every scope marked locals, innermost first; not the expensive.
        let js = [
            scope("Block: f", 5, Some("locals"), false),
            scope("Local: f", 6, Some("locals"), false),
            scope("Closure", 7, None, false),
            scope("Global", 8, None, true),
        ];
        assert_eq!(names(&locals_scopes(&js)), ["Block: f", "Local: f"]);
        // A frame with no cheap scope has no locals.
        assert!(locals_scopes(&[scope("Global", 8, None, true)]).is_empty());
        // By name: the exact one first, then the locals; nothing for an unknown name.
        assert_eq!(names(&by_name(&codelldb, "local")), ["Local"]);
        assert_eq!(names(&by_name(&codelldb, "Locals")), ["Local"]);
        assert_eq!(names(&by_name(&js, "locals")), ["Block: f", "Local: f"]);
        assert_eq!(names(&by_name(&js, "closure")), ["Closure"]);
        assert!(by_name(&js, "Nowhere").is_empty());
    }
}
