use super::*;
use crate::api::validate_eval_config;
use serde_json::json;

fn report(v: Value) -> (Vec<(String, String)>, Vec<(String, String)>) {
    let r = check_config(&v);
    let pairs = |l: Vec<EvalError>| l.into_iter().map(|e| (e.path, e.message)).collect();
    (pairs(r.errors), pairs(r.warnings))
}

#[test]
fn the_mistakes_users_make_are_found_once_with_paths() {
    let (errors, warnings) = report(json!({
        "criterias": {},
        "criteria": {
            "respone_match_score": 0.8,
            "final_response_match_v2": {"threshold": 0.5, "num_samples": 3},
            "tool_trajectory_avg_score": {"threshold": 1, "match_type": "INORDER"},
            "safety_v1": {"threshold": 1, "judge_model_options": {"num_samples": 0}}
        }
    }));
    assert!(errors.is_empty(), "{errors:?}");
    let paths: Vec<&str> = warnings.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "$.criterias",
            "$.criteria.respone_match_score",
            "$.criteria.final_response_match_v2.num_samples",
            "$.criteria.tool_trajectory_avg_score.match_type",
            "$.criteria.safety_v1.judge_model_options.num_samples",
        ]
    );
    assert!(warnings[0].1.contains("did you mean \"criteria\""), "{}", warnings[0].1);
    assert!(
        warnings[1].1.contains("did you mean \"response_match_score\""),
        "{}",
        warnings[1].1
    );
    assert!(warnings[2].1.contains("inside `judge_model_options`"));
    assert!(warnings[3].1.contains("NOT_EVALUATED"));
}

#[test]
fn what_adk_rejects_is_an_error_and_strict_counts_warnings() {
    let audio = json!({"criteria": {}, "user_simulator_config": {"type": "llm_audio", "audio_model": "cloud_tts",
        "include_text_with_audio": false, "max_allowed_invocations": 5}});
    assert_eq!(report(audio), (vec![], vec![]), "llm_audio loads as ADK loads it");
    let bad_audio = json!({"criteria": {}, "user_simulator_config": {"type": "llm_audio", "audio_model": 3}});
    assert_eq!(report(bad_audio).0.len(), 1);
    let v = json!({"criteria": {"response_match_score": 0.8}, "user_simulator_config": {"type": "llm_video"}});
    let (errors, _) = report(v.clone());
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].0, "$.user_simulator_config");
    assert!(load_config(&v.to_string(), &ConfigOptions::default()).is_err());
    // A run still loads it: only the cases that need a simulated user fail.
    assert!(run_config(&v).is_ok());

    let typo = json!({"criteria": {"tool_trajectory_avg_score": {"threshold": 1, "ignoreArg": true}}}).to_string();
    assert!(load_config(&typo, &ConfigOptions::default()).is_ok());
    let e = load_config(
        &typo,
        &ConfigOptions {
            strict: true,
            metrics: None,
        },
    )
    .unwrap_err();
    assert_eq!(e.path, "$.criteria.tool_trajectory_avg_score.ignoreArg");
    let out: Value = serde_json::from_str(&validate_eval_config(
        &typo,
        &ConfigOptions {
            strict: true,
            metrics: None,
        },
    ))
    .unwrap();
    assert_eq!(out["ok"], false);
    assert_eq!(out["errors"].as_array().map(Vec::len), Some(1));
    let out: Value = serde_json::from_str(&validate_eval_config(&typo, &ConfigOptions::default())).unwrap();
    assert_eq!(out["ok"], true);
    assert_eq!(out["warnings"][0]["code"], "schema");
}

/// Issue 24: under strict nothing runs, so no message says what a run would do.
#[test]
fn strict_messages_do_not_promise_not_evaluated() {
    let v = json!({"criteria": {"respone_match_score": 0.8, "rouge_score": 1,
        "tool_trajectory_avg_score": {"threshold": 1, "match_type": "INORDER"}}})
    .to_string();
    let messages = |strict: bool, key: &str| -> Vec<String> {
        let out: Value = serde_json::from_str(&validate_eval_config(
            &v,
            &ConfigOptions {
                strict,
                ..Default::default()
            },
        ))
        .unwrap();
        out[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["message"].as_str().unwrap().to_string())
            .collect()
    };
    let warned = messages(false, "warnings");
    assert_eq!(warned.len(), 3);
    assert!(
        warned.iter().all(|m| m.ends_with(criteria::NOT_EVALUATED_NOTE)),
        "{warned:?}"
    );
    let errors = messages(true, "errors");
    assert_eq!(errors.len(), 3);
    assert!(
        errors.iter().all(|m| !m.contains("will be NOT_EVALUATED")),
        "{errors:?}"
    );
    let e = load_config(
        &v,
        &ConfigOptions {
            strict: true,
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(!e.message.contains("will be NOT_EVALUATED"), "{}", e.message);
}

#[test]
fn live_model_config_keys_adk_ignores_are_warned_about() {
    let (errors, warnings) = report(json!({"criteria": {}, "live_model_config": {"timeoutSecond": 5}}));
    assert!(errors.is_empty());
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].0, "$.live_model_config.timeoutSecond");
    assert!(
        warnings[0].1.contains("did you mean \"timeout_seconds\""),
        "{}",
        warnings[0].1
    );
    let (errors, warnings) = report(json!({"criteria": {}, "liveModelConfig": {"timeoutSeconds": "x"}}));
    assert_eq!(errors[0].0, "$.live_model_config.timeoutSeconds");
    assert!(warnings.is_empty());
    let (errors, warnings) = report(json!({"criteria": {}, "liveModelConfig": {"timeoutSeconds": 60}}));
    assert!(errors.is_empty() && warnings.is_empty());
}

#[test]
fn criteria_are_typed_at_load() {
    let c = run_config(&json!({"criteria": {
        "tool_trajectory_avg_score": {"threshold": 1, "matchType": "any order"},
        "my_metric": {"threshold": 1, "anything": [1]}},
        "custom_metrics": {"my_metric": {"code_config": {"name": "m.f"}}}}))
    .unwrap();
    assert_eq!(
        c.criteria["tool_trajectory_avg_score"].typed,
        Typed::ToolTrajectory(criteria::TrajectoryFields {
            match_type: criteria::MatchType::AnyOrder,
            ..Default::default()
        })
    );
    assert_eq!(c.criteria["my_metric"].typed, Typed::Base);
    let (_, warnings) = report(json!({"criteria": {"my_metric": 1},
        "custom_metrics": {"my_metric": {"code_config": {"name": "m.f"}}}}));
    assert!(warnings.is_empty(), "{warnings:?}");
    let (errors, warnings) = report(Value::Null);
    assert!(errors.is_empty() && warnings.is_empty());
}
