//! The vocabularies of `src/error/codes.rs` are the one source of every error code evalcore
//! raises and of every reason a metric is NOT_EVALUATED. This test writes their generated views
//! when EVALCORE_WRITE_TYPES is set (scripts/build.sh does) and otherwise fails when a committed
//! file differs: `pkg/error_codes.d.ts` (the `ErrorCode` union that `EvalError['code']` is, and
//! `NotEvaluatedReason`), `pkg/lib/error_codes.js` (the frozen lists the JS skin checks codes
//! against; tests/js/error-codes.test.mjs scans the JS for codes outside them) and
//! `docs/errors.md` (the reference tables).

use evalcore::error::{CaseErrorCode, NotEvaluatedReason, HTTP_STATUS_PREFIX};
use evalcore::{ErrorCode, HostErrorCode};
use std::collections::BTreeSet;
use std::fmt::Write;

mod generated;

const HEADER: &str = "Generated from src/error/codes.rs by tests/error_codes.rs (scripts/build.sh writes it;\n\
                      `cargo test` fails when it is stale). Do not edit: change the vocabulary instead.";

/// The codes the core raises with their doc lines: its `EvalError`s', then its failed cases'.
fn core_entries() -> Vec<(&'static str, &'static str)> {
    let errors = ErrorCode::ALL.iter().map(|c| (c.as_str(), c.doc()));
    errors
        .chain(CaseErrorCode::ALL.iter().map(|c| (c.as_str(), c.doc())))
        .collect()
}

/// Every code with its doc line: the core's, then the host's.
fn entries() -> Vec<(&'static str, &'static str)> {
    let host = HostErrorCode::ALL.iter().map(|c| (c.as_str(), c.doc()));
    core_entries().into_iter().chain(host).collect()
}

fn comment(doc: &str) -> String {
    doc.trim().replace("*/", "*\\/")
}

fn dts() -> String {
    let mut out = String::new();
    for line in HEADER.lines() {
        let _ = writeln!(out, "// {line}");
    }
    out.push_str(
        "\n/** Every error code evalcore raises (an EvalError's `code`, a failed case's `error.code`, an\n \
         * endpoint's `{error: {code}}`); compare against the ones you handle. */\nexport type ErrorCode =\n",
    );
    for (code, doc) in entries() {
        let _ = writeln!(out, "  /** {} */\n  | \"{code}\"", comment(doc));
    }
    let _ = writeln!(
        out,
        "  /** An endpoint answered this HTTP status without an `{{error: {{code}}}}` body. */\n  | `{HTTP_STATUS_PREFIX}${{number}}`;"
    );
    out.push_str("\n/** Why a metric's result is NOT_EVALUATED: its `details.reason` (`details.error` says it in words). */\nexport type NotEvaluatedReason =\n");
    let n = NotEvaluatedReason::ALL.len();
    for (i, r) in NotEvaluatedReason::ALL.iter().enumerate() {
        let end = if i + 1 == n { ";" } else { "" };
        let _ = writeln!(out, "  /** {} */\n  | \"{}\"{end}", comment(r.doc()), r.as_str());
    }
    out
}

fn js() -> String {
    let list = |codes: &mut dyn Iterator<Item = &'static str>| codes.map(|c| format!("  '{c}',\n")).collect::<String>();
    let mut out = String::new();
    for line in HEADER.lines() {
        let _ = writeln!(out, "// {line}");
    }
    let _ = write!(
        out,
        "\n/** The codes the core itself raises (a core function's EvalError, a failed case's `error.code`). */\n\
         export const CORE_ERROR_CODES = Object.freeze([\n{}]);\n\n\
         /** Every error code evalcore raises: the core's, then those the JS skin raises for the host. */\n\
         export const ERROR_CODES = Object.freeze([\n  ...CORE_ERROR_CODES,\n{}]);\n\n\
         /** A family of codes: this prefix and the HTTP status an endpoint answered without an error body. */\n\
         export const HTTP_STATUS_PREFIX = '{HTTP_STATUS_PREFIX}';\n\n\
         /** Every reason a metric's result is NOT_EVALUATED (its `details.reason`). */\n\
         export const NOT_EVALUATED_REASONS = Object.freeze([\n{}]);\n\n\
         const CODES = new Set(ERROR_CODES);\n\n\
         /** Whether `code` is one of the vocabulary (`http_` and a status included). */\n\
         export function isErrorCode(code) {{\n  \
         return CODES.has(code) || (typeof code === 'string' && /^{HTTP_STATUS_PREFIX}[1-5][0-9][0-9]$/.test(code));\n}}\n",
        list(&mut core_entries().into_iter().map(|(c, _)| c)),
        list(&mut HostErrorCode::ALL.iter().map(|c| c.as_str())),
        list(&mut NotEvaluatedReason::ALL.iter().map(|r| r.as_str())),
    );
    out
}

