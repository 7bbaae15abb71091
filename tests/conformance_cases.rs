//! Whole-case parity with google-adk 2.13: every line of tests/data/case_oracles.jsonl (copied
//! from ../shared by scripts/refresh-test-data.sh) must give
//! ADK's statuses, scores, thresholds and efficiency details exactly (or an error where ADK raised).

use serde_json::{json, Value};

fn oracle_path() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/case_oracles.jsonl").to_string()
}

fn same_number(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => false,
    }
}

fn same_details(want: &Value, got: &Value) -> Result<(), String> {
    let Some(w) = want.as_object() else { return Ok(()) };
    for (k, wv) in w {
        let gv = got.get(k).unwrap_or(&Value::Null);
        let (Some(wo), Some(go)) = (wv.as_object(), gv.as_object()) else {
            return Err(format!("details.{k}: want {wv}, got {gv}"));
        };
        for (f, x) in wo {
            let y = go.get(f).unwrap_or(&Value::Null);
            if !same_number(x, y) {
                return Err(format!("details.{k}.{f}: want {x}, got {y}"));
            }
        }
    }
    Ok(())
}

fn compare_metrics(want: &[Value], got: &[Value], at: &str) -> Result<(), String> {
    let names = |v: &[Value]| {
        v.iter()
            .map(|m| m["metric_name"].as_str().unwrap_or("?").to_string())
            .collect::<Vec<_>>()
    };
    if names(want) != names(got) {
        return Err(format!(
            "{at}: metric order want {:?}, got {:?}",
            names(want),
            names(got)
        ));
    }
    for (w, g) in want.iter().zip(got) {
        let name = w["metric_name"].as_str().unwrap_or("?");
        for field in ["score", "threshold"] {
            if !same_number(&w[field], &g[field]) {
                return Err(format!("{at} {name}.{field}: want {}, got {}", w[field], g[field]));
            }
        }
        if w["eval_status"] != g["eval_status"] {
            return Err(format!(
                "{at} {name}.eval_status: want {}, got {}",
                w["eval_status"], g["eval_status"]
            ));
        }
        if let Some(d) = w.get("details") {
            same_details(d, &g["details"]).map_err(|e| format!("{at} {name}: {e}"))?;
        }
    }
    Ok(())
}

fn check_line(line: &Value) -> Result<(), String> {
    let args = json!({
        "evalCase": line["eval_case"],
        "actual": line["actual_invocations"],
        "config": line["config"],
        "evalSetId": "case_oracles",
    });
    let got = evalcore::api::evaluate_invocations(&args.to_string());
    // A prepared case (tool calls interned, reused across runs) must give the same result text.
    if let Ok(one_shot) = &got {
        let prepared = evalcore::api::PreparedCase::prepare(&args.to_string()).map_err(|e| e.to_string())?;
        for run in 0..2 {
            let again = prepared.evaluate("", "").map_err(|e| e.to_string())?;
            if &again != one_shot {
                return Err(format!(
                    "prepared case, run {run}, differs from the one-shot evaluation"
                ));
            }
        }
    }
    match (line.get("error"), got) {
        (Some(err), Ok(_)) => Err(format!("ADK raised {err:?} but evalcore scored the case")),
        (Some(_), Err(_)) => Ok(()),
        (None, Err(e)) => Err(format!("evalcore raised {e} but ADK scored the case")),
        (None, Ok(text)) => {
            let got: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
            let want = &line["expected_result"];
            if want["final_eval_status"] != got["final_eval_status"] {
                return Err(format!(
                    "final_eval_status: want {}, got {}",
                    want["final_eval_status"], got["final_eval_status"]
                ));
            }
            let empty = vec![];
            compare_metrics(
                want["overall"].as_array().unwrap_or(&empty),
                got["overall_eval_metric_results"].as_array().unwrap_or(&empty),
                "overall",
            )?;
            let wp = want["per_invocation"].as_array().unwrap_or(&empty);
            let gp = got["eval_metric_result_per_invocation"].as_array().unwrap_or(&empty);
            if wp.len() != gp.len() {
                return Err(format!("per_invocation count: want {}, got {}", wp.len(), gp.len()));
            }
            for (i, (w, g)) in wp.iter().zip(gp).enumerate() {
                compare_metrics(
                    w.as_array().unwrap_or(&empty),
                    g["eval_metric_results"].as_array().unwrap_or(&empty),
                    &format!("invocation {i}"),
                )?;
            }
            Ok(())
        }
    }
}

#[test]
fn case_oracles_match_adk() {
    let text = std::fs::read_to_string(oracle_path()).expect("tests/data/case_oracles.jsonl is readable");
    let mut total = 0;
    let mut failures = Vec::new();
    for l in text.lines().filter(|l| !l.trim().is_empty()) {
        total += 1;
        let line: Value = serde_json::from_str(l).expect("oracle line is JSON");
        if let Err(e) = check_line(&line) {
            failures.push(format!(
                "{} {:?}: {e}",
                line["id"].as_str().unwrap_or("?"),
                line["tags"]
            ));
        }
    }
    println!("case oracles: {}/{} equal", total - failures.len(), total);
    assert!(
        failures.is_empty(),
        "{} of {total} oracle cases differ; first ones:\n{}",
        failures.len(),
        failures.iter().take(15).cloned().collect::<Vec<_>>().join("\n")
    );
}
