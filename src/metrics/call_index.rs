//! Tool calls interned to small ids, so repeated trajectory matching (a prepared case scored
//! under several configs) compares integers.
//!
//! Each call's args are written in a canonical byte form under which two JSON values encode
//! equally exactly when Python's `==` holds for them: integral numbers and booleans become the
//! same exact integer (`1 == 1.0 == true`), other floats keep their bits (`-0.0` is `0`), dict
//! keys are sorted, list order is kept. Interning compares the bytes, so equal ids mean equal
//! calls with no hashing shortcut.

use crate::schema::{FunctionCall, Invocation};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// One call as two ids: its name alone (for `ignore_args`) and its name with its args.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallId {
    pub name: u32,
    pub full: u32,
}

/// Per invocation, its tool calls as ids; built once per case (or once per prepared case).
#[derive(Debug, Clone, Default)]
pub struct CallIndex {
    pub actual: Vec<Vec<CallId>>,
    pub expected: Vec<Vec<CallId>>,
}

/// FNV-1a over the encoded bytes: the keys are short and built by us, so a keyed (DoS-resistant)
/// hash buys nothing here and SipHash was most of the interning time.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

#[derive(Default)]
struct Interner {
    ids: HashMap<Vec<u8>, u32, BuildHasherDefault<Fnv>>,
}

impl Interner {
    /// The id of `bytes`, allocating only for a call not seen before.
    fn id(&mut self, bytes: &[u8]) -> u32 {
        if let Some(&id) = self.ids.get(bytes) {
            return id;
        }
        let next = self.ids.len() as u32;
        self.ids.insert(bytes.to_vec(), next);
        next
    }
}

fn int_of_float(f: f64) -> Option<i128> {
    (f.is_finite() && f.fract() == 0.0 && f.abs() < 1.0e38).then_some(f as i128)
}

fn encode_number(n: &serde_json::Number, out: &mut Vec<u8>) {
    let int = n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from));
    let int = int.or_else(|| n.as_f64().and_then(int_of_float));
    match int {
        Some(i) => {
            out.push(b'i');
            out.extend_from_slice(&i.to_le_bytes());
        }
        None => {
            out.push(b'f');
            out.extend_from_slice(&n.as_f64().unwrap_or(f64::NAN).to_bits().to_le_bytes());
        }
    }
}

fn encode_str(s: &str, out: &mut Vec<u8>) {
    out.extend_from_slice(&(s.len() as u64).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

fn encode_map(m: &Map<String, Value>, out: &mut Vec<u8>) {
    out.push(b'{');
    out.extend_from_slice(&(m.len() as u64).to_le_bytes());
    // Keys in sorted order (a JSON object's keys are unique, so the order is total).
    for (k, v) in crate::schema::value::sorted_entries(m) {
        encode_str(k, out);
        encode(v, out);
    }
}

fn encode(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Null => out.push(b'n'),
        Value::Bool(b) => {
            out.push(b'i');
            out.extend_from_slice(&i128::from(*b).to_le_bytes());
        }
        Value::Number(n) => encode_number(n, out),
        Value::String(s) => {
            out.push(b's');
            encode_str(s, out);
        }
        Value::Array(a) => {
            out.push(b'[');
            out.extend_from_slice(&(a.len() as u64).to_le_bytes());
            for x in a {
                encode(x, out);
            }
        }
        Value::Object(m) => encode_map(m, out),
    }
}

fn call_id(c: &FunctionCall, names: &mut Interner, fulls: &mut Interner, buf: &mut Vec<u8>) -> CallId {
    buf.clear();
    match &c.name {
        None => buf.push(b'-'),
        Some(n) => {
            buf.push(b'+');
            encode_str(n, buf);
        }
    }
    let name = names.id(buf);
    match &c.args {
        None => buf.push(b'-'),
        Some(m) => encode_map(m, buf),
    }
    CallId {
        name,
        full: fulls.id(buf),
    }
}

impl CallIndex {
    pub fn build(actual: &[Invocation], expected: Option<&[Invocation]>) -> CallIndex {
        let (mut names, mut fulls, mut buf) = (Interner::default(), Interner::default(), Vec::with_capacity(256));
        let mut ids = |invs: &[Invocation]| -> Vec<Vec<CallId>> {
            invs.iter()
                .map(|inv| {
                    inv.tool_calls()
                        .into_iter()
                        .map(|c| call_id(c, &mut names, &mut fulls, &mut buf))
                        .collect()
                })
                .collect()
        };
        let actual = ids(actual);
        let expected = expected.map(&mut ids).unwrap_or_default();
        CallIndex { actual, expected }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::pyeq::py_eq_obj;
    use serde_json::json;

    use crate::metrics::test_call as call;

    #[test]
    fn key_order_does_not_matter_even_with_many_keys() {
        // Issue 9's reproducer: 16,000 keys took 3.7 s when each next key was found by a scan.
        let n = 16_000;
        let forward: Map<String, Value> = (0..n).map(|i| (format!("k{i}"), json!(i))).collect();
        let backward: Map<String, Value> = (0..n).rev().map(|i| (format!("k{i}"), json!(i))).collect();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        encode_map(&forward, &mut a);
        encode_map(&backward, &mut b);
        assert_eq!(a, b);
        let mut shifted = backward.clone();
        shifted.insert("k0".into(), json!(1));
        let mut c = Vec::new();
        encode_map(&shifted, &mut c);
        assert_ne!(a, c);
    }

    #[test]
    fn ids_agree_with_python_equality() {
        let args = [
            json!({"a": 1}),
            json!({"a": 1.0}),
            json!({"a": true}),
            json!({"a": 2}),
            json!({"a": "1"}),
            json!({"a": null}),
            json!({}),
            json!({"a": [1, 2]}),
            json!({"a": [2, 1]}),
            json!({"b": 1, "a": 0.5}),
            json!({"a": 0.5, "b": 1.0}),
            json!({"a": -0.0}),
            json!({"a": 0}),
            json!({"a": 9007199254740993u64}),
            json!({"a": 9007199254740992.0}),
            json!({"a": {"x": [false]}}),
            json!({"a": {"x": [0]}}),
        ];
        let calls: Vec<FunctionCall> = args.iter().map(|a| call("f", a.clone())).collect();
        let (mut n, mut f) = (Interner::default(), Interner::default());
        let mut buf = Vec::new();
        let ids: Vec<CallId> = calls.iter().map(|c| call_id(c, &mut n, &mut f, &mut buf)).collect();
        for (i, a) in calls.iter().enumerate() {
            for (j, b) in calls.iter().enumerate() {
                assert_eq!(
                    ids[i].full == ids[j].full,
                    py_eq_obj(a.args.as_ref(), b.args.as_ref()),
                    "{} vs {}",
                    args[i],
                    args[j]
                );
            }
        }
        let none = FunctionCall {
            name: Some("f".into()),
            ..FunctionCall::default()
        };
        let none_id = call_id(&none, &mut n, &mut f, &mut buf);
        assert_ne!(none_id.full, ids[6].full, "missing args differ from {{}}");
        assert_eq!(none_id.name, ids[0].name);
    }
}
