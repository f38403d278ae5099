//! Orders for a small shop, in Rust: built with `rustc -g` and debugged through
//! CodeLLDB, whose Rust formatters show the `Vec<String>`, the `HashMap`, the
//! `Option` and the enum below as Rust values.
//!
//! Known bug (on purpose): `shipping_cents()` charges courier days for a pickup
//! order too. Run with the argument `panic` to look up a customer who placed no
//! order: the `unwrap()` panics.

use std::collections::HashMap;
use std::process::ExitCode;

#[derive(Debug, Clone, Copy)]
enum Shipping {
    Pickup,
    Courier { days: u32 },
}

fn shipping_cents(shipping: Shipping, days_if_courier: u32) -> u32 {
    let days = match shipping {
        Shipping::Pickup => days_if_courier, // BUG: a pickup costs nothing
        Shipping::Courier { days } => days,
    };
    days * 150
}

fn order_total(items: &[String], prices: &HashMap<String, u32>, shipping: Shipping) -> u32 {
    let mut total = 0;
    for item in items {
        total += prices[item];
    }
    total + shipping_cents(shipping, 2)
}

fn main() -> ExitCode {
    let items: Vec<String> = vec!["tea".to_string(), "honey".to_string()];
    let mut prices: HashMap<String, u32> = HashMap::new();
    prices.insert("tea".to_string(), 450);
    prices.insert("honey".to_string(), 899);
    let coupon: Option<u32> = Some(15);
    let shipping = Shipping::Pickup;
    let express = Shipping::Courier { days: 1 };
    if std::env::args().nth(1).as_deref() == Some("panic") {
        let customers: HashMap<&str, u32> = HashMap::new();
        let orders = customers.get("ada").copied().unwrap();
        println!("ada placed {orders} orders");
    }
    let total = order_total(&items, &prices, shipping) - coupon.unwrap_or(0);
    println!("{} items, {:?}, total {} cents", items.len(), shipping, total);
    println!("by {:?} it would cost {} cents more", express, shipping_cents(express, 2));
    if total != 1334 {
        println!("expected 1334 cents: MISMATCH");
        return ExitCode::from(11);
    }
    ExitCode::SUCCESS
}
