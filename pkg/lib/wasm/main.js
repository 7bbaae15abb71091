// Generated from src/wasm/table.rs by tests/exports.rs (scripts/build.sh writes it;
// `cargo test` fails when it is stale). Do not edit: change the table's row instead.
//
// The main module's exports. Each function calls the live instance; `on` calls one on a
// given instance's glue (what the instance's own helpers and the async calls hold).
import { callSync } from '../instance.js';

/** Each export called on the glue `g` of a given instance. */
export const on = Object.freeze({
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
});

/**
 * `loadEvalSet` for JSON text; `options` is `{"id"?, "sessionInput"?}` JSON or "".
 * An agents-cli dataset, a legacy list or an @iqai/adk set is answered
 * `{"extras":true}`: the extras module reads it.
 */
export const loadEvalSetJson = (input, options) => callSync((g) => g.loadEvalSetJson(input, options));

/**
 * `loadEvalSet` for UTF-8 bytes (a file as Node reads it): no UTF-16 copy.
 */
export const loadEvalSetBytes = (input, options) => callSync((g) => g.loadEvalSetBytes(input, options));

/**
 * `validateEvalSet` for JSON text: `{"ok", "errors"}` (never an envelope), or
 * `{"extras":true}` for a dataset, legacy or @iqai/adk text.
 */
export const validateEvalSetJson = (input) => callSync((g) => g.validateEvalSetJson(input));

/**
 * `validateEvalSet` for UTF-8 bytes.
 */
export const validateEvalSetBytes = (input) => callSync((g) => g.validateEvalSetBytes(input));

/**
 * `loadEvalConfig`: JSON text ("" or "null" gives ADK's default criteria);
 * `options` is `{"strict"?: bool}` JSON or "". An agents-cli config is
 * answered `{"extras":true}`: the extras module converts it.
 */
export const loadEvalConfigJson = (input, options) => callSync((g) => g.loadEvalConfigJson(input, options));

/**
 * `validateEvalConfig`: `{"ok", "errors", "warnings"}` (never an envelope); an
 * agents-cli config is answered `{"extras":true}`.
 */
export const validateEvalConfigJson = (input, options) => callSync((g) => g.validateEvalConfigJson(input, options));

/**
 * `setLimits(update)`: `{maxTextBytes?, maxParseBytes?, maxReplyBytes?,
 * maxIdBytes?}` JSON ("" to read); answers the limits in force.
 */
export const setLimitsJson = (update) => callSync((g) => g.setLimitsJson(update));

/**
 * `rouge1(candidate, reference)`: `[precision, recall, fmeasure]`.
 */
export const rouge1 = (candidate, reference) => callSync((g) => g.rouge1(candidate, reference));

/**
 * Where the ROUGE-1 overlap falls in each text
 * (`text::highlight::rouge1_spans_flat`'s layout).
 */
export const rouge1Spans = (candidate, reference) => callSync((g) => g.rouge1Spans(candidate, reference));

/**
 * `rouge1Batch`: every candidate and reference concatenated (c0, r0, c1, r1,
 * ...) with their UTF-16 lengths; `[p, r, f, ...]`, or empty when the lengths
 * do not fit (the JS skin builds both, so that cannot happen through it).
 */
export const rouge1Batch = (joined, utf16Lens) => callSync((g) => g.rouge1Batch(joined, utf16Lens));

/**
 * `evaluateInvocations(args)` without a judge: the JSON texts of
 * `args.evalCase` and `args.actual` (each absent when left out) and the rest of
 * args as one JSON object, so the two large members cross as they are.
 */
export const evaluateInvocationsJson = (evalCase, actual, rest) => callSync((g) => g.evaluateInvocationsJson(evalCase, actual, rest));

/**
 * Every metric the core knows, from its registry (see `api::metrics_info`).
 */
export const metricsInfoJson = () => callSync((g) => g.metricsInfoJson());

/**
 * The crate version, for diagnostics.
 */
export const coreVersion = () => callSync((g) => g.coreVersion());

/**
 * `loadEvalSetResult`: JSON text (ADK 2.x, 1.x double-encoded or ours);
 * `options` is `{"runSummary"?: bool}` JSON or "".
 */
export const loadEvalSetResultJson = (input, options) => callSync((g) => g.loadEvalSetResultJson(input, options));

/**
 * `loadEvalSetResult` for UTF-8 bytes (a file as Node reads it).
 */
export const loadEvalSetResultBytes = (input, options) => callSync((g) => g.loadEvalSetResultBytes(input, options));

/**
 * An EvalSetResult as the text ADK 2.13 writes to its eval history.
 */
export const formatEvalSetResultJson = (input) => callSync((g) => g.formatEvalSetResultJson(input));

/**
 * An eval set as ADK writes its files (`compact`: only non-null, non-default
 * fields).
 */
export const formatEvalSetFileJson = (input, compact) => callSync((g) => g.formatEvalSetFileJson(input, compact));

/**
 * ADK's snake_case JSON as its dev server answers it (camelCase, no nulls).
 */
export const adkApiJson = (input) => callSync((g) => g.adkApiJson(input));

/**
 * A recorded session's events as ADK Invocations.
 */
export const sessionInvocationsJson = (input) => callSync((g) => g.sessionInvocationsJson(input));

/**
 * Python's text of a JSON value: `form` "repr" (`repr()` of `json.loads`) or
 * "json" (`json.dumps(sort_keys=True)`).
 */
export const pythonTextJson = (input, form) => callSync((g) => g.pythonTextJson(input, form));

/**
 * `repr(x)` of a Python float (`1.0`, `1e-05`, `nan`).
 */
export const pythonFloat = (x) => callSync((g) => g.pythonFloat(x));

/**
 * An eval status (a name or ADK's integer, as JSON) as its name.
 */
export const evalStatusJson = (input) => callSync((g) => g.evalStatusJson(input));

/**
 * Any JSON text as bytes, read by the core's parser (its depth and size rules)
 * and written back compactly, so the host's own `JSON.parse` only sees text the
 * core has bounded.
 */
export const parseJsonBytes = (input) => callSync((g) => g.parseJsonBytes(input));

/**
 * Test hook, not API: grows the heap by `mib` MiB, then traps (`unreachable`),
 * so the JS skin's trap recovery can be tested deterministically.
 */
export const __trapForTesting = (mib) => callSync((g) => g.__trapForTesting(mib));

/**
 * `formatReport(results, options)`: ADK's console summary (with
 * `{"detailed": true}` also the per-case detailed output) of EvalCaseResults.
 */
export const formatReportJson = (results, options) => callSync((g) => g.formatReportJson(results, options));
