//! The simulated user for `conversation_scenario` cases (SPEC §2.6, §4.2): the starting prompt
//! verbatim, then a message written by an LLM (through the judge client) from the plan, the
//! persona and the transcript, until it says the stop signal or the turn limit is reached.

use crate::judge::{prompts, CallKind, JudgePort, JudgeRequest};
use crate::metrics::judged::persona_text;
use crate::schema::eval_set::ConversationScenario;
use crate::schema::Invocation;
use serde_json::Value;

/// `user_simulator_config` (llm_backed; a config without `type` is llm_backed too; llm_audio
/// loads as ADK loads it, and its cases cannot run here).
#[derive(Debug, Clone)]
pub struct SimulatorConfig {
    /// `type: "llm_audio"`: ADK speaks the simulated user's turns through an audio model, which
    /// evalcore does not call; a case that needs it is NOT_EVALUATED.
    pub audio: bool,
    pub model: Option<String>,
    pub model_configuration: Option<Value>,
    /// Counts the starting prompt; None = unlimited (-1).
    pub max_allowed_invocations: Option<usize>,
    pub custom_instructions: Option<String>,
    pub include_function_calls: bool,
    pub stop_signal: String,
}

impl Default for SimulatorConfig {
    /// ADK's defaults: 20 invocations (the starting prompt included), stop signal `</finished>`.
    fn default() -> Self {
        SimulatorConfig {
            audio: false,
            model: None,
            model_configuration: None,
            max_allowed_invocations: Some(20),
            custom_instructions: None,
            include_function_calls: false,
            stop_signal: "</finished>".into(),
        }
    }
}

impl SimulatorConfig {
    pub fn from_config(v: Option<&Value>) -> Result<SimulatorConfig, String> {
        let mut c = SimulatorConfig::default();
        let Some(v) = v.filter(|v| !v.is_null()) else {
            return Ok(c);
        };
        let o = v.as_object().ok_or("user_simulator_config must be an object")?;
        let g = |s: &str, k: &str| o.get(s).or_else(|| o.get(k)).filter(|v| !v.is_null());
        match g("type", "type") {
            None => {}
            Some(Value::String(t)) if t == "llm_backed" => {}
            Some(Value::String(t)) if t == "llm_audio" => {
                c.audio = true;
                audio_fields(&g)?;
            }
            Some(t) => {
                return Err(format!(
                    "user_simulator_config.type {t} is not supported (ADK 2.13 takes \"llm_backed\" or \"llm_audio\")"
                ))
            }
        }
        c.model = g("model", "model").and_then(Value::as_str).map(str::to_string);
        c.model_configuration = g("model_configuration", "modelConfiguration").cloned();
        if let Some(m) = g("max_allowed_invocations", "maxAllowedInvocations") {
            let n = crate::schema::value::lax_int(m)
                .ok_or("user_simulator_config.max_allowed_invocations must be an integer")?;
            c.max_allowed_invocations = if n < 0 { None } else { Some(n as usize) };
        }
        c.custom_instructions = g("custom_instructions", "customInstructions")
            .and_then(Value::as_str)
            .map(str::to_string);
        c.include_function_calls = g("include_function_calls", "includeFunctionCalls")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if let Some(s) = g("stop_signal", "stopSignal").and_then(Value::as_str) {
            c.stop_signal = s.to_string();
        }
        Ok(c)
    }
}

/// The fields `llm_audio` adds, checked as ADK's model checks them.
fn audio_fields<'a>(g: &impl Fn(&str, &str) -> Option<&'a Value>) -> Result<(), String> {
    if g("audio_model", "audioModel").is_some_and(|v| !v.is_string()) {
        return Err("user_simulator_config.audio_model must be a string (a model name, or \"cloud_tts\")".into());
    }
    if g("audio_model_configuration", "audioModelConfiguration").is_some_and(|v| !v.is_object()) {
        return Err(
            "user_simulator_config.audio_model_configuration must be an object (a GenerateContentConfig)".into(),
        );
    }
    if let Some(v) = g("include_text_with_audio", "includeTextWithAudio") {
        crate::schema::value::lax_bool(v).ok_or("user_simulator_config.include_text_with_audio must be a boolean")?;
    }
    Ok(())
}

