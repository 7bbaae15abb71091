//! A Rust metric of an embedding application, through the `Metric` trait: registered per
//! evaluation, looked up before the built-ins, scored with ADK's case pipeline around it.

use evalcore::metrics::case::{evaluate_case_with, CaseRun, Ports};
use evalcore::metrics::{pass, Ctx, Metric, NotEvaluated, Outcome};
use evalcore::schema::result::Cell;
use evalcore::schema::{Criterion, EvalCase, EvalConfig, Invocation};
use futures_util::future::LocalBoxFuture;
use serde_json::json;

/// 1.0 when the final response has at most `max_words` words (criterion field), else 0.0.
struct Brevity;

impl Metric for Brevity {
    fn name(&self) -> &str {
        "brevity"
    }
    fn evaluate<'a>(
        &'a self,
        ctx: &'a Ctx<'a>,
        c: &'a Criterion,
        _judge: Option<&'a dyn evalcore::judge::JudgePort>,
    ) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
        Box::pin(async move {
            let max = c
                .field("max_words", "maxWords")
                .and_then(|v| v.as_u64())
                .ok_or_else(|| NotEvaluated::new("invalid_criterion", "brevity needs max_words"))?;
            let per: Vec<Cell> = ctx
                .actual
                .iter()
                .map(|a| {
                    let words = a
                        .final_response
                        .as_ref()
                        .map_or(0, |f| f.text().split_whitespace().count());
                    let s = if words as u64 <= max { 1.0 } else { 0.0 };
                    Cell::new(Some(s), pass(Some(s), c.threshold))
                })
                .collect();
            let mean = per.iter().filter_map(|x| x.score).sum::<f64>() / per.len().max(1) as f64;
            Ok(Outcome {
                overall: Cell::new(Some(mean), pass(Some(mean), c.threshold)),
                per_invocation: per,
            })
        })
    }
}

fn run(config: serde_json::Value, metrics: &[&dyn Metric]) -> evalcore::schema::result::CaseOutcome {
    let inv = |t: &str| json!({"user_content": {"parts": [{"text": "q"}]}, "final_response": {"parts": [{"text": t}]}});
    let case: EvalCase = serde_json::from_value(
        json!({"eval_id": "c", "conversation": [inv("short answer"), inv("a much longer answer than allowed here")]}),
    )
    .unwrap();
    let actual: Vec<Invocation> = serde_json::from_value(json!([
        inv("short answer"),
        inv("a much longer answer than allowed here")
    ]))
    .unwrap();
    let cfg = EvalConfig::from_value(&config).unwrap();
    let run = CaseRun {
        efficiency_metrics: false,
        call_index: None,
        explain: true,
        checked: false,
        gaps: &[],
    };
    let ports = Ports {
        judge: None,
        custom: None,
        metrics,
    };
    futures_executor::block_on(evaluate_case_with(&case, &actual, &cfg, &run, ports)).unwrap()
}

#[test]
fn a_trait_metric_is_scored_like_a_builtin() {
    let out = run(
        json!({"criteria": {"brevity": {"threshold": 0.5, "max_words": 3}, "response_match_score": 0.5}}),
        &[&Brevity],
    );
    let b = &out.metrics[0];
    assert_eq!(b.header.name, "brevity");
    assert_eq!(b.overall.score, Some(0.5));
    assert_eq!(
        b.per_invocation.iter().map(|c| c.score).collect::<Vec<_>>(),
        vec![Some(1.0), Some(0.0)]
    );
    assert_eq!(
        out.metrics[1].overall.score,
        Some(1.0),
        "the built-in next to it is unaffected"
    );
    // Without registering it, the name is unknown: NOT_EVALUATED, not an error.
    let out = run(
        json!({"criteria": {"brevity": {"threshold": 0.5, "max_words": 3}}}),
        &[],
    );
    assert_eq!(out.metrics[0].overall.details.reason, Some("unknown_metric"));
    // A bad criterion is the metric's own NOT_EVALUATED.
    let out = run(json!({"criteria": {"brevity": 0.5}}), &[&Brevity]);
    assert_eq!(out.metrics[0].overall.details.reason, Some("invalid_criterion"));
}

/// A registered metric may replace a built-in of the same name.
struct AlwaysQuarter;
impl Metric for AlwaysQuarter {
    fn name(&self) -> &str {
        "response_match_score"
    }
    fn evaluate<'a>(
        &'a self,
        ctx: &'a Ctx<'a>,
        _c: &'a Criterion,
        _j: Option<&'a dyn evalcore::judge::JudgePort>,
    ) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
        let n = ctx.actual.len();
        Box::pin(async move {
            Ok(Outcome {
                overall: Cell::new(Some(0.25), evalcore::schema::result::EvalStatus::Failed),
                per_invocation: (0..n)
                    .map(|_| Cell::new(Some(0.25), evalcore::schema::result::EvalStatus::Failed))
                    .collect(),
            })
        })
    }
}

#[test]
fn a_trait_metric_can_replace_a_builtin() {
    let cfg = json!({"criteria": {"response_match_score": 0.99}});
    // Identical responses: the built-in ROUGE gives 1.0; the replacement gives its own 0.25.
    assert_eq!(run(cfg.clone(), &[]).metrics[0].overall.score, Some(1.0));
    let replaced = run(cfg, &[&AlwaysQuarter]);
    assert_eq!(replaced.metrics[0].overall.score, Some(0.25));
    assert_eq!(replaced.final_status, evalcore::schema::result::EvalStatus::Failed);
}
