//! Modules (loaded binaries and libraries) and the `modules` request.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A module's ID, which the spec lets be a number or a string (lldb-dap sends UUID
/// strings, others send numbers).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ModuleId {
    /// A numeric ID.
    Number(i64),
    /// A string ID.
    String(String),
}

impl Default for ModuleId {
    /// `Number(0)`: a placeholder for a module whose adapter left the ID out.
    fn default() -> Self {
        ModuleId::Number(0)
    }
}

impl fmt::Display for ModuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModuleId::Number(n) => write!(f, "{n}"),
            ModuleId::String(s) => f.write_str(s),
        }
    }
}

/// A module: a row of the modules view.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Module {
    /// The module's ID, also used by `module` events.
    #[serde(default)]
    pub id: ModuleId,
    /// The module's name.
    #[serde(default)]
    pub name: String,
    /// Full path to the module, usually its file on disk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The module is optimized.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_optimized: Option<bool>,
    /// The module counts as user code ("Just My Code").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_user_code: Option<bool>,
    /// The module's version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Whether symbols were found, for the user (such as `Symbols loaded.`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol_status: Option<String>,
    /// Full path to the symbol file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol_file_path: Option<String>,
    /// When the module was created or modified (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_time_stamp: Option<String>,
    /// The address range the module covers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address_range: Option<String>,
    /// Attributes the spec does not define; the spec allows them (the adapter names
    /// them in `additionalModuleColumns`).
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// Arguments of the `modules` request (`supportsModulesRequest`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModulesArguments {
    /// Index of the first module to return (0 if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_module: Option<i64>,
    /// Number of modules to return; all if absent or 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module_count: Option<i64>,
}

/// Body of the `modules` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModulesResponseBody {
    /// The modules (all, or the requested range).
    #[serde(default)]
    pub modules: Vec<Module>,
    /// The total number of modules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_modules: Option<i64>,
}
