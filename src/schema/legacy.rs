//! The two legacy shapes (test-file turn list, named list) migrated deterministically to the
//! current schema, and the checks ADK's migration makes before it converts legacy data.

use super::content::{Content, FunctionCall, JsonObject, Part};
use super::eval_set::{EvalCase, EvalSet, SessionInput};
use super::invocation::{IntermediateData, Invocation};
use super::parse;
use crate::error::{EvalError, Result};
use serde::Deserialize;
use serde_json::Value;

/// Options of `loadEvalSet`: all but `id` are the legacy migration's.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadOptions {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default, alias = "session_input")]
    pub session_input: Option<Value>,
    /// The eval id of the one case a legacy turn list becomes (default: the set id; ADK's
    /// migration uses the file's path).
    #[serde(default, alias = "case_id")]
    pub case_id: Option<String>,
    /// Legacy data is checked as ADK's migration checks it against these criteria names.
    #[serde(default)]
    pub criteria: Option<Vec<String>>,
    /// Where `criteria` came from, for messages (e.g. a test_config.json path).
    #[serde(default, alias = "criteria_source")]
    pub criteria_source: Option<String>,
}

/// An initial-session file `{app_name, user_id, state}`; missing keys become "" / {} as in ADK's migration.
pub fn session_input_from_value(v: &Value, path: &str) -> Result<Option<SessionInput>> {
    let m = match v {
        Value::Null => return Ok(None),
        Value::Object(m) if m.is_empty() => return Ok(None),
        Value::Object(m) => m,
        other => {
            return Err(EvalError::schema(
                path,
                format!(
                    "an initial session is an object {{app_name, user_id, state}}, found {}",
                    super::value::kind(other)
                ),
            ))
        }
    };
    let s = |snake: &str, camel: &str| -> Result<String> {
        match m.get(snake).or_else(|| m.get(camel)) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(other) => Err(EvalError::schema(
                format!("{path}.{snake}"),
                format!("`{snake}` must be a string, found {}", super::value::kind(other)),
            )),
        }
    };
    let state = match m.get("state") {
        None | Some(Value::Null) => serde_json::Map::new(),
        Some(Value::Object(o)) => o.clone(),
        Some(other) => {
            return Err(EvalError::schema(
                format!("{path}.state"),
                format!("`state` must be an object, found {}", super::value::kind(other)),
            ))
        }
    };
    let session_id = m
        .get("session_id")
        .or_else(|| m.get("sessionId"))
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok(Some(SessionInput {
        app_name: s("app_name", "appName")?,
        user_id: s("user_id", "userId")?,
        session_id,
        state,
        extra: serde_json::Map::new(),
    }))
}

/// One turn of a legacy `*.test.json` list. Other keys (e.g. `mock_tool_output`) are ignored.
#[derive(Debug, Deserialize)]
pub struct LegacyTurn {
    pub query: String,
    #[serde(default)]
    pub expected_tool_use: Vec<LegacyToolUse>,
    #[serde(default)]
    pub reference: String,
    #[serde(default)]
    pub expected_intermediate_agent_responses: Vec<LegacyResponse>,
}

#[derive(Debug, Deserialize)]
pub struct LegacyToolUse {
    pub tool_name: String,
    #[serde(default)]
    pub tool_input: JsonObject,
}

#[derive(Debug, Deserialize)]
pub struct LegacyResponse {
    pub author: String,
    pub text: String,
}

#[derive(Debug, Deserialize)]
struct NamedCase {
    name: String,
    data: Vec<LegacyTurn>,
    #[serde(default)]
    initial_session: Value,
}

/// 64-bit FNV-1a: a stable, dependency-free content hash for derived ids.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

pub(crate) fn content_id(v: &Value) -> String {
    let canonical = serde_json::to_string(v).unwrap_or_default();
    format!("{:012x}", fnv1a(canonical.as_bytes()) >> 16)
}

/// Converts legacy turns to invocations exactly as ADK's migration does (ids made deterministic).
pub fn turns_to_invocations(turns: Vec<LegacyTurn>, id_prefix: &str) -> Vec<Invocation> {
    turns
        .into_iter()
        .enumerate()
        .map(|(i, t)| Invocation {
            invocation_id: format!("{id_prefix}-{i}"),
            user_content: Content::from_text("user", &t.query),
            final_response: Some(Content::from_text("model", &t.reference)),
            intermediate_data: Some(IntermediateData::Legacy {
                tool_uses: t
                    .expected_tool_use
                    .into_iter()
                    .map(|u| FunctionCall {
                        name: Some(u.tool_name),
                        args: Some(u.tool_input),
                        ..FunctionCall::default()
                    })
                    .collect(),
                tool_responses: Vec::new(),
                intermediate_responses: t
                    .expected_intermediate_agent_responses
                    .into_iter()
                    .map(|r| {
                        (
                            r.author,
                            vec![Part {
                                text: Some(r.text),
                                ..Part::default()
                            }],
                        )
                    })
                    .collect(),
            }),
            ..Invocation::default()
        })
        .collect()
}

fn option_session(opts: &LoadOptions) -> Result<Option<SessionInput>> {
    match &opts.session_input {
        None => Ok(None),
        Some(v) => session_input_from_value(v, "$options.sessionInput"),
    }
}

