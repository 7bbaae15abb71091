// The Labels view: a person labels the judged verdicts of a run (per invocation and metric, and
// per rubric): agree, disagree, or their own verdict, with a note. Labels are kept in the page,
// exported as a labels file (docs/compare.md, "kind": "evalcore.labels", version 1) and opened
// again like any file; the calibration of each judge against them (the package's calibrate:
// agreement with Wilson's interval, Cohen's kappa, the confusion matrix) is shown beside them.
// Loaded on first use.
import { h, fill, fmt, longText } from './dom.js';
import { textOf } from './model.js';
import { calibrate } from '../pkg/lib/wasm/compare.js';
import { LABELS_KIND, LABELS_VERSION, labelKey, labelables, readLabels } from '../pkg/lib/wasm/labels.js';
import { parseJsonBytes } from '../pkg/lib/wasm/wire.js';

const PAGE = 40;
/** The labels of this page: key -> label (as the labels file holds it). */
const store = new Map();
const view = { metric: '', only: 'all', page: 0 };

/** Reads a labels file's bytes into the page's labels (a label of a key already there replaces it). Returns how many. */
export function openLabels(bytes) {
  const list = readLabels(parseJsonBytes(bytes, 'labels file'), '$');
  for (const l of list) {
    const { human, path, ...label } = l;
    store.set(labelKey(l), Object.fromEntries(Object.entries(label).filter(([, v]) => v !== null)));
  }
  return list.length;
}

/** The labels file of everything labelled, as text. */
export function labelsFileText() {
  return `${JSON.stringify({ kind: LABELS_KIND, version: LABELS_VERSION, created_by: 'evalcore viewer', exported_at: new Date().toISOString(), labels: [...store.values()] }, null, 2)}\n`;
}

const humanOf = (l) => (l.label === 'agree' ? l.judge_verdict : l.label === 'disagree' ? (l.judge_verdict === 'pass' ? 'fail' : 'pass') : l.label);

