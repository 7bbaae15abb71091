// What the viewer shows, derived from results the package has loaded: rows per case, the metric
// columns, flips across repeated runs, NOT_EVALUATED reasons, filters, sorts and run
// comparison. Plain data in, plain data out (no DOM), so Node tests can check it too.

export const STATUSES = ['PASSED', 'FAILED', 'NOT_EVALUATED', 'INFORMATIONAL'];
const RANK = { FAILED: 3, NOT_EVALUATED: 2, PASSED: 1, INFORMATIONAL: 0 };
const USAGE = {
  token_usage_v1: 'tokens', invocation_duration_v1: 'seconds', inference_call_count_v1: 'inferenceCalls',
  tool_call_count_v1: 'toolCalls',
};

/** The worse of two statuses (FAILED > NOT_EVALUATED > PASSED). */
export function worse(a, b) {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return (RANK[b] ?? 0) > (RANK[a] ?? 0) ? b : a;
}

const textOf = (content) => {
  const parts = content && Array.isArray(content.parts) ? content.parts : [];
  let out = '';
  for (const p of parts) if (p && typeof p.text === 'string') out += (out ? '\n' : '') + p.text;
  return out;
};
export { textOf };

/**
 * Why a metric was not evaluated: `details.reason` (the core's code, e.g. `needs_judge`) and
 * `details.error` (its words) as `reason: error`, either alone, else "(no reason given)".
 */
export function reasonOf(m) {
  const d = m && m.details;
  const reason = d && typeof d.reason === 'string' && d.reason ? d.reason : null;
  const error = d && typeof d.error === 'string' && d.error ? d.error : null;
  const r = reason && error && reason !== error ? `${reason}: ${error}` : reason ?? error;
  if (!r) return '(no reason given)';
  return r.length > 300 ? `${r.slice(0, 300)}…` : r;
}

/**
 * Rows of a run: one per eval id, its repetitions (every eval_case_result with that id, in the
 * order given), per metric the statuses and scores of every repetition, and usage totals.
 * `results` is a list of loaded EvalSetResults (one file, or every run of an eval set).
 */
export function buildRun(results) {
  const byId = new Map();
  const metricOrder = new Map();
  const reasons = new Map(); // metric -> Map(reason -> count)
  let caseResults = 0;
  let hasUsage = false;
  for (let ri = 0; ri < results.length; ri++) {
    const res = results[ri];
    for (const cr of res.eval_case_results || []) {
      caseResults++;
      const id = String(cr.eval_id);
      let row = byId.get(id);
      if (!row) {
        row = {
          id, evalSetId: cr.eval_set_id ?? res.eval_set_id, reps: [], status: undefined, statuses: [],
          metrics: new Map(), tokens: 0, seconds: 0, inferenceCalls: 0, toolCalls: 0, flips: 0, spread: 0, search: null,
        };
        byId.set(id, row);
      }
      row.reps.push({ result: cr, file: ri });
      const fs = cr.final_eval_status;
      row.statuses.push(fs);
      row.status = worse(row.status, fs);
      for (const m of cr.overall_eval_metric_results || []) {
        const name = String(m.metric_name);
        const usage = USAGE[name];
        if (usage && m.eval_status === 'INFORMATIONAL') {
          hasUsage = true;
          if (typeof m.score === 'number' && Number.isFinite(m.score)) row[usage] += m.score;
          continue;
        }
        if (!metricOrder.has(name)) metricOrder.set(name, metricOrder.size);
        let cell = row.metrics.get(name);
        if (!cell) {
          cell = { statuses: [], scores: [], threshold: m.threshold, status: undefined, mean: null, spread: 0, reason: null };
          row.metrics.set(name, cell);
        }
        cell.statuses.push(m.eval_status);
        cell.status = worse(cell.status, m.eval_status);
        if (typeof m.score === 'number' && Number.isFinite(m.score)) cell.scores.push(m.score);
        if (m.eval_status === 'NOT_EVALUATED') {
          const r = reasonOf(m);
          cell.reason ??= r;
          let per = reasons.get(name);
          if (!per) reasons.set(name, (per = new Map()));
          per.set(r, (per.get(r) || 0) + 1);
        }
      }
    }
  }
  const rows = [...byId.values()];
  for (const row of rows) {
    const reps = row.reps.length;
    // Repetitions average the usage figures.
    row.tokens /= reps; row.seconds /= reps; row.inferenceCalls /= reps; row.toolCalls /= reps;
    const differs = (xs) => { for (let i = 1; i < xs.length; i++) if (xs[i] !== xs[0]) return true; return false; };
    let flips = differs(row.statuses) ? 1 : 0;
    let spread = 0;
    for (const cell of row.metrics.values()) {
      if (cell.scores.length) {
        let lo = Infinity, hi = -Infinity, sum = 0;
        for (const x of cell.scores) { lo = Math.min(lo, x); hi = Math.max(hi, x); sum += x; }
        cell.mean = sum / cell.scores.length;
        cell.spread = hi - lo;
        spread = Math.max(spread, cell.spread);
      }
      if (differs(cell.statuses)) flips++;
    }
    row.flips = flips;
    row.spread = spread;
  }
  const metrics = [...metricOrder.keys()];
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0]));
  for (const row of rows) if (row.status in counts) counts[row.status]++;
  return { rows, metrics, reasons, counts, caseResults, hasUsage, repeated: rows.some((r) => r.reps.length > 1) };
}

