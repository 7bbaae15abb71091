//! The JSON-text surface shared by the wasm skin, native tests and benches: text in, text out.
//! `run` holds the async half (judges, custom metrics, the agent run loop).

mod case;
mod columns;
pub mod compare;
mod config;
mod dataset;
mod run;
mod same_json;
mod traces;
pub use crate::config::{check_config, check_config_with, ConfigOptions, ConfigReport};
pub use case::{evaluate_invocations, evaluate_invocations_parts, CaseText, PreparedCase};
pub use config::validate_eval_config;
pub use dataset::{load_evaluation_dataset, to_evaluation_dataset};
pub use run::{evaluate_eval_set, evaluate_invocations_with, plan_judge_calls};
pub use traces::{eval_set_of, load_traces, split_inputs, trace_index, traces_to_eval_set};

use crate::error::{EvalError, Result};
use crate::schema::eval_result;
use crate::schema::load::{self, LoadOptions};
use crate::schema::EvalConfig;
use serde::Deserialize;
use serde_json::Value;

/// `{"ok": <json>}` or `{"error": {code, path, message}}`.
pub fn envelope(r: Result<String>) -> String {
    match r {
        // Sized once: a result carrying media runs to megabytes, and `format!` would grow its
        // buffer by doubling (copying it each time).
        Ok(json) => {
            let mut out = String::with_capacity(json.len() + 8);
            out.push_str("{\"ok\":");
            out.push_str(&json);
            out.push('}');
            out
        }
        Err(e) => error_json(&e),
    }
}

pub fn error_json(e: &EvalError) -> String {
    format!("{{\"error\":{}}}", error_body(e))
}

/// An error as a JSON object `{code, path, message}`.
pub fn error_body(e: &EvalError) -> String {
    serde_json::to_string(e).unwrap_or_else(|_| "{}".to_string())
}

pub use crate::schema::parse::utf8;

fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".to_string())
}

fn options<T: for<'de> Deserialize<'de> + Default>(text: &str) -> Result<T> {
    if text.trim().is_empty() {
        return Ok(T::default());
    }
    load::from_str(text).map_err(|e| EvalError {
        path: e.path.replacen('$', "$options", 1),
        ..e
    })
}

/// `setLimits(update)`: changes the parse limits given (`{maxTextBytes?, maxParseBytes?,
/// maxReplyBytes?, maxIdBytes?}` JSON, "" to change none) and returns the limits now in force.
pub fn set_limits(update: &str) -> Result<String> {
    use crate::schema::budget::{self, Limits};
    #[derive(Deserialize, Default)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Update {
        max_text_bytes: Option<f64>,
        max_parse_bytes: Option<f64>,
        max_reply_bytes: Option<f64>,
        max_id_bytes: Option<f64>,
    }
    let u: Update = options(update)?;
    let current = budget::limits();
    let pick = |name: &str, v: Option<f64>, old: u64| -> Result<u64> {
        match v {
            None => Ok(old),
            Some(x) if x.fract() == 0.0 && (0.0..=budget::ADDRESS_SPACE as f64).contains(&x) => Ok(x as u64),
            Some(x) => Err(EvalError::schema(
                format!("$options.{name}"),
                format!("`{name}` must be a whole number of bytes up to 4 GiB, found {x}"),
            )),
        }
    };
    let l = budget::set_limits(Limits {
        max_text_bytes: pick("maxTextBytes", u.max_text_bytes, current.max_text_bytes)?,
        max_parse_bytes: pick("maxParseBytes", u.max_parse_bytes, current.max_parse_bytes)?,
        max_reply_bytes: pick("maxReplyBytes", u.max_reply_bytes, current.max_reply_bytes)?,
        max_id_bytes: pick("maxIdBytes", u.max_id_bytes, current.max_id_bytes)?,
    })
    .map_err(|e| EvalError {
        path: e.path.replacen('$', "$options", 1),
        ..e
    })?;
    Ok(to_json(&serde_json::json!({
        "maxTextBytes": l.max_text_bytes,
        "maxParseBytes": l.max_parse_bytes,
        "maxReplyBytes": l.max_reply_bytes,
        "maxIdBytes": l.max_id_bytes,
    })))
}

