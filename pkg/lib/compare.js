// `compareRuns` and `calibrate`. Results are read by the core (loadEvalSetResult: every shape
// ADK writes), then this file keeps COMPARE.md's books (which cases and metrics, each case's
// change, the verdict) and the core computes every number from them in one numeric call each
// (src/compare: numpy-exact means, the paired t-test and its interval, Holm, McNemar, Wilson,
// kappa). The bookkeeping lives here, not in the core, because it is not statistics and the
// module's size budget had no room for it (measured: +11.8 KB gzip in Rust, against +3 KB for
// the numbers alone). Labels are read and matched in labels.js.
import { loadEvalSetResult } from './api.js';
import { EvalError } from './errors.js';
import { callExtras, instance } from './instance.js';
import { DEFAULT_KAPPA_THRESHOLD, calibrateLabels, readLabels } from './labels.js';
import { MAX_TEXT_LENGTH, describe, parseJsonBytes } from './wire.js';

const encoder = new TextEncoder();
const NONE = new Float64Array(0);

/** The core's statistics (src/api/compare.rs: `kind` selects the function), in the extras module. */
const stats = (kind, a, b = NONE) => callExtras('statsF64', kind, Float64Array.from(a), Float64Array.from(b));

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

// ---------------------------------------------------------------------------------------------
// COMPARE.md's bookkeeping: cases, their runs and scores on each side; the numbers come from
// the core.

const PASSED = 'PASSED';
const NOT_EVALUATED = 'NOT_EVALUATED';

/** A status over several runs: NOT_EVALUATED when any is, PASSED when all are, else FAILED (INFORMATIONAL when every one is). */
function combine(acc, s) {
  if (acc === undefined) return s;
  if (acc === NOT_EVALUATED || s === NOT_EVALUATED) return NOT_EVALUATED;
  if (acc === s && (s === PASSED || s === 'INFORMATIONAL')) return s;
  return 'FAILED';
}

/** Every case of a side in first-seen order: its runs, status and metrics (counted scores, status, threshold). */
function gather(results) {
  const cases = new Map();
  for (const result of results) {
    for (const r of result.eval_case_results) {
      let c = cases.get(r.eval_id);
      if (!c) {
        c = { eval_id: r.eval_id, eval_set_id: r.eval_set_id || result.eval_set_id, runs: [], metrics: new Map(), status: undefined };
        cases.set(r.eval_id, c);
      }
      c.runs.push(r);
      c.status = combine(c.status, r.final_eval_status);
      for (const m of r.overall_eval_metric_results) {
        let e = c.metrics.get(m.metric_name);
        if (!e) c.metrics.set(m.metric_name, (e = { scores: [], status: undefined, threshold: null, score: null }));
        e.status = combine(e.status, m.eval_status);
        const counted = m.eval_status === PASSED || m.eval_status === 'FAILED';
        if (counted && typeof m.score === 'number' && Number.isFinite(m.score)) {
          e.scores.push(m.score);
          if (e.threshold === null && typeof m.threshold === 'number') e.threshold = m.threshold;
        }
      }
    }
  }
  for (const c of cases.values()) c.status = c.status === PASSED ? PASSED : c.status === NOT_EVALUATED ? NOT_EVALUATED : 'FAILED';
  return cases;
}

/** Every case metric's score: the mean of its counted runs (one call to the core for all). */
function caseScores(...sides) {
  const slots = [];
  const values = [];
  const sizes = [];
  for (const side of sides) {
    for (const c of side.values()) {
      for (const e of c.metrics.values()) {
        if (!e.scores.length) continue;
        slots.push(e);
        values.push(...e.scores);
        sizes.push(e.scores.length);
      }
    }
  }
  const means = slots.length ? stats(0, values, sizes) : [];
  slots.forEach((e, i) => { e.score = means[i]; });
}

const score = (c, name) => c?.metrics.get(name)?.score ?? null;

