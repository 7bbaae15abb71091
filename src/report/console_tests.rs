//! The console report against text captured from google-adk 2.13's `pretty_print_eval_result`
//! (testdata was produced by its models; the summary follows `cli_eval`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

// Test-only through and through (the parent declares it under #[cfg(test)] too).
#[cfg(test)]
mod adk_text {
    use super::super::*;
    use serde_json::json;

    const ADK_RESULTS: &str = include_str!("testdata/adk_detailed.json");
    const ADK_TEXT: &str = include_str!("testdata/adk_detailed.txt");
    /// Random results (odd floats, escapes, hyphenated and over-long words, both intermediate-data
    /// shapes) built with ADK's models by a seeded generator; the text is ADK's own output.
    const ADK_RANDOM_RESULTS: &str = include_str!("testdata/adk_random.json");
    const ADK_RANDOM_TEXT: &str = include_str!("testdata/adk_random.txt");
    const DETAILED: &str = r#"{"detailed": true}"#;

    fn summary_of(text: &str) -> &str {
        text.split("********************************************************************\nEval Set Id")
            .next()
            .unwrap_or("")
    }

    #[test]
    fn detailed_output_matches_adk_byte_for_byte() {
        let got = format_report(ADK_RESULTS, DETAILED).unwrap();
        assert_eq!(got, ADK_TEXT);
    }

    #[test]
    fn random_results_match_adk_byte_for_byte() {
        let got = format_report(ADK_RANDOM_RESULTS, DETAILED).unwrap();
        if got != ADK_RANDOM_TEXT {
            let line = got.lines().zip(ADK_RANDOM_TEXT.lines()).position(|(a, b)| a != b);
            panic!("first differing line: {line:?}\n--- got\n{got}");
        }
    }

