//! Base64 (RFC 4648, standard alphabet, padded), the encoding DAP uses for memory in
//! `readMemory` and `writeMemory`.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` as padded base64.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The bytes `text` encodes. Whitespace is ignored and padding may be left out; any
/// other character outside the alphabet is an error naming it and where it is.
pub fn decode(text: &str) -> Result<Vec<u8>, String> {
    let mut sextets = Vec::with_capacity(text.len());
    let mut padding = 0;
    for (at, c) in text.char_indices() {
        if c.is_ascii_whitespace() {
            continue;
        }
        if c == '=' {
            padding += 1;
            continue;
        }
        if padding > 0 {
            return Err(format!("`{c}` at {at} comes after the `=` padding"));
        }
        let value = match c {
            'A'..='Z' => c as u8 - b'A',
            'a'..='z' => c as u8 - b'a' + 26,
            '0'..='9' => c as u8 - b'0' + 52,
            '+' => 62,
            '/' => 63,
            _ => return Err(format!("`{c}` at {at} is not a base64 character")),
        };
        sextets.push(value);
    }
    if sextets.len() % 4 == 1 || padding > 2 {
        return Err("the length is not that of any base64 text".into());
    }
    let mut out = Vec::with_capacity(sextets.len() * 3 / 4);
    for chunk in sextets.chunks(4) {
        let mut n = 0u32;
        for (i, s) in chunk.iter().enumerate() {
            n |= u32::from(*s) << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_length_and_byte() {
        let bytes: Vec<u8> = (0..=255).collect();
        for len in 0..bytes.len() {
            let text = encode(&bytes[..len]);
            assert_eq!(text.len() % 4, 0);
            assert_eq!(decode(&text).unwrap(), &bytes[..len]);
        }
    }

    #[test]
    fn matches_the_rfc_examples() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(plain.as_bytes()), coded);
            assert_eq!(decode(coded).unwrap(), plain.as_bytes());
        }
        assert_eq!(decode("Zm9vYg").unwrap(), b"foob");
        assert_eq!(decode("Zm9v\nYmFy").unwrap(), b"foobar");
    }

    #[test]
    fn bad_text_says_what_is_wrong() {
        assert!(decode("Zm9v!").unwrap_err().contains("`!` at 4"));
        assert!(decode("Zg==Zg").unwrap_err().contains("after the `=`"));
        assert!(decode("Z").unwrap_err().contains("length"));
    }
}
