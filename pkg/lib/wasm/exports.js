// Generated from src/wasm/table.rs by tests/exports.rs (scripts/build.sh writes it;
// `cargo test` fails when it is stale). Do not edit: change the table's row instead.
//
// One object per wasm module, one function per export: the only JS that calls an export. A
// module's `on` calls one on a given instance's glue (what the instance's own helpers and the
// async calls hold).
import { callExtras, callSync } from './instance.js';

/** The main module's exports (the scoring path): each calls the live instance. */
export const main = Object.freeze({
  /**
   * `loadEvalSet` for JSON text; `options` is `{"id"?, "sessionInput"?}` JSON or "".
   * An agents-cli dataset, a legacy list or an @iqai/adk set is answered
   * `{"extras":true}`: the extras module reads it.
   */
  loadEvalSetJson: (input, options) => callSync((g) => g.loadEvalSetJson(input, options)),
  /**
   * `loadEvalSet` for UTF-8 bytes (a file as Node reads it): no UTF-16 copy.
   */
  loadEvalSetBytes: (input, options) => callSync((g) => g.loadEvalSetBytes(input, options)),
  /**
   * `validateEvalSet` for JSON text: `{"ok", "errors"}` (never an envelope), or
   * `{"extras":true}` for a dataset, legacy or @iqai/adk text.
   */
  validateEvalSetJson: (input) => callSync((g) => g.validateEvalSetJson(input)),
  /**
   * `validateEvalSet` for UTF-8 bytes.
   */
  validateEvalSetBytes: (input) => callSync((g) => g.validateEvalSetBytes(input)),
  /**
   * `loadEvalConfig`: JSON text ("" or "null" gives ADK's default criteria);
   * `options` is `{"strict"?: bool}` JSON or "". An agents-cli config is
   * answered `{"extras":true}`: the extras module converts it.
   */
  loadEvalConfigJson: (input, options) => callSync((g) => g.loadEvalConfigJson(input, options)),
  /**
   * `validateEvalConfig`: `{"ok", "errors", "warnings"}` (never an envelope); an
   * agents-cli config is answered `{"extras":true}`.
   */
  validateEvalConfigJson: (input, options) => callSync((g) => g.validateEvalConfigJson(input, options)),
  /**
   * `setLimits(update)`: `{maxTextBytes?, maxParseBytes?, maxReplyBytes?,
   * maxIdBytes?}` JSON ("" to read); answers the limits in force.
   */
  setLimitsJson: (update) => callSync((g) => g.setLimitsJson(update)),
  /**
   * `rouge1(candidate, reference)`: `[precision, recall, fmeasure]`.
   */
  rouge1: (candidate, reference) => callSync((g) => g.rouge1(candidate, reference)),
  /**
   * Where the ROUGE-1 overlap falls in each text
   * (`text::highlight::rouge1_spans_flat`'s layout).
   */
  rouge1Spans: (candidate, reference) => callSync((g) => g.rouge1Spans(candidate, reference)),
  /**
   * `rouge1Batch`: every candidate and reference concatenated (c0, r0, c1, r1,
   * ...) with their UTF-16 lengths; `[p, r, f, ...]`, or empty when the lengths
   * do not fit (the JS skin builds both, so that cannot happen through it).
   */
  rouge1Batch: (joined, utf16Lens) => callSync((g) => g.rouge1Batch(joined, utf16Lens)),
  /**
   * `evaluateInvocations(args)` without a judge: the JSON texts of
   * `args.evalCase` and `args.actual` (each absent when left out) and the rest of
   * args as one JSON object, so the two large members cross as they are.
   */
  evaluateInvocationsJson: (evalCase, actual, rest) => callSync((g) => g.evaluateInvocationsJson(evalCase, actual, rest)),
  /**
   * Every metric the core knows, from its registry (see `api::metrics_info`).
   */
  metricsInfoJson: () => callSync((g) => g.metricsInfoJson()),
  /**
   * The crate version, for diagnostics.
   */
  coreVersion: () => callSync((g) => g.coreVersion()),
  /**
   * `loadEvalSetResult`: JSON text (ADK 2.x, 1.x double-encoded or ours);
   * `options` is `{"runSummary"?: bool}` JSON or "".
   */
  loadEvalSetResultJson: (input, options) => callSync((g) => g.loadEvalSetResultJson(input, options)),
  /**
   * `loadEvalSetResult` for UTF-8 bytes (a file as Node reads it).
   */
  loadEvalSetResultBytes: (input, options) => callSync((g) => g.loadEvalSetResultBytes(input, options)),
  /**
   * An EvalSetResult as the text ADK 2.13 writes to its eval history.
   */
  formatEvalSetResultJson: (input) => callSync((g) => g.formatEvalSetResultJson(input)),
  /**
   * An eval set as ADK writes its files (`compact`: only non-null, non-default
   * fields).
   */
  formatEvalSetFileJson: (input, compact) => callSync((g) => g.formatEvalSetFileJson(input, compact)),
  /**
   * ADK's snake_case JSON as its dev server answers it (camelCase, no nulls).
   */
  adkApiJson: (input) => callSync((g) => g.adkApiJson(input)),
  /**
   * A recorded session's events as ADK Invocations.
   */
  sessionInvocationsJson: (input) => callSync((g) => g.sessionInvocationsJson(input)),
  /**
   * Python's text of a JSON value: `form` "repr" (`repr()` of `json.loads`) or
   * "json" (`json.dumps(sort_keys=True)`).
   */
  pythonTextJson: (input, form) => callSync((g) => g.pythonTextJson(input, form)),
  /**
   * `repr(x)` of a Python float (`1.0`, `1e-05`, `nan`).
   */
  pythonFloat: (x) => callSync((g) => g.pythonFloat(x)),
  /**
   * An eval status (a name or ADK's integer, as JSON) as its name.
   */
  evalStatusJson: (input) => callSync((g) => g.evalStatusJson(input)),
  /**
   * Any JSON text as bytes, read by the core's parser (its depth and size rules)
   * and written back compactly, so the host's own `JSON.parse` only sees text the
   * core has bounded.
   */
  parseJsonBytes: (input) => callSync((g) => g.parseJsonBytes(input)),
  /**
   * Test hook, not API: grows the heap by `mib` MiB, then traps (`unreachable`),
   * so the JS skin's trap recovery can be tested deterministically.
   */
  __trapForTesting: (mib) => callSync((g) => g.__trapForTesting(mib)),
  /**
   * `formatReport(results, options)`: ADK's console summary (with
   * `{"detailed": true}` also the per-case detailed output) of EvalCaseResults.
   */
  formatReportJson: (results, options) => callSync((g) => g.formatReportJson(results, options)),
  /** Each export called on the glue `g` of a given instance. */
  on: Object.freeze({
    loadEvalSetJson: (g, input, options) => g.loadEvalSetJson(input, options),
    loadEvalSetBytes: (g, input, options) => g.loadEvalSetBytes(input, options),
    validateEvalSetJson: (g, input) => g.validateEvalSetJson(input),
    validateEvalSetBytes: (g, input) => g.validateEvalSetBytes(input),
    loadEvalConfigJson: (g, input, options) => g.loadEvalConfigJson(input, options),
    validateEvalConfigJson: (g, input, options) => g.validateEvalConfigJson(input, options),
    setLimitsJson: (g, update) => g.setLimitsJson(update),
    rouge1: (g, candidate, reference) => g.rouge1(candidate, reference),
    rouge1Spans: (g, candidate, reference) => g.rouge1Spans(candidate, reference),
    rouge1Batch: (g, joined, utf16Lens) => g.rouge1Batch(joined, utf16Lens),
    evaluateInvocationsJson: (g, evalCase, actual, rest) => g.evaluateInvocationsJson(evalCase, actual, rest),
    evaluateInvocationsAsync: (g, evalCase, actual, rest, judge, host) => g.evaluateInvocationsAsync(evalCase, actual, rest, judge, host),
    planJudgeCallsAsync: (g, evalCase, actual, rest, judge, host) => g.planJudgeCallsAsync(evalCase, actual, rest, judge, host),
    evaluateAsync: (g, args, judge, host) => g.evaluateAsync(args, judge, host),
    metricsInfoJson: (g) => g.metricsInfoJson(),
    coreVersion: (g) => g.coreVersion(),
    loadEvalSetResultJson: (g, input, options) => g.loadEvalSetResultJson(input, options),
    loadEvalSetResultBytes: (g, input, options) => g.loadEvalSetResultBytes(input, options),
    formatEvalSetResultJson: (g, input) => g.formatEvalSetResultJson(input),
    formatEvalSetFileJson: (g, input, compact) => g.formatEvalSetFileJson(input, compact),
    adkApiJson: (g, input) => g.adkApiJson(input),
    sessionInvocationsJson: (g, input) => g.sessionInvocationsJson(input),
    pythonTextJson: (g, input, form) => g.pythonTextJson(input, form),
    pythonFloat: (g, x) => g.pythonFloat(x),
    evalStatusJson: (g, input) => g.evalStatusJson(input),
    parseJsonBytes: (g, input) => g.parseJsonBytes(input),
    __trapForTesting: (g, mib) => g.__trapForTesting(mib),
    __trapForTestingAsync: (g, mib) => g.__trapForTestingAsync(mib),
    formatReportJson: (g, results, options) => g.formatReportJson(results, options),
    preparedCaseFromJson: (g, evalCase, actual, rest) => g.PreparedCase.fromJson(evalCase, actual, rest),
    preparedCaseEvaluateJson: (handle, config, options) => handle.evaluateJson(config, options),
  }),
});

