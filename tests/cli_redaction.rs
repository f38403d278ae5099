//! `dapvisor debug` on real debugpy prints no secret: the example holding an AWS key
//! pair, a database password and a GitHub token, stopped with its locals and `--eval`s
//! printed, in text and in JSON, shows none of them, while `len(password)` still
//! answers; `--redact off` prints them and says on stderr what it turned off.

mod cli_support;
mod common;

use cli_support::*;
use common::{line_of, program};

/// The example's secrets, as the program holds them.
const SECRETS: [&str; 4] = [
    "AKIAIOSFODNN7EXAMPLE",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "s3cr3t-Db-passw0rd",
    "ghp_R2d2C3poX9wingY7falconZ4ewok01BB8kQQ",
];

async fn debug_secrets(extra: &[&str]) -> Run {
    let file = program("python/secrets.py");
    let at = format!("{}:{}", file.display(), line_of(&file, "# stop here"));
    let file = file.display().to_string();
    let mut args = vec![
        "debug",
        &file,
        "--break",
        &at,
        "--eval",
        "password",
        "--eval",
        "github_token",
        "--eval",
        "len(password)",
        "--eval",
        "db",
    ];
    args.extend_from_slice(extra);
    let run = dapvisor(&args).await;
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    run
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dapvisor_debug_prints_no_secret_in_text_or_json() {
    for extra in [&[][..], &["--json"][..]] {
        let run = debug_secrets(extra).await;
        let printed = format!("{}{}", run.stdout, run.stderr);
        for secret in SECRETS {
            assert!(
                !printed.contains(secret),
                "{extra:?}: `{secret}` printed:\n{printed}"
            );
        }
        assert!(
            printed.contains("«redacted: github-token, 40 chars»"),
            "{printed}"
        );
        assert!(
            printed.contains("using AWS key «redacted: aws-access-key-id"),
            "{printed}"
        );
        let length = if extra.is_empty() {
            "len(password) = 18"
        } else {
            "\"result\":\"18\""
        };
        assert!(printed.contains(length), "{extra:?}: {printed}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dapvisor_debug_redact_off_prints_them_and_says_so() {
    let run = debug_secrets(&["--redact", "off"]).await;
    for secret in SECRETS {
        assert!(
            run.stdout.contains(secret),
            "`{secret}` missing:\n{}",
            run.stdout
        );
    }
    assert!(run.stderr.contains("redaction is off"), "{}", run.stderr);
}
