// Generated from src/wasm/table.rs by tests/exports.rs (scripts/build.sh writes it;
// `cargo test` fails when it is stale). Do not edit: change the table's row instead.
import type { EvalSet, EvalSetResult, EvalCaseResult, Invocation, JudgePlan, LoadedTraces } from '../../model.js';
import type { EvalStatus } from '../../criteria.js';
import type { EvalConfig, Limits, LoadedDataset, EvaluationDataset, MetricInfo, tracesToEvalSet } from '../../index.js';
import type { Comparison, RunTrend } from '../../reports.js';
import type { Json, Envelope, ValidationReport, Glue } from './main.js';

/** Each export called on the glue `g` of a given instance. */
export declare const on: {
  /**
   * The extras module's copy of the main module's limits (the package passes
   * them on before each call).
   */
  setLimitsJson(g: Glue, update: string): Json<Envelope<Limits>>;
  /**
   * `compareRuns` of the two sides' results (the core's model).
   */
  compareRunsJson(g: Glue, input: string, options: string): Json<Envelope<Comparison>>;
  /**
   * `runTrend` of a list of results (the core's model).
   */
  runTrendJson(g: Glue, input: string): Json<Envelope<RunTrend>>;
  /**
   * The agreement numbers of `calibrate` (`api::compare::stats`: `kind` selects
   * the function, `a` and `b` its numbers).
   */
  statsF64(g: Glue, kind: number, a: Float64Array, b: Float64Array): Float64Array;
  /**
   * `loadEvalSet` of what the main module hands over (an agents-cli dataset, a
   * legacy or @iqai/adk eval set), for UTF-8 bytes.
   */
  loadOtherEvalSetBytes(g: Glue, input: Uint8Array, options: string): Json<Envelope<EvalSet>>;
  /**
   * `validateEvalSet` of what the main module hands over, for UTF-8 bytes.
   */
  validateOtherEvalSetBytes(g: Glue, input: Uint8Array): Json<ValidationReport>;
  /**
   * `loadEvaluationDataset` for UTF-8 bytes: an agents-cli dataset (or any eval
   * set) as `{eval_set, actual, grading, inference}`.
   */
  loadEvaluationDatasetBytes(g: Glue, input: Uint8Array, options: string): Json<Envelope<LoadedDataset>>;
  /**
   * `toEvaluationDataset({evalSet, actual?})`: the agents-cli dataset.
   */
  toEvaluationDatasetJson(g: Glue, args: string): Json<Envelope<EvaluationDataset>>;
  /**
   * ADK's eval id of a conversation scenario (JSON).
   */
  scenarioEvalIdJson(g: Glue, input: string): Json<Envelope<string>>;
  /**
   * `loadEvalConfig` of what the main module hands over (an agents-cli config).
   */
  loadAgentsCliConfigJson(g: Glue, input: string, options: string): Json<Envelope<EvalConfig>>;
  /**
   * `validateEvalConfig` of what the main module hands over.
   */
  validateAgentsCliConfigJson(g: Glue, input: string, options: string): Json<ValidationReport>;
  /**
   * `loadTraces(inputs, options)`: the inputs' bytes joined, with each one's
   * length (OTLP/JSON text or protobuf); `options` is `{"sessionIds"?}` or "".
   */
  loadTracesBytes(g: Glue, joined: Uint8Array, lens: Uint32Array, options: string): Json<Envelope<LoadedTraces>>;
  /**
   * `tracesToEvalSet(inputs, options)`: as `loadTracesBytes`; `options` is
   * `{"evalSetId", "sessionIds"?, "text"?}`.
   */
  tracesToEvalSetBytes(g: Glue, joined: Uint8Array, lens: Uint32Array, options: string): Json<Envelope<ReturnType<typeof tracesToEvalSet>>>;
  /**
   * `traceIndex(inputs)`: as `loadTracesBytes`, without options.
   */
  traceIndexBytes(g: Glue, joined: Uint8Array, lens: Uint32Array): Json<Envelope<unknown>>;
};

/**
 * The extras module's copy of the main module's limits (the package passes
 * them on before each call).
 */
export declare function setLimitsJson(update: string): Json<Envelope<Limits>>;

/**
 * `compareRuns` of the two sides' results (the core's model).
 */
export declare function compareRunsJson(input: string, options: string): Json<Envelope<Comparison>>;

/**
 * `runTrend` of a list of results (the core's model).
 */
export declare function runTrendJson(input: string): Json<Envelope<RunTrend>>;

/**
 * The agreement numbers of `calibrate` (`api::compare::stats`: `kind` selects
 * the function, `a` and `b` its numbers).
 */
export declare function statsF64(kind: number, a: Float64Array, b: Float64Array): Float64Array;

/**
 * `loadEvalSet` of what the main module hands over (an agents-cli dataset, a
 * legacy or @iqai/adk eval set), for UTF-8 bytes.
 */
export declare function loadOtherEvalSetBytes(input: Uint8Array, options: string): Json<Envelope<EvalSet>>;

/**
 * `validateEvalSet` of what the main module hands over, for UTF-8 bytes.
 */
export declare function validateOtherEvalSetBytes(input: Uint8Array): Json<ValidationReport>;

/**
 * `loadEvaluationDataset` for UTF-8 bytes: an agents-cli dataset (or any eval
 * set) as `{eval_set, actual, grading, inference}`.
 */
export declare function loadEvaluationDatasetBytes(input: Uint8Array, options: string): Json<Envelope<LoadedDataset>>;

/**
 * `toEvaluationDataset({evalSet, actual?})`: the agents-cli dataset.
 */
export declare function toEvaluationDatasetJson(args: string): Json<Envelope<EvaluationDataset>>;

/**
 * ADK's eval id of a conversation scenario (JSON).
 */
export declare function scenarioEvalIdJson(input: string): Json<Envelope<string>>;

/**
 * `loadEvalConfig` of what the main module hands over (an agents-cli config).
 */
export declare function loadAgentsCliConfigJson(input: string, options: string): Json<Envelope<EvalConfig>>;

/**
 * `validateEvalConfig` of what the main module hands over.
 */
export declare function validateAgentsCliConfigJson(input: string, options: string): Json<ValidationReport>;

/**
 * `loadTraces(inputs, options)`: the inputs' bytes joined, with each one's
 * length (OTLP/JSON text or protobuf); `options` is `{"sessionIds"?}` or "".
 */
export declare function loadTracesBytes(joined: Uint8Array, lens: Uint32Array, options: string): Json<Envelope<LoadedTraces>>;

/**
 * `tracesToEvalSet(inputs, options)`: as `loadTracesBytes`; `options` is
 * `{"evalSetId", "sessionIds"?, "text"?}`.
 */
export declare function tracesToEvalSetBytes(joined: Uint8Array, lens: Uint32Array, options: string): Json<Envelope<ReturnType<typeof tracesToEvalSet>>>;

/**
 * `traceIndex(inputs)`: as `loadTracesBytes`, without options.
 */
export declare function traceIndexBytes(joined: Uint8Array, lens: Uint32Array): Json<Envelope<unknown>>;
