//! ADK's result files through the core's typed model: read in every shape ADK has written
//! (2.x plain, 1.x double-encoded, camelCase, integer or string statuses), written back byte for
//! byte as google-adk 2.13 writes them, and errors with the JSON path of the offending value.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use evalcore::api;
use evalcore::report::adk_file::eval_set_result_text;
use evalcore::schema::eval_result::read_eval_set_result;
use evalcore::schema::result::EvalStatus;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap()
}

/// The first differing line of two texts, for a readable failure.
fn assert_same_text(got: &str, want: &str, what: &str) {
    if got != want {
        let line = got.lines().zip(want.lines()).position(|(a, b)| a != b);
        let n = line.unwrap_or(got.lines().count().min(want.lines().count()));
        panic!(
            "{what}: first difference at line {}\n  ours: {:?}\n  ADK:  {:?}",
            n + 1,
            got.lines().nth(n),
            want.lines().nth(n)
        );
    }
}

#[test]
fn a_file_adk_wrote_reads_and_writes_back_to_the_same_bytes() {
    let text = read("tools/adk-results/hello_world.adk-2.13.evalset_result.json");
    let r = read_eval_set_result(&text).unwrap();
    let statuses: Vec<EvalStatus> = r.eval_case_results.iter().map(|c| c.final_eval_status).collect();
    use EvalStatus::*;
    assert_eq!(statuses, [Passed, Passed, Passed, Failed]);
    assert_eq!(
        r.eval_case_results[0].overall_eval_metric_results[2].eval_status,
        Informational
    );
    assert_same_text(&eval_set_result_text(&r), &text, "ADK's own file");
    // Through evalcore's JSON (names for statuses, as JS sees it) and back: the same bytes.
    let ours = api::load_eval_set_result(&text, "").unwrap();
    let v: Value = serde_json::from_str(&ours).unwrap();
    assert_eq!(v["eval_case_results"][3]["final_eval_status"], "FAILED");
    let again: String = serde_json::from_str(&api::format_eval_set_result(&ours).unwrap()).unwrap();
    assert_same_text(&again, &text, "ADK's file through evalcore's JSON");
}

#[test]
fn adks_printed_results_survive_reading_and_writing() {
    for rel in [
        "src/report/testdata/adk_detailed.json",
        "src/report/testdata/adk_random.json",
    ] {
        let cases: Value = serde_json::from_str(&read(rel)).unwrap();
        let set = json!({"eval_set_result_id": "r", "eval_set_id": "s", "eval_case_results": cases}).to_string();
        let once = api::load_eval_set_result(&set, "").unwrap();
        let twice = api::load_eval_set_result(&once, "").unwrap();
        assert_eq!(once, twice, "{rel}: reading evalcore's JSON gives it back unchanged");
        let adk = api::format_eval_set_result(&set).unwrap();
        assert_eq!(adk, api::format_eval_set_result(&once).unwrap(), "{rel}: same ADK text");
    }
}

#[test]
fn adk_1x_double_encoded_files_with_integer_statuses() {
    let v1 = json!({
        "eval_set_result_id": "app_set_1750000000.5", "eval_set_result_name": "app_set_1750000000.5", "eval_set_id": "set",
        "eval_case_results": [{
            "eval_set_file": "set", "eval_set_id": "set", "eval_id": "case_1", "final_eval_status": 2, "eval_metric_results": null,
            "overall_eval_metric_results": [{"metric_name": "response_match_score", "threshold": 0.8, "judge_model_options": null,
                "score": 0.5, "eval_status": 2, "details": {"rubric_scores": null}}],
            "eval_metric_result_per_invocation": [], "session_id": "___eval___session___x", "session_details": null, "user_id": "u"
        }],
        "creation_timestamp": 1750000000.5
    });
    let file = serde_json::to_string(&v1.to_string()).unwrap();
    let out: Value = serde_json::from_str(&api::load_eval_set_result(&file, "").unwrap()).unwrap();
    let case = &out["eval_case_results"][0];
    assert_eq!(case["final_eval_status"], "FAILED");
    assert_eq!(case["overall_eval_metric_results"][0]["eval_status"], "FAILED");
    assert_eq!(
        case["overall_eval_metric_results"][0]["judge_model_options"],
        Value::Null
    );
    assert!(case["overall_eval_metric_results"][0]
        .as_object()
        .unwrap()
        .contains_key("judge_model_options"));
    assert_eq!(out["creation_timestamp"], 1750000000.5);
}

#[test]
fn camel_case_and_statuses_in_any_spelling() {
    let camel = json!({"evalSetResultId": "x", "evalSetId": "s", "evalCaseResults": [{"evalId": "c",
        "finalEvalStatus": "passed", "overallEvalMetricResults": [{"metricName": "m", "evalStatus": "EvalStatus.INFORMATIONAL"}],
        "evalMetricResultPerInvocation": [], "sessionId": "sid"}]});
    let out: Value = serde_json::from_str(&api::load_eval_set_result(&camel.to_string(), "").unwrap()).unwrap();
    assert_eq!(out["eval_set_result_id"], "x");
    assert_eq!(out["eval_case_results"][0]["final_eval_status"], "PASSED");
    assert_eq!(
        out["eval_case_results"][0]["overall_eval_metric_results"][0]["eval_status"],
        "INFORMATIONAL"
    );
    assert_eq!(out["eval_set_result_name"], Value::Null);
}

