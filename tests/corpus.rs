//! Every real ADK file under ../shared/corpus/adk-real loads with the matching loader:
//! eval sets and test files with `load_eval_set`, criteria files with the config loader,
//! session files as a legacy initial session.

//!
//! The corpus is written by other projects and is not copied into the repo: without ../shared
//! beside the checkout these tests print that they were skipped and pass.

use evalcore::schema::load::{self, LoadOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/adk-real");

/// The corpus root, or None (after saying so) when ../shared is not beside the checkout.
fn corpus(test: &str) -> Option<&'static Path> {
    let root = Path::new(CORPUS);
    if root.is_dir() {
        Some(root)
    } else {
        // Straight to stderr: the test harness captures println!, and a skip must be seen.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test}: no ADK corpus at {} (../shared is not beside this checkout)",
            root.display()
        );
        None
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

#[test]
fn every_corpus_file_loads() {
    let Some(root) = corpus("every_corpus_file_loads") else {
        return;
    };
    let mut all = Vec::new();
    files(root, &mut all);
    all.sort();
    assert!(
        all.len() >= 40,
        "expected the shared corpus at {}, found {} files",
        root.display(),
        all.len()
    );
    let (mut sets, mut configs, mut sessions, mut cases, mut turns) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    for p in &all {
        let text = std::fs::read_to_string(p).unwrap_or_default();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let rel = p.strip_prefix(root).unwrap_or(p).display().to_string();
        let result = if name == "test_config.json" || name == "eval_config.json" {
            configs += 1;
            // ADK loads every real config: no errors, and (as written by ADK's own samples) no
            // warnings either, even in strict mode.
            let strict = evalcore::api::ConfigOptions {
                strict: true,
                metrics: None,
            };
            let report: serde_json::Value =
                serde_json::from_str(&evalcore::api::validate_eval_config(&text, &strict)).unwrap_or_default();
            if report["ok"] != true {
                failures.push(format!("{rel}: validateEvalConfig (strict) found {}", report["errors"]));
            }
            evalcore::api::parse_config(&text).map(|_| ())
        } else if name.ends_with(".session.json") {
            sessions += 1;
            load::parse_json(&text)
                .and_then(|v| evalcore::schema::legacy::session_input_from_value(&v, "$"))
                .map(|_| ())
        } else {
            sets += 1;
            let opts = LoadOptions {
                id: Some(rel.clone()),
                ..LoadOptions::default()
            };
            load::load_eval_set(&text, &opts).map(|s| {
                cases += s.eval_cases.len();
                turns += s
                    .eval_cases
                    .iter()
                    .map(|c| c.conversation.as_ref().map_or(0, Vec::len))
                    .sum::<usize>();
            })
        };
        if let Err(e) = result {
            failures.push(format!("{rel}: {e}"));
        }
    }
    println!("corpus: {sets} eval files ({cases} cases, {turns} turns), {configs} configs, {sessions} session files");
    assert!(
        failures.is_empty(),
        "corpus files that did not load:\n{}",
        failures.join("\n")
    );
}

#[test]
fn legacy_test_file_migrates_with_initial_session() {
    let Some(root) = corpus("legacy_test_file_migrates_with_initial_session") else {
        return;
    };
    let dir = root.join("adk-samples/python/agents/customer-service/eval");
    let dir = dir.display();
    let text = std::fs::read_to_string(format!("{dir}/eval_data/simple.test.json")).unwrap_or_default();
    let session = std::fs::read_to_string(format!("{dir}/sessions/123.session.json")).unwrap_or_default();
    let session = load::parse_json(&session).expect("session file is JSON");
    let opts = LoadOptions {
        id: Some("simple".into()),
        session_input: Some(session),
        ..LoadOptions::default()
    };
    let set = load::load_eval_set(&text, &opts).expect("legacy file loads");
    let case = &set.eval_cases[0];
    assert_eq!(case.eval_id, "simple");
    assert!(case.session_input.is_some(), "initial session carried over");
    // Deterministic: loading twice gives the same ids.
    assert_eq!(load::load_eval_set(&text, &opts).expect("loads"), set);
}
