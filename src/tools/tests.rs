//! The catalogue's own tests: every tool described in full, with the bounds in force, its
//! profile and an effect its annotations agree with.

use std::time::Duration;

use crate::permission::{tool_effect, Effect};

use super::catalogue::describe;
use super::{served, Bounds, ToolNames, ToolProfile};

#[test]
fn every_placeholder_in_every_tool_is_filled_in() {
    for tool in served(ToolProfile::All, &Bounds::default(), ToolNames::Canonical) {
        let spec = &tool.spec;
        let schema = serde_json::Value::Object(spec.input_schema.clone()).to_string();
        for text in [spec.description.as_str(), schema.as_str()] {
            assert_eq!(describe::unfilled(text), None, "{}: {text}", spec.name);
        }
    }
}

#[test]
fn descriptions_state_the_bounds_in_force() {
    let bounds = Bounds::default()
        .wait(Duration::from_secs(12))
        .max_output_bytes(4096);
    let tools = served(ToolProfile::Core, &bounds, ToolNames::Canonical);
    let spec = |name: &str| &tools.iter().find(|t| t.spec.name == name).unwrap().spec;
    assert!(spec("debug.continue").description.contains("default 12 s"));
    assert!(spec("debug.output")
        .description
        .contains("at most 4 KiB a call"));
    let timeout = &spec("debug.step").input_schema["properties"]["timeout"];
    assert_eq!(
        timeout["description"],
        "Seconds to wait (default 12, at most 300)."
    );
}

#[test]
fn the_core_profile_lists_fewer_tools_and_leaves_arguments_out() {
    let core = served(ToolProfile::Core, &Bounds::default(), ToolNames::Canonical);
    let all = served(ToolProfile::All, &Bounds::default(), ToolNames::Canonical);
    assert!(
        core.len() < all.len() / 2,
        "{} of {}",
        core.len(),
        all.len()
    );
    assert_eq!(core[0].spec.name, "debug.launch");
    let properties = |tools: &[super::ToolDef], name: &str| {
        let tool = tools.iter().find(|t| t.spec.name == name).unwrap();
        tool.spec.input_schema["properties"].clone()
    };
    assert!(properties(&core, "debug.step").get("granularity").is_none());
    assert!(properties(&all, "debug.step").get("granularity").is_some());
    // What a profile leaves out is still named as code, so a call carrying it is
    // still gated.
    let launch = core.iter().find(|t| t.spec.name == "debug.launch").unwrap();
    assert!(launch.spec.code_arguments.contains(&"hit_condition"));
}

#[test]
fn every_tool_has_an_effect_and_annotations_that_agree_with_it() {
    for tool in super::all_tools() {
        let spec = &tool.spec;
        assert_eq!(tool_effect(spec.name), Some(spec.effect), "{}", spec.name);
        let a = spec.annotations;
        if a.read_only {
            assert_eq!(spec.effect, Effect::Read, "{} is read-only", spec.name);
        }
        if matches!(spec.effect, Effect::Code | Effect::Host) {
            assert!(a.destructive && a.open_world, "{}: {a:?}", spec.name);
        }
        if matches!(spec.effect, Effect::Start | Effect::Foreign) {
            assert!(a.open_world, "{}: {a:?}", spec.name);
        }
    }
}
