//! Every wasm export, declared once: its JS name, the module that carries it, its Rust
//! signature, the TypeScript type of what it answers, and the forwarder's body.
//!
//! `table!(then)` hands the rows to the macro `then`: in a wasm build `bind` (src/wasm/bind.rs)
//! turns each row of that module into its `#[wasm_bindgen]` function; natively `describe`
//! (below) turns every row into [`TABLE`], from which `tests/exports.rs` writes the JS
//! bindings (`pkg/lib/wasm/exports.js`, an object per module) and its `.d.ts`. Adding an
//! export is a core function plus one row here; nothing else names it by hand.
//!
//! A row: `module jsName = fn rust_name(args) -> RustType ["TS type of the answer"] { body }`,
//! `module` being `main` (the scoring path) or `extras` (the lazily loaded converter and the
//! rest that is not on the scoring path). Answers written `Json<T>` are JSON text of a `T`;
//! `Envelope<T>` is `{"ok": T}` or `{"error": EvalError}`.

/// Hands every row to the macro `$then`.
macro_rules! table {
    ($then:ident) => {
        $then! {
            fns {
                /// `loadEvalSet` for JSON text; `options` is `{"id"?, "sessionInput"?}` JSON or "".
                /// An agents-cli dataset, a legacy list or an @iqai/adk set is answered
                /// `{"extras":true}`: the extras module reads it.
                main loadEvalSetJson = fn load_eval_set_json(input: &str, options: &str) -> String
                    ["Json<Envelope<EvalSet> | ToExtras>"]
                    { to_extras_or(api::load_eval_set_main(input, options).map(api::envelope)) }

                /// `loadEvalSet` for UTF-8 bytes (a file as Node reads it): no UTF-16 copy.
                main loadEvalSetBytes = fn load_eval_set_bytes(input: &[u8], options: &str) -> String
                    ["Json<Envelope<EvalSet> | ToExtras>"]
                    { api::utf8(input).map_or_else(|e| api::error_json(&e), |text| load_eval_set_json(text, options)) }

                /// `validateEvalSet` for JSON text: `{"ok", "errors"}` (never an envelope), or
                /// `{"extras":true}` for a dataset, legacy or @iqai/adk text.
                main validateEvalSetJson = fn validate_eval_set_json(input: &str) -> String
                    ["Json<ValidationReport | ToExtras>"]
                    { to_extras_or(api::validate_eval_set_main(input)) }

                /// `validateEvalSet` for UTF-8 bytes.
                main validateEvalSetBytes = fn validate_eval_set_bytes(input: &[u8]) -> String
                    ["Json<ValidationReport | ToExtras>"]
                    { api::utf8(input).map_or_else(|e| invalid_report(&e), validate_eval_set_json) }

                /// `loadEvalConfig`: JSON text ("" or "null" gives ADK's default criteria);
                /// `options` is `{"strict"?: bool}` JSON or "". An agents-cli config is
                /// answered `{"extras":true}`: the extras module converts it.
                main loadEvalConfigJson = fn load_eval_config_json(input: &str, options: &str) -> String
                    ["Json<Envelope<EvalConfig> | ToExtras>"]
                    { if api::is_agents_cli_config(input) { api::TO_EXTRAS.to_string() } else { api::envelope(api::load_eval_config(input, options)) } }

                /// `validateEvalConfig`: `{"ok", "errors", "warnings"}` (never an envelope); an
                /// agents-cli config is answered `{"extras":true}`.
                main validateEvalConfigJson = fn validate_eval_config_json(input: &str, options: &str) -> String
                    ["Json<ValidationReport | ToExtras>"]
                    { if api::is_agents_cli_config(input) { api::TO_EXTRAS.to_string() } else { api::validate_config(input, options) } }

                /// `setLimits(update)`: `{maxTextBytes?, maxParseBytes?, maxReplyBytes?,
                /// maxIdBytes?}` JSON ("" to read); answers the limits in force.
                main setLimitsJson = fn set_limits_json(update: &str) -> String
                    ["Json<Envelope<Limits>>"]
                    { api::envelope(api::set_limits(update)) }

                /// `rouge1(candidate, reference)`: `[precision, recall, fmeasure]`.
                main rouge1 = fn rouge1(candidate: &str, reference: &str) -> Vec<f64>
                    ["Float64Array"]
                    { rouge1_triple(candidate, reference) }

                /// Where the ROUGE-1 overlap falls in each text
                /// (`text::highlight::rouge1_spans_flat`'s layout).
                main rouge1Spans = fn rouge1_spans(candidate: &str, reference: &str) -> Vec<u32>
                    ["Uint32Array"]
                    { crate::text::highlight::rouge1_spans_flat(candidate, reference) }

                /// `rouge1Batch`: every candidate and reference concatenated (c0, r0, c1, r1,
                /// ...) with their UTF-16 lengths; `[p, r, f, ...]`, or empty when the lengths
                /// do not fit (the JS skin builds both, so that cannot happen through it).
                main rouge1Batch = fn rouge1_batch(joined: &str, utf16_lens: &[u32]) -> Vec<f64>
                    ["Float64Array"]
                    { api::rouge1_batch(joined, utf16_lens).unwrap_or_default() }

                /// `evaluateInvocations(args)` without a judge: the JSON texts of
                /// `args.evalCase` and `args.actual` (each absent when left out) and the rest of
                /// args as one JSON object, so the two large members cross as they are.
                main evaluateInvocationsJson = fn evaluate_invocations_json(eval_case: Option<String>, actual: Option<String>, rest: &str) -> String
                    ["Json<Envelope<EvalCaseResult>>"]
                    { api::envelope(api::evaluate_invocations_parts(eval_case.as_deref(), actual.as_deref(), rest)) }

                /// `evaluateInvocations` with a judge and/or custom metrics: resolves to an
                /// envelope. `judge` is the judge option as JSON ("" for none).
                main evaluateInvocationsAsync = fn evaluate_invocations_async(eval_case: Option<String>, actual: Option<String>, rest: String, judge: String, host: host::JsHost) -> js_sys::Promise
                    ["Promise<Json<Envelope<EvalCaseResult>>>"]
                    { evaluate_invocations_promise(eval_case, actual, rest, judge, host) }

                /// `planJudgeCalls`: the judge calls `evaluateInvocations` would make.
                main planJudgeCallsAsync = fn plan_judge_calls_async(eval_case: Option<String>, actual: Option<String>, rest: String, judge: String, host: host::JsHost) -> js_sys::Promise
                    ["Promise<Json<Envelope<JudgePlan>>>"]
                    { plan_judge_calls_promise(eval_case, actual, rest, judge, host) }

                /// `evaluate`: runs the agent over an eval set.
                main evaluateAsync = fn evaluate_async(args: String, judge: String, host: host::JsHost) -> js_sys::Promise
                    ["Promise<Json<Envelope<EvalSetResult>>>"]
                    { evaluate_promise(args, judge, host) }

                /// Every metric the core knows, from its registry (see `api::metrics_info`).
                main metricsInfoJson = fn metrics_info_json() -> String
                    ["Json<MetricInfo[]>"]
                    { api::metrics_info() }

                /// The crate version, for diagnostics.
                main coreVersion = fn core_version() -> String
                    ["string"]
                    { env!("CARGO_PKG_VERSION").to_string() }

                /// `loadEvalSetResult`: JSON text (ADK 2.x, 1.x double-encoded or ours);
                /// `options` is `{"runSummary"?: bool}` JSON or "".
                main loadEvalSetResultJson = fn load_eval_set_result_json(input: &str, options: &str) -> String
                    ["Json<Envelope<EvalSetResult>>"]
                    { api::envelope(api::load_eval_set_result(input, options)) }

                /// `loadEvalSetResult` for UTF-8 bytes (a file as Node reads it).
                main loadEvalSetResultBytes = fn load_eval_set_result_bytes(input: &[u8], options: &str) -> String
                    ["Json<Envelope<EvalSetResult>>"]
                    { api::envelope(api::utf8(input).and_then(|text| api::load_eval_set_result(text, options))) }

                /// An EvalSetResult as the text ADK 2.13 writes to its eval history.
                main formatEvalSetResultJson = fn format_eval_set_result_json(input: &str) -> String
                    ["Json<Envelope<string>>"]
                    { api::envelope(api::format_eval_set_result(input)) }

                /// An eval set as ADK writes its files (`compact`: only non-null, non-default
                /// fields).
                main formatEvalSetFileJson = fn format_eval_set_file_json(input: &str, compact: bool) -> String
                    ["Json<Envelope<string>>"]
                    { api::envelope(api::format_eval_set_file(input, compact)) }

                /// ADK's snake_case JSON as its dev server answers it (camelCase, no nulls).
                main adkApiJson = fn adk_api_json(input: &str) -> String
                    ["Json<Envelope<unknown>>"]
                    { api::envelope(api::adk_api_json(input)) }

                /// A recorded session's events as ADK Invocations.
                main sessionInvocationsJson = fn session_invocations_json(input: &str) -> String
                    ["Json<Envelope<Invocation[]>>"]
                    { api::envelope(api::session_invocations(input)) }

                /// Python's text of a JSON value: `form` "repr" (`repr()` of `json.loads`) or
                /// "json" (`json.dumps(sort_keys=True)`).
                main pythonTextJson = fn python_text_json(input: &str, form: &str) -> String
                    ["Json<Envelope<string>>"]
                    { api::envelope(api::python_text(input, form)) }

                /// `repr(x)` of a Python float (`1.0`, `1e-05`, `nan`).
                main pythonFloat = fn python_float(x: f64) -> String
                    ["string"]
                    { crate::report::pyfmt::float_repr(x) }

                /// An eval status (a name or ADK's integer, as JSON) as its name.
                main evalStatusJson = fn eval_status_json(input: &str) -> String
                    ["Json<Envelope<EvalStatus>>"]
                    { api::envelope(api::eval_status_name(input)) }

                /// Any JSON text as bytes, read by the core's parser (its depth and size rules)
                /// and written back compactly, so the host's own `JSON.parse` only sees text the
                /// core has bounded.
                main parseJsonBytes = fn parse_json_bytes(input: &[u8]) -> String
                    ["Json<Envelope<unknown>>"]
                    { api::envelope(api::utf8(input).and_then(crate::schema::load::parse_json).map(|v| v.to_string())) }

                /// Test hook, not API: grows the heap by `mib` MiB, then traps (`unreachable`),
                /// so the JS skin's trap recovery can be tested deterministically.
                main __trapForTesting = fn trap_for_testing(mib: u32) -> ()
                    ["never"]
                    { trap_now(mib) }

                /// Test hook, not API: the same trap inside a future, one microtask later,
                /// where the wasm-bindgen executor polls it (as a trap in the run loop happens).
                main __trapForTestingAsync = fn trap_for_testing_async(mib: u32) -> js_sys::Promise
                    ["Promise<never>"]
                    { trap_later(mib) }

                /// The extras module's copy of the main module's limits (the package passes
                /// them on before each call).
                extras setLimitsJson = fn set_limits_json(update: &str) -> String
                    ["Json<Envelope<Limits>>"]
                    { api::envelope(api::set_limits(update)) }

                /// `compareRuns` of the two sides' results (the core's model).
                extras compareRunsJson = fn compare_runs_json(input: &str, options: &str) -> String
                    ["Json<Envelope<Comparison>>"]
                    { api::envelope(api::compare::compare_runs(input, options)) }

                /// `runTrend` of a list of results (the core's model).
                extras runTrendJson = fn run_trend_json(input: &str) -> String
                    ["Json<Envelope<RunTrend>>"]
                    { api::envelope(api::compare::run_trend(input)) }

                /// The agreement numbers of `calibrate` (`api::compare::stats`: `kind` selects
                /// the function, `a` and `b` its numbers).
                extras statsF64 = fn stats_f64(kind: u32, a: &[f64], b: &[f64]) -> Vec<f64>
                    ["Float64Array"]
                    { api::compare::stats(kind, a, b) }

                /// `loadEvalSet` of what the main module hands over (an agents-cli dataset, a
                /// legacy or @iqai/adk eval set), for UTF-8 bytes.
                extras loadOtherEvalSetBytes = fn load_other_eval_set_bytes(input: &[u8], options: &str) -> String
                    ["Json<Envelope<EvalSet>>"]
                    { api::envelope(api::utf8(input).and_then(|text| api::load_eval_set(text, options))) }

                /// `validateEvalSet` of what the main module hands over, for UTF-8 bytes.
                extras validateOtherEvalSetBytes = fn validate_other_eval_set_bytes(input: &[u8]) -> String
                    ["Json<ValidationReport>"]
                    { api::utf8(input).map_or_else(|e| invalid_report(&e), api::validate_eval_set) }

                /// `loadEvaluationDataset` for UTF-8 bytes: an agents-cli dataset (or any eval
                /// set) as `{eval_set, actual, grading, inference}`.
                extras loadEvaluationDatasetBytes = fn load_evaluation_dataset_bytes(input: &[u8], options: &str) -> String
                    ["Json<Envelope<LoadedDataset>>"]
                    { api::envelope(api::utf8(input).and_then(|text| api::load_evaluation_dataset(text, options))) }

                /// `toEvaluationDataset({evalSet, actual?})`: the agents-cli dataset.
                extras toEvaluationDatasetJson = fn to_evaluation_dataset_json(args: &str) -> String
                    ["Json<Envelope<EvaluationDataset>>"]
                    { api::envelope(api::to_evaluation_dataset(args)) }

                /// `formatReport(results, options)`: ADK's console summary (with
                /// `{"detailed": true}` also the per-case detailed output) of EvalCaseResults.
                main formatReportJson = fn format_report_json(results: &str, options: &str) -> String
                    ["Json<Envelope<string>>"]
                    { api::envelope(crate::report::console::format_report_json(results, options)) }

                /// ADK's eval id of a conversation scenario (JSON).
                extras scenarioEvalIdJson = fn scenario_eval_id_json(input: &str) -> String
                    ["Json<Envelope<string>>"]
                    { api::envelope(api::scenario_eval_id(input)) }

                /// `loadEvalConfig` of what the main module hands over (an agents-cli config).
                extras loadAgentsCliConfigJson = fn load_agents_cli_config_json(input: &str, options: &str) -> String
                    ["Json<Envelope<EvalConfig>>"]
                    { api::envelope(api::load_eval_config(input, options)) }

                /// `validateEvalConfig` of what the main module hands over.
                extras validateAgentsCliConfigJson = fn validate_agents_cli_config_json(input: &str, options: &str) -> String
                    ["Json<ValidationReport>"]
                    { api::validate_config(input, options) }

                /// `loadTraces(inputs, options)`: the inputs' bytes joined, with each one's
                /// length (OTLP/JSON text or protobuf); `options` is `{"sessionIds"?}` or "".
                extras loadTracesBytes = fn load_traces_bytes(joined: &[u8], lens: &[u32], options: &str) -> String
                    ["Json<Envelope<LoadedTraces>>"]
                    { api::envelope(api::split_inputs(joined, lens).and_then(|inputs| api::load_traces(&inputs, options))) }

                /// `tracesToEvalSet(inputs, options)`: as `loadTracesBytes`; `options` is
                /// `{"evalSetId", "sessionIds"?, "text"?}`.
                extras tracesToEvalSetBytes = fn traces_to_eval_set_bytes(joined: &[u8], lens: &[u32], options: &str) -> String
                    ["Json<Envelope<ReturnType<typeof tracesToEvalSet>>>"]
                    { api::envelope(api::split_inputs(joined, lens).and_then(|inputs| api::traces_to_eval_set(&inputs, options))) }

                /// `traceIndex(inputs)`: as `loadTracesBytes`, without options.
                extras traceIndexBytes = fn trace_index_bytes(joined: &[u8], lens: &[u32]) -> String
                    ["Json<Envelope<unknown>>"]
                    { api::envelope(api::split_inputs(joined, lens).and_then(|inputs| api::trace_index(&inputs))) }
            }
            classes {
                /// A case parsed once and scored many times (different configs) without
                /// re-parsing.
                main PreparedCase(api::PreparedCase) {
                    /// Parses the case (the arguments as `evaluateInvocationsJson` takes them);
                    /// a bad case is thrown as its error envelope (a string).
                    fromJson = fn from_json(eval_case: Option<String>, actual: Option<String>, rest: &str) -> Result<PreparedCase, JsValue>
                        ["PreparedCase"]
                        { prepare_case(eval_case, actual, rest).map(|inner| PreparedCase { inner }) }
                    /// Scores the held case under `config` (JSON text, "" for defaults);
                    /// `options` is `{"includeInvocations"?, "perInvocation"?, ...}` or "".
                    evaluateJson = fn evaluate_json(&self, config: &str, options: &str) -> String
                        ["Json<Envelope<EvalCaseResult>>"]
                        { api::envelope(self.inner.evaluate(config, options)) }
                }
            }
        }
    };
}
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]
pub(crate) use table;