/**
 * The run number of each of a case's results on a side: its own `run` (as the run numbered
 * itself, whatever order the results come in) when every result has a distinct one, else its
 * place among them.
 */
function runNumbers(runs) {
  const own = runs.map((r) => r.run);
  return own.every((n) => Number.isSafeInteger(n) && n >= 0) && new Set(own).size === own.length ? own : runs.map((_, i) => i);
}

/** Why something on a side was not scored: NOT_EVALUATED metrics (details.reason / error) and agent errors. */
function notes(side, c) {
  const out = [];
  const numbers = runNumbers(c.runs);
  const order = c.runs.map((r, i) => i).sort((a, b) => numbers[a] - numbers[b]);
  for (const i of order) {
    const r = c.runs[i];
    const run = numbers[i];
    const str = (v) => (typeof v === 'string' ? v : null);
    if (r.error) out.push({ side, run, metric_name: null, reason: str(r.error.code), error: str(r.error.message) });
    for (const m of r.overall_eval_metric_results) {
      if (m.eval_status === NOT_EVALUATED) out.push({ side, run, metric_name: m.metric_name, reason: str(m.details?.reason), error: str(m.details?.error) });
    }
  }
  return out;
}

/** The runs of a side: the most any of its cases has (a result may hold several runs, a file one). */
const runsOf = (side) => [...side.values()].reduce((n, c) => Math.max(n, c.runs.length), 0);

function change(b, c) {
  if (b === null) return 'added';
  if (c === null) return 'removed';
  if (b === NOT_EVALUATED || c === NOT_EVALUATED) return 'not_comparable';
  if (b === PASSED && c !== PASSED) return 'regressed';
  if (c === PASSED && b !== PASSED) return 'improved';
  return 'unchanged';
}

/** Per metric over the cases scored on both sides (in baseline order): the core's paired statistics. */
function metricStats(base, cand) {
  const names = [...new Set([...base.values(), ...cand.values()].flatMap((c) => [...c.metrics.keys()]))].sort();
  const out = [];
  for (const name of names) {
    const b = [];
    const c = [];
    let threshold = null;
    for (const bc of base.values()) {
      const cc = cand.get(bc.eval_id);
      const x = score(bc, name);
      const y = score(cc, name);
      if (x === null || y === null) continue;
      b.push(x);
      c.push(y);
      threshold ??= cc.metrics.get(name).threshold ?? bc.metrics.get(name).threshold;
    }
    if (!b.length) continue;
    const [baseline_mean, candidate_mean, mean_delta, lo, hi, p_value] = stats(1, b, c);
    let higher = 0;
    let lower = 0;
    b.forEach((x, i) => { const d = c[i] - x; if (d > 0) higher++; else if (d < 0) lower++; });
    out.push({
      metric_name: name, n: b.length, baseline_mean, candidate_mean, mean_delta, ci95: [lo, hi], p_value,
      p_adjusted: p_value, significant: false, threshold, higher, lower,
    });
  }
  return out;
}

function caseEntry(id, bc, cc, listed) {
  const metrics = {};
  for (const m of listed) {
    const x = score(bc, m.metric_name);
    const y = score(cc, m.metric_name);
    if (x === null && y === null) continue;
    // defineProperty: a metric named "__proto__" is a key like any other.
    Object.defineProperty(metrics, m.metric_name, {
      enumerable: true, writable: true, configurable: true,
      value: {
        baseline: x, candidate: y, delta: x !== null && y !== null ? y - x : null,
        baseline_status: bc?.metrics.get(m.metric_name)?.status ?? null, candidate_status: cc?.metrics.get(m.metric_name)?.status ?? null,
      },
    });
  }
  const entry = {
    eval_id: id, eval_set_id: (bc ?? cc).eval_set_id, change: change(bc?.status ?? null, cc?.status ?? null),
    baseline_status: bc?.status ?? null, candidate_status: cc?.status ?? null,
    baseline_runs: bc?.runs.length ?? 0, candidate_runs: cc?.runs.length ?? 0, metrics,
  };
  const n = [...(bc ? notes('baseline', bc) : []), ...(cc ? notes('candidate', cc) : [])];
  if (n.length) entry.notes = n;
  return entry;
}

