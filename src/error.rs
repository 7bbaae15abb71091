//! The one error type of evalcore: a stable code, a JSON path and a message a person can act on.

use serde::Serialize;
use std::fmt;

/// Closed set of error codes, serialised as stable snake_case strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The input is not well-formed JSON (or nests too deeply, or is too large).
    InvalidJson,
    /// Well-formed JSON that does not match ADK's schema (wrong type, missing or unknown field).
    Schema,
    /// Two items that must be unique share an id (eval ids, rubric ids).
    DuplicateId,
    /// Actual and expected invocation counts differ for a static conversation.
    CountMismatch,
    /// A value the core understands but cannot act on (feature not available in this build).
    Unsupported,
    /// Input rejected before parsing because it exceeds a hard limit.
    TooLarge,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidJson => "invalid_json",
            ErrorCode::Schema => "schema",
            ErrorCode::DuplicateId => "duplicate_id",
            ErrorCode::CountMismatch => "count_mismatch",
            ErrorCode::Unsupported => "unsupported",
            ErrorCode::TooLarge => "too_large",
        }
    }
}

/// An error value: never a panic. `path` is a JSON path such as `$.eval_cases[2].eval_id`,
/// or `""` when no single value is to blame.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalError {
    pub code: ErrorCode,
    pub path: String,
    pub message: String,
}

impl EvalError {
    pub fn new(code: ErrorCode, path: impl Into<String>, message: impl Into<String>) -> Self {
        EvalError {
            code,
            path: path.into(),
            message: message.into(),
        }
    }
    pub fn schema(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Schema, path, message)
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}: {}", self.code.as_str(), self.message)
        } else {
            write!(f, "{} at {}: {}", self.code.as_str(), self.path, self.message)
        }
    }
}

impl std::error::Error for EvalError {}

pub type Result<T> = std::result::Result<T, EvalError>;