/// One parameter of an export: its name and Rust type, as written in the row.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    pub name: &'static str,
    pub rust: &'static str,
}

/// One export as the generators see it.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// `main` or `extras`.
    pub module: &'static str,
    /// The class it is a member of (its static functions and methods), if any.
    pub class: Option<&'static str>,
    /// The name JS calls it by.
    pub js: &'static str,
    /// A method of the class (called on an instance) rather than a function.
    pub method: bool,
    pub params: &'static [Param],
    /// The Rust return type, as written.
    pub rust_return: &'static str,
    /// The TypeScript type of what it answers.
    pub ts_return: &'static str,
    /// Its doc comment.
    pub doc: &'static [&'static str],
}

/// The classes the modules export: `(module, name, doc)`.
#[derive(Debug, Clone, Copy)]
pub struct Class {
    pub module: &'static str,
    pub name: &'static str,
    pub doc: &'static [&'static str],
}

macro_rules! describe {
    (
        fns { $( $(#[doc = $doc:expr])* $module:ident $js:ident = fn $name:ident ( $($arg:ident : $ty:ty),* ) -> $ret:ty [$ts:expr] $body:block )* }
        classes { $( $(#[doc = $cdoc:expr])* $cmodule:ident $class:ident ($inner:ty) {
            $(#[doc = $sdoc:expr])* $sjs:ident = fn $sname:ident ( $($sarg:ident : $sty:ty),* ) -> $sret:ty [$sts:expr] $sbody:block
            $( $(#[doc = $mdoc:expr])* $mjs:ident = fn $mname:ident ( & $self_:ident $(, $marg:ident : $mty:ty)* ) -> $mret:ty [$mts:expr] $mbody:block )*
        } )* }
    ) => {
        /// Every export, in table order.
        pub const TABLE: &[Row] = &[
            $( Row {
                module: stringify!($module), class: None, js: stringify!($js), method: false,
                params: &[$( Param { name: stringify!($arg), rust: stringify!($ty) } ),*],
                rust_return: stringify!($ret), ts_return: $ts, doc: &[$($doc),*],
            }, )*
            $(
                Row {
                    module: stringify!($cmodule), class: Some(stringify!($class)), js: stringify!($sjs), method: false,
                    params: &[$( Param { name: stringify!($sarg), rust: stringify!($sty) } ),*],
                    rust_return: stringify!($sret), ts_return: $sts, doc: &[$($sdoc),*],
                },
                $( Row {
                    module: stringify!($cmodule), class: Some(stringify!($class)), js: stringify!($mjs), method: true,
                    params: &[$( Param { name: stringify!($marg), rust: stringify!($mty) } ),*],
                    rust_return: stringify!($mret), ts_return: $mts, doc: &[$($mdoc),*],
                }, )*
            )*
        ];
        /// Every exported class.
        pub const CLASSES: &[Class] = &[$( Class { module: stringify!($cmodule), name: stringify!($class), doc: &[$($cdoc),*] } ),*];
    };
}

table!(describe);
