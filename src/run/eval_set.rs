//! The run loop (`evaluate`): for each run and each case, drive the conversation through the
//! host's agent (static turns, or the simulated user), build the actual invocations, score
//! them, stream each result, and assemble ADK's EvalSetResult with a spread summary over runs.

use super::agent::invocation_from_reply;
use super::client::JudgeClient;
use super::simulator::{next_message, Next, SimulatorConfig};
use super::{AgentError, Host};
use crate::judge::vote::exact_mean;
use crate::judge::JudgePort;
use crate::metrics::case::{evaluate_case_with, CaseRun, Ports};
use crate::metrics::custom::CustomPort;
use crate::schema::load::value_of;
use crate::schema::result::{case_result_json, Detail};
use crate::schema::{Content, EvalCase, EvalConfig, EvalSet, Invocation};
use futures_util::stream::{self, StreamExt};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// What `evaluate` was asked to do.
pub struct RunArgs {
    pub eval_set: EvalSet,
    pub config: EvalConfig,
    pub num_runs: u32,
    pub concurrency: usize,
    pub eval_ids: Option<Vec<String>>,
    pub app_name: String,
    pub detail: Detail,
    pub efficiency_metrics: bool,
}

#[derive(Default)]
struct Tally {
    done: usize,
    passed: usize,
    failed: usize,
    not_evaluated: usize,
}

fn inference_failure(set_id: &str, case: &EvalCase, run: u32, session: &Session, code: &str, message: &str) -> Value {
    json!({
        "eval_set_file": set_id, "eval_set_id": set_id, "eval_id": case.eval_id,
        "final_eval_status": "FAILED", "eval_metric_results": null,
        "overall_eval_metric_results": [], "eval_metric_result_per_invocation": [],
        "session_id": session.id, "session_details": null, "user_id": session.user_id,
        "run": run, "error": {"code": code, "message": message},
    })
}

struct Session {
    id: String,
    user_id: String,
    app_name: String,
    state: Value,
}

/// ADK's session for one conversation: app and user from session_input (else ADK's fallbacks
/// `EvaluationGenerator` / `test_user_id`), a pinned session_id or a fresh random one (ADK:
/// `adk-eval-session-<uuid4>`), so no two conversations, runs or evaluate calls share a session.
fn session_of(case: &EvalCase, host: &dyn Host) -> Session {
    let si = case.session_input.as_ref();
    let hex = |digits: u32| -> String {
        (0..digits)
            .map(|_| char::from_digit((host.random() * 16.0) as u32 % 16, 16).unwrap_or('0'))
            .collect()
    };
    Session {
        id: si.and_then(|s| s.session_id.clone()).unwrap_or_else(|| {
            format!(
                "adk-eval-session-{}-{}-{}-{}-{}",
                hex(8),
                hex(4),
                hex(4),
                hex(4),
                hex(12)
            )
        }),
        user_id: si.map(|s| s.user_id.clone()).unwrap_or_else(|| "test_user_id".into()),
        app_name: si
            .map(|s| s.app_name.clone())
            .unwrap_or_else(|| "EvaluationGenerator".to_string()),
        state: si.map(|s| Value::Object(s.state.clone())).unwrap_or_else(|| json!({})),
    }
}

