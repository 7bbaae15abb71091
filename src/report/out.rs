//! What ADK's console report and its per-invocation tables both write with: the text built one
//! `click.echo` line at a time, Python's `str.ljust`, and a rubric's text.

use crate::schema::eval_result::EvalMetricResult;
use crate::schema::eval_set::RubricScore;
use serde_json::Value;

/// The text being built: one `click.echo` per `line`.
#[derive(Default)]
pub(super) struct Out(pub(super) String);

impl Out {
    pub(super) fn line(&mut self, s: &str) {
        self.0.push_str(s);
        self.0.push('\n');
    }
}

/// The rubric's text from the criterion's rubrics, else its id (as ADK's lookup does).
pub(super) fn rubric_text(metric: &EvalMetricResult, score: &RubricScore) -> String {
    let field = |v: &'_ Value, key: &str| v.get(key).filter(|x| !x.is_null()).cloned();
    let rubrics = metric.criterion.as_ref().and_then(|c| field(c, "rubrics"));
    let text = rubrics
        .as_ref()
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .rev() // a Python dict built from the list keeps the last duplicate
        .find(|r| r.get("rubric_id").or_else(|| r.get("rubricId")).and_then(Value::as_str) == Some(&score.rubric_id))
        .and_then(|r| r.get("rubric_content").or_else(|| r.get("rubricContent")))
        .and_then(|c| c.get("text_property").or_else(|| c.get("textProperty")))
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty())
        .map(str::to_string);
    text.unwrap_or_else(|| score.rubric_id.clone())
}

pub(super) fn ljust(s: &str, width: usize) -> String {
    let len = s.chars().count();
    format!("{s}{}", " ".repeat(width.saturating_sub(len)))
}
