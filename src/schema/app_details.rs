//! What the agents of an app were (ADK's `AppDetails`): each agent's instructions and tool
//! declarations, as an invocation records them.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct AppDetails {
    #[serde(default, alias = "agentDetails")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub agent_details: IndexMap<String, AgentDetails>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct AgentDetails {
    pub name: String,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub instructions: String,
    #[serde(default, alias = "toolDeclarations")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub tool_declarations: Vec<Value>,
}
