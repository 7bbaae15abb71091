//! ADK's files as pydantic writes them: model field order, Python floats (`1.0`), statuses as
//! integers, bytes in URL-safe base64, two-space indentation and no trailing newline; either
//! every field (`model_dump_json(indent=2)`: result files, migrated eval sets) or only the
//! non-null, non-default ones (eval sets ADK saves).
//!
//! The writer walks the JSON of the typed model (serde's one serializer per type) with ADK's
//! field tables (`adk_models`), so no type needs a second serializer; a value a table does not
//! describe is written as it is.

use super::adk_models::{Dflt, Model, Ty, EVAL_SET, EVAL_SET_RESULT, INTERMEDIATE_DATA, INVOCATION_EVENTS};
use super::pyfmt::pydantic_float;
use crate::schema::eval_result::EvalSetResult;
use crate::schema::personas;
use crate::schema::result::EvalStatus;
use serde_json::{Map, Value};
use Ty::{Bytes, Float, Intermediate, List, Pair, Status};

/// An EvalSetResult as the text ADK 2.13 writes to `.adk/eval_history`: every field, statuses
/// as integers, evalcore's own fields on case results kept (ADK ignores them).
pub fn eval_set_result_text(result: &EvalSetResult) -> String {
    let v = crate::schema::load::value_of(result);
    dump(&v, &EVAL_SET_RESULT, false)
}

/// An eval set (the current schema, snake_case) as ADK writes it: every field (`compact`
/// false: a migrated set), or only non-null, non-default ones (`compact`: a set ADK saves).
/// A scenario's built-in persona id is written as the persona object, as ADK writes it.
pub fn eval_set_text(set: &Value, compact: bool) -> String {
    let mut set = set.clone();
    expand_personas(&mut set);
    dump(&set, &EVAL_SET, compact)
}

fn expand_personas(set: &mut Value) {
    let cases = set.get_mut("eval_cases").and_then(Value::as_array_mut);
    for case in cases.into_iter().flatten() {
        let Some(persona) = case.pointer_mut("/conversation_scenario/user_persona") else {
            continue;
        };
        if let Some(p) = persona.as_str().and_then(personas::builtin) {
            *persona = crate::schema::load::value_of(&p);
        }
    }
}

fn dump(v: &Value, m: &'static Model, compact: bool) -> String {
    let mut w = Writer {
        out: String::new(),
        compact,
    };
    w.typed(v, Ty::Model(m), 0);
    w.out
}

struct Writer {
    out: String,
    compact: bool,
}

/// `key` is `snake` written in camelCase (`user_content` / `userContent`).
fn is_camel_of(key: &str, snake: &str) -> bool {
    let mut k = key.chars();
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
            continue;
        }
        let want = if upper { c.to_ascii_uppercase() } else { c };
        upper = false;
        if k.next() != Some(want) {
            return false;
        }
    }
    k.next().is_none()
}

fn is_default(v: &Value, d: Dflt) -> bool {
    use Dflt::*;
    match d {
        Required => false,
        Null => v.is_null(),
        EmptyList => v.as_array().is_some_and(Vec::is_empty),
        EmptyObject => v.as_object().is_some_and(Map::is_empty),
        Zero => v.as_f64() == Some(0.0),
        EmptyStr => v.as_str() == Some(""),
        False => v.as_bool() == Some(false),
    }
}

fn default_value(d: Dflt) -> Value {
    use Dflt::*;
    match d {
        Required | Null => Value::Null,
        EmptyList => Value::Array(Vec::new()),
        EmptyObject => Value::Object(Map::new()),
        Zero => Value::from(0),
        EmptyStr => Value::String(String::new()),
        False => Value::Bool(false),
    }
}

/// Standard or URL-safe base64 (padding optional) as pydantic writes bytes: URL-safe, padded.
fn url_safe_base64(s: &str) -> String {
    let mut out: String = s
        .trim_end_matches('=')
        .chars()
        .map(|c| match c {
            '+' => '-',
            '/' => '_',
            c => c,
        })
        .collect();
    while out.len() % 4 != 0 {
        out.push('=');
    }
    out
}