function download(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = h('a', { href: url, download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** One judged verdict with the person's controls. */
function itemCard(it, inv, onChange) {
  const key = labelKey(it);
  const cur = store.get(key);
  const set = (label) => {
    if (label === null) store.delete(key);
    else {
      store.set(key, Object.fromEntries(Object.entries({
        eval_set_id: it.eval_set_id, eval_id: it.eval_id, run: it.run, invocation_index: it.invocation_index, invocation_id: it.invocation_id,
        metric_name: it.metric_name, rubric_id: it.rubric_id, judge_verdict: it.judge_verdict, label, note: note.value || null,
        labelled_at: new Date().toISOString(),
      }).filter(([, v]) => v !== null && v !== undefined)));
    }
    onChange();
  };
  const note = h('input', { type: 'text', class: 'note', placeholder: 'note (why)', value: cur?.note ?? '', 'aria-label': 'note' });
  note.addEventListener('change', () => { if (store.has(key)) { store.get(key).note = note.value || undefined; onChange(); } });
  const button = (label, text) => {
    const b = h('button', { type: 'button', class: `lbl${cur?.label === label ? ' on' : ''}`, 'aria-pressed': String(cur?.label === label), dataset: { label } }, text);
    b.addEventListener('click', () => set(cur?.label === label ? null : label));
    return b;
  };
  const judge = it.judge_verdict;
  return h('article', { class: `label-item${cur ? ' labelled' : ''}`, dataset: { key } },
    h('header', null, h('code', null, it.eval_id), it.run !== null ? ` run ${it.run + 1}` : '', ` · invocation ${it.invocation_index + 1} · `,
      h('b', null, it.metric_name), it.rubric_id ? [' · rubric ', h('code', null, it.rubric_id)] : null, ' — judge: ',
      h('span', { class: `badge ${judge === 'pass' ? 'st-PASSED' : 'st-FAILED'}` }, judge), it.score !== null ? h('span', { class: 'muted' }, ` score ${fmt(it.score)}`) : null,
      cur ? h('span', { class: 'muted' }, ` — person: ${humanOf(cur)}`) : null),
    h('div', { class: 'pair' },
      h('div', null, h('h4', null, 'user'), longText(textOf(inv?.actual_invocation?.user_content), 600)),
      h('div', null, h('h4', null, 'response'), longText(textOf(inv?.actual_invocation?.final_response), 600))),
    it.rationale ? h('div', null, h('h4', null, 'judge rationale'), longText(it.rationale, 600)) : null,
    h('div', { class: 'filters label-controls', role: 'group', 'aria-label': 'your verdict' },
      button('agree', 'Agree'), button('disagree', 'Disagree'), button('pass', 'Own verdict: pass'), button('fail', 'Own verdict: fail'), note));
}

/** The calibration of the run's judges against the labels. */
function calibrationPanel(results) {
  if (!store.size) return h('p', { class: 'muted', id: 'calibration' }, 'Label some verdicts to see how far each judge agrees with you.');
  let cal;
  try {
    cal = calibrate({ kind: LABELS_KIND, version: LABELS_VERSION, labels: [...store.values()] }, results);
  } catch (e) {
    return h('p', { class: 'error', id: 'calibration' }, `${e.code ?? 'error'}: ${e.message}`);
  }
  const pct = (x) => `${fmt(100 * x, 1)}%`;
  return h('section', { id: 'calibration' }, h('h3', null, 'Calibration'),
    h('table', { class: 'grid' }, h('thead', null, h('tr', null, ['metric / rubric', 'judge model', 'n', 'agreement', '95% Wilson', 'kappa', 'judge pass: person pass / fail', 'judge fail: person pass / fail', ''].map((t) => h('th', null, t)))),
      h('tbody', null, cal.metrics.map((g) => h('tr', { class: g.flagged ? 'bad' : null },
        h('td', null, g.metric_name, g.rubric_id ? ` / ${g.rubric_id}` : ''), h('td', null, g.judge_model), h('td', { class: 'num' }, String(g.n)),
        h('td', { class: 'num' }, pct(g.agreement)), h('td', { class: 'num' }, `[${pct(g.agreement_ci95[0])}, ${pct(g.agreement_ci95[1])}]`),
        h('td', { class: 'num kappa' }, g.kappa === null ? 'undefined' : fmt(g.kappa, 3)),
        h('td', { class: 'num' }, `${g.confusion.judge_pass_human_pass} / ${g.confusion.judge_pass_human_fail}`),
        h('td', { class: 'num' }, `${g.confusion.judge_fail_human_pass} / ${g.confusion.judge_fail_human_fail}`),
        h('td', null, g.flagged ? `flagged: ${g.flag_reason}` : 'ok'))))),
    cal.skipped.length ? h('p', { class: 'warn' }, `${cal.skipped.length} label(s) do not match this run: ${cal.skipped.slice(0, 3).map((x) => x.message).join('; ')}${cal.skipped.length > 3 ? '; …' : ''}`) : null);
}

/**
 * The view for a run: `results` (loaded results), `judged(name)` (a metric needs a judge),
 * `picker` (the run picker element), `name` (for the exported file's name).
 */
export function labelsView({ results, judged, picker, name }) {
  const root = h('div', { class: 'labels-view' });
  const items = results.flatMap((r) => labelables(r, judged).map((it) => ({ it, r }))).filter(({ it }) => it.judge_verdict !== null);
  const invOf = ({ it, r }) => r.eval_case_results.find((c) => c.eval_id === it.eval_id && (c.run ?? null) === it.run)?.eval_metric_result_per_invocation?.[it.invocation_index];
  const render = () => {
    const metrics = [...new Set(items.map(({ it }) => it.metric_name))];
    const shown = items.filter(({ it }) => (!view.metric || it.metric_name === view.metric)
      && (view.only === 'all' || (view.only === 'unlabelled' ? !store.has(labelKey(it)) : (store.has(labelKey(it)) && humanOf(store.get(labelKey(it))) !== it.judge_verdict))));
    const pages = Math.max(1, Math.ceil(shown.length / PAGE));
    view.page = Math.min(view.page, pages - 1);
    const metricSel = h('select', { id: 'label-metric', 'aria-label': 'metric' }, h('option', { value: '' }, 'every judged metric'), metrics.map((m) => h('option', { value: m, selected: view.metric === m }, m)));
    metricSel.addEventListener('change', () => { view.metric = metricSel.value; view.page = 0; render(); });
    const onlySel = h('select', { id: 'label-only', 'aria-label': 'show' }, [['all', 'all verdicts'], ['unlabelled', 'not labelled yet'], ['disagreements', 'where you disagree']]
      .map(([v, t]) => h('option', { value: v, selected: view.only === v }, t)));
    onlySel.addEventListener('change', () => { view.only = onlySel.value; view.page = 0; render(); });
    const exportBtn = h('button', { type: 'button', id: 'export-labels', disabled: store.size === 0 }, `Export labels (${store.size})`);
    exportBtn.addEventListener('click', () => download(labelsFileText(), `${name.replace(/[^\w.-]+/g, '_')}.labels.json`));
    const nav = (delta, text) => {
      const b = h('button', { type: 'button', disabled: view.page + delta < 0 || view.page + delta >= pages }, text);
      b.addEventListener('click', () => { view.page += delta; render(); });
      return b;
    };
    fill(root,
      h('div', { class: 'filters' }, picker, h('label', null, 'Metric ', metricSel), h('label', null, 'Show ', onlySel), exportBtn,
        h('span', { class: 'count', id: 'label-count' }, `${items.filter(({ it }) => store.has(labelKey(it))).length} of ${items.length} judged verdicts labelled`)),
      items.length ? null : h('p', { class: 'muted' }, 'This run has no judged verdicts to label (a judged metric with per-invocation results).'),
      calibrationPanel(results),
      h('div', { class: 'label-list' }, shown.slice(view.page * PAGE, (view.page + 1) * PAGE).map((x) => itemCard(x.it, invOf(x), render))),
      pages > 1 ? h('div', { class: 'filters' }, nav(-1, '← previous'), `page ${view.page + 1} of ${pages}`, nav(1, 'next →')) : null);
  };
  render();
  return root;
}
