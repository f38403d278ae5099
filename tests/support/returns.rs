//! Functions returning a number and a bool, whose calls a call trace records with
//! their return values (tests/mcp_calls.rs): answer(21) returns 42,
//! heavy(500) true.

fn answer(x: u32) -> u32 {
    x * 2
}

fn heavy(grams: u32) -> bool {
    grams >= 500
}

fn main() {
    let a = answer(21);
    let h = heavy(500);
    println!("{a} {h}");
}
