//! ADK's files as pydantic writes them: model field order, Python floats (`1.0`), statuses as
//! integers, bytes in URL-safe base64, two-space indentation and no trailing newline; either
//! every field (`model_dump_json(indent=2)`: result files, migrated eval sets) or only the
//! non-null, non-default ones (eval sets ADK saves).
//!
//! The tables below are google-adk 2.13 / google-genai's field lists, in order. The writer walks
//! the JSON of the typed model (serde's one serializer per type), so no type needs a second one;
//! a value a table does not describe is written as it is.

use super::pyfmt::pydantic_float;
use crate::schema::eval_result::EvalSetResult;
use crate::schema::result::EvalStatus;
use serde_json::{Map, Value};

#[derive(Clone, Copy)]
enum Ty {
    /// Written as it is (strings, booleans, ints, free-form values).
    Any,
    Float,
    Status,
    Bytes,
    /// `intermediate_data`: the events shape or the legacy lists, told apart by their keys.
    Intermediate,
    Model(&'static Model),
    List(&'static Ty),
    Dict(&'static Ty),
    /// ADK's `(author, parts)` tuples.
    Pair(&'static Ty),
}

/// A field's pydantic default: written in full dumps when absent, left out of compact ones.
#[derive(Clone, Copy, PartialEq)]
enum Dflt {
    Required,
    Null,
    EmptyList,
    EmptyObject,
    Zero,
    EmptyStr,
    False,
}

struct Model {
    fields: &'static [(&'static str, Ty, Dflt)],
    /// Unknown keys are written after the fields (pydantic `extra="allow"` or ignored-but-ours).
    keep_extra: bool,
}

use Dflt::{EmptyList, EmptyObject, EmptyStr, False, Null, Required, Zero};
use Ty::{Any, Bytes, Float, Intermediate, List, Pair, Status};

const fn model(fields: &'static [(&'static str, Ty, Dflt)]) -> Model {
    Model {
        fields,
        keep_extra: false,
    }
}

static EVAL_SET_RESULT: Model = Model {
    keep_extra: true,
    fields: &[
        ("eval_set_result_id", Any, Required),
        ("eval_set_result_name", Any, Null),
        ("eval_set_id", Any, Required),
        ("eval_case_results", List(&Ty::Model(&EVAL_CASE_RESULT)), EmptyList),
        ("creation_timestamp", Float, Zero),
    ],
};
static EVAL_CASE_RESULT: Model = Model {
    keep_extra: true,
    fields: &[
        ("eval_set_file", Any, Null),
        ("eval_set_id", Any, EmptyStr),
        ("eval_id", Any, EmptyStr),
        ("final_eval_status", Status, Required),
        ("eval_metric_results", Any, Null),
        (
            "overall_eval_metric_results",
            List(&Ty::Model(&EVAL_METRIC_RESULT)),
            Required,
        ),
        (
            "eval_metric_result_per_invocation",
            List(&Ty::Model(&PER_INVOCATION)),
            Required,
        ),
        ("session_id", Any, Required),
        ("session_details", Ty::Model(&SESSION), Null),
        ("user_id", Any, Null),
    ],
};
static EVAL_METRIC_RESULT: Model = model(&[
    ("metric_name", Any, Required),
    ("threshold", Float, Null),
    ("criterion", Ty::Model(&BASE_CRITERION), Null),
    ("custom_function_path", Any, Null),
    ("score", Float, Null),
    ("eval_status", Status, Required),
    ("details", Ty::Model(&DETAILS), EmptyObject),
]);
static DETAILS: Model = model(&[
    ("rubric_scores", List(&Ty::Model(&RUBRIC_SCORE)), Null),
    ("token_usage_details", Ty::Model(&TOKEN_USAGE), Null),
    ("duration_details", Ty::Model(&DURATIONS), Null),
]);
static PER_INVOCATION: Model = model(&[
    ("actual_invocation", Ty::Model(&INVOCATION), Required),
    ("expected_invocation", Ty::Model(&INVOCATION), Null),
    ("eval_metric_results", List(&Ty::Model(&EVAL_METRIC_RESULT)), EmptyList),
]);
static TOKEN_USAGE: Model = model(&[
    ("total_tokens", Float, Null),
    ("input_tokens", Float, Null),
    ("prompt_tokens", Float, Null),
    ("cached_tokens", Float, Null),
    ("tool_use_tokens", Float, Null),
    ("output_tokens", Float, Null),
    ("candidates_tokens", Float, Null),
    ("reasoning_tokens", Float, Null),
]);
static DURATIONS: Model = model(&[
    ("total_seconds", Float, Null),
    ("model_seconds", Float, Null),
    ("tool_seconds", Float, Null),
    ("framework_seconds", Float, Null),
]);
static BASE_CRITERION: Model = Model {
    keep_extra: true,
    fields: &[
        ("threshold", Float, Required),
        ("include_intermediate_responses_in_final", Any, False),
    ],
};
static RUBRIC_SCORE: Model = model(&[
    ("rubric_id", Any, Required),
    ("rationale", Any, Null),
    ("score", Float, Null),
]);
static SESSION: Model = Model {
    keep_extra: true,
    fields: &[
        ("id", Any, Required),
        ("app_name", Any, Required),
        ("user_id", Any, Required),
        ("state", Any, EmptyObject),
        ("events", Any, EmptyList),
        ("last_update_time", Float, Zero),
    ],
};

