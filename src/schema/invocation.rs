//! One user turn and the agent's reaction: Invocation, both intermediate-data shapes, events, usage.

use super::app_details::AppDetails;
use super::content::{Content, FunctionCall, FunctionResponse, JsonObject, Part};
use super::de;
use super::rubric::Rubric;
use serde::{Deserialize, Serialize, Serializer};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Invocation {
    #[serde(default, alias = "invocationId")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub invocation_id: String,
    #[serde(deserialize_with = "de::obj", alias = "userContent")]
    pub user_content: Content,
    #[serde(
        deserialize_with = "de::opt_obj",
        default,
        alias = "finalResponse",
        skip_serializing_if = "Option::is_none"
    )]
    pub final_response: Option<Content>,
    #[serde(default, alias = "intermediateData", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(as = "Option<ts_shapes::AnyIntermediateData>"))]
    pub intermediate_data: Option<IntermediateData>,
    #[serde(deserialize_with = "de::lax_f64", default, alias = "creationTimestamp")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub creation_timestamp: f64,
    #[serde(
        deserialize_with = "de::opt_vec_obj",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub rubrics: Option<Vec<Rubric>>,
    #[serde(
        deserialize_with = "de::opt_obj",
        default,
        alias = "appDetails",
        skip_serializing_if = "Option::is_none"
    )]
    pub app_details: Option<AppDetails>,
    #[serde(
        deserialize_with = "de::opt_lax_f64",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub duration: Option<f64>,
    #[serde(
        deserialize_with = "de::opt_lax_f64",
        default,
        alias = "modelDuration",
        skip_serializing_if = "Option::is_none"
    )]
    pub model_duration: Option<f64>,
    #[serde(
        deserialize_with = "de::opt_lax_f64",
        default,
        alias = "toolDuration",
        skip_serializing_if = "Option::is_none"
    )]
    pub tool_duration: Option<f64>,
}

/// The two shapes ADK accepts for `intermediate_data` (pydantic smart union, both forbid extras).
#[derive(Debug, Clone, PartialEq)]
pub enum IntermediateData {
    /// Hand-written / migrated expected data.
    Legacy {
        tool_uses: Vec<FunctionCall>,
        tool_responses: Vec<FunctionResponse>,
        intermediate_responses: Vec<(String, Vec<Part>)>,
    },
    /// What ADK records for actual invocations.
    Events(Vec<InvocationEvent>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawIntermediate {
    #[serde(deserialize_with = "de::present_vec_obj", default, alias = "toolUses")]
    tool_uses: Option<Vec<FunctionCall>>,
    #[serde(deserialize_with = "de::present_vec_obj", default, alias = "toolResponses")]
    tool_responses: Option<Vec<FunctionResponse>>,
    #[serde(deserialize_with = "de::present", default, alias = "intermediateResponses")]
    intermediate_responses: Option<Vec<(String, Vec<Part>)>>,
    #[serde(deserialize_with = "de::present_vec_obj", default, alias = "invocationEvents")]
    invocation_events: Option<Vec<InvocationEvent>>,
}

impl RawIntermediate {
    fn shape(self) -> Result<IntermediateData, &'static str> {
        let legacy = self.tool_uses.is_some() || self.tool_responses.is_some() || self.intermediate_responses.is_some();
        match self.invocation_events {
            Some(_) if legacy => Err(
                "intermediate_data mixes the event shape (invocation_events) with the legacy shape \
                 (tool_uses / tool_responses / intermediate_responses); use one of them",
            ),
            Some(events) => Ok(IntermediateData::Events(events)),
            None => Ok(IntermediateData::Legacy {
                tool_uses: self.tool_uses.unwrap_or_default(),
                tool_responses: self.tool_responses.unwrap_or_default(),
                intermediate_responses: self.intermediate_responses.unwrap_or_default(),
            }),
        }
    }
}

impl<'de> Deserialize<'de> for IntermediateData {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // The shape is checked inside the object's own visit, so the error is placed at
        // `intermediate_data` itself, not at the invocation around it.
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = IntermediateData;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<IntermediateData, A::Error> {
                let raw = RawIntermediate::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                raw.shape().map_err(serde::de::Error::custom)
            }
        }
        d.deserialize_map(V)
    }
}

impl Serialize for IntermediateData {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        match self {
            IntermediateData::Legacy {
                tool_uses,
                tool_responses,
                intermediate_responses,
            } => {
                let mut st = s.serialize_struct("IntermediateData", 3)?;
                st.serialize_field("tool_uses", tool_uses)?;
                st.serialize_field("tool_responses", tool_responses)?;
                st.serialize_field("intermediate_responses", intermediate_responses)?;
                st.end()
            }
            IntermediateData::Events(events) => {
                let mut st = s.serialize_struct("InvocationEvents", 1)?;
                st.serialize_field("invocation_events", events)?;
                st.end()
            }
        }
    }
}

/// The TypeScript shapes of [`IntermediateData`], whose serde impls above are written by hand.
#[cfg(feature = "ts")]
#[allow(dead_code)] // shapes for the generator only: never built
mod ts_shapes {
    use super::{FunctionCall, FunctionResponse, InvocationEvent, Part};

