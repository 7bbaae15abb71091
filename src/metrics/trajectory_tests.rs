use super::*;
use crate::metrics::test_call as call;
use crate::metrics::Metric as _;
use crate::schema::arg_policies::{parse, ArgPolicies};
use crate::schema::result::EvalStatus;
use crate::schema::IntermediateData;
use serde_json::json;

/// Each letter a call to that tool with no args.
fn letters(s: &[&str]) -> Vec<FunctionCall> {
    s.iter().map(|n| call(n, json!({}))).collect()
}

fn run_with(actual: &[FunctionCall], expected: &[FunctionCall], c: &TrajectoryFields) -> bool {
    let k = Calls {
        expected: expected.iter().collect(),
        actual: actual.iter().collect(),
    };
    let eq = agree(&k, c);
    let hit = matches(k.expected.len(), k.actual.len(), c.match_type, &eq);
    hit
}

fn run(actual: &[&str], expected: &[&str], m: MatchType) -> bool {
    let c = TrajectoryFields {
        match_type: m,
        ..Default::default()
    };
    run_with(&letters(actual), &letters(expected), &c)
}

/// SPEC-adk.md §3.2's table for ADK's three, and evalcore's SUBSET (every expected call made)
/// and SUPERSET (no call outside the expected ones).
#[test]
fn spec_table() {
    let rows: &[(&[&str], &[&str], [bool; 5])] = &[
        (&[], &[], [true, true, true, true, true]),
        (&["a"], &[], [false, true, true, true, false]),
        (&[], &["a"], [false, false, false, false, true]),
        (&["a", "b"], &["b", "a"], [false, false, true, true, true]),
        (&["a", "c", "b"], &["a", "b"], [false, true, true, true, false]),
        (&["a"], &["a", "a"], [false, false, false, false, true]),
        (&["a", "a"], &["a"], [false, true, true, true, true]),
        (&["a", "b", "a", "c"], &["a", "c"], [false, true, true, true, false]),
        (&["b"], &["a", "b", "c"], [false, false, false, false, true]),
        (&["b", "d"], &["a", "b", "c"], [false, false, false, false, false]),
    ];
    for (a, e, want) in rows {
        for (m, w) in MatchType::ALL.into_iter().zip(want) {
            assert_eq!(run(a, e, m), *w, "{a:?} vs {e:?} {m:?}");
        }
    }
}

#[test]
fn args_list_order_matters_without_a_policy() {
    let a = [call("t", json!({"l": [1, 2]}))];
    let e = [call("t", json!({"l": [2, 1]}))];
    for m in MatchType::ALL {
        let c = TrajectoryFields {
            match_type: m,
            ..Default::default()
        };
        assert!(!run_with(&a, &e, &c), "{m:?}");
    }
}

/// With a tolerance two expected calls can agree with the same actual call: ANY_ORDER keeps
/// ADK's greedy pairing, SUBSET finds the pairing that exists.
#[test]
fn subset_finds_the_pairing_greedy_misses() {
    let n = |x: f64| call("move", json!({"x": x}));
    let policies = parse(&json!({"move": {"x": {"policy": "numeric", "abs_tol": 1}}})).unwrap();
    let expected = [n(1.0), n(2.5)];
    let actual = [n(1.8), n(0.5)];
    let with = |m| TrajectoryFields {
        match_type: m,
        arg_policies: policies.clone(),
        ..Default::default()
    };
    assert!(!run_with(&actual, &expected, &with(MatchType::AnyOrder)));
    assert!(run_with(&actual, &expected, &with(MatchType::Subset)));
}

