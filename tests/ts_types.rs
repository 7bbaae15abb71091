//! The TypeScript types of configs come from the Rust core: metric names from the metric
//! registry, criterion classes and their fields from `schema/criteria.rs`, match types and
//! statuses from their enums. This test writes `pkg/criteria.d.ts` when EVALCORE_WRITE_TYPES is
//! set (scripts/build.sh does) and otherwise fails when the committed file differs, so the
//! types cannot drift from the core.

use evalcore::metrics::{criterion_class, known_metrics};
use evalcore::schema::criteria::{
    camel, Alignment, ArgPolicy, CriterionClass, FieldKind, JudgeModelOptions, MatchType,
};
use evalcore::schema::result::EvalStatus;
use std::fmt::Write;

fn ts_type(kind: FieldKind) -> &'static str {
    match kind {
        FieldKind::Bool => "boolean",
        FieldKind::Int => "number",
        FieldKind::Text => "string",
        FieldKind::Object => "JsonObject | null",
        FieldKind::MatchType => "MatchTypeInput",
        FieldKind::JudgeModelOptions => "JudgeModelOptions",
        FieldKind::Rubrics => "Rubric[]",
        FieldKind::ArgPolicies => "ArgPolicies",
        FieldKind::Alignment => "Alignment",
    }
}

fn union(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(" | ")
}

/// The fields of an interface, each in snake_case and in its camelCase alias.
fn fields(out: &mut String, list: &[(&str, FieldKind)]) {
    for (name, kind) in list {
        let _ = writeln!(out, "  {name}?: {};", ts_type(*kind));
        let c = camel(name);
        if c != *name {
            let _ = writeln!(out, "  /** camelCase alias of `{name}` (pydantic accepts both). */");
            let _ = writeln!(out, "  {c}?: {};", ts_type(*kind));
        }
    }
}

fn generate() -> String {
    let mut out = String::new();
    out.push_str(
        "// Generated from the Rust core by tests/ts_types.rs (scripts/build.sh writes it; `cargo test`\n\
         // fails when it is stale). Do not edit: change the registry or schema/criteria.rs instead.\n\
         import type { JsonObject, Rubric } from './index.js';\n\n",
    );
    let names: Vec<&str> = known_metrics().collect();
    let _ = writeln!(
        out,
        "/** Every metric evalcore knows: ADK 2.13's registry, the trajectory extras, the always-on efficiency metrics. */\nexport type MetricName =\n  | {};\n",
        names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join("\n  | ")
    );
    let _ = writeln!(
        out,
        "export type EvalStatus = {};\n",
        union(EvalStatus::ALL.iter().map(|s| format!("\"{}\"", s.as_str())))
    );
    let _ = writeln!(
        out,
        "export type MatchType = {};\n",
        union(MatchType::ALL.iter().map(|m| format!("\"{}\"", m.as_str())))
    );
    let _ = writeln!(
        out,
        "/** `match_type` as ADK reads it: a name (upper or lower case), or its number. */\nexport type MatchTypeInput = MatchType | Lowercase<MatchType> | {};\n",
        union((0..MatchType::ADK.len()).map(|i| i.to_string()))
    );
    // Policies that need parameters are written as objects only.
    let with_params = ["regex", "rouge1"];
    let _ = writeln!(
        out,
        "/** evalcore's argument policy names (`regex` and `rouge1` need their parameters, so they are objects). */\nexport type ArgPolicyName = {};\n",
        union(
            ArgPolicy::NAMES
                .iter()
                .filter(|n| !with_params.contains(n))
                .map(|n| format!("\"{n}\""))
        )
    );
    out.push_str(
        "/** How one argument is compared (docs/metrics.md, \"Argument policies\"). */\nexport type ArgPolicy =\n  | ArgPolicyName\n  | { policy: ArgPolicyName }\n  \
         | { policy: \"numeric\"; abs_tol?: number; rel_tol?: number; absTol?: number; relTol?: number }\n  \
         | { policy: \"regex\"; pattern: string }\n  | { policy: \"rouge1\"; threshold: number };\n\n\
         /** Per tool name (`*`: every tool): one policy for all its arguments, or one per argument (`*`: the others). */\n\
         export type ArgPolicies = { [tool: string]: ArgPolicy | { [arg: string]: ArgPolicy } };\n\n",
    );
    let _ = writeln!(
        out,
        "/** How tool_trajectory_f1 pairs calls. */\nexport type Alignment = {};\n",
        union(Alignment::ALL.iter().map(|a| format!("\"{}\"", a.as_str())))
    );
    out.push_str("/** ADK's JudgeModelOptions (extra keys are an error). */\nexport interface JudgeModelOptions {\n");
    let judge: Vec<(&str, FieldKind)> = JudgeModelOptions::FIELDS
        .iter()
        .copied()
        .zip(JudgeModelOptions::KINDS.iter().copied())
        .collect();
    fields(&mut out, &judge);
    out.push_str("}\n\n");
    out.push_str(
        "/** Every criterion: `threshold`, and `include_intermediate_responses_in_final`. */\nexport interface BaseCriterion {\n  threshold: number;\n  include_intermediate_responses_in_final?: boolean;\n  includeIntermediateResponsesInFinal?: boolean;\n}\n\n",
    );
    for class in CriterionClass::ALL.iter().filter(|c| **c != CriterionClass::Base) {
        let _ = writeln!(out, "export interface {} extends BaseCriterion {{", class.name());
        fields(&mut out, class.fields());
        out.push_str("}\n\n");
    }
    out.push_str("/** The criterion class each metric reads. */\nexport interface CriteriaByMetric {\n");
    for n in &names {
        let class = criterion_class(n).unwrap_or(CriterionClass::Base);
        let _ = writeln!(out, "  {n}: {};", class.name());
    }
    out.push_str("}\n\n");
    out.push_str("/** A criterion as loadEvalConfig returns it: any class's fields, and a custom metric's own. */\nexport interface Criterion extends BaseCriterion {\n");
    let mut seen: Vec<&str> = Vec::new();
    for class in CriterionClass::ALL {
        for (name, kind) in class.fields() {
            if !seen.contains(name) {
                seen.push(name);
                let _ = writeln!(out, "  {name}?: {};", ts_type(*kind));
            }
        }
    }
    out.push_str("  [field: string]: unknown;\n}\n\n");
    out.push_str(
        "/**\n * `criteria` as a config gives it: each known metric's threshold alone (the numeric shorthand)\n * or its criterion; `Custom` names the custom metrics a run also scores. A misspelt metric\n * name does not compile.\n */\n\
         export type CriteriaInput<Custom extends string = never> = {\n  [K in MetricName]?: number | CriteriaByMetric[K];\n} & {\n  [K in Custom]?: number | (BaseCriterion & { [field: string]: unknown });\n};\n",
    );
    out
}

