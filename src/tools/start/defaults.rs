//! What a launch or attach sets when the agent does not say: the adapter's filter for
//! uncaught exceptions, so that a crash stops where it happens (with the exception in
//! the stop) instead of ending the run, and where the adapter has no such filter for a
//! Rust program (lldb-dap), a breakpoint on the function every panic calls. `filters:
//! []` turns both off.

use crate::registry::AdapterDef;

/// The exception filters of `adapter` that stop on an exception nothing handles, as
/// its family's quirks name them: debugpy's and js-debug's `uncaught`, CodeLLDB's
/// `rust_panic`; none for lldb-dap (only throw and catch filters) and dlv (it stops on
/// an unrecovered panic by itself).
pub(crate) fn uncaught_exception_filters(adapter: Option<&AdapterDef>) -> Vec<String> {
    adapter.map_or_else(Vec::new, |def| {
        let filters = def.flavor.uncaught_exception_filters();
        filters.iter().map(|f| f.to_string()).collect()
    })
}

/// The function breakpoints that stop a launch of `spec` where a Rust program panics,
/// on an adapter with no panic filter (lldb-dap: `rust_panic`); off with `filters: []`
/// as the uncaught filters are.
pub(crate) fn panic_function_breakpoints(
    adapter: Option<&AdapterDef>,
    spec: &crate::LaunchSpec,
) -> Vec<String> {
    adapter.map_or_else(Vec::new, |def| def.flavor.panic_function_breakpoints(spec))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::AdapterRegistry;

    #[test]
    fn each_adapter_with_an_uncaught_filter_gets_it_and_the_rest_none() {
        let registry = AdapterRegistry::builtin();
        let filters = |name: &str| uncaught_exception_filters(registry.get(name));
        assert_eq!(filters("debugpy"), ["uncaught"]);
        assert_eq!(filters("js-debug"), ["uncaught"]);
        assert_eq!(filters("codelldb"), ["rust_panic"]);
        assert!(filters("lldb-dap").is_empty());
        assert!(filters("dlv").is_empty());
        assert!(uncaught_exception_filters(None).is_empty());
    }
}
