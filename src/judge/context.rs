//! What a judge is shown about an invocation: response texts, tool calls with their responses,
//! tool declarations, developer instructions, grounding metadata, conversation history.

use crate::schema::content::text_of;
use crate::schema::invocation::IntermediateData;
use crate::schema::load::value_of;
use crate::schema::{Content, FunctionCall, FunctionResponse, Invocation, InvocationEvent};
use serde_json::{json, Map, Value};

/// ADK's `get_text_from_content` on an invocation: the final text, or with
/// `include_intermediate_responses_in_final` every intermediate text then the final one.
pub fn response_text(inv: &Invocation, include_intermediate: bool) -> String {
    if !include_intermediate {
        return text_of(inv.final_response.as_ref()).into_owned();
    }
    let mut parts: Vec<String> = Vec::new();
    match &inv.intermediate_data {
        Some(IntermediateData::Events(events)) => {
            for e in events {
                let t = text_of(e.content.as_ref());
                if !t.is_empty() {
                    parts.push(t.into_owned());
                }
            }
        }
        Some(IntermediateData::Legacy {
            intermediate_responses, ..
        }) => {
            for (_, ps) in intermediate_responses {
                let c = Content {
                    role: None,
                    parts: Some(ps.clone()),
                };
                let t = c.text();
                if !t.is_empty() {
                    parts.push(t.into_owned());
                }
            }
        }
        None => {}
    }
    let fin = text_of(inv.final_response.as_ref());
    if !fin.is_empty() {
        parts.push(fin.into_owned());
    }
    parts.join("\n")
}

/// The contents whose texts `response_text` gathers before the final one with
/// `include_intermediate_responses_in_final`: every event's content, or the legacy intermediate
/// responses.
pub fn response_events(inv: &Invocation) -> Vec<Content> {
    match &inv.intermediate_data {
        Some(IntermediateData::Events(events)) => events.iter().filter_map(|e| e.content.clone()).collect(),
        Some(IntermediateData::Legacy {
            intermediate_responses, ..
        }) => intermediate_responses
            .iter()
            .map(|(_, ps)| Content {
                role: None,
                parts: Some(ps.clone()),
            })
            .collect(),
        None => Vec::new(),
    }
}

/// The user's text of an invocation.
pub fn user_text(inv: &Invocation) -> String {
    inv.user_content.text().into_owned()
}

fn responses_of(inv: &Invocation) -> Vec<&FunctionResponse> {
    match &inv.intermediate_data {
        None => Vec::new(),
        Some(IntermediateData::Legacy { tool_responses, .. }) => tool_responses.iter().collect(),
        Some(IntermediateData::Events(events)) => events
            .iter()
            .filter_map(|e| e.content.as_ref())
            .flat_map(Content::function_responses)
            .collect(),
    }
}

fn call_json(c: &FunctionCall) -> Value {
    let mut v = value_of(c);
    strip_nulls(&mut v);
    v
}

fn strip_nulls(v: &mut Value) {
    if let Value::Object(m) = v {
        m.retain(|_, x| !x.is_null());
        for x in m.values_mut() {
            strip_nulls(x);
        }
    } else if let Value::Array(a) = v {
        for x in a {
            strip_nulls(x);
        }
    }
}

/// Tool calls paired with their responses (by call id, as ADK pairs them) as indented JSON, or a
/// sentence saying there were none.
pub fn tool_steps(inv: &Invocation) -> String {
    let calls = inv.tool_calls();
    if calls.is_empty() {
        return "No tool calls were made.".to_string();
    }
    let responses = responses_of(inv);
    let steps: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let resp = responses.iter().find(|r| r.id == c.id).map(|r| {
                let mut v = value_of(r);
                strip_nulls(&mut v);
                v
            });
            json!({"step": i + 1, "tool_call": call_json(c), "tool_response": resp.unwrap_or(Value::String("None".into()))})
        })
        .collect();
    pretty(&json!({ "tool_calls_and_responses": steps }))
}

