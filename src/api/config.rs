//! `validateEvalConfig` as JSON text: the report of ADK's config rules ([`crate::config`]).

use crate::config::{self, ConfigOptions};

/// `validateEvalConfig(input, {strict?})`: `{ok, errors, warnings}` (never an envelope).
pub fn validate_eval_config(input: &str, options: &ConfigOptions) -> String {
    serde_json::to_string(&config::validate(input, options))
        .unwrap_or_else(|_| "{\"ok\":false,\"errors\":[],\"warnings\":[]}".into())
}
