// ADK's file text and Python's text forms, written by the core: values in, text out. The rules
// (pydantic field order, Python floats, integer statuses, repr) live in the core only.
import { EvalError } from '../errors.js';
import { instance as ensureReady } from './instance.js';
import { extras, main } from './exports.js';
import { stringify, unwrap } from './wire.js';


/** An EvalSetResult (any shape `loadEvalSetResult` reads) as the text ADK 2.13 writes. */
export function adkEvalSetResultText(result) {
  ensureReady();
  return unwrap(main.formatEvalSetResultJson(stringify(result, 'result', true)));
}

/** An eval set as ADK writes it: every field, or with `compact` only non-null, non-default ones. */
export function adkEvalSetText(evalSet, { compact = false } = {}) {
  ensureReady();
  return unwrap(main.formatEvalSetFileJson(stringify(evalSet, 'evalSet', true), compact));
}

/**
 * ADK's eval id for a conversation scenario `add_eval_case` adds: the first 8 hex digits of the
 * SHA-256 of its Python dump (a built-in persona id dumped as evalcore's persona object).
 * In the extras module (the Node entry loads it on first use).
 */
export function scenarioEvalId(scenario) {
  ensureReady();
  return unwrap(extras.scenarioEvalIdJson(stringify(scenario, 'scenario')));
}

/** `repr()` of the Python value `json.loads` makes of `value`. */
export function pythonRepr(value) {
  ensureReady();
  return unwrap(main.pythonTextJson(stringify(value === undefined ? null : value, 'value'), 'repr'));
}

/** Python's `json.dumps(value, sort_keys=True)`. */
export function pythonJsonDumps(value) {
  ensureReady();
  return unwrap(main.pythonTextJson(stringify(value === undefined ? null : value, 'value'), 'json'));
}

/** `repr(x)` of a Python float (`1.0`, `1e-05`). */
export function pythonFloat(x) {
  ensureReady();
  return main.pythonFloat(x);
}

/** A status name (any case, or `EvalStatus.X`) or ADK's integer as the status name. */
export function evalStatusName(value, path = '') {
  ensureReady();
  try {
    return unwrap(main.evalStatusJson(stringify(value === undefined ? null : value, 'status')));
  } catch (e) {
    if (e instanceof EvalError) throw new EvalError(e.code, path, e.message);
    throw e;
  }
}

/** Seconds since the epoch with sub-millisecond digits, like Python's `time.time()`. */
export function pythonTime() {
  return (performance.timeOrigin + performance.now()) / 1000;
}

/**
 * A value in ADK's snake_case file shape as ADK's dev server answers it: camelCase field names
 * (pydantic's aliases), null fields left out, user data (state, tool args and responses) as is.
 */
export function adkApiJson(value) {
  ensureReady();
  return unwrap(main.adkApiJson(stringify(value === undefined ? null : value, 'value', true)));
}

/**
 * A recorded session (`{events}` in ADK Python's JSON shape, or the events) as ADK Invocations,
 * the conversation ADK's dev server makes of a session it adds to an eval set.
 */
export function sessionInvocations(session) {
  ensureReady();
  return unwrap(main.sessionInvocationsJson(stringify(session, 'session', true)));
}