/// `serde_json::to_string_pretty`'s text (two-space indent), by `Value`'s `{:#}` display:
/// the same pretty formatter, which that display links anyway, so the wasm module carries one.
pub fn pretty(v: &Value) -> String {
    format!("{v:#}")
}

/// Tool declarations per agent from app_details as JSON; without app_details, the tools the
/// agent called (ADK says "Agent has no tools." there, false of an agent that called some).
pub fn tool_declarations(inv: &Invocation) -> String {
    let Some(app) = &inv.app_details else {
        let mut names: Vec<String> = Vec::new();
        for (_, name) in called_tools(inv) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        if names.is_empty() {
            return "The agent made no tool calls (its tool definitions were not recorded).".to_string();
        }
        return format!(
            "The agent's tool definitions were not recorded. It called these tools: {}.",
            names.join(", ")
        );
    };
    let mut m = Map::new();
    for (name, d) in &app.agent_details {
        let mut tools = Value::Array(d.tool_declarations.clone());
        strip_nulls(&mut tools);
        m.insert(name.clone(), tools);
    }
    pretty(&json!({ "tool_declarations": m }))
}

/// The (author, tool name) of each tool call of the invocation, in order (`agent` for the legacy
/// shape, which names no author).
fn called_tools(inv: &Invocation) -> Vec<(String, String)> {
    let name = |c: &FunctionCall| c.name.clone().unwrap_or_default();
    match &inv.intermediate_data {
        Some(IntermediateData::Events(events)) => events
            .iter()
            .flat_map(|e| {
                let calls = e.content.iter().flat_map(Content::function_calls);
                calls.map(|c| (e.author.clone(), name(c))).collect::<Vec<_>>()
            })
            .collect(),
        _ => inv
            .tool_calls()
            .into_iter()
            .map(|c| ("agent".to_string(), name(c)))
            .collect(),
    }
}

/// Developer instructions for the agent that answered (author of the first event, else the
/// first agent of app_details); empty without app_details. An author missing from app_details
/// is an error, as in ADK (the message says which agent).
pub fn developer_instructions(inv: &Invocation) -> Result<String, String> {
    let Some(app) = &inv.app_details else {
        return Ok(String::new());
    };
    let author = inv.events().first().map(|e| e.author.clone());
    match author {
        Some(a) => match app.agent_details.get(&a) {
            Some(d) => Ok(d.instructions.clone()),
            None => Err(format!(
                "app_details has no agent named {a:?}, the author of the invocation's first event"
            )),
        },
        None => Ok(app
            .agent_details
            .values()
            .next()
            .map(|d| d.instructions.clone())
            .unwrap_or_default()),
    }
}

/// Every agent's non-empty instructions as `name:\ninstructions`, blank-line separated.
pub fn all_instructions(inv: &Invocation) -> String {
    let Some(app) = &inv.app_details else {
        return String::new();
    };
    app.agent_details
        .iter()
        .filter(|(_, d)| !d.instructions.is_empty())
        .map(|(n, d)| format!("{n}:\n{}", d.instructions))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// Grounding metadata of the given events as JSON, or a sentence saying there is none.
pub fn grounding(events: &[InvocationEvent]) -> String {
    let items: Vec<Value> = events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            e.grounding_metadata
                .as_ref()
                .map(|g| json!({"step": i + 1, "author": e.author, "grounding_metadata": Value::Object((**g).clone())}))
        })
        .collect();
    if items.is_empty() {
        "No grounding metadata was provided.".to_string()
    } else {
        pretty(&json!({ "grounding_metadata": items }))
    }
}

