//! agents-cli's `EvaluationDataset` read into ADK's data: each case becomes an eval case, and a
//! case whose turns are complete (a trace) also gives its recorded invocations. Events become
//! invocations by the core's one rule ([`invocation_from_reply`]); errors point into the file.

use crate::error::{ErrorCode, EvalError};
use crate::run::agent::invocation_from_reply;
use crate::schema::agent_data::event;
use crate::schema::eval_set::{AgentDetails, AppDetails, ConversationScenario, EvalCase, EvalSet};
use crate::schema::load::{from_value, value_of};
use crate::schema::{Content, Invocation};
use indexmap::IndexMap;
use serde_json::{json, Map, Value};

/// A dataset read: the eval set, and the recorded invocations of its grading cases by eval id.
#[derive(Debug, Clone, PartialEq)]
pub struct Dataset {
    pub eval_set: EvalSet,
    pub actual: IndexMap<String, Vec<Invocation>>,
}

/// Keys of an agents-cli eval case that become the eval case's structure; every other key is
/// kept on the eval case as written (`reference`, `context`, `rubric_groups`, custom fields).
const STRUCTURE: [&str; 4] = ["eval_case_id", "prompt", "responses", "agent_data"];
/// Keys only an agents-cli case has (an ADK eval case has `eval_id` and `conversation`).
const CASE_KEYS: [&str; 6] = [
    "eval_case_id",
    "prompt",
    "responses",
    "agent_data",
    "reference",
    "user_scenario",
];

/// Whether `v` is an agents-cli dataset: `eval_cases` at the top with no eval set id, and cases
/// in agents-cli's shape (none with ADK's `eval_id` or `conversation`).
pub fn is_dataset(v: &Value) -> bool {
    let Value::Object(top) = v else { return false };
    if top.contains_key("eval_set_id") || top.contains_key("evalSetId") {
        return false;
    }
    let Some(Value::Array(cases)) = top.get("eval_cases") else {
        return false;
    };
    let adk = |o: &Map<String, Value>| ["eval_id", "evalId", "conversation"].iter().any(|k| o.contains_key(*k));
    let ours = |o: &Map<String, Value>| CASE_KEYS.iter().any(|k| o.contains_key(*k));
    let objects = || cases.iter().filter_map(Value::as_object);
    objects().all(|o| !adk(o)) && (cases.is_empty() || objects().any(ours))
}

/// One event of `agent_data.turns[].events[]` with where it sits.
struct Event<'a> {
    value: &'a Value,
    author: &'a str,
    /// The turn's `turn_id` when this event opens its turn.
    opens: Option<&'a str>,
}

/// Events grouped into invocations: each user event opens one.
struct Group<'a> {
    user: Option<&'a Value>,
    id: Option<&'a str>,
    agent: Vec<&'a Value>,
}

fn schema(path: impl Into<String>, message: impl Into<String>) -> EvalError {
    EvalError::schema(path, message)
}

