use super::*;
use serde_json::json;

/// A criterion's keys beyond its threshold.
fn criterion(v: Value) -> JsonObject {
    v.as_object().cloned().unwrap_or_default()
}

#[test]
fn trajectory_fields_and_their_spellings() {
    let c = check(
        CriterionClass::ToolTrajectory,
        &criterion(json!({"matchType": " any-order ", "ignore_args": "yes"})),
        "tool_trajectory_avg_score",
        "$.criteria.tool_trajectory_avg_score",
    );
    assert_eq!(
        c.typed,
        Typed::ToolTrajectory(TrajectoryFields {
            match_type: MatchType::AnyOrder,
            ignore_args: true,
            ..Default::default()
        })
    );
    assert!(c.warnings.is_empty());
    let c = check(
        CriterionClass::ToolTrajectory,
        &criterion(json!({"match_type": "1"})),
        "t",
        "$.criteria.t",
    );
    assert!(matches!(&c.typed, Typed::Invalid { path, .. } if path == "$.criteria.t.match_type"));
    assert_eq!(c.warnings.len(), 1);
}

#[test]
fn misplaced_and_ignored_keys_are_warnings_with_paths() {
    let c = check(
        CriterionClass::LlmAsAJudge,
        &criterion(json!({"num_samples": 3, "match_typ": "EXACT"})),
        "final_response_match_v2",
        "$.criteria.final_response_match_v2",
    );
    assert!(matches!(c.typed, Typed::Judge(_)));
    let paths: Vec<&str> = c.warnings.iter().map(|w| w.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "$.criteria.final_response_match_v2.num_samples",
            "$.criteria.final_response_match_v2.match_typ"
        ]
    );
    assert!(c.warnings[0].message.contains("inside `judge_model_options`"));
    let c = check(
        CriterionClass::ToolTrajectory,
        &criterion(json!({"match_typ": "EXACT"})),
        "tool_trajectory_avg_score",
        "$.c",
    );
    assert!(
        c.warnings[0].message.contains("did you mean \"match_type\""),
        "{:?}",
        c.warnings
    );
}

#[test]
fn judge_options_forbid_extras_and_keep_explicit_values() {
    let c = check(
        CriterionClass::RubricsBased,
        &criterion(json!({"judgeModelOptions": {"numSamples": "2", "judge_model": "m"},
            "rubrics": [{"rubric_id": "r", "rubric_content": {"text_property": "t"}}]})),
        "rubric_based_final_response_quality_v1",
        "$.c",
    );
    let Typed::Judge(j) = c.typed else {
        panic!("{:?}", c.typed)
    };
    assert_eq!(j.options.num_samples, Some(2));
    assert_eq!(j.options.judge_model.as_deref(), Some("m"));
    assert_eq!(j.rubrics.len(), 1);
    let c = check(
        CriterionClass::LlmAsAJudge,
        &criterion(json!({"judge_model_options": {"num_sample": 2}})),
        "m",
        "$.c",
    );
    let Typed::Invalid { path, message } = c.typed else {
        panic!()
    };
    assert_eq!(path, "$.c.judge_model_options.num_sample");
    assert!(message.contains("did you mean \"num_samples\""), "{message}");
    let c = check(
        CriterionClass::RubricsBased,
        &criterion(json!({"rubrics": [{"rubric_id": 3}]})),
        "m",
        "$.c",
    );
    assert!(
        matches!(&c.typed, Typed::Invalid { path, .. } if path.starts_with("$.c.rubrics[0]")),
        "{:?}",
        c.typed
    );
}

#[test]
fn closest_names() {
    let names = ["response_match_score", "tool_trajectory_avg_score", "safety_v1"];
    assert_eq!(
        closest("respone_match_score", names.iter().copied()),
        Some("response_match_score")
    );
    assert_eq!(closest("safety_v2", names.iter().copied()), Some("safety_v1"));
    assert_eq!(closest("completely_else", names.iter().copied()), None);
}

#[test]
fn trajectory_extensions_null_means_unset() {
    for class in [CriterionClass::ToolTrajectory, CriterionClass::TrajectoryF1] {
        let c = check(
            class,
            &criterion(json!({"arg_policies": null, "alignment": null})),
            "m",
            "$.c",
        );
        assert!(c.errors.is_empty(), "{:?}", c.errors);
        let Typed::ToolTrajectory(t) = c.typed else {
            panic!("{:?}", c.typed)
        };
        assert!(t.arg_policies.is_empty());
        assert_eq!(t.alignment, Alignment::Unordered);
    }
}
