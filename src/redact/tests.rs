//! The redactor on the values a debugger shows.

use serde_json::json;

use super::*;

const GITHUB: &str = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789";
const AWS_ID: &str = "AKIAIOSFODNN7EXAMPLE";
const AWS_SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

fn text(input: &str) -> String {
    redact_text(input, &mut Redactor::default())
}

#[test]
fn names_that_say_secret() {
    for name in [
        "password",
        "PASSWORD",
        "db_password",
        "dbPassword",
        "DB-PASSWORD",
        "passwd",
        "secret",
        "client_secret",
        "token",
        "GITHUB_TOKEN",
        "authToken",
        "api_key",
        "apiKey",
        "APIKEY",
        "x-api-key",
        "private_key",
        "privateKey",
        "AWS_SECRET_ACCESS_KEY",
        "aws_access_key",
        "credentials",
        "auth",
        "Authorization",
        "password_str",
        "'password'",
        "self.api_key",
        "password2",
        "session_cookie",
    ] {
        assert!(is_secret_name(name), "{name} should be secret");
    }
}

#[test]
fn names_that_only_mention_a_secret_are_not() {
    for name in [
        "author",
        "authority",
        "authors",
        "tokenizer",
        "tokens",
        "max_tokens",
        "token_count",
        "password_min_length",
        "secret_file",
        "token_url",
        "credential_path",
        "is_authenticated",
        "key",
        "keys",
        "passage",
        "bypass",
        "monkey",
        "PWD",
        "session_id",
        "",
    ] {
        assert!(!is_secret_name(name), "{name} should not be secret");
    }
}

#[test]
fn an_expression_names_a_secret_only_when_it_is_a_path() {
    assert_eq!(expression_name("password"), Some("password"));
    assert_eq!(expression_name("self.api_key"), Some("api_key"));
    assert_eq!(expression_name("cfg['db']['password']"), Some("password"));
    assert_eq!(expression_name("password[:3]"), Some("password"));
    assert_eq!(expression_name("password[1:-1]"), Some("password"));
    assert_eq!(expression_name("p->token"), Some("token"));
    assert_eq!(expression_name("len(password)"), None);
    assert_eq!(expression_name("password == expected"), None);
    assert_eq!(expression_name("token.startswith(\"ghp_\")"), None);
}

#[test]
fn tokens_are_found_by_their_format() {
    let cases = [
        (GITHUB, "github-token"),
        (
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
            "github-token",
        ),
        ("glpat-abcdefghij0123456789", "gitlab-token"),
        ("xoxb-123456789012-abcdefABCDEF", "slack-token"),
        ("sk_live_abcdefghij0123456789", "stripe-key"),
        ("AIzaSyA-abcdefghijklmnopqrstuvwxyz01234", "google-api-key"),
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "jwt"),
        (AWS_ID, "aws-access-key-id"),
    ];
    for (secret, kind) in cases {
        let out = text(&format!("got \"{secret}\" here"));
        assert!(!out.contains(secret), "{out}");
        assert!(
            out.contains(&format!("«redacted: {kind}, {} chars»", secret.len())),
            "{out}"
        );
        // Not even a prefix beyond the well-known one is left.
        assert!(!out.contains(&secret[..secret.len().min(12)]), "{out}");
    }
}

#[test]
fn the_aws_secret_key_is_hidden_beside_its_key_id() {
    let out = text(&format!("key {AWS_ID} secret {AWS_SECRET}"));
    assert!(!out.contains(AWS_SECRET) && !out.contains(AWS_ID), "{out}");
    assert!(out.contains("aws-secret-access-key, 40 chars"), "{out}");
    // Alone, it is told by its `/` or `+`; a hex digest or an identifier of 40 is
    // just a string.
    assert!(!text(&format!("secret {AWS_SECRET}")).contains("K7MDENG"));
    for plain in [
        "da39a3ee5e6b4b0d3255bfef95601890afd80709",
        "ThisIsAVeryLongCamelCaseIdentifier123456",
    ] {
        assert_eq!(text(plain), plain);
    }
}

