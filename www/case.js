// One case, invocation by invocation: the user turn, expected vs actual response with the
// ROUGE-1 overlap marked (spans from the core's rouge1Spans), the tool trajectory as a diff
// (paired and explained by the core when a trajectory metric scored it below 1, explain.js),
// each metric's verdict and details (rationales, rubric tables, sentence labels), the events.
import { h, fill, fmt, longText } from './dom.js';
import { textOf } from './model.js';

const HIGHLIGHT_LIMIT = 200_000; // longer texts are shown plain (the page stays responsive)

/** Function calls of an invocation: `tool_uses` (expected / older files) or the events' calls. */
export function toolCalls(inv) {
  const data = inv && inv.intermediate_data;
  if (!data) return [];
  if (Array.isArray(data.tool_uses)) return data.tool_uses.map((t) => ({ name: String(t?.name ?? ''), args: t?.args ?? {} }));
  const out = [];
  for (const ev of Array.isArray(data.invocation_events) ? data.invocation_events : []) {
    for (const p of ev?.content?.parts || []) if (p && p.function_call) out.push({ name: String(p.function_call.name ?? ''), args: p.function_call.args ?? {} });
  }
  return out;
}

const canon = (v) => JSON.stringify(v, (k, x) => (x && typeof x === 'object' && !Array.isArray(x)
  ? Object.fromEntries(Object.keys(x).sort().map((key) => [key, x[key]])) : x));

/**
 * Expected vs actual calls aligned by name (longest common subsequence), for reading only:
 * `matched` (same name and arguments), `args` (same name, other arguments), `missing`, `extra`.
 * The score itself is the core's tool_trajectory_avg_score.
 */
export function diffCalls(expected, actual) {
  const n = expected.length, m = actual.length;
  if (n * m > 1_000_000) return [...expected.map((e) => ({ kind: 'missing', expected: e })), ...actual.map((a) => ({ kind: 'extra', actual: a }))];
  const L = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) {
    L[i][j] = expected[i].name === actual[j].name ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  }
  const out = [];
  let i = 0, j = 0;
  while (i < n && j < m) {
    if (expected[i].name === actual[j].name) {
      out.push({ kind: canon(expected[i].args) === canon(actual[j].args) ? 'matched' : 'args', expected: expected[i], actual: actual[j] });
      i++; j++;
    } else if (L[i + 1][j] >= L[i][j + 1]) out.push({ kind: 'missing', expected: expected[i++] });
    else out.push({ kind: 'extra', actual: actual[j++] });
  }
  while (i < n) out.push({ kind: 'missing', expected: expected[i++] });
  while (j < m) out.push({ kind: 'extra', actual: actual[j++] });
  return out;
}

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/**
 * The media parts of a content: images inline (from their bytes), anything else named by type and
 * size (or URI). Result files hold bytes as URL-safe base64; data URLs take the standard alphabet.
 */
export function mediaOf(content) {
  const items = [];
  for (const p of Array.isArray(content?.parts) ? content.parts : []) {
    const blob = p?.inline_data ?? p?.inlineData;
    const file = p?.file_data ?? p?.fileData;
    if (blob && typeof blob === 'object') {
      const mime = String(blob.mime_type ?? blob.mimeType ?? '').split(';')[0].trim().toLowerCase();
      const data = typeof blob.data === 'string' ? blob.data.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '') : '';
      const bytes = Math.floor((data.length * 3) / 4);
      const label = `${mime || 'unknown type'}${blob.display_name ? ` "${blob.display_name}"` : ''}, ${bytes.toLocaleString()} bytes`;
      if (IMAGE_TYPES.includes(mime) && data) {
        const pad = '='.repeat((4 - (data.length % 4)) % 4);
        items.push(h('figure', { class: 'media' }, h('img', { src: `data:${mime};base64,${data}${pad}`, alt: label }), h('figcaption', null, label)));
      } else {
        items.push(h('div', { class: 'media muted' }, `[inline_data: ${label}]`));
      }
    } else if (file && typeof file === 'object') {
      items.push(h('div', { class: 'media muted' }, `[file_data: ${file.mime_type ?? file.mimeType ?? 'unknown type'}, ${file.file_uri ?? file.fileUri ?? 'no URI'}]`));
    }
  }
  return items.length ? h('div', { class: 'media-list' }, items) : null;
}

const json = (v, cap = 4000) => {
  let t;
  try { t = JSON.stringify(v, null, 1); } catch { t = String(v); }
  return longText(t ?? 'null', cap, 'json');
};

/** A text with the words whose tokens are in the overlap wrapped in <mark>. */
function marked(text, side) {
  if (!side || !side.aligned) return longText(text);
  const el = h('div', { class: 'text' });
  let at = 0;
  for (const sp of side.spans) {
    if (sp.start > at) el.appendChild(document.createTextNode(text.slice(at, sp.start)));
    const word = text.slice(sp.start, sp.end);
    if (sp.matched === 0) el.appendChild(document.createTextNode(word));
    else el.appendChild(h('mark', { class: sp.matched < sp.tokens ? 'partial' : null, title: `${sp.matched}/${sp.tokens} tokens in the overlap` }, word));
    at = sp.end;
  }
  if (at < text.length) el.appendChild(document.createTextNode(text.slice(at)));
  return el;
}

