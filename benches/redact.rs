//! The cost of redaction: 1 MiB of program output (log lines, with a credential in
//! one line of 64 and a `key=value` pair in each), the same with 64 secrets remembered
//! by name, the same under strict rules with four added patterns, and one stop result's
//! JSON and text (20 locals, a dict summary among them).
//!
//! `cargo bench --bench redact -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dapvisor::redact::{redact_result, redact_text, RedactLevel, RedactRules, Redactor};
use serde_json::json;

/// Bytes of output per iteration.
const OUTPUT_BYTES: usize = 1 << 20;

fn output() -> String {
    let mut text = String::with_capacity(OUTPUT_BYTES + 128);
    let mut n = 0;
    while text.len() < OUTPUT_BYTES {
        if n % 64 == 0 {
            text.push_str("connecting with ghp_R2d2C3poX9wingY7falconZ4ewok01BB8kQQ to api\n");
        } else {
            text.push_str(&format!(
                "2026-11-27T21:00:{:02} INFO worker={n} processed item {n} status=ok in 12 ms\n",
                n % 60
            ));
        }
        n += 1;
    }
    text
}

fn stop_result() -> (serde_json::Value, String) {
    let mut locals = Vec::new();
    let mut text = String::new();
    for i in 0..20 {
        let (name, value) = match i {
            3 => ("password".to_string(), "'hunter2-hunter2'".to_string()),
            7 => (
                "db".to_string(),
                "{'host': 'db.internal', 'password': 'hunter2-hunter2'}".to_string(),
            ),
            _ => (
                format!("item_{i}"),
                format!("'value number {i} of the stop'"),
            ),
        };
        text.push_str(&format!("  {name} = {value} (str)\n"));
        locals
            .push(json!({ "name": name, "value": value, "type": "str", "variables_reference": 0 }));
    }
    (
        json!({ "state": "stopped", "stop": { "locals": locals } }),
        text,
    )
}

fn redaction(c: &mut Criterion) {
    let text = output();
    let mut group = c.benchmark_group("redact");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("output_1mib", |b| {
        b.iter(|| redact_text(black_box(&text), &mut Redactor::default()))
    });
    let mut redactor = Redactor::default();
    for i in 0..64 {
        redactor.remember(&format!("remembered-secret-{i}"));
    }
    group.bench_function("output_1mib_64_remembered", |b| {
        b.iter(|| redact_text(black_box(&text), &mut redactor.clone()))
    });
    // What a person's rules add: strict, a name and four patterns.
    let mut rules = RedactRules::new(RedactLevel::Strict)
        .with_name("*_pin")
        .expect("a valid name");
    for pattern in [
        r"ACME-\d{6}",
        r"\b\d{3}-\d{2}-\d{4}\b",
        r"(?i)licen[cs]e=\S+",
        "sk-[A-Za-z0-9]{20,}",
    ] {
        rules = rules.with_pattern(pattern).expect("a valid pattern");
    }
    let strict = Redactor::new(std::sync::Arc::new(rules));
    group.bench_function("output_1mib_strict_4_patterns", |b| {
        b.iter(|| redact_text(black_box(&text), &mut strict.clone()))
    });
    group.finish();
    let (structured, said) = stop_result();
    c.bench_function("redact/stop_result", |b| {
        b.iter(|| {
            let mut value = structured.clone();
            redact_result(&mut value, black_box(&said), None, &mut Redactor::default())
        })
    });
}

criterion_group!(benches, redaction);
criterion_main!(benches);
