// Why a tool trajectory did not match, as the core explains it (`details.trajectory`: per
// expected call the actual call it paired with, or the nearest one and each argument that failed
// under its policy). Result files ADK's way do not carry it: then the page asks the package to
// score the case's own invocations again with the same metric and criterion, and uses the
// explanation only when that score is the file's (so it explains the verdict shown).
import { h } from './dom.js';
import { caseArgs, criteriaOf } from './rescore.js';

const cache = new WeakMap(); // case result -> Promise of its explanations
let scored = null; // names of the deterministic metrics, from the core's registry

function deterministic(api) {
  if (!scored) scored = new Set(api.metricsInfo().filter((m) => m.kind === 'scored').map((m) => m.name));
  return scored;
}

const below1 = (m) => typeof m?.score === 'number' && m.score < 1;
const hasTrajectory = (m) => m?.details?.trajectory && typeof m.details.trajectory === 'object';

/** The deterministic metrics an invocation scored below 1 without saying why, by name. */
function unexplained(api, per) {
  const names = new Set();
  for (const inv of per) {
    for (const m of inv.eval_metric_results || []) {
      if (below1(m) && !hasTrajectory(m) && deterministic(api).has(m.metric_name)) names.add(m.metric_name);
    }
  }
  return names;
}

/** The same metrics scored again on the case's invocations; null when the case cannot be. */
async function recompute(api, result, names) {
  const args = caseArgs(result);
  if (!args || !names.size) return null;
  const all = criteriaOf([{ eval_case_results: [result] }]);
  const criteria = Object.fromEntries([...names].map((n) => [n, all[n] ?? {}]));
  try {
    return await api.evaluateInvocations({ ...args, config: { criteria } });
  } catch {
    // A criterion the core no longer takes: the page shows the plain diff instead.
    return null;
  }
}

/**
 * Per invocation of `result`, `[{metric, trajectory}]`: the file's explanations, else the core's
 * for the same metric when its score agrees with the file's. Resolves once per case result.
 */
export function explanations(api, result) {
  let p = cache.get(result);
  if (!p) {
    p = (async () => {
      const per = result.eval_metric_result_per_invocation || [];
      const again = await recompute(api, result, unexplained(api, per));
      return per.map((inv, i) => (inv.eval_metric_results || []).filter(below1).flatMap((m) => {
        if (hasTrajectory(m)) return [{ metric: m.metric_name, trajectory: m.details.trajectory }];
        const n = again?.eval_metric_result_per_invocation?.[i]?.eval_metric_results?.find((x) => x.metric_name === m.metric_name);
        return n && hasTrajectory(n) && Math.abs(n.score - m.score) < 1e-9 ? [{ metric: m.metric_name, trajectory: n.details.trajectory }] : [];
      }));
    })();
    cache.set(result, p);
  }
  return p;
}

const MAX_VALUE = 600;
const MAX_KEYS = 100;

/** A call's arguments, one top-level key a line, the failing ones marked. */
export function argsView(args, failing) {
  const show = (v) => {
    let t;
    try { t = JSON.stringify(v); } catch { t = String(v); }
    t = t ?? 'null';
    return t.length > MAX_VALUE ? `${t.slice(0, MAX_VALUE)}…` : t;
  };
  if (!args || typeof args !== 'object' || Array.isArray(args)) {
    return h('div', { class: 'json' }, failing.has('args') ? h('mark', { class: 'arg-diff' }, show(args)) : show(args));
  }
  const all = Object.keys(args);
  // The failing keys always, the others up to a bound (an argument object can be huge).
  const keys = all.filter((k, i) => i < MAX_KEYS || failing.has(k));
  const more = all.length - keys.length;
  // Pre-wrapped text: one key a line, the failing lines marked.
  return h('div', { class: 'json args' }, '{', keys.map((k, i) => {
    const pair = `${JSON.stringify(k)}: ${show(args[k])}`;
    return ['\n  ', failing.has(k) ? h('mark', { class: 'arg-diff', title: `argument ${k} failed` }, pair) : pair, i < keys.length - 1 || more ? ',' : ''];
  }), more ? `\n  … ${more} more` : null, keys.length ? '\n}' : '}');
}

/** The failing arguments of an explanation entry in words: `nums [exact] differs: expected …, actual …`. */
export function argLines(entry) {
  return (entry.args || []).map((f) => `${f.arg} [${f.policy}] ${f.why}: expected ${f.expected === undefined ? '(absent)' : JSON.stringify(f.expected)}, actual ${f.actual === undefined ? '(absent)' : JSON.stringify(f.actual)}`);
}

/**
 * The rows of a trajectory table from an explanation: each expected call with the actual call
 * it paired with (`matched`), the nearest one (`args` when arguments failed, `misplaced` when
 * the call agrees but is out of place) or none (`missing`); then the actual calls nothing took
 * (`extra`). `failing` are the argument names to mark.
 */
export function explainedRows(trajectory, expected, actual) {
  const rows = [];
  const shown = new Set();
  for (const e of Array.isArray(trajectory.expected) ? trajectory.expected : []) {
    const at = Number.isInteger(e.actual) ? e.actual : Number.isInteger(e.nearest) ? e.nearest : null;
    const failing = new Set((e.args || []).map((f) => f.arg));
    const kind = Number.isInteger(e.actual) ? (failing.size ? 'args' : 'matched') : at === null ? 'missing' : failing.size ? 'args' : 'misplaced';
    if (at !== null) shown.add(at);
    rows.push({ kind, expected: expected[e.index], actual: at === null ? undefined : actual[at], failing, why: [...argLines(e), ...(kind === 'missing' || kind === 'misplaced' ? [e.why] : [])].filter(Boolean) });
  }
  for (const a of Array.isArray(trajectory.unpaired_actual) ? trajectory.unpaired_actual : []) {
    if (!shown.has(a.index)) rows.push({ kind: 'extra', actual: actual[a.index], failing: new Set(), why: [] });
  }
  return rows;
}
