//! Inspection requests as typed methods of [`SessionHandle`]: variables in pages,
//! assigning variables and expressions, completions, exception details, source text,
//! loaded sources, modules and locations.

use crate::core::state::Operation;
use crate::error::SessionError;
use crate::session::requests::read_answer;
use crate::session::SessionHandle;
use crate::wire::typed_requests::{
    Completions, ExceptionInfo, LoadedSources, Locations, Modules, NoArguments, SetExpression,
    SetVariable, Source as SourceRequest, Variables,
};
use crate::wire::types::{
    CompletionItem, CompletionsArguments, ExceptionInfoArguments, ExceptionInfoResponseBody,
    LocationsArguments, LocationsResponseBody, ModulesArguments, ModulesResponseBody,
    SetExpressionArguments, SetExpressionResponseBody, SetVariableArguments,
    SetVariableResponseBody, Source, SourceArguments, SourceResponseBody, Variable,
    VariablesArguments,
};
use crate::wire::RawJson;

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
        let body = self
            .call::<Variables>(VariablesArguments {
                variables_reference,
                filter: filter.map(str::to_string),
                start,
                count,
                format: None,
            })
            .await?;
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
        let answer = self
            .send_typed::<SetVariable>(SetVariableArguments {
                variables_reference,
                name: name.to_string(),
                value: value.to_string(),
                format: None,
            })
            .await?;
        // lldb-dap 19 names the new value `result`, as in an evaluate answer.
        let mut body = answer.to_value();
        if body.get("value").is_none() {
            if let Some(result) = body.get("result").cloned() {
                body["value"] = result;
            }
        }
        read_answer::<SetVariable>(&RawJson::from_value(&body))
    }

    /// Assign `value` to the l-value `expression` in `frame_id` (`setExpression`).
    /// Returns the new value.
    pub async fn set_expression(
        &self,
        expression: &str,
        value: &str,
        frame_id: Option<i64>,
    ) -> Result<SetExpressionResponseBody, SessionError> {
        self.call::<SetExpression>(SetExpressionArguments {
            expression: expression.to_string(),
            value: value.to_string(),
            frame_id,
            format: None,
        })
        .await
    }

    /// What could complete `text` at `column` (1-based, in characters) in `frame_id`
    /// (`completions`).
    pub async fn completions(
        &self,
        text: &str,
        column: i64,
        frame_id: Option<i64>,
    ) -> Result<Vec<CompletionItem>, SessionError> {
        let body = self
            .call::<Completions>(CompletionsArguments {
                text: text.to_string(),
                column,
                frame_id,
                line: None,
            })
            .await?;
        Ok(body.targets)
    }

    /// The exception a thread (the last stopped one by default) stopped on
    /// (`exceptionInfo`).
    pub async fn exception_info(
        &self,
        thread_id: Option<i64>,
    ) -> Result<ExceptionInfoResponseBody, SessionError> {
        let snapshot = self.ready_for(Operation::Inspect).await?;
        let thread_id = Self::thread_or_stopped(&snapshot, thread_id)?;
        self.call::<ExceptionInfo>(ExceptionInfoArguments { thread_id })
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
        self.call::<SourceRequest>(SourceArguments {
            source: Some(Source {
                source_reference: Some(source_reference),
                ..Source::default()
            }),
            source_reference,
        })
        .await
    }

    /// Every source the program has loaded (`loadedSources`).
    pub async fn loaded_sources(&self) -> Result<Vec<Source>, SessionError> {
        let body = self.call::<LoadedSources>(NoArguments).await?;
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
        let all = self.call::<Modules>(ModulesArguments::default()).await?;
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
        self.call::<Locations>(LocationsArguments { location_reference })
            .await
    }
}