/// The hallucination validator's context: instructions, the user prompt, tool declarations,
/// grounding metadata, then each context event's texts, tool calls and tool outputs.
pub fn validation_context(inv: &Invocation, events: &[InvocationEvent]) -> String {
    let mut out = Vec::new();
    out.push(format!("Developer instructions:\n{}\n", all_instructions(inv)));
    out.push(format!("User prompt:\n{}\n", user_text(inv)));
    out.push(format!("Tool definitions:\n{}\n", tool_declarations(inv)));
    out.push(format!("Grounding metadata:\n{}\n", grounding(events)));
    for e in events {
        let Some(c) = &e.content else { continue };
        let texts: Vec<&str> = c
            .parts
            .iter()
            .flatten()
            .filter_map(|p| p.text.as_deref().filter(|t| !t.is_empty()))
            .collect();
        if !texts.is_empty() {
            out.push(format!("{}\n", texts.join("\n")));
        }
        let calls: Vec<Value> = c.function_calls().map(call_json).collect();
        if !calls.is_empty() {
            out.push(format!("tool_calls:\n{}\n", pretty(&Value::Array(calls))));
        }
        let resps: Vec<Value> = c
            .function_responses()
            .map(|r| {
                let mut v = value_of(r);
                strip_nulls(&mut v);
                v
            })
            .collect();
        if !resps.is_empty() {
            out.push(format!("tool_outputs:\n{}\n", pretty(&Value::Array(resps))));
        }
    }
    out.join("\n")
}

/// The whole conversation as turn-labelled lines, for multi-turn judges.
pub fn conversation_history(invs: &[Invocation]) -> String {
    let mut out = Vec::new();
    for (k, inv) in invs.iter().enumerate() {
        let turn = k + 1;
        out.push(format!("USER TURN {turn}: {}", user_text(inv)));
        for e in inv.events() {
            let Some(c) = &e.content else { continue };
            let who = if e.author.eq_ignore_ascii_case("user") {
                "USER".to_string()
            } else {
                format!("AGENT ({})", e.author)
            };
            for p in c.parts.iter().flatten() {
                if let Some(t) = p.text.as_deref().filter(|t| !t.is_empty()) {
                    out.push(format!("{who} TURN {turn}: {t}"));
                }
                if let Some(fc) = &p.function_call {
                    let args = fc.args.as_ref().map(|a| Value::Object(a.clone())).unwrap_or(json!({}));
                    out.push(format!(
                        "{who} TURN {turn} (tool call): {}({args})",
                        fc.name.as_deref().unwrap_or("")
                    ));
                }
                if let Some(fr) = &p.function_response {
                    let resp = fr
                        .response
                        .as_ref()
                        .map(|a| Value::Object(a.clone()))
                        .unwrap_or(json!({}));
                    out.push(format!(
                        "{who} TURN {turn} (tool output): {} -> {resp}",
                        fr.name.as_deref().unwrap_or("")
                    ));
                }
            }
        }
        if let Some(IntermediateData::Legacy { tool_uses, .. }) = &inv.intermediate_data {
            {
                for fc in tool_uses {
                    let args = fc.args.as_ref().map(|a| Value::Object(a.clone())).unwrap_or(json!({}));
                    out.push(format!(
                        "AGENT TURN {turn} (tool call): {}({args})",
                        fc.name.as_deref().unwrap_or("")
                    ));
                }
            }
        }
        let author = inv.events().first().map(|e| e.author.as_str()).unwrap_or("agent");
        let fin = text_of(inv.final_response.as_ref());
        if !fin.is_empty() {
            out.push(format!("AGENT ({author}) TURN {turn}: {fin}"));
        }
    }
    out.join("\n")
}

/// Agent instructions and tool definitions across all invocations' app_details (de-duplicated).
pub fn agents_overview(invs: &[Invocation]) -> (String, String) {
    let mut instr: Vec<String> = Vec::new();
    let mut tools: Vec<String> = Vec::new();
    for inv in invs {
        let Some(app) = &inv.app_details else {
            tools_called(inv, &mut tools);
            continue;
        };
        for (name, d) in &app.agent_details {
            let s = format!("Agent {name} Instructions:\n{}", d.instructions);
            if !instr.contains(&s) {
                instr.push(s);
            }
            let mut block = vec![format!("Agent: {name}")];
            for t in &d.tool_declarations {
                let decls = t
                    .get("function_declarations")
                    .or_else(|| t.get("functionDeclarations"))
                    .and_then(Value::as_array);
                match decls {
                    Some(ds) => {
                        for fd in ds {
                            let n = fd.get("name").and_then(Value::as_str).unwrap_or("");
                            let desc = fd.get("description").and_then(Value::as_str).unwrap_or("");
                            block.push(format!("- {n}: {desc}"));
                        }
                    }
                    None => block.push(format!("- {}", serde_json::to_string(t).unwrap_or_default())),
                }
            }
            let s = block.join("\n");
            if !tools.contains(&s) {
                tools.push(s);
            }
        }
    }
    (instr.join("\n\n"), tools.join("\n"))
}

