// Rescoring a run without re-running the agent: criteria edited in the page (thresholds,
// match_type, which metrics) become an eval config that the package validates; every case
// result's expected and actual invocations are prepared once in the page's wasm and scored
// again under it. Judged metrics come back NOT_EVALUATED with the core's reason (no judge here).
import { h } from './dom.js';
import { runLabel } from './model.js';

const MATCH_TYPES = ['EXACT', 'IN_ORDER', 'ANY_ORDER'];
const KNOWN = ['response_match_score', 'tool_trajectory_avg_score', 'final_response_match_v2', 'hallucinations_v1',
  'safety_v1', 'rubric_based_final_response_quality_v1', 'rubric_based_tool_use_quality_v1', 'per_turn_user_simulator_quality_v1'];
const prepared = new WeakMap(); // case result -> PreparedCase (parsed once, scored many times)

/** The criteria a run was scored with, from its metric results (the first one met per metric). */
export function criteriaOf(results) {
  const out = {};
  for (const res of results) for (const cr of res.eval_case_results || []) {
    for (const m of cr.overall_eval_metric_results || []) {
      if (m.eval_status === 'INFORMATIONAL' || m.metric_name in out) continue;
      const c = m.criterion && typeof m.criterion === 'object' ? { ...m.criterion } : {};
      if (typeof m.threshold === 'number' && c.threshold === undefined) c.threshold = m.threshold;
      out[m.metric_name] = c;
    }
  }
  return out;
}

function prepare(api, cr) {
  let p = prepared.get(cr);
  if (p) return p;
  const args = caseArgs(cr);
  if (!args) return null;
  p = api.prepareCase(args);
  prepared.set(cr, p);
  return p;
}

