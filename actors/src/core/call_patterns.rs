//! Call-trace patterns: which functions a session records the calls of. A pattern is
//! `name`, `module.name` (`pkg.Type.method` in Go), or `file:function`, with `*`
//! globs in any part. Plain text in, a checked pattern out; matching a stopped frame
//! against one is plain too.

use serde::{Deserialize, Serialize};

use crate::error::SessionError;
use crate::limits;

/// One checked pattern.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallPattern {
    /// As the agent wrote it.
    pub text: String,
    /// The file part of `file:function`.
    file: Option<String>,
    /// `module.name` split at its dots (one part for a plain name).
    parts: Vec<String>,
}

impl CallPattern {
    /// Check and split `text`; refused with what is wrong and what to write instead.
    pub fn parse(text: &str) -> Result<Self, SessionError> {
        let bad = |why: &str| {
            Err(SessionError::InvalidArgument(format!(
                "the call pattern {text:?} {why}: write `name`, `module.name` (`pkg.Type.method` \
                 in Go) or `file:function`, with `*` globs"
            )))
        };
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return bad("is empty");
        }
        if trimmed.len() > limits::MAX_CALL_PATTERN_BYTES {
            return bad("is too long");
        }
        let (file, function) = match trimmed.rsplit_once(':') {
            // `ns::name` (C++, Rust) is a name, not a file.
            Some((_, _)) if trimmed.contains("::") => (None, trimmed),
            Some((file, function)) => {
                if file.is_empty() || function.is_empty() {
                    return bad("has an empty side of its `:`");
                }
                (Some(file.to_string()), function)
            }
            None => (None, trimmed),
        };
        let ok = |c: char| c.is_alphanumeric() || "_.*$<>~:".contains(c);
        if !function.chars().all(ok) {
            return bad("holds a character no function name has");
        }
        let parts: Vec<String> = if function.contains("::") {
            function.split("::").map(str::to_string).collect()
        } else {
            function.split('.').map(str::to_string).collect()
        };
        let everything = parts.len() == 1 && parts[0] == "*" && file.is_none();
        if parts.iter().any(String::is_empty) || everything {
            return bad("names no function (a lone `*` would record every call)");
        }
        Ok(Self {
            text: trimmed.to_string(),
            file,
            parts,
        })
    }

    /// The function's own name (last part), which adapters' function breakpoints take.
    pub fn name(&self) -> &str {
        self.parts.last().map_or("", String::as_str)
    }

    /// Whether the name needs resolving before an adapter can take it (a glob).
    pub fn is_glob(&self) -> bool {
        self.name().contains('*')
    }

    /// The name a function breakpoint is set on: the whole dotted name where the adapter
    /// takes qualified names (dlv: `main.fact`), else the function's own name (the
    /// frame is checked against the rest at each hit).
    pub fn breakpoint_name(&self, qualified: bool) -> String {
        if qualified && self.parts.len() > 1 {
            self.parts.join(".")
        } else {
            self.name().to_string()
        }
    }

    /// Whether a frame named `frame` (as the adapter names it: `fact`, `main.fact`,
    /// `Cart.total`, `ns::fact(int)`) in `file` is one this pattern names.
    pub fn matches(&self, frame: &str, file: Option<&str>) -> bool {
        let frame = frame.split('(').next().unwrap_or(frame).trim();
        let frame_parts: Vec<&str> = if frame.contains("::") {
            frame.split("::").collect()
        } else {
            frame.split('.').collect()
        };
        if let Some(wanted) = &self.file {
            let Some(file) = file else { return false };
            let wanted = wanted.trim_start_matches("./");
            if !(glob(wanted, file) || glob(&format!("*/{wanted}"), file)) {
                return false;
            }
        }
        // The pattern's parts match the frame's last parts; a module part may also be
        // the file's stem (Python's frames name no module).
        let n = self.parts.len();
        if frame_parts.len() >= n {
            let tail = &frame_parts[frame_parts.len() - n..];
            if self.parts.iter().zip(tail).all(|(p, f)| glob(p, f)) {
                return true;
            }
        }
        let stem = file
            .and_then(|f| std::path::Path::new(f).file_stem())
            .and_then(|s| s.to_str());
        match (stem, self.parts.split_last()) {
            (Some(stem), Some((name, [module]))) => glob(module, stem) && glob(name, frame),
            _ => false,
        }
    }
}