/// Runs one conversation: returns the actual invocations, or (code, message) on failure.
async fn converse(
    host: &dyn Host,
    judge: Option<&JudgeClient>,
    sim: Result<&SimulatorConfig, &str>,
    set_id: &str,
    case: &EvalCase,
    run: u32,
    session: &Session,
) -> Result<Vec<Invocation>, (&'static str, String)> {
    let mut actual: Vec<Invocation> = Vec::new();
    let mut turn: usize = 0;
    loop {
        if host.aborted() {
            return Err(("cancelled", "the run was cancelled".into()));
        }
        let user_content: Content = if let Some(conv) = &case.conversation {
            match conv.get(turn) {
                Some(e) => e.user_content.clone(),
                None => break,
            }
        } else if let Some(scenario) = &case.conversation_scenario {
            let sim = sim.map_err(|m| ("invalid_config", m.to_string()))?;
            let Some(j) = judge else {
                return Err((
                    "needs_judge",
                    "this case has a conversation_scenario: the simulated user is an LLM, so pass a `judge`".into(),
                ));
            };
            match next_message(j as &dyn JudgePort, scenario, sim, &actual).await {
                Ok(Next::Say(t)) => Content::from_text("user", &t),
                Ok(Next::Stop) => break,
                Err(m) => return Err(("simulator_error", m)),
            }
        } else {
            break;
        };
        let text = user_content.text().into_owned();
        // Only the invocation added since the previous turn crosses: the host keeps the
        // conversation's history itself, so a long conversation costs linear, not quadratic, work.
        let turn_json = json!({
            "evalSetId": set_id, "evalId": case.eval_id, "run": run, "turnIndex": turn,
            "sessionId": session.id, "userId": session.user_id, "appName": session.app_name,
            "state": session.state, "userContent": value_of(&user_content), "text": text,
            "previousInvocation": actual.last().map(value_of),
        });
        let started = host.now_ms();
        let reply = host.agent(turn_json.to_string()).await;
        let elapsed = (host.now_ms() - started) / 1000.0;
        let reply = match reply {
            Ok(r) => r,
            Err(AgentError::Aborted) => return Err(("cancelled", "the run was cancelled".into())),
            Err(AgentError::Failed(m)) => return Err(("agent_error", format!("turn {}: {m}", turn + 1))),
        };
        crate::schema::budget::check_reply(&reply, "the agent's reply")
            .map_err(|m| ("agent_error", format!("turn {}: {m}", turn + 1)))?;
        let v: Value = serde_json::from_str(&reply).map_err(|e| {
            (
                "agent_error",
                format!("turn {}: the agent's reply is not JSON: {e}", turn + 1),
            )
        })?;
        let id = format!("e-{}-{}-{}", run, case.eval_id, turn);
        let inv = invocation_from_reply(&v, id, user_content, started / 1000.0, Some(elapsed.max(0.0)))
            .map_err(|m| ("agent_error", format!("turn {}: {m}", turn + 1)))?;
        actual.push(inv);
        turn += 1;
    }
    Ok(actual)
}

/// Runs the eval set. `custom` serves custom metrics; `judge` both judged metrics and the
/// simulated user.
pub async fn evaluate(
    host: Rc<dyn Host>,
    args: RunArgs,
    judge: Option<JudgeClient>,
    custom: Option<&dyn CustomPort>,
) -> Value {
    let sim = SimulatorConfig::from_config(args.config.user_simulator_config.as_ref());
    let set_id = args.eval_set.eval_set_id.clone();
    let wanted: Option<std::collections::HashSet<&str>> = args
        .eval_ids
        .as_ref()
        .map(|ids| ids.iter().map(String::as_str).collect());
    let cases: Vec<&EvalCase> = args
        .eval_set
        .eval_cases
        .iter()
        .filter(|c| wanted.as_ref().is_none_or(|ids| ids.contains(c.eval_id.as_str())))
        .collect();
    let total = cases.len() * args.num_runs as usize;
    let tally = RefCell::new(Tally::default());
    let skipped: RefCell<Vec<Value>> = RefCell::new(Vec::new());
    let emit_progress = |phase: &str, run: u32, eval_id: Option<&str>| {
        let t = tally.borrow();
        host.emit(
            json!({"type": "progress", "phase": phase, "run": run, "casesDone": t.done, "casesTotal": total,
                "passed": t.passed, "failed": t.failed, "notEvaluated": t.not_evaluated, "evalId": eval_id})
            .to_string(),
        );
    };
    emit_progress("start", 0, None);
    let tasks = (0..args.num_runs).flat_map(|run| cases.iter().map(move |c| (run, *c)));
    let host_ref: &dyn Host = &*host;
    let judge_ref = judge.as_ref();
    let sim_ref = &sim;
    let args_ref = &args;
    let set_id_ref = set_id.as_str();
    let results: Vec<Value> = stream::iter(tasks)
        .map(|(run, case)| {
            let tally = &tally;
            let skipped = &skipped;
            let emit_progress = &emit_progress;
            async move {
                let session = session_of(case, host_ref);
                if host_ref.aborted() || judge_ref.is_some_and(JudgeClient::budget_exhausted) {
                    let why = if host_ref.aborted() {
                        "cancelled"
                    } else {
                        "budget_exhausted"
                    };
                    skipped
                        .borrow_mut()
                        .push(json!({"eval_id": case.eval_id, "run": run, "reason": why}));
                    return None;
                }
                let sim = sim_ref.as_ref().map_err(String::as_str);
                let result = match converse(host_ref, judge_ref, sim, set_id_ref, case, run, &session).await {
                    Err(("cancelled", _)) => {
                        skipped
                            .borrow_mut()
                            .push(json!({"eval_id": case.eval_id, "run": run, "reason": "cancelled"}));
                        return None;
                    }
                    Err((code, m)) => inference_failure(set_id_ref, case, run, &session, code, &m),
                    Ok(actual) => score(args_ref, judge_ref, custom, case, &actual, run, &session).await,
                };
                {
                    let mut t = tally.borrow_mut();
                    t.done += 1;
                    match result.get("final_eval_status").and_then(Value::as_str) {
                        Some("PASSED") => t.passed += 1,
                        Some("FAILED") => t.failed += 1,
                        _ => t.not_evaluated += 1,
                    }
                }
                host_ref.emit(json!({"type": "case_result", "result": result}).to_string());
                emit_progress("case", run, Some(&case.eval_id));
                Some(result)
            }
        })
        .buffer_unordered(args.concurrency.max(1))
        .filter_map(|r| async move { r })
        .collect()
        .await;
    emit_progress("done", args.num_runs.saturating_sub(1), None);
    let now = host.now_ms() / 1000.0;
    let result_id = format!("{}_{}_{}", args.app_name, set_id, now);
    let mut out = json!({
        "eval_set_result_id": result_id,
        "eval_set_result_name": result_id.replace('/', "_"),
        "eval_set_id": set_id,
        "creation_timestamp": now,
        "eval_case_results": results,
    });
    if let Some(o) = out.as_object_mut() {
        if args.num_runs > 1 {
            let summary = run_summary(&results_of(o), args.num_runs);
            o.insert("run_summary".into(), summary);
        }
        if let Some(j) = &judge {
            o.insert("judge_stats".into(), j.stats_json());
            let planned = j.planned();
            if !planned.is_empty() {
                o.insert("judge_plan".into(), plan_json(planned));
            }
        }
        let skipped = skipped.into_inner();
        if !skipped.is_empty() {
            o.insert("skipped".into(), Value::Array(skipped));
        }
        if host.aborted() {
            o.insert("cancelled".into(), Value::Bool(true));
        }
    }
    out
}