static EVAL_SET: Model = model(&[
    ("eval_set_id", Any, Required),
    ("name", Any, Null),
    ("description", Any, Null),
    ("eval_cases", List(&Ty::Model(&EVAL_CASE)), Required),
    ("creation_timestamp", Float, Zero),
]);
static EVAL_CASE: Model = Model {
    keep_extra: true,
    fields: &[
        ("eval_id", Any, Required),
        ("conversation", List(&Ty::Model(&INVOCATION)), Null),
        ("conversation_scenario", Ty::Model(&SCENARIO), Null),
        ("session_input", Ty::Model(&SESSION_INPUT), Null),
        ("creation_timestamp", Float, Zero),
        ("rubrics", List(&Ty::Model(&RUBRIC)), Null),
        ("final_session_state", Any, EmptyObject),
    ],
};
static SESSION_INPUT: Model = Model {
    keep_extra: true,
    fields: &[
        ("app_name", Any, Required),
        ("user_id", Any, Required),
        ("session_id", Any, Null),
        ("state", Any, EmptyObject),
    ],
};
static SCENARIO: Model = model(&[
    ("starting_prompt", Any, Required),
    ("conversation_plan", Any, Required),
    ("user_persona", Any, Null),
]);
static INVOCATION: Model = model(&[
    ("invocation_id", Any, EmptyStr),
    ("user_content", Ty::Model(&CONTENT), Required),
    ("final_response", Ty::Model(&CONTENT), Null),
    ("intermediate_data", Intermediate, Null),
    ("creation_timestamp", Float, Zero),
    ("duration", Float, Null),
    ("model_duration", Float, Null),
    ("tool_duration", Float, Null),
    ("rubrics", List(&Ty::Model(&RUBRIC)), Null),
    ("app_details", Ty::Model(&APP_DETAILS), Null),
]);
static INTERMEDIATE_DATA: Model = model(&[
    ("tool_uses", List(&Ty::Model(&FUNCTION_CALL)), EmptyList),
    ("tool_responses", List(&Ty::Model(&FUNCTION_RESPONSE)), EmptyList),
    (
        "intermediate_responses",
        List(&Pair(&List(&Ty::Model(&PART)))),
        EmptyList,
    ),
]);
static INVOCATION_EVENTS: Model = model(&[("invocation_events", List(&Ty::Model(&INVOCATION_EVENT)), EmptyList)]);
static INVOCATION_EVENT: Model = model(&[
    ("author", Any, Required),
    ("content", Ty::Model(&CONTENT), Null),
    ("grounding_metadata", Any, Null),
    ("usage_metadata", Ty::Model(&USAGE), Null),
    ("model_version", Any, Null),
]);
static RUBRIC: Model = model(&[
    ("rubric_id", Any, Required),
    ("rubric_content", Ty::Model(&RUBRIC_CONTENT), Required),
    ("description", Any, Null),
    ("type", Any, Null),
]);
static RUBRIC_CONTENT: Model = model(&[("text_property", Any, Null)]);
static APP_DETAILS: Model = model(&[("agent_details", Ty::Dict(&Ty::Model(&AGENT_DETAILS)), EmptyObject)]);
static AGENT_DETAILS: Model = model(&[
    ("name", Any, Required),
    ("instructions", Any, EmptyStr),
    ("tool_declarations", Any, EmptyList),
]);