/// A frame's function name without the hash a Rust symbol carries in its legacy
/// mangling (`orders::shipping_cents::h52a151f948012429`, as lldb-dap names the
/// frame): the hash is no part of the name a pattern or a person gives.
pub fn without_symbol_hash(name: &str) -> &str {
    match name.rsplit_once("::h") {
        Some((path, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            path
        }
        _ => name,
    }
}

/// Check a list of patterns (at most [`limits::MAX_CALL_PATTERNS`]).
pub fn parse_all(texts: &[String]) -> Result<Vec<CallPattern>, SessionError> {
    if texts.len() > limits::MAX_CALL_PATTERNS {
        return Err(SessionError::InvalidArgument(format!(
            "at most {} call patterns; {} were given",
            limits::MAX_CALL_PATTERNS,
            texts.len()
        )));
    }
    texts.iter().map(|t| CallPattern::parse(t)).collect()
}

/// Whether `text` matches `pattern`, where `*` matches any run of characters.
pub fn glob(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> CallPattern {
        CallPattern::parse(text).unwrap()
    }

    #[test]
    fn globs_match_runs_of_characters() {
        assert!(glob("fa*", "fact"));
        assert!(glob("*act", "fact"));
        assert!(glob("f*c*", "fact"));
        assert!(!glob("fa*x", "fact"));
        assert!(glob("*", ""));
    }

    #[test]
    fn patterns_match_frames_by_name_module_and_file() {
        assert!(p("fact").matches("fact", Some("/x/prog.py")));
        assert_eq!(
            without_symbol_hash("orders::shipping_cents::h52a151f948012429"),
            "orders::shipping_cents"
        );
        assert_eq!(without_symbol_hash("ns::hello"), "ns::hello");
        assert_eq!(without_symbol_hash("a::h12"), "a::h12");
        assert!(!p("fact").matches("factorial", Some("/x/prog.py")));
        assert!(p("prog.fact").matches("fact", Some("/x/prog.py")));
        assert!(!p("other.fact").matches("fact", Some("/x/prog.py")));
        assert!(p("main.fact").matches("main.fact", Some("/x/main.go")));
        assert!(p("Cart.total").matches("cart.Cart.total", None));
        assert!(p("prog.py:fa*").matches("fact", Some("/x/prog.py")));
        assert!(p("pr*.py:fact").matches("fact", Some("/x/prog.py")));
        assert!(p("x/prog.py:fact").matches("fact", Some("/w/x/prog.py")));
        assert!(!p("other.py:fact").matches("fact", Some("/x/prog.py")));
        assert!(p("ns::fact").matches("ns::fact(int)", None));
    }

    #[test]
    fn bad_patterns_say_what_to_write() {
        for bad in ["", "  ", "*", "a b", "x.py:", ":f", "f(x)", "a..b"] {
            let err = CallPattern::parse(bad).unwrap_err().to_string();
            assert!(err.contains("`module.name`"), "{bad:?}: {err}");
        }
        let many: Vec<String> = (0..=limits::MAX_CALL_PATTERNS)
            .map(|i| format!("f{i}"))
            .collect();
        assert!(parse_all(&many).is_err());
    }

    #[test]
    fn breakpoint_names_are_qualified_only_where_the_adapter_takes_them() {
        assert_eq!(p("main.fact").breakpoint_name(true), "main.fact");
        assert_eq!(p("prog.fact").breakpoint_name(false), "fact");
        assert_eq!(p("prog.py:fact").breakpoint_name(false), "fact");
        assert!(p("fa*").is_glob());
    }
}