/// The transcript the simulated user sees: `user:` and `<author>:` lines of non-thought text,
/// tool calls and responses only with `include_function_calls`.
fn transcript(history: &[Invocation], include_calls: bool) -> String {
    let mut out = Vec::new();
    for inv in history {
        out.push(format!("user: {}", inv.user_content.text()));
        for e in inv.events() {
            let Some(c) = &e.content else { continue };
            for p in c.parts.iter().flatten() {
                if p.thought == Some(true) {
                    continue;
                }
                if let Some(t) = p.text.as_deref().filter(|t| !t.is_empty()) {
                    out.push(format!("{}: {t}", e.author));
                }
                if include_calls {
                    if let Some(fc) = &p.function_call {
                        out.push(format!(
                            "{} called tool {}: {}",
                            e.author,
                            fc.name.as_deref().unwrap_or(""),
                            serde_json::to_string(&fc.args).unwrap_or_default()
                        ));
                    }
                    if let Some(fr) = &p.function_response {
                        out.push(format!(
                            "tool {} returned: {}",
                            fr.name.as_deref().unwrap_or(""),
                            serde_json::to_string(&fr.response).unwrap_or_default()
                        ));
                    }
                }
            }
        }
        // The final response's event is the one whose content was nulled (its text lives in
        // final_response); the simulated user sees only its non-thought text.
        let events = inv.events();
        let author = events
            .iter()
            .rev()
            .find(|e| e.content.is_none())
            .or_else(|| events.last())
            .map_or("agent", |e| e.author.as_str());
        let fin: Vec<&str> = inv
            .final_response
            .iter()
            .flat_map(|c| c.parts.iter().flatten())
            .filter(|p| p.thought != Some(true))
            .filter_map(|p| p.text.as_deref().filter(|t| !t.is_empty()))
            .collect();
        if !fin.is_empty() {
            out.push(format!("{author}: {}", fin.join("\n")));
        }
    }
    out.join("\n")
}

/// What the simulated user does next.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    Say(String),
    Stop,
}

/// The next user message: the starting prompt first, then the LLM's message; `Stop` when the
/// turn limit is reached or the LLM says the stop signal.
pub async fn next_message(
    port: &dyn JudgePort,
    scenario: &ConversationScenario,
    cfg: &SimulatorConfig,
    history: &[Invocation],
) -> Result<Next, String> {
    if history.is_empty() {
        return Ok(Next::Say(scenario.starting_prompt.clone()));
    }
    if cfg.max_allowed_invocations.is_some_and(|m| history.len() >= m) {
        return Ok(Next::Stop);
    }
    let persona = persona_text(scenario.user_persona.as_ref());
    let prompt = prompts::simulated_user(
        &scenario.starting_prompt,
        &scenario.conversation_plan,
        persona.as_deref(),
        &transcript(history, cfg.include_function_calls),
        &cfg.stop_signal,
        cfg.custom_instructions.as_deref(),
    );
    let text = port
        .ask(JudgeRequest {
            metric: "user_simulator".into(),
            invocation: history.len(),
            sample: 0,
            kind: CallKind::Simulator,
            prompt,
            model_hint: cfg.model.clone(),
            config: cfg.model_configuration.clone(),
            media: crate::judge::media::none(),
        })
        .await
        .map_err(|f| {
            format!(
                "the simulated user could not write turn {}: {}",
                history.len() + 1,
                f.message
            )
        })?;
    if text.to_lowercase().contains(&cfg.stop_signal.to_lowercase()) {
        return Ok(Next::Stop);
    }
    let t = text.trim();
    if t.is_empty() {
        return Err(format!(
            "the simulated user's model returned an empty message for turn {}",
            history.len() + 1
        ));
    }
    Ok(Next::Say(t.to_string()))
}
