//! `compareRuns` and `calibrate` over JSON texts: every result read as `loadEvalSetResult`
//! reads it, every error named by the argument it came from (`$baseline[2].eval_case_results…`).

use super::{options, to_json};
use crate::compare::{self, calibrate::DEFAULT_KAPPA_THRESHOLD, labels};
use crate::error::{EvalError, Result};
use crate::schema::eval_result::{self, EvalSetResult};
use crate::schema::load;
use serde::Deserialize;

/// An argument's path prefix: `$baseline`, or `$baseline[i]` when it was an array.
fn arg(name: &str, i: usize, array: bool) -> String {
    if array {
        format!("${name}[{i}]")
    } else {
        format!("${name}")
    }
}

/// `e` with its path under `prefix` (the path the argument has in the call).
fn under(prefix: &str, e: EvalError) -> EvalError {
    let path = match e.path.strip_prefix('$') {
        Some(rest) => format!("{prefix}{rest}"),
        None if e.path.is_empty() => prefix.to_string(),
        None => format!("{prefix}.{}", e.path),
    };
    EvalError { path, ..e }
}

/// Reads each UTF-8 text as an EvalSetResult; errors under `name`.
fn read_all(texts: &[&[u8]], name: &str, array: bool) -> Result<Vec<EvalSetResult>> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            super::utf8(t)
                .and_then(eval_result::read_eval_set_result)
                .map_err(|e| under(&arg(name, i, array), e))
        })
        .collect()
}

/// `joined` cut into texts of the byte lengths `lens` (how the skin passes many texts in one
/// call); an error when the lengths do not add up.
pub fn split<'a>(joined: &'a [u8], lens: &[u32]) -> Result<Vec<&'a [u8]>> {
    let mut out = Vec::with_capacity(lens.len());
    let mut rest = joined;
    for len in lens {
        if rest.len() < *len as usize {
            break;
        }
        let (head, tail) = rest.split_at(*len as usize);
        out.push(head);
        rest = tail;
    }
    if out.len() != lens.len() || !rest.is_empty() {
        return Err(EvalError::schema(
            "",
            "the texts' lengths do not add up to the bytes given",
        ));
    }
    Ok(out)
}

fn none(name: &str) -> EvalError {
    EvalError::schema(
        format!("${name}"),
        format!("{name}: expected a result or an array of one or more results, found none"),
    )
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CompareOptions {
    alpha: Option<f64>,
}

/// Which texts are whose, as the caller passed them.
pub struct Sides {
    /// The first `baseline` texts are the baseline's, the rest the candidate's.
    pub baseline: usize,
    /// Whether each side was given as an array (for the paths of errors).
    pub baseline_array: bool,
    pub candidate_array: bool,
}

/// `compareRuns(baseline, candidate, options)`: `options` is `{"alpha"?}` JSON or "".
pub fn compare_runs(texts: &[&[u8]], sides: &Sides, opts: &str) -> Result<String> {
    let o: CompareOptions = options(opts)?;
    let alpha = o.alpha.unwrap_or(0.05);
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(EvalError::schema(
            "$options.alpha",
            format!("`alpha` is a significance level between 0 and 1, found {alpha}"),
        ));
    }
    let (b, c) = texts.split_at(sides.baseline.min(texts.len()));
    for (side, list) in [("baseline", b), ("candidate", c)] {
        if list.is_empty() {
            return Err(none(side));
        }
    }
    let baseline = read_all(b, "baseline", sides.baseline_array)?;
    let candidate = read_all(c, "candidate", sides.candidate_array)?;
    Ok(to_json(&compare::compare_runs(&baseline, &candidate, alpha)))
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CalibrateOptions {
    kappa_threshold: Option<f64>,
    judge_model: Option<String>,
}

/// `calibrate(labels, results, options)`: `options` is `{"kappaThreshold"?, "judgeModel"?}`
/// JSON or "".
pub fn calibrate(labels_text: &[u8], results: &[&[u8]], results_array: bool, opts: &str) -> Result<String> {
    let o: CalibrateOptions = options(opts)?;
    let threshold = o.kappa_threshold.unwrap_or(DEFAULT_KAPPA_THRESHOLD);
    if !(-1.0..=1.0).contains(&threshold) {
        return Err(EvalError::schema(
            "$options.kappaThreshold",
            format!("`kappaThreshold` is a kappa between -1 and 1, found {threshold}"),
        ));
    }
    let value = super::utf8(labels_text)
        .and_then(load::parse_json)
        .map_err(|e| under("$labels", e))?;
    let labels = labels::read_labels(&value, "$labels")?;
    if results.is_empty() {
        return Err(none("results"));
    }
    let results = read_all(results, "results", results_array)?;
    let model = o.judge_model.as_deref().filter(|m| !m.is_empty());
    Ok(to_json(&compare::calibrate(&labels, &results, threshold, model)))
}
