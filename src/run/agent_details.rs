//! What an adapter knows of its agents (a reply's `agents`: each agent's name, instructions and
//! tools) as ADK's AppDetails: the agents that authored the turn's events, in the order they
//! first did, each with its instructions and its tools as one genai `Tool` of function
//! declarations, as ADK records the agents whose model requests it saw.

use crate::schema::eval_set::{AgentDetails, AppDetails};
use indexmap::IndexMap;
use serde_json::{json, Map, Value};

/// One agent of `agents`.
struct Described {
    name: String,
    instructions: String,
    tools: Vec<Value>,
}

/// `o` as an object with only the keys `allowed` (`shape` says what it is, for the error).
fn object<'v>(v: &'v Value, allowed: &[&str], at: &str, shape: &str) -> Result<&'v Map<String, Value>, String> {
    let o = v
        .as_object()
        .ok_or_else(|| format!("{at} must be an object: {shape}"))?;
    match o.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(format!("{at}: unknown key `{k}` ({shape})")),
        None => Ok(o),
    }
}

/// The string under `key` (required: non-empty); None when an optional one is absent.
fn text<'v>(o: &'v Map<String, Value>, key: &str, at: &str, required: bool) -> Result<Option<&'v str>, String> {
    match o.get(key) {
        None | Some(Value::Null) if !required => Ok(None),
        Some(Value::String(s)) if !required || !s.is_empty() => Ok(Some(s)),
        _ => Err(format!(
            "{at}.{key} must be {}",
            if required { "a name" } else { "a string" }
        )),
    }
}

const AGENT: &str = "an agent is {name, instructions?, tools?}";
const TOOL: &str = "a tool is {name, description?, parameters?}, parameters a JSON Schema object";

fn describe(v: &Value, at: &str) -> Result<Described, String> {
    let o = object(v, &["name", "instructions", "tools"], at, AGENT)?;
    let tools = match o.get("tools") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => tool_declarations(a, &format!("{at}.tools"))?,
        Some(_) => return Err(format!("{at}.tools must be an array")),
    };
    Ok(Described {
        name: text(o, "name", at, true)?.unwrap_or_default().to_string(),
        instructions: text(o, "instructions", at, false)?.unwrap_or_default().to_string(),
        tools,
    })
}

/// The tools as ADK's `tool_declarations`: a genai `Tool` given as one (`function_declarations`)
/// is kept; every `{name, description?, parameters?}` (parameters a JSON Schema, as frameworks
/// hold them) becomes a FunctionDeclaration of one Tool, after them.
fn tool_declarations(tools: &[Value], at: &str) -> Result<Vec<Value>, String> {
    let mut out = Vec::new();
    let mut functions = Vec::new();
    for (i, t) in tools.iter().enumerate() {
        if t.get("function_declarations")
            .or_else(|| t.get("functionDeclarations"))
            .is_some()
        {
            out.push(t.clone());
            continue;
        }
        let at = format!("{at}[{i}]");
        let o = object(t, &["name", "description", "parameters"], &at, TOOL)?;
        let mut fd = Map::new();
        fd.insert("name".into(), json!(text(o, "name", &at, true)?));
        if let Some(d) = text(o, "description", &at, false)? {
            fd.insert("description".into(), json!(d));
        }
        match o.get("parameters") {
            None | Some(Value::Null) => {}
            Some(p @ Value::Object(_)) => {
                fd.insert("parameters_json_schema".into(), p.clone());
            }
            Some(_) => return Err(format!("{at}: {TOOL}")),
        }
        functions.push(Value::Object(fd));
    }
    if !functions.is_empty() {
        out.push(json!({ "function_declarations": functions }));
    }
    Ok(out)
}

/// The name of the first agent `agents` describes (the author of events that name none).
pub fn first_name(agents: &Value) -> Option<String> {
    let first = agents.as_array()?.first()?;
    first.get("name")?.as_str().map(str::to_string)
}

/// ADK's AppDetails from `agents` for events by `authors` (in order, user events left out):
/// each described author once. None when the first author is not described: an AppDetails
/// without the agent that answered would make ADK's judges refuse the invocation.
pub fn app_details(agents: &Value, authors: &[&str]) -> Result<Option<AppDetails>, String> {
    let list = agents
        .as_array()
        .ok_or("agents must be an array: an agent is {name, instructions?, tools?}")?;
    let mut known: Vec<Described> = Vec::new();
    for (i, a) in list.iter().enumerate() {
        let d = describe(a, &format!("agents[{i}]"))?;
        if known.iter().any(|k| k.name == d.name) {
            return Err(format!("agents[{i}]: agent {:?} is described twice", d.name));
        }
        known.push(d);
    }
    let find = |a: &str| known.iter().find(|k| k.name == a);
    if authors.first().is_none_or(|a| find(a).is_none()) {
        return Ok(None);
    }
    let mut agent_details = IndexMap::new();
    for &a in authors {
        if let (Some(d), false) = (find(a), agent_details.contains_key(a)) {
            let details = AgentDetails {
                name: d.name.clone(),
                instructions: d.instructions.clone(),
                tool_declarations: d.tools.clone(),
            };
            agent_details.insert(a.to_string(), details);
        }
    }
    Ok(Some(AppDetails { agent_details }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_authors_described_in_order_with_their_tools_as_function_declarations() {
        let agents = json!([
            {"name": "travel", "instructions": "Plan trips."},
            {"name": "weather", "instructions": "Report the weather.", "tools": [
                {"name": "get_weather", "description": "The weather in a city",
                 "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
                {"name": "convert"},
                {"function_declarations": [{"name": "search"}]}]},
            {"name": "unused"}]);
        let a = app_details(&agents, &["weather", "travel", "weather", "other"])
            .unwrap()
            .unwrap();
        assert_eq!(a.agent_details.keys().collect::<Vec<_>>(), ["weather", "travel"]);
        let w = &a.agent_details["weather"];
        assert_eq!(w.instructions, "Report the weather.");
        assert_eq!(
            Value::Array(w.tool_declarations.clone()),
            json!([{"function_declarations": [{"name": "search"}]}, {"function_declarations": [
                {"name": "get_weather", "description": "The weather in a city",
                 "parameters_json_schema": {"type": "object", "properties": {"city": {"type": "string"}}}},
                {"name": "convert"}]}])
        );
        assert_eq!(a.agent_details["travel"].tool_declarations, Vec::<Value>::new());
        // The agent that answered first is not described: no AppDetails rather than one without it.
        assert_eq!(app_details(&agents, &["other", "weather"]).unwrap(), None);
        assert_eq!(first_name(&agents).as_deref(), Some("travel"));
    }

    #[test]
    fn a_malformed_description_names_what_is_wrong() {
        for (agents, says) in [
            (json!({}), "agents must be an array"),
            (json!([{"name": ""}]), "agents[0].name"),
            (json!([{"name": "a", "tool": []}]), "unknown key `tool`"),
            (
                json!([{"name": "a", "tools": [{"name": "t", "inputSchema": {}}]}]),
                "agents[0].tools[0]: unknown key `inputSchema`",
            ),
            (
                json!([{"name": "a", "tools": [{"name": "t", "parameters": "x"}]}]),
                "parameters a JSON Schema object",
            ),
            (json!([{"name": "a"}, {"name": "a"}]), "described twice"),
        ] {
            let e = app_details(&agents, &["a"]).unwrap_err();
            assert!(e.contains(says), "{e}");
        }
    }
}