/// The complaints of the ADK issues, each passing under the policy meant for it.
#[test]
fn adk_issue_examples() {
    // #1591: a free-text plan summary worded differently; ROUGE-1 at 0.5 accepts it.
    let plan = |summary: &str| {
        call(
            "dynamic_send_agent_plan",
            json!({"selected_agent_type": "llm_agent", "plan_summary": summary,
                   "plan_steps": [{"step_type": "text_generation", "order": 1}]}),
        )
    };
    let expected = [plan("Generate response to user greeting")];
    let actual = [plan("Generate a response to the user's greeting")];
    let mut c = TrajectoryFields::default();
    assert!(!run_with(&actual, &expected, &c));
    c.arg_policies =
        parse(&json!({"dynamic_send_agent_plan": {"plan_summary": {"policy": "rouge1", "threshold": 0.5}}})).unwrap();
    assert!(run_with(&actual, &expected, &c));
    // #1591 (comments): a number within 0.1 of the expected one.
    let set = |v: f64| call("set_temperature", json!({"value": v}));
    c.arg_policies = parse(&json!({"set_temperature": {"value": {"policy": "numeric", "abs_tol": 0.1}}})).unwrap();
    assert!(run_with(&[set(0.95)], &[set(1.0)], &c));
    assert!(!run_with(&[set(1.2)], &[set(1.0)], &c));
    // #4794: a timestamp and a generated query.
    let log = |ts: &str, q: &str| call("search_logs", json!({"since": ts, "query": q}));
    c.arg_policies = parse(
        &json!({"search_logs": {"since": {"policy": "regex", "pattern": "\\d{4}-\\d{2}-\\d{2}T.*"},
                                   "query": "present"}}),
    )
    .unwrap();
    assert!(run_with(
        &[log("2026-11-24T10:00:00Z", "errors from checkout")],
        &[log("2025-01-01T00:00:00Z", "checkout errors")],
        &c
    ));
    assert!(!run_with(
        &[log("yesterday", "errors")],
        &[log("2025-01-01T00:00:00Z", "errors")],
        &c
    ));
    // PR #6726's pair: rooms differ; the trajectory fails until rooms is ignored.
    let search = |rooms: i64| call("search", json!({"city": "Rome", "rooms": rooms}));
    c.arg_policies = ArgPolicies::default();
    assert!(!run_with(&[search(2)], &[search(1)], &c));
    c.arg_policies = parse(&json!({"search": {"rooms": "ignore"}})).unwrap();
    assert!(run_with(&[search(2)], &[search(1)], &c));
}

fn invocation(calls: Vec<FunctionCall>) -> Invocation {
    Invocation {
        intermediate_data: Some(IntermediateData::Legacy {
            tool_uses: calls,
            tool_responses: Vec::new(),
            intermediate_responses: Vec::new(),
        }),
        ..Default::default()
    }
}

fn criterion(v: Value) -> Criterion {
    let mut c = Criterion::from_threshold(1.0);
    c.extra = v.as_object().cloned().unwrap_or_default();
    c
}

fn ctx<'a>(actual: &'a [Invocation], expected: &'a [Invocation]) -> Ctx<'a> {
    Ctx {
        actual,
        expected: Some(expected),
        scenario: None,
        call_index: None,
        case_rubrics: None,
        explain: true,
        case_extra: None,
    }
}

/// Case-level results only: nothing is explained (the explanation would be thrown away).
#[test]
fn nothing_is_explained_when_only_case_level_results_are_written() {
    let expected = vec![invocation(vec![call("book", json!({"date": "2026-01-01"}))])];
    let actual = vec![invocation(vec![call("book", json!({"date": "2026-01-02"}))])];
    let mut quiet = ctx(&actual, &expected);
    quiet.explain = false;
    for metric in [
        "tool_trajectory_avg_score",
        "trajectory_precision",
        "trajectory_recall",
        "tool_trajectory_f1",
    ] {
        let out = crate::metrics::builtin(metric).unwrap();
        let got = futures_util::FutureExt::now_or_never(out.evaluate(&quiet, &criterion(json!({})), None))
            .unwrap()
            .unwrap();
        assert_eq!(got.per_invocation[0].score, Some(0.0), "{metric}");
        assert!(got.per_invocation[0].details.trajectory.is_none(), "{metric}");
        let loud =
            futures_util::FutureExt::now_or_never(out.evaluate(&ctx(&actual, &expected), &criterion(json!({})), None))
                .unwrap()
                .unwrap();
        assert!(loud.per_invocation[0].details.trajectory.is_some(), "{metric}");
    }
}

