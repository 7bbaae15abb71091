//! The async half of the JSON-text surface: evaluateInvocations with a judge and custom
//! metrics, planJudgeCalls, and the agent run loop (`evaluate`), over the host's capabilities.

use super::case::detail;
use super::{config_from_value, to_json, CaseText};
use crate::error::{EvalError, Result};
use crate::judge::JudgePort;
use crate::metrics::case::{evaluate_case_with, CaseRun, Ports};
use crate::metrics::custom::CustomPort;
use crate::run::client::{JudgeClient, JudgeSettings};
use crate::run::eval_set::RunArgs;
use crate::run::Host;
use crate::schema::eval_result::JudgePlan;
use crate::schema::load::{self, LoadOptions};
use crate::schema::result::Detail;
use serde::Deserialize;
use serde_json::Value;
use std::rc::Rc;

/// Settings of the `judge` option (JSON text, "" for none), as an error value when malformed.
fn judge_settings(judge: &str) -> Result<Option<JudgeSettings>> {
    if judge.trim().is_empty() || judge.trim() == "null" {
        return Ok(None);
    }
    let v = load::parse_json(judge)?;
    JudgeSettings::from_json(&v).map(Some)
}

/// `evaluateInvocations` with judged and custom metrics: the same case pipeline, awaiting the
/// judge through `host`. `judge` is the judge option as JSON ("" for none).
pub async fn evaluate_invocations_with(
    args: CaseText<'_>,
    judge: &str,
    host: Rc<dyn Host>,
    custom: Option<&dyn CustomPort>,
) -> Result<String> {
    let p = args.parse()?;
    let cfg = p.own_config()?;
    let wire = p.echo_for(args);
    let client = judge_settings(judge)?.map(|s| JudgeClient::new(host.clone(), s));
    let ports = Ports {
        judge: client.as_ref().map(|c| c as &dyn JudgePort),
        custom,
        metrics: &[],
    };
    let run = CaseRun {
        efficiency_metrics: p.efficiency_metrics,
        call_index: None,
        explain: p.detail.explains(),
        checked: false,
        gaps: &p.gaps,
    };
    let outcome = evaluate_case_with(&p.case, &p.actual, &cfg, &run, ports).await;
    if let Some(c) = &client {
        // The case's judge counters, as an event: a host scoring many cases one by one (the
        // recorded run, an endpoint's shard) sums them into the run's `judge_stats`; in a dry
        // run with the calls listed, which it gathers into the run's `judge_plan`.
        let planned = c.planned();
        let plan = match planned.is_empty() {
            true => String::new(),
            false => format!(",\"plan\":{}", to_json(&JudgePlan::of(planned))),
        };
        host.emit(format!(
            "{{\"type\":\"judge_stats\",\"stats\":{}{plan}}}",
            to_json(&c.judge_stats())
        ));
        c.close();
    }
    Ok(p.result_json(outcome?, p.detail, wire))
}

/// `planJudgeCalls`: every judge call `evaluateInvocations` would make, without sending any.
/// hallucinations_v1 validator calls depend on segmenter answers and are counted as at most one
/// per segmenter call.
pub async fn plan_judge_calls(args: CaseText<'_>, judge: &str, host: Rc<dyn Host>) -> Result<String> {
    let p = args.parse()?;
    let cfg = p.own_config()?;
    let mut settings = match judge_settings(judge)? {
        Some(s) => s,
        None => JudgeSettings::from_json(&serde_json::json!({"provider": "gemini"}))?,
    };
    settings.dry_run = true;
    if settings.model.is_none() {
        settings.model = Some("gemini-2.5-flash".into());
    }
    let client = JudgeClient::new(host, settings);
    let run = CaseRun {
        efficiency_metrics: false,
        call_index: None,
        explain: false,
        checked: false,
        gaps: &p.gaps,
    };
    let ports = Ports {
        judge: Some(&client as &dyn JudgePort),
        custom: None,
        metrics: &[],
    };
    evaluate_case_with(&p.case, &p.actual, &cfg, &run, ports).await?;
    let planned = client.planned();
    client.close();
    let validators_at_most = planned.iter().filter(|c| c.kind == "segmenter").count();
    let mut plan = JudgePlan::of(planned);
    plan.pending_validator_calls_at_most = Some(validators_at_most);
    Ok(to_json(&plan))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RunArgsJson {
    eval_set: Value,
    #[serde(default)]
    config: Value,
    #[serde(default)]
    num_runs: Option<u32>,
    #[serde(default)]
    concurrency: Option<usize>,
    #[serde(default)]
    eval_ids: Option<Vec<String>>,
    #[serde(default)]
    app_name: Option<String>,
    #[serde(default)]
    include_invocations: Option<bool>,
    #[serde(default)]
    explain: Option<bool>,
    #[serde(default)]
    per_invocation: Option<bool>,
    #[serde(default)]
    efficiency_metrics: Option<bool>,
    #[serde(default)]
    agent_timeout_ms: Option<f64>,
}

/// `evaluate`: runs the agent (through `host`) over an eval set and scores every case.
pub async fn evaluate_eval_set(
    args: &str,
    judge: &str,
    host: Rc<dyn Host>,
    custom: Option<&dyn CustomPort>,
) -> Result<String> {
    let a: RunArgsJson = load::from_str(args)?;
    let eval_set = load::load_eval_set_value(&a.eval_set, &LoadOptions::default()).map_err(|e| EvalError {
        path: e.path.replacen('$', "$.evalSet", 1),
        ..e
    })?;
    let config = if a.config.is_null() {
        config_from_value(&Value::Null)?
    } else {
        config_from_value(&a.config).map_err(|e| EvalError {
            path: e.path.replacen('$', "$.config", 1),
            ..e
        })?
    };
    let num_runs = a.num_runs.unwrap_or(1);
    if num_runs == 0 || num_runs > 1000 {
        return Err(EvalError::schema(
            "$.numRuns",
            format!("numRuns must be between 1 and 1000, found {num_runs}"),
        ));
    }
    if let Some(t) = a.agent_timeout_ms.filter(|t| !(t.is_finite() && *t >= 0.0)) {
        return Err(EvalError::schema(
            "$.agentTimeoutMs",
            format!("agentTimeoutMs must be a non-negative number of milliseconds (0: no timeout), found {t}"),
        ));
    }
    if let Some(ids) = &a.eval_ids {
        let known: std::collections::HashSet<&str> = eval_set.eval_cases.iter().map(|c| c.eval_id.as_str()).collect();
        let unknown: Vec<&String> = ids.iter().filter(|i| !known.contains(i.as_str())).collect();
        if !unknown.is_empty() {
            return Err(EvalError::schema(
                "$.evalIds",
                format!("eval set {:?} has no case with id {:?}", eval_set.eval_set_id, unknown),
            ));
        }
    }
    let client = judge_settings(judge)?.map(|s| JudgeClient::new(host.clone(), s));
    let run_args = RunArgs {
        eval_set,
        config,
        num_runs,
        concurrency: a.concurrency.unwrap_or(4).max(1),
        eval_ids: a.eval_ids,
        app_name: a.app_name.unwrap_or_else(|| "evalcore".into()),
        detail: detail(Detail::default(), a.include_invocations, a.per_invocation, a.explain),
        efficiency_metrics: a.efficiency_metrics.unwrap_or(true),
        agent_timeout_ms: a.agent_timeout_ms.unwrap_or(0.0),
    };
    let out = crate::run::eval_set::evaluate(host, run_args, client.clone(), custom).await;
    let out = to_json(&out);
    if let Some(c) = &client {
        c.close();
    }
    Ok(out)
}
