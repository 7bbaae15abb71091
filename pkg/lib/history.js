//! ADK's eval history: EvalSetResult files under `<app dir>/.adk/eval_history/`, written as
//! google-adk 2.13 writes them (ids, file names, every field, integer statuses) and read in
//! every shape ADK has written (2.x plain JSON, 1.x double-encoded), with string statuses.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// The Node entry: instantiates the core, which parses result files.
import '../index.js';
import { EvalError } from './errors.js';
import { readRegularFile } from './node/files.js';
import { parseJsonBytes } from './wire.js';
import { dumpAdkJson, pythonFloat, pythonTime, statusName } from './adk_json.js';

export { STATUS_CODES, statusCode, statusName } from './adk_json.js';

export const EVAL_HISTORY_DIR = join('.adk', 'eval_history');
export const RESULT_FILE_SUFFIX = '.evalset_result.json';

/**
 * ADK's check that an app name / eval set id is one path segment: not empty, no NUL, no `/` or
 * `\`, not drive-qualified (`C:`), not `.` or `..`. Throws EvalError `invalid_path`.
 */
export function validatePathSegment(value, fieldName) {
  const show = JSON.stringify(value) ?? String(value);
  if (typeof value !== 'string') throw new EvalError('invalid_path', '', `${fieldName} must be a string, found ${show}`);
  if (value === '') throw new EvalError('invalid_path', '', `${fieldName} must not be empty`);
  if (value.includes('\0')) throw new EvalError('invalid_path', '', `${fieldName} must not contain null bytes`);
  if (value.includes('/') || value.includes('\\')) {
    throw new EvalError('invalid_path', '', `${fieldName} ${show} must not contain path separators`);
  }
  if (/^[A-Za-z]:/.test(value)) throw new EvalError('invalid_path', '', `${fieldName} ${show} must not be drive-qualified`);
  if (value === '.' || value === '..') {
    throw new EvalError('invalid_path', '', `${fieldName} ${show} must not contain traversal segments`);
  }
  return value;
}

/** `<appDir>/.adk/eval_history`, where ADK keeps an app's results. */
export function evalHistoryDir(appDir) {
  return join(appDir, EVAL_HISTORY_DIR);
}

/**
 * A new EvalSetResult as ADK's `create_eval_set_result` makes it: id
 * `<app>_<eval_set_id>_<time float>`, name = id with `/` replaced by `_`. Statuses stay as
 * they are given (strings in evalcore's objects).
 */
export function createEvalSetResult(appName, evalSetId, evalCaseResults, { timestamp = pythonTime() } = {}) {
  const id = `${appName}_${evalSetId}_${pythonFloat(timestamp)}`;
  return {
    eval_set_result_id: id,
    eval_set_result_name: id.replaceAll('/', '_'),
    eval_set_id: evalSetId,
    eval_case_results: evalCaseResults.map((r) => ({ eval_set_file: r.eval_set_file ?? r.eval_set_id ?? evalSetId, ...r })),
    creation_timestamp: timestamp,
  };
}

/** An EvalSetResult as the text ADK 2.13 writes: pretty JSON, every field, integer statuses. */
export function formatEvalSetResult(result) {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) {
    throw new EvalError('schema', '', `expected an EvalSetResult object, found ${result === null ? 'null' : typeof result}`);
  }
  return dumpAdkJson(result, 'EvalSetResult');
}

/**
 * Writes `result` to `<dir>/<eval_set_result_name>.evalset_result.json` (creating `dir`) and
 * returns the path. The name must be one path segment.
 */
export function writeEvalSetResult(result, dir) {
  const name = result?.eval_set_result_name ?? result?.eval_set_result_id;
  validatePathSegment(name, 'eval_set_result_name');
  const text = formatEvalSetResult(result);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name + RESULT_FILE_SUFFIX);
  writeFileSync(path, text);
  return path;
}

/**
 * ADK's `LocalEvalSetResultsManager.save_eval_set_result`: checks `appName` and `evalSetId`,
 * makes a new EvalSetResult of `evalCaseResults` and writes it under `historyDir` (default
 * `<appDir>/.adk/eval_history`). Returns `{ path, result }`.
 */
export function saveEvalSetResult({ appName, evalSetId, evalCaseResults, appDir, historyDir, timestamp }) {
  validatePathSegment(appName, 'app_name');
  validatePathSegment(evalSetId, 'eval_set_id');
  if (!Array.isArray(evalCaseResults)) {
    throw new EvalError('schema', '', 'saveEvalSetResult: evalCaseResults must be an array of EvalCaseResult');
  }
  const dir = historyDir ?? (appDir !== undefined ? evalHistoryDir(appDir) : undefined);
  if (typeof dir !== 'string') throw new EvalError('schema', '', 'saveEvalSetResult: give appDir or historyDir');
  const result = createEvalSetResult(appName, evalSetId, evalCaseResults, timestamp === undefined ? {} : { timestamp });
  return { path: writeEvalSetResult(result, dir), result };
}