#[test]
fn criteria_types_are_generated_from_the_core() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/pkg/criteria.d.ts");
    let text = generate();
    if std::env::var_os("EVALCORE_WRITE_TYPES").is_some() {
        std::fs::write(path, &text).expect("pkg/criteria.d.ts is writable");
        return;
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == text,
        "pkg/criteria.d.ts is stale: run `EVALCORE_WRITE_TYPES=1 cargo test --test ts_types` (scripts/build.sh does)"
    );
}

// ---------------------------------------------------------------------------------------------
// pkg/model.d.ts: ADK's data (content, eval sets, results) from the schema types, via ts-rs.

mod model {
    use evalcore::schema::content::{Blob, Content, FileData, FunctionCall, FunctionResponse, Part};
    use evalcore::schema::eval_result::{
        EvalCaseResult, EvalSetResult, JudgePlan, JudgeStats, DURATION_FIELDS, TOKEN_FIELDS,
    };
    use evalcore::schema::eval_set::{ConversationScenarios, EvalCase, EvalSet};
    use evalcore::schema::invocation::Invocation;
    use std::collections::BTreeMap;
    use std::fmt::Write;
    use ts_rs::{Config, TypeVisitor, TS};

    /// Declarations of a type and everything it names, each once, by name: ts-rs's derive lists a
    /// type's dependencies from a HashSet, so the order it visits them in changes from one build
    /// to the next, and TypeScript needs no declaration order.
    struct Collect {
        cfg: Config,
        out: BTreeMap<String, String>,
    }