/// What an export of the main wasm module answers for a text only the extras module reads (an
/// agents-cli dataset or config, a legacy or @iqai/adk eval set): the JS skin makes the same call
/// there.
pub const TO_EXTRAS: &str = "{\"extras\":true}";

pub fn load_eval_set(input: &str, opts: &str) -> Result<String> {
    let opts: LoadOptions = options(opts)?;
    match load::load_eval_set(input, &opts) {
        Ok(s) => Ok(to_json(&s)),
        Err(e) => match dataset::read_text(input, opts.id.as_deref()) {
            Some(d) => d.map(|d| to_json(&d.eval_set)),
            None => Err(e),
        },
    }
}

/// [`load_eval_set`] as the main wasm module gives it: `None` when `input` is a dataset or a
/// legacy or @iqai/adk eval set (it answers [`TO_EXTRAS`]; the extras module reads those).
pub fn load_eval_set_main(input: &str, opts: &str) -> Option<Result<String>> {
    let opts: LoadOptions = match options(opts) {
        Ok(o) => o,
        Err(e) => return Some(Err(e)),
    };
    match load::load_eval_set(input, &opts) {
        Ok(s) => Some(Ok(to_json(&s))),
        Err(_) if load::is_other_shape(input) || dataset::is_dataset(input) => None,
        Err(e) => Some(Err(e)),
    }
}

/// Every metric evalcore knows: name, kind, whether it needs a judge, criterion class, a line of
/// text, score range and direction (a JSON array).
pub fn metrics_info() -> String {
    crate::metrics::info::metrics_info_json()
}

pub fn validate_eval_set(input: &str) -> String {
    let mut errors = load::validate_eval_set(input);
    if !errors.is_empty() {
        if let Some(d) = dataset::read_all(input) {
            errors = d.err().unwrap_or_default();
        }
    }
    validation_report(&errors)
}

/// [`validate_eval_set`] as the main wasm module gives it: `None` for a dataset or a legacy or
/// @iqai/adk eval set with problems (it answers [`TO_EXTRAS`]).
pub fn validate_eval_set_main(input: &str) -> Option<String> {
    let errors = load::validate_eval_set(input);
    if !errors.is_empty() && (load::is_other_shape(input) || dataset::is_dataset(input)) {
        return None;
    }
    Some(validation_report(&errors))
}

fn validation_report(errors: &[EvalError]) -> String {
    to_json(&serde_json::json!({ "ok": errors.is_empty(), "errors": errors }))
}

/// Parses a config from JSON text; "" and "null" give ADK's default criteria.
pub fn parse_config(input: &str) -> Result<EvalConfig> {
    if input.trim().is_empty() {
        return config_from_value(&Value::Null);
    }
    let v = load::parse_json(input)?;
    config_from_value(&v)
}

/// A config value read for scoring, its criteria typed once (see [`crate::config::run_config`]).
pub fn config_from_value(v: &Value) -> Result<EvalConfig> {
    crate::config::run_config(v)
}

/// Whether a config text is agents-cli's (`metrics_to_run`, `custom_metrics` as a list): the
/// main wasm module hands it to the extras module, which converts it.
pub fn is_agents_cli_config(input: &str) -> bool {
    (input.contains("\"metrics_to_run\"") || input.contains("\"custom_metrics\""))
        && load::parse_json(input).is_ok_and(|v| crate::agents_cli::config::is_agents_cli_config(&v))
}

/// `loadEvalConfig(input, {strict?})`: criteria in object form.
pub fn load_eval_config(input: &str, options: &str) -> Result<String> {
    let options: ConfigOptions = self::options(options)?;
    crate::config::load_config(input, &options).map(|c| to_json(&c.to_json()))
}

