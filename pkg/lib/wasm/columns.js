// The per-invocation part of a fresh case result crosses from the core as columns (see
// src/api/columns.rs): each metric's header once, its scores and its details that are not
// empty as arrays, its statuses as a string of one digit each (an index into `statuses`), and
// the echoed invocations at most once. This builds the rows of
// `eval_metric_result_per_invocation` from them, in the model's shape and key order. The echoed
// invocations are the core's own (normalised) parse of the input, except where the core found
// that the caller's objects read the same (`invocations: "caller"` for an evaluateInvocations of
// objects): then the rows hold the caller's objects, as ADK's results hold the invocations they
// were given. A caller's invocation that lacks defaults or uses another accepted shape is echoed
// in the model's shape.
import { EvalError } from '../errors.js';

// The members the core writes today (src/api/columns.rs); a wire with others is built generically.
const HEAD_KEYS = ['metric_name', 'threshold', 'criterion', 'custom_function_path'];
const EMPTY_KEYS = ['rubric_scores', 'token_usage_details', 'duration_details'];

function sameKeys(obj, keys) {
  const own = Object.keys(obj);
  return own.length === keys.length && own.every((k, i) => k === keys[i]);
}

const TOKEN_FIELDS = ['total_tokens', 'input_tokens', 'prompt_tokens', 'cached_tokens', 'tool_use_tokens',
  'output_tokens', 'candidates_tokens', 'reasoning_tokens'];
const DURATION_FIELDS = ['total_seconds', 'model_seconds', 'tool_seconds', 'framework_seconds'];

/** A breakdown object from `names.length` values of `v` starting at `at`. */
function breakdownOf(names) {
  // Object literals of one fixed shape for the efficiency metrics' fields (keyed stores with
  // varying keys are several times slower), any other list generically.
  if (names.length === TOKEN_FIELDS.length && names.every((k, i) => k === TOKEN_FIELDS[i])) {
    return (v, at) => ({
      total_tokens: v[at], input_tokens: v[at + 1], prompt_tokens: v[at + 2], cached_tokens: v[at + 3],
      tool_use_tokens: v[at + 4], output_tokens: v[at + 5], candidates_tokens: v[at + 6], reasoning_tokens: v[at + 7],
    });
  }
  if (names.length === DURATION_FIELDS.length && names.every((k, i) => k === DURATION_FIELDS[i])) {
    return (v, at) => ({ total_seconds: v[at], model_seconds: v[at + 1], tool_seconds: v[at + 2], framework_seconds: v[at + 3] });
  }
  return (v, at) => {
    const o = {};
    for (let j = 0; j < names.length; j++) o[names[j]] = v[at + j];
    return o;
  };
}

/** The details of a metric column's cells, as an array. */
function detailsColumn(m, len, empty) {
  const out = new Array(len);
  if (sameKeys(empty, EMPTY_KEYS)) {
    for (let i = 0; i < len; i++) out[i] = { rubric_scores: null, token_usage_details: null, duration_details: null };
  } else {
    for (let i = 0; i < len; i++) out[i] = { ...empty };
  }
  const b = m.breakdown;
  if (b !== undefined) {
    // Each cell's details are one breakdown or empty: the breakdowns' values come flat, in order.
    const { key, names, present, values } = b;
    const build = breakdownOf(names);
    for (let i = 0, at = 0; i < len; i++) {
      if (present.charCodeAt(i) === 49) {
        out[i][key] = build(values, at);
        at += names.length;
      }
    }
  } else if (m.details !== undefined) {
    // Only the details that are not empty come, in order; `details_at` says which cells have them.
    const { details, details_at: where } = m;
    for (let i = 0, k = 0; i < len; i++) if (where.charCodeAt(i) === 49) out[i] = details[k++];
  }
  return out;
}

/** The results of a metric column's cells, as an array. */
function resultsColumn(m, statuses, empty) {
  const { head, score, status } = m;
  const len = status.length;
  const details = detailsColumn(m, len, empty);
  const out = new Array(len);
  if (sameKeys(head, HEAD_KEYS)) {
    // Object literals of one fixed shape: several times faster to build than spreads.
    const { metric_name, threshold, criterion, custom_function_path } = head;
    for (let i = 0; i < len; i++) {
      out[i] = {
        metric_name, threshold, criterion, custom_function_path,
        score: score[i], eval_status: statuses[status.charCodeAt(i) - 48], details: details[i],
      };
    }
  } else {
    for (let i = 0; i < len; i++) {
      out[i] = { ...head, score: score[i], eval_status: statuses[status.charCodeAt(i) - 48], details: details[i] };
    }
  }
  return out;
}

/**
 * Replaces the column form in `result.eval_metric_result_per_invocation` with its rows.
 * `held` is `{actual, expected}`, the objects the core was told the skin holds; returns the
 * invocations the wire carried (`{actual, expected}`) when it carried them, else null.
 */
export function expandColumns(result, held) {
  const cols = result?.eval_metric_result_per_invocation;
  if (cols === null || typeof cols !== 'object' || Array.isArray(cols) || cols.columns !== 1) return null;
  const { n, statuses, empty, metrics } = cols;
  let actual = null;
  let expected = null;
  let carried = null;
  if (cols.invocations === 'here') {
    actual = cols.actual;
    expected = cols.expected;
    carried = { actual, expected };
  } else if (cols.invocations === 'caller') {
    // A list the wire carries replaces the held one (the caller's objects did not read the same).
    actual = 'actual' in cols ? cols.actual : held?.actual;
    expected = 'expected' in cols ? cols.expected : cols.expected_len === null ? null : held?.expected;
    if (!Array.isArray(actual) || actual.length !== n
      || (cols.expected_len !== null && (!Array.isArray(expected) || expected.length !== cols.expected_len))) {
      throw new EvalError('internal', '', 'evalcore: the invocations held for a result do not match the ones the core scored');
    }
  }
  const echo = actual !== null;
  const columns = metrics.map((m) => resultsColumn(m, statuses, empty));
  // Every metric has a cell for every invocation: one array literal per row.
  const whole = columns.every((c) => c.length >= n);
  const [first, second] = columns;
  const rows = new Array(n);
  for (let i = 0; i < n; i++) {
    let list;
    if (whole && columns.length === 1) {
      list = [first[i]];
    } else if (whole && columns.length === 2) {
      list = [first[i], second[i]];
    } else {
      list = [];
      for (const c of columns) if (i < c.length) list.push(c[i]);
    }
    rows[i] = echo
      ? { actual_invocation: actual[i], expected_invocation: expected === null ? null : (expected[i] ?? null), eval_metric_results: list }
      : { eval_metric_results: list };
  }
  result.eval_metric_result_per_invocation = rows;
  return carried;
}
