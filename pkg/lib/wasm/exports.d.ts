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
/** The object the run loop's async exports call back (pkg/lib/wasm/host.js makes it). */
export type CoreHost = object;
/** An instance's glue: the module's raw exports, as wasm-bindgen made them. */
export type Glue = Record<string, any>;

/**
 * A case parsed once and scored many times (different configs) without
 * re-parsing.
 */
export type PreparedCaseHandle = { free(): void };

export declare const main: {
  /**
   * `loadEvalSet` for JSON text; `options` is `{"id"?, "sessionInput"?}` JSON or "".
   * An agents-cli dataset, a legacy list or an @iqai/adk set is answered
   * `{"extras":true}`: the extras module reads it.
   */
  loadEvalSetJson(input: string, options: string): Json<Envelope<EvalSet> | ToExtras>;
  /**
   * `loadEvalSet` for UTF-8 bytes (a file as Node reads it): no UTF-16 copy.
   */
  loadEvalSetBytes(input: Uint8Array, options: string): Json<Envelope<EvalSet> | ToExtras>;
  /**
   * `validateEvalSet` for JSON text: `{"ok", "errors"}` (never an envelope), or
   * `{"extras":true}` for a dataset, legacy or @iqai/adk text.
   */
  validateEvalSetJson(input: string): Json<ValidationReport | ToExtras>;
  /**
   * `validateEvalSet` for UTF-8 bytes.
   */
  validateEvalSetBytes(input: Uint8Array): Json<ValidationReport | ToExtras>;
  /**
   * `loadEvalConfig`: JSON text ("" or "null" gives ADK's default criteria);
   * `options` is `{"strict"?: bool}` JSON or "". An agents-cli config is
   * answered `{"extras":true}`: the extras module converts it.
   */
  loadEvalConfigJson(input: string, options: string): Json<Envelope<EvalConfig> | ToExtras>;
  /**
   * `validateEvalConfig`: `{"ok", "errors", "warnings"}` (never an envelope); an
   * agents-cli config is answered `{"extras":true}`.
   */
  validateEvalConfigJson(input: string, options: string): Json<ValidationReport | ToExtras>;
  /**
   * `setLimits(update)`: `{maxTextBytes?, maxParseBytes?, maxReplyBytes?,
   * maxIdBytes?}` JSON ("" to read); answers the limits in force.
   */
  setLimitsJson(update: string): Json<Envelope<Limits>>;
  /**
   * `rouge1(candidate, reference)`: `[precision, recall, fmeasure]`.
   */
  rouge1(candidate: string, reference: string): Float64Array;
  /**
   * Where the ROUGE-1 overlap falls in each text
   * (`text::highlight::rouge1_spans_flat`'s layout).
   */
  rouge1Spans(candidate: string, reference: string): Uint32Array;
  /**
   * `rouge1Batch`: every candidate and reference concatenated (c0, r0, c1, r1,
   * ...) with their UTF-16 lengths; `[p, r, f, ...]`, or empty when the lengths
   * do not fit (the JS skin builds both, so that cannot happen through it).
   */
  rouge1Batch(joined: string, utf16Lens: Uint32Array): Float64Array;
  /**
   * `evaluateInvocations(args)` without a judge: the JSON texts of
   * `args.evalCase` and `args.actual` (each absent when left out) and the rest of
   * args as one JSON object, so the two large members cross as they are.
   */
  evaluateInvocationsJson(evalCase: string | undefined, actual: string | undefined, rest: string): Json<Envelope<EvalCaseResult>>;
  /**
   * Every metric the core knows, from its registry (see `api::metrics_info`).
   */
  metricsInfoJson(): Json<MetricInfo[]>;
  /**
   * The crate version, for diagnostics.
   */
  coreVersion(): string;
  /**
   * `loadEvalSetResult`: JSON text (ADK 2.x, 1.x double-encoded or ours);
   * `options` is `{"runSummary"?: bool}` JSON or "".
   */
  loadEvalSetResultJson(input: string, options: string): Json<Envelope<EvalSetResult>>;
  /**
   * `loadEvalSetResult` for UTF-8 bytes (a file as Node reads it).
   */
  loadEvalSetResultBytes(input: Uint8Array, options: string): Json<Envelope<EvalSetResult>>;
  /**
   * An EvalSetResult as the text ADK 2.13 writes to its eval history.
   */
  formatEvalSetResultJson(input: string): Json<Envelope<string>>;
  /**
   * An eval set as ADK writes its files (`compact`: only non-null, non-default
   * fields).
   */
  formatEvalSetFileJson(input: string, compact: boolean): Json<Envelope<string>>;
  /**
   * ADK's snake_case JSON as its dev server answers it (camelCase, no nulls).
   */
  adkApiJson(input: string): Json<Envelope<unknown>>;
  /**
   * A recorded session's events as ADK Invocations.
   */
  sessionInvocationsJson(input: string): Json<Envelope<Invocation[]>>;
  /**
   * Python's text of a JSON value: `form` "repr" (`repr()` of `json.loads`) or
   * "json" (`json.dumps(sort_keys=True)`).
   */
  pythonTextJson(input: string, form: string): Json<Envelope<string>>;
  /**
   * `repr(x)` of a Python float (`1.0`, `1e-05`, `nan`).
   */
  pythonFloat(x: number): string;
  /**
   * An eval status (a name or ADK's integer, as JSON) as its name.
   */
  evalStatusJson(input: string): Json<Envelope<EvalStatus>>;
  /**
   * Any JSON text as bytes, read by the core's parser (its depth and size rules)
   * and written back compactly, so the host's own `JSON.parse` only sees text the
   * core has bounded.
   */
  parseJsonBytes(input: Uint8Array): Json<Envelope<unknown>>;
  /**
   * Test hook, not API: grows the heap by `mib` MiB, then traps (`unreachable`),
   * so the JS skin's trap recovery can be tested deterministically.
   */
  __trapForTesting(mib: number): never;
  /**
   * `formatReport(results, options)`: ADK's console summary (with
   * `{"detailed": true}` also the per-case detailed output) of EvalCaseResults.
   */
  formatReportJson(results: string, options: string): Json<Envelope<string>>;
  /** Each export called on the glue `g` of a given instance. */
  readonly on: {
    loadEvalSetJson(g: Glue, input: string, options: string): Json<Envelope<EvalSet> | ToExtras>;
    loadEvalSetBytes(g: Glue, input: Uint8Array, options: string): Json<Envelope<EvalSet> | ToExtras>;
    validateEvalSetJson(g: Glue, input: string): Json<ValidationReport | ToExtras>;
    validateEvalSetBytes(g: Glue, input: Uint8Array): Json<ValidationReport | ToExtras>;
    loadEvalConfigJson(g: Glue, input: string, options: string): Json<Envelope<EvalConfig> | ToExtras>;
    validateEvalConfigJson(g: Glue, input: string, options: string): Json<ValidationReport | ToExtras>;
    setLimitsJson(g: Glue, update: string): Json<Envelope<Limits>>;
    rouge1(g: Glue, candidate: string, reference: string): Float64Array;
    rouge1Spans(g: Glue, candidate: string, reference: string): Uint32Array;
    rouge1Batch(g: Glue, joined: string, utf16Lens: Uint32Array): Float64Array;
    evaluateInvocationsJson(g: Glue, evalCase: string | undefined, actual: string | undefined, rest: string): Json<Envelope<EvalCaseResult>>;
    evaluateInvocationsAsync(g: Glue, evalCase: string | undefined, actual: string | undefined, rest: string, judge: string, host: CoreHost): Promise<Json<Envelope<EvalCaseResult>>>;
    planJudgeCallsAsync(g: Glue, evalCase: string | undefined, actual: string | undefined, rest: string, judge: string, host: CoreHost): Promise<Json<Envelope<JudgePlan>>>;
    evaluateAsync(g: Glue, args: string, judge: string, host: CoreHost): Promise<Json<Envelope<EvalSetResult>>>;
    metricsInfoJson(g: Glue): Json<MetricInfo[]>;
    coreVersion(g: Glue): string;
    loadEvalSetResultJson(g: Glue, input: string, options: string): Json<Envelope<EvalSetResult>>;
    loadEvalSetResultBytes(g: Glue, input: Uint8Array, options: string): Json<Envelope<EvalSetResult>>;
    formatEvalSetResultJson(g: Glue, input: string): Json<Envelope<string>>;
    formatEvalSetFileJson(g: Glue, input: string, compact: boolean): Json<Envelope<string>>;
    adkApiJson(g: Glue, input: string): Json<Envelope<unknown>>;
    sessionInvocationsJson(g: Glue, input: string): Json<Envelope<Invocation[]>>;
    pythonTextJson(g: Glue, input: string, form: string): Json<Envelope<string>>;
    pythonFloat(g: Glue, x: number): string;
    evalStatusJson(g: Glue, input: string): Json<Envelope<EvalStatus>>;
    parseJsonBytes(g: Glue, input: Uint8Array): Json<Envelope<unknown>>;
    __trapForTesting(g: Glue, mib: number): never;
    __trapForTestingAsync(g: Glue, mib: number): Promise<never>;
    formatReportJson(g: Glue, results: string, options: string): Json<Envelope<string>>;
    preparedCaseFromJson(g: Glue, evalCase: string | undefined, actual: string | undefined, rest: string): PreparedCaseHandle;
    preparedCaseEvaluateJson(handle: PreparedCaseHandle, config: string, options: string): Json<Envelope<EvalCaseResult>>;
  };
};