/** The extras module's exports (loaded on first use): each calls the live instance. */
export const extras = Object.freeze({
  /**
   * The extras module's copy of the main module's limits (the package passes
   * them on before each call).
   */
  setLimitsJson: (update) => callExtras((g) => g.setLimitsJson(update)),
  /**
   * `compareRuns` of the two sides' results (the core's model).
   */
  compareRunsJson: (input, options) => callExtras((g) => g.compareRunsJson(input, options)),
  /**
   * `runTrend` of a list of results (the core's model).
   */
  runTrendJson: (input) => callExtras((g) => g.runTrendJson(input)),
  /**
   * The agreement numbers of `calibrate` (`api::compare::stats`: `kind` selects
   * the function, `a` and `b` its numbers).
   */
  statsF64: (kind, a, b) => callExtras((g) => g.statsF64(kind, a, b)),
  /**
   * `loadEvalSet` of what the main module hands over (an agents-cli dataset, a
   * legacy or @iqai/adk eval set), for UTF-8 bytes.
   */
  loadOtherEvalSetBytes: (input, options) => callExtras((g) => g.loadOtherEvalSetBytes(input, options)),
  /**
   * `validateEvalSet` of what the main module hands over, for UTF-8 bytes.
   */
  validateOtherEvalSetBytes: (input) => callExtras((g) => g.validateOtherEvalSetBytes(input)),
  /**
   * `loadEvaluationDataset` for UTF-8 bytes: an agents-cli dataset (or any eval
   * set) as `{eval_set, actual, grading, inference}`.
   */
  loadEvaluationDatasetBytes: (input, options) => callExtras((g) => g.loadEvaluationDatasetBytes(input, options)),
  /**
   * `toEvaluationDataset({evalSet, actual?})`: the agents-cli dataset.
   */
  toEvaluationDatasetJson: (args) => callExtras((g) => g.toEvaluationDatasetJson(args)),
  /**
   * ADK's eval id of a conversation scenario (JSON).
   */
  scenarioEvalIdJson: (input) => callExtras((g) => g.scenarioEvalIdJson(input)),
  /**
   * `loadEvalConfig` of what the main module hands over (an agents-cli config).
   */
  loadAgentsCliConfigJson: (input, options) => callExtras((g) => g.loadAgentsCliConfigJson(input, options)),
  /**
   * `validateEvalConfig` of what the main module hands over.
   */
  validateAgentsCliConfigJson: (input, options) => callExtras((g) => g.validateAgentsCliConfigJson(input, options)),
  /**
   * `loadTraces(inputs, options)`: the inputs' bytes joined, with each one's
   * length (OTLP/JSON text or protobuf); `options` is `{"sessionIds"?}` or "".
   */
  loadTracesBytes: (joined, lens, options) => callExtras((g) => g.loadTracesBytes(joined, lens, options)),
  /**
   * `tracesToEvalSet(inputs, options)`: as `loadTracesBytes`; `options` is
   * `{"evalSetId", "sessionIds"?, "text"?}`.
   */
  tracesToEvalSetBytes: (joined, lens, options) => callExtras((g) => g.tracesToEvalSetBytes(joined, lens, options)),
  /**
   * `traceIndex(inputs)`: as `loadTracesBytes`, without options.
   */
  traceIndexBytes: (joined, lens) => callExtras((g) => g.traceIndexBytes(joined, lens)),
  /** Each export called on the glue `g` of a given instance. */
  on: Object.freeze({
    setLimitsJson: (g, update) => g.setLimitsJson(update),
    compareRunsJson: (g, input, options) => g.compareRunsJson(input, options),
    runTrendJson: (g, input) => g.runTrendJson(input),
    statsF64: (g, kind, a, b) => g.statsF64(kind, a, b),
    loadOtherEvalSetBytes: (g, input, options) => g.loadOtherEvalSetBytes(input, options),
    validateOtherEvalSetBytes: (g, input) => g.validateOtherEvalSetBytes(input),
    loadEvaluationDatasetBytes: (g, input, options) => g.loadEvaluationDatasetBytes(input, options),
    toEvaluationDatasetJson: (g, args) => g.toEvaluationDatasetJson(args),
    scenarioEvalIdJson: (g, input) => g.scenarioEvalIdJson(input),
    loadAgentsCliConfigJson: (g, input, options) => g.loadAgentsCliConfigJson(input, options),
    validateAgentsCliConfigJson: (g, input, options) => g.validateAgentsCliConfigJson(input, options),
    loadTracesBytes: (g, joined, lens, options) => g.loadTracesBytes(joined, lens, options),
    tracesToEvalSetBytes: (g, joined, lens, options) => g.tracesToEvalSetBytes(joined, lens, options),
    traceIndexBytes: (g, joined, lens) => g.traceIndexBytes(joined, lens),
  }),
});