fn results_of(o: &serde_json::Map<String, Value>) -> Vec<Value> {
    o.get("eval_case_results")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// `{count, estimatedTokens, calls}` for a dry run's listed calls.
pub fn plan_json(calls: Vec<Value>) -> Value {
    let tokens: u64 = calls
        .iter()
        .filter_map(|c| c.get("estimatedTokens").and_then(Value::as_u64))
        .sum();
    json!({"count": calls.len(), "estimatedTokens": tokens, "calls": calls})
}

async fn score(
    args: &RunArgs,
    judge: Option<&JudgeClient>,
    custom: Option<&dyn CustomPort>,
    case: &EvalCase,
    actual: &[Invocation],
    run: u32,
    session: &Session,
) -> Value {
    let set_id = &args.eval_set.eval_set_id;
    let ports = Ports {
        judge: judge.map(|j| j as &dyn JudgePort),
        custom,
        metrics: &[],
    };
    let case_run = CaseRun {
        efficiency_metrics: args.efficiency_metrics,
        call_index: None,
    };
    match evaluate_case_with(case, actual, &args.config, &case_run, ports).await {
        Err(e) => inference_failure(set_id, case, run, session, e.code.as_str(), &e.message),
        Ok(outcome) => {
            let text = case_result_json(set_id, case, actual, &outcome, args.detail);
            let mut v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            if let Some(o) = v.as_object_mut() {
                o.insert("session_id".into(), json!(session.id));
                o.insert("user_id".into(), json!(session.user_id));
                o.insert("run".into(), json!(run));
            }
            v
        }
    }
}

/// Per case over runs: statuses, whether they flip, and per metric the spread of case scores
/// and ADK AgentEvaluator's verdict (SPEC §4.6: exact mean of every per-invocation score of
/// every run, direction inferred from the invocations' own statuses).
pub fn run_summary(results: &[Value], num_runs: u32) -> Value {
    let mut ids: Vec<&str> = Vec::new();
    for r in results {
        if let Some(id) = r.get("eval_id").and_then(Value::as_str) {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    let cases: Vec<Value> = ids
        .iter()
        .map(|id| {
            let mut runs: Vec<&Value> = results.iter().filter(|r| r.get("eval_id").and_then(Value::as_str) == Some(id)).collect();
            runs.sort_by_key(|r| r.get("run").and_then(Value::as_u64).unwrap_or(0));
            let statuses: Vec<&str> = runs.iter().map(|r| r.get("final_eval_status").and_then(Value::as_str).unwrap_or("")).collect();
            let flipped = statuses.windows(2).any(|w| w.first() != w.get(1));
            let mut names: Vec<String> = Vec::new();
            for r in &runs {
                for m in r.get("overall_eval_metric_results").and_then(Value::as_array).into_iter().flatten() {
                    if let Some(n) = m.get("metric_name").and_then(Value::as_str) {
                        if !names.iter().any(|x| x == n) {
                            names.push(n.to_string());
                        }
                    }
                }
            }
            let metrics: Vec<Value> = names.iter().map(|n| metric_summary(n, &runs)).collect();
            let inference_failures = runs.iter().filter(|r| r.get("error").is_some()).count();
            json!({"eval_id": id, "statuses": statuses, "flipped": flipped, "inference_failures": inference_failures, "metrics": metrics})
        })
        .collect();
    json!({"num_runs": num_runs, "cases": cases})
}

fn metric_summary(name: &str, runs: &[&Value]) -> Value {
    let overall_of = |r: &Value| -> Option<Value> {
        r.get("overall_eval_metric_results")?
            .as_array()?
            .iter()
            .find(|m| m.get("metric_name").and_then(Value::as_str) == Some(name))
            .cloned()
    };
    let first = runs.iter().find_map(|r| overall_of(r));
    let threshold = first.as_ref().and_then(|m| m.get("threshold")).and_then(Value::as_f64);
    let informational = first.as_ref().is_some_and(|m| {
        m.get("eval_status").and_then(Value::as_str) == Some("INFORMATIONAL")
            || (m.get("criterion").is_none_or(Value::is_null) && m.get("threshold").is_none_or(Value::is_null))
    });
    let case_scores: Vec<Option<f64>> = runs
        .iter()
        .map(|r| overall_of(r).and_then(|m| m.get("score").and_then(Value::as_f64)))
        .collect();
    let present: Vec<f64> = case_scores.iter().flatten().copied().collect();
    let (min, max) = (
        present
            .iter()
            .copied()
            .fold(None, |a: Option<f64>, b| Some(a.map_or(b, |a| a.min(b)))),
        present
            .iter()
            .copied()
            .fold(None, |a: Option<f64>, b| Some(a.map_or(b, |a| a.max(b)))),
    );
    let mean = exact_mean(&present);
    let stddev = mean.map(|m| (present.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / present.len() as f64).sqrt());
    // Per-invocation results of every run.
    let mut inv_scores: Vec<f64> = Vec::new();
    let mut directions: Vec<bool> = Vec::new();
    for r in runs {
        for per in r
            .get("eval_metric_result_per_invocation")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            for m in per
                .get("eval_metric_results")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if m.get("metric_name").and_then(Value::as_str) != Some(name) {
                    continue;
                }
                let s = m.get("score").and_then(Value::as_f64);
                let st = m.get("eval_status").and_then(Value::as_str);
                if let Some(s) = s {
                    inv_scores.push(s);
                    if let (Some(t), Some(st @ ("PASSED" | "FAILED"))) = (threshold, st) {
                        if s != t {
                            let d = (s > t) == (st == "PASSED");
                            if !directions.contains(&d) {
                                directions.push(d);
                            }
                        }
                    }
                }
            }
        }
    }
    let invocation_mean = exact_mean(&inv_scores);
    let higher_is_better = if directions.len() == 1 {
        directions.first().copied().unwrap_or(true)
    } else {
        true
    };
    let passed = if informational {
        Value::Null
    } else {
        match (invocation_mean, threshold) {
            (Some(m), Some(t)) => json!(if higher_is_better { m >= t } else { m <= t }),
            _ => Value::Null,
        }
    };
    json!({"metric_name": name, "threshold": threshold, "informational": informational,
        "case_scores": case_scores, "min": min, "mean": mean, "max": max, "stddev": stddev,
        "invocation_mean": invocation_mean, "lower_is_better": !higher_is_better, "passed": passed})
}
