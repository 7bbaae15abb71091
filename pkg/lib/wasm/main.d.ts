// Generated from src/wasm/table.rs by tests/exports.rs (scripts/build.sh writes it;
// `cargo test` fails when it is stale). Do not edit: change the table's row instead.
import type { EvalSet, EvalSetResult, EvalCaseResult, Invocation, JudgePlan, LoadedTraces } from '../../model.js';
import type { EvalStatus } from '../../criteria.js';
import type { EvalConfig, Limits, LoadedDataset, EvaluationDataset, MetricInfo, tracesToEvalSet } from '../../index.js';
import type { Comparison, RunTrend } from '../../reports.js';

/** JSON text of a `T` (what the export answers, before `JSON.parse`). */
export type Json<T> = string & { readonly __json?: T };
/** `{ok: T}` or `{error: {code, path, message}}`. */
export type Envelope<T> = { ok: T } | { error: { code: string; path: string; message: string } };
/** The main module's answer for a shape only the extras module reads. */
export type ToExtras = { extras: true };
/** A validation answer: `{ok, errors, warnings?}` (never an envelope). */
export type ValidationReport = { ok: boolean; errors: Array<{ code: string; path: string; message: string }>; warnings?: Array<{ code: string; path: string; message: string }> };
/** The object the run loop's async exports call back (pkg/lib/host.js makes it). */
export type CoreHost = object;
/** An instance's glue: the module's raw exports, as wasm-bindgen made them. */
export type Glue = Record<string, any>;

/**
 * A case parsed once and scored many times (different configs) without
 * re-parsing.
 */
export type PreparedCaseHandle = { free(): void };

