//! Judged-metric parity with google-adk 2.13: every line of tests/data/judge_oracles.jsonl,
//! answered by an in-process judge that routes each request by the rule of judge_oracles.md,
//! must give ADK's statuses and scores exactly, with exactly ADK's judge calls. (The same lines
//! run over real HTTP through the built package in tests/js/judge-oracles.test.mjs.)

use evalcore::api::evaluate_invocations_with;
use evalcore::run::{AgentError, FetchError, Host, HttpCall, HttpReply};
use futures_util::future::LocalBoxFuture;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

struct OracleJudge {
    row: Value,
    served: RefCell<HashMap<(String, String, String), usize>>,
    problems: RefCell<Vec<String>>,
}

fn markers(row: &Value) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, by_marker) in row["script"].as_object().unwrap() {
        for m in by_marker.as_object().unwrap().keys() {
            if !out.contains(m) {
                out.push(m.clone());
            }
        }
    }
    out
}

fn rubric_ids(row: &Value, metric: &str) -> Vec<String> {
    let c = &row["config"]["criteria"][metric];
    c.get("rubrics")
        .and_then(Value::as_array)
        .map(|rs| {
            rs.iter()
                .filter_map(|r| r.get("rubric_id").or_else(|| r.get("rubricId")).and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

impl OracleJudge {
    fn route(&self, text: &str) -> Result<(String, String, String), String> {
        let found: Vec<String> = markers(&self.row)
            .into_iter()
            .filter(|m| text.contains(m.as_str()))
            .collect();
        let [marker] = found.as_slice() else {
            return Err(format!("request names {} markers", found.len()));
        };
        let script = self.row["script"].as_object().unwrap();
        let rubric_metrics: Vec<&String> = script
            .keys()
            .filter(|m| m.starts_with("rubric_"))
            .filter(|m| rubric_ids(&self.row, m).iter().any(|id| text.contains(id.as_str())))
            .collect();
        let (metric, kind) = match rubric_metrics.as_slice() {
            [m] => ((*m).clone(), "judge".to_string()),
            [] => {
                if script.contains_key("final_response_match_v2") {
                    ("final_response_match_v2".into(), "judge".into())
                } else if script.contains_key("hallucinations_v1") {
                    let q = marker.replace("[inv-", "[q-");
                    let kind = if text.contains(&q) { "validator" } else { "segmenter" };
                    ("hallucinations_v1".into(), kind.into())
                } else {
                    return Err("request matches no metric".into());
                }
            }
            _ => return Err("request names two rubric metrics' ids".into()),
        };
        Ok((metric, marker.clone(), kind))
    }
}

impl Host for OracleJudge {
    fn fetch(&self, call: HttpCall) -> LocalBoxFuture<'_, Result<HttpReply, FetchError>> {
        Box::pin(async move {
            let body: Value = serde_json::from_str(&call.body).unwrap();
            let text = body["messages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["content"].as_str().unwrap_or("").to_string())
                .collect::<Vec<_>>()
                .join("\n");
            let key = match self.route(&text) {
                Ok(k) => k,
                Err(e) => {
                    self.problems.borrow_mut().push(e.clone());
                    return Ok(HttpReply {
                        status: 400,
                        headers: vec![],
                        body: json!({"error": {"message": e}}).to_string(),
                    });
                }
            };
            let answers = self.row["script"][&key.0][&key.1][&key.2]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let mut served = self.served.borrow_mut();
            let n = served.entry(key.clone()).or_insert(0);
            let Some(answer) = answers.get(*n).cloned() else {
                self.problems
                    .borrow_mut()
                    .push(format!("{key:?} asked more often than ADK asked"));
                return Ok(HttpReply {
                    status: 400,
                    headers: vec![],
                    body: json!({"error": {"message": "script_exhausted"}}).to_string(),
                });
            };
            *n += 1;
            if let Some(msg) = answer.get("error") {
                return Ok(HttpReply {
                    status: 400,
                    headers: vec![],
                    body: json!({"error": {"message": msg, "code": "scripted_failure"}}).to_string(),
                });
            }
            let content = answer.as_str().unwrap().to_string();
            Ok(HttpReply {
                status: 200,
                headers: vec![],
                body: json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]}).to_string(),
            })
        })
    }
    fn sleep(&self, _ms: f64) -> LocalBoxFuture<'_, ()> {
        Box::pin(async {})
    }
    fn now_ms(&self) -> f64 {
        0.0
    }
    fn random(&self) -> f64 {
        0.5
    }
    fn agent(&self, _turn: String) -> LocalBoxFuture<'_, Result<String, AgentError>> {
        Box::pin(async { Err(AgentError::failed("no agent")) })
    }
    fn emit(&self, _e: String) {}
    fn aborted(&self) -> bool {
        false
    }
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn check(row: &Value) -> Result<(), String> {
    let judge = Rc::new(OracleJudge {
        row: row.clone(),
        served: RefCell::new(HashMap::new()),
        problems: RefCell::new(Vec::new()),
    });
    let args =
        json!({"evalCase": row["eval_case"], "actual": row["actual_invocations"], "config": row["config"]}).to_string();
    let judge_opt = json!({"provider": "openai", "model": "m", "baseUrl": "http://judge"}).to_string();
    let out = futures_executor::block_on(evaluate_invocations_with(
        evalcore::api::CaseText::Joined(&args),
        &judge_opt,
        judge.clone(),
        None,
    ))
    .map_err(|e| format!("error {}: {}", e.code.as_str(), e.message))?;
    let got: Value = serde_json::from_str(&out).unwrap();
    let want = &row["expected_result"];
    if got["final_eval_status"] != want["final_eval_status"] {
        return Err(format!(
            "final status: want {}, got {}",
            want["final_eval_status"], got["final_eval_status"]
        ));
    }
    for (k, w) in want["overall"].as_array().unwrap().iter().enumerate() {
        let g = &got["overall_eval_metric_results"][k];
        if g["metric_name"] != w["metric_name"]
            || g["eval_status"] != w["eval_status"]
            || !same(&g["score"], &w["score"])
        {
            return Err(format!(
                "overall {}: want {} {}, got {} {} ({})",
                w["metric_name"], w["eval_status"], w["score"], g["eval_status"], g["score"], g["details"]
            ));
        }
    }
    for (i, inv) in want["per_invocation"].as_array().unwrap().iter().enumerate() {
        for (k, w) in inv.as_array().unwrap().iter().enumerate() {
            let g = &got["eval_metric_result_per_invocation"][i]["eval_metric_results"][k];
            if g["eval_status"] != w["eval_status"] || !same(&g["score"], &w["score"]) {
                return Err(format!(
                    "invocation {i} {}: want {} {}, got {} {} ({})",
                    w["metric_name"], w["eval_status"], w["score"], g["eval_status"], g["score"], g["details"]
                ));
            }
            if g["metric_name"] == "hallucinations_v1" {
                sentences_explain_the_score(g).map_err(|e| format!("invocation {i} hallucinations_v1: {e}"))?;
            }
        }
    }
    if let Some(p) = judge.problems.borrow().first() {
        return Err(format!("judge accounting: {p}"));
    }
    // Every scripted answer must have been asked for, except in keys holding a failure.
    for (metric, by_marker) in row["script"].as_object().unwrap() {
        for (marker, kinds) in by_marker.as_object().unwrap() {
            for (kind, answers) in kinds.as_object().unwrap() {
                let answers = answers.as_array().unwrap();
                let used = judge
                    .served
                    .borrow()
                    .get(&(metric.clone(), marker.clone(), kind.clone()))
                    .copied()
                    .unwrap_or(0);
                let has_failure = answers.iter().any(|a| a.get("error").is_some());
                if used < answers.len() && !(has_failure && kind == "judge") {
                    return Err(format!(
                        "{metric} {marker} {kind}: {} answers scripted, {used} asked",
                        answers.len()
                    ));
                }
            }
        }
    }
    Ok(())
}