static CONTENT: Model = model(&[("parts", List(&Ty::Model(&PART)), Null), ("role", Any, Null)]);
static PART: Model = model(&[
    ("media_resolution", Any, Null),
    ("code_execution_result", Ty::Model(&CODE_RESULT), Null),
    ("executable_code", Ty::Model(&EXECUTABLE_CODE), Null),
    ("file_data", Ty::Model(&FILE_DATA), Null),
    ("function_call", Ty::Model(&FUNCTION_CALL), Null),
    ("function_response", Ty::Model(&FUNCTION_RESPONSE), Null),
    ("inline_data", Ty::Model(&BLOB), Null),
    ("text", Any, Null),
    ("thought", Any, Null),
    ("thought_signature", Bytes, Null),
    ("video_metadata", Ty::Model(&VIDEO_METADATA), Null),
    ("tool_call", Any, Null),
    ("tool_response", Any, Null),
    ("part_metadata", Any, Null),
    ("audio_transcription", Any, Null),
    ("media_processing", Any, Null),
    ("speech_metadata", Any, Null),
]);
static FUNCTION_CALL: Model = model(&[
    ("id", Any, Null),
    ("args", Any, Null),
    ("name", Any, Null),
    ("partial_args", Any, Null),
    ("will_continue", Any, Null),
]);
static FUNCTION_RESPONSE: Model = model(&[
    ("will_continue", Any, Null),
    ("scheduling", Any, Null),
    ("parts", Any, Null),
    ("id", Any, Null),
    ("name", Any, Null),
    ("response", Any, Null),
]);
static BLOB: Model = model(&[
    ("data", Bytes, Null),
    ("display_name", Any, Null),
    ("mime_type", Any, Null),
]);
static FILE_DATA: Model = model(&[
    ("display_name", Any, Null),
    ("file_uri", Any, Null),
    ("mime_type", Any, Null),
]);
static EXECUTABLE_CODE: Model = model(&[("code", Any, Null), ("language", Any, Null), ("id", Any, Null)]);
static CODE_RESULT: Model = model(&[("outcome", Any, Null), ("output", Any, Null), ("id", Any, Null)]);
static VIDEO_METADATA: Model = model(&[
    ("end_offset", Any, Null),
    ("fps", Float, Null),
    ("start_offset", Any, Null),
]);
static USAGE: Model = model(&[
    ("cache_tokens_details", List(&Ty::Model(&MODALITY_COUNT)), Null),
    ("cached_content_token_count", Any, Null),
    ("candidates_token_count", Any, Null),
    ("candidates_tokens_details", List(&Ty::Model(&MODALITY_COUNT)), Null),
    ("prompt_token_count", Any, Null),
    ("prompt_tokens_details", List(&Ty::Model(&MODALITY_COUNT)), Null),
    ("thoughts_token_count", Any, Null),
    ("tool_use_prompt_token_count", Any, Null),
    (
        "tool_use_prompt_tokens_details",
        List(&Ty::Model(&MODALITY_COUNT)),
        Null,
    ),
    ("total_token_count", Any, Null),
    ("traffic_type", Any, Null),
]);
static MODALITY_COUNT: Model = model(&[("modality", Any, Null), ("token_count", Any, Null)]);

/// An EvalSetResult as the text ADK 2.13 writes to `.adk/eval_history`: every field, statuses
/// as integers, evalcore's own fields on case results kept (ADK ignores them).
pub fn eval_set_result_text(result: &EvalSetResult) -> String {
    let v = crate::schema::load::value_of(result);
    dump(&v, &EVAL_SET_RESULT, false)
}

/// An eval set (the current schema, snake_case) as ADK writes it: every field (`compact`
/// false: a migrated set), or only non-null, non-default ones (`compact`: a set ADK saves).
pub fn eval_set_text(set: &Value, compact: bool) -> String {
    dump(set, &EVAL_SET, compact)
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
