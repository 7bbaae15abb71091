//! agents-cli datasets through the JSON-text surface: read as eval sets (`loadEvalSet`,
//! `validateEvalSet`), read with their recorded invocations (`loadEvaluationDataset`), and
//! written from an eval set and its invocations (`toEvaluationDataset`).

use super::{options, to_json};
use crate::agents_cli::dataset::{self, Dataset};
use crate::error::{EvalError, Result};
use crate::schema::load::{self, from_value, LoadOptions};
use crate::schema::{EvalSet, Invocation};
use indexmap::IndexMap;
use serde_json::Value;

/// The dataset in `text`, when it is one: its cases read, or every problem found.
pub fn read_all(text: &str) -> Option<std::result::Result<Dataset, Vec<EvalError>>> {
    read_with(text, None)
}

fn read_with(text: &str, id: Option<&str>) -> Option<std::result::Result<Dataset, Vec<EvalError>>> {
    parsed(text).map(|v| dataset::read(&v, id))
}

/// The dataset in `text` as a value, when it is one.
fn parsed(text: &str) -> Option<Value> {
    // A quick look first: only a text with `eval_cases` and no eval set id can be one.
    if !text.contains("\"eval_cases\"") || text.contains("\"eval_set_id\"") {
        return None;
    }
    let v = load::parse_json(text).ok()?;
    dataset::is_dataset(&v).then_some(v)
}

/// Whether `text` is an agents-cli dataset, without reading its cases: the main wasm module,
/// which has no dataset reader, hands such a text to the extras module.
pub fn is_dataset(text: &str) -> bool {
    parsed(text).is_some()
}

/// [`read_all`] as one error: the first problem, saying how many more there are.
pub fn read_text(text: &str, id: Option<&str>) -> Option<Result<Dataset>> {
    read_with(text, id).map(|r| {
        r.map_err(|mut errors| {
            let n = errors.len();
            let mut first = errors.swap_remove(0);
            if n > 1 {
                first.message = format!("{} (and {} more problems in this dataset)", first.message, n - 1);
            }
            first
        })
    })
}

/// `loadEvaluationDataset(input, {id?})`: any eval set or dataset, as `{eval_set, actual,
/// grading, inference}`: the recorded invocations of the cases that are traces, by eval id, and
/// which cases are traces to grade and which need an agent to run.
pub fn load_evaluation_dataset(input: &str, opts: &str) -> Result<String> {
    let opts: LoadOptions = options(opts)?;
    let d = match read_text(input, opts.id.as_deref()) {
        Some(d) => d?,
        None => Dataset {
            eval_set: load::load_eval_set(input, &opts)?,
            actual: IndexMap::new(),
        },
    };
    let (grading, inference): (Vec<&str>, Vec<&str>) = d
        .eval_set
        .eval_cases
        .iter()
        .map(|c| c.eval_id.as_str())
        .partition(|id| d.actual.contains_key(*id));
    // Written member by member: each typed value by the serializer the core has for it.
    Ok(format!(
        "{{\"eval_set\":{},\"actual\":{},\"grading\":{},\"inference\":{}}}",
        to_json(&d.eval_set),
        to_json(&d.actual),
        to_json(&grading),
        to_json(&inference)
    ))
}

/// `toEvaluationDataset({evalSet, actual?})`: the eval set (any shape `loadEvalSet` takes) as an
/// agents-cli dataset, the cases of `actual` (eval id -> invocations) as traces.
pub fn to_evaluation_dataset(args: &str) -> Result<String> {
    // Read as a plain value, member by member (a derived reader of its own would cost .wasm).
    let a: Value = options(args)?;
    let Value::Object(a) = a else {
        return Err(EvalError::schema("$", "expected {evalSet, actual?}"));
    };
    if let Some(k) = a.keys().find(|k| !["evalSet", "actual"].contains(&k.as_str())) {
        return Err(EvalError::schema(
            format!("$.{k}"),
            "toEvaluationDataset takes evalSet and actual",
        ));
    }
    let set: EvalSet = match a.get("evalSet") {
        Some(Value::String(text)) => load_any(text)?,
        Some(v) => load_any(&v.to_string())?,
        None => return Err(EvalError::schema("$.evalSet", "missing `evalSet`")),
    };
    let mut actual = IndexMap::new();
    match a.get("actual") {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            for (id, invs) in m {
                let path = format!("$.actual{}", crate::schema::value::key_path(id));
                let invs: Vec<Invocation> = from_value(invs, &path)?;
                actual.insert(id.clone(), invs);
            }
        }
        Some(_) => return Err(EvalError::schema("$.actual", "`actual` maps eval ids to invocations")),
    }
    Ok(to_json(&crate::agents_cli::write::to_dataset(&set, &actual)))
}

fn load_any(text: &str) -> Result<EvalSet> {
    match read_text(text, None) {
        Some(d) => d.map(|d| d.eval_set),
        None => load::load_eval_set(text, &LoadOptions::default()).map_err(|e| EvalError {
            path: e.path.replacen('$', "$.evalSet", 1),
            ..e
        }),
    }
}
