//! Labels for shapes, in Rust, holding the values lldb's Rust formatters misread
//! before dapvisor corrected them (`tests/rust_enum_values.rs`):
//! - `shapes`, a `Vec` of an enum holding a `String`, whose unit variants live in the
//!   String's capacity (a niche of 2^63 and 2^63 + 1, which lldb names 0 and 1, and a
//!   capacity of 1 is not `Dot`);
//! - `counts`, a `HashMap` moved into `named_count()`, so its table is freed, and
//!   still in scope after: the `rule` printed next takes the freed table's memory, and
//!   its bytes (`─` is E2 94 80) all read as empty slots, so the map claims an entry
//!   and holds none.
//!
//! Known bug (on purpose): `label()` gives an empty shape the label of a named one,
//! so the count of named shapes is one too many.

use std::collections::HashMap;
use std::process::ExitCode;

#[derive(Debug)]
enum Shape {
    Named(String),
    Empty,
    Dot,
}

fn label(shape: &Shape) -> &str {
    match shape {
        Shape::Named(name) if !name.is_empty() => "named",
        Shape::Named(_) => "unnamed",
        Shape::Empty => "named", // BUG: an empty shape is not named
        Shape::Dot => "unnamed",
    }
}

fn named_count(counts: HashMap<&str, u32>) -> u32 {
    counts.get("named").copied().unwrap_or(0)
}

fn main() -> ExitCode {
    let shapes: Vec<Shape> = vec![Shape::Named(String::from("a")), Shape::Empty, Shape::Dot];
    let mut counts: HashMap<&str, u32> = HashMap::new();
    for shape in &shapes {
        *counts.entry(label(shape)).or_insert(0) += 1;
    }
    let named = named_count(counts);
    let rule = "─".repeat(39);
    println!("{rule}\n{} shapes: {:?}, {named} named", shapes.len(), shapes);
    if named != 1 {
        println!("expected 1 named shape: MISMATCH");
        return ExitCode::from(17);
    }
    ExitCode::SUCCESS
}