/**
 * A run's label: the `eval_set_result_name` it was given (`evalcore eval --run_name`), or null
 * when the name is ADK's own (the result id with `/` made `_`) or absent.
 */
export function runLabel(result) {
  const name = result && result.eval_set_result_name;
  if (typeof name !== 'string' || !name.trim()) return null;
  const id = typeof result.eval_set_result_id === 'string' ? result.eval_set_result_id : '';
  return name === id.replaceAll('/', '_') ? null : name;
}

/**
 * The order runs are offered in: indexes of `results` newest first (by `creation_timestamp`;
 * of equal times, or none, the one given later first).
 */
export function newestFirst(results) {
  const ts = (r) => (typeof r.creation_timestamp === 'number' && Number.isFinite(r.creation_timestamp) ? r.creation_timestamp : -Infinity);
  return results.map((r, i) => i).sort((a, b) => ts(results[b]) - ts(results[a]) || b - a);
}

/** The text a row's regex filter searches: its id, the user turns and the responses (capped). */
export function searchText(row) {
  if (row.search !== null) return row.search;
  const cap = 2000;
  let out = row.id;
  const cr = row.reps[0].result;
  for (const inv of cr.eval_metric_result_per_invocation || []) {
    for (const side of [inv.actual_invocation, inv.expected_invocation]) {
      if (!side) continue;
      out += `\n${textOf(side.user_content).slice(0, cap)}\n${textOf(side.final_response).slice(0, cap)}`;
    }
  }
  row.search = out;
  return out;
}

/**
 * Keeps the rows that pass `f`: `{status, metric, min, max, regex (RegExp|null), flipsOnly}`.
 * With a metric, status and the score range apply to that metric's cell; without, status is the
 * case's and the range applies to any metric.
 */
export function filterRows(rows, f) {
  const min = Number.isFinite(f.min) ? f.min : -Infinity;
  const max = Number.isFinite(f.max) ? f.max : Infinity;
  const ranged = min !== -Infinity || max !== Infinity;
  return rows.filter((row) => {
    if (f.flipsOnly && row.flips === 0) return false;
    if (f.metric) {
      const cell = row.metrics.get(f.metric);
      if (!cell) return false;
      if (f.status && !cell.statuses.includes(f.status)) return false;
      if (ranged && !(cell.mean !== null && cell.mean >= min && cell.mean <= max)) return false;
    } else {
      if (f.status && !row.statuses.includes(f.status)) return false;
      if (ranged) {
        let any = false;
        for (const cell of row.metrics.values()) if (cell.mean !== null && cell.mean >= min && cell.mean <= max) { any = true; break; }
        if (!any) return false;
      }
    }
    if (f.regex && !f.regex.test(searchText(row))) return false;
    return true;
  });
}

const cmpStr = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** Sorts rows in place by `key` (`id`, `status`, `flips`, `tokens`, `seconds`, or `metric:NAME`). */
export function sortRows(rows, key, desc) {
  let get;
  if (key === 'status') get = (r) => RANK[r.status] ?? 0;
  else if (key === 'flips') get = (r) => r.flips * 10 + r.spread;
  else if (key === 'tokens' || key === 'seconds') get = (r) => r[key];
  else if (key.startsWith('metric:')) {
    const name = key.slice(7);
    get = (r) => { const c = r.metrics.get(name); return c && c.mean !== null ? c.mean : -Infinity; };
  }
  const dir = desc ? -1 : 1;
  if (!get) return rows.sort((a, b) => dir * cmpStr(a.id, b.id));
  return rows.sort((a, b) => dir * (get(a) - get(b)) || cmpStr(a.id, b.id));
}

/**
 * Histogram of a metric's mean scores: `bins` equal bins over [lo, hi] (over [0, 1] when every
 * score lies there), each bin's count split by the cell's status as the core decided it.
 */
export function histogram(rows, metric, bins = 10) {
  const cells = [];
  for (const r of rows) { const c = r.metrics.get(metric); if (c && c.mean !== null) cells.push(c); }
  if (!cells.length) return null;
  let lo = cells[0].mean, hi = lo;
  for (const c of cells) { if (c.mean < lo) lo = c.mean; if (c.mean > hi) hi = c.mean; }
  if (lo >= 0 && hi <= 1) { lo = 0; hi = 1; }
  if (hi === lo) hi = lo + 1;
  const counts = new Array(bins).fill(0);
  const byStatus = Array.from({ length: bins }, () => ({}));
  let threshold = null;
  for (const c of cells) {
    const i = Math.min(bins - 1, Math.floor(((c.mean - lo) / (hi - lo)) * bins));
    counts[i]++;
    byStatus[i][c.status] = (byStatus[i][c.status] || 0) + 1;
    if (threshold === null && typeof c.threshold === 'number') threshold = c.threshold;
  }
  return { lo, hi, counts, byStatus, n: cells.length, threshold };
}

