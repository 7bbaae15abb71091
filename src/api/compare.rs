//! Run comparison's calls: `compareRuns` and `runTrend` over results the core has read (JSON in,
//! JSON out; src/compare holds the books and the statistics), and the statistics as one numeric
//! call (numbers in, numbers out), which the JS skin's bookkeeping uses until the first two are
//! exported (the extras module's size budget: see the commit message).

use crate::compare::runs;
use crate::compare::{stats, trend};
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

/// `kind` 0: the mean of each group of `a`, the group sizes in `b` (numpy's sums); 1: a paired
/// comparison of baseline scores `a` with candidate scores `b`: `[baseline mean, candidate
/// mean, mean delta, ci95 low, ci95 high, p-value]` (empty for no scores); 2: Holm's adjustment
/// of the p-values `a`; 3: McNemar's exact test of `a = [b, c]`; 4: per 2x2 table of counts
/// in `a`, `[agreement, Wilson low, Wilson high, kappa]` (NaN when undefined). Anything else:
/// empty.
pub fn stats(kind: u32, a: &[f64], b: &[f64]) -> Vec<f64> {
    match kind {
        0 => {
            let mut out = Vec::with_capacity(b.len());
            let mut rest = a;
            for n in b {
                let (group, tail) = rest.split_at((*n as usize).min(rest.len()));
                out.push(stats::mean(group));
                rest = tail;
            }
            out
        }
        1 => {
            let mut d = Vec::with_capacity(a.len());
            for (x, y) in a.iter().zip(b) {
                d.push(y - x);
            }
            match stats::paired_t(&d) {
                Some(t) => vec![stats::mean(a), stats::mean(b), t.mean, t.ci95.0, t.ci95.1, t.p_value],
                None => Vec::new(),
            }
        }
        2 => stats::holm(a),
        3 => {
            let count = |i: usize| a.get(i).map_or(0, |x| x.max(0.0) as u64);
            vec![stats::mcnemar_exact(count(0), count(1))]
        }
        4 => stats::agreement_tables(a),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{compare_runs, run_trend, stats};

    #[test]
    fn each_kind_answers_its_numbers() {
        // Means of groups of 2 and 1 (the sizes as numbers).
        assert_eq!(stats(0, &[0.25, 0.75, 1.0], &[2.0, 1.0]), vec![0.5, 1.0]);
        let paired = stats(1, &[0.5, 0.5], &[0.75, 0.75]);
        assert_eq!(paired, vec![0.5, 0.75, 0.25, 0.25, 0.25, 0.0]);
        assert!(stats(1, &[], &[]).is_empty());
        assert_eq!(stats(2, &[0.01, 0.04], &[]), vec![0.02, 0.04]);
        assert_eq!(stats(3, &[5.0, 0.0], &[]), vec![0.0625]);
        let t = stats(4, &[3.0, 0.0, 0.0, 2.0], &[]);
        assert_eq!((t[0], t[3]), (1.0, 1.0));
        assert!(stats(9, &[1.0], &[]).is_empty());
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
