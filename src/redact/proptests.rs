//! Properties of the redactor on any input: it never panics, a secret placed anywhere
//! never comes out (not even its distinctive part), and text without secrets comes out
//! unchanged.

use proptest::prelude::*;
use serde_json::{json, Value};

use super::*;

/// Text from the characters redaction cares about, with some non-ASCII in it.
fn noisy() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-zA-Z0-9 _.:=@/'\"\\[\\]{}()\\-\n«é漢]{0,200}").unwrap()
}

/// Credentials as they come, each with the part that must never show.
fn credential() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-z0-9]{36}".prop_map(|s| format!("ghp_{s}")),
        "[A-Z0-9]{16}".prop_map(|s| format!("AKIA{s}")),
        "[A-Za-z0-9_-]{20}".prop_map(|s| format!("glpat-{s}")),
        "[A-Za-z0-9]{24}".prop_map(|s| format!("sk_live_{s}")),
        "[A-Za-z0-9_-]{35}".prop_map(|s| format!("AIza{s}")),
        ("[A-Za-z0-9_-]{10,30}", "[A-Za-z0-9_-]{10,40}")
            .prop_map(|(p, s)| format!("eyJhbGciOiJIUzI1NiJ9.eyJ{p}.{s}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn redaction_never_panics_on_any_text(input in any::<String>()) {
        let mut redactor = Redactor::default();
        redactor.remember("hunter22");
        let _ = redact_text(&input, &mut redactor);
    }

    #[test]
    fn redaction_never_panics_on_noisy_text(input in noisy()) {
        let mut redactor = Redactor::default();
        let out = redact_text(&input, &mut redactor);
        // Redacting twice changes nothing more that could show a secret.
        let _ = redact_text(&out, &mut redactor);
    }

    #[test]
    fn a_credential_never_shows_wherever_it_stands(
        before in noisy(), secret in credential(), after in noisy(),
    ) {
        // Separated from its neighbours as it would be in output or a repr.
        let input = format!("{before} {secret}\n{after}");
        let out = redact_text(&input, &mut Redactor::default());
        // The part after the well-known prefix must not show, even in part.
        let tail = &secret[secret.len() - 12..];
        prop_assert!(!out.contains(tail), "{}", out);
    }

    #[test]
    fn a_named_secret_never_shows_in_json_or_text(
        secret in "[a-zA-Z0-9!#%^&*+]{4,40}", name in "(db_)?(password|api_key|authToken|SECRET)",
    ) {
        let mut redactor = Redactor::default();
        let mut value = json!({ "variables": [{ "name": name, "value": format!("'{secret}'") }] });
        let text = format!("  {name} = '{secret}' (str)\n");
        let text = redact_result(&mut value, &text, None, &mut redactor);
        prop_assert!(!text.contains(&secret), "{}", text);
        prop_assert!(!value.to_string().contains(&secret), "{}", value);
    }

    #[test]
    fn any_json_is_redacted_without_panic(value in arb_json()) {
        let mut value = value;
        let _ = redact_result(&mut value, "", Some("password"), &mut Redactor::default());
    }

    #[test]
    fn strict_rules_with_added_patterns_never_panic_and_hide_random_tokens(
        input in any::<String>(), before in noisy(), key in "[A-Za-z]{8}[0-9]{4}[A-Za-z0-9]{12}",
    ) {
        let rules = RedactRules::new(RedactLevel::Strict)
            .with_name("*_pin").unwrap()
            .with_pattern(r"\d{3}-\d{2}").unwrap();
        let mut redactor = Redactor::new(std::sync::Arc::new(rules));
        let _ = redact_text(&input, &mut redactor);
        let out = redact_text(&format!("{before} {key}\n"), &mut redactor);
        if is_high_entropy(&key) {
            prop_assert!(!out.contains(&key), "{}", out);
        }
    }

    #[test]
    fn ordinary_words_come_out_unchanged(input in "[a-z ,.]{0,200}") {
        prop_assert_eq!(redact_text(&input, &mut Redactor::default()), input);
    }
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        noisy().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("name".to_string()),
                    Just("value".to_string()),
                    Just("expression".to_string()),
                    Just("password".to_string()),
                    noisy()
                ],
                inner,
                0..8,
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Redaction is linear: a megabyte of every scanner's worst case (unclosed quotes
/// after secret names, `://` without `@`, JWT and PEM starts that never complete,
/// prefixes without bodies) is redacted in one pass. A quadratic scan would not end
/// in any reasonable time here; the hidden parts are counted exactly.
#[test]
fn a_pathological_megabyte_is_redacted_in_one_pass() {
    let unit = "token='x://a:eyJ.eyJ.-----BEGIN PUBLIC KEY AKIAA ghp_ Bearer ";
    let count = (1 << 20) / unit.len();
    let input = unit.repeat(count);
    let out = redact_text(&input, &mut Redactor::default());
    // Each quote after `token=` closes at the next unit's, so every other unit is a
    // value; remembered, it is then found in the units between as well.
    assert_eq!(out.matches("«redacted: named-secret").count(), count);
    assert!(
        out.starts_with("token='«redacted: named-secret, "),
        "{}",
        &out[..80]
    );
}