/// The failing invocation explains itself: which expected call paired, which argument failed
/// under which policy; the passing one carries nothing (ADK's details stay as they were).
#[test]
fn mismatch_is_explained() {
    let expected = [
        invocation(vec![
            call("search", json!({"city": "Rome"})),
            call("book", json!({"date": "2026-01-01", "id": "r1"})),
        ]),
        invocation(vec![call("ok", json!({}))]),
    ];
    let actual = [
        invocation(vec![
            call("search", json!({"city": "rome "})),
            call("log", json!({})),
            call("book", json!({"date": "2026-01-02", "id": "x9"})),
        ]),
        invocation(vec![call("ok", json!({}))]),
    ];
    let c = criterion(json!({"match_type": "IN_ORDER", "arg_policies": {
        "search": {"city": "text"}, "book": {"id": "present"}}}));
    let out = avg_score(&ctx(&actual, &expected), &c).unwrap();
    assert_eq!(out.overall.score, Some(0.5));
    assert_eq!(out.per_invocation[1].details.trajectory, None);
    let why = out.per_invocation[0].details.trajectory.clone().unwrap();
    assert_eq!(why["match_type"], "IN_ORDER");
    assert_eq!(why["expected"][0]["actual"], 0);
    assert_eq!(why["expected"][1]["actual"], Value::Null);
    assert_eq!(why["expected"][1]["nearest"], 2);
    assert_eq!(
        why["expected"][1]["args"],
        json!([{"arg": "date", "policy": "exact", "why": "differs", "expected": "2026-01-01", "actual": "2026-01-02"}])
    );
    assert_eq!(
        why["unpaired_actual"],
        json!([{"index": 1, "tool": "log"}, {"index": 2, "tool": "book"}])
    );
    // EXACT says why the lengths matter.
    let c = criterion(json!({"arg_policies": {"search": {"city": "text"}}}));
    let out = avg_score(&ctx(&actual, &expected), &c).unwrap();
    let why = out.per_invocation[0].details.trajectory.clone().unwrap();
    assert!(why["note"].as_str().unwrap().contains("2 expected, 3 made"), "{why}");
    assert_eq!(
        why["expected"][1]["why"],
        "the call at this position is missing or to another tool"
    );
}

/// SUPERSET names the calls outside the expected ones; a retry of an expected call is not one.
#[test]
fn superset_names_the_calls_outside() {
    let expected = [invocation(letters(&["search", "book"]))];
    let actual = [invocation(letters(&["search", "search", "log"]))];
    let c = criterion(json!({"match_type": "SUPERSET"}));
    let out = avg_score(&ctx(&actual, &expected), &c).unwrap();
    assert_eq!(out.overall.score, Some(0.0));
    let why = out.per_invocation[0].details.trajectory.clone().unwrap();
    assert_eq!(why["outside_expected"], json!([2]));
    let lines: Vec<&str> = why["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        lines.contains(&"actual call 3 log agrees with no expected call"),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("call 2 search agrees with no")),
        "{lines:?}"
    );
}

/// An ADK config (no policy) scores the same on the interned ids and on the calls; a policy on
/// a prepared case is applied (ids would compare args exactly).
#[test]
fn prepared_cases_agree_with_direct_calls() {
    use crate::metrics::call_index::CallIndex;
    let expected = [invocation(vec![call("t", json!({"a": 1, "ts": 5}))])];
    let actual = [invocation(vec![call("t", json!({"a": 1.0, "ts": 6}))])];
    let index = CallIndex::build(&actual, Some(&expected));
    let mut with_index = ctx(&actual, &expected);
    with_index.call_index = Some(&index);
    for (v, want) in [
        (json!({}), 0.0),
        (json!({"ignore_args": true}), 1.0),
        (json!({"arg_policies": {"t": {"ts": "ignore"}}}), 1.0),
    ] {
        let c = criterion(v.clone());
        let a = avg_score(&with_index, &c).unwrap().overall.score;
        let b = avg_score(&ctx(&actual, &expected), &c).unwrap().overall.score;
        assert_eq!((a, b), (Some(want), Some(want)), "{v}");
    }
}