function passFail(cases) {
  const pf = { n: 0, baseline_passed: 0, candidate_passed: 0, b: 0, c: 0, p_value: 1 };
  for (const c of cases) {
    if (c.baseline_status === null || c.candidate_status === null) continue;
    const bp = c.baseline_status === PASSED;
    const cp = c.candidate_status === PASSED;
    pf.n++;
    pf.baseline_passed += bp ? 1 : 0;
    pf.candidate_passed += cp ? 1 : 0;
    if (bp && !cp) pf.b++;
    if (cp && !bp) pf.c++;
  }
  [pf.p_value] = stats(3, [pf.b, pf.c]);
  return pf;
}

function verdict(metrics, pf, alpha) {
  const flips = pf.p_value < alpha;
  if (metrics.some((m) => m.significant && m.mean_delta < 0) || (flips && pf.b > pf.c)) return 'regressed';
  if (metrics.some((m) => m.significant && m.mean_delta > 0) || (flips && pf.c > pf.b)) return 'improved';
  return 'no_significant_change';
}

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
  const b = loadSide(baseline, 'baseline');
  const c = loadSide(candidate, 'candidate');
  const base = gather(b);
  const cand = gather(c);
  caseScores(base, cand);
  const metrics = metricStats(base, cand);
  if (metrics.length) {
    stats(2, metrics.map((m) => m.p_value)).forEach((p, i) => {
      metrics[i].p_adjusted = p;
      metrics[i].significant = p < alpha;
    });
  }
  const cases = [];
  for (const bc of base.values()) cases.push(caseEntry(bc.eval_id, bc, cand.get(bc.eval_id), metrics));
  for (const cc of cand.values()) if (!base.has(cc.eval_id)) cases.push(caseEntry(cc.eval_id, undefined, cc, metrics));
  const pass_fail = passFail(cases);
  const sets = (list) => [...new Set(list.map((r) => r.eval_set_id))];
  return {
    cases, metrics, pass_fail, verdict: verdict(metrics, pass_fail, alpha), alpha,
    runs: { baseline: runsOf(base), candidate: runsOf(cand) },
    eval_set_ids: { baseline: sets(b), candidate: sets(c) },
  };
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
  const loaded = loadSide(results, 'results').map((r, i) => ({ r, i }));
  loaded.sort((a, b) => (a.r.creation_timestamp ?? 0) - (b.r.creation_timestamp ?? 0) || a.i - b.i);
  const sides = loaded.map(({ r }) => gather([r]));
  caseScores(...sides);
  const runs = loaded.map(({ r }, k) => {
    const cases = [...sides[k].values()];
    const passed = cases.filter((c) => c.status === PASSED).length;
    const [rate, lo, hi] = cases.length ? stats(4, [passed, cases.length - passed, 0, 0]) : [null, null, null];
    return {
      eval_set_result_id: r.eval_set_result_id, eval_set_id: r.eval_set_id, creation_timestamp: r.creation_timestamp ?? null,
      cases: cases.length, passed, pass_rate: rate, pass_rate_ci95: [lo, hi],
    };
  });
  const names = [...new Set(sides.flatMap((side) => [...side.values()].flatMap((c) => [...c.metrics.keys()])))].sort();
  const metrics = [];
  for (const name of names) {
    const points = sides.map((side, k) => {
      const scores = [...side.values()].map((c) => score(c, name)).filter((x) => x !== null);
      if (!scores.length) return null;
      // The interval of the mean: the paired statistics against zero.
      const [, mean, , lo, hi] = stats(1, new Float64Array(scores.length), scores);
      return { run: k, n: scores.length, mean, ci95: [lo, hi] };
    });
    if (points.some(Boolean)) metrics.push({ metric_name: name, points });
  }
  return { runs, metrics };
}
