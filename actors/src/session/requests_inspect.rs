//! Inspection requests as typed methods of [`SessionHandle`]: variables in pages,
//! assigning variables and expressions, completions, exception details, source text,
//! loaded sources, modules and locations.

use serde_json::json;

use crate::core::state::Operation;
use crate::error::SessionError;
use crate::session::requests::{parse, strip_nulls};
use crate::session::SessionHandle;
use crate::wire::types::{
    CompletionItem, CompletionsResponseBody, ExceptionInfoResponseBody, LoadedSourcesResponseBody,
    LocationsResponseBody, ModulesResponseBody, SetExpressionResponseBody, SetVariableResponseBody,
    Source, SourceResponseBody, Variable, VariablesResponseBody,
};

impl SessionHandle {
    /// A page of the variables under a reference: only `named` or only `indexed`
    /// children when `filter` says so, `count` of them from index `start` (all when
    /// both are `None`). Adapters that cannot page answer with every child; dlv 1.20
    /// answers an `indexed` filter without a `count` with no children at all.
    pub async fn variables_page(
        &self,
        variables_reference: i64,
        filter: Option<&str>,
        start: Option<i64>,
        count: Option<i64>,
    ) -> Result<Vec<Variable>, SessionError> {
        if let Some(f) = filter.filter(|f| !matches!(*f, "named" | "indexed")) {
            return Err(SessionError::InvalidArgument(format!(
                "variables filter `{f}` is neither `named` nor `indexed`"
            )));
        }
        if start.is_some_and(|s| s < 0) || count.is_some_and(|c| c < 0) {
            return Err(SessionError::InvalidArgument(
                "variables start and count count from 0 and cannot be negative".into(),
            ));
        }
        let args = strip_nulls(json!({
            "variablesReference": variables_reference,
            "filter": filter,
            "start": start,
            "count": count,
        }));
        let body: VariablesResponseBody =
            self.call(Operation::Variables, "variables", args).await?;
        Ok(body.variables)
    }

    /// Assign `value` (an expression in the program's language) to the variable `name`
    /// under `variables_reference` (`setVariable`). Returns the new value.
    pub async fn set_variable(
        &self,
        variables_reference: i64,
        name: &str,
        value: &str,
    ) -> Result<SetVariableResponseBody, SessionError> {
        let args = json!({
            "variablesReference": variables_reference,
            "name": name,
            "value": value,
        });
        let mut body = self
            .request(Operation::Modify, "setVariable", Some(args), None)
            .await?;
        // lldb-dap 19 names the new value `result`, as in an evaluate answer.
        if body.get("value").is_none() {
            if let Some(result) = body.get("result").cloned() {
                body["value"] = result;
            }
        }
        parse("setVariable", body)
    }

    /// Assign `value` to the l-value `expression` in `frame_id` (`setExpression`).
    /// Returns the new value.
    pub async fn set_expression(
        &self,
        expression: &str,
        value: &str,
        frame_id: Option<i64>,
    ) -> Result<SetExpressionResponseBody, SessionError> {
        let args = strip_nulls(json!({
            "expression": expression,
            "value": value,
            "frameId": frame_id,
        }));
        self.call(Operation::Modify, "setExpression", args).await
    }

    /// What could complete `text` at `column` (1-based, in characters) in `frame_id`
    /// (`completions`).
    pub async fn completions(
        &self,
        text: &str,
        column: i64,
        frame_id: Option<i64>,
    ) -> Result<Vec<CompletionItem>, SessionError> {
        let args = strip_nulls(json!({ "text": text, "column": column, "frameId": frame_id }));
        let body: CompletionsResponseBody =
            self.call(Operation::Inspect, "completions", args).await?;
        Ok(body.targets)
    }

    /// The exception a thread (the last stopped one by default) stopped on
    /// (`exceptionInfo`).
    pub async fn exception_info(
        &self,
        thread_id: Option<i64>,
    ) -> Result<ExceptionInfoResponseBody, SessionError> {
        let snapshot = self.ready_for(Operation::Inspect).await?;
        let thread = Self::thread_or_stopped(&snapshot, thread_id)?;
        self.call(
            Operation::Inspect,
            "exceptionInfo",
            json!({ "threadId": thread }),
        )
        .await
    }

    /// The text of a source the adapter holds (a frame's or loaded source's
    /// `source_reference` above 0) (`source`).
    pub async fn source(&self, source_reference: i64) -> Result<SourceResponseBody, SessionError> {
        if source_reference <= 0 {
            return Err(SessionError::InvalidArgument(format!(
                "source_reference {source_reference} names no source the adapter holds: \
                 sources with a path are read from disk"
            )));
        }
        let args = json!({
            "source": { "sourceReference": source_reference },
            "sourceReference": source_reference,
        });
        self.call(Operation::Query, "source", args).await
    }

    /// Every source the program has loaded (`loadedSources`).
    pub async fn loaded_sources(&self) -> Result<Vec<Source>, SessionError> {
        let body: LoadedSourcesResponseBody = self
            .call(Operation::Query, "loadedSources", json!({}))
            .await?;
        Ok(body.sources)
    }

    /// A page of the loaded modules: `count` from index `start` (all when `None`),
    /// with `total_modules` always set. The adapter is asked for every module and the
    /// page is cut here: lldb-dap 19 ignores `startModule` and `moduleCount`, and an
    /// answer cannot tell whether they were followed.
    pub async fn modules(
        &self,
        start: Option<i64>,
        count: Option<i64>,
    ) -> Result<ModulesResponseBody, SessionError> {
        if start.is_some_and(|s| s < 0) || count.is_some_and(|c| c < 0) {
            return Err(SessionError::InvalidArgument(
                "module start and count count from 0 and cannot be negative".into(),
            ));
        }
        let all: ModulesResponseBody = self.call(Operation::Query, "modules", json!({})).await?;
        let total = all.modules.len();
        let take = count.filter(|c| *c > 0).map_or(total, |c| c as usize);
        Ok(ModulesResponseBody {
            modules: all
                .modules
                .into_iter()
                .skip(start.unwrap_or(0) as usize)
                .take(take)
                .collect(),
            total_modules: Some(total as i64),
        })
    }

    /// Where a location reference (a variable's `declaration_location_reference` or
    /// `value_location_reference`) points (`locations`).
    pub async fn locations(
        &self,
        location_reference: i64,
    ) -> Result<LocationsResponseBody, SessionError> {
        self.call(
            Operation::Inspect,
            "locations",
            json!({ "locationReference": location_reference }),
        )
        .await
    }
}