/// Reads a dataset value; `id` names the eval set (else a hash of the content). Every problem
/// is reported, each at its path in the file.
pub fn read(v: &Value, id: Option<&str>) -> Result<Dataset, Vec<EvalError>> {
    let cases = v.get("eval_cases").and_then(Value::as_array).ok_or_else(|| {
        vec![schema(
            "$.eval_cases",
            "a dataset needs `eval_cases`, a list of eval cases",
        )]
    })?;
    let mut errors = Vec::new();
    let mut eval_cases = Vec::with_capacity(cases.len());
    let mut actual = IndexMap::new();
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, c) in cases.iter().enumerate() {
        if let Some(id) = c.get("eval_case_id").and_then(Value::as_str) {
            if let Some(first) = seen.insert(id, i) {
                errors.push(EvalError::new(
                    ErrorCode::DuplicateId,
                    format!("$.eval_cases[{i}].eval_case_id"),
                    format!(
                        "eval_case_id {id:?} is used by eval_cases[{first}] and eval_cases[{i}]; ids must be unique"
                    ),
                ));
            }
        }
        match read_case(c, i) {
            Ok((case, recorded)) => {
                if let Some(r) = recorded {
                    actual.insert(case.eval_id.clone(), r);
                }
                eval_cases.push(case);
            }
            Err(mut e) => errors.append(&mut e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let eval_set_id = id
        .map(str::to_string)
        .unwrap_or_else(|| format!("dataset_{}", crate::schema::legacy::content_id(v)));
    Ok(Dataset {
        eval_set: EvalSet {
            eval_set_id,
            name: None,
            description: None,
            eval_cases,
            creation_timestamp: 0.0,
        },
        actual,
    })
}

fn read_case(c: &Value, i: usize) -> Result<(EvalCase, Option<Vec<Invocation>>), Vec<EvalError>> {
    let at = format!("$.eval_cases[{i}]");
    let o = c
        .as_object()
        .ok_or_else(|| vec![schema(at.as_str(), "an eval case must be an object")])?;
    let eval_id = match o.get("eval_case_id") {
        None | Some(Value::Null) => format!("case_{i}"),
        Some(Value::String(s)) => s.clone(),
        Some(_) => {
            return Err(vec![schema(
                format!("{at}.eval_case_id"),
                "`eval_case_id` must be a string",
            )])
        }
    };
    let mut errors = Vec::new();
    let prompt: Option<Content> = optional(o, "prompt", &at, &mut errors);
    let reference = response_candidate(o.get("reference"), &format!("{at}.reference"), &mut errors);
    let responses = responses(o, &at, &mut errors);
    let app = agents(o.get("agent_data"), &at, &mut errors);
    let events = events(o.get("agent_data"), &at, &mut errors);
    let scenario = scenario(o, &at, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let synthetic_prompt = prompt.as_ref().map(|p| event("user", value_of(p)));
    let mut all: Vec<Event> = Vec::new();
    let leads_with_user = events.first().is_some_and(|e| e.author.eq_ignore_ascii_case("user"));
    if let (Some(p), false) = (&synthetic_prompt, leads_with_user) {
        let opens = events.first().and_then(|e| e.opens);
        all.push(Event {
            value: p,
            author: "user",
            opens,
        });
    }
    all.extend(events);
    let reply = responses.map(|r| event(&root_agent(&app), value_of(&r)));
    if let (Some(r), true) = (&reply, all.iter().all(|e| e.author.eq_ignore_ascii_case("user"))) {
        all.push(Event {
            value: r,
            author: "agent",
            opens: None,
        });
    }
    let mut case = EvalCase {
        eval_id: eval_id.clone(),
        extra: o
            .iter()
            .filter(|(k, _)| !STRUCTURE.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        ..EvalCase::default()
    };
    if all.is_empty() {
        let Some(s) = scenario else {
            return Err(vec![schema(
                at.as_str(),
                "an eval case needs `prompt` (one user turn), `agent_data.turns` (a conversation or a trace) \
                 or `user_scenario` (a simulated user)",
            )]);
        };
        case.extra.remove("user_scenario");
        case.conversation_scenario = Some(s);
        return Ok((case, None));
    }
    let groups = group(&all);
    let complete = groups.last().is_some_and(|g| !g.agent.is_empty());
    let mut invocations = invocations(&groups, &eval_id, &app, &at)?;
    if complete {
        // A trace: what happened is the recorded invocations; what was expected is only the
        // user's turns, with the case's `reference` as the last turn's expected response.
        let expected = invocations
            .iter()
            .enumerate()
            .map(|(k, inv)| Invocation {
                invocation_id: inv.invocation_id.clone(),
                user_content: inv.user_content.clone(),
                final_response: if k + 1 == invocations.len() {
                    reference.clone()
                } else {
                    None
                },
                ..Invocation::default()
            })
            .collect();
        case.conversation = Some(expected);
        return Ok((case, Some(invocations)));
    }
    // Inference input: every user turn is played to the agent; authored replies are what the
    // earlier turns expect, and `reference` what the last one expects.
    for (inv, g) in invocations.iter_mut().zip(&groups) {
        if g.agent.is_empty() {
            inv.intermediate_data = None;
        }
    }
    let mut expected = invocations;
    if let (Some(last), Some(r)) = (expected.last_mut(), reference) {
        last.final_response = Some(r);
    }
    case.conversation = Some(expected);
    Ok((case, None))
}

fn optional<T: serde::de::DeserializeOwned>(
    o: &Map<String, Value>,
    key: &str,
    at: &str,
    errors: &mut Vec<EvalError>,
) -> Option<T> {
    match o.get(key) {
        None | Some(Value::Null) => None,
        Some(v) => from_value(v, &format!("{at}.{key}")).map_err(|e| errors.push(e)).ok(),
    }
}

/// A `ResponseCandidate` (`{"response": Content}`); a bare Content is a mistake the docs warn about.
fn response_candidate(v: Option<&Value>, at: &str, errors: &mut Vec<EvalError>) -> Option<Content> {
    let o = match v {
        None | Some(Value::Null) => return None,
        Some(Value::Object(o)) => o,
        Some(_) => {
            errors.push(schema(
                at,
                "expected a response candidate: {\"response\": {\"role\": \"model\", \"parts\": [...]}}",
            ));
            return None;
        }
    };
    if !o.contains_key("response") && (o.contains_key("parts") || o.contains_key("role")) {
        errors.push(schema(
            at,
            "a response candidate wraps its Content: write {\"response\": {\"role\": \"model\", \"parts\": [...]}}, \
             not the bare Content",
        ));
        return None;
    }
    optional(o, "response", at, errors)
}

/// The first of `responses` (evalcore grades one candidate per case); each is checked.
fn responses(o: &Map<String, Value>, at: &str, errors: &mut Vec<EvalError>) -> Option<Content> {
    let list = match o.get("responses") {
        None | Some(Value::Null) => return None,
        Some(Value::Array(a)) => a,
        Some(_) => {
            errors.push(schema(
                format!("{at}.responses"),
                "`responses` must be a list of response candidates",
            ));
            return None;
        }
    };
    let mut first = None;
    for (k, r) in list.iter().enumerate() {
        let c = response_candidate(Some(r), &format!("{at}.responses[{k}]"), errors);
        if first.is_none() {
            first = c;
        }
    }
    first
}

fn root_agent(app: &Option<AppDetails>) -> String {
    app.as_ref()
        .and_then(|a| a.agent_details.keys().next().cloned())
        .unwrap_or_else(|| "agent".to_string())
}

/// `agent_data.agents` (agent id -> AgentConfig) as ADK's AppDetails.
fn agents(agent_data: Option<&Value>, at: &str, errors: &mut Vec<EvalError>) -> Option<AppDetails> {
    let agents = match agent_data.and_then(|d| d.get("agents")) {
        None | Some(Value::Null) => return None,
        Some(Value::Object(m)) => m,
        Some(_) => {
            errors.push(schema(
                format!("{at}.agent_data.agents"),
                "`agents` maps agent ids to agent configs ({agent_id, instruction, tools, ...})",
            ));
            return None;
        }
    };
    let mut details = IndexMap::new();
    for (key, cfg) in agents {
        let path = format!("{at}.agent_data.agents{}", crate::schema::value::key_path(key));
        let Some(cfg) = cfg.as_object() else {
            errors.push(schema(path, "an agent config must be an object"));
            continue;
        };
        let text = |k: &str, errors: &mut Vec<EvalError>| match cfg.get(k) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => {
                errors.push(schema(format!("{path}.{k}"), format!("`{k}` must be a string")));
                None
            }
        };
        let name = text("agent_id", errors).unwrap_or_else(|| key.clone());
        let instructions = text("instruction", errors).unwrap_or_default();
        let tools = match cfg.get("tools") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(t)) => t.clone(),
            Some(_) => {
                errors.push(schema(
                    format!("{path}.tools"),
                    "`tools` must be a list of tools ({function_declarations: [...]})",
                ));
                Vec::new()
            }
        };
        details.insert(
            key.clone(),
            AgentDetails {
                name,
                instructions,
                tool_declarations: tools,
            },
        );
    }
    Some(AppDetails { agent_details: details })
}

/// Every event of `agent_data.turns`, checked, in order.
fn events<'a>(agent_data: Option<&'a Value>, at: &str, errors: &mut Vec<EvalError>) -> Vec<Event<'a>> {
    let mut out = Vec::new();
    let Some(d) = agent_data.filter(|d| !d.is_null()) else {
        return out;
    };
    if !d.is_object() {
        errors.push(schema(
            format!("{at}.agent_data"),
            "`agent_data` must be an object ({agents, turns})",
        ));
        return out;
    }
    let turns = match d.get("turns") {
        None | Some(Value::Null) => return out,
        Some(Value::Array(t)) => t,
        Some(_) => {
            errors.push(schema(
                format!("{at}.agent_data.turns"),
                "`turns` must be a list of conversation turns",
            ));
            return out;
        }
    };
    for (t, turn) in turns.iter().enumerate() {
        let tp = format!("{at}.agent_data.turns[{t}]");
        let evs = match turn.get("events") {
            Some(Value::Array(e)) => e,
            None | Some(Value::Null) if turn.is_object() => continue,
            _ => {
                errors.push(schema(tp, "a turn is an object with `events`, a list of events"));
                continue;
            }
        };
        let turn_id = turn.get("turn_id").and_then(Value::as_str);
        for (k, e) in evs.iter().enumerate() {
            let ep = format!("{tp}.events[{k}]");
            let Some(author) = e.get("author").and_then(Value::as_str) else {
                errors.push(schema(
                    ep,
                    "an event needs `author`: \"user\", an agent id from `agents`, or \"tool\"",
                ));
                continue;
            };
            match e.get("content") {
                None | Some(Value::Null) => continue,
                Some(c) => {
                    if let Err(err) = from_value::<Content>(c, &format!("{ep}.content")) {
                        errors.push(err);
                        continue;
                    }
                }
            }
            out.push(Event {
                value: e,
                author,
                opens: if k == 0 { turn_id } else { None },
            });
        }
    }
    out
}

