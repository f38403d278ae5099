//! Which names say their value is a secret.
//!
//! A name is split into words (at `_`, `-`, `.`, spaces and camelCase humps, digits
//! dropped, lowercased), words that only say how the value is stored (`value`, `str`,
//! `b64`, ...) are dropped from its end, and then the *last* word decides: `db_password`,
//! `GITHUB_TOKEN`, `apiKey`, `AWS_SECRET_ACCESS_KEY` and `client-secret` are secret;
//! `author`, `authority`, `tokenizer`, `token_count`, `password_min_length` and
//! `secret_file` are not, because what they hold is named by their last word. So a
//! count, a length, a path or a flag about a secret stays readable.

/// Last words that make a name secret ([`is_secret_name`]).
pub(super) const SECRET_WORDS: &[&str] = &[
    "password",
    "passwords",
    "passwd",
    "passphrase",
    "secret",
    "secrets",
    "token",
    "credential",
    "credentials",
    "auth",
    "authorization",
    "apikey",
    "privatekey",
    "secretkey",
    "accesskey",
    "cookie",
];

/// Last two words that make a name secret: `api_key`, `privateKey`, `SECRET_ACCESS_KEY`.
pub(super) const SECRET_PAIRS: &[(&str, &str)] = &[
    ("api", "key"),
    ("private", "key"),
    ("access", "key"),
    ("secret", "key"),
    ("signing", "key"),
    ("master", "key"),
    ("encryption", "key"),
];

/// How a name, written as one lowercase word, may end and still be secret:
/// `dbpassword`, `APIKEY`, `csrftoken`.
const SECRET_ENDINGS: &[&str] = &[
    "password",
    "passwd",
    "secret",
    "token",
    "apikey",
    "privatekey",
    "accesskey",
    "secretkey",
];

/// Words at the end of a name that say how a value is kept, not what it is:
/// `password_str` is a password.
const STORAGE_WORDS: &[&str] = &[
    "value", "val", "str", "string", "text", "raw", "plain", "b64", "base64", "hex", "bytes",
    "env", "var", "enc", "encoded", "data",
];

/// Words that make a name sound secret enough for a high-entropy value under it to be
/// hidden ([`sounds_secret`]), wherever they stand in the name: `token_value`,
/// `KEY`, `hmac_salt`.
pub(super) const SECRETISH_WORDS: &[&str] = &[
    "secret",
    "secrets",
    "token",
    "key",
    "pass",
    "pwd",
    "password",
    "passwd",
    "auth",
    "credential",
    "credentials",
    "creds",
    "api",
    "private",
    "signature",
    "sig",
    "hmac",
    "salt",
    "session",
    "cookie",
];

/// What every secret or secret-sounding name contains somewhere, in any case: a cheap
/// test that lets most names through without splitting them into words.
pub(super) const STEMS: &[&str] = &[
    "pass", "pwd", "secret", "token", "key", "auth", "cred", "api", "private", "sig", "hmac",
    "salt", "session", "cookie",
];

/// For each of a stem's first three places and each byte, the [`STEMS`] that have that
/// byte there in either case, as bits. Where the three bytes from a place of a name
/// agree on no stem (nearly everywhere), no stem starts there, so the search below
/// compares a whole stem almost never: this test runs at every `=` and `:` of every
/// text redacted, and was once most of redaction's time.
const STEM_BYTES: [[u16; 256]; 3] = {
    assert!(STEMS.len() <= 16);
    let mut table = [[0u16; 256]; 3];
    let mut s = 0;
    while s < STEMS.len() {
        let stem = STEMS[s].as_bytes();
        assert!(stem.len() >= 3);
        let mut place = 0;
        while place < 3 {
            let b = stem[place];
            table[place][b.to_ascii_lowercase() as usize] |= 1 << s;
            table[place][b.to_ascii_uppercase() as usize] |= 1 << s;
            place += 1;
        }
        s += 1;
    }
    table
};

