// Types of `evalcore/history` (Node only): ADK's eval history files,
// `<app folder>/.adk/eval_history/<eval_set_result_name>.evalset_result.json`.

import type { EvalCaseResult, EvalSetResult, EvalStatus, JsonInput } from './index.js';

/** ADK's integers for statuses in result files. */
export declare const STATUS_CODES: Readonly<{ PASSED: 1; FAILED: 2; NOT_EVALUATED: 3; INFORMATIONAL: 4 }>;

/** A status as ADK's integer (1-4); accepts the name or the integer. Throws EvalError for anything else. */
export declare function statusCode(status: EvalStatus | number | string): 1 | 2 | 3 | 4;

/** A status as its name; accepts the name or ADK's integer. */
export declare function statusName(status: EvalStatus | number | string): EvalStatus;

/** `.adk/eval_history` (relative). */
export declare const EVAL_HISTORY_DIR: string;
/** `.evalset_result.json`. */
export declare const RESULT_FILE_SUFFIX: string;

/**
 * ADK's check that an app name or eval set id is one path segment (not empty, no NUL, no `/` or
 * `\`, not drive-qualified, not `.`/`..`). Throws EvalError `invalid_path`; returns the value.
 */
export declare function validatePathSegment(value: string, fieldName: string): string;

/** `<appDir>/.adk/eval_history`. */
export declare function evalHistoryDir(appDir: string): string;

/**
 * A new EvalSetResult as ADK makes it: id `<app>_<eval_set_id>_<time float>`, name = id with `/`
 * replaced by `_`, `creation_timestamp` = the time (default now). `name` labels the run instead
 * (`evalcore eval --run_name`; checked by validateRunName): ADK reads `eval_set_result_name` as
 * any string, and the file is still named after the id.
 */
export declare function createEvalSetResult(
  appName: string,
  evalSetId: string,
  evalCaseResults: EvalCaseResult[],
  options?: { timestamp?: number; name?: string },
): EvalSetResult;

/**
 * Checks a run label: a non-blank string of at most 200 characters without control characters.
 * Returns it; throws EvalError `schema`.
 */
export declare function validateRunName(name: string): string;

/**
 * The text ADK 2.13 writes for an EvalSetResult: pretty JSON, every field (nulls too), integer
 * statuses, Python floats; written by the core from its result model.
 */
export declare function formatEvalSetResult(result: EvalSetResult): string;

/**
 * Writes `<dir>/<name>.evalset_result.json` (creating `dir`); returns the path. The name is ADK's
 * for the result's id (the id with `/` made `_`: `eval_set_result_name` unless the run carries a
 * label), else `eval_set_result_name`.
 */
export declare function writeEvalSetResult(result: EvalSetResult, dir: string): string;

export interface SaveEvalSetResultArgs {
  appName: string;
  evalSetId: string;
  evalCaseResults: EvalCaseResult[];
  /** The app folder: results go to `<appDir>/.adk/eval_history`. */
  appDir?: string;
  /** Or the folder the file goes to directly. */
  historyDir?: string;
  /** Seconds since the epoch (default now). */
  timestamp?: number;
  /** A label for the run, kept as `eval_set_result_name` (the file is named after the id). */
  name?: string;
}

/** ADK's `save_eval_set_result`: checks the names, makes the result and writes it. */
export declare function saveEvalSetResult(args: SaveEvalSetResultArgs): { path: string; result: EvalSetResult };

/**
 * Parses an EvalSetResult file's text (ADK 2.x plain JSON or 1.x double-encoded; snake or camel
 * keys; integer or string statuses) into evalcore's shape with string statuses: `loadEvalSetResult`
 * of `evalcore`, the core's one result model.
 */
export declare function readEvalSetResult(input: JsonInput): EvalSetResult;

/** `readEvalSetResult` of a file. */
export declare function readEvalSetResultFile(path: string): EvalSetResult;

/** Result ids (file names without the suffix) in a history folder, sorted; [] when it is absent. */
export declare function listEvalSetResults(dir: string): string[];
