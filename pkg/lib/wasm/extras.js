// Generated from src/wasm/table.rs by tests/exports.rs (scripts/build.sh writes it;
// `cargo test` fails when it is stale). Do not edit: change the table's row instead.
//
// The extras module's exports. Each function calls the live instance (loaded on first use); `on` calls one on a
// given instance's glue (what the instance's own helpers and the async calls hold).
import { callExtras } from '../instance.js';

/** Each export called on the glue `g` of a given instance. */
export const on = Object.freeze({
  setLimitsJson: (g, update) => g.setLimitsJson(update),
  statsF64: (g, kind, a, b) => g.statsF64(kind, a, b),
  loadEvalSetBytes: (g, input, options) => g.loadEvalSetBytes(input, options),
  validateEvalSetBytes: (g, input) => g.validateEvalSetBytes(input),
  loadEvaluationDatasetBytes: (g, input, options) => g.loadEvaluationDatasetBytes(input, options),
  toEvaluationDatasetJson: (g, args) => g.toEvaluationDatasetJson(args),
  formatReportJson: (g, results, options) => g.formatReportJson(results, options),
  scenarioEvalIdJson: (g, input) => g.scenarioEvalIdJson(input),
  loadEvalConfigJson: (g, input, options) => g.loadEvalConfigJson(input, options),
  validateEvalConfigJson: (g, input, options) => g.validateEvalConfigJson(input, options),
  loadTracesBytes: (g, joined, lens, options) => g.loadTracesBytes(joined, lens, options),
  tracesToEvalSetBytes: (g, joined, lens, options) => g.tracesToEvalSetBytes(joined, lens, options),
  traceIndexBytes: (g, joined, lens) => g.traceIndexBytes(joined, lens),
});

/**
 * The extras module's copy of the main module's limits (the package passes
 * them on before each call).
 */
export const setLimitsJson = (update) => callExtras((g) => g.setLimitsJson(update));

/**
 * The statistics of `compareRuns` and `calibrate` (`api::compare::stats`:
 * `kind` selects the function, `a` and `b` its numbers).
 */
export const statsF64 = (kind, a, b) => callExtras((g) => g.statsF64(kind, a, b));

/**
 * `loadEvalSet` of what the main module hands over (an agents-cli dataset, a
 * legacy or @iqai/adk eval set), for UTF-8 bytes.
 */
export const loadEvalSetBytes = (input, options) => callExtras((g) => g.loadEvalSetBytes(input, options));

/**
 * `validateEvalSet` of what the main module hands over, for UTF-8 bytes.
 */
export const validateEvalSetBytes = (input) => callExtras((g) => g.validateEvalSetBytes(input));

/**
 * `loadEvaluationDataset` for UTF-8 bytes: an agents-cli dataset (or any eval
 * set) as `{eval_set, actual, grading, inference}`.
 */
export const loadEvaluationDatasetBytes = (input, options) => callExtras((g) => g.loadEvaluationDatasetBytes(input, options));

/**
 * `toEvaluationDataset({evalSet, actual?})`: the agents-cli dataset.
 */
export const toEvaluationDatasetJson = (args) => callExtras((g) => g.toEvaluationDatasetJson(args));

/**
 * `formatReport(results, options)`: ADK's console summary (with
 * `{"detailed": true}` also the per-case detailed output) of EvalCaseResults.
 */
export const formatReportJson = (results, options) => callExtras((g) => g.formatReportJson(results, options));

/**
 * ADK's eval id of a conversation scenario (JSON).
 */
export const scenarioEvalIdJson = (input) => callExtras((g) => g.scenarioEvalIdJson(input));

/**
 * `loadEvalConfig` of what the main module hands over (an agents-cli config).
 */
export const loadEvalConfigJson = (input, options) => callExtras((g) => g.loadEvalConfigJson(input, options));

/**
 * `validateEvalConfig` of what the main module hands over.
 */
export const validateEvalConfigJson = (input, options) => callExtras((g) => g.validateEvalConfigJson(input, options));

/**
 * `loadTraces(inputs, options)`: the inputs' bytes joined, with each one's
 * length (OTLP/JSON text or protobuf); `options` is `{"sessionIds"?}` or "".
 */
export const loadTracesBytes = (joined, lens, options) => callExtras((g) => g.loadTracesBytes(joined, lens, options));

/**
 * `tracesToEvalSet(inputs, options)`: as `loadTracesBytes`; `options` is
 * `{"evalSetId", "sessionIds"?, "text"?}`.
 */
export const tracesToEvalSetBytes = (joined, lens, options) => callExtras((g) => g.tracesToEvalSetBytes(joined, lens, options));

/**
 * `traceIndex(inputs)`: as `loadTracesBytes`, without options.
 */
export const traceIndexBytes = (joined, lens) => callExtras((g) => g.traceIndexBytes(joined, lens));