fn generated(rel: &str, text: &str) {
    generated::write_or_check(rel, text, "error_codes");
}

/// A Markdown table cell: `|` escaped.
fn cell(doc: &str) -> String {
    doc.trim().replace('|', "\\|")
}

fn docs() -> String {
    let mut out = String::from(
        "# Error codes and NOT_EVALUATED reasons\n\n\
         <!-- Generated from src/error/codes.rs by tests/error_codes.rs (scripts/build.sh writes it;\n\
         `cargo test` fails when it is stale). Do not edit: change the vocabulary instead. -->\n\n\
         Every error evalcore raises carries one of these codes: an `EvalError`'s `code`, a failed\n\
         case's `error.code`, an endpoint's `{\"error\": {\"code\", \"path\", \"message\"}}` and a run's\n\
         error. The list is closed: TypeScript sees it as the union `ErrorCode`, and the package's\n\
         tests fail on a code outside it. \"core\" codes are raised by the Rust core (and may be by\n\
         the JS too), \"host\" codes only by the JS (the package and its viewer), for what happens on the host\n\
         (files, agents, remotes, the servers, the viewer's pages). How errors are thrown and read: [api.md](api.md#errors).\n\n\
         | code | raised by | when |\n|---|---|---|\n",
    );
    for (code, doc) in core_entries() {
        let _ = writeln!(out, "| `{code}` | core | {} |", cell(doc));
    }
    for c in HostErrorCode::ALL {
        let _ = writeln!(out, "| `{}` | host | {} |", c.as_str(), cell(c.doc()));
    }
    let _ = writeln!(
        out,
        "| `{HTTP_STATUS_PREFIX}<status>` | host | an endpoint answered that HTTP status (`{HTTP_STATUS_PREFIX}502`) without an error body |"
    );
    out.push_str(
        "\nA metric that cannot be computed never throws: it is `NOT_EVALUATED` with `details.error`\n\
         (why, in words) and `details.reason`, one of these (TypeScript: `NotEvaluatedReason`).\n\n\
         | `details.reason` | when |\n|---|---|\n",
    );
    for r in NotEvaluatedReason::ALL {
        let _ = writeln!(out, "| `{}` | {} |", r.as_str(), cell(r.doc()));
    }
    out
}

#[test]
fn the_docs_tables_are_generated_from_the_vocabulary() {
    generated("docs/errors.md", &docs());
}

#[test]
fn the_ts_union_of_error_codes_is_generated_from_the_vocabulary() {
    generated("pkg/error_codes.d.ts", &dts());
}

#[test]
fn the_js_list_of_error_codes_is_generated_from_the_vocabulary() {
    generated("pkg/lib/error_codes.js", &js());
}

/// The codes evalcore raised before the vocabulary existed (7 in the core's enum, 6 as strings
/// on failed cases, 50 minted by the package's JS of which 44 only there, 3 by the viewer's, and
/// the `http_` family): nothing a user sees moved.
const BEFORE: &str = "\
    agent_error agent_reply agent_timeout answer_too_large bad_idempotency_key bad_request \
    body_timeout callback_error cancelled client_closed config count_mismatch dead_letter \
    duplicate_id error freed host_not_allowed idempotency_conflict input_missing internal \
    invalid_config invalid_gzip invalid_json invalid_path invalid_protobuf invalid_yaml io lost \
    media_uri_refused method_not_allowed missing_result needs_judge no_session not_a_file \
    not_a_run not_configured not_found not_initialised not_same_origin origin_not_allowed \
    remote_failed remote_unavailable run_not_done runs_not_configured schema simulator_error \
    strict subrequests too_large too_many_cases too_many_judge_calls too_many_requests \
    too_many_runs traces_full trap unauthorized unit_failed unknown_agent unsupported \
    unsupported_media_type";

#[test]
fn the_vocabulary_is_the_codes_evalcore_raised_before_it_and_each_once() {
    let codes: Vec<&str> = entries().into_iter().map(|(c, _)| c).collect();
    let set: BTreeSet<&str> = codes.iter().copied().collect();
    assert_eq!(set.len(), codes.len(), "a code is declared twice: {codes:?}");
    let before: BTreeSet<&str> = BEFORE.split_whitespace().collect();
    assert_eq!(set, before);
    for (code, doc) in entries() {
        let snake = !code.is_empty() && code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
        assert!(snake, "{code:?} is not snake_case");
        assert!(!code.starts_with(HTTP_STATUS_PREFIX), "{code} is in the http_ family");
        assert!(
            !doc.trim().is_empty() && !doc.contains('\n'),
            "{code} needs a one-line doc: {doc:?}"
        );
    }
}