/// `validateEvalConfig(input, {strict?})`: `{ok, errors, warnings}`.
pub fn validate_config(input: &str, options: &str) -> String {
    match self::options::<ConfigOptions>(options) {
        Ok(o) => validate_eval_config(input, &o),
        Err(e) => to_json(&serde_json::json!({"ok": false, "errors": [e], "warnings": []})),
    }
}

/// Options of `loadEvalSetResult`.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ResultOptions {
    /// Add the run summary (AgentEvaluator's verdicts) when the result has none.
    #[serde(default, alias = "run_summary")]
    run_summary: Option<bool>,
    /// Leave out the per-invocation results (what a comparison reads is the case level).
    #[serde(default, alias = "case_level")]
    case_level: Option<bool>,
}

/// `loadEvalSetResult`: an EvalSetResult in any shape ADK has written (2.x, 1.x double-encoded,
/// camelCase, statuses as names or integers) as evalcore's JSON (statuses as names).
pub fn load_eval_set_result(input: &str, opts: &str) -> Result<String> {
    let o: ResultOptions = options(opts)?;
    let mut result = eval_result::read_eval_set_result(input)?;
    if o.run_summary == Some(true) && result.run_summary.is_none() {
        // The distinct run numbers (a few), counted without a sort of their own.
        let mut runs: Vec<u32> = Vec::new();
        for r in &result.eval_case_results {
            let run = r.run.unwrap_or(0);
            if !runs.contains(&run) {
                runs.push(run);
            }
        }
        let num_runs = u32::try_from(runs.len()).unwrap_or(u32::MAX).max(1);
        let summary = crate::run::summary::run_summary(&result.eval_case_results, num_runs);
        result.run_summary = Some(eval_result::Carried::Built(summary));
    }
    if o.case_level == Some(true) {
        for c in &mut result.eval_case_results {
            c.eval_metric_result_per_invocation = None;
        }
    }
    Ok(to_json(&result))
}

/// An EvalSetResult (any shape `loadEvalSetResult` reads) as the text ADK 2.13 writes to its
/// eval history, as a JSON string literal.
pub fn format_eval_set_result(input: &str) -> Result<String> {
    let result = eval_result::read_eval_set_result(input)?;
    Ok(to_json(&crate::report::adk_file::eval_set_result_text(&result)))
}

/// An eval set (the current schema) as ADK writes its files: every field, or with `compact`
/// only the non-null, non-default ones; as a JSON string literal.
pub fn format_eval_set_file(input: &str, compact: bool) -> Result<String> {
    let v = load::parse_json(input)?;
    Ok(to_json(&crate::report::adk_file::eval_set_text(&v, compact)))
}

/// A model in ADK's snake_case file JSON as ADK's dev server answers it: camelCase field names
/// (pydantic's aliases), `None` fields left out, user data as it is.
pub fn adk_api_json(input: &str) -> Result<String> {
    let v = load::parse_json(input)?;
    Ok(crate::report::adk_api::by_alias(&v).to_string())
}

/// A recorded session (an object with `events`, or the events) as ADK Invocations, as ADK's dev
/// server turns a session into an eval case's conversation.
pub fn session_invocations(input: &str) -> Result<String> {
    let v = load::parse_json(input)?;
    Ok(to_json(&crate::run::session::invocations_from_session(&v)?))
}