/// `user_scenario` as ADK's conversation scenario.
fn scenario(o: &Map<String, Value>, at: &str, errors: &mut Vec<EvalError>) -> Option<ConversationScenario> {
    let s = o.get("user_scenario").filter(|s| !s.is_null())?;
    let text = |k: &str| s.get(k).and_then(Value::as_str).map(str::to_string);
    match (text("starting_prompt"), text("conversation_plan")) {
        (Some(starting_prompt), Some(conversation_plan)) => Some(ConversationScenario {
            starting_prompt,
            conversation_plan,
            user_persona: None,
        }),
        _ => {
            errors.push(schema(
                format!("{at}.user_scenario"),
                "a user scenario needs `starting_prompt` and `conversation_plan` (strings)",
            ));
            None
        }
    }
}

fn group<'a>(events: &[Event<'a>]) -> Vec<Group<'a>> {
    let mut groups: Vec<Group> = Vec::new();
    for e in events {
        if e.author.eq_ignore_ascii_case("user") {
            groups.push(Group {
                user: e.value.get("content"),
                id: e.opens,
                agent: Vec::new(),
            });
        } else {
            match groups.last_mut() {
                Some(g) => g.agent.push(e.value),
                // Agent events before any user message: a turn the agent opened.
                None => groups.push(Group {
                    user: None,
                    id: e.opens,
                    agent: vec![e.value],
                }),
            }
        }
    }
    groups
}

fn invocations(
    groups: &[Group],
    eval_id: &str,
    app: &Option<AppDetails>,
    at: &str,
) -> Result<Vec<Invocation>, Vec<EvalError>> {
    let app_json = app.as_ref().map(value_of);
    let mut out = Vec::with_capacity(groups.len());
    for (k, g) in groups.iter().enumerate() {
        let user_content = match g.user {
            Some(c) => from_value::<Content>(c, at).map_err(|e| vec![e])?,
            None => Content {
                role: None,
                parts: Some(Vec::new()),
            },
        };
        let mut reply = json!({ "events": g.agent });
        if let (Some(a), Some(m)) = (&app_json, reply.as_object_mut()) {
            m.insert("app_details".into(), a.clone());
        }
        let id = g.id.map(str::to_string).unwrap_or_else(|| format!("{eval_id}-{k}"));
        let inv = invocation_from_reply(&reply, id, user_content, 0.0, None)
            .map_err(|m| vec![schema(format!("{at}.agent_data.turns"), format!("turn {}: {m}", k + 1))])?;
        out.push(inv);
    }
    Ok(out)
}
