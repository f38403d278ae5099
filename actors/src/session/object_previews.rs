//! Readable values for an adapter that shows every object as its type and id
//! ([`Quirks::objects_show_as_ids`](crate::quirks::Quirks::objects_show_as_ids):
//! JdiDapServer's `Parcels$Parcel@2177`, `java.util.ArrayList@2176`). Such a value is
//! replaced by a preview made from its children, read with `variables` (a read: no
//! code runs in the program, and the stop cache keeps each answer for the stop):
//!
//! - a boxed primitive (`java.lang.Integer` with one `value`) shows as that value;
//! - a list holding `elementData` and `size` (`ArrayList`, `Vector`) as `[e0, e1]`;
//! - a hash map holding `table` (`HashMap`, `LinkedHashMap`) as `{k=v, k2=v2}`;
//! - any other object (a record among them) as `Parcel[to="Lyon", grams=3500]`, its
//!   fields in the adapter's order.
//!
//! Fields, elements and entries that are objects are previewed one level down;
//! deeper ones keep their ids. Each call reads at most [`MAX_PREVIEW_READS`] answers; a preview
//! shows at most [`MAX_PREVIEW_ITEMS`] elements, entries or fields, then `…`. The
//! children stay where they were (`variables_reference`), so nothing is lost.

use std::future::Future;
use std::pin::Pin;

use crate::session::SessionHandle;
use crate::wire::types::Variable;

use crate::limits::{MAX_PREVIEW_ITEMS, MAX_PREVIEW_READS};

/// What is left of a call's reads.
struct Reads(usize);

impl SessionHandle {
    /// `variables` with their objects previewed, where the session's adapter shows
    /// objects as ids; as they are anywhere else.
    pub(crate) async fn with_previews(&self, mut variables: Vec<Variable>) -> Vec<Variable> {
        let shows_ids = self
            .snapshot()
            .await
            .ok()
            .and_then(|s| s.adapter_flavor)
            .is_some_and(|f| f.quirks().objects_show_as_ids);
        if !shows_ids {
            return variables;
        }
        let mut reads = Reads(MAX_PREVIEW_READS);
        for variable in &mut variables {
            if let Some(preview) = self.preview(variable, 1, &mut reads).await {
                variable.value = preview;
            }
        }
        variables
    }

    /// The preview of `variable` when it is an object shown as its id, looking
    /// `depth` levels further into its elements; `None` to leave it as it is.
    fn preview<'a>(
        &'a self,
        variable: &'a Variable,
        depth: usize,
        reads: &'a mut Reads,
    ) -> Pin<Box<dyn Future<Output = Option<String>> + Send + 'a>> {
        Box::pin(async move {
            if !is_object_id(&variable.value) || variable.variables_reference <= 0 {
                return None;
            }
            let children = self.read(variable.variables_reference, reads).await?;
            let child = |name: &str| children.iter().find(|c| c.name == name);
            // The runtime class, where the declared type is an interface (`List`).
            let type_name = object_class(&variable.value).unwrap_or_default();
            if type_name.starts_with("java.lang.") && children.len() == 1 {
                if let Some(value) = child("value") {
                    return Some(value.value.clone());
                }
            }
            if let (Some(elements), Some(size)) = (child("elementData"), child("size")) {
                let size: usize = size.value.parse().ok()?;
                let elements = self.read(elements.variables_reference, reads).await?;
                let mut shown = Vec::new();
                for element in elements.iter().take(size.min(MAX_PREVIEW_ITEMS)) {
                    shown.push(self.shown(element, depth, reads).await);
                }
                return Some(format!("[{}]", listed(shown, size)));
            }
            if let (Some(table), Some(size)) = (child("table"), child("size")) {
                let size: usize = size.value.parse().ok()?;
                let buckets = match table.variables_reference {
                    0 => Vec::new(),
                    reference => self.read(reference, reads).await?,
                };
                let mut shown = Vec::new();
                for node in buckets.iter().filter(|b| b.variables_reference > 0) {
                    if shown.len() == MAX_PREVIEW_ITEMS {
                        break;
                    }
                    let entry = self.read(node.variables_reference, reads).await?;
                    let part = |name: &str| entry.iter().find(|c| c.name == name);
                    let (Some(key), Some(value)) = (part("key"), part("value")) else {
                        return None;
                    };
                    let key = self.shown(key, depth, reads).await;
                    shown.push(format!("{key}={}", self.shown(value, depth, reads).await));
                }
                return Some(format!("{{{}}}", listed(shown, size)));
            }
            let mut fields = Vec::new();
            for field in children.iter().take(MAX_PREVIEW_ITEMS) {
                let shown = self.shown(field, depth, reads).await;
                fields.push(format!("{}={shown}", field.name));
            }
            Some(format!(
                "{}[{}]",
                short_name(type_name),
                listed(fields, children.len())
            ))
        })
    }

    /// How an element or entry shows in its container's preview.
    async fn shown(&self, variable: &Variable, depth: usize, reads: &mut Reads) -> String {
        if depth == 0 {
            return variable.value.clone();
        }
        match self.preview(variable, depth - 1, reads).await {
            Some(preview) => preview,
            None => variable.value.clone(),
        }
    }

    /// The children under `reference`, if a read is left and the adapter answers.
    async fn read(&self, reference: i64, reads: &mut Reads) -> Option<Vec<Variable>> {
        if reads.0 == 0 || reference <= 0 {
            return None;
        }
        reads.0 -= 1;
        self.raw_variables(reference).await.ok()
    }
}

/// `shown`, joined, with `…` where `total` has more.
fn listed(shown: Vec<String>, total: usize) -> String {
    let more = total > shown.len();
    let mut text = shown.join(", ");
    if more {
        text.push_str(if text.is_empty() { "…" } else { ", …" });
    }
    text
}

/// Whether `value` is an object as JdiDapServer names it: `CLASS@ID` for a variable,
/// `instance of CLASS(id=ID)` for an array's element (JDI's own text).
fn is_object_id(value: &str) -> bool {
    object_class(value).is_some()
}

/// The class of an object named as [`is_object_id`] says.
fn object_class(value: &str) -> Option<&str> {
    let (class, id) = match value.strip_prefix("instance of ") {
        Some(rest) => rest.strip_suffix(')')?.rsplit_once("(id=")?,
        None => value.rsplit_once('@')?,
    };
    let is_class = !class.is_empty()
        && class
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '$' | '_'));
    let is_id = !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit());
    (is_class && is_id).then_some(class)
}

/// A class's own name: `Parcels$Parcel` and `shop.Parcel` are `Parcel`.
fn short_name(class: &str) -> &str {
    class.rsplit(['.', '$']).next().unwrap_or(class)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_class_at_an_id_is_an_object_id() {
        assert!(is_object_id("java.util.ArrayList@2176"));
        assert!(is_object_id("Parcels$Parcel@2177"));
        assert_eq!(
            object_class("instance of Parcels$Parcel(id=2186)"),
            Some("Parcels$Parcel")
        );
        assert!(!is_object_id("instance of (id=3)"));
        for not in ["\"a@1\"", "3500", "int[][3]", "x@", "@12", "a b@1", "null"] {
            assert!(!is_object_id(not), "{not}");
        }
        assert_eq!(short_name("Parcels$Parcel"), "Parcel");
        assert_eq!(short_name("java.util.HashMap"), "HashMap");
        assert_eq!(listed(vec!["1".into(), "2".into()], 2), "1, 2");
        assert_eq!(listed(vec!["1".into()], 5), "1, …");
        assert_eq!(listed(Vec::new(), 3), "…");
    }
}
