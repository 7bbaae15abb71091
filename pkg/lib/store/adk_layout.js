//! ADK's storage names, runtime-neutral (no file system): which identifiers may name a file, the
//! file suffixes, the eval history folder, how a new EvalSetResult is named and stamped, and how an
//! eval set file's bytes are read (current schema, or a legacy list whose id is the set id).
import { EvalError } from '../errors.js';
import { loadEvalSet } from '../wasm/api.js';
import { pythonFloat, pythonTime } from '../wasm/adk_text.js';

export const EVAL_SET_FILE_SUFFIX = '.evalset.json';
export const RESULT_FILE_SUFFIX = '.evalset_result.json';
/** Where ADK keeps an app's results, relative to the app folder ('/'-separated). */
export const EVAL_HISTORY_KEY = '.adk/eval_history';

/** The ids ADK's `create_eval_set` accepts for a new eval set. */
export const EVAL_SET_ID_PATTERN = /^[a-zA-Z0-9_]+$/;

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

/** ADK's rule for a new eval set's id (`^[a-zA-Z0-9_]+$`); throws EvalError `schema` naming it. */
export function validateNewEvalSetId(id) {
  if (typeof id !== 'string' || !EVAL_SET_ID_PATTERN.test(id)) {
    const show = JSON.stringify(id) ?? String(id);
    throw new EvalError('schema', '', `invalid eval set id ${show}: it must match ^[a-zA-Z0-9_]+$ (letters, digits, underscores)`);
  }
  return id;
}

/** The longest run label (`--run_name`) taken: a label names a run, it does not describe it. */
export const RUN_NAME_MAX = 200;

/**
 * Checks a run's label (`evalcore eval --run_name`): a non-blank string of at most 200
 * characters without control characters. Returns it; throws EvalError `schema` naming the rule.
 */
export function validateRunName(name) {
  const show = JSON.stringify(name) ?? String(name);
  if (typeof name !== 'string' || !name.trim()) throw new EvalError('schema', '', `a run name must be a non-blank string, found ${show}`);
  if (name.length > RUN_NAME_MAX) throw new EvalError('schema', '', `a run name has at most ${RUN_NAME_MAX} characters, found ${name.length}`);
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new EvalError('schema', '', `the run name ${show} contains a control character (a newline, tab, ...)`);
  return name;
}

/** ADK's file name for a result: its id with `/` replaced by `_` (ADK's `eval_set_result_name`). */
export const resultFileName = (id) => id.replaceAll('/', '_');

/**
 * A new EvalSetResult as ADK's `create_eval_set_result` makes it: id
 * `<app>_<eval_set_id>_<time float>`, name = id with `/` replaced by `_`. Statuses stay as
 * they are given (strings in evalcore's objects). `name` labels the run instead (`--run_name`):
 * ADK keeps `eval_set_result_name` as any string and names files after the id, as we do.
 */
export function createEvalSetResult(appName, evalSetId, evalCaseResults, { timestamp = pythonTime(), name } = {}) {
  const id = `${appName}_${evalSetId}_${pythonFloat(timestamp)}`;
  return {
    eval_set_result_id: id,
    eval_set_result_name: name === undefined ? resultFileName(id) : validateRunName(name),
    eval_set_id: evalSetId,
    eval_case_results: evalCaseResults,
    creation_timestamp: timestamp,
  };
}

/**
 * Whether JSON bytes hold a list at the top (a legacy shape): the first byte after a UTF-8 BOM
 * and whitespace is `[`, the core's own test. Nothing is parsed here.
 */
export function startsWithList(bytes) {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x0c)) i++;
  return bytes[i] === 0x5b;
}

/**
 * An eval set file's bytes as ADK's `load_eval_set_from_file` reads them: the current schema, or
 * a legacy list whose set id is `legacyId` (the id it was looked up by, or the file's name).
 * Returns `{ evalSet, legacy }`; `sessionInput` is the legacy cases' initial session.
 */
export function loadEvalSetBytes(bytes, { legacyId, sessionInput } = {}) {
  const legacy = startsWithList(bytes);
  // Lists and agents-cli datasets have no set id of their own: they take the file's name (an
  // ADK eval set keeps its eval_set_id whatever `id` says).
  const options = legacyId !== undefined ? { id: legacyId } : {};
  if (legacy && sessionInput !== undefined && sessionInput !== null) options.sessionInput = sessionInput;
  return { evalSet: loadEvalSet(bytes, Object.keys(options).length ? options : undefined), legacy };
}