#[test]
fn invalid_policy_is_not_evaluated() {
    let inv = [invocation(vec![])];
    let c = criterion(json!({"arg_policies": {"t": "fuzzy"}}));
    let e = avg_score(&ctx(&inv, &inv), &c).err().unwrap();
    assert_eq!(e.reason, "invalid_criterion");
    assert!(e.message.contains("unknown argument policy"), "{}", e.message);
}

#[test]
fn precision_recall_and_f1_honour_policies() {
    let expected = [invocation(vec![
        call("a", json!({"q": "Rome"})),
        call("b", json!({})),
        call("c", json!({})),
        call("d", json!({})),
    ])];
    let actual = [invocation(vec![
        call("a", json!({"q": "ROME"})),
        call("b", json!({})),
        call("c", json!({})),
    ])];
    let x = ctx(&actual, &expected);
    let plain = criterion(json!({}));
    let text = criterion(json!({"arg_policies": {"a": {"q": "text"}}}));
    assert_eq!(recall(&x, &plain).unwrap().overall.score, Some(0.5));
    assert_eq!(recall(&x, &text).unwrap().overall.score, Some(0.75));
    assert_eq!(precision(&x, &text).unwrap().overall.score, Some(1.0));
    let f1 = crate::metrics::trajectory_f1::score(&x, &text).unwrap();
    assert_eq!(f1.overall.score, Some(2.0 * 1.0 * 0.75 / 1.75));
    assert_eq!(f1.overall.status, EvalStatus::Failed);
    let why = f1.per_invocation[0].details.trajectory.clone().unwrap();
    assert_eq!(why["alignment"], "unordered");
    assert_eq!(why["matched"], 3);
    assert_eq!(why["expected"][3]["why"], "no unpaired call to this tool");
    // #1591's example: A -> D -> C -> A against A -> B -> C -> A keeps 3 of 4 in order.
    let e = [invocation(letters(&["A", "B", "C", "A"]))];
    let a = [invocation(letters(&["A", "D", "C", "A"]))];
    let ordered = criterion(json!({"alignment": "ordered"}));
    let s = crate::metrics::trajectory_f1::score(&ctx(&a, &e), &ordered).unwrap();
    assert_eq!(s.overall.score, Some(0.75));
    let swapped = [invocation(letters(&["C", "A", "B", "A"]))];
    let s = crate::metrics::trajectory_f1::score(&ctx(&swapped, &e), &ordered).unwrap();
    assert_eq!(s.overall.score, Some(0.75));
    let s = crate::metrics::trajectory_f1::score(&ctx(&swapped, &e), &plain).unwrap();
    assert_eq!(s.overall.score, Some(1.0));
}

#[test]
fn match_type_spellings() {
    use crate::schema::criteria::parse_match_type;
    for s in ["in_order", " In Order ", "in-order", "IN_ORDER"] {
        assert_eq!(parse_match_type(&json!(s)), Some(MatchType::InOrder));
    }
    assert_eq!(parse_match_type(&json!(2)), Some(MatchType::AnyOrder));
    assert_eq!(parse_match_type(&json!("subset")), Some(MatchType::Subset));
    assert_eq!(parse_match_type(&json!("Super-Set")), None);
    assert_eq!(parse_match_type(&json!(" superset ")), Some(MatchType::Superset));
    for bad in [
        json!("1"),
        json!("anyorder"),
        json!(3),
        json!(4),
        json!(-1),
        json!(""),
        json!(["EXACT"]),
    ] {
        assert!(parse_match_type(&bad).is_none(), "{bad}");
    }
}
