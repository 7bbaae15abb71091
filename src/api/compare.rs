//! Run comparison as calls of the extras module: `compareRuns` and `runTrend` over results the
//! core has read (JSON in, JSON out; src/compare holds the books and the statistics), and the
//! statistics of `calibrate` as one numeric call (numbers in, numbers out).

use crate::compare::runs;
use crate::compare::trend;
use crate::error::{EvalError, Result};
use crate::schema::parse::{from_str_within_budget, parse_json};
use serde_json::Value;

/// `compareRuns`: `{"baseline": [result...], "candidate": [result...]}` (the core's model, as
/// `loadEvalSetResult` gives it) and `{"alpha"?}` to the comparison COMPARE.md defines. The
/// JS skin checked the options and read the results (each within the limits then).
pub fn compare_runs(input: &str, options: &str) -> Result<String> {
    let alpha = match options.trim() {
        "" => Value::Null,
        o => parse_json(o)?,
    };
    let alpha = alpha.get("alpha").and_then(Value::as_f64).unwrap_or(0.05);
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(EvalError::schema(
            "$options.alpha",
            "compareRuns: `alpha` is a significance level between 0 and 1",
        ));
    }
    let sides = sides(input)?;
    let (b, c) = (runs::list(&sides, "baseline"), runs::list(&sides, "candidate"));
    Ok(super::to_json(&runs::compare(b, c, alpha)))
}

/// The input's JSON value, read within the parse budget the JS skin's reads were held to.
fn sides(input: &str) -> Result<Value> {
    from_str_within_budget(input)
}

/// `runTrend`: a list of results (the core's model) to `{runs, metrics}`, oldest first.
pub fn run_trend(input: &str) -> Result<String> {
    let results = sides(input)?;
    match results.as_array() {
        Some(list) => Ok(super::to_json(&trend::trend(list))),
        None => Err(EvalError::schema("$", "runTrend: expected an array of results")),
    }
}

/// `kind` 4 (calibrate's): per 2x2 table of counts in `a`, `[agreement, Wilson low, Wilson
/// high, kappa]` (NaN when undefined). Anything else: empty. (Kinds 0-3, the comparison's
/// numbers, are computed with its books now: `compare_runs`.)
pub fn stats(kind: u32, a: &[f64], _b: &[f64]) -> Vec<f64> {
    match kind {
        4 => crate::compare::stats::agreement_tables(a),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{compare_runs, run_trend, stats};

    #[test]
    fn calibration_numbers_by_kind() {
        let t = stats(4, &[3.0, 0.0, 0.0, 2.0], &[]);
        assert_eq!((t[0], t[3]), (1.0, 1.0));
        assert!(stats(1, &[1.0], &[]).is_empty());
    }

    #[test]
    fn text_in_envelope_out() {
        let side = r#"[{"eval_set_result_id":"r","eval_set_id":"s","eval_case_results":[
            {"eval_id":"a","final_eval_status":"PASSED","overall_eval_metric_results":[]}]}]"#;
        let both = format!(r#"{{"baseline":{side},"candidate":{side}}}"#);
        let out = compare_runs(&both, r#"{"alpha":0.1}"#).unwrap();
        assert!(
            out.contains(r#""verdict":"no_significant_change","alpha":0.1"#),
            "{out}"
        );
        let code = |r: crate::error::Result<String>| r.err().map(|e| (e.code.as_str(), e.path));
        assert_eq!(
            code(compare_runs(&both, r#"{"alpha":1}"#)),
            Some(("schema", "$options.alpha".into()))
        );
        assert_eq!(code(compare_runs("[", "")).map(|c| c.0), Some("invalid_json"));
        assert!(run_trend(side)
            .unwrap()
            .starts_with(r#"{"runs":[{"eval_set_result_id":"r""#));
        assert_eq!(code(run_trend("{}")).map(|c| c.0), Some("schema"));
    }
}
