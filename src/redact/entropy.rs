//! Whether a string looks random enough to be a key: long, of mixed characters, and
//! of high Shannon entropy. Used only for values under a name that sounds secret
//! ([`sounds_secret`](super::names::sounds_secret)), where a word is not enough.

/// The fewest characters a string needs to count as high-entropy: 16 (a 64-bit key in
/// hex). Shorter strings are too short to tell from words.
pub const MIN_HIGH_ENTROPY_CHARS: usize = 16;

/// The least Shannon entropy, in bits per character, of a high-entropy string: 3.5.
/// English words and identifiers score about 2.5 to 3.3; hex keys score near 4 and
/// base64 keys near 5 (over their first few dozen characters).
pub const HIGH_ENTROPY_BITS_PER_CHAR: f64 = 3.5;

/// Whether `value` looks like a random key: at least [`MIN_HIGH_ENTROPY_CHARS`], no
/// spaces, letters and digits both, and at least [`HIGH_ENTROPY_BITS_PER_CHAR`].
pub fn is_high_entropy(value: &str) -> bool {
    let chars = value.chars().count();
    if chars < MIN_HIGH_ENTROPY_CHARS || value.chars().any(char::is_whitespace) {
        return false;
    }
    if !(value.chars().any(|c| c.is_ascii_alphabetic())
        && value.chars().any(|c| c.is_ascii_digit()))
    {
        return false;
    }
    bits_per_char(value) >= HIGH_ENTROPY_BITS_PER_CHAR
}

/// The Shannon entropy of `value`'s bytes, in bits per byte.
fn bits_per_char(value: &str) -> f64 {
    let mut counts = [0usize; 256];
    for &b in value.as_bytes() {
        counts[b as usize] += 1;
    }
    let n = value.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}
