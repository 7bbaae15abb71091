//! Python `==` on decoded JSON, as ADK compares tool-call args: 1 == 1.0 == true, key order free.

use serde_json::{Number, Value};

/// A JSON number (or bool) as Python would hold it: exact integer or float.
#[derive(Clone, Copy)]
enum PyNum {
    Int(i128),
    Float(f64),
}

fn as_pynum(v: &Value) -> Option<PyNum> {
    match v {
        Value::Bool(b) => Some(PyNum::Int(i128::from(*b))),
        Value::Number(n) => Some(number(n)),
        _ => None,
    }
}

fn number(n: &Number) -> PyNum {
    if let Some(i) = n.as_i64() {
        PyNum::Int(i128::from(i))
    } else if let Some(u) = n.as_u64() {
        PyNum::Int(i128::from(u))
    } else {
        PyNum::Float(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// Python compares int and float exactly (no rounding of the int to a double).
fn int_eq_float(i: i128, f: f64) -> bool {
    if !f.is_finite() || f.fract() != 0.0 || f.abs() >= 1.7e38 {
        return false;
    }
    (f as i128) == i
}

fn num_eq(a: PyNum, b: PyNum) -> bool {
    match (a, b) {
        (PyNum::Int(x), PyNum::Int(y)) => x == y,
        (PyNum::Float(x), PyNum::Float(y)) => x == y,
        (PyNum::Int(i), PyNum::Float(f)) | (PyNum::Float(f), PyNum::Int(i)) => int_eq_float(i, f),
    }
}

/// Deep equality with Python semantics.
pub fn py_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| py_eq(p, q)),
        (Value::Object(x), Value::Object(y)) => map_eq(x, y),
        _ => match (as_pynum(a), as_pynum(b)) {
            (Some(x), Some(y)) => num_eq(x, y),
            _ => false,
        },
    }
}

/// Dict equality: same keys, Python-equal values. Tool args are small, where a linear scan
/// beats hashing every key.
fn map_eq(x: &serde_json::Map<String, Value>, y: &serde_json::Map<String, Value>) -> bool {
    if x.len() != y.len() {
        return false;
    }
    if x.len() <= 8 {
        return x
            .iter()
            .all(|(k, v)| y.iter().find(|(k2, _)| *k2 == k).is_some_and(|(_, w)| py_eq(v, w)));
    }
    x.iter().all(|(k, v)| y.get(k).is_some_and(|w| py_eq(v, w)))
}

/// Equality of two optional JSON objects (`None` is Python's None, which differs from `{}`).
pub fn py_eq_obj(a: Option<&serde_json::Map<String, Value>>, b: Option<&serde_json::Map<String, Value>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => map_eq(x, y),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn python_equality() {
        assert!(py_eq(&json!(1), &json!(1.0)));
        assert!(py_eq(&json!(true), &json!(1)));
        assert!(py_eq(&json!(false), &json!(0.0)));
        assert!(!py_eq(&json!("1"), &json!(1)));
        assert!(py_eq(&json!({"a": 1, "b": [1, 2]}), &json!({"b": [1.0, 2], "a": true})));
        assert!(!py_eq(&json!([1, 2]), &json!([2, 1])));
        assert!(!py_eq(&json!({"a": null}), &json!({})));
        assert!(!py_eq(&json!(9007199254740993u64), &json!(9007199254740992.0)));
        assert!(py_eq(&json!(9007199254740992u64), &json!(9007199254740992.0)));
        assert!(!py_eq(&json!(null), &json!(0)));
        assert!(!py_eq_obj(None, Some(&serde_json::Map::new())));
    }
}
