// `compareRuns`, `runTrend` and `calibrate`. Results are read by the core (loadEvalSetResult:
// every shape ADK writes; values already in its model as they are), and the extras module keeps
// COMPARE.md's books and computes the numbers in one call each (src/compare/runs.rs, trend.rs):
// this file checks the options and hands the results over as JSON. Calibration still matches
// labels in labels.js (calibrateLabels) and asks the core only for the agreement numbers.
import { loadEvalSetResult } from './api.js';
import { EvalError } from '../errors.js';
import { instance } from './instance.js';
import { extras } from './exports.js';
import { DEFAULT_KAPPA_THRESHOLD, calibrateLabels, readLabels } from './labels.js';
import { MAX_TEXT_LENGTH, describe, parseJsonBytes, stringifyWellFormed, unwrap } from './wire.js';

const encoder = new TextEncoder();
const NONE = new Float64Array(0);

/** The core's agreement numbers for calibrate (src/api/compare.rs: `kind` selects the function), in the extras module. */
const stats = (kind, a, b = NONE) => extras.statsF64(kind, Float64Array.from(a), Float64Array.from(b));

/** One result as UTF-8 bytes (text encoded) or as it is (bytes, a value) for loadEvalSetResult. */
function bytesOf(input, what) {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (typeof input === 'string') {
    if (typeof input.isWellFormed === 'function' && !input.isWellFormed()) {
      throw new EvalError('invalid_json', what, `${what}: the text contains a lone UTF-16 surrogate, which is not valid Unicode`);
    }
    if (input.length > MAX_TEXT_LENGTH) throw new EvalError('too_large', what, `${what}: ${input.length} UTF-16 code units exceed the limit of ${MAX_TEXT_LENGTH}`);
    return encoder.encode(input);
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new EvalError('schema', what, `${what}: expected an EvalSetResult (JSON text, bytes or an object), found ${describe(input)}`);
  }
  return input;
}

/** `e` (an error of the core about one argument) with its path under `at`. */
const under = (e, at) => (e instanceof EvalError ? new EvalError(e.code, `${at}${e.path.replace(/^\$/, '')}`, e.message) : e);

const STATUSES = new Set(['PASSED', 'FAILED', 'NOT_EVALUATED', 'INFORMATIONAL']);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const optional = (v, type) => v === undefined || v === null || typeof v === type;

/**
 * Whether a value already is a result in the core's model as far as a comparison reads it (what
 * loadEvalSetResult and evaluate return: snake_case, statuses as names, numbers as numbers), so
 * that it is read as it is. Anything else (ADK's files, camelCase, integer statuses, 1.x text)
 * goes through the core, which reads every shape.
 */
function inModel(r) {
  if (!isObject(r) || typeof r.eval_set_result_id !== 'string' || typeof r.eval_set_id !== 'string' || !Array.isArray(r.eval_case_results)) return false;
  for (const c of r.eval_case_results) {
    if (!isObject(c) || typeof c.eval_id !== 'string' || !STATUSES.has(c.final_eval_status) || !Array.isArray(c.overall_eval_metric_results)
      || !optional(c.eval_set_id, 'string') || !(c.error === undefined || c.error === null || isObject(c.error))) return false;
    for (const m of c.overall_eval_metric_results) {
      if (!isObject(m) || typeof m.metric_name !== 'string' || !STATUSES.has(m.eval_status) || !optional(m.score, 'number')
        || !optional(m.threshold, 'number') || !(m.details === undefined || m.details === null || isObject(m.details))) return false;
    }
  }
  return true;
}

/**
 * A side's results in the core's model: values already in it as they are, everything else read
 * by the core (loadEvalSetResult, case level only: a comparison reads nothing below it).
 */
function loadSide(input, name) {
  const array = Array.isArray(input);
  const list = array ? input : [input];
  if (!list.length) throw new EvalError('schema', `$${name}`, `${name}: expected a result or an array of one or more results, found none`);
  // Array.from visits a sparse array's holes (undefined: refused) where map would skip them.
  return Array.from(list, (r, i) => {
    if (inModel(r)) return r;
    const at = array ? `$${name}[${i}]` : `$${name}`;
    const data = bytesOf(r, at);
    try {
      return loadEvalSetResult(data, { caseLevel: true });
    } catch (e) {
      throw under(e, at);
    }
  });
}

/** A side's loaded results as JSON text for the core (-0 kept: a threshold is echoed as read). */
const sideJson = (list, name) => `[${list.map((r) => stringifyWellFormed(r, name, true)).join(',')}]`;