function responses(api, expected, actual) {
  const exp = expected ? textOf(expected.final_response) : null;
  const act = actual ? textOf(actual.final_response) : '';
  let spans = null;
  let score = null;
  if (exp !== null && exp.length <= HIGHLIGHT_LIMIT && act.length <= HIGHLIGHT_LIMIT) {
    try {
      spans = api.rouge1Spans(act, exp);
      score = api.rouge1(act, exp);
    } catch { spans = null; }
  }
  return h('div', { class: 'pair' },
    h('section', null, h('h4', null, 'Expected response'), exp === null ? h('p', { class: 'muted' }, '(none)') : marked(exp, spans?.reference),
      expected ? mediaOf(expected.final_response) : null),
    h('section', null, h('h4', null, 'Actual response', score ? h('span', { class: 'muted' }, ` ROUGE-1 F ${fmt(score.fmeasure)} (P ${fmt(score.precision)}, R ${fmt(score.recall)})`) : null),
      marked(act, spans?.candidate), actual ? mediaOf(actual.final_response) : null));
}

const DIFF_LABEL = { matched: '= matched', args: '≠ arguments differ', misplaced: '↕ out of place', missing: '− missing', extra: '+ extra' };

/**
 * Expected vs actual tool calls. With the core's explanation of a metric (`explained`:
 * {metric, trajectory}) the rows are its pairing, the failing arguments marked and said in
 * words; without one, calls aligned by name for reading.
 */
function trajectory(expected, actual, explained = null, { argsView, explainedRows } = {}) {
  const exp = toolCalls(expected), act = toolCalls(actual);
  if (!exp.length && !act.length) return h('p', { class: 'muted' }, 'No tool calls expected or made.');
  const list = explained ? explainedRows(explained.trajectory, exp, act) : diffCalls(exp, act).map((d) => ({ ...d, failing: new Set(), why: [] }));
  const args = (call, failing) => (!call ? '' : explained ? argsView(call.args, failing) : json(call.args, 600));
  const rows = list.flatMap((d) => [
    h('tr', { class: `diff-${d.kind}` },
      h('td', null, DIFF_LABEL[d.kind]),
      h('td', null, d.expected ? d.expected.name : ''), h('td', null, args(d.expected, d.failing)),
      h('td', null, d.actual ? d.actual.name : ''), h('td', null, args(d.actual, d.failing))),
    d.why.length ? h('tr', { class: 'why' }, h('td', null, ''), h('td', { colspan: 4 }, d.why.map((w) => h('div', null, w)))) : null,
  ]);
  const t = explained?.trajectory;
  return h('div', null,
    explained ? h('p', { class: 'muted explained' }, `As ${explained.metric} paired the calls`,
      typeof t.match_type === 'string' ? ` (match type ${t.match_type})` : typeof t.alignment === 'string' ? ` (${t.alignment})` : '',
      typeof t.note === 'string' ? `: ${t.note}` : '.') : null,
    h('table', { class: 'grid trajectory' },
      h('thead', null, h('tr', null, h('th', null, ''), h('th', null, 'expected tool'), h('th', null, 'arguments'), h('th', null, 'actual tool'), h('th', null, 'arguments'))),
      h('tbody', null, rows)));
}

/** A table from an array of objects (rubric scores, sentence labels…). */
function objectTable(list) {
  const keys = [];
  for (const o of list.slice(0, 200)) if (o && typeof o === 'object') for (const k of Object.keys(o)) if (!keys.includes(k)) keys.push(k);
  if (!keys.length) return json(list);
  return h('table', { class: 'grid' }, h('thead', null, h('tr', null, keys.map((k) => h('th', null, k)))),
    h('tbody', null, list.slice(0, 500).map((o) => h('tr', null, keys.map((k) => {
      const v = o?.[k];
      return h('td', null, v === null || v === undefined ? '' : typeof v === 'object' ? json(v, 600) : longText(String(v), 1500));
    })))));
}

const flat = (v) => v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => x === null || typeof x !== 'object');

