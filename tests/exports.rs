//! The JS bindings of every wasm export, generated from the one table of them
//! (`src/wasm/table.rs`). With EVALCORE_WRITE_TYPES set (scripts/build.sh sets it) this writes
//! `pkg/lib/wasm/exports.js` (an object per module) and its `.d.ts`; otherwise it fails when a committed file
//! differs. The generated files are the only JS that calls a wasm export: the rest of the
//! package imports these functions by name, so a reader (or a tool) follows a call from the
//! API into the core's row without meeting a string.

use evalcore::export_table::{Class, Param, Row, CLASSES, TABLE};
use std::collections::BTreeSet;
use std::fmt::Write;

mod generated;

const HEADER: &str = "// Generated from src/wasm/table.rs by tests/exports.rs (scripts/build.sh writes it;\n\
                      // `cargo test` fails when it is stale). Do not edit: change the table's row instead.\n";

fn rows_of(module: &str) -> impl Iterator<Item = &'static Row> + '_ {
    TABLE.iter().filter(move |r| r.module == module)
}

/// An async export: its caller passes the instance (`callAsync` / `callWithHost` hold it).
fn is_async(row: &Row) -> bool {
    row.rust_return.contains("Promise")
}

/// The TypeScript type of a parameter from its Rust type.
fn ts_param(p: &Param) -> &'static str {
    match p.rust.replace(' ', "").as_str() {
        "&str" | "String" => "string",
        "Option<String>" => "string | undefined",
        "&[u8]" => "Uint8Array",
        "&[u32]" => "Uint32Array",
        "&[f64]" => "Float64Array",
        "f64" | "u32" => "number",
        "bool" => "boolean",
        "host::JsHost" => "CoreHost",
        other => panic!("tests/exports.rs: no TypeScript type for the Rust parameter type {other}"),
    }
}