/// ADK's eval id for a conversation scenario `add_eval_case` adds: the first 8 hex digits of the
/// SHA-256 of `json.dumps(scenario.model_dump(), sort_keys=True)`, a built-in persona id dumped as
/// its persona object; as a JSON string literal.
pub fn scenario_eval_id(input: &str) -> Result<String> {
    use sha2::{Digest, Sha256};
    let scenario: crate::schema::eval_set::ConversationScenario = crate::schema::json_path::from_str(input)?;
    let persona = match &scenario.user_persona {
        None => Value::Null,
        Some(crate::schema::eval_set::PersonaRef::Builtin(id)) => {
            crate::schema::personas::builtin(id).map_or(Value::Null, |p| load::value_of(&p))
        }
        Some(crate::schema::eval_set::PersonaRef::Persona(p)) => load::value_of(p),
    };
    let dump = serde_json::json!({
        "starting_prompt": scenario.starting_prompt,
        "conversation_plan": scenario.conversation_plan,
        "user_persona": persona,
    });
    let digest = Sha256::digest(crate::report::pyfmt::json_dumps_sorted(&dump).as_bytes());
    let hex: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    Ok(to_json(&hex))
}

/// Python's text of a JSON value: `repr` of what `json.loads` gives (`"repr"`), or
/// `json.dumps(value, sort_keys=True)` (`"json"`); as a JSON string literal.
pub fn python_text(input: &str, form: &str) -> Result<String> {
    let v = load::parse_json(input)?;
    let text = match form {
        "repr" => crate::report::pyfmt::value_repr(&v),
        "json" => crate::report::pyfmt::json_dumps_sorted(&v),
        other => return Err(EvalError::schema("", format!("unknown Python text form {other:?}"))),
    };
    Ok(to_json(&text))
}

/// An eval status (a name in any case, or ADK's integer) as its name, as a JSON string literal.
pub fn eval_status_name(input: &str) -> Result<String> {
    let status: crate::schema::result::EvalStatus = crate::schema::json_path::from_str(input)?;
    Ok(to_json(&status))
}

