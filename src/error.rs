//! The one error type of evalcore: a stable code, a JSON path and a message a person can act on.
//! The codes are a closed vocabulary declared once, in `codes`.

use serde::Serialize;
use std::fmt;

mod codes;
pub use codes::{CaseErrorCode, ErrorCode, HostErrorCode, NotEvaluatedReason, HTTP_STATUS_PREFIX};

/// An error value: never a panic. `path` is a JSON path such as `$.eval_cases[2].eval_id`,
/// or `""` when no single value is to blame.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalError {
    pub code: ErrorCode,
    pub path: String,
    pub message: String,
}

/// Longest message or path kept whole. serde names the offending value in its message (`invalid
/// type: string "…"`), and a path holds the input's keys: a 10 MB string where an object belongs
/// must not become a 10 MB error.
const MAX_TEXT: usize = 2_000;

/// `s`, or its head and tail around a note of what was left out when it is over [`MAX_TEXT`].
fn bounded(s: String) -> String {
    let chars = s.chars().count();
    if chars <= MAX_TEXT {
        return s;
    }
    let (head, tail) = (1_200, 400);
    let start: String = s.chars().take(head).collect();
    let end: String = s.chars().skip(chars - tail).collect();
    format!("{start}… ({} characters left out) …{end}", chars - head - tail)
}

impl EvalError {
    pub fn new(code: ErrorCode, path: impl Into<String>, message: impl Into<String>) -> Self {
        EvalError {
            code,
            path: bounded(path.into()),
            message: bounded(message.into()),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_value_named_in_a_message_is_cut_keeping_both_ends() {
        let huge = "x".repeat(5_000_000);
        let e = EvalError::schema(
            format!("$.{huge}"),
            format!("invalid type: string \"{huge}\", expected struct Content"),
        );
        assert!(e.message.chars().count() < 1_700, "{}", e.message.len());
        assert!(e.message.starts_with("invalid type: string \"xxx"));
        assert!(e.message.ends_with("xxx\", expected struct Content"));
        assert!(e.message.contains("characters left out"));
        assert!(e.path.chars().count() < 1_700);
        // Multi-byte characters are cut on character boundaries.
        let e = EvalError::schema("", "é☃".repeat(3_000));
        assert!(
            e.message.contains("(4400 characters left out)"),
            "{}",
            &e.message[..100]
        );
        assert_eq!(EvalError::schema("$.a", "short").message, "short");
    }
}