/** The options object's values, each checked: `{ key: 'number' | 'string' }`; unknown keys are errors. */
function readOptions(options, fn, kinds) {
  if (options === undefined || options === null) return {};
  const known = Object.keys(kinds).join(', ');
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new EvalError('schema', '$options', `${fn}: options must be an object {${known}}, found ${describe(options)}`);
  }
  for (const [k, v] of Object.entries(options)) {
    if (!(k in kinds)) throw new EvalError('schema', `$options.${k}`, `${fn}: unknown option \`${k}\` (known: ${known})`);
    if (v !== undefined && v !== null && typeof v !== kinds[k]) {
      throw new EvalError('schema', `$options.${k}`, `${fn}: \`${k}\` must be a ${kinds[k]}, found ${describe(v)}`);
    }
  }
  return options;
}

/**
 * Compares a baseline with a candidate, each one result or an array of results (several runs
 * of an eval set): `{ cases, metrics, pass_fail, verdict, ... }` as ../shared/COMPARE.md
 * defines it. `options.alpha` (default 0.05) is the significance level.
 */
export function compareRuns(baseline, candidate, options) {
  instance();
  const alpha = readOptions(options, 'compareRuns', { alpha: 'number' }).alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw new EvalError('schema', '$options.alpha', `compareRuns: \`alpha\` is a significance level between 0 and 1, found ${alpha}`);
  const b = sideJson(loadSide(baseline, 'baseline'), 'baseline');
  const c = sideJson(loadSide(candidate, 'candidate'), 'candidate');
  return unwrap(extras.compareRunsJson(`{"baseline":${b},"candidate":${c}}`, JSON.stringify({ alpha })));
}

/** A labels file from JSON text, bytes (parsed by the core: its limits, line and column) or its value. */
function labelsValue(labels) {
  if (typeof labels === 'string' || labels instanceof Uint8Array || labels instanceof ArrayBuffer) {
    const bytes = bytesOf(labels, '$labels');
    try {
      return parseJsonBytes(bytes, 'labels');
    } catch (e) {
      throw under(e, '$labels');
    }
  }
  return labels;
}

/**
 * How far each judge agrees with people: `labels` (a labels file: JSON text, bytes or its
 * value) against `results` (one result or an array, any shape loadEvalSetResult reads): per
 * metric, rubric and judge model the agreement with its 95% Wilson interval, Cohen's kappa and
 * the confusion matrix; groups whose kappa is below `options.kappaThreshold` (default 0.6) are
 * flagged. `options.judgeModel` names the model that judged the results when their criteria
 * do not.
 */
export function calibrate(labels, results, options) {
  instance();
  const o = readOptions(options, 'calibrate', { kappaThreshold: 'number', judgeModel: 'string' });
  const kappaThreshold = o.kappaThreshold ?? DEFAULT_KAPPA_THRESHOLD;
  if (!(kappaThreshold >= -1 && kappaThreshold <= 1)) {
    throw new EvalError('schema', '$options.kappaThreshold', `calibrate: \`kappaThreshold\` is a kappa from -1 to 1, found ${kappaThreshold}`);
  }
  const read = readLabels(labelsValue(labels), '$labels');
  const list = Array.isArray(results) ? results : [results];
  if (!list.length) throw new EvalError('schema', '$results', 'results: expected a result or an array of one or more results, found none');
  const loaded = Array.from(list, (r, i) => {
    const at = Array.isArray(results) ? `$results[${i}]` : '$results';
    const data = bytesOf(r, at);
    try {
      return loadEvalSetResult(data);
    } catch (e) {
      throw under(e, at);
    }
  });
  return calibrateLabels(read, loaded, { kappaThreshold, judgeModel: o.judgeModel || null }, (counts) => stats(4, counts));
}

/**
 * A metric's course over runs: each result (one run, e.g. a file of an eval history) as a
 * point, oldest first (by `creation_timestamp`), with the mean of its cases' scores and a 95%
 * Student-t interval over them, and the share of cases that passed with a 95% Wilson interval.
 * Returns `{ runs: [{ eval_set_result_id, eval_set_id, creation_timestamp, cases, passed,
 * pass_rate, pass_rate_ci95 }], metrics: [{ metric_name, points: [{ run, n, mean, ci95 } | null] }] }`.
 */
export function runTrend(results) {
  instance();
  return unwrap(extras.runTrendJson(sideJson(loadSide(results, 'results'), 'results')));
}
