//! Base64-encoded bytes as google.genai writes them: both alphabets accepted, URL-safe padded written.

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The bytes of a `Blob.data` or `Part.thought_signature`, as base64 text (both alphabets read,
/// the URL-safe one written).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Bytes(#[cfg_attr(feature = "ts", ts(type = "string"))] pub Vec<u8>);

fn sextet(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    }
}

/// Decodes standard or URL-safe base64, padding optional (as pydantic's bytes validator does).
pub fn decode(s: &str) -> Option<Vec<u8>> {
    let body = s.trim_end_matches('=');
    if s.len() - body.len() > 2 {
        return None;
    }
    let mut out = Vec::with_capacity(body.len() * 3 / 4 + 2);
    let mut acc: u32 = 0;
    let mut bits = 0u32;
    for &c in body.as_bytes() {
        acc = (acc << 6) | u32::from(sextet(c)?);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // A single leftover sextet cannot encode a byte.
    if body.len() % 4 == 1 {
        return None;
    }
    Some(out)
}

const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Encodes with the URL-safe alphabet and padding, as google.genai dumps bytes.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let idx = [(n >> 18) & 63, (n >> 12) & 63, (n >> 6) & 63, n & 63];
        let keep = chunk.len() + 1;
        for (i, &k) in idx.iter().enumerate() {
            if i < keep {
                out.push(char::from(URL_SAFE.get(k as usize).copied().unwrap_or(b'A')));
            } else {
                out.push('=');
            }
        }
    }
    out
}

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&encode(&self.0))
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = Bytes;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a base64 string (standard or URL-safe alphabet)")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Bytes, E> {
                decode(v)
                    .map(Bytes)
                    .ok_or_else(|| E::custom("invalid base64: expected standard or URL-safe base64 text"))
            }
        }
        d.deserialize_str(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_alphabets_and_optional_padding() {
        assert_eq!(decode("+/8=").unwrap(), vec![0xfb, 0xff]);
        assert_eq!(decode("-_8").unwrap(), vec![0xfb, 0xff]);
        assert_eq!(decode("aGVsbG8").unwrap(), b"hello");
        assert_eq!(encode(&[0xfb, 0xff]), "-_8=");
        assert_eq!(encode(b"hello"), "aGVsbG8=");
        assert!(decode("a").is_none());
        assert!(decode("ab$=").is_none());
        assert!(decode("ab===").is_none());
        assert_eq!(decode("").unwrap(), Vec::<u8>::new());
    }
}
