//! What a value shown under a secret name is: its quotes, and whether it can hide
//! anything at all.

/// Values that hold no secret, whatever their name: nothing, a flag, or dapvisor's own
/// marker.
const PLAIN: &[&str] = &[
    "None",
    "null",
    "nil",
    "NULL",
    "nullptr",
    "undefined",
    "True",
    "False",
    "true",
    "false",
];

/// The byte range of `value` inside one pair of quotes (`'x'`, `"x"`, `` `x` ``, with a
/// string prefix such as `b'x'` or `u"x"`), or all of it.
pub(crate) fn core(value: &str) -> (usize, usize) {
    let trimmed_start = value.len() - value.trim_start().len();
    let trimmed_end = value.trim_end().len();
    if trimmed_start >= trimmed_end {
        return (0, value.len());
    }
    let inner = &value[trimmed_start..trimmed_end];
    let bytes = inner.as_bytes();
    let prefix = bytes
        .iter()
        .take(2)
        .take_while(|b| b"bBrRuUfF".contains(b))
        .count();
    if let (Some(&open), Some(&close)) = (bytes.get(prefix), bytes.last()) {
        if inner.len() >= prefix + 2 && b"'\"`".contains(&open) && open == close {
            return (trimmed_start + prefix + 1, trimmed_start + inner.len() - 1);
        }
    }
    (trimmed_start, trimmed_end)
}

/// Whether `core` (a value without its quotes) shows nothing of a secret: empty, a
/// null or a boolean, an object's description (`<function f at 0x7f>`,
/// `<not available>`), or already redacted.
pub(crate) fn is_plain(core: &str) -> bool {
    let core = core.trim();
    core.is_empty()
        || PLAIN.contains(&core)
        || core.starts_with('«')
        || (core.starts_with('<') && core.ends_with('>'))
}
