//! Sources: the [`Source`] descriptor, and the requests that fetch source content
//! (`source`), list loaded sources (`loadedSources`) and resolve location references
//! (`locations`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A descriptor for source code: a file path, or a reference whose content comes
/// from the `source` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    /// The short name of the source (every source from the adapter has one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The path of the source; used to load it unless `source_reference` is above 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// If above 0, the content comes from the `source` request. Valid for one session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_reference: Option<i64>,
    /// How to present the source: `normal`, `emphasize` or `deemphasize`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub presentation_hint: Option<String>,
    /// Where the source comes from, such as `internal module`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// Related sources, such as the ones this one was generated from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<Source>>,
    /// Adapter data the client keeps intact and does not interpret.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adapter_data: Option<Value>,
    /// Checksums of the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checksums: Option<Vec<Checksum>>,
}

/// The checksum of an item.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Checksum {
    /// The algorithm: `MD5`, `SHA1`, `SHA256` or `timestamp`.
    #[serde(default)]
    pub algorithm: String,
    /// The checksum, as a hexadecimal value.
    #[serde(default)]
    pub checksum: String,
}

/// Arguments of the `source` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceArguments {
    /// The source to load; `path` or `source_reference` must be set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// The source reference (the same as `source.source_reference`, for old adapters).
    pub source_reference: i64,
}

/// Body of the `source` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceResponseBody {
    /// The source's content.
    #[serde(default)]
    pub content: String,
    /// The content's MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
}

/// Body of the `loadedSources` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadedSourcesResponseBody {
    /// The loaded sources.
    #[serde(default)]
    pub sources: Vec<Source>,
}

/// Arguments of the `locations` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LocationsArguments {
    /// The location reference to resolve (from a variable or evaluate result).
    pub location_reference: i64,
}

/// Body of the `locations` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LocationsResponseBody {
    /// The source holding the location.
    #[serde(default)]
    pub source: Source,
    /// The location's line.
    #[serde(default)]
    pub line: i64,
    /// The location's column within `line`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<i64>,
    /// The end line, if the location is a range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<i64>,
    /// The end column, if the location is a range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_column: Option<i64>,
}
