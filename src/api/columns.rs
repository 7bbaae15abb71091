//! The wire form of a fresh case result's per-invocation part, for the JS skin: one column per
//! metric (its header once, then scores, statuses and the details that are not empty) instead of
//! one object per invocation and metric, and the echoed invocations at most once. The skin builds
//! the rows of ADK's `eval_metric_result_per_invocation` from it (`pkg/lib/wasm/columns.js`); a prepared
//! case's later runs refer to the invocations its first run carried. The rows it builds equal what
//! `EvalCaseResult`'s serialisation writes (tested in tests/js/columns.test.mjs).

use super::same_json;
use crate::schema::eval_result::{EvalCaseResult, MetricDetails};
use crate::schema::result::{CaseOutcome, Detail, EvalStatus};
use crate::schema::{EvalCase, Invocation};
use serde::Serialize;
use serde_json::Value;
use std::borrow::Cow;

/// Where the echoed invocations come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Echo<'a> {
    /// In the wire, once each (the skin has no objects of its own).
    Here,
    /// Left out: the skin holds the objects an earlier result of this prepared case carried;
    /// only their counts are written, for the skin to check.
    Caller,
    /// The skin holds the caller's objects whose JSON texts these are (the actual invocations
    /// and the eval case): left out, as with `Caller`, when the invocations the core would echo
    /// read as the same values (`api::same_json`); else in the wire, as with `Here`.
    CallerIfSame { actual: &'a str, case: &'a str },
}

#[derive(Serialize)]
struct Head<'a> {
    metric_name: &'a str,
    threshold: Option<f64>,
    criterion: &'a Option<Value>,
    custom_function_path: Option<&'a str>,
}

struct MetricColumn<'a> {
    head: Head<'a>,
    score: Vec<Option<f64>>,
    /// Indexes into `statuses`, written as a string of digits.
    status: Vec<u8>,
    /// The cells whose details are not empty, by index, in order (the skin writes a copy of
    /// `empty` in the others).
    details: Vec<(usize, MetricDetails)>,
}

struct Columns<'a> {
    n: usize,
    invocations: &'static str,
    actual: Option<&'a [Invocation]>,
    expected: Option<Option<&'a [Invocation]>>,
    expected_len: Option<Option<usize>>,
    metrics: Vec<MetricColumn<'a>>,
}

/// `v` as JSON at the end of `out` (`null` if it cannot be written).
fn json_into<T: Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) {
    let at = out.len();
    if serde_json::to_writer(&mut *out, v).is_err() {
        out.truncate(at);
        out.extend_from_slice(b"null");
    }
}

/// Numbers, comma-separated. Whole numbers (most scores: 0 and 1; token counts) are written as
/// integers, which read as the same doubles in JS.
fn numbers_into(out: &mut Vec<u8>, values: &[Option<f64>]) {
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        match *v {
            Some(x) if x == 0.0 && x.is_sign_positive() => out.push(b'0'),
            Some(1.0) => out.push(b'1'),
            // Not -0.0 (an integer has no sign of zero).
            Some(x) if x.fract() == 0.0 && x.abs() < 9.0e15 && x != 0.0 => json_into(out, &(x as i64)),
            other => json_into(out, &other),
        }
    }
}

