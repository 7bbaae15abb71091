// What the viewer shows, derived from results the package has loaded: rows per case, the metric
// columns, flips across repeated runs, NOT_EVALUATED reasons, filters, sorts, run comparison,
// and the runs its pickers offer. Plain data in, plain data out (no DOM), so Node tests can
// check it too.
import { when } from './dom.js';

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
 * What an agent did in an invocation, in order: `{kind: 'said', author, text}` for the text it
 * said beside its tool calls (ADK's intermediate responses) and `{kind: 'call', author, name,
 * args}` for each tool call. From the events (`invocation_events`, ADK 2.x), else from the older
 * `tool_uses` and `intermediate_responses` (`[author, parts]` pairs; their order between each
 * other is not recorded, so the responses come first). The final response is not a step.
 */
export function stepsOf(inv) {
  const data = inv && inv.intermediate_data;
  if (!data || typeof data !== 'object') return [];
  const out = [];
  const fromParts = (author, parts) => {
    for (const p of Array.isArray(parts) ? parts : []) {
      if (!p || typeof p !== 'object') continue;
      if (typeof p.text === 'string' && p.text.trim() && p.thought !== true) out.push({ kind: 'said', author, text: p.text });
      else if (p.function_call) out.push({ kind: 'call', author, name: String(p.function_call.name ?? ''), args: p.function_call.args ?? {} });
    }
  };
  if (Array.isArray(data.invocation_events)) {
    for (const ev of data.invocation_events) fromParts(String(ev?.author ?? ''), ev?.content?.parts);
    return out;
  }
  for (const r of Array.isArray(data.intermediate_responses) ? data.intermediate_responses : []) {
    if (Array.isArray(r)) fromParts(String(r[0] ?? ''), r[1]);
  }
  for (const t of Array.isArray(data.tool_uses) ? data.tool_uses : []) out.push({ kind: 'call', author: '', name: String(t?.name ?? ''), args: t?.args ?? {} });
  return out;
}

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

// ---------------------------------------------------------------- the runs offered
// Each result file, and the results of one eval set in one folder merged (repeated runs). A
// file's folder is its name up to the last `/` (a folder opened in the page, dropped, or given to
// `evalcore view` keeps it), so a baseline folder and a candidate folder stay apart.

/** The folder part of a file's name ('' for a name without one). */
export function folderOf(name) {
  const at = String(name).lastIndexOf('/');
  return at < 0 ? '' : name.slice(0, at);
}

/** The result files among `files` (the page's list) with their index: `[{f, i}]`. */
export function resultFiles(files) {
  return files.map((f, i) => ({ f, i })).filter(({ f }) => f.kind === 'result');
}

/** The folders of the result files read from files (not rescored), in the order they were opened. */
export function resultFolders(files) {
  return [...new Set(resultFiles(files).filter(({ f }) => !f.derived).map(({ f }) => folderOf(f.name)))];
}

// A merged run's key: `set:` and the folder and eval set id as JSON (either may hold any text).
const setKey = (folder, id) => `set:${JSON.stringify([folder, id])}`;

/** `{folder, id}` of a merged run's key, or null for a result file's key (its index). */
export function mergedOf(key) {
  if (typeof key !== 'string' || !key.startsWith('set:')) return null;
  try {
    const [folder, id] = JSON.parse(key.slice(4));
    return typeof folder === 'string' && typeof id === 'string' ? { folder, id } : null;
  } catch {
    return null;
  }
}

/** The loaded results a run key stands for (one file's, or a merged run's), `[]` when none. */
export function resultsOf(files, key) {
  if (key === null || key === undefined) return [];
  const merged = mergedOf(key);
  if (merged) {
    return resultFiles(files).filter(({ f }) => !f.derived && f.value.eval_set_id === merged.id && folderOf(f.name) === merged.folder).map(({ f }) => f.value);
  }
  const f = files[Number(key)];
  return f?.kind === 'result' ? [f.value] : [];
}

/** What a run key is called in a file name or a heading: the eval set of a merged run, else the file's name. */
export function keyName(files, key, { folder = false } = {}) {
  const merged = mergedOf(key);
  if (merged) return folder && merged.folder ? `${merged.folder}/${merged.id}` : merged.id;
  return String(files[Number(key)]?.name ?? '');
}

/** A run's label as shown: cut where a picker would be swamped (a file may hold any name). */
export function labelOf(result) {
  const label = runLabel(result);
  return label && label.length > 120 ? `${label.slice(0, 120)}…` : label;
}

/** A result file in a picker: its label (`--run_name`) first, then file, eval set, size and time. */
function runText(f) {
  const label = labelOf(f.value);
  const time = f.value.creation_timestamp ? `, ${when(f.value.creation_timestamp)}` : '';
  return `${label ? `${label} — ` : ''}${f.name} — ${f.value.eval_set_id} (${f.value.eval_case_results.length} results${time})`;
}

/**
 * The runs one can pick, newest first: `[{key, label, folder}]`, each result file (of `folder`
 * only, when given), then each eval set with several results in one folder, merged.
 */
export function runChoices(files, folder = null) {
  const list = resultFiles(files).filter(({ f }) => folder === null || (!f.derived && folderOf(f.name) === folder));
  const out = newestFirst(list.map(({ f }) => f.value)).map((k) => ({ key: String(list[k].i), label: runText(list[k].f), folder: folderOf(list[k].f.name) }));
  const several = resultFolders(files).length > 1;
  const bySet = new Map();
  for (const { f } of list) {
    if (f.derived) continue;
    const key = setKey(folderOf(f.name), f.value.eval_set_id);
    const seen = bySet.get(key) ?? { n: 0, id: f.value.eval_set_id, folder: folderOf(f.name) };
    seen.n++;
    bySet.set(key, seen);
  }
  for (const [key, { n, id, folder: dir }] of bySet) {
    if (n > 1) out.push({ key, folder: dir, label: `all ${n} runs of ${id}${several ? ` in ${dir || '(no folder)'}/` : ''} (repeated runs: flips and spread)` });
  }
  return out;
}

/**
 * Compare's defaults, `{base, cand, baseFolder, candFolder}`: with results from several folders,
 * the newest of the first folder opened against the newest of the second (a baseline folder, then
 * a candidate folder); from one folder, the newest run against the newest before it of the same
 * eval set (else the next newest). Folders are null when the results come from one folder.
 */
export function defaultPair(files) {
  const folders = resultFolders(files);
  if (folders.length > 1) {
    const [baseFolder, candFolder] = folders;
    return { base: runChoices(files, baseFolder)[0].key, cand: runChoices(files, candFolder)[0].key, baseFolder, candFolder };
  }
  const choices = runChoices(files);
  const single = choices.filter((c) => !mergedOf(c.key));
  const cand = single[0] ?? choices[0];
  const setOf = (c) => files[Number(c.key)]?.value?.eval_set_id;
  const base = single.slice(1).find((c) => setOf(c) === setOf(cand)) ?? choices.find((c) => c !== cand);
  return { base: base.key, cand: cand.key, baseFolder: null, candFolder: null };
}
