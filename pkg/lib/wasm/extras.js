// Generated from src/wasm/table.rs by tests/exports.rs (scripts/build.sh writes it;
// `cargo test` fails when it is stale). Do not edit: change the table's row instead.
//
// The extras module's exports. Each function calls the live instance (loaded on first use); `on` calls one on a
// given instance's glue (what the instance's own helpers and the async calls hold).
import { callExtras } from '../instance.js';

/** Each export called on the glue `g` of a given instance. */
export const on = Object.freeze({
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
});

/**
 * The extras module's copy of the main module's limits (the package passes
 * them on before each call).
 */
export const setLimitsJson = (update) => callExtras((g) => g.setLimitsJson(update));

/**
 * `compareRuns` of the two sides' results (the core's model).
 */
export const compareRunsJson = (input, options) => callExtras((g) => g.compareRunsJson(input, options));

/**
 * `runTrend` of a list of results (the core's model).
 */
export const runTrendJson = (input) => callExtras((g) => g.runTrendJson(input));

/**
 * The agreement numbers of `calibrate` (`api::compare::stats`: `kind` selects
 * the function, `a` and `b` its numbers).
 */
export const statsF64 = (kind, a, b) => callExtras((g) => g.statsF64(kind, a, b));

/**
 * `loadEvalSet` of what the main module hands over (an agents-cli dataset, a
 * legacy or @iqai/adk eval set), for UTF-8 bytes.
 */
export const loadOtherEvalSetBytes = (input, options) => callExtras((g) => g.loadOtherEvalSetBytes(input, options));

/**
 * `validateEvalSet` of what the main module hands over, for UTF-8 bytes.
 */
export const validateOtherEvalSetBytes = (input) => callExtras((g) => g.validateOtherEvalSetBytes(input));

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
 * ADK's eval id of a conversation scenario (JSON).
 */
export const scenarioEvalIdJson = (input) => callExtras((g) => g.scenarioEvalIdJson(input));

/**
 * `loadEvalConfig` of what the main module hands over (an agents-cli config).
 */
export const loadAgentsCliConfigJson = (input, options) => callExtras((g) => g.loadAgentsCliConfigJson(input, options));

/**
 * `validateEvalConfig` of what the main module hands over.
 */
export const validateAgentsCliConfigJson = (input, options) => callExtras((g) => g.validateAgentsCliConfigJson(input, options));

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