/// When every non-empty details of a column is one breakdown alone, the same member with the
/// same fields (the efficiency metrics' token or duration details): that member and its fields.
fn breakdown_only(details: &[(usize, MetricDetails)]) -> Option<(&'static str, &'static [&'static str])> {
    let mut kind: Option<(&'static str, &'static [&'static str])> = None;
    for (_, d) in details {
        let alone = d.rubric_scores.is_none()
            && d.error.is_none()
            && d.reason.is_none()
            && d.trajectory.is_none()
            && d.sentences.is_none();
        let this: (&'static str, &'static [&'static str]) = match (&d.token_usage_details, &d.duration_details) {
            (Some(b), None) if alone => ("token_usage_details", b.names),
            (None, Some(b)) if alone => ("duration_details", b.names),
            _ => return None,
        };
        match kind {
            None => kind = Some(this),
            // The same static list (the common case) or an equal one.
            Some(k) if k.0 == this.0 && (std::ptr::eq(k.1, this.1) || k.1 == this.1) => {}
            Some(_) => return None,
        }
    }
    kind
}

/// The breakdown's values of details that [`breakdown_only`] accepted.
fn breakdown_values(d: &MetricDetails) -> &[Option<f64>] {
    match (&d.token_usage_details, &d.duration_details) {
        (Some(b), _) => &b.values,
        (_, Some(b)) => &b.values,
        _ => &[],
    }
}

/// One byte per cell, `1` where the cell has details, `0` elsewhere.
fn mark_cells(out: &mut Vec<u8>, cells: usize, details: &[(usize, MetricDetails)]) {
    let start = out.len();
    out.resize(start + cells, b'0');
    for (i, _) in details {
        if let Some(b) = out.get_mut(start + i) {
            *b = b'1';
        }
    }
}

impl Columns<'_> {
    /// Written by hand around serde: the per-invocation arrays are most of the text, and serde
    /// writes each element with several calls. Statuses are written as one digit each.
    fn to_json(&self) -> String {
        let cells: usize = self.metrics.iter().map(|m| m.score.len()).sum();
        let mut out = Vec::with_capacity(256 + 8 * cells);
        out.extend_from_slice(b"{\"columns\":1,\"n\":");
        json_into(&mut out, &self.n);
        out.extend_from_slice(b",\"invocations\":");
        json_into(&mut out, self.invocations);
        if let Some(actual) = self.actual {
            out.extend_from_slice(b",\"actual\":");
            json_into(&mut out, actual);
        }
        if let Some(expected) = self.expected {
            out.extend_from_slice(b",\"expected\":");
            json_into(&mut out, &expected);
        }
        if let Some(len) = self.expected_len {
            out.extend_from_slice(b",\"expected_len\":");
            json_into(&mut out, &len);
        }
        out.extend_from_slice(b",\"statuses\":");
        json_into(&mut out, &EvalStatus::ALL.map(EvalStatus::as_str));
        out.extend_from_slice(b",\"empty\":");
        json_into(&mut out, &MetricDetails::default());
        out.extend_from_slice(b",\"metrics\":[");
        for (j, m) in self.metrics.iter().enumerate() {
            if j > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{\"head\":");
            json_into(&mut out, &m.head);
            out.extend_from_slice(b",\"score\":[");
            numbers_into(&mut out, &m.score);
            out.extend_from_slice(b"],\"status\":\"");
            out.extend(m.status.iter().map(|s| b'0' + s));
            out.push(b'"');
            match breakdown_only(&m.details) {
                // The efficiency metrics: each cell's details are one breakdown (or empty), so
                // the column carries the breakdown's numbers flat, and which cells have one.
                Some((key, names)) => {
                    out.extend_from_slice(b",\"breakdown\":{\"key\":");
                    json_into(&mut out, key);
                    out.extend_from_slice(b",\"names\":");
                    json_into(&mut out, names);
                    out.extend_from_slice(b",\"present\":\"");
                    mark_cells(&mut out, m.status.len(), &m.details);
                    out.extend_from_slice(b"\",\"values\":[");
                    for (i, (_, d)) in m.details.iter().enumerate() {
                        if i > 0 {
                            out.push(b',');
                        }
                        numbers_into(&mut out, breakdown_values(d));
                    }
                    out.extend_from_slice(b"]}");
                }
                // Only the details that are not empty, and which cells have them; nothing when
                // none has (the skin writes a copy of `empty` in every cell then).
                None if !m.details.is_empty() => {
                    out.extend_from_slice(b",\"details_at\":\"");
                    mark_cells(&mut out, m.status.len(), &m.details);
                    out.extend_from_slice(b"\",\"details\":[");
                    for (i, (_, d)) in m.details.iter().enumerate() {
                        if i > 0 {
                            out.push(b',');
                        }
                        json_into(&mut out, d);
                    }
                    out.push(b']');
                }
                None => {}
            }
            out.push(b'}');
        }
        out.extend_from_slice(b"]}");
        String::from_utf8(out).unwrap_or_else(|_| "null".to_string())
    }
}

const KEY: &str = "\"eval_metric_result_per_invocation\":[]";

/// `EvalCaseResult::of(..)` as JSON text, its per-invocation results in the column form.
pub fn result_json(
    eval_set_id: &str,
    case: &EvalCase,
    actual: &[Invocation],
    mut outcome: CaseOutcome,
    detail: Detail,
    echo: Echo,
) -> String {
    if !detail.per_invocation {
        return to_json(&EvalCaseResult::of(eval_set_id, case, Vec::new(), outcome, detail));
    }
    let n = actual.len();
    let cells: Vec<_> = outcome
        .metrics
        .iter_mut()
        .map(|m| std::mem::take(&mut m.per_invocation))
        .collect();
    let metrics = outcome
        .metrics
        .iter()
        .zip(cells)
        .map(|(m, cells)| {
            let len = cells.len().min(n);
            let mut col = MetricColumn {
                head: Head {
                    metric_name: &m.header.name,
                    threshold: m.header.threshold,
                    criterion: &m.header.criterion,
                    custom_function_path: None,
                },
                score: Vec::with_capacity(len),
                status: Vec::with_capacity(len),
                details: Vec::new(),
            };
            for (i, cell) in cells.into_iter().take(len).enumerate() {
                col.score.push(cell.score);
                col.status.push(status_index(cell.status));
                if !cell.details.is_empty() {
                    col.details.push((i, MetricDetails::of(cell.details.into_details())));
                }
            }
            col
        })
        .collect();
    let expected = case.conversation.as_deref();
    // With the caller's texts: each list of the echo written once here, then either left out
    // (the caller's objects read the same) or spliced into the wire, where it replaces the
    // caller's list.
    let mut spliced: Vec<(&str, String)> = Vec::new();
    let echo = match (detail.invocations, echo) {
        (
            true,
            Echo::CallerIfSame {
                actual: actual_src,
                case: case_src,
            },
        ) => {
            let actual_json = to_json(&actual);
            if !same_json::same(&actual_json, actual_src) {
                spliced.push(("actual", actual_json));
            }
            if let Some(e) = expected {
                let expected_json = to_json(&e);
                let source = same_json::member(case_src, "conversation");
                if !source.is_some_and(|src| same_json::same(&expected_json, src)) {
                    spliced.push(("expected", expected_json));
                }
            }
            Echo::Caller
        }
        (_, e) => e,
    };
    let (inv_actual, inv_expected, expected_len, label) = match (detail.invocations, echo) {
        (false, _) => (None, None, None, "none"),
        (true, Echo::Here) => (Some(actual), Some(expected), None, "here"),
        (true, _) => (None, None, Some(expected.map(<[Invocation]>::len)), "caller"),
    };
    let mut columns = Columns {
        n,
        invocations: label,
        actual: inv_actual,
        expected: inv_expected,
        expected_len,
        metrics,
    }
    .to_json();
    if let (false, Some(members)) = (spliced.is_empty(), columns.strip_prefix('{')) {
        // The object opens with `{"columns":`: the echoed lists go in as its first members.
        let mut out = String::with_capacity(columns.len() + spliced.iter().map(|(_, t)| t.len() + 16).sum::<usize>());
        out.push('{');
        for (key, text) in &spliced {
            out.push('"');
            out.push_str(key);
            out.push_str("\":");
            out.push_str(text);
            out.push(',');
        }
        out.push_str(members);
        columns = out;
    }
    let mut head = EvalCaseResult::of(
        eval_set_id,
        case,
        Vec::<Cow<Invocation>>::new(),
        outcome,
        Detail {
            invocations: false,
            per_invocation: false,
            explain: false,
        },
    );
    head.eval_metric_result_per_invocation = Some(Vec::new());
    let text = to_json(&head);
    // The member is the last of its kind in the text: what follows it (session id, user id,
    // run, error) holds only strings, where a quote is always escaped, so the unescaped key
    // cannot appear there; anything before it (criteria, trajectory details) could hold it.
    match text.rfind(KEY) {
        Some(at) => {
            let value_at = at + KEY.len() - 2;
            let mut out = String::with_capacity(text.len() + columns.len());
            out.push_str(&text[..value_at]);
            out.push_str(&columns);
            out.push_str(&text[value_at + 2..]);
            out
        }
        None => text,
    }
}

fn status_index(s: EvalStatus) -> u8 {
    s.as_int() - 1
}

fn to_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sparse(details: Vec<Option<MetricDetails>>) -> Vec<(usize, MetricDetails)> {
        details
            .into_iter()
            .enumerate()
            .filter_map(|(i, d)| Some((i, d?)))
            .collect()
    }

    /// One metric's column of `score.len()` cells, written and read back as JSON.
    fn written(score: Vec<Option<f64>>, status: Vec<u8>, details: Vec<Option<MetricDetails>>) -> Value {
        let cols = Columns {
            n: score.len(),
            invocations: "none",
            actual: None,
            expected: None,
            expected_len: None,
            metrics: vec![MetricColumn {
                head: Head {
                    metric_name: "m",
                    threshold: Some(0.5),
                    criterion: &None,
                    custom_function_path: None,
                },
                score,
                status,
                details: sparse(details),
            }],
        };
        serde_json::from_str(&cols.to_json()).unwrap()
    }

    #[test]
    fn scores_and_statuses_read_back_as_written() {
        let scores = vec![
            Some(0.0),
            Some(-0.0),
            Some(1.0),
            Some(0.25),
            Some(2.0),
            Some(-3.0),
            Some(1e20),
            Some(9.0e15),
            Some(f64::NAN),
            None,
        ];
        let n = scores.len();
        let v = written(scores.clone(), (0..n).map(|i| (i % 4) as u8).collect(), vec![None; n]);
        let m = &v["metrics"][0];
        let back: Vec<Option<f64>> = m["score"].as_array().unwrap().iter().map(Value::as_f64).collect();
        for (want, got) in scores.iter().zip(&back) {
            match (want, got) {
                // serde_json writes NaN as null, as before.
                (Some(w), None) if w.is_nan() => {}
                (Some(w), Some(g)) => assert_eq!(w.to_bits(), g.to_bits(), "{w} read back as {g}"),
                (w, g) => assert_eq!(w, g),
            }
        }
        assert_eq!(m["status"], "0123012301");
        assert_eq!(v["statuses"][3], EvalStatus::ALL[3].as_str());
        // No details at all: neither list is written.
        assert!(m.get("details").is_none() && m.get("details_at").is_none());
        assert_eq!(v["n"], n);
    }

    #[test]
    fn a_column_of_breakdowns_alone_is_written_flat() {
        use crate::schema::eval_result::{DURATION_FIELDS, TOKEN_FIELDS};
        use crate::schema::result::Breakdown;
        let tokens = |v: f64| MetricDetails {
            token_usage_details: Some(Breakdown {
                names: &TOKEN_FIELDS,
                values: [Some(v), None, Some(1.0), Some(0.5), None, None, None, Some(-0.0)],
                integral: true,
            }),
            ..MetricDetails::default()
        };
        let durations = MetricDetails {
            duration_details: Some(Breakdown {
                names: &DURATION_FIELDS,
                values: [Some(1.5); 4],
                integral: false,
            }),
            ..MetricDetails::default()
        };
        let column = vec![Some(tokens(7.0)), None, Some(tokens(3.0))];
        assert_eq!(
            breakdown_only(&sparse(column.clone())),
            Some(("token_usage_details", &TOKEN_FIELDS[..]))
        );
        // Mixed members, or a breakdown beside anything else, keep the general form.
        assert_eq!(
            breakdown_only(&sparse(vec![Some(tokens(1.0)), Some(durations.clone())])),
            None
        );
        let mut with_error = tokens(1.0);
        with_error.error = Some("x".into());
        assert_eq!(breakdown_only(&sparse(vec![Some(with_error)])), None);
        assert_eq!(breakdown_only(&sparse(vec![None, None])), None);
        assert_eq!(
            breakdown_only(&sparse(vec![Some(durations)])),
            Some(("duration_details", &DURATION_FIELDS[..]))
        );

        let n = column.len();
        let v = written(vec![Some(7.0), None, Some(3.0)], vec![3; n], column);
        let b = &v["metrics"][0]["breakdown"];
        assert_eq!(b["key"], "token_usage_details");
        assert_eq!(b["present"], "101");
        let values: Vec<Option<f64>> = b["values"].as_array().unwrap().iter().map(Value::as_f64).collect();
        let one = |x: f64| vec![Some(x), None, Some(1.0), Some(0.5), None, None, None, Some(-0.0)];
        let want: Vec<Option<f64>> = one(7.0).into_iter().chain(one(3.0)).collect();
        assert_eq!(values.len(), want.len());
        for (w, g) in want.iter().zip(&values) {
            assert_eq!(w.map(f64::to_bits), g.map(f64::to_bits));
        }
        assert!(v["metrics"][0].get("details").is_none());
    }

    #[test]
    fn only_details_that_are_not_empty_are_written() {
        let explained = MetricDetails {
            trajectory: Some(serde_json::json!({"note": "x"})),
            ..MetricDetails::default()
        };
        let v = written(
            vec![Some(1.0), Some(0.0), Some(1.0), Some(0.0)],
            vec![0, 1, 0, 1],
            vec![None, Some(explained.clone()), None, Some(explained)],
        );
        let m = &v["metrics"][0];
        assert_eq!(m["details_at"], "0101");
        assert_eq!(m["details"].as_array().map(Vec::len), Some(2));
        assert_eq!(m["details"][1]["trajectory"]["note"], "x");
    }
}