export declare const extras: {
  /**
   * The extras module's copy of the main module's limits (the package passes
   * them on before each call).
   */
  setLimitsJson(update: string): Json<Envelope<Limits>>;
  /**
   * `compareRuns` of the two sides' results (the core's model).
   */
  compareRunsJson(input: string, options: string): Json<Envelope<Comparison>>;
  /**
   * `runTrend` of a list of results (the core's model).
   */
  runTrendJson(input: string): Json<Envelope<RunTrend>>;
  /**
   * The agreement numbers of `calibrate` (`api::compare::stats`: `kind` selects
   * the function, `a` and `b` its numbers).
   */
  statsF64(kind: number, a: Float64Array, b: Float64Array): Float64Array;
  /**
   * `loadEvalSet` of what the main module hands over (an agents-cli dataset, a
   * legacy or @iqai/adk eval set), for UTF-8 bytes.
   */
  loadOtherEvalSetBytes(input: Uint8Array, options: string): Json<Envelope<EvalSet>>;
  /**
   * `validateEvalSet` of what the main module hands over, for UTF-8 bytes.
   */
  validateOtherEvalSetBytes(input: Uint8Array): Json<ValidationReport>;
  /**
   * `loadEvaluationDataset` for UTF-8 bytes: an agents-cli dataset (or any eval
   * set) as `{eval_set, actual, grading, inference}`.
   */
  loadEvaluationDatasetBytes(input: Uint8Array, options: string): Json<Envelope<LoadedDataset>>;
  /**
   * `toEvaluationDataset({evalSet, actual?})`: the agents-cli dataset.
   */
  toEvaluationDatasetJson(args: string): Json<Envelope<EvaluationDataset>>;
  /**
   * ADK's eval id of a conversation scenario (JSON).
   */
  scenarioEvalIdJson(input: string): Json<Envelope<string>>;
  /**
   * `loadEvalConfig` of what the main module hands over (an agents-cli config).
   */
  loadAgentsCliConfigJson(input: string, options: string): Json<Envelope<EvalConfig>>;
  /**
   * `validateEvalConfig` of what the main module hands over.
   */
  validateAgentsCliConfigJson(input: string, options: string): Json<ValidationReport>;
  /**
   * `loadTraces(inputs, options)`: the inputs' bytes joined, with each one's
   * length (OTLP/JSON text or protobuf); `options` is `{"sessionIds"?}` or "".
   */
  loadTracesBytes(joined: Uint8Array, lens: Uint32Array, options: string): Json<Envelope<LoadedTraces>>;
  /**
   * `tracesToEvalSet(inputs, options)`: as `loadTracesBytes`; `options` is
   * `{"evalSetId", "sessionIds"?, "text"?}`.
   */
  tracesToEvalSetBytes(joined: Uint8Array, lens: Uint32Array, options: string): Json<Envelope<ReturnType<typeof tracesToEvalSet>>>;
  /**
   * `traceIndex(inputs)`: as `loadTracesBytes`, without options.
   */
  traceIndexBytes(joined: Uint8Array, lens: Uint32Array): Json<Envelope<unknown>>;
  /** Each export called on the glue `g` of a given instance. */
  readonly on: {
    setLimitsJson(g: Glue, update: string): Json<Envelope<Limits>>;
    compareRunsJson(g: Glue, input: string, options: string): Json<Envelope<Comparison>>;
    runTrendJson(g: Glue, input: string): Json<Envelope<RunTrend>>;
    statsF64(g: Glue, kind: number, a: Float64Array, b: Float64Array): Float64Array;
    loadOtherEvalSetBytes(g: Glue, input: Uint8Array, options: string): Json<Envelope<EvalSet>>;
    validateOtherEvalSetBytes(g: Glue, input: Uint8Array): Json<ValidationReport>;
    loadEvaluationDatasetBytes(g: Glue, input: Uint8Array, options: string): Json<Envelope<LoadedDataset>>;
    toEvaluationDatasetJson(g: Glue, args: string): Json<Envelope<EvaluationDataset>>;
    scenarioEvalIdJson(g: Glue, input: string): Json<Envelope<string>>;
    loadAgentsCliConfigJson(g: Glue, input: string, options: string): Json<Envelope<EvalConfig>>;
    validateAgentsCliConfigJson(g: Glue, input: string, options: string): Json<ValidationReport>;
    loadTracesBytes(g: Glue, joined: Uint8Array, lens: Uint32Array, options: string): Json<Envelope<LoadedTraces>>;
    tracesToEvalSetBytes(g: Glue, joined: Uint8Array, lens: Uint32Array, options: string): Json<Envelope<ReturnType<typeof tracesToEvalSet>>>;
    traceIndexBytes(g: Glue, joined: Uint8Array, lens: Uint32Array): Json<Envelope<unknown>>;
  };
};
