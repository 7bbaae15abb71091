//! ADK's eval history: EvalSetResult files under `<app dir>/.adk/eval_history/`, written as
//! google-adk 2.13 writes them (ids, file names, every field, integer statuses) and read in
//! every shape ADK has written (2.x plain JSON, 1.x double-encoded), with string statuses. The
//! core reads and writes the files (`loadEvalSetResult`, ADK's file text); this module names,
//! finds and stores them (regular files only).
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EvalError } from '../errors.js';
import '../wasm/node_start.js';
import { loadEvalSetResult } from '../wasm/api.js';
import { adkEvalSetResultText, evalStatusName } from '../wasm/adk_text.js';
import { RESULT_FILE_SUFFIX, createEvalSetResult, resultFileName, validatePathSegment, validateRunName } from '../store/adk_layout.js';
import { readRegularFile } from './files.js';

/** ADK's integers for statuses in result files. */
export const STATUS_CODES = Object.freeze({ PASSED: 1, FAILED: 2, NOT_EVALUATED: 3, INFORMATIONAL: 4 });

/** A status as its name (`"PASSED"` ...); accepts the name (any case) or ADK's integer. */
export function statusName(value, path = '') {
  return evalStatusName(value, path);
}

/** A status as ADK's integer; accepts the name (any case) or the integer. */
export function statusCode(value, path = '') {
  return STATUS_CODES[evalStatusName(value, path)];
}

export { RESULT_FILE_SUFFIX, createEvalSetResult, validatePathSegment, validateRunName };

export const EVAL_HISTORY_DIR = join('.adk', 'eval_history');

/** `<appDir>/.adk/eval_history`, where ADK keeps an app's results. */
export function evalHistoryDir(appDir) {
  return join(appDir, EVAL_HISTORY_DIR);
}

/** An EvalSetResult as the text ADK 2.13 writes: pretty JSON, every field, integer statuses. */
export function formatEvalSetResult(result) {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) {
    throw new EvalError('schema', '', `expected an EvalSetResult object, found ${result === null ? 'null' : typeof result}`);
  }
  return adkEvalSetResultText(result);
}

/**
 * Writes `result` to `<dir>/<name>.evalset_result.json` (creating `dir`) and returns the path:
 * the name is ADK's for the result's id (the id with `/` made `_`, which is
 * `eval_set_result_name` unless the run carries a label), else `eval_set_result_name`. The name
 * must be one path segment.
 */
export function writeEvalSetResult(result, dir) {
  const id = result?.eval_set_result_id;
  const name = typeof id === 'string' && id !== '' ? resultFileName(id) : result?.eval_set_result_name;
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
 * `<appDir>/.adk/eval_history`); `name` labels the run (`eval_set_result_name`). Returns
 * `{ path, result }`.
 */
export function saveEvalSetResult({ appName, evalSetId, evalCaseResults, appDir, historyDir, timestamp, name }) {
  validatePathSegment(appName, 'app_name');
  validatePathSegment(evalSetId, 'eval_set_id');
  if (!Array.isArray(evalCaseResults)) {
    throw new EvalError('schema', '', 'saveEvalSetResult: evalCaseResults must be an array of EvalCaseResult');
  }
  const dir = historyDir ?? (appDir !== undefined ? evalHistoryDir(appDir) : undefined);
  if (typeof dir !== 'string') throw new EvalError('schema', '', 'saveEvalSetResult: give appDir or historyDir');
  const result = createEvalSetResult(appName, evalSetId, evalCaseResults, { timestamp, name });
  return { path: writeEvalSetResult(result, dir), result };
}

// ---------------------------------------------------------------------------------------------
// Reading

/**
 * Parses an EvalSetResult file's text (or bytes, or the parsed value): ADK 2.x plain JSON or
 * 1.x's double-encoded form (a JSON string holding the JSON), snake or camel keys, integer or
 * string statuses. Returns it with string statuses; unknown fields are kept. The same as
 * `loadEvalSetResult` of `evalcore`.
 */
export function readEvalSetResult(input) {
  return loadEvalSetResult(input);
}

/** `readEvalSetResult` of a file; EvalError messages name the file. */
export function readEvalSetResultFile(path) {
  // A FIFO or a device is refused before it is opened (reading a FIFO blocks).
  const bytes = readRegularFile(path, 'cannot read');
  try {
    return loadEvalSetResult(bytes);
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