/// ROUGE-1 of many pairs in one call: `joined` is every candidate and reference concatenated
/// (c0, r0, c1, r1, ...) and `utf16_lens` their lengths in UTF-16 code units, as JS measures
/// strings. Returns `[p, r, f]` per pair, flattened. Crossing the wasm boundary once with one
/// string, instead of twice per pair, is what makes bulk scoring fast.
pub fn rouge1_batch(joined: &str, utf16_lens: &[u32]) -> Result<Vec<f64>> {
    if utf16_lens.len() % 2 != 0 {
        return Err(EvalError::schema(
            "",
            "rouge1Batch needs a candidate and a reference per pair",
        ));
    }
    let mut texts: Vec<&str> = Vec::with_capacity(utf16_lens.len());
    let mut rest = joined;
    for &want in utf16_lens {
        let mut units = 0usize;
        let mut cut = rest.len();
        for (i, ch) in rest.char_indices() {
            if units >= want as usize {
                cut = i;
                break;
            }
            units += ch.len_utf16();
        }
        if units != want as usize {
            return Err(EvalError::schema(
                "",
                "rouge1Batch: the lengths do not match the joined text",
            ));
        }
        let (head, tail) = rest.split_at(cut);
        texts.push(head);
        rest = tail;
    }
    if !rest.is_empty() {
        return Err(EvalError::schema(
            "",
            "rouge1Batch: the lengths do not cover the joined text",
        ));
    }
    let mut out = Vec::with_capacity(texts.len() / 2 * 3);
    for pair in texts.chunks_exact(2) {
        if let [c, r] = pair {
            let s = crate::text::rouge::rouge1(c, r);
            out.extend([s.precision, s.recall, s.fmeasure]);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_of(r: Result<String>) -> &'static str {
        r.err().map(|e| e.code.as_str()).unwrap_or("ok")
    }

    #[test]
    fn hostile_inputs_are_error_values() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(code_of(load_eval_set(&deep, "")), "invalid_json");
        let deep_args = format!(
            r#"{{"eval_set_id":"x","eval_cases":[{{"eval_id":"a","conversation":[{{"user_content":{{}},
               "intermediate_data":{{"tool_uses":[{{"name":"f","args":{{"a":{}{}}}}}]}}}}]}}]}}"#,
            "[".repeat(5000),
            "]".repeat(5000)
        );
        assert_eq!(code_of(load_eval_set(&deep_args, "")), "invalid_json");
        let wrong_shape = format!(
            "{{\"eval_set_id\":\"x\",\"eval_cases\":{}{}}}",
            "[".repeat(5000),
            "]".repeat(5000)
        );
        assert_eq!(code_of(load_eval_set(&wrong_shape, "")), "invalid_json");
        assert_eq!(code_of(load_eval_set("", "")), "invalid_json");
        assert_eq!(code_of(load_eval_set("{\"eval_set_id\": \"a\"", "")), "invalid_json");
        assert_eq!(code_of(load_eval_set("42", "")), "schema");
        // @iqai/adk's camelCase top level loads (issue 10); a file mixing both spellings does not.
        assert_eq!(
            code_of(load_eval_set("{\"evalSetId\":\"a\",\"evalCases\":[]}", "")),
            "ok"
        );
        assert_eq!(
            code_of(load_eval_set("{\"evalSetId\":\"a\",\"eval_cases\":[]}", "")),
            "schema"
        );
        assert_eq!(code_of(load_eval_set("{\"evalCases\":[]}", "")), "schema");
        let huge = format!(
            "{{\"eval_set_id\":\"s\",\"description\":\"{}\",\"eval_cases\":[]}}",
            "x".repeat(20_000_000)
        );
        assert_eq!(code_of(load_eval_set(&huge, "")), "ok");
        // An id is bounded (maxIdBytes): results repeat it in every case.
        let long_id = format!("{{\"eval_set_id\":\"{}\",\"eval_cases\":[]}}", "x".repeat(20_000_000));
        assert_eq!(code_of(load_eval_set(&long_id, "")), "too_large");
        let dup =
            r#"{"eval_set_id":"s","eval_cases":[{"eval_id":"a","conversation":[]},{"eval_id":"a","conversation":[]}]}"#;
        let e = load_eval_set(dup, "").unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.path.as_str()),
            ("duplicate_id", "$.eval_cases[1].eval_id")
        );
        assert_eq!(code_of(load_eval_set("[1,2]", "")), "schema");
        assert_eq!(code_of(evaluate_invocations("{}")), "schema");
        assert_eq!(code_of(evaluate_invocations("null")), "schema");
        assert_eq!(code_of(load_eval_config("[]", "")), "schema");
        assert_eq!(
            code_of(load_eval_config("{\"criteria\": {\"x\": 1e999}}", "")),
            "invalid_json"
        );
    }

    #[test]
    fn trajectory_extras_score_as_documented() {
        let call = |n: &str, a: i64| format!(r#"{{"name":"{n}","args":{{"x":{a}}}}}"#);
        let inv = |calls: &[String]| {
            format!(
                r#"{{"user_content":{{}},"intermediate_data":{{"tool_uses":[{}]}}}}"#,
                calls.join(",")
            )
        };
        let expected = [inv(&[call("a", 1), call("b", 2)]), inv(&[]), inv(&[call("a", 1)])];
        let actual = [
            inv(&[call("b", 2), call("c", 3), call("a", 9)]),
            inv(&[call("a", 1)]),
            inv(&[]),
        ];
        let args = format!(
            r#"{{"evalCase":{{"eval_id":"c","conversation":[{}]}},"actual":[{}],"efficiencyMetrics":false,"config":{{"criteria":{{
                "trajectory_precision":0.5,"trajectory_recall":{{"threshold":0.5,"ignore_args":true}},
                "trajectory_single_tool_use":{{"threshold":1,"tool_name":"a"}},"tool_trajectory_avg_score":{{"threshold":1,"match_type":"ANY_ORDER"}}}}}}}}"#,
            expected.join(","),
            actual.join(",")
        );
        let out: Value = serde_json::from_str(&evaluate_invocations(&args).unwrap()).unwrap();
        let per: Vec<Vec<Value>> = out["eval_metric_result_per_invocation"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                p["eval_metric_results"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["score"].clone())
                    .collect()
            })
            .collect();
        // precision: 1 of 3 actual calls expected; no expected calls but one made; none made, one expected.
        // recall (ignore_args): a and b both made; nothing expected; a not made.
        assert_eq!(per[0], [json_f(1.0 / 3.0), json_f(1.0), json_f(1.0), json_f(0.0)]);
        assert_eq!(per[1], [json_f(0.0), json_f(1.0), json_f(1.0), json_f(1.0)]);
        assert_eq!(per[2], [json_f(0.0), json_f(0.0), json_f(0.0), json_f(0.0)]);
        assert_eq!(out["overall_eval_metric_results"].as_array().unwrap().len(), 4);
    }

    fn json_f(x: f64) -> Value {
        serde_json::json!(x)
    }

    #[test]
    fn rouge1_batch_splits_by_utf16_lengths() {
        let pairs = [("東京は晴れです", "東京は雨です"), ("", "a"), ("I ❤️ NY 😀", "i ny")];
        let joined: String = pairs.iter().flat_map(|(c, r)| [*c, *r]).collect();
        let lens: Vec<u32> = pairs
            .iter()
            .flat_map(|(c, r)| [c.encode_utf16().count() as u32, r.encode_utf16().count() as u32])
            .collect();
        let out = rouge1_batch(&joined, &lens).unwrap();
        for (i, (c, r)) in pairs.iter().enumerate() {
            let one = crate::text::rouge::rouge1(c, r);
            assert_eq!(&out[3 * i..3 * i + 3], &[one.precision, one.recall, one.fmeasure]);
        }
        assert!(rouge1_batch("abc", &[1, 1]).is_err());
        assert!(rouge1_batch("abc", &[3]).is_err());
    }

    #[test]
    fn validation_reports_every_problem_with_its_path() {
        let text = r#"{"eval_set_id": 5, "eval_cases": [
            {"eval_id": "a", "conversation": [{"user_content": {"parts": [{"txt": "hi"}]}}, {"final_response": null}]},
            {"eval_id": "a", "conversation": []},
            {"conversation": []}
        ]}"#;
        let out: Value = serde_json::from_str(&validate_eval_set(text)).unwrap();
        assert_eq!(out["ok"], false);
        let paths: Vec<&str> = out["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["path"].as_str().unwrap())
            .collect();
        assert_eq!(
            paths,
            [
                "$.eval_set_id",
                "$.eval_cases[0].conversation[0].user_content.parts[0].txt",
                "$.eval_cases[0].conversation[1]",
                "$.eval_cases[1].eval_id",
                "$.eval_cases[2]"
            ]
        );
    }

    #[test]
    fn evaluate_invocations_reports_unknown_metrics_without_failing() {
        let args = r#"{"evalCase": {"evalId": "c", "conversation": [{"userContent": {"parts": [{"text": "hi"}]},
              "intermediateData": {"toolUses": [{"name": "roll_die", "args": {"sides": 6}}]}}]},
            "actual": [{"user_content": {"parts": [{"text": "hi"}]}, "intermediate_data": {"invocation_events": [
              {"author": "a", "content": {"parts": [{"function_call": {"id": "x", "name": "roll_die", "args": {"sides": 6.0}}}]}}]}}],
            "config": {"criteria": {"tool_trajectory_avg_score": 1, "rouge_1": 0.5}}}"#;
        let out: Value = serde_json::from_str(&evaluate_invocations(args).unwrap()).unwrap();
        assert_eq!(out["final_eval_status"], "PASSED");
        let m = &out["overall_eval_metric_results"];
        assert_eq!(m[0]["score"], 1.0);
        assert_eq!(m[1]["eval_status"], "NOT_EVALUATED");
        assert_eq!(m[1]["details"]["reason"], "unknown_metric");
        assert_eq!(m.as_array().unwrap().len(), 6);
    }
}