/// Whether `name` contains any of [`STEMS`], in any case.
pub(super) fn mentions_secret(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.windows(3).enumerate().any(|(at, three)| {
        let mut starting = STEM_BYTES[0][three[0] as usize]
            & STEM_BYTES[1][three[1] as usize]
            & STEM_BYTES[2][three[2] as usize];
        while starting != 0 {
            let stem = STEMS[starting.trailing_zeros() as usize].as_bytes();
            if bytes[at..]
                .get(..stem.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(stem))
            {
                return true;
            }
            starting &= starting - 1;
        }
        false
    })
}

/// The words of `name`, lowercased: `awsSecretAccessKey2` -> `aws secret access key`.
pub(crate) fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphabetic() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        // A hump: `apiKey` (lower then upper), or `APIKey` (the last upper before a lower).
        let hump = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase() || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if hump && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        word.extend(c.to_lowercase());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Whether `name` (a variable, field or key) says its value is a secret; see the
/// module docs for the rule. Quotes and brackets around a key (`'password'`,
/// `["token"]`) are ignored, and only the last segment of a dotted name counts.
pub fn is_secret_name(name: &str) -> bool {
    if !mentions_secret(name) {
        return false;
    }
    let words = name_words(name);
    let Some(last) = words.last() else {
        return false;
    };
    if SECRET_WORDS.contains(&last.as_str()) {
        return true;
    }
    if let [.., before, last] = words.as_slice() {
        if SECRET_PAIRS.contains(&(before.as_str(), last.as_str())) {
            return true;
        }
    }
    // One long lowercase or uppercase word: `dbpassword`, `APIKEY`.
    words.len() == 1 && SECRET_ENDINGS.iter().any(|e| last.ends_with(e))
}

/// The words of `name`'s last segment that say what it holds: storage words
/// (`_str`, `_b64`) dropped from its end. `self.db_password_str` -> `db password`.
pub(super) fn name_words(name: &str) -> Vec<String> {
    let mut words = words(last_segment(name));
    while words.len() > 1
        && words
            .last()
            .is_some_and(|w| STORAGE_WORDS.contains(&w.as_str()))
    {
        words.pop();
    }
    words
}

/// Whether any word of `name` sounds secret (`key`, `token`, `salt`, ...): a
/// high-entropy value under it is hidden even where [`is_secret_name`] is false.
pub fn sounds_secret(name: &str) -> bool {
    mentions_secret(name)
        && words(last_segment(name))
            .iter()
            .any(|w| SECRETISH_WORDS.contains(&w.as_str()))
}

/// The last segment of a dotted or indexed name: `self.password` -> `password`,
/// `'api_key'` -> `api_key`.
pub(super) fn last_segment(name: &str) -> &str {
    let name = name.trim_matches(|c: char| "'\"`[]$@*&".contains(c) || c.is_whitespace());
    name.rsplit(['.', '>', ':', '[']).next().unwrap_or(name)
}

/// Where `expression` is only a path to one value (`password`, `self.api_key`,
/// `config["db"]["password"]`, `secret[:3]`), the name it ends at (`password`); `None`
/// where it computes something (`len(password)`, `password == x`,
/// `token.startswith("ghp_")`): a derived fact is shown, a value that would show the
/// secret is not.
pub fn expression_name(expression: &str) -> Option<&str> {
    let bytes = expression.as_bytes();
    let mut last: Option<(usize, usize)> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'"' || b == b'\'' {
            let start = i + 1;
            let end = start + bytes[start..].iter().position(|&c| c == b)?;
            last = Some((start, end));
            i = end + 1;
        } else if b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80 {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] >= 0x80)
            {
                i += 1;
            }
            // An index (`items[3]`, `[:3]`) names nothing.
            if !bytes[start..i].iter().all(u8::is_ascii_digit) {
                last = Some((start, i));
            }
        } else if b"$@.[]:*&-".contains(&b) || (b == b'>' && i > 0 && bytes[i - 1] == b'-') {
            // Member access, indexing and slicing (`p->key`, `s[1:-1]`) still show
            // the value, or part of it.
            i += 1;
        } else {
            return None; // a call, an operator, a space: it computes something
        }
    }
    let (start, end) = last?;
    expression.get(start..end)
}
