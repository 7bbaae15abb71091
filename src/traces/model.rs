//! OTLP trace and log data as both readers (JSON, protobuf) hand it on: spans and log records
//! flattened out of their resource and scope, attribute values as OTLP's `AnyValue`.

use serde_json::{Map, Number, Value as Json};
use std::borrow::Cow;

/// OTLP's `AnyValue`. Strings borrow from the input where it allows.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value<'a> {
    #[default]
    Empty,
    Str(Cow<'a, str>),
    Bool(bool),
    Int(i64),
    Double(f64),
    Bytes(Vec<u8>),
    Array(Vec<Value<'a>>),
    Map(Attrs<'a>),
    /// A long string with escapes, still as its JSON literal (quotes included): decoded only
    /// when read (`text`), since most such attributes (each request's whole history) never are.
    Raw(&'a str),
}

/// Key-value pairs in the order they came (OTLP's `repeated KeyValue`).
pub type Attrs<'a> = Vec<(Cow<'a, str>, Value<'a>)>;

impl<'a> Value<'a> {
    /// A string value; None for a [`Value::Raw`] one (read those with [`Value::text`]).
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A string value, decoding a [`Value::Raw`] one.
    pub fn text(&self) -> Option<Cow<'_, str>> {
        match self {
            Value::Str(s) => Some(Cow::Borrowed(s)),
            Value::Raw(lit) => serde_json::from_str::<String>(lit).ok().map(Cow::Owned),
            _ => None,
        }
    }

    /// A string value as it is (a [`Value::Raw`] one still escaped): for looking for a word.
    pub fn as_raw_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            Value::Raw(lit) => Some(lit),
            _ => None,
        }
    }

    /// Whether the value is a string (decoded or not).
    pub fn is_text(&self) -> bool {
        matches!(self, Value::Str(_) | Value::Raw(_))
    }

    /// An integer, also from a whole double or a decimal string (exporters differ).
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            Value::Double(d) if d.fract() == 0.0 && d.abs() < 9.0e15 => Some(*d as i64),
            Value::Str(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    /// The value as JSON: a map becomes an object, ints stay ints and doubles stay doubles
    /// (so `1.0` is still written `1.0`), bytes become base64 as protobuf's JSON writes them.
    pub fn to_json(&self) -> Json {
        match self {
            Value::Empty => Json::Null,
            Value::Str(s) => Json::String(s.to_string()),
            Value::Bool(b) => Json::Bool(*b),
            Value::Int(i) => Json::Number(Number::from(*i)),
            Value::Double(d) => Number::from_f64(*d).map_or(Json::Null, Json::Number),
            Value::Bytes(b) => Json::String(base64(b)),
            Value::Array(a) => Json::Array(a.iter().map(Value::to_json).collect()),
            Value::Map(m) => Json::Object(
                m.iter()
                    .map(|(k, v)| (k.to_string(), v.to_json()))
                    .collect::<Map<_, _>>(),
            ),
            Value::Raw(_) => self.text().map_or(Json::Null, |t| Json::String(t.into_owned())),
        }
    }
}

/// The value under `key` (the first, if an exporter repeated it).
pub fn attr<'b, 'a>(attrs: &'b [(Cow<'a, str>, Value<'a>)], key: &str) -> Option<&'b Value<'a>> {
    attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// The string under `key`, non-empty.
pub fn attr_str<'b>(attrs: &'b [(Cow<'_, str>, Value<'_>)], key: &str) -> Option<&'b str> {
    attr(attrs, key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// A span, with the resource and scope it was exported under.
#[derive(Debug, Clone, Default)]
pub struct Span<'a> {
    pub trace_id: u128,
    pub span_id: u64,
    /// 0 when the span is a root.
    pub parent: u64,
    pub name: Cow<'a, str>,
    pub start: u64,
    pub end: u64,
    pub attrs: Attrs<'a>,
    pub events: Vec<SpanEvent<'a>>,
    /// `status.code` is ERROR.
    pub error: bool,
    /// Index into [`Batch::resources`].
    pub resource: usize,
    pub scope: Cow<'a, str>,
    /// Where the span sits in the input, for warnings (`$.resourceSpans[0].scopeSpans[1].spans[4]`).
    pub at: (usize, usize, usize, usize),
}

#[derive(Debug, Clone, Default)]
pub struct SpanEvent<'a> {
    pub name: Cow<'a, str>,
    pub time: u64,
    pub attrs: Attrs<'a>,
}

/// A log record (where GenAI instrumentations put content as events).
#[derive(Debug, Clone, Default)]
pub struct LogRecord<'a> {
    pub trace_id: u128,
    pub span_id: u64,
    pub time: u64,
    pub event_name: Cow<'a, str>,
    pub body: Value<'a>,
    pub attrs: Attrs<'a>,
    pub resource: usize,
}

/// Everything read from the inputs.
#[derive(Debug, Default)]
pub struct Batch<'a> {
    pub resources: Vec<Attrs<'a>>,
    pub spans: Vec<Span<'a>>,
    pub logs: Vec<LogRecord<'a>>,
    /// What the readers skipped (a span without a valid id), with where it was.
    pub warnings: Vec<super::Warning>,
}

/// Standard base64 (with padding), as protobuf's JSON mapping writes `bytes`.
pub fn base64(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk.first(), chunk.get(1), chunk.get(2)].map(|x| x.copied().unwrap_or(0) as u32);
        let n = (b[0] << 16) | (b[1] << 8) | b[2];
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(T.get(((n >> (18 - 6 * i)) & 63) as usize).map_or('A', |c| *c as char));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Decodes standard or URL-safe base64 (padding optional); None when it is not base64.
pub fn unbase64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => continue,
            _ => return None,
        };
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

/// A trace or span id from its OTLP/JSON text: hex as the OTLP spec has it, or base64 as a
/// generic protobuf JSON writer makes it. None when it is neither, or not `len` bytes.
pub fn id_from_text(s: &str, len: usize) -> Option<u128> {
    let bytes = if s.len() == 2 * len && s.bytes().all(|c| c.is_ascii_hexdigit()) {
        return u128::from_str_radix(s, 16).ok();
    } else {
        unbase64(s)?
    };
    id_from_bytes(&bytes, len)
}

/// A trace or span id from its bytes (big-endian); None unless exactly `len` bytes.
pub fn id_from_bytes(b: &[u8], len: usize) -> Option<u128> {
    (b.len() == len).then(|| b.iter().fold(0u128, |acc, x| (acc << 8) | *x as u128))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_base64() {
        assert_eq!(id_from_text("00000000000000000000000000000001", 16), Some(1));
        assert_eq!(id_from_text("AAAAAAAAAAE=", 8), Some(1));
        assert_eq!(id_from_text("xyz", 8), None);
        assert_eq!(id_from_text("0102", 8), None);
        assert_eq!(base64(b"hello"), "aGVsbG8=");
        assert_eq!(unbase64("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(Value::Double(1.0).to_json().to_string(), "1.0");
        assert_eq!(Value::Int(9007199254740993).to_json().to_string(), "9007199254740993");
    }
}