/** A metric's details: null fields left out, arrays of objects as tables, texts as text. */
export function details(d) {
  if (!d || typeof d !== 'object') return null;
  const items = Object.entries(d).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && !v.length));
  if (!items.length) return null;
  return h('dl', { class: 'details' }, items.map(([k, v]) => [
    h('dt', null, k === 'trajectory' ? 'mismatch' : k),
    // A trajectory's explanation reads as the console prints it (its JSON drives the table).
    h('dd', null, k === 'trajectory' && Array.isArray(v?.lines) ? longText(v.lines.filter((l) => typeof l === 'string').join('\n'), 3000)
      : Array.isArray(v) && v.every((o) => o && typeof o === 'object' && !Array.isArray(o)) ? objectTable(v)
      : flat(v) ? h('ul', { class: 'kv' }, Object.entries(v).filter(([, x]) => x !== null && x !== undefined).map(([a, x]) => h('li', null, h('span', null, `${a} `), typeof x === 'number' ? fmt(x) : String(x).length > 300 ? `${String(x).slice(0, 300)}…` : String(x))))
        : typeof v === 'object' ? json(v) : longText(String(v), 3000)),
  ]));
}

function metricTable(results) {
  if (!results || !results.length) return h('p', { class: 'muted' }, 'No per-invocation metric results.');
  return h('div', { class: 'metrics' }, results.map((m) => h('div', { class: `metric st-${m.eval_status}` },
    h('div', { class: 'mhead' }, h('strong', null, String(m.metric_name)), ' ', badge(m.eval_status), ' ',
      h('span', null, `score ${fmt(m.score)}`), m.threshold !== null && m.threshold !== undefined ? h('span', { class: 'muted' }, ` / threshold ${fmt(m.threshold)}`) : null),
    details(m.details))));
}

function events(inv) {
  const list = inv?.intermediate_data?.invocation_events;
  if (!Array.isArray(list) || !list.length) return h('p', { class: 'muted' }, 'No events recorded.');
  return h('ol', { class: 'trace' }, list.map((ev) => h('li', null,
    h('span', { class: 'author' }, String(ev?.author ?? '?')),
    (ev?.content?.parts || []).map((p) => {
      if (p?.function_call) return h('div', { class: 'call' }, `→ ${p.function_call.name}(`, json(p.function_call.args ?? {}, 600), ')');
      if (p?.function_response) return h('div', { class: 'resp' }, `← ${p.function_response.name}: `, json(p.function_response.response ?? null, 600));
      if (typeof p?.text === 'string') return longText(p.text, 2000);
      if (p?.inline_data || p?.inlineData || p?.file_data || p?.fileData) return mediaOf({ parts: [p] });
      return json(p, 400);
    }),
    ev?.usage_metadata ? h('div', { class: 'muted' }, `tokens: ${fmt(ev.usage_metadata.total_token_count)}${ev.model_version ? ` · ${ev.model_version}` : ''}`) : null)));
}

export function badge(status) {
  return h('span', { class: `badge st-${status}` }, String(status ?? '?'));
}

/** The case page for `row` (all repetitions), showing repetition `rep`. */
export function caseView(api, row, rep, onRep) {
  const { result } = row.reps[rep];
  const invs = result.eval_metric_result_per_invocation || [];
  return h('article', { class: 'case' },
    h('h2', null, row.id, ' ', badge(result.final_eval_status)),
    row.reps.length > 1 ? h('div', { class: 'reps', role: 'group', 'aria-label': 'repetitions' }, 'Runs: ',
      row.reps.map((r, i) => {
        const b = h('button', { type: 'button', class: i === rep ? 'on' : null, 'aria-pressed': i === rep ? 'true' : 'false' },
          `#${i + 1} `, badge(r.result.final_eval_status));
        b.addEventListener('click', () => onRep(i));
        return b;
      })) : null,
    h('section', null, h('h3', null, 'Overall'), metricTable(result.overall_eval_metric_results)),
    invs.length ? null : h('p', { class: 'muted' }, 'This result has no per-invocation data.'),
    invs.map((inv, i) => {
      const sim = !inv.expected_invocation;
      const calls = h('div', { class: 'calls' }, trajectory(inv.expected_invocation, inv.actual_invocation));
      // The explanation (explain.js, loaded on first use) may be computed by the core first:
      // the plain diff shows until then.
      import('./explain.js').then(async (ex) => {
        const first = (await ex.explanations(api, result))[i]?.[0];
        if (first) fill(calls, trajectory(inv.expected_invocation, inv.actual_invocation, first, ex));
      }).catch((e) => calls.appendChild(h('p', { class: 'muted' }, `(The core's explanation of these calls could not be made: ${e?.message ?? e}.)`)));
      return h('section', { class: 'invocation' },
        h('h3', null, `Invocation ${i + 1}`, sim ? h('span', { class: 'muted' }, ' (simulated user)') : null),
        h('div', { class: 'user' }, h('h4', null, sim ? 'Simulated user' : 'User'), longText(textOf(inv.actual_invocation?.user_content ?? inv.expected_invocation?.user_content)),
          mediaOf(inv.actual_invocation?.user_content ?? inv.expected_invocation?.user_content)),
        responses(api, inv.expected_invocation, inv.actual_invocation),
        h('h4', null, 'Tool trajectory'), calls,
        h('h4', null, 'Metrics'), metricTable(inv.eval_metric_results),
        h('details', null, h('summary', null, 'Events'), events(inv.actual_invocation)));
    }));
}
