//! How many passes redaction makes over a text, counted in tests: the property that
//! keeps it fast (a pass for all remembered secrets, one for all built-in formats, one
//! for all of a person's patterns that match nothing) is exact, so tests pin it by
//! count rather than by a timing a loaded machine would break.

#[cfg(test)]
thread_local! {
    static PASSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Count one pass over a whole text (a no-op outside tests).
#[inline(always)]
pub(super) fn one() {
    #[cfg(test)]
    PASSES.with(|p| p.set(p.get() + 1));
}

/// The passes this thread made while running `f`.
#[cfg(test)]
pub(super) fn counted(f: impl FnOnce()) -> usize {
    let before = PASSES.with(|p| p.get());
    f();
    PASSES.with(|p| p.get()) - before
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::counted;
    use crate::redact::{redact_text, RedactLevel, RedactRules, Redactor};

    fn log() -> String {
        "2026-11-28 INFO worker=3 status=ok url=https://example.com token_count=2\n".repeat(64)
    }

    fn remembering(n: usize, rules: RedactRules) -> Redactor {
        let mut redactor = Redactor::new(Arc::new(rules));
        for i in 0..n {
            redactor.remember(&format!("remembered-secret-{i}"));
        }
        redactor
    }

    fn passes(text: &str, redactor: &mut Redactor) -> usize {
        counted(|| {
            redact_text(text, redactor);
        })
    }

    #[test]
    fn remembered_secrets_cost_one_pass_however_many() {
        let text = log();
        // Assignments, markers, AWS secret keys.
        assert_eq!(passes(&text, &mut Redactor::default()), 3);
        // One more for the remembered secrets, whether 1 or 256 (the most).
        for n in [1, 64, crate::redact::MAX_REMEMBERED_SECRETS] {
            let mut redactor = remembering(n, RedactRules::default());
            assert_eq!(passes(&text, &mut redactor), 4, "{n} secrets");
        }
        // And one to find them all where one of them stands in the text.
        let mut redactor = remembering(64, RedactRules::default());
        let with_one = format!("{text} remembered-secret-7 and remembered-secret-60");
        assert_eq!(passes(&with_one, &mut redactor), 5);
    }

    #[test]
    fn strict_rules_add_a_pass_each() {
        let mut rules = RedactRules::new(RedactLevel::Strict);
        for pattern in [r"ACME-\d{6}", r"\b\d{3}-\d{2}-\d{4}\b"] {
            rules = rules.with_pattern(pattern).expect("a valid pattern");
        }
        let mut redactor = remembering(64, rules);
        // The four of the default, one per pattern, one for key-like tokens.
        assert_eq!(passes(&log(), &mut redactor), 4 + 2 + 1);
    }
}