#[test]
fn a_private_key_block_is_hidden_whole_even_cut_off() {
    let pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----";
    let out = text(&format!("k = {pem} done"));
    assert!(!out.contains("MIIE"), "{out}");
    assert!(out.ends_with(" done"), "{out}");
    let cut = text("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA");
    assert!(!cut.contains("b3Bl"), "{cut}");
    let public = "-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----";
    assert_eq!(text(public), public);
}

#[test]
fn a_password_in_a_url_is_hidden_and_the_rest_kept() {
    let out = text("connecting to postgres://admin:s3cr3t!@db.local:5432/app");
    assert_eq!(
        out,
        "connecting to postgres://admin:«redacted: url-password, 7 chars»@db.local:5432/app"
    );
    let plain = "see https://example.com:8080/a?b=c";
    assert_eq!(text(plain), plain);
}

#[test]
fn values_assigned_to_secret_names_are_hidden_in_text() {
    assert_eq!(
        text("  password = 'hunter2' (str)"),
        "  password = '«redacted: named-secret, 7 chars»' (str)"
    );
    let out = text("db = {'host': 'localhost', 'password': 'correct-horse'} (dict)");
    assert!(
        !out.contains("correct-horse") && out.contains("'host': 'localhost'"),
        "{out}"
    );
    assert!(!text("DB_PASSWORD=letmein ./run").contains("letmein"));
    assert!(!text(r#"{"api_key": "abc123xyz"}"#).contains("abc123xyz"));
    assert!(!text("cfg[\"token\"] = 'tok-value'").contains("tok-value"));
    // Derived facts and code stay.
    for kept in [
        "len(password) = 7 (int)",
        "password == expected = False (bool)",
        "token.startswith(\"ghp_\") = True (bool)",
        "password = read_password()",
        "token_count = 12",
        "author = 'Ada Lovelace'",
        "password = None",
    ] {
        assert_eq!(text(kept), kept);
    }
}

#[test]
fn a_high_entropy_value_under_a_secretish_name_is_hidden() {
    let out = text("hmac_salt: 9f8e7d6c5b4a39281706f5e4d3c2b1a0");
    assert!(out.contains("assigned-secret"), "{out}");
    assert_eq!(
        text("cache_key: user_profile_settings"),
        "cache_key: user_profile_settings"
    );
}

#[test]
fn variables_are_hidden_by_name_and_their_value_everywhere() {
    let mut redactor = Redactor::default();
    let mut locals = json!({ "variables": [
        { "name": "password", "value": "'hunter2'", "type": "str" },
        { "name": "db", "value": "{'password': 'hunter2'}", "variables_reference": 4 },
        { "name": "token_count", "value": "3" },
        { "name": "pin", "value": "1234" },
        { "name": "auth", "value": "True" },
    ]});
    let text = redact_result(
        &mut locals,
        "password = 'hunter2'\nprinted hunter2\n",
        None,
        &mut redactor,
    );
    let all = format!("{locals}{text}");
    assert!(!all.contains("hunter2"), "{all}");
    assert_eq!(
        locals["variables"][0]["value"],
        "'«redacted: named-secret, 7 chars»'"
    );
    assert_eq!(locals["variables"][2]["value"], "3");
    assert_eq!(locals["variables"][4]["value"], "True");
    // Remembered: a later result that shows it without its name hides it too.
    assert_eq!(redactor.len(), 1);
    let later = redact_text("the program printed hunter2", &mut redactor);
    assert!(!later.contains("hunter2"));
}

#[test]
fn an_evaluated_path_to_a_secret_is_hidden_and_a_derived_fact_is_not() {
    let mut redactor = Redactor::default();
    let mut result = json!({ "result": "'hunter2'", "type": "str" });
    let text = redact_result(
        &mut result,
        "password = 'hunter2' (str)",
        Some("password"),
        &mut redactor,
    );
    assert!(!format!("{result}{text}").contains("hunter2"));
    let mut length = json!({ "result": "7", "type": "int" });
    let text = redact_result(
        &mut length,
        "len(password) = 7 (int)",
        Some("len(password)"),
        &mut redactor,
    );
    assert_eq!(length["result"], "7");
    assert_eq!(text, "len(password) = 7 (int)");
    let mut watch = json!({ "watches": [{ "expression": "cfg.api_key", "value": "'k-1234567'", "previous": null }] });
    redact_result(&mut watch, "", None, &mut redactor);
    assert!(!watch.to_string().contains("k-1234567"));
}

#[test]
fn secret_keys_of_a_map_and_tokens_in_keys_are_hidden() {
    let mut redactor = Redactor::default();
    let mut env = json!({ "env": { "DB_PASSWORD": "pw-value-1", "HOME": "/home/a" }, GITHUB: 1 });
    redact_json(&mut env, &mut redactor);
    let shown = env.to_string();
    assert!(
        !shown.contains("pw-value-1") && !shown.contains(GITHUB),
        "{shown}"
    );
    assert!(shown.contains("/home/a"));
}

#[test]
fn a_short_secret_is_hidden_where_named_but_not_everywhere() {
    let mut redactor = Redactor::default();
    let mut v =
        json!([{ "name": "pwd_secret", "value": "'ab'" }, { "name": "x", "value": "'ab'" }]);
    redact_json(&mut v, &mut redactor);
    assert_eq!(v[0]["value"], "'«redacted: named-secret, 2 chars»'");
    assert_eq!(v[1]["value"], "'ab'");
}

#[test]
fn cuts_move_to_the_edges_of_a_token_they_fall_inside() {
    let text = format!("key: {GITHUB} and more");
    let inside = 5 + 10;
    assert_eq!(end_before_token(&text, inside), 5);
    assert_eq!(start_after_token(&text, inside), 5 + GITHUB.len());
    // Between tokens, at the ends, or a text that is one token: where the bound says.
    assert_eq!(end_before_token(&text, 4), 4);
    assert_eq!(start_after_token(&text, 4), 4);
    assert_eq!(end_before_token(GITHUB, 10), 10);
    assert_eq!(start_after_token(GITHUB, 10), 10);
    // At the end of a read, a trailing token may go on in the next one.
    assert_eq!(end_before_token("printed ghp_abc", 15), 8);
    // A blob longer than the most a cut moves is cut where the bound says.
    let blob = format!("x {}", "a".repeat(2 * MAX_TOKEN_BYTES));
    assert_eq!(end_before_token(&blob, blob.len() - 1), blob.len() - 1);
}

#[test]
fn a_prefixed_token_cut_short_by_a_bound_is_hidden_whole() {
    for cut in [
        "ghp_R2d2C3…",
        "AKIAIO… (30 more chars)",
        "x sk_live_ab[… 9 chars cut …]",
    ] {
        let out = text(cut);
        assert!(out.contains("«redacted: "), "{cut}: {out}");
        assert!(
            !out.contains("R2d2") && !out.contains("AKIAIO") && !out.contains("live_ab"),
            "{out}"
        );
    }
}

#[test]
fn every_word_that_makes_a_name_secret_contains_a_stem() {
    for name in names::SECRET_WORDS.iter().chain(names::SECRETISH_WORDS) {
        assert!(names::mentions_secret(name), "{name}");
    }
    for (a, b) in names::SECRET_PAIRS {
        assert!(names::mentions_secret(&format!("{a}_{b}")), "{a} {b}");
    }
}

#[test]
fn every_prefix_starts_with_a_byte_the_scan_looks_at() {
    for kind in formats::PREFIXED {
        for prefix in kind.prefixes {
            assert!(
                formats::PREFIX_STARTS.contains(&prefix.as_bytes()[0]),
                "{prefix}"
            );
        }
    }
}

#[test]
fn a_trace_column_hides_a_path_to_a_secret_but_not_a_fact_about_it() {
    let mut redactor = Redactor::default();
    let mut rows = json!({ "rows": [{ "values": {
        "len(password)": "7", "self.password": "'hunter2'", "*api_key": "'k-99999'",
    } }] });
    redact_json(&mut rows, &mut redactor);
    let values = &rows["rows"][0]["values"];
    assert_eq!(values["len(password)"], "7");
    assert_eq!(
        values["self.password"],
        "'«redacted: named-secret, 7 chars»'"
    );
    assert_eq!(values["*api_key"], "'«redacted: named-secret, 7 chars»'");
}
