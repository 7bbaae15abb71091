//! EvalSet and EvalCase with ADK 2.13's per-type alias and unknown-key rules, plus their small companions.

pub use super::app_details::{AgentDetails, AppDetails};
use super::content::JsonObject;
use super::de::{LaxF64, Obj};
use super::invocation::Invocation;
pub use super::rubric::{Rubric, RubricContent, RubricScore};
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use std::fmt;

/// `<id>.evalset.json`. A plain model in ADK: no camelCase at this level, unknown keys ignored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EvalSet {
    pub eval_set_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub eval_cases: Vec<EvalCase>,
    #[serde(default, deserialize_with = "super::de::lax_f64")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub creation_timestamp: f64,
}

/// One case: a static conversation or a conversation scenario. Unknown keys are kept (ADK 2.13).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EvalCase {
    pub eval_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub conversation: Option<Vec<Invocation>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub conversation_scenario: Option<ConversationScenario>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub session_input: Option<SessionInput>,
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub creation_timestamp: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub rubrics: Option<Vec<Rubric>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub final_session_state: Option<Value>,
    #[serde(flatten)]
    pub extra: JsonObject,
}

impl<'de> Deserialize<'de> for EvalCase {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(EvalCaseVisitor)
    }
}

struct EvalCaseVisitor;

fn set_once<T, E: de::Error>(slot: &mut Option<T>, v: T, name: &'static str) -> Result<(), E> {
    if slot.is_some() {
        return Err(E::duplicate_field(name));
    }
    *slot = Some(v);
    Ok(())
}

impl<'de> Visitor<'de> for EvalCaseVisitor {
    type Value = EvalCase;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an eval case object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<EvalCase, A::Error> {
        let mut eval_id: Option<String> = None;
        let mut conversation: Option<Option<Vec<Invocation>>> = None;
        let mut scenario: Option<Option<ConversationScenario>> = None;
        let mut session_input: Option<Option<SessionInput>> = None;
        let mut ts: Option<f64> = None;
        let mut rubrics: Option<Option<Vec<Rubric>>> = None;
        let mut fss: Option<Option<Value>> = None;
        let mut extra = JsonObject::new();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "eval_id" | "evalId" => set_once(&mut eval_id, map.next_value()?, "eval_id")?,
                "conversation" => {
                    let v: Option<Vec<Obj<Invocation>>> = map.next_value()?;
                    set_once(
                        &mut conversation,
                        v.map(|v| v.into_iter().map(|o| o.0).collect()),
                        "conversation",
                    )?
                }
                "conversation_scenario" | "conversationScenario" => {
                    let v: Option<Obj<ConversationScenario>> = map.next_value()?;
                    set_once(&mut scenario, v.map(|o| o.0), "conversation_scenario")?
                }
                "session_input" | "sessionInput" => {
                    let v: Option<Obj<SessionInput>> = map.next_value()?;
                    set_once(&mut session_input, v.map(|o| o.0), "session_input")?
                }
                "creation_timestamp" | "creationTimestamp" => {
                    let v: LaxF64 = map.next_value()?;
                    set_once(&mut ts, v.0, "creation_timestamp")?
                }
                "rubrics" => {
                    let v: Option<Vec<Obj<Rubric>>> = map.next_value()?;
                    set_once(&mut rubrics, v.map(|v| v.into_iter().map(|o| o.0).collect()), "rubrics")?
                }
                "final_session_state" | "finalSessionState" => {
                    set_once(&mut fss, map.next_value()?, "final_session_state")?
                }
                _ => {
                    let v: Value = map.next_value()?;
                    extra.insert(key, v);
                }
            }
        }
        // A misspelt key is kept as an extra (as ADK 2.13 keeps it): name it where it is missed.
        let meant = |wanted: &str| {
            extra
                .keys()
                .find(|k| super::value::closest(k, [wanted].iter().copied()).is_some())
                .map(|k| format!("; the case has `{k}`: did you mean `{wanted}`?"))
                .unwrap_or_default()
        };
        let Some(eval_id) = eval_id else {
            return Err(de::Error::custom(format_args!(
                "missing field `eval_id`{}",
                meant("eval_id")
            )));
        };
        let conversation = conversation.flatten();
        let conversation_scenario = scenario.flatten();
        if conversation.is_some() {
            if conversation_scenario.is_some() {
                return Err(de::Error::custom(
                    "an eval case has either `conversation` or `conversation_scenario`, not both",
                ));
            }
        } else if conversation_scenario.is_none() {
            return Err(de::Error::custom(format_args!(
                "an eval case needs `conversation` (a list of invocations) or `conversation_scenario`{}",
                meant("conversation")
            )));
        }
        Ok(EvalCase {
            eval_id,
            conversation,
            conversation_scenario,
            session_input: session_input.flatten(),
            creation_timestamp: ts.unwrap_or(0.0),
            rubrics: rubrics.flatten(),
            final_session_state: fss.flatten(),
            extra,
        })
    }
}

/// Initial session of a case. Extra keys are allowed (ADK 2.13) and kept.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SessionInput {
    #[serde(alias = "appName")]
    pub app_name: String,
    #[serde(alias = "userId")]
    pub user_id: String,
    #[serde(default, alias = "sessionId", skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub state: JsonObject,
    #[serde(flatten)]
    pub extra: JsonObject,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct ConversationScenario {
    #[serde(alias = "startingPrompt")]
    pub starting_prompt: String,
    #[serde(alias = "conversationPlan")]
    pub conversation_plan: String,
    #[serde(default, alias = "userPersona", skip_serializing_if = "Option::is_none")]
    pub user_persona: Option<PersonaRef>,
}

/// A persona object, or the id of one of ADK's built-in personas.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(untagged)]
pub enum PersonaRef {
    Builtin(String),
    Persona(UserPersona),
}

pub use super::personas::{PersonaBehavior, UserPersona, BUILTIN_PERSONAS};

impl<'de> Deserialize<'de> for PersonaRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        match v {
            Value::String(s) if BUILTIN_PERSONAS.contains(&s.as_str()) => Ok(PersonaRef::Builtin(s)),
            Value::String(s) => Err(de::Error::custom(format!(
                "unknown user persona id {s:?}; the built-in personas are EXPERT, NOVICE and EVALUATOR, \
                 or give a persona object"
            ))),
            other => serde_json::from_value(other)
                .map(PersonaRef::Persona)
                .map_err(de::Error::custom),
        }
    }
}

/// `{"scenarios": [...]}`, the file `eval_set add_eval_case --scenarios_file` reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct ConversationScenarios {
    pub scenarios: Vec<ConversationScenario>,
}
