//! The fast scans agree exactly with the reference ones they replaced
//! (`reference.rs`), on text made of what the scans look for: token prefixes, markers,
//! assignments, runs of base64 around 40 characters, remembered secrets that overlap,
//! names in every case, and non-ASCII. Same spans, in the same order, and the same
//! redacted text: nothing the slow redactor found goes unfound.

use std::sync::Arc;

use proptest::prelude::*;

use super::name_patterns::NamePattern;
use super::remembered::Remembered;
use super::*;

const PIECES: &[&str] = &[
    "ghp_",
    "gho_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "sk_live_",
    "rk_live_",
    "AKIA",
    "ASIA",
    "AIza",
    "eyJ",
    "eyJhbGciOiJIUzI1NiJ9.",
    "-----BEGIN ",
    "RSA PRIVATE KEY-----",
    "CERTIFICATE-----",
    "-----END ",
    "-----",
    "://",
    "u:p@",
    "@",
    ":",
    "=",
    "==",
    " ",
    "\n",
    "\t",
    "'",
    "\"",
    "b'",
    "Bearer ",
    "bearer ",
    "BEARER ",
    "password",
    "api_key",
    "authToken",
    "TOKEN",
    "session_key",
    "card_PIN",
    "pinCode",
    "ssn",
    "…",
    "[",
    "(",
    "/",
    "+",
    ".",
    "é",
    "«",
    "İ",
    "漢",
    "\u{2003}",
];

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(PIECES).prop_map(str::to_string),
        2 => "[A-Za-z0-9]{1,24}",
        1 => "[A-Za-z0-9+/]{38,42}",
        1 => "[a-f0-9]{16,40}",
    ]
}

fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(piece(), 0..40).prop_map(|pieces| pieces.concat())
}

fn names() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z_.0-9]{0,16}",
        proptest::collection::vec(proptest::sample::select(PIECES), 0..4).prop_map(|p| p.concat()),
    ]
}

fn added_rules(level: RedactLevel) -> RedactRules {
    let mut rules = RedactRules::new(level);
    for name in ["*_pin", "pin_code", "ssn", "x*y*z"] {
        rules = rules.with_name(name).expect("a valid name");
    }
    for pattern in [r"ACME-\d{6}", r"(?i)licen[cs]e=\S+", "[a-f0-9]{32}"] {
        rules = rules.with_pattern(pattern).expect("a valid pattern");
    }
    rules
}

fn sorted(mut spans: Vec<Span>) -> Vec<(usize, usize)> {
    spans.sort_by_key(|s| (s.start, s.end));
    spans.iter().map(|s| (s.start, s.end)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn formats_agree(text in text()) {
        prop_assert_eq!(formats::spans(&text), reference::formats(&text));
    }

    #[test]
    fn strict_tokens_agree(text in text()) {
        prop_assert_eq!(strict::spans(&text), reference::strict(&text));
    }

    #[test]
    fn assignments_agree(text in text()) {
        let rules = added_rules(RedactLevel::Default);
        prop_assert_eq!(assigned::spans(&text, &rules), reference::assigned(&text, &rules));
    }

    #[test]
    fn stems_and_added_names_agree(name in names()) {
        prop_assert_eq!(names::mentions_secret(&name), reference::mentions_secret(&name));
        for pattern in ["*_pin", "pin_code", "ssn", "x*y*z", "İd", "*é*"] {
            let pattern = NamePattern::parse(pattern).expect("a valid name");
            prop_assert_eq!(pattern.matches(&name), reference::name_matches(&pattern, &name));
        }
    }

    #[test]
    fn remembered_secrets_agree(
        secrets in proptest::collection::vec("[ab]{4,7}|[A-Za-z0-9]{4,10}", 0..12),
        text in "[ab ]{0,80}",
        more in text(),
    ) {
        let mut remembered = Remembered::default();
        for secret in &secrets {
            remembered.remember(secret);
        }
        for text in [&text, &more, &format!("{more}{}", secrets.concat())] {
            prop_assert_eq!(
                sorted(remembered.spans(text)),
                sorted(remembered.spans_one_by_one(text))
            );
        }
    }

    #[test]
    fn redacted_text_agrees(text in text(), secrets in proptest::collection::vec(piece(), 0..6)) {
        for level in [RedactLevel::Default, RedactLevel::Strict] {
            let mut fast = Redactor::new(Arc::new(added_rules(level)));
            for secret in &secrets {
                fast.remember(secret);
            }
            let mut slow = fast.clone();
            prop_assert_eq!(redact_text(&text, &mut fast), reference::redact_text(&text, &mut slow));
        }
    }
}
