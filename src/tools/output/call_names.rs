//! A call pattern with a `*` in the function's own name (`pri*`, `parcels.py:pri*`)
//! names functions the adapters' function breakpoints cannot take: they want names.
//! So the glob is expanded here, against the functions the program's sources define
//! (its folder and the folders below, bounded), into one pattern per function found,
//! the module or file part kept: `parcels.py:pri*` becomes `parcels.py:price`.

use std::path::{Path, PathBuf};

use crate::call_glob as glob;
use crate::tools::access::paths::PathPolicy as Paths;
use crate::tools::catalogue::spec::ToolError;

/// The most source files read to expand globs: 500.
pub const MAX_SCANNED_FILES: usize = 500;

/// The largest source file read for its functions: 1 MiB (larger ones are skipped).
pub const MAX_SCANNED_FILE_BYTES: u64 = 1024 * 1024;

/// The other sources read: Python, Go, Rust, JavaScript and TypeScript.
const SCANNED: &[&str] = &["py", "go", "rs", "js", "mjs", "cjs", "ts"];

/// How deep below the program's folder sources are looked for: 4 folders.
const MAX_DEPTH: usize = 4;

/// Expand every pattern whose function name is a glob; the others pass as given.
pub(crate) fn expand(
    patterns: Vec<String>,
    folder: Option<&Path>,
    paths: &Paths,
) -> Result<Vec<String>, ToolError> {
    if !patterns.iter().any(|p| name_of(p).contains('*')) {
        return Ok(patterns);
    }
    let Some(folder) = folder else {
        return Err(ToolError::invalid(
            "a call pattern with `*` in the function's name needs the program's sources, \
             and this session names no program",
            "name the functions (`name`, `module.name`, `file:function`)",
        ));
    };
    let mut files = Vec::new();
    collect_sources(folder, 0, paths, &mut files);
    let sources: Vec<(PathBuf, String)> = files
        .into_iter()
        .filter_map(|f| std::fs::read_to_string(&f).ok().map(|t| (f, t)))
        .collect();
    let mut out = Vec::new();
    for pattern in patterns {
        if !name_of(&pattern).contains('*') {
            out.push(pattern);
            continue;
        }
        let found = expand_one(&pattern, &sources);
        if found.is_empty() {
            return Err(ToolError::invalid(
                format!(
                    "no function the program's sources under {} define matches the call \
                     pattern {pattern:?}",
                    folder.display()
                ),
                "name the function, or check the pattern's spelling",
            ));
        }
        out.extend(found);
    }
    Ok(out)
}

/// The function part of a pattern: after a `file:`, the last of its dotted parts.
fn name_of(pattern: &str) -> &str {
    let function = match pattern.rsplit_once(':') {
        Some((_, f)) if !pattern.contains("::") => f,
        _ => pattern,
    };
    function.rsplit(['.', ':']).next().unwrap_or(function)
}

/// `pattern` expanded against `sources` (path, text): one pattern per function whose
/// name matches, in a file the pattern's file or module part allows.
fn expand_one(pattern: &str, sources: &[(PathBuf, String)]) -> Vec<String> {
    let name = name_of(pattern);
    let prefix = &pattern[..pattern.len() - name.len()];
    let file_part = pattern
        .rsplit_once(':')
        .filter(|_| !pattern.contains("::"))
        .map(|(f, _)| f);
    let module_part = prefix.trim_end_matches('.').rsplit(['.', ':']).next();
    let mut names: Vec<String> = Vec::new();
    for (path, text) in sources {
        let path_text = path.to_string_lossy();
        if let Some(file) = file_part {
            if !(glob(file, &path_text) || glob(&format!("*/{file}"), &path_text)) {
                continue;
            }
        }
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let go = path.extension().is_some_and(|e| e == "go");
        if let Some(module) = module_part.filter(|m| file_part.is_none() && !m.is_empty()) {
            // Python's module is its file; a Go package is any file of the folder.
            if !go && !glob(module, stem) {
                continue;
            }
        }
        let c_family = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| C_FAMILY.contains(&e));
        let defined = if c_family {
            c_definitions(text)
        } else {
            definitions(text)
        };
        for defined in defined {
            if glob(name, &defined) && !names.contains(&defined) {
                names.push(defined);
            }
        }
    }
    names.into_iter().map(|n| format!("{prefix}{n}")).collect()
}

/// C and C++ sources, whose functions have no keyword before them.
const C_FAMILY: &[&str] = &["c", "h", "cc", "cpp", "cxx", "hpp"];

/// The functions a C or C++ source defines, by how a definition looks: a line with a
/// type, then the name and `(`, not ending in `;` (a prototype, a declaration) and not a
/// control word, either at the left margin or directly in a class or struct body (a
/// method defined where it is declared). Braces are counted to know which body a line
/// is in; a brace in a string or a comment may mislead that count, which costs a name
/// at worst.
fn c_definitions(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0usize;
    // The depths of the class and struct bodies open around the line.
    let mut member_depths: Vec<usize> = Vec::new();
    // A class head whose `{` is on a later line.
    let mut class_head = false;
    for line in text.lines() {
        if std::mem::take(&mut class_head) && line.trim_start().starts_with('{') {
            member_depths.push(depth + 1);
        }
        let in_body = member_depths.last() == Some(&depth);
        let candidate = if depth == 0 {
            Some(line)
        } else if in_body {
            Some(line.trim_start())
        } else {
            None
        };
        if let Some(candidate) = candidate {
            if let Some(name) = c_defined_name(candidate) {
                names.push(name);
            }
            match class_head_of(candidate) {
                Some(true) => member_depths.push(depth + 1),
                Some(false) => class_head = true,
                None => {}
            }
        }
        let opened = line.matches('{').count();
        let closed = line.matches('}').count();
        depth = (depth + opened).saturating_sub(closed);
        member_depths.retain(|d| *d <= depth);
    }
    names
}

