//! Reading a score answer, `{"score": <number>, "explanation": "..."}`: what the hosted service's
//! LLM metrics ask a judge for, and ADK's coherence metric returns.

use crate::schema::value::parse_f64;
use regex_lite::Regex;
use std::sync::OnceLock;

/// A score answer (`{"score": <number>, "explanation": "..."}`, what the hosted service's
/// LLM metrics and ADK's coherence metric return): the first JSON object with a numeric `score`
/// (a number or a numeric string), in a code fence or prose around it; else a `score: 4` line.
/// The explanation is the object's `explanation` (or `reason`), "" without one.
pub fn score_answer(text: &str) -> Option<(f64, String)> {
    // JSON objects first: each `{` is tried as the start of one (a bounded number of them, so a
    // hostile answer full of braces costs linear time).
    for (start, _) in text.match_indices('{').take(64) {
        let Some(object) = text.get(start..).and_then(balanced) else {
            continue;
        };
        let Ok(serde_json::Value::Object(o)) = serde_json::from_str::<serde_json::Value>(object) else {
            continue;
        };
        let Some(score) = o.get("score").and_then(number) else {
            continue;
        };
        let why = ["explanation", "reason", "reasoning"]
            .iter()
            .find_map(|k| o.get(*k).and_then(serde_json::Value::as_str))
            .unwrap_or("");
        return Some((score, why.to_string()));
    }
    static LINE: OnceLock<Option<Regex>> = OnceLock::new();
    let re = LINE
        .get_or_init(|| Regex::new(r#"(?i)["*]*score["*]*\s*[:=]\s*["*]*\s*(-?[0-9]+(?:\.[0-9]+)?)"#).ok())
        .as_ref()?;
    let score = parse_f64(re.captures(text)?.get(1)?.as_str())?;
    score.is_finite().then(|| (score, String::new()))
}

/// The `{...}` that opens `s`, up to its matching brace (braces inside JSON strings skipped),
/// within its first 256 KiB (a score object is short; a hostile answer costs bounded time).
fn balanced(s: &str) -> Option<&str> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, b) in s.bytes().enumerate().take(1 << 18) {
        match (in_string, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (true, false, _) => {}
            (false, _, b'"') => in_string = true,
            (false, _, b'{') => depth += 1,
            (false, _, b'}') => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return s.get(..=i);
                }
            }
            _ => {}
        }
    }
    None
}

fn number(v: &serde_json::Value) -> Option<f64> {
    let x = match v {
        serde_json::Value::Number(n) => n.as_f64(),
        serde_json::Value::String(s) => parse_f64(s.trim()),
        _ => None,
    }?;
    x.is_finite().then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_answers() {
        assert_eq!(
            score_answer(r#"{"score": 4, "explanation": "good"}"#),
            Some((4.0, "good".into()))
        );
        assert_eq!(
            score_answer("Here it is:\n```json\n{\"explanation\": \"ok {not json}\", \"score\": \"3.5\"}\n```"),
            Some((3.5, "ok {not json}".into()))
        );
        assert_eq!(score_answer("{\"a\": {\"score\": 2}}"), Some((2.0, String::new())));
        assert_eq!(score_answer("**Score:** 5\nBecause."), Some((5.0, String::new())));
        assert_eq!(score_answer(r#"{"score": "high"}"#), None);
        assert_eq!(score_answer("no verdict"), None);
        assert_eq!(score_answer(&"{".repeat(100_000)), None);
    }
}
