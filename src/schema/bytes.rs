//! Base64-encoded bytes as google.genai writes them: both alphabets accepted, URL-safe padded written.

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::rc::Rc;

/// The bytes of a `Blob.data` or `Part.thought_signature`, as base64 text (both alphabets read,
/// the URL-safe one written). Decoded once when read and shared thereafter: a clone (an
/// invocation kept in a result, media handed to a judge request) copies no bytes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Bytes(#[cfg_attr(feature = "ts", ts(type = "string"))] pub Rc<[u8]>);

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
const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Encodes with the URL-safe alphabet and padding, as google.genai dumps bytes.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    encode_into(bytes, URL_SAFE, &mut out);
    out
}

/// Standard base64 (`+/`, padded) of `bytes`, as providers take media, written by `Display`
/// (`format!`/`write!` or serde's `collect_str` stream it into their output: no intermediate string).
pub struct StandardBase64<'a>(pub &'a [u8]);

impl fmt::Display for StandardBase64<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // 3 KiB of input per 4 KiB piece of output.
        let mut piece = String::with_capacity(4096);
        for block in self.0.chunks(3072) {
            piece.clear();
            encode_into(block, STANDARD, &mut piece);
            f.write_str(&piece)?;
        }
        Ok(())
    }
}

fn encode_into(bytes: &[u8], alphabet: &[u8; 64], out: &mut String) {
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
                out.push(char::from(alphabet.get(k as usize).copied().unwrap_or(b'A')));
            } else {
                out.push('=');
            }
        }
    }
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
                    .map(|b| Bytes(b.into()))
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
        assert_eq!(StandardBase64(&[0xfb, 0xff]).to_string(), "+/8=");
        // Pieces of 3 KiB join without padding in between.
        let long: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        assert_eq!(
            StandardBase64(&long).to_string().replace('+', "-").replace('/', "_"),
            encode(&long)
        );
    }
}