/** The metrics evaluated on one side and NOT_EVALUATED on the other: `[{name, side, reason}]`. */
function unevaluatedOneSide(br, cr, names) {
  const out = [];
  for (const name of names) {
    const x = br.metrics.get(name), y = cr.metrics.get(name);
    // A metric on one side only (switched off, or added) is not compared at all.
    if (!x || !y || (x.status === 'NOT_EVALUATED') === (y.status === 'NOT_EVALUATED')) continue;
    const [side, cell] = x.status === 'NOT_EVALUATED' ? ['baseline', x] : ['candidate', y];
    out.push({ name, side, reason: cell.reason ?? '(no reason given)' });
  }
  return out;
}

/**
 * How a case changed, by its final status (what the counts count): `regressed` (PASSED ->
 * FAILED), `improved`, `same`, or `incomparable` when the change says nothing about the agent:
 * a side was NOT_EVALUATED, or a side PASSED without a metric the other side evaluated (a judged
 * metric rescored without a judge), which could have failed it. A side that FAILED anyway is
 * certain. `why` lists what made the case not comparable.
 */
function caseChange(br, cr, names) {
  const passed = { baseline: br.status === 'PASSED', candidate: cr.status === 'PASSED' };
  const why = unevaluatedOneSide(br, cr, names).filter((w) => passed[w.side]);
  const whole = [br.status === 'NOT_EVALUATED' ? 'baseline' : null, cr.status === 'NOT_EVALUATED' ? 'candidate' : null].filter(Boolean);
  if (whole.length && !why.length) why.push({ name: null, side: whole.join(' and '), reason: 'the case was NOT_EVALUATED' });
  if (why.length) return { kind: 'incomparable', why };
  const before = RANK[br.status] ?? 0, after = RANK[cr.status] ?? 0;
  return { kind: after > before ? 'regressed' : after < before ? 'improved' : 'same', why };
}

/**
 * Baseline vs candidate, per case and metric: `{rows, names, tally}` where each row is
 * `{id, kind, before, after, why, scoreDown, scoreUp, metrics: [{name, before, after, delta,
 * beforeStatus, afterStatus, comparable}]}` with kind from the case's final status (see
 * caseChange) or `added` / `removed`; regressions first, then the largest score drops. A score
 * that moved without changing the status marks the row (`scoreDown`, `scoreUp`) but is counted
 * as `same`.
 */
export function compareRuns(base, cand) {
  const b = new Map(base.rows.map((r) => [r.id, r]));
  const c = new Map(cand.rows.map((r) => [r.id, r]));
  const names = [...new Set([...base.metrics, ...cand.metrics])];
  const out = [];
  for (const id of new Set([...b.keys(), ...c.keys()])) {
    const br = b.get(id), cr = c.get(id);
    if (!br || !cr) {
      out.push({ id, kind: br ? 'removed' : 'added', status: (cr || br).status, before: br?.status, after: cr?.status, metrics: [], worst: 0, why: [] });
      continue;
    }
    const metrics = [];
    let worst = 0, best = 0;
    for (const name of names) {
      const x = br.metrics.get(name), y = cr.metrics.get(name);
      if (!x && !y) continue;
      const before = x ? x.mean : null, after = y ? y.mean : null;
      const comparable = Boolean(x && y) && (x.status === 'NOT_EVALUATED') === (y.status === 'NOT_EVALUATED');
      const delta = comparable && before !== null && after !== null ? after - before : null;
      if (delta !== null && delta < worst) worst = delta;
      if (delta !== null && delta > best) best = delta;
      metrics.push({ name, before, after, delta, beforeStatus: x?.status, afterStatus: y?.status, comparable });
    }
    const { kind, why } = caseChange(br, cr, names);
    out.push({
      id, kind, before: br.status, after: cr.status, metrics, worst, why,
      scoreDown: kind === 'same' && worst < -1e-12, scoreUp: kind === 'same' && best > 1e-12,
    });
  }
  const order = { regressed: 0, added: 1, removed: 2, incomparable: 3, improved: 4, same: 5 };
  out.sort((p, q) => order[p.kind] - order[q.kind] || p.worst - q.worst || cmpStr(p.id, q.id));
  const tally = { regressed: 0, improved: 0, same: 0, added: 0, removed: 0, incomparable: 0, scoreDown: 0 };
  for (const r of out) {
    tally[r.kind]++;
    if (r.scoreDown) tally.scoreDown++;
  }
  return { rows: out, names, tally };
}
