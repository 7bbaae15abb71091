//! People's verdicts on judged results: the labels file (`"kind": "evalcore.labels"`, version
//! 1; docs/compare.md), read with a JSON path for every mistake. A label is keyed by eval set,
//! case, run, invocation, metric and rubric; it says agree, disagree, or the person's own
//! verdict ("pass" / "fail"), with an optional note.

use crate::error::{ErrorCode, EvalError, Result};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::HashSet;

/// The `kind` a labels file names itself with.
pub const KIND: &str = "evalcore.labels";
/// The newest version this build reads (and the one it writes).
pub const VERSION: u64 = 1;

/// A binary verdict on one invocation (or one rubric of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Pass,
    Fail,
}

impl Verdict {
    fn parse(s: &str) -> Option<Verdict> {
        match s {
            "pass" => Some(Verdict::Pass),
            "fail" => Some(Verdict::Fail),
            _ => None,
        }
    }

    fn flipped(self) -> Verdict {
        match self {
            Verdict::Pass => Verdict::Fail,
            Verdict::Fail => Verdict::Pass,
        }
    }
}

/// One label, its person's verdict resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    pub eval_set_id: String,
    pub eval_id: String,
    /// Which run of the case (evalcore's `run`); absent matches a result without one, or run 0.
    pub run: Option<u32>,
    pub invocation_index: usize,
    /// The labelled invocation's `invocation_id`, when it had one: results whose invocation at
    /// that index has another id are not what was labelled.
    pub invocation_id: Option<String>,
    pub metric_name: String,
    /// A rubric's verdict rather than the invocation's.
    pub rubric_id: Option<String>,
    /// The person's verdict.
    pub human: Verdict,
    /// Where the label is in the file.
    pub path: String,
}

fn err(path: &str, message: impl Into<String>) -> EvalError {
    EvalError::schema(path, message)
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn text<'v>(o: &'v Map<String, Value>, key: &str, path: &str, required: bool) -> Result<Option<&'v str>> {
    match o.get(key) {
        None | Some(Value::Null) if !required => Ok(None),
        Some(Value::String(s)) if !s.is_empty() || !required => Ok(Some(s)),
        None | Some(Value::Null) => Err(err(
            &format!("{path}.{key}"),
            format!("missing `{key}`: a label names its {}", what(key)),
        )),
        Some(v) => Err(err(
            &format!("{path}.{key}"),
            format!("`{key}` must be a non-empty string, found {}", kind_of(v)),
        )),
    }
}

fn what(key: &str) -> &'static str {
    match key {
        "eval_set_id" => "eval set",
        "eval_id" => "eval case",
        "metric_name" => "metric",
        _ => "verdict",
    }
}

fn whole(o: &Map<String, Value>, key: &str, path: &str) -> Result<Option<u64>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .filter(|n| *n <= u64::from(u32::MAX))
            .map(Some)
            .ok_or_else(|| {
                err(
                    &format!("{path}.{key}"),
                    format!("`{key}` must be a whole number from 0, found {v}"),
                )
            }),
    }
}

fn verdict(o: &Map<String, Value>, key: &str, path: &str) -> Result<Option<Verdict>> {
    match text(o, key, path, false)? {
        None => Ok(None),
        Some(s) => Verdict::parse(s).map(Some).ok_or_else(|| {
            err(
                &format!("{path}.{key}"),
                format!("`{key}` must be \"pass\" or \"fail\", found {s:?}"),
            )
        }),
    }
}

/// One entry of `labels`.
fn label(v: &Value, path: &str) -> Result<Label> {
    let Value::Object(o) = v else {
        return Err(err(path, format!("a label is an object, found {}", kind_of(v))));
    };
    let judge = verdict(o, "judge_verdict", path)?;
    let said = text(o, "label", path, true)?.unwrap_or_default();
    let human = match said {
        "agree" | "disagree" => {
            let Some(j) = judge else {
                return Err(err(
                    &format!("{path}.judge_verdict"),
                    format!("label \"{said}\" needs `judge_verdict` (\"pass\" or \"fail\"): what the judge said when the person labelled it"),
                ));
            };
            if said == "agree" {
                j
            } else {
                j.flipped()
            }
        }
        other => Verdict::parse(other).ok_or_else(|| {
            err(
                &format!("{path}.label"),
                format!("`label` must be \"agree\", \"disagree\", \"pass\" or \"fail\", found {other:?}"),
            )
        })?,
    };
    if let Some(n) = o.get("note").filter(|n| !n.is_null() && !n.is_string()) {
        return Err(err(
            &format!("{path}.note"),
            format!("`note` must be a string, found {}", kind_of(n)),
        ));
    }
    let index = whole(o, "invocation_index", path)?.ok_or_else(|| {
        err(
            &format!("{path}.invocation_index"),
            "missing `invocation_index`: which invocation of the case (0 for the first)",
        )
    })?;
    Ok(Label {
        eval_set_id: text(o, "eval_set_id", path, true)?.unwrap_or_default().to_string(),
        eval_id: text(o, "eval_id", path, true)?.unwrap_or_default().to_string(),
        run: whole(o, "run", path)?.map(|r| r as u32),
        invocation_index: index as usize,
        invocation_id: text(o, "invocation_id", path, false)?.map(str::to_string),
        metric_name: text(o, "metric_name", path, true)?.unwrap_or_default().to_string(),
        rubric_id: text(o, "rubric_id", path, false)?.map(str::to_string),
        human,
        path: path.to_string(),
    })
}

/// Reads a labels file (already parsed) whose JSON path is `root` (`$` or an argument's name).
/// Two labels of one key are an error (`duplicate_id`): which one counts would be a guess.
pub fn read_labels(v: &Value, root: &str) -> Result<Vec<Label>> {
    let Value::Object(o) = v else {
        return Err(err(
            root,
            format!(
                "a labels file is an object {{\"kind\": \"{KIND}\", \"version\": 1, \"labels\": [...]}}, found {}",
                kind_of(v)
            ),
        ));
    };
    match o.get("kind") {
        Some(Value::String(k)) if k == KIND => {}
        other => {
            let found = other.map_or_else(|| "none".to_string(), |v| v.to_string());
            return Err(err(
                &format!("{root}.kind"),
                format!("a labels file says \"kind\": \"{KIND}\", found {found}"),
            ));
        }
    }
    match o.get("version").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(n) if n > VERSION => {
            return Err(EvalError::new(
                ErrorCode::Unsupported,
                format!("{root}.version"),
                format!("labels file version {n} is newer than this evalcore reads (up to {VERSION}): update evalcore"),
            ))
        }
        _ => {
            return Err(err(
                &format!("{root}.version"),
                format!(
                    "`version` must be {VERSION}, found {}",
                    o.get("version").map_or("none".into(), |v| v.to_string())
                ),
            ))
        }
    }
    let Some(Value::Array(list)) = o.get("labels") else {
        return Err(err(&format!("{root}.labels"), "`labels` must be an array of labels"));
    };
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let l = label(v, &format!("{root}.labels[{i}]"))?;
        let key = (
            l.eval_set_id.clone(),
            l.eval_id.clone(),
            l.run.unwrap_or(0),
            l.invocation_index,
            l.metric_name.clone(),
            l.rubric_id.clone(),
        );
        if !seen.insert(key) {
            return Err(EvalError::new(
                ErrorCode::DuplicateId,
                l.path,
                "a second label for the same eval set, case, run, invocation, metric and rubric: keep one",
            ));
        }
        out.push(l);
    }
    Ok(out)
}