    impl TypeVisitor for Collect {
        fn visit<T: TS + 'static + ?Sized>(&mut self) {
            if T::output_path().is_none() {
                return; // a built-in (string, number, Array, ...)
            }
            let name = T::ident(&self.cfg);
            if self.out.contains_key(&name) {
                return;
            }
            self.out.insert(name.clone(), String::new());
            T::visit_dependencies(self);
            let docs = T::docs().unwrap_or_default();
            self.out
                .insert(name, format!("{docs}export {}", layout(&T::decl(&self.cfg))));
        }
    }

    /// What ts-rs writes for a flattened `Map<String, Value>` (the keys ADK keeps as given).
    const FLAT_EXTRA: &str =
        " & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null })";

    /// ts-rs writes a declaration on one line: put each field of the outer object on its own.
    fn layout(decl: &str) -> String {
        let decl = decl.replace(FLAT_EXTRA, " & { [key: string]: unknown }");
        let Some(open) = decl.find("= {") else {
            return decl;
        };
        let (head, body) = decl.split_at(open + 3);
        let mut out = format!("{head}\n");
        let mut depth = 0i32;
        let mut field = String::new();
        let mut in_comment = false;
        let mut chars = body.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if in_comment {
                field.push(c);
                if c == '*' && chars.peek().map(|p| p.1) == Some('/') {
                    field.push('/');
                    chars.next();
                    in_comment = false;
                }
                continue;
            }
            match c {
                '/' if chars.peek().map(|p| p.1) == Some('*') => in_comment = true,
                '{' | '[' | '(' | '<' => depth += 1,
                '}' if depth == 0 => {
                    if !field.trim().is_empty() {
                        let _ = writeln!(out, "  {},", field.trim().trim_end_matches(','));
                    }
                    out.push('}');
                    out.push_str(body.get(i + 1..).unwrap_or(""));
                    return out;
                }
                '}' | ']' | ')' | '>' => depth -= 1,
                ',' if depth == 0 => {
                    let _ = writeln!(out, "  {},", field.trim().replace('\n', "\n  "));
                    field.clear();
                    continue;
                }
                _ => {}
            }
            field.push(c);
        }
        decl
    }

    fn numbers(name: &str, doc: &str, fields: &[&str]) -> String {
        let mut s = format!("/** {doc} */\nexport type {name} = {{\n");
        for f in fields {
            let _ = writeln!(s, "  {f}: number | null,");
        }
        s.push_str("};");
        s
    }

    pub fn generate() -> String {
        let mut c = Collect {
            cfg: Config::new().with_large_int("number"),
            out: BTreeMap::new(),
        };
        c.visit::<Content>();
        c.visit::<Part>();
        c.visit::<FunctionCall>();
        c.visit::<FunctionResponse>();
        c.visit::<Blob>();
        c.visit::<FileData>();
        c.visit::<Invocation>();
        c.visit::<EvalCase>();
        c.visit::<EvalSet>();
        c.visit::<ConversationScenarios>();
        c.visit::<EvalCaseResult<'static>>();
        c.visit::<EvalSetResult>();
        c.visit::<JudgeStats>();
        c.visit::<JudgePlan>();
        c.visit::<evalcore::run::client::JudgeOption>();
        c.visit::<evalcore::traces::Loaded>();
        c.visit::<evalcore::traces::index::Index>();
        let mut out = String::from(
            "// Generated from the Rust core's schema types by tests/ts_types.rs (ts-rs; scripts/build.sh\n\
             // writes it, `cargo test` fails when it is stale). Do not edit: change src/schema/ instead.\n\
             // ADK's data as evalcore writes and reads it (fields a reader may omit are optional), and the\n\
             // judge settings the core takes.\n\
             import type { Criterion, EvalStatus } from './criteria.js';\n\n\
             /** A JSON object (google.genai's `dict[str, Any]`). */\n\
             export type JsonObject = { [key in string]: JsonValue };\n\n",
        );
        for d in c.out.values() {
            out.push_str(d);
            out.push_str("\n\n");
        }
        out.push_str(&numbers(
            "TokenUsageDetails",
            "ADK's token breakdown of an invocation (the efficiency metrics' details).",
            &TOKEN_FIELDS,
        ));
        out.push_str("\n\n");
        out.push_str(&numbers(
            "DurationDetails",
            "ADK's duration breakdown of an invocation, in seconds.",
            &DURATION_FIELDS,
        ));
        out.push('\n');
        out
    }
}

#[test]
fn model_types_are_generated_from_the_core() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/pkg/model.d.ts");
    let text = model::generate();
    if std::env::var_os("EVALCORE_WRITE_TYPES").is_some() {
        std::fs::write(path, &text).expect("pkg/model.d.ts is writable");
        return;
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == text,
        "pkg/model.d.ts is stale: run `EVALCORE_WRITE_TYPES=1 cargo test --test ts_types` (scripts/build.sh does)"
    );
}