/** Each export called on the glue `g` of a given instance. */
export declare const on: {
  /**
   * `loadEvalSet` for JSON text; `options` is `{"id"?, "sessionInput"?}` JSON or "".
   * An agents-cli dataset, a legacy list or an @iqai/adk set is answered
   * `{"extras":true}`: the extras module reads it.
   */
  loadEvalSetJson(g: Glue, input: string, options: string): Json<Envelope<EvalSet> | ToExtras>;
  /**
   * `loadEvalSet` for UTF-8 bytes (a file as Node reads it): no UTF-16 copy.
   */
  loadEvalSetBytes(g: Glue, input: Uint8Array, options: string): Json<Envelope<EvalSet> | ToExtras>;
  /**
   * `validateEvalSet` for JSON text: `{"ok", "errors"}` (never an envelope), or
   * `{"extras":true}` for a dataset, legacy or @iqai/adk text.
   */
  validateEvalSetJson(g: Glue, input: string): Json<ValidationReport | ToExtras>;
  /**
   * `validateEvalSet` for UTF-8 bytes.
   */
  validateEvalSetBytes(g: Glue, input: Uint8Array): Json<ValidationReport | ToExtras>;
  /**
   * `loadEvalConfig`: JSON text ("" or "null" gives ADK's default criteria);
   * `options` is `{"strict"?: bool}` JSON or "". An agents-cli config is
   * answered `{"extras":true}`: the extras module converts it.
   */
  loadEvalConfigJson(g: Glue, input: string, options: string): Json<Envelope<EvalConfig> | ToExtras>;
  /**
   * `validateEvalConfig`: `{"ok", "errors", "warnings"}` (never an envelope); an
   * agents-cli config is answered `{"extras":true}`.
   */
  validateEvalConfigJson(g: Glue, input: string, options: string): Json<ValidationReport | ToExtras>;
  /**
   * `setLimits(update)`: `{maxTextBytes?, maxParseBytes?, maxReplyBytes?,
   * maxIdBytes?}` JSON ("" to read); answers the limits in force.
   */
  setLimitsJson(g: Glue, update: string): Json<Envelope<Limits>>;
  /**
   * `rouge1(candidate, reference)`: `[precision, recall, fmeasure]`.
   */
  rouge1(g: Glue, candidate: string, reference: string): Float64Array;
  /**
   * Where the ROUGE-1 overlap falls in each text
   * (`text::highlight::rouge1_spans_flat`'s layout).
   */
  rouge1Spans(g: Glue, candidate: string, reference: string): Uint32Array;
  /**
   * `rouge1Batch`: every candidate and reference concatenated (c0, r0, c1, r1,
   * ...) with their UTF-16 lengths; `[p, r, f, ...]`, or empty when the lengths
   * do not fit (the JS skin builds both, so that cannot happen through it).
   */
  rouge1Batch(g: Glue, joined: string, utf16Lens: Uint32Array): Float64Array;
  /**
   * `evaluateInvocations(args)` without a judge: the JSON texts of
   * `args.evalCase` and `args.actual` (each absent when left out) and the rest of
   * args as one JSON object, so the two large members cross as they are.
   */
  evaluateInvocationsJson(g: Glue, evalCase: string | undefined, actual: string | undefined, rest: string): Json<Envelope<EvalCaseResult>>;
  /**
   * `evaluateInvocations` with a judge and/or custom metrics: resolves to an
   * envelope. `judge` is the judge option as JSON ("" for none).
   */
  evaluateInvocationsAsync(g: Glue, evalCase: string | undefined, actual: string | undefined, rest: string, judge: string, host: CoreHost): Promise<Json<Envelope<EvalCaseResult>>>;
  /**
   * `planJudgeCalls`: the judge calls `evaluateInvocations` would make.
   */
  planJudgeCallsAsync(g: Glue, evalCase: string | undefined, actual: string | undefined, rest: string, judge: string, host: CoreHost): Promise<Json<Envelope<JudgePlan>>>;
  /**
   * `evaluate`: runs the agent over an eval set.
   */
  evaluateAsync(g: Glue, args: string, judge: string, host: CoreHost): Promise<Json<Envelope<EvalSetResult>>>;
  /**
   * Every metric the core knows, from its registry (see `api::metrics_info`).
   */
  metricsInfoJson(g: Glue): Json<MetricInfo[]>;
  /**
   * The crate version, for diagnostics.
   */
  coreVersion(g: Glue): string;
  /**
   * `loadEvalSetResult`: JSON text (ADK 2.x, 1.x double-encoded or ours);
   * `options` is `{"runSummary"?: bool}` JSON or "".
   */
  loadEvalSetResultJson(g: Glue, input: string, options: string): Json<Envelope<EvalSetResult>>;
  /**
   * `loadEvalSetResult` for UTF-8 bytes (a file as Node reads it).
   */
  loadEvalSetResultBytes(g: Glue, input: Uint8Array, options: string): Json<Envelope<EvalSetResult>>;
  /**
   * An EvalSetResult as the text ADK 2.13 writes to its eval history.
   */
  formatEvalSetResultJson(g: Glue, input: string): Json<Envelope<string>>;
  /**
   * An eval set as ADK writes its files (`compact`: only non-null, non-default
   * fields).
   */
  formatEvalSetFileJson(g: Glue, input: string, compact: boolean): Json<Envelope<string>>;
  /**
   * ADK's snake_case JSON as its dev server answers it (camelCase, no nulls).
   */
  adkApiJson(g: Glue, input: string): Json<Envelope<unknown>>;
  /**
   * A recorded session's events as ADK Invocations.
   */
  sessionInvocationsJson(g: Glue, input: string): Json<Envelope<Invocation[]>>;
  /**
   * Python's text of a JSON value: `form` "repr" (`repr()` of `json.loads`) or
   * "json" (`json.dumps(sort_keys=True)`).
   */
  pythonTextJson(g: Glue, input: string, form: string): Json<Envelope<string>>;
  /**
   * `repr(x)` of a Python float (`1.0`, `1e-05`, `nan`).
   */
  pythonFloat(g: Glue, x: number): string;
  /**
   * An eval status (a name or ADK's integer, as JSON) as its name.
   */
  evalStatusJson(g: Glue, input: string): Json<Envelope<EvalStatus>>;
  /**
   * Any JSON text as bytes, read by the core's parser (its depth and size rules)
   * and written back compactly, so the host's own `JSON.parse` only sees text the
   * core has bounded.
   */
  parseJsonBytes(g: Glue, input: Uint8Array): Json<Envelope<unknown>>;
  /**
   * Test hook, not API: grows the heap by `mib` MiB, then traps (`unreachable`),
   * so the JS skin's trap recovery can be tested deterministically.
   */
  __trapForTesting(g: Glue, mib: number): never;
  /**
   * Test hook, not API: the same trap inside a future, one microtask later,
   * where the wasm-bindgen executor polls it (as a trap in the run loop happens).
   */
  __trapForTestingAsync(g: Glue, mib: number): Promise<never>;
  /**
   * `formatReport(results, options)`: ADK's console summary (with
   * `{"detailed": true}` also the per-case detailed output) of EvalCaseResults.
   */
  formatReportJson(g: Glue, results: string, options: string): Json<Envelope<string>>;
  /**
   * Parses the case (the arguments as `evaluateInvocationsJson` takes them);
   * a bad case is thrown as its error envelope (a string).
   */
  preparedCaseFromJson(g: Glue, evalCase: string | undefined, actual: string | undefined, rest: string): PreparedCaseHandle;
  /**
   * Scores the held case under `config` (JSON text, "" for defaults);
   * `options` is `{"includeInvocations"?, "perInvocation"?, ...}` or "".
   */
  preparedCaseEvaluateJson(handle: PreparedCaseHandle, config: string, options: string): Json<Envelope<EvalCaseResult>>;
};

/**
 * `loadEvalSet` for JSON text; `options` is `{"id"?, "sessionInput"?}` JSON or "".
 * An agents-cli dataset, a legacy list or an @iqai/adk set is answered
 * `{"extras":true}`: the extras module reads it.
 */
export declare function loadEvalSetJson(input: string, options: string): Json<Envelope<EvalSet> | ToExtras>;

/**
 * `loadEvalSet` for UTF-8 bytes (a file as Node reads it): no UTF-16 copy.
 */
export declare function loadEvalSetBytes(input: Uint8Array, options: string): Json<Envelope<EvalSet> | ToExtras>;

/**
 * `validateEvalSet` for JSON text: `{"ok", "errors"}` (never an envelope), or
 * `{"extras":true}` for a dataset, legacy or @iqai/adk text.
 */
