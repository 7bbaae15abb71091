//! `loadTraces` and `tracesToEvalSet` over the trace import ([`crate::traces`]): inputs as
//! bytes (OTLP/JSON text or protobuf), options and results as JSON text.

use super::{options, to_json};
use crate::error::{EvalError, Result};
use crate::schema::eval_set::{EvalCase, EvalSet, SessionInput};
use crate::traces::{self, Loaded};
use serde::Deserialize;
use serde_json::json;

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

/// `tracesToEvalSet(inputs, {evalSetId, sessionIds?, text?})`: `{evalSet, warnings, text?}`.
pub fn traces_to_eval_set(inputs: &[&[u8]], opts: &str) -> Result<String> {
    let o: ToSetOptions = options(opts)?;
    let id = o.eval_set_id.filter(|i| !i.trim().is_empty()).ok_or_else(|| {
        EvalError::schema(
            "$options.evalSetId",
            "`evalSetId` is required: the id of the eval set to make",
        )
    })?;
    let loaded = traces::load(
        inputs,
        &traces::Options {
            session_ids: o.session_ids,
        },
    )?;
    let set = eval_set_of(&loaded, &id);
    let mut out = json!({ "evalSet": set, "warnings": loaded.warnings });
    if o.text {
        let v = serde_json::to_value(&set).unwrap_or_default();
        if let Some(m) = out.as_object_mut() {
            m.insert("text".into(), json!(crate::report::adk_file::eval_set_text(&v, true)));
        }
    }
    Ok(out.to_string())
}