    /// Legacy intermediate data: what hand-written and migrated expected invocations use.
    #[derive(ts_rs::TS)]
    #[ts(rename = "IntermediateData")]
    pub struct Legacy {
        #[ts(optional)]
        tool_uses: Option<Vec<FunctionCall>>,
        #[ts(optional)]
        tool_responses: Option<Vec<FunctionResponse>>,
        /// `[author, parts]` pairs: sub-agent progress messages.
        #[ts(optional)]
        intermediate_responses: Option<Vec<(String, Vec<Part>)>>,
    }

    /// Event-shaped intermediate data: what ADK records for actual invocations.
    #[derive(ts_rs::TS)]
    pub struct InvocationEvents {
        invocation_events: Vec<InvocationEvent>,
    }

    /// Either shape of `intermediate_data` (they cannot be mixed).
    #[derive(ts_rs::TS)]
    #[ts(untagged)]
    pub enum AnyIntermediateData {
        Legacy(Legacy),
        Events(InvocationEvents),
    }
}

/// An event of an actual invocation. Unknown keys are ignored (ADK 2.13: UI-only keys).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct InvocationEvent {
    pub author: String,
    #[serde(deserialize_with = "de::opt_obj", default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub content: Option<Content>,
    #[serde(default, alias = "groundingMetadata", skip_serializing_if = "Option::is_none")]
    pub grounding_metadata: Option<Box<JsonObject>>,
    #[serde(
        deserialize_with = "de::opt_box_obj",
        default,
        alias = "usageMetadata",
        skip_serializing_if = "Option::is_none"
    )]
    pub usage_metadata: Option<Box<UsageMetadata>>,
    #[serde(default, alias = "modelVersion", skip_serializing_if = "Option::is_none")]
    pub model_version: Option<String>,
}

/// genai's GenerateContentResponseUsageMetadata (extras forbidden).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct UsageMetadata {
    #[serde(
        deserialize_with = "de::opt_lax_i64",
        default,
        alias = "promptTokenCount",
        skip_serializing_if = "Option::is_none"
    )]
    pub prompt_token_count: Option<i64>,
    #[serde(
        deserialize_with = "de::opt_lax_i64",
        default,
        alias = "candidatesTokenCount",
        skip_serializing_if = "Option::is_none"
    )]
    pub candidates_token_count: Option<i64>,
    #[serde(
        deserialize_with = "de::opt_lax_i64",
        default,
        alias = "totalTokenCount",
        skip_serializing_if = "Option::is_none"
    )]
    pub total_token_count: Option<i64>,
    #[serde(
        deserialize_with = "de::opt_lax_i64",
        default,
        alias = "cachedContentTokenCount",
        skip_serializing_if = "Option::is_none"
    )]
    pub cached_content_token_count: Option<i64>,
    #[serde(
        deserialize_with = "de::opt_lax_i64",
        default,
        alias = "toolUsePromptTokenCount",
        skip_serializing_if = "Option::is_none"
    )]
    pub tool_use_prompt_token_count: Option<i64>,
    #[serde(
        deserialize_with = "de::opt_lax_i64",
        default,
        alias = "thoughtsTokenCount",
        skip_serializing_if = "Option::is_none"
    )]
    pub thoughts_token_count: Option<i64>,
    #[serde(default, alias = "promptTokensDetails", skip_serializing_if = "Option::is_none")]
    pub prompt_tokens_details: Option<Vec<ModalityTokenCount>>,
    #[serde(default, alias = "cacheTokensDetails", skip_serializing_if = "Option::is_none")]
    pub cache_tokens_details: Option<Vec<ModalityTokenCount>>,
    #[serde(default, alias = "candidatesTokensDetails", skip_serializing_if = "Option::is_none")]
    pub candidates_tokens_details: Option<Vec<ModalityTokenCount>>,
    #[serde(
        default,
        alias = "toolUsePromptTokensDetails",
        skip_serializing_if = "Option::is_none"
    )]
    pub tool_use_prompt_tokens_details: Option<Vec<ModalityTokenCount>>,
    #[serde(default, alias = "trafficType", skip_serializing_if = "Option::is_none")]
    pub traffic_type: Option<String>,
}

/// genai's ModalityTokenCount (extras forbidden).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct ModalityTokenCount {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modality: Option<String>,
    #[serde(
        default,
        alias = "tokenCount",
        deserialize_with = "de::opt_lax_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub token_count: Option<i64>,
}

impl Invocation {
    /// Tool calls in ADK's order: legacy `tool_uses`, or every function_call of every event (any author).
    pub fn tool_calls(&self) -> Vec<&FunctionCall> {
        match &self.intermediate_data {
            None => Vec::new(),
            Some(IntermediateData::Legacy { tool_uses, .. }) => tool_uses.iter().collect(),
            Some(IntermediateData::Events(events)) => events
                .iter()
                .filter_map(|e| e.content.as_ref())
                .flat_map(Content::function_calls)
                .collect(),
        }
    }

    /// Number of tool calls without collecting them.
    pub fn tool_call_count(&self) -> usize {
        match &self.intermediate_data {
            None => 0,
            Some(IntermediateData::Legacy { tool_uses, .. }) => tool_uses.len(),
            Some(IntermediateData::Events(events)) => events
                .iter()
                .filter_map(|e| e.content.as_ref())
                .map(|c| c.function_calls().count())
                .sum(),
        }
    }

    /// Events of the event shape; the legacy shape and no data give none.
    pub fn events(&self) -> &[InvocationEvent] {
        match &self.intermediate_data {
            Some(IntermediateData::Events(events)) => events,
            _ => &[],
        }
    }
}