export declare function validateEvalSetJson(input: string): Json<ValidationReport | ToExtras>;

/**
 * `validateEvalSet` for UTF-8 bytes.
 */
export declare function validateEvalSetBytes(input: Uint8Array): Json<ValidationReport | ToExtras>;

/**
 * `loadEvalConfig`: JSON text ("" or "null" gives ADK's default criteria);
 * `options` is `{"strict"?: bool}` JSON or "". An agents-cli config is
 * answered `{"extras":true}`: the extras module converts it.
 */
export declare function loadEvalConfigJson(input: string, options: string): Json<Envelope<EvalConfig> | ToExtras>;

/**
 * `validateEvalConfig`: `{"ok", "errors", "warnings"}` (never an envelope); an
 * agents-cli config is answered `{"extras":true}`.
 */
export declare function validateEvalConfigJson(input: string, options: string): Json<ValidationReport | ToExtras>;

/**
 * `setLimits(update)`: `{maxTextBytes?, maxParseBytes?, maxReplyBytes?,
 * maxIdBytes?}` JSON ("" to read); answers the limits in force.
 */
export declare function setLimitsJson(update: string): Json<Envelope<Limits>>;

/**
 * `rouge1(candidate, reference)`: `[precision, recall, fmeasure]`.
 */
export declare function rouge1(candidate: string, reference: string): Float64Array;

/**
 * Where the ROUGE-1 overlap falls in each text
 * (`text::highlight::rouge1_spans_flat`'s layout).
 */
export declare function rouge1Spans(candidate: string, reference: string): Uint32Array;

/**
 * `rouge1Batch`: every candidate and reference concatenated (c0, r0, c1, r1,
 * ...) with their UTF-16 lengths; `[p, r, f, ...]`, or empty when the lengths
 * do not fit (the JS skin builds both, so that cannot happen through it).
 */
export declare function rouge1Batch(joined: string, utf16Lens: Uint32Array): Float64Array;

/**
 * `evaluateInvocations(args)` without a judge: the JSON texts of
 * `args.evalCase` and `args.actual` (each absent when left out) and the rest of
 * args as one JSON object, so the two large members cross as they are.
 */
export declare function evaluateInvocationsJson(evalCase: string | undefined, actual: string | undefined, rest: string): Json<Envelope<EvalCaseResult>>;

/**
 * Every metric the core knows, from its registry (see `api::metrics_info`).
 */
export declare function metricsInfoJson(): Json<MetricInfo[]>;

/**
 * The crate version, for diagnostics.
 */
export declare function coreVersion(): string;

/**
 * `loadEvalSetResult`: JSON text (ADK 2.x, 1.x double-encoded or ours);
 * `options` is `{"runSummary"?: bool}` JSON or "".
 */
export declare function loadEvalSetResultJson(input: string, options: string): Json<Envelope<EvalSetResult>>;

/**
 * `loadEvalSetResult` for UTF-8 bytes (a file as Node reads it).
 */
export declare function loadEvalSetResultBytes(input: Uint8Array, options: string): Json<Envelope<EvalSetResult>>;

/**
 * An EvalSetResult as the text ADK 2.13 writes to its eval history.
 */
export declare function formatEvalSetResultJson(input: string): Json<Envelope<string>>;

/**
 * An eval set as ADK writes its files (`compact`: only non-null, non-default
 * fields).
 */
export declare function formatEvalSetFileJson(input: string, compact: boolean): Json<Envelope<string>>;

/**
 * ADK's snake_case JSON as its dev server answers it (camelCase, no nulls).
 */
export declare function adkApiJson(input: string): Json<Envelope<unknown>>;

/**
 * A recorded session's events as ADK Invocations.
 */
export declare function sessionInvocationsJson(input: string): Json<Envelope<Invocation[]>>;

/**
 * Python's text of a JSON value: `form` "repr" (`repr()` of `json.loads`) or
 * "json" (`json.dumps(sort_keys=True)`).
 */
export declare function pythonTextJson(input: string, form: string): Json<Envelope<string>>;

/**
 * `repr(x)` of a Python float (`1.0`, `1e-05`, `nan`).
 */
export declare function pythonFloat(x: number): string;

/**
 * An eval status (a name or ADK's integer, as JSON) as its name.
 */
export declare function evalStatusJson(input: string): Json<Envelope<EvalStatus>>;

/**
 * Any JSON text as bytes, read by the core's parser (its depth and size rules)
 * and written back compactly, so the host's own `JSON.parse` only sees text the
 * core has bounded.
 */
export declare function parseJsonBytes(input: Uint8Array): Json<Envelope<unknown>>;

/**
 * Test hook, not API: grows the heap by `mib` MiB, then traps (`unreachable`),
 * so the JS skin's trap recovery can be tested deterministically.
 */
export declare function __trapForTesting(mib: number): never;

/**
 * `formatReport(results, options)`: ADK's console summary (with
 * `{"detailed": true}` also the per-case detailed output) of EvalCaseResults.
 */
export declare function formatReportJson(results: string, options: string): Json<Envelope<string>>;