/// Migrates a legacy array (`[{query,...}]` or `[{name, data, initial_session}]`).
pub fn from_value(v: &Value, opts: &LoadOptions) -> Result<EvalSet> {
    let items = match v {
        Value::Array(a) => a,
        _ => return Err(EvalError::schema("$", "a legacy eval file is a JSON array")),
    };
    let is_named = items
        .first()
        .is_some_and(|f| f.get("query").is_none() && (f.get("data").is_some() || f.get("name").is_some()));
    let set_id = opts.id.clone().unwrap_or_else(|| format!("legacy_{}", content_id(v)));
    if let Some(criteria) = &opts.criteria {
        check_migration(items, is_named, criteria, opts.criteria_source.as_deref())?;
    }
    if is_named {
        let named: Vec<NamedCase> = parse::from_value(v, "")?;
        let default_session = option_session(opts)?;
        let mut cases = Vec::with_capacity(named.len());
        for (i, n) in named.into_iter().enumerate() {
            let session = session_input_from_value(&n.initial_session, &format!("$[{i}].initial_session"))?;
            cases.push(EvalCase {
                conversation: Some(turns_to_invocations(n.data, &format!("{}-{i}", n.name))),
                eval_id: n.name,
                session_input: session.or_else(|| default_session.clone()),
                ..EvalCase::default()
            });
        }
        return Ok(EvalSet {
            eval_set_id: set_id.clone(),
            name: Some(set_id),
            eval_cases: cases,
            ..EvalSet::default()
        });
    }
    if items.first().is_some_and(|f| !f.is_object()) {
        return Err(EvalError::schema(
            "$[0]",
            "a legacy test file is a list of turns {\"query\", \"expected_tool_use\", \"reference\"}; found a non-object item",
        ));
    }
    let turns: Vec<LegacyTurn> = parse::from_value(v, "")?;
    if turns.is_empty() {
        return Ok(EvalSet {
            eval_set_id: set_id.clone(),
            name: Some(set_id),
            ..EvalSet::default()
        });
    }
    let case = EvalCase {
        eval_id: opts.case_id.clone().unwrap_or_else(|| set_id.clone()),
        conversation: Some(turns_to_invocations(turns, &set_id)),
        session_input: option_session(opts)?,
        ..EvalCase::default()
    };
    Ok(EvalSet {
        eval_set_id: set_id.clone(),
        name: Some(set_id),
        eval_cases: vec![case],
        ..EvalSet::default()
    })
}

/// The criteria legacy data can be migrated under: the metrics its turns carry data for
/// (ADK's `AgentEvaluator` allows exactly these).
pub const MIGRATABLE_CRITERIA: [&str; 4] = [
    "tool_trajectory_avg_score",
    "response_evaluation_score",
    "response_match_score",
    "safety_v1",
];

/// The keys of a legacy turn a criterion reads (ADK checks them on the first turn only).
fn keys_read_by(criterion: &str) -> &'static [&'static str] {
    match criterion {
        "tool_trajectory_avg_score" => &["query", "expected_tool_use"],
        "response_evaluation_score" => &["query"],
        "response_match_score" => &["query", "reference"],
        _ => &[],
    }
}

/// What ADK's migration rejects before it converts legacy data under `criteria` (the config
/// beside the file, or ADK's default criteria): a criterion that legacy data cannot carry, a
/// file with no turns, and a first turn without a key a criterion reads. A named list (which
/// ADK's migration does not take) has each case's first turn checked the same way.
fn check_migration(items: &[Value], named: bool, criteria: &[String], source: Option<&str>) -> Result<()> {
    let from = source.map(|s| format!(" (a criterion from {s})")).unwrap_or_default();
    for name in criteria {
        if !MIGRATABLE_CRITERIA.contains(&name.as_str()) {
            return Err(EvalError::schema(
                format!("$.criteria{}", super::value::key_path(name)),
                format!(
                    "legacy eval data cannot be migrated under the criterion {name:?}{from}: its turns carry data \
                     only for {}, the criteria ADK's migration accepts",
                    MIGRATABLE_CRITERIA.join(", ")
                ),
            ));
        }
    }
    let mut first_turns: Vec<(String, &Value)> = Vec::new();
    if named {
        for (i, case) in items.iter().enumerate() {
            if let Some(first) = case.get("data").and_then(Value::as_array).and_then(|d| d.first()) {
                first_turns.push((format!("$[{i}].data[0]"), first));
            }
        }
    } else {
        match items.first() {
            Some(first) => first_turns.push(("$[0]".to_string(), first)),
            None => {
                return Err(EvalError::schema(
                    "$",
                    "the legacy test file has no turns; ADK's migration needs at least one {\"query\", ...}",
                ))
            }
        }
    }
    for (path, turn) in first_turns {
        for name in criteria {
            if let Some(key) = keys_read_by(name).iter().find(|k| turn.get(**k).is_none()) {
                return Err(EvalError::schema(
                    path,
                    format!(
                        "the first turn has no `{key}`, which {name} reads{from}; ADK's migration rejects it: \
                         add `{key}` to the turns or leave {name} out of the criteria"
                    ),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn test_file_list_migrates_deterministically() {
        let v = json!([{"query": "hi", "expected_tool_use": [{"tool_name": "roll_die", "tool_input": {"sides": 6}}], "reference": "ok", "mock_tool_output": 1}]);
        let a = from_value(&v, &LoadOptions::default()).unwrap();
        let b = from_value(&v, &LoadOptions::default()).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.eval_cases.len(), 1);
        let inv = &a.eval_cases[0].conversation.as_ref().unwrap()[0];
        assert_eq!(inv.tool_calls()[0].name.as_deref(), Some("roll_die"));
        let named = from_value(
            &json!([{"name": "c1", "data": [{"query": "q"}], "initial_session": {"app_name": "x"}}]),
            &LoadOptions {
                id: Some("s".into()),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(named.eval_set_id, "s");
        assert_eq!(named.eval_cases[0].session_input.as_ref().unwrap().app_name, "x");
    }
}