/// The function `line` defines, if it is a definition's first line (see
/// [`c_definitions`]).
fn c_defined_name(line: &str) -> Option<String> {
    if line.starts_with([' ', '\t', '#', '/', '*', '}']) || line.trim_end().ends_with(';') {
        return None;
    }
    let (head, _) = line.split_once('(')?;
    // An assignment or a call's arguments, not a definition.
    if head.contains(['=', '.', ',', '"']) || head.contains("->") {
        return None;
    }
    let name: String = head
        .trim_end()
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
        .collect::<Vec<char>>()
        .into_iter()
        .rev()
        .collect();
    let typed = head.trim_end().len() > name.len();
    let control = ["if", "while", "for", "switch", "return", "sizeof"].contains(&name.as_str());
    (typed && !control && !name.is_empty())
        .then(|| name.rsplit("::").next().unwrap_or(&name).to_string())
}

/// Whether `line` is a class or struct head (`class Shelf {`, `struct Cart : public
/// Base`), rather than a function returning a struct or a declaration: `Some(true)` when
/// its body opens on this line, `Some(false)` when on a later one.
fn class_head_of(line: &str) -> Option<bool> {
    let words = line.trim_start();
    let head = ["class ", "struct "].iter().any(|k| words.starts_with(k))
        && !line.contains('(')
        && !line.trim_end().ends_with(';');
    head.then(|| line.contains('{'))
}

/// The names of the functions `text` defines, by the keyword before them: `def`
/// (Python), `func` (Go, methods too), `fn` (Rust), `function` (JavaScript).
fn definitions(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in text.lines() {
        let mut words = line.trim_start();
        for keyword in ["async ", "pub ", "export "] {
            words = words.strip_prefix(keyword).unwrap_or(words);
        }
        let Some(rest) = ["def ", "func ", "fn ", "function "]
            .iter()
            .find_map(|k| words.strip_prefix(k))
        else {
            continue;
        };
        // A Go method: `func (c *Cart) Total(`.
        let rest = match rest.strip_prefix('(') {
            Some(receiver) => receiver.split_once(')').map_or("", |(_, r)| r.trim_start()),
            None => rest,
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            names.push(name);
        }
    }
    names
}

/// Source files under `folder` (links not followed, only what dapvisor may read).
fn collect_sources(folder: &Path, depth: usize, paths: &Paths, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        if out.len() >= MAX_SCANNED_FILES {
            return;
        }
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if meta.is_dir() && !hidden && depth < MAX_DEPTH {
            collect_sources(&path, depth + 1, paths, out);
        } else if meta.is_file()
            && meta.len() <= MAX_SCANNED_FILE_BYTES
            && path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| SCANNED.contains(&e) || C_FAMILY.contains(&e))
            && paths.may_read(&path)
        {
            out.push(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources() -> Vec<(PathBuf, String)> {
        vec![
            (
                PathBuf::from("/p/parcels.py"),
                "def price(g):\n    pass\nasync def prime():\n    x = 'def no'\n".into(),
            ),
            (
                PathBuf::from("/p/other.py"),
                "def print_all():\n    pass\n".into(),
            ),
            (
                PathBuf::from("/g/cart.go"),
                "func (c *Cart) Total() int {\nfunc newCart() {\n".into(),
            ),
        ]
    }

    #[test]
    fn a_glob_becomes_one_pattern_per_function_keeping_its_file_or_module() {
        let s = sources();
        assert_eq!(
            expand_one("parcels.py:pri*", &s),
            ["parcels.py:price", "parcels.py:prime"]
        );
        assert_eq!(expand_one("other.pri*", &s), ["other.print_all"]);
        assert_eq!(
            expand_one("par*.py:pri*", &s),
            ["par*.py:price", "par*.py:prime"]
        );
        assert_eq!(expand_one("pri*", &s), ["price", "prime", "print_all"]);
        assert_eq!(expand_one("main.Cart.T*", &s), ["main.Cart.Total"]);
        assert!(expand_one("nothing*", &s).is_empty());
    }

    #[test]
    fn c_definitions_are_told_from_prototypes_and_statements() {
        let text = "static struct price price_of(int g, int d)\n{\n    return f(x);\n}\n\
                    int main(void)\nint proto(int);\nif (x)\nvoid Shelf::restock(int n) {\n";
        assert_eq!(c_definitions(text), ["price_of", "main", "restock"]);
    }

    #[test]
    fn a_method_defined_in_its_class_body_is_found_and_its_statements_are_not() {
        let text = "class Shelf {\npublic:\n    int count() const {\n        int n = total(a,\n            b);\n        if (n) {\n            run(n) {\n            }\n        }\n        return n;\n    }\n    void restock(int n);\n    struct Slot {\n        int at(int i) { return i; }\n    };\n};\nint main(void) {\n    helper(x) {\n}\n";
        assert_eq!(c_definitions(text), ["count", "at", "main"]);
        let brace_below =
            "struct Cart\n{\n    long total() const\n    {\n        return 0;\n    }\n};\n";
        assert_eq!(c_definitions(brace_below), ["total"]);
    }

    #[test]
    fn only_a_glob_in_the_functions_own_name_needs_expanding() {
        assert_eq!(name_of("parcels.py:pri*"), "pri*");
        assert_eq!(name_of("m*.price"), "price");
        assert_eq!(name_of("ns::fa*"), "fa*");
    }
}
