//! Rubrics as ADK's data carries them: a rubric an eval case or invocation names, and the score
//! a judge gave one.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Rubric {
    #[serde(alias = "rubricId")]
    pub rubric_id: String,
    #[serde(alias = "rubricContent", deserialize_with = "super::de::obj")]
    pub rubric_content: RubricContent,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct RubricContent {
    #[serde(default, alias = "textProperty", skip_serializing_if = "Option::is_none")]
    pub text_property: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct RubricScore {
    #[serde(alias = "rubricId")]
    pub rubric_id: String,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub rationale: Option<String>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub score: Option<f64>,
}