/// The tool-definition blocks of an invocation without app_details: each agent's called tools.
fn tools_called(inv: &Invocation, blocks: &mut Vec<String>) {
    let mut by_agent: Vec<(String, Vec<String>)> = Vec::new();
    for (author, name) in called_tools(inv) {
        let at = match by_agent.iter().position(|(a, _)| *a == author) {
            Some(i) => i,
            None => {
                by_agent.push((author, Vec::new()));
                by_agent.len() - 1
            }
        };
        if let Some((_, names)) = by_agent.get_mut(at) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    for (author, names) in by_agent {
        let mut block = vec![format!("Agent: {author}")];
        block.extend(
            names
                .iter()
                .map(|n| format!("- {n}: (its definition was not recorded)")),
        );
        let s = block.join("\n");
        if !blocks.contains(&s) {
            blocks.push(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn inv(v: Value) -> Invocation {
        crate::schema::load::parse_as(&v).unwrap()
    }

    fn with_calls(app_details: Option<Value>) -> Invocation {
        let mut v = json!({"invocation_id": "i", "user_content": {"role": "user", "parts": [{"text": "Charge me."}]},
            "intermediate_data": {"invocation_events": [
                {"author": "shop", "content": {"role": "model", "parts": [
                    {"function_call": {"id": "c1", "name": "charge_card", "args": {"amount": 5}}},
                    {"function_call": {"id": "c2", "name": "lookup_order", "args": {}}},
                    {"function_call": {"id": "c3", "name": "charge_card", "args": {"amount": 6}}}]}}]}});
        if let Some(a) = app_details {
            v["app_details"] = a;
        }
        inv(v)
    }

    #[test]
    fn without_app_details_the_judge_is_told_the_tools_the_agent_called() {
        let t = tool_declarations(&with_calls(None));
        assert!(!t.contains("no tools"), "{t}");
        assert!(
            t.contains("not recorded") && t.contains("charge_card, lookup_order"),
            "{t}"
        );
        let none = inv(json!({"invocation_id": "i", "user_content": {"role": "user", "parts": [{"text": "Hi"}]}}));
        let t = tool_declarations(&none);
        assert!(t.contains("made no tool calls") && t.contains("not recorded"), "{t}");
        // The hallucination validator's context carries the same.
        assert!(validation_context(&with_calls(None), &[]).contains("charge_card, lookup_order"));
    }

    #[test]
    fn app_details_declarations_are_shown_as_recorded() {
        let decl = json!({"function_declarations": [{"name": "charge_card", "description": "Charges the card."}]});
        let a = with_calls(Some(
            json!({"agent_details": {"shop": {"name": "shop", "instructions": "Be careful.",
            "tool_declarations": [decl]}}}),
        ));
        let t = tool_declarations(&a);
        assert!(t.contains("\"charge_card\"") && t.contains("Charges the card."), "{t}");
        assert_eq!(developer_instructions(&a).unwrap(), "Be careful.");
        let (instructions, tools) = agents_overview(std::slice::from_ref(&a));
        assert!(instructions.contains("Be careful."));
        assert_eq!(tools, "Agent: shop\n- charge_card: Charges the card.");
    }

    #[test]
    fn the_multi_turn_overview_names_the_tools_called_without_app_details() {
        let (instructions, tools) = agents_overview(&[with_calls(None), with_calls(None)]);
        assert_eq!(instructions, "");
        assert_eq!(
            tools,
            "Agent: shop\n- charge_card: (its definition was not recorded)\n- lookup_order: (its definition was not recorded)"
        );
    }
}