impl Writer {
    fn newline(&mut self, indent: usize) {
        self.out.push('\n');
        self.out.extend(std::iter::repeat_n(' ', indent));
    }

    fn string(&mut self, s: &str) {
        self.out
            .push_str(&serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string()));
    }

    /// `[a, b]` over `items`, each written by `f`.
    fn seq<'v>(
        &mut self,
        items: impl ExactSizeIterator<Item = &'v Value>,
        indent: usize,
        f: impl Fn(&mut Self, usize, &'v Value, usize),
    ) {
        if items.len() == 0 {
            self.out.push_str("[]");
            return;
        }
        self.out.push('[');
        for (i, v) in items.enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.newline(indent + 2);
            f(self, i, v, indent + 2);
        }
        self.newline(indent);
        self.out.push(']');
    }

    /// `{"k": v}` over `entries`, each value written by `f` with its type.
    fn object(&mut self, entries: &[(&str, &Value, Option<Ty>)], indent: usize) {
        if entries.is_empty() {
            self.out.push_str("{}");
            return;
        }
        self.out.push('{');
        for (i, (k, v, ty)) in entries.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.newline(indent + 2);
            self.string(k);
            self.out.push_str(": ");
            match ty {
                Some(t) => self.typed(v, *t, indent + 2),
                None => self.plain(v, indent + 2),
            }
        }
        self.newline(indent);
        self.out.push('}');
    }

    /// A value the tables do not describe; floats as pydantic writes them.
    fn plain(&mut self, v: &Value, indent: usize) {
        match v {
            Value::Null => self.out.push_str("null"),
            Value::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => match n.as_f64() {
                Some(x) if n.is_f64() => self.out.push_str(&pydantic_float(x)),
                _ => self.out.push_str(&n.to_string()),
            },
            Value::String(s) => self.string(s),
            Value::Array(items) => self.seq(items.iter(), indent, |w, _, v, i| w.plain(v, i)),
            Value::Object(map) => {
                let entries: Vec<(&str, &Value, Option<Ty>)> = map.iter().map(|(k, v)| (k.as_str(), v, None)).collect();
                self.object(&entries, indent);
            }
        }
    }

    fn typed(&mut self, v: &Value, ty: Ty, indent: usize) {
        match (ty, v) {
            (_, Value::Null) => self.out.push_str("null"),
            (Float, Value::Number(n)) => self.out.push_str(&pydantic_float(n.as_f64().unwrap_or(f64::NAN))),
            (Status, Value::String(s)) if EvalStatus::from_name(s).is_some() => {
                let code = EvalStatus::from_name(s).map_or(0, EvalStatus::as_int);
                self.out.push_str(&code.to_string());
            }
            (Bytes, Value::String(s)) => self.string(&url_safe_base64(s)),
            (Intermediate, Value::Object(map)) => {
                let events = map.contains_key("invocation_events") || map.contains_key("invocationEvents");
                let m = if events { &INVOCATION_EVENTS } else { &INTERMEDIATE_DATA };
                self.model(map, m, indent);
            }
            (Ty::Model(m), Value::Object(map)) => self.model(map, m, indent),
            (List(t), Value::Array(items)) => self.seq(items.iter(), indent, |w, _, v, i| w.typed(v, *t, i)),
            (Ty::Dict(t), Value::Object(map)) => {
                let entries: Vec<(&str, &Value, Option<Ty>)> =
                    map.iter().map(|(k, v)| (k.as_str(), v, Some(*t))).collect();
                self.object(&entries, indent);
            }
            (Pair(t), Value::Array(items)) if items.len() == 2 => {
                // (author, parts): the author as it is, the parts typed.
                self.seq(items.iter(), indent, |w, k, v, i| {
                    if k == 1 {
                        w.typed(v, *t, i)
                    } else {
                        w.plain(v, i)
                    }
                });
            }
            _ => self.plain(v, indent),
        }
    }

    fn model(&mut self, map: &Map<String, Value>, m: &'static Model, indent: usize) {
        let defaults: Vec<Value> = m.fields.iter().map(|(_, _, d)| default_value(*d)).collect();
        let mut entries: Vec<(&str, &Value, Option<Ty>)> = Vec::with_capacity(m.fields.len());
        for ((name, ty, dflt), default) in m.fields.iter().zip(&defaults) {
            let found = map
                .get(*name)
                .or_else(|| map.iter().find(|(k, _)| is_camel_of(k, name)).map(|(_, v)| v));
            match found {
                Some(v) if self.compact && (v.is_null() || is_default(v, *dflt)) => {}
                Some(v) => entries.push((name, v, Some(*ty))),
                None if self.compact => {}
                None => entries.push((name, default, Some(*ty))),
            }
        }
        if m.keep_extra {
            for (k, v) in map {
                let known = m.fields.iter().any(|(name, _, _)| k == name || is_camel_of(k, name));
                let dropped = known || (self.compact && v.is_null());
                if !dropped {
                    entries.push((k, v, None));
                }
            }
        }
        self.object(&entries, indent);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn floats_statuses_bytes_and_defaults_as_pydantic_writes_them() {
        let set = json!({"eval_set_result_id": "r", "eval_set_id": "s", "eval_case_results": [{
            "eval_id": "c", "final_eval_status": "FAILED", "session_id": "",
            "overall_eval_metric_results": [{"metric_name": "m", "score": 1, "eval_status": "INFORMATIONAL",
                "details": {"error": "why"}}],
            "eval_metric_result_per_invocation": [{"actual_invocation": {"user_content": {"parts": [
                {"text": "hi", "thought_signature": "a+b/cw"}]}}, "eval_metric_results": []}],
            "run": 2
        }]});
        let r: EvalSetResult = serde_json::from_value(set).unwrap();
        let text = eval_set_result_text(&r);
        let back: Value = serde_json::from_str(&text).unwrap();
        let c = &back["eval_case_results"][0];
        assert_eq!(c["final_eval_status"], 2);
        assert_eq!(c["run"], 2, "evalcore's fields stay on case results");
        let m = &c["overall_eval_metric_results"][0];
        assert_eq!(m["eval_status"], 4);
        assert!(text.contains("\"score\": 1.0,"), "{text}");
        assert_eq!(
            m["details"],
            json!({"rubric_scores": null, "token_usage_details": null, "duration_details": null})
        );
        let part = &c["eval_metric_result_per_invocation"][0]["actual_invocation"]["user_content"]["parts"][0];
        assert_eq!(part["thought_signature"], "a-b_cw==");
        assert_eq!(part.as_object().unwrap().len(), 17, "every Part field, nulls included");
        assert!(text.starts_with("{\n  \"eval_set_result_id\": \"r\",\n  \"eval_set_result_name\": null,"));
        assert!(text.ends_with("\"creation_timestamp\": 0.0\n}"), "{text}");
    }

    #[test]
    fn compact_eval_sets_leave_out_nulls_and_defaults() {
        let set = json!({"eval_set_id": "s", "name": null, "eval_cases": [{"eval_id": "a", "conversation": [
            {"invocation_id": "", "user_content": {"parts": [{"text": "q"}], "role": "user"}, "creation_timestamp": 0}
        ], "final_session_state": {}, "creation_timestamp": 1.5}], "creation_timestamp": 0.0});
        assert_eq!(
            eval_set_text(&set, true),
            "{\n  \"eval_set_id\": \"s\",\n  \"eval_cases\": [\n    {\n      \"eval_id\": \"a\",\n      \"conversation\": [\n        {\n          \"user_content\": {\n            \"parts\": [\n              {\n                \"text\": \"q\"\n              }\n            ],\n            \"role\": \"user\"\n          }\n        }\n      ],\n      \"creation_timestamp\": 1.5\n    }\n  ]\n}"
        );
        let full = eval_set_text(&set, false);
        assert!(full.contains("\"description\": null"), "{full}");
        assert!(full.contains("\"final_session_state\": {}"), "{full}");
    }

    #[test]
    fn camel_case_keys_are_read_as_their_fields() {
        assert!(is_camel_of("userContent", "user_content"));
        assert!(is_camel_of("evalId", "eval_id"));
        assert!(!is_camel_of("user_content", "user_content_x"));
        assert!(!is_camel_of("usercontent", "user_content"));
    }
}