async function rescoreJudged(api, results, config, onProgress, judge) {
  const out = [];
  let skipped = 0, changed = 0, done = 0;
  const errors = [];
  const total = results.reduce((a, r) => a + (r.eval_case_results || []).length, 0);
  for (const res of results) {
    const list = res.eval_case_results || [];
    const cases = new Array(list.length).fill(null);
    let next = 0;
    const worker = async () => {
      while (next < list.length) {
        const i = next++;
        const cr = list[i];
        const args = caseArgs(cr);
        if (!args) { skipped++; continue; }
        try {
          const r = await api.evaluateInvocations({ ...args, config, judge });
          r.run = cr.run;
          if (r.final_eval_status !== cr.final_eval_status) changed++;
          cases[i] = r;
        } catch (e) {
          errors.push({ id: cr.eval_id, code: e.code ?? 'error', path: e.path ?? '', message: e.message });
        }
        onProgress?.(++done, total);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    out.push(rescoredSet(res, cases.filter(Boolean)));
  }
  return { results: out, skipped, errors, changed };
}

/** The judge calls rescoring `results` with `judge` would make: `{count, tokens, cases}`. */
async function planCalls(api, results, config, judge) {
  let count = 0, tokens = 0, cases = 0;
  for (const res of results) {
    for (const cr of res.eval_case_results || []) {
      const args = caseArgs(cr);
      if (!args) continue;
      try {
        const plan = await api.planJudgeCalls({ ...args, config, judge });
        count += plan.count + (plan.pendingValidatorCallsAtMost || 0);
        tokens += plan.estimatedTokens;
        cases++;
      } catch {
        // The run itself reports the case's error.
      }
    }
  }
  return { count, tokens, cases };
}

const KEY_HEADER = {
  gemini: (k) => ({ 'x-goog-api-key': k }),
  openai: (k) => ({ authorization: `Bearer ${k}` }),
  // Anthropic answers a browser only when it says it is one.
  anthropic: (k) => ({ 'x-api-key': k, 'anthropic-dangerous-direct-browser-access': 'true' }),
};

/** The judge fields: provider, model, base URL, key (kept in this closure only, never stored). */
function judgeFields() {
  const provider = h('select', { 'aria-label': 'judge provider', id: 'judge-provider' }, ['gemini', 'openai', 'anthropic'].map((p) => h('option', { value: p }, p)));
  const model = h('input', { type: 'text', id: 'judge-model', placeholder: 'model, e.g. gemini-2.5-flash', 'aria-label': 'judge model', spellcheck: 'false', autocomplete: 'off' });
  const base = h('input', { type: 'url', id: 'judge-base', placeholder: 'base URL (default: the provider\'s)', 'aria-label': 'judge base URL', spellcheck: 'false', autocomplete: 'off' });
  const key = h('input', { type: 'password', id: 'judge-key', placeholder: 'API key', 'aria-label': 'judge API key', autocomplete: 'off' });
  // In a form of its own (browsers expect a password field in one); it never submits.
  const box = h('form', { class: 'judge-form', onsubmit: (e) => e.preventDefault() }, h('fieldset', { class: 'judge' }, h('legend', null, 'Judge for judged metrics (optional)'),
    provider, ' ', model, ' ', base, ' ', key,
    h('p', { class: 'muted' }, 'The key stays in this page\'s memory: it is sent only with the judge calls to the endpoint above, never stored or sent anywhere else. Judged rescoring runs only when you press "Rescore now".')));
  const judge = () => {
    const m = model.value.trim();
    if (!m) return null;
    const j = { provider: provider.value, model: m, fetch: (...a) => globalThis.fetch(...a), maxRetries: 1 };
    if (base.value.trim()) j.baseUrl = base.value.trim();
    if (key.value) j.headers = KEY_HEADER[provider.value](key.value);
    return j;
  };
  return { box, judge };
}

/** A result rescored: its id marked, its label (if any) kept, else ADK's name for the new id. */
function rescoredSet(res, cases) {
  const id = `${res.eval_set_result_id ?? res.eval_set_id} (rescored)`;
  return { ...res, eval_set_result_id: id, eval_set_result_name: runLabel(res) ?? id.replaceAll('/', '_'), eval_case_results: cases };
}

/** The expected case and the actual invocations a case result holds, or null without them. */
export function caseArgs(cr) {
  const invs = cr.eval_metric_result_per_invocation || [];
  if (!invs.length || invs.some((i) => !i.expected_invocation || !i.actual_invocation)) return null;
  return {
    evalCase: { eval_id: cr.eval_id, conversation: invs.map((i) => i.expected_invocation) },
    actual: invs.map((i) => i.actual_invocation),
    evalSetId: cr.eval_set_id,
  };
}

/**
 * Scores every case result of `results` under `config`; yields to the page every few hundred
 * cases. With `judge`, judged metrics are judged through it (`evaluateInvocations`, four cases
 * at a time); without, every case is prepared once and scored by the page's wasm alone.
 * Resolves to `{results: [EvalSetResult], skipped, errors, changed}`.
 */
export async function rescore(api, results, config, onProgress, judge = null) {
  const out = [];
  let skipped = 0, changed = 0, done = 0;
  const errors = [];
  const total = results.reduce((a, r) => a + (r.eval_case_results || []).length, 0);
  if (judge) return rescoreJudged(api, results, config, onProgress, judge);
  for (const res of results) {
    const cases = [];
    for (const cr of res.eval_case_results || []) {
      let p = null;
      try {
        p = prepare(api, cr);
        if (!p) { skipped++; continue; }
        const next = p.evaluate(config, { includeInvocations: true });
        next.run = cr.run;
        if (next.final_eval_status !== cr.final_eval_status) changed++;
        cases.push(next);
      } catch (e) {
        errors.push({ id: cr.eval_id, code: e.code ?? 'error', path: e.path ?? '', message: e.message });
      }
      if (++done % 250 === 0) {
        onProgress?.(done, total);
        await new Promise((r) => setTimeout(r, 0));
      }
    }
    out.push(rescoredSet(res, cases));
  }
  return { results: out, skipped, errors, changed };
}

/**
 * The panel: one row per metric (include, threshold, match_type for trajectories), a metric to
 * add, a loaded config to start from; every change rescores. `onResult(outcome, config)`.
 */
export function rescorePanel(api, { results, configs, onResult }) {
  let criteria = criteriaOf(results);
  const status = h('p', { class: 'muted', id: 'rescore-status', role: 'status' });
  const rows = h('tbody');
  const problems = h('div', { class: 'problems' });
  let timer = 0;
  let generation = 0;

  const config = () => ({ criteria: Object.fromEntries(Object.entries(criteria).filter(([, c]) => !c.__off).map(([k, c]) => {
    const { __off, ...rest } = c;
    return [k, rest];
  })) });

  const judging = judgeFields();

  async function run(explicit) {
    const mine = ++generation;
    const cfg = config();
    const judge = judging.judge();
    const report = api.validateEvalConfig(cfg);
    problems.replaceChildren(...[...report.errors, ...report.warnings].map((e) => h('div', { class: report.errors.includes(e) ? 'err' : 'warn' },
      h('code', null, e.code), e.path ? [' at ', h('code', null, e.path)] : null, `: ${e.message}`)));
    if (!report.ok) { status.textContent = 'Not rescored: the config has errors.'; return; }
    if (judge && explicit !== true) {
      // What pressing the button would send: the core plans every judge call, sending none.
      status.textContent = 'A judge is set: counting the judge calls…';
      const plan = await planCalls(api, results, cfg, judge);
      if (mine !== generation) return;
      status.textContent = `A judge is set: ${plan.count} judge call${plan.count === 1 ? '' : 's'} (about ${plan.tokens.toLocaleString('en-US')} tokens)`
        + ` for ${plan.cases} case results; press "Rescore now" to send them.`;
      return;
    }
    const t0 = performance.now();
    status.textContent = 'Rescoring…';
    const outcome = await rescore(api, results, cfg, (d, n) => { if (mine === generation) status.textContent = `Rescoring… ${d} of ${n}`; }, judge);
    if (mine !== generation) return;
    status.textContent = `Rescored ${outcome.results.reduce((a, r) => a + r.eval_case_results.length, 0)} case results in ${Math.round(performance.now() - t0)} ms: `
      + `${outcome.changed} final status${outcome.changed === 1 ? '' : 'es'} changed`
      + `${outcome.skipped ? `, ${outcome.skipped} without expected invocations skipped` : ''}${outcome.errors.length ? `, ${outcome.errors.length} errors` : ''}.`;
    for (const e of outcome.errors.slice(0, 5)) problems.appendChild(h('div', { class: 'err' }, `${e.id}: `, h('code', null, e.code), e.path ? [' at ', h('code', null, e.path)] : null, `: ${e.message}`));
    onResult(outcome, cfg);
  }
  const schedule = () => { clearTimeout(timer); timer = setTimeout(() => run(false), 200); };

  function draw() {
    rows.replaceChildren(...Object.entries(criteria).map(([name, c]) => {
      const on = h('input', { type: 'checkbox', checked: !c.__off, 'aria-label': `use ${name}` });
      on.addEventListener('change', () => { c.__off = !on.checked; schedule(); });
      const th = h('input', { type: 'number', step: 'any', value: typeof c.threshold === 'number' ? c.threshold : '', 'aria-label': `${name} threshold`, class: 'threshold', dataset: { metric: name } });
      th.addEventListener('input', () => { if (th.value === '') delete c.threshold; else c.threshold = Number(th.value); schedule(); });
      let extra = null;
      if (name === 'tool_trajectory_avg_score') {
        const cur = typeof c.match_type === 'string' ? c.match_type.toUpperCase().replace(/[\s-]+/g, '_') : 'EXACT';
        extra = h('select', { 'aria-label': `${name} match_type`, class: 'match-type' }, MATCH_TYPES.map((m) => h('option', { value: m, selected: m === cur }, m)));
        extra.addEventListener('change', () => { c.match_type = extra.value; schedule(); });
      }
      return h('tr', null, h('td', null, on), h('td', null, h('code', null, name)), h('td', null, th), h('td', null, extra));
    }));
  }

  const add = h('input', { type: 'text', list: 'known-metrics', placeholder: 'metric name', 'aria-label': 'metric to add', spellcheck: 'false' });
  const addBtn = h('button', { type: 'button' }, 'Add metric');
  addBtn.addEventListener('click', () => {
    const name = add.value.trim();
    if (!name || name in criteria) return;
    criteria[name] = { threshold: 0.5 };
    add.value = '';
    draw();
    schedule();
  });
  const from = h('select', { 'aria-label': 'start from' }, h('option', { value: '' }, 'the run\'s own criteria'),
    configs.map((c, i) => h('option', { value: String(i) }, c.name)));
  from.addEventListener('change', () => {
    criteria = from.value === '' ? criteriaOf(results) : structuredClone(configs[Number(from.value)].value.criteria || {});
    draw();
    schedule();
  });
  draw();
  return h('details', { class: 'rescore', id: 'rescore' },
    h('summary', null, 'Rescore without re-running the agent'),
    h('p', { class: 'muted' }, 'Change thresholds, match_type or the metrics: every case is scored again here by the evalcore module. Judged metrics need a judge (below); without one they come back NOT_EVALUATED.'),
    h('label', null, 'Start from ', from),
    h('table', { class: 'grid' }, h('thead', null, h('tr', null, h('th', null, 'use'), h('th', null, 'metric'), h('th', null, 'threshold'), h('th', null, 'match_type'))), rows),
    h('div', { class: 'filters' }, add, h('datalist', { id: 'known-metrics' }, KNOWN.map((k) => h('option', { value: k }))), addBtn,
      (() => { const b = h('button', { type: 'button', id: 'rescore-run' }, 'Rescore now'); b.addEventListener('click', () => run(true)); return b; })()),
    judging.box,
    problems, status);
}