/// hallucinations_v1's `details.sentences` (evalcore's addition) must be the labels the score
/// was computed from: per response the mean of its labels (supported and not_applicable 1, the
/// rest 0), then the mean over responses.
fn sentences_explain_the_score(g: &Value) -> Result<(), String> {
    let Some(score) = g["score"].as_f64() else {
        return Ok(());
    };
    let sentences = g["details"]["sentences"]
        .as_array()
        .ok_or("a score but no details.sentences")?;
    let mut by_response: std::collections::BTreeMap<u64, Vec<f64>> = std::collections::BTreeMap::new();
    for s in sentences {
        let one = match s["label"].as_str() {
            Some("supported" | "not_applicable") => 1.0,
            Some("unsupported" | "contradictory" | "disputed") => 0.0,
            other => return Err(format!("label {other:?}")),
        };
        if s["sentence"].as_str().is_none() || s["rationale"].as_str().is_none() {
            return Err(format!("sentence or rationale missing in {s}"));
        }
        by_response
            .entry(s["response"].as_u64().ok_or("no response index")?)
            .or_default()
            .push(one);
    }
    let means: Vec<f64> = by_response
        .values()
        .map(|v| v.iter().sum::<f64>() / v.len() as f64)
        .collect();
    let recomputed = means.iter().sum::<f64>() / means.len() as f64;
    if (recomputed - score).abs() > 1e-9 {
        return Err(format!("sentences give {recomputed}, the score is {score}"));
    }
    Ok(())
}

#[test]
fn judge_oracles_equal_adk() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/judge_oracles.jsonl");
    let text = std::fs::read_to_string(path).expect("judge_oracles.jsonl");
    let mut failures = Vec::new();
    let mut total = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        total += 1;
        let row: Value = serde_json::from_str(line).unwrap();
        if let Err(e) = check(&row) {
            failures.push(format!("{} [{}]: {e}", row["id"], row["tags"]));
        }
    }
    println!(
        "judge oracles: {}/{} equal to google-adk 2.13",
        total - failures.len(),
        total
    );
    assert!(
        failures.is_empty(),
        "{} of {} lines differ:\n{}",
        failures.len(),
        total,
        failures.join("\n")
    );
}
