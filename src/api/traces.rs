//! `loadTraces` and `tracesToEvalSet` over the trace import ([`crate::traces`]): inputs as
//! bytes (OTLP/JSON text or protobuf), options and results as JSON text.

use super::{options, to_json};
use crate::error::{EvalError, Result};
use crate::schema::eval_set::{EvalCase, EvalSet, SessionInput};
use crate::traces::{self, Loaded};
use serde::Deserialize;
use serde_json::{json, Value};

/// The inputs the host joined into one buffer, by their byte lengths; their total is held to
/// the text limit (`setLimits({maxTextBytes})`).
pub fn split_inputs<'a>(joined: &'a [u8], lens: &[u32]) -> Result<Vec<&'a [u8]>> {
    let limit = crate::schema::budget::limits().max_text_bytes;
    if joined.len() as u64 > limit {
        return Err(EvalError::new(
            crate::error::ErrorCode::TooLarge,
            "",
            format!(
                "the traces are {} bytes, over the limit of {limit} (raise maxTextBytes with setLimits)",
                joined.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(lens.len());
    let mut at = 0usize;
    for &n in lens {
        let end = at.saturating_add(n as usize);
        out.push(
            joined
                .get(at..end)
                .ok_or_else(|| EvalError::schema("", "the input lengths do not match the bytes given"))?,
        );
        at = end;
    }
    Ok(out)
}

/// `traceIndex(inputs)`: `{traces, warnings}` (see [`traces::index`]).
pub fn trace_index(inputs: &[&[u8]]) -> Result<String> {
    traces::index(inputs).map(|ix| to_json(&ix))
}

/// `loadTraces(inputs, options)`: `{sessions, warnings}`.
pub fn load_traces(inputs: &[&[u8]], opts: &str) -> Result<String> {
    let opts: traces::Options = options(opts)?;
    traces::load(inputs, &opts).map(|l| to_json(&l))
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ToSetOptions {
    #[serde(alias = "eval_set_id")]
    eval_set_id: Option<String>,
    #[serde(default, alias = "session_ids")]
    session_ids: Option<Vec<String>>,
    /// Also return the set as the text ADK writes (`<id>.evalset.json`, numbers kept exactly).
    #[serde(default)]
    text: bool,
    /// An existing eval set's text: the sessions are added to it as new cases (ADK's dev UI
    /// "add session"), a session whose id is already a case's is skipped.
    #[serde(default, alias = "add_to")]
    add_to: Option<String>,
}

/// Each session as an eval case whose conversation is what the session did, as ADK's dev UI
/// "add session" makes one (no timings: an expected conversation has none).
pub fn eval_set_of(loaded: &Loaded, eval_set_id: &str) -> EvalSet {
    let cases = loaded.sessions.iter().map(|s| {
        let conversation: Vec<_> = s
            .invocations
            .iter()
            .cloned()
            .map(|mut inv| {
                inv.duration = None;
                inv.model_duration = None;
                inv.tool_duration = None;
                inv
            })
            .collect();
        EvalCase {
            eval_id: s.session_id.clone(),
            creation_timestamp: conversation.first().map_or(0.0, |i| i.creation_timestamp),
            conversation: Some(conversation),
            session_input: Some(SessionInput {
                app_name: s.app_name.clone().unwrap_or_default(),
                user_id: s.user_id.clone().unwrap_or_default(),
                ..SessionInput::default()
            }),
            ..EvalCase::default()
        }
    });
    let eval_cases: Vec<EvalCase> = cases.collect();
    EvalSet {
        eval_set_id: eval_set_id.to_string(),
        creation_timestamp: eval_cases.iter().map(|c| c.creation_timestamp).fold(0.0, f64::max),
        eval_cases,
        ..EvalSet::default()
    }
}

/// Sessions whose id is longer than `maxIdBytes` cannot be eval cases (an eval set with such an
/// id does not load): each is left out with an `id_too_long` warning naming it by its place.
fn leave_out_long_ids(loaded: &mut Loaded) {
    let mut at = 0;
    let warnings = &mut loaded.warnings;
    loaded.sessions.retain(|s| {
        let here = at;
        at += 1;
        let path = || format!("$.sessions[{here}].session_id");
        match crate::schema::budget::check_id(&s.session_id, "the session id", &path) {
            Ok(()) => true,
            Err(e) => {
                warnings.push(traces::Warning {
                    code: "id_too_long",
                    path: e.path,
                    message: format!("session left out of the eval set: {}", e.message),
                });
                false
            }
        }
    });
}

/// The eval set text `addTo` names, as JSON: an object with its `eval_set_id` and `eval_cases`
/// (read as a value, not a typed set: the trace module holds no eval set reader, and the cases
/// are written back as they were read, numbers exactly).
fn base_set(text: &str) -> Result<Value> {
    let at = |e: EvalError| EvalError {
        path: e.path.replacen('$', "$options.addTo", 1),
        message: format!("the eval set to add to: {}", e.message),
        ..e
    };
    let v = crate::schema::load::parse_json(text).map_err(at)?;
    let ok = v.get("eval_set_id").is_some_and(Value::is_string) && v.get("eval_cases").is_some_and(Value::is_array);
    if !ok {
        return Err(at(EvalError::schema(
            "$",
            "expected an eval set in ADK's current schema ({\"eval_set_id\": ..., \"eval_cases\": [...]})",
        )));
    }
    Ok(v)
}

/// `tracesToEvalSet(inputs, {evalSetId?, sessionIds?, text?, addTo?})`: `{evalSet, warnings,
/// added, skipped, text?}`.
pub fn traces_to_eval_set(inputs: &[&[u8]], opts: &str) -> Result<String> {
    let o: ToSetOptions = options(opts)?;
    let mut base = o.add_to.as_deref().map(base_set).transpose()?;
    let base_id = base
        .as_ref()
        .and_then(|b| b.get("eval_set_id"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let given = o.eval_set_id.filter(|i| !i.trim().is_empty());
    let id = match (given, base_id) {
        (Some(g), Some(b)) if g != b => {
            return Err(EvalError::schema(
                "$options.evalSetId",
                format!("`evalSetId` is {g:?} but the eval set to add to is {b:?}"),
            ))
        }
        (Some(id), _) | (None, Some(id)) => id,
        (None, None) => {
            return Err(EvalError::schema(
                "$options.evalSetId",
                "`evalSetId` is required: the id of the eval set to make",
            ))
        }
    };
    crate::schema::budget::check_id(&id, "evalSetId", &|| "$options.evalSetId".into())?;
    let mut loaded = traces::load(
        inputs,
        &traces::Options {
            session_ids: o.session_ids,
            ..traces::Options::default()
        },
    )?;
    leave_out_long_ids(&mut loaded);
    let made = serde_json::to_value(eval_set_of(&loaded, &id)).unwrap_or_default();
    let new_cases = made
        .get("eval_cases")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let (mut added, mut skipped) = (Vec::new(), Vec::new());
    let set = match base
        .as_mut()
        .and_then(|b| b.get_mut("eval_cases"))
        .and_then(Value::as_array_mut)
    {
        None => {
            added = new_cases.iter().filter_map(|c| c.get("eval_id").cloned()).collect();
            made
        }
        Some(cases) => {
            for c in new_cases {
                let cid = c.get("eval_id").cloned().unwrap_or_default();
                if cases.iter().any(|k| k.get("eval_id") == Some(&cid)) {
                    skipped.push(cid);
                } else {
                    added.push(cid);
                    cases.push(c);
                }
            }
            base.unwrap_or_default()
        }
    };
    let mut out = json!({ "evalSet": set, "warnings": loaded.warnings, "added": added, "skipped": skipped });
    if o.text {
        let text = crate::report::adk_file::eval_set_text(&set, true);
        if let Some(m) = out.as_object_mut() {
            m.insert("text".into(), json!(text));
        }
    }
    Ok(out.to_string())
}
