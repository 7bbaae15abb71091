//! Helpers shared by the fuzz targets: splitting one input into several arguments, and the
//! checks every boundary answer must pass (the JS skin `JSON.parse`s each envelope).

use serde_json::Value;

/// Splits `data` at the first NUL byte: the text before it and (lossily decoded) the text
/// after it, so one input can carry a document and its options.
pub fn split2(data: &[u8]) -> (&[u8], String) {
    match data.iter().position(|&b| b == 0) {
        Some(i) => (
            data.get(..i).unwrap_or_default(),
            String::from_utf8_lossy(data.get(i + 1..).unwrap_or_default()).into_owned(),
        ),
        None => (data, String::new()),
    }
}

/// Every answer that crosses the wasm boundary is JSON text the JS skin parses.
pub fn assert_json(text: &str) -> Value {
    match serde_json::from_str::<Value>(text) {
        Ok(v) => v,
        Err(e) => panic!("the core answered text that is not JSON ({e}): {text:?}"),
    }
}

/// An envelope holds exactly one of `ok` and `error`; an error carries a code and a path.
pub fn assert_envelope(text: &str) {
    let v = assert_json(text);
    let ok = v.get("ok").is_some();
    let err = v.get("error");
    assert!(ok != err.is_some(), "not an envelope: {text:?}");
    if let Some(e) = err {
        assert!(
            e.get("code").and_then(Value::as_str).is_some(),
            "error without code: {text:?}"
        );
        assert!(
            e.get("path").and_then(Value::as_str).is_some(),
            "error without path: {text:?}"
        );
    }
}