#[test]
fn bad_files_are_errors_with_a_path() {
    let case = json!({"eval_id": "c", "final_eval_status": 1, "session_id": "", "overall_eval_metric_results": []});
    let set =
        |cases: Value| json!({"eval_set_result_id": "x", "eval_set_id": "s", "eval_case_results": cases}).to_string();
    let mut bad_status = case.clone();
    bad_status["final_eval_status"] = json!(7);
    let mut bad_metric = case.clone();
    bad_metric["overall_eval_metric_results"] = json!([{"metric_name": "m", "eval_status": "GREAT"}]);
    let mut bad_per_invocation = case.clone();
    bad_per_invocation["eval_metric_result_per_invocation"] = json!([{"eval_metric_results": [{"metric_name": "m", "eval_status": 1}, {"metric_name": "n", "eval_status": 0}]}]);
    let cases = [
        ("{".to_string(), "invalid_json", ""),
        ("[]".to_string(), "schema", "$"),
        ("\"[]\"".to_string(), "schema", "$"),
        (
            json!({"eval_set_id": "s"}).to_string(),
            "schema",
            "$.eval_set_result_id",
        ),
        (
            set(json!([bad_status])),
            "schema",
            "$.eval_case_results[0].final_eval_status",
        ),
        (
            set(json!([case, bad_metric])),
            "schema",
            "$.eval_case_results[1].overall_eval_metric_results[0].eval_status",
        ),
        (
            set(json!([bad_per_invocation])),
            "schema",
            "$.eval_case_results[0].eval_metric_result_per_invocation[0].eval_metric_results[1].eval_status",
        ),
        (
            set(json!([{"final_eval_status": 1}])),
            "schema",
            "$.eval_case_results[0].overall_eval_metric_results",
        ),
        (
            set(json!([{"overall_eval_metric_results": []}])),
            "schema",
            "$.eval_case_results[0].final_eval_status",
        ),
    ];
    for (text, code, path) in cases {
        let e = api::load_eval_set_result(&text, "").unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.path.as_str()),
            (code, path),
            "{text}: {}",
            e.message
        );
    }
    let e = api::load_eval_set_result(&set(json!([bad_status])), "").unwrap_err();
    assert!(e.message.contains("eval status"), "{}", e.message);
    assert!(api::load_eval_set_result(&set(json!([])), r#"{"runSumary": true}"#).is_err());
}

#[test]
fn the_run_summary_is_computed_for_results_without_one() {
    let metric = |score: f64, status: &str| {
        json!({"metric_name": "response_match_score", "threshold": 0.7,
        "criterion": {"threshold": 0.7}, "score": score, "eval_status": status})
    };
    let run = |r: u32, scores: &[f64], status: &str| {
        json!({"eval_id": "c", "run": r, "final_eval_status": status,
            "overall_eval_metric_results": [metric(scores.iter().sum::<f64>() / scores.len() as f64, status)],
            "eval_metric_result_per_invocation": scores.iter().map(|s| json!({"eval_metric_results": [
                metric(*s, if *s >= 0.7 { "PASSED" } else { "FAILED" })]})).collect::<Vec<_>>()})
    };
    let set = json!({"eval_set_result_id": "x", "eval_set_id": "s",
        "eval_case_results": [run(0, &[1.0, 0.6], "PASSED"), run(1, &[0.6, 0.6], "FAILED")]})
    .to_string();
    let out: Value =
        serde_json::from_str(&api::load_eval_set_result(&set, r#"{"runSummary": true}"#).unwrap()).unwrap();
    let s = &out["run_summary"];
    assert_eq!(s["num_runs"], 2);
    let m = &s["cases"][0]["metrics"][0];
    assert_eq!(
        m["invocation_mean"], 0.7,
        "the exact mean of every per-invocation score"
    );
    assert_eq!(m["passed"], true);
    assert_eq!(m["lower_is_better"], false);
    assert_eq!(s["cases"][0]["statuses"], json!(["PASSED", "FAILED"]));
    let plain: Value = serde_json::from_str(&api::load_eval_set_result(&set, "").unwrap()).unwrap();
    assert!(plain.get("run_summary").is_none(), "only on request");
}

/// Result files in the shared corpus, if it is there.
fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            corpus_files(&p, out);
        } else if p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.contains("evalset_result"))
        {
            out.push(p);
        }
    }
}

#[test]
fn result_files_of_the_shared_corpus_read_and_write_back() {
    let corpus = Path::new(ROOT).join("../shared/corpus");
    if !corpus.is_dir() {
        println!(
            "skipped: {} is absent (no shared corpus of ADK result files)",
            corpus.display()
        );
        return;
    }
    let mut files = Vec::new();
    corpus_files(&corpus, &mut files);
    if files.is_empty() {
        println!("skipped: no *evalset_result* files under {}", corpus.display());
        return;
    }
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let r = read_eval_set_result(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        if text.trim_start().starts_with('{') {
            assert_same_text(&eval_set_result_text(&r), &text, &f.display().to_string());
        }
    }
}