/// A Rust parameter name as JS writes it: `eval_case` -> `evalCase`.
fn camel(name: &str) -> String {
    let mut out = String::new();
    let mut up = false;
    for c in name.chars() {
        if c == '_' && !out.is_empty() {
            up = true;
        } else if up {
            out.push(c.to_ascii_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn names(params: &[Param]) -> String {
    params.iter().map(|p| camel(p.name)).collect::<Vec<_>>().join(", ")
}

fn typed(params: &[Param]) -> String {
    params
        .iter()
        .map(|p| format!("{}: {}", camel(p.name), ts_param(p)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn js_doc(out: &mut String, doc: &[&str], indent: &str) {
    let lines: Vec<&str> = doc.iter().map(|l| l.trim()).filter(|l| !l.is_empty()).collect();
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(out, "{indent}/**");
    for l in lines {
        let _ = writeln!(out, "{indent} * {}", l.replace("*/", "*\\/"));
    }
    let _ = writeln!(out, "{indent} */");
}

/// The call of one row on a glue `g`.
fn call_on(row: &Row) -> String {
    match (row.class, row.method) {
        (Some(_), true) => format!("handle.{}({})", row.js, names(row.params)),
        (Some(class), false) => format!("g.{class}.{}({})", row.js, names(row.params)),
        (None, _) => format!("g.{}({})", row.js, names(row.params)),
    }
}

/// The name of a class member's binding: `preparedCaseFromJson`.
fn member_name(class: &str, js: &str) -> String {
    let mut c = class.chars();
    let first = c.next().map(|f| f.to_ascii_lowercase()).unwrap_or_default();
    let mut head: String = std::iter::once(first).chain(c).collect();
    let mut j = js.chars();
    if let Some(f) = j.next() {
        head.push(f.to_ascii_uppercase());
        head.extend(j);
    }
    head
}

/// One module's object: a function per export that calls the live instance, and `on`.
fn js_module(out: &mut String, module: &str) {
    let caller = if module == "main" { "callSync" } else { "callExtras" };
    let what = if module == "main" {
        "The main module's exports (the scoring path)"
    } else {
        "The extras module's exports (loaded on first use)"
    };
    let _ = writeln!(
        out,
        "\n/** {what}: each calls the live instance. */\nexport const {module} = Object.freeze({{"
    );
    for row in rows_of(module).filter(|r| r.class.is_none() && !is_async(r)) {
        js_doc(out, row.doc, "  ");
        let _ = writeln!(
            out,
            "  {}: ({}) => {caller}((g) => {}),",
            row.js,
            names(row.params),
            call_on(row)
        );
    }
    out.push_str("  /** Each export called on the glue `g` of a given instance. */\n  on: Object.freeze({\n");
    for row in rows_of(module) {
        let (name, params) = match (row.class, row.method) {
            (Some(class), true) => (member_name(class, row.js), format!("handle, {}", names(row.params))),
            (Some(class), false) => (member_name(class, row.js), format!("g, {}", names(row.params))),
            (None, _) => (row.js.to_string(), with_glue(row.params)),
        };
        let _ = writeln!(
            out,
            "    {name}: ({}) => {},",
            params.trim_end_matches(", "),
            call_on(row)
        );
    }
    out.push_str("  }),\n});\n");
}

fn js() -> String {
    let mut out = String::from(HEADER);
    out.push_str(
        "//\n// One object per wasm module, one function per export: the only JS that calls an export. A\n\
         // module's `on` calls one on a given instance's glue (what the instance's own helpers and the\n\
         // async calls hold).\n\
         import { callExtras, callSync } from './instance.js';\n",
    );
    js_module(&mut out, "main");
    js_module(&mut out, "extras");
    out
}

fn with_glue(params: &[Param]) -> String {
    if params.is_empty() {
        "g".to_string()
    } else {
        format!("g, {}", names(params))
    }
}

const DTS_PRELUDE: &str = "\
/** JSON text of a `T` (what the export answers, before `JSON.parse`). */
export type Json<T> = string & { readonly __json?: T };
/** `{ok: T}` or `{error: {code, path, message}}`. */
export type Envelope<T> = { ok: T } | { error: { code: string; path: string; message: string } };
/** The main module's answer for a shape only the extras module reads. */
export type ToExtras = { extras: true };
/** A validation answer: `{ok, errors, warnings?}` (never an envelope). */
export type ValidationReport = { ok: boolean; errors: Array<{ code: string; path: string; message: string }>; warnings?: Array<{ code: string; path: string; message: string }> };
/** The object the run loop's async exports call back (pkg/lib/wasm/host.js makes it). */
export type CoreHost = object;
/** An instance's glue: the module's raw exports, as wasm-bindgen made them. */
export type Glue = Record<string, any>;
";

fn dts_module(out: &mut String, module: &str) {
    let _ = writeln!(out, "\nexport declare const {module}: {{");
    for row in rows_of(module).filter(|r| r.class.is_none() && !is_async(r)) {
        js_doc(out, row.doc, "  ");
        let _ = writeln!(out, "  {}({}): {};", row.js, typed(row.params), ts_return(row));
    }
    out.push_str("  /** Each export called on the glue `g` of a given instance. */\n  readonly on: {\n");
    for row in rows_of(module) {
        let (name, params) = match (row.class, row.method) {
            (Some(class), true) => (
                member_name(class, row.js),
                format!("handle: {class}Handle, {}", typed(row.params)),
            ),
            (Some(class), false) => (member_name(class, row.js), format!("g: Glue, {}", typed(row.params))),
            (None, _) if row.params.is_empty() => (row.js.to_string(), "g: Glue".to_string()),
            (None, _) => (row.js.to_string(), format!("g: Glue, {}", typed(row.params))),
        };
        let _ = writeln!(
            out,
            "    {name}({}): {};",
            params.trim_end_matches(", "),
            ts_return(row)
        );
    }
    out.push_str("  };\n};\n");
}

fn dts() -> String {
    let mut out = String::from(HEADER);
    out.push_str(
        "import type { EvalSet, EvalSetResult, EvalCaseResult, Invocation, JudgePlan, LoadedTraces } from '../../model.js';\n\
         import type { EvalStatus } from '../../criteria.js';\n\
         import type { EvalConfig, Limits, LoadedDataset, EvaluationDataset, MetricInfo, tracesToEvalSet } from '../../index.js';\n\
         import type { Comparison, RunTrend } from '../../reports.js';\n\n",
    );
    out.push_str(DTS_PRELUDE);
    for class in CLASSES {
        out.push('\n');
        js_doc(&mut out, class.doc, "");
        let _ = writeln!(out, "export type {}Handle = {{ free(): void }};", class.name);
    }
    dts_module(&mut out, "main");
    dts_module(&mut out, "extras");
    out
}

fn ts_return(row: &Row) -> String {
    match row.ts_return {
        // A class's constructor answers its handle.
        t if CLASSES.iter().any(|c| c.name == t) => format!("{t}Handle"),
        t => t.to_string(),
    }
}

fn write_or_check(rel: &str, text: &str) {
    generated::write_or_check(rel, text, "exports");
}

#[test]
fn the_generated_bindings_are_current() {
    write_or_check("pkg/lib/wasm/exports.js", &js());
    write_or_check("pkg/lib/wasm/exports.d.ts", &dts());
}

#[test]
fn every_row_names_an_export_once_per_module() {
    for module in ["main", "extras"] {
        let mut seen = BTreeSet::new();
        for row in rows_of(module) {
            let key = (row.class, row.js);
            assert!(seen.insert(key), "{module} exports {key:?} twice");
            assert!(!row.ts_return.is_empty(), "{} has no answer type", row.js);
            for p in row.params {
                ts_param(p);
            }
        }
    }
    assert!(TABLE.iter().all(|r| r.module == "main" || r.module == "extras"));
    let classes: Vec<&Class> = CLASSES.iter().collect();
    assert!(classes.iter().all(|c| TABLE.iter().any(|r| r.class == Some(c.name))));
}

#[test]
fn the_two_modules_share_no_export_name_but_the_limits() {
    // A name in both modules that did different things would be a sentinel in disguise: the
    // extras module's readers are named for the shapes they read. Only `setLimitsJson` is in
    // both, the same function (the package passes the main module's limits on).
    let main: BTreeSet<&str> = rows_of("main").map(|r| r.js).collect();
    let both: Vec<&str> = rows_of("extras").map(|r| r.js).filter(|j| main.contains(j)).collect();
    assert_eq!(both, ["setLimitsJson"]);
}

#[test]
fn no_js_calls_a_wasm_export_by_name_outside_the_generated_bindings() {
    // Every export's JS name, as the glue's property: `g.name(`, `g[...]`, `.PreparedCase.`.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("pkg");
    let mut hits = Vec::new();
    let mut stack = vec![root.join("lib"), root.join("index.js"), root.join("web.js")];
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            if p.ends_with("lib/wasm") {
                continue;
            }
            for e in std::fs::read_dir(&p).expect("read pkg/lib").flatten() {
                stack.push(e.path());
            }
            continue;
        }
        if p.extension().and_then(|e| e.to_str()) != Some("js") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap_or_default();
        for row in TABLE {
            for needle in [
                format!("g.{}(", row.js),
                format!("g['{}']", row.js),
                format!("g[\"{}\"]", row.js),
            ] {
                if text.contains(&needle) {
                    hits.push(format!("{}: {needle}", p.display()));
                }
            }
        }
        if ["g[name]", ".PreparedCase.", "core('", "callExtras('"]
            .iter()
            .any(|n| text.contains(n))
        {
            hits.push(format!("{}: a raw export by computed name", p.display()));
        }
    }
    assert!(
        hits.is_empty(),
        "JS outside pkg/lib/wasm/ calls wasm exports itself: {hits:#?}"
    );
}