// ---------------------------------------------------------------------------------------------
// Reading

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const snake = (k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Keys in snake_case (pydantic accepts both spellings; a snake key wins over its alias). */
function snakeKeys(obj) {
  const out = {};
  for (const [k, v] of Object.entries(obj)) {
    const s = snake(k);
    if (s !== k && Object.hasOwn(obj, s)) continue;
    out[s] = v;
  }
  return out;
}

function describe(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`;
}

function requireField(obj, key, check, what, path) {
  if (!check(obj[key])) throw new EvalError('schema', `${path}.${key}`, `expected ${what}, found ${obj[key] === undefined ? 'nothing' : describe(obj[key])}`);
}

const isString = (v) => typeof v === 'string';
const isArray = Array.isArray;

function readMetric(m, path) {
  if (!isObject(m)) throw new EvalError('schema', path, `expected an EvalMetricResult object, found ${describe(m)}`);
  const out = snakeKeys(m);
  requireField(out, 'metric_name', isString, 'a metric name', path);
  out.eval_status = statusName(out.eval_status, `${path}.eval_status`);
  return out;
}

function readCase(c, path) {
  if (!isObject(c)) throw new EvalError('schema', path, `expected an EvalCaseResult object, found ${describe(c)}`);
  const out = snakeKeys(c);
  out.final_eval_status = statusName(out.final_eval_status, `${path}.final_eval_status`);
  requireField(out, 'overall_eval_metric_results', isArray, 'a list of metric results', path);
  out.overall_eval_metric_results = out.overall_eval_metric_results.map((m, i) => readMetric(m, `${path}.overall_eval_metric_results[${i}]`));
  const per = out.eval_metric_result_per_invocation ?? [];
  if (!isArray(per)) throw new EvalError('schema', `${path}.eval_metric_result_per_invocation`, `expected a list, found ${describe(per)}`);
  out.eval_metric_result_per_invocation = per.map((p, i) => {
    const where = `${path}.eval_metric_result_per_invocation[${i}]`;
    if (!isObject(p)) throw new EvalError('schema', where, `expected an object, found ${describe(p)}`);
    const q = snakeKeys(p);
    const list = q.eval_metric_results ?? [];
    if (!isArray(list)) throw new EvalError('schema', `${where}.eval_metric_results`, `expected a list, found ${describe(list)}`);
    q.eval_metric_results = list.map((m, j) => readMetric(m, `${where}.eval_metric_results[${j}]`));
    return q;
  });
  out.eval_set_id ??= '';
  out.eval_id ??= '';
  out.session_id ??= '';
  return out;
}

/**
 * Parses an EvalSetResult file's text (or bytes, or the parsed value): ADK 2.x plain JSON or
 * 1.x's double-encoded form (a JSON string holding the JSON), snake or camel keys, integer or
 * string statuses. Returns it with string statuses; unknown fields are kept.
 */
export function readEvalSetResult(input) {
  let value = input;
  // Text is parsed by the core (its depth and size bounds), never by JSON.parse first.
  for (let depth = 0; depth < 2 && (typeof value === 'string' || value instanceof Uint8Array || value instanceof ArrayBuffer); depth++) {
    const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
    try {
      value = parseJsonBytes(bytes, 'an eval set result');
    } catch (e) {
      if (e instanceof EvalError && e.code === 'invalid_json') {
        throw new EvalError('invalid_json', '', `an eval set result must be JSON: ${e.message}`, { cause: e });
      }
      throw e;
    }
  }
  if (!isObject(value)) throw new EvalError('schema', '$', `expected an EvalSetResult object, found ${describe(value)}`);
  const out = snakeKeys(value);
  requireField(out, 'eval_set_result_id', isString, 'the eval set result id (a string)', '$');
  requireField(out, 'eval_set_id', isString, 'the eval set id (a string)', '$');
  const cases = out.eval_case_results ?? [];
  if (!isArray(cases)) throw new EvalError('schema', '$.eval_case_results', `expected a list, found ${describe(cases)}`);
  out.eval_case_results = cases.map((c, i) => readCase(c, `$.eval_case_results[${i}]`));
  out.eval_set_result_name ??= null;
  out.creation_timestamp ??= 0;
  return out;
}

/** `readEvalSetResult` of a file; EvalError messages name the file. */
export function readEvalSetResultFile(path) {
  const bytes = readRegularFile(path, 'cannot read');
  try {
    return readEvalSetResult(bytes);
  } catch (e) {
    if (e instanceof EvalError) throw new EvalError(e.code, e.path, `${path}: ${e.message}`, { cause: e });
    throw e;
  }
}

/** The result ids (file names without the suffix) in a history directory; [] when it is absent. */
export function listEvalSetResults(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch (e) {
    if (e.code === 'ENOENT') return [];
    throw e;
  }
  return names.filter((n) => n.endsWith(RESULT_FILE_SUFFIX)).map((n) => n.slice(0, -RESULT_FILE_SUFFIX.length)).sort();
}