/// The core's library sources (its unit tests and `*_tests.rs` files left out): `(path, text)`.
fn core_sources() -> Vec<(String, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            let name = p.to_string_lossy().into_owned();
            if p.is_dir() {
                walk(&p, out);
            } else if name.ends_with(".rs") && !name.ends_with("_tests.rs") {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                let lib = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("").to_string();
                out.push((name, lib));
            }
        }
    }
    let mut out = Vec::new();
    walk(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src")),
        &mut out,
    );
    out
}

/// The snake_case string literal at the start of `s` (after whitespace), if there is one.
fn literal_at(s: &str) -> Option<&str> {
    let rest = s.trim_start().strip_prefix('"')?;
    let end = rest.find('"')?;
    let lit = &rest[..end];
    let snake = !lit.is_empty() && lit.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
    snake.then_some(lit)
}

/// Every reason literal the core gives where a NOT_EVALUATED reason is raised: the first
/// argument of the constructors (`Cell::not_evaluated`, `NotEvaluated::new`, `JudgeFailure::new`
/// and the judge client's `failure` / `failure_of`, the efficiency metrics' `note`), a
/// `reason = Some(..)`, a `reason:` field and the `(reason, message)` pair of a judged metric's `overall_cell`.
fn raised_reasons() -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (file, text) in core_sources() {
        let mut add = |lit: Option<&str>| {
            if let Some(l) = lit {
                found.push((l.to_string(), file.clone()));
            }
        };
        for form in [
            "not_evaluated(",
            "NotEvaluated::new(",
            "JudgeFailure::new(",
            "failure(",
            "note(",
            "reason = Some(",
            "reason: ",
        ] {
            for (i, _) in text.match_indices(form) {
                add(literal_at(&text[i + form.len()..]));
            }
        }
        for (i, _) in text.match_indices("failure_of(") {
            let args = &text[i + "failure_of(".len()..];
            add(args.split_once(',').and_then(|(_, rest)| literal_at(rest)));
        }
        // `overall_cell(score, threshold, cells, (reason, message))`: the pair is its last argument.
        for (i, _) in text.match_indices("overall_cell(") {
            let call = text[i..].split(';').next().unwrap_or("");
            add(call.rfind("(\"").and_then(|j| literal_at(&call[j + 1..])));
        }
    }
    found
}

#[test]
fn every_reason_the_core_raises_is_in_the_vocabulary_and_every_listed_one_is_raised() {
    let listed: BTreeSet<&str> = NotEvaluatedReason::ALL.iter().map(|r| r.as_str()).collect();
    assert_eq!(listed.len(), NotEvaluatedReason::ALL.len(), "a reason is listed twice");
    let raised = raised_reasons();
    assert!(raised.len() > 40, "the scan found only {} reason sites", raised.len());
    let outside: Vec<String> = raised
        .iter()
        .filter(|(r, _)| !listed.contains(r.as_str()))
        .map(|(r, f)| format!("{r} in {f}"))
        .collect();
    assert!(outside.is_empty(), "reasons raised outside the vocabulary: {outside:?}");
    let seen: BTreeSet<&str> = raised.iter().map(|(r, _)| r.as_str()).collect();
    let dead: Vec<&&str> = listed.iter().filter(|r| !seen.contains(**r)).collect();
    assert!(
        dead.is_empty(),
        "listed but never raised (or raised in a form the scan misses): {dead:?}"
    );
}

#[test]
fn the_run_loop_gives_a_failed_case_only_codes_of_the_vocabulary() {
    // The case codes are constants from `CaseErrorCode` / `ErrorCode`: a string literal as the
    // code of a `Failure` would be a code minted outside the table.
    let mut sites = 0;
    let mut literal = Vec::new();
    for (file, text) in core_sources() {
        for form in ["Failure::new(", "Failure::at(turn,"] {
            for (i, _) in text.match_indices(form) {
                sites += 1;
                if text[i + form.len()..].trim_start().starts_with('"') {
                    literal.push(format!("{file}: {}", text[i..].chars().take(60).collect::<String>()));
                }
            }
        }
    }
    assert!(sites >= 10, "only {sites} Failure sites found");
    assert!(literal.is_empty(), "{literal:?}");
}