    #[test]
    fn summary_only_without_detailed() {
        let got = format_report(ADK_RESULTS, "").unwrap();
        assert_eq!(got, summary_of(ADK_TEXT));
        assert_eq!(format_report(ADK_RESULTS, r#"{"detailed": false}"#).unwrap(), got);
        assert_eq!(format_report(ADK_RESULTS, "null").unwrap(), got);
    }

    #[test]
    fn eval_set_result_object_and_camel_case() {
        let results: serde_json::Value = serde_json::from_str(ADK_RESULTS).unwrap();
        let set = json!({"eval_set_result_id": "x", "eval_set_id": "hello", "eval_case_results": results});
        assert_eq!(format_report(&set.to_string(), DETAILED).unwrap(), ADK_TEXT);
        let camel = json!([{
            "evalSetId": "s", "evalId": "c", "finalEvalStatus": "PASSED",
            "overallEvalMetricResults": [{"metricName": "m", "evalStatus": 1, "score": 1, "threshold": 1}],
            "evalMetricResultPerInvocation": [{
                "actualInvocation": {"userContent": {"parts": [{"text": "q"}]},
                    "intermediateData": {"invocationEvents": [{"author": "a", "content": {"parts": [
                        {"functionCall": {"name": "f", "args": {"x": "y"}}}]}}]}},
                "evalMetricResults": [{"metricName": "m", "evalStatus": "PASSED", "score": 1}]
            }]
        }]);
        let got = format_report(&camel.to_string(), DETAILED).unwrap();
        assert!(
            got.contains("Metric: m, Status: PASSED, Score: 1.0, Threshold: 1.0\n"),
            "{got}"
        );
        assert!(
            got.contains("  actual_tool_calls:          f(\n                                x='y')\n"),
            "{got}"
        );
        assert!(got.contains("  m:                          PASSED (1.0)\n"), "{got}");
    }

    #[test]
    fn not_evaluated_counts_as_failed_and_sets_keep_first_seen_order() {
        let cases = json!([
            {"eval_set_id": "b", "eval_id": "1", "final_eval_status": "PASSED"},
            {"eval_set_id": "a", "eval_id": "2", "final_eval_status": 3},
            {"eval_set_id": "b", "eval_id": "3", "final_eval_status": "FAILED"},
            {"eval_set_id": "b", "eval_id": "4", "final_eval_status": "PASSED"}
        ]);
        let got = format_report(&cases.to_string(), "").unwrap();
        assert_eq!(
            got,
            "*********************************************************************\nEval Run Summary\n\
             b:\n  Tests passed: 2\n  Tests failed: 1\na:\n  Tests passed: 0\n  Tests failed: 1\n"
        );
    }

    #[test]
    fn empty_run_prints_only_the_header() {
        let want = "*********************************************************************\nEval Run Summary\n";
        assert_eq!(format_report("[]", DETAILED).unwrap(), want);
        assert_eq!(
            format_report(r#"{"eval_set_id": "x", "eval_case_results": []}"#, "").unwrap(),
            want
        );
    }

    #[test]
    fn a_case_without_invocations_ends_after_its_metrics() {
        let cases = json!([{"eval_set_id": "s", "eval_id": "c", "final_eval_status": "NOT_EVALUATED",
            "overall_eval_metric_results": [], "eval_metric_result_per_invocation": []}]);
        let got = format_report(&cases.to_string(), DETAILED).unwrap();
        assert!(
            got.ends_with("Eval Set Id: s\nEval Id: c\nOverall Eval Status: NOT_EVALUATED\n"),
            "{got}"
        );
    }

    #[test]
    fn long_labels_push_their_value_right_and_long_words_break() {
        let word = "x".repeat(90);
        let cases = json!([{"eval_set_id": "s", "eval_id": "c", "final_eval_status": "PASSED",
        "eval_metric_result_per_invocation": [{
            "actual_invocation": {"user_content": {"parts": [{"text": word}]}},
            "eval_metric_results": [{"metric_name": "a_very_long_custom_metric_name", "eval_status": 4, "score": 3}]
        }]}]);
        let got = format_report(&cases.to_string(), DETAILED).unwrap();
        let pad = " ".repeat(30);
        assert!(
            got.contains(&format!(
                "  prompt:                     {}\n{pad}{}\n",
                "x".repeat(80),
                "x".repeat(10)
            )),
            "{got}"
        );
        assert!(got.contains("  a_very_long_custom_metric_name: 3\n"), "{got}");
        assert!(got.contains("  actual_response:            (none)\n"), "{got}");
    }

    #[test]
    fn errors_carry_code_and_path() {
        let e = format_report("[", "").unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidJson);
        let e = format_report("42", "").unwrap_err();
        assert_eq!((e.code, e.path.as_str()), (ErrorCode::Schema, "$"));
        let e = format_report(r#"[{"final_eval_status": "PASSED"}, {"final_eval_status": "OK"}]"#, "").unwrap_err();
        assert_eq!((e.code, e.path.as_str()), (ErrorCode::Schema, "$[1].final_eval_status"));
        assert!(e.message.contains("\"OK\""), "{}", e.message);
        let bad_metric = r#"{"eval_case_results": [{"final_eval_status": 1,
            "eval_metric_result_per_invocation": [{"eval_metric_results": [{"eval_status": 9}]}]}]}"#;
        let e = format_report(bad_metric, "").unwrap_err();
        assert_eq!(
            e.path,
            "$.eval_case_results[0].eval_metric_result_per_invocation[0].eval_metric_results[0].eval_status"
        );
        let e = format_report(r#"{"eval_case_results": 3}"#, "").unwrap_err();
        assert_eq!(e.path, "$.eval_case_results");
        let e = format_report("[]", r#"{"detailed": "yes"}"#).unwrap_err();
        assert_eq!((e.code, e.path.as_str()), (ErrorCode::Schema, "$.detailed"));
        let e = format_report("[]", "{").unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidJson);
    }

    #[test]
    fn a_single_case_object_is_accepted() {
        let case = json!({"eval_set_id": "s", "eval_id": "c", "final_eval_status": "PASSED"});
        let got = format_report(&case.to_string(), "").unwrap();
        assert!(got.ends_with("s:\n  Tests passed: 1\n  Tests failed: 0\n"), "{got}");
    }

    #[test]
    fn the_wasm_form_is_a_json_string() {
        let text = format_report_json("[]", "").unwrap();
        let back: String = serde_json::from_str(&text).unwrap();
        assert_eq!(back, format_report("[]", "").unwrap());
    }

    #[test]
    fn media_parts_are_named_where_adk_drops_them() {
        let case = json!({"eval_set_id": "s", "eval_id": "c", "final_eval_status": "PASSED",
            "overall_eval_metric_results": [],
            "eval_metric_result_per_invocation": [{
                "actual_invocation": {"invocation_id": "a", "user_content": {"parts": [
                    {"text": "What colour is this square?"},
                    {"inline_data": {"mime_type": "image/png", "data": "iVBORw0KGgo="}}]},
                    "final_response": {"parts": [{"file_data": {"file_uri": "gs://b/a.wav", "mime_type": "audio/wav", "display_name": "answer"}}]}},
                "eval_metric_results": []}]});
        let got = format_report(&case.to_string(), DETAILED).unwrap();
        assert!(got.contains("  prompt:                     What colour is this square?\n                              [inline_data: image/png, 8 bytes]\n"), "{got}");
        assert!(
            got.contains("  actual_response:            [file_data: audio/wav \"answer\", gs://b/a.wav]\n"),
            "{got}"
        );
    }
}
