// The viewer's shell: what was opened (the picker, a folder, a drop, URL parameters; read in
// open.js), the Files / Run / Case / Compare / Edit views and the hash routing. Every ADK file is
// read by the package (loadEvalSetResult, loadEvalSet, validateEvalConfig / loadEvalConfig):
// nothing here knows ADK's schema beyond the field names it displays.
import * as api from '../pkg/web.js';
import { h, fill, fmt, when, longText } from './dom.js';
import {
  buildRun, filterRows, sortRows, histogram, compareRuns, STATUSES,
  resultFolders, mergedOf, keyName, labelOf, defaultPair, resultFiles as resultFilesIn, resultsOf as resultsIn, runChoices as choicesIn,
} from './model.js';
import { virtualTable } from './vlist.js';
import { histogramCard, statusBar } from './charts.js';
import { caseView, badge } from './case.js';
import { rescorePanel } from './rescore.js';
import { editView, promote } from './edit.js';
import { errorText, readFile, droppedFiles, urlFiles, runResults, sniffTraces } from './open.js';

const state = {
  files: [],      // {name, kind: 'result'|'evalset'|'config'|'error', value?, error?, warnings?}
  runKey: null,   // index of a result file, or a merged run's key (model.js)
  baseKey: null,
  candKey: null,
  baseFolder: null, // the folder Compare's baseline is picked from (null: any), with results from several
  candFolder: null,
  filters: { status: '', metric: '', min: NaN, max: NaN, text: '', flipsOnly: false },
  sort: { key: 'status', desc: true },
  built: new Map(), // runKey -> buildRun output
  panels: new Map(), // runKey -> its rescore panel (kept across renders)
};
const main = document.getElementById('main');
const notice = document.getElementById('notice');

function say(text, isError = false) {
  notice.textContent = text;
  notice.className = isError ? 'error' : '';
}

// ---------------------------------------------------------------- loading

async function openFiles(list) {
  const files = [...list].filter((f) => f && typeof f.name === 'string');
  if (!files.length) return;
  const t0 = performance.now();
  const folders = resultFolders(state.files).length;
  say(`Reading ${files.length} file${files.length === 1 ? '' : 's'}…`);
  for (const f of files) {
    const name = f.webkitRelativePath || f.relativePath || f.name;
    let entry;
    try {
      const bytes = new Uint8Array(await f.arrayBuffer());
      entry = await labelsEntry(name, bytes) ?? await tracesEntry(name, bytes) ?? await readEntry(name, bytes);
    } catch (e) {
      entry = { name, kind: 'error', error: errorText(e) };
    }
    state.files.push(entry);
    // Yield between files so a folder of big files keeps the page responsive.
    await new Promise((r) => setTimeout(r, 0));
  }
  state.built.clear();
  state.panels.clear();
  if (state.runKey === null) state.runKey = newestRun();
  // A folder more: Compare opens on the folders' newest runs again.
  if (resultFolders(state.files).length !== folders) state.baseKey = state.candKey = null;
  const added = state.files.slice(-files.length);
  const bad = added.filter((f) => f.kind === 'error').length;
  const warned = added.filter((f) => f.warnings?.length).length;
  // Timed up to the first view drawn (what "opens in under 2 s" means).
  route();
  say(`Loaded ${files.length} file${files.length === 1 ? '' : 's'} in ${Math.round(performance.now() - t0)} ms${bad ? `, ${bad} with errors` : ''}`
    + `${warned ? `, ${warned} with warnings` : ''}${bad || warned ? ' (see Files)' : ''}.`, bad > 0);
}

/** `?file=` (fetched already by start, while the module compiled) and `?run=`. */
async function openFromUrl(fetched) {
  const params = new URLSearchParams(location.search);
  if (params.has('run')) await openRuns(new Map());
  if (!fetched) return;
  const { files, errors } = await fetched;
  state.files.push(...errors);
  await openFiles(files);
  if (!files.length) route();
}

/** `?run=URL`: runs' results from the endpoints that keep them; a token asked for where one is needed. */
async function openRuns(tokens) {
  say('Fetching the runs…');
  const { files, errors, needToken } = await runResults(location.search, tokens);
  state.files.push(...errors);
  await openFiles(files);
  if (!files.length) route();
  if (needToken.length) askToken(needToken[0], tokens);
}

/** A form for an endpoint's bearer token (kept in this page's memory, sent only to that endpoint). */
function askToken(origin, tokens) {
  const input = h('input', { type: 'password', id: 'run-token', placeholder: 'bearer token', 'aria-label': `token for ${origin}`, autocomplete: 'off' });
  const form = h('form', { class: 'token-form' }, h('label', { for: 'run-token' }, `${origin} needs its token (EVALCORE_TOKEN) to show this run: `), input, h('button', { type: 'submit' }, 'Open'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    tokens.set(origin, input.value.trim());
    form.remove();
    openRuns(tokens);
  });
  notice.replaceChildren(form);
  input.focus();
}

// ---------------------------------------------------------------- runs

/** A file read by the package; one only the extras module reads (an agents-cli dataset) loads it first. */
async function readEntry(name, bytes) {
  try {
    return readFile(api, name, bytes);
  } catch (e) {
    if (e?.code !== 'not_initialised') throw e;
  }
  await api.initExtras();
  return readFile(api, name, bytes);
}

/** A labels file (its kind named near the start; see labels.js) read into the page's labels, or null. */
async function labelsEntry(name, bytes) {
  if (!/"kind"\s*:\s*"evalcore\.labels"/.test(new TextDecoder().decode(bytes.subarray(0, 4096)))) return null;
  const labels = await import('./labels.js');
  return { name, kind: 'labels', count: labels.openLabels(bytes) };
}

/** A trace file read by the trace import (traces.js and its module load with the first one), or null. */
async function tracesEntry(name, bytes) {
  if (!sniffTraces(name, bytes)) return null;
  return (await import('./traces.js')).tracesEntry(api, name, bytes);
}

/** The Traces view: the trace files' sessions and timelines; their sessions can become an eval set. */
function tracesRoute() {
  const files = state.files.filter((f) => f.kind === 'traces');
  return lazyView(async () => (await import('./traces.js')).tracesView(api, files, (name, evalSet) => {
    state.files.push({ name, kind: 'evalset', value: evalSet });
    location.hash = `#edit/${state.files.length - 1}`;
  }));
}

/** The loaded results of a run key (a result file, or a merged run of one folder's eval set). */
const resultsOf = (key) => resultsIn(state.files, key);

/**
 * A view module whose numbers come from the package's extras module (comparison statistics,
 * calibration): both loaded on first use, so the empty page fetches neither.
 */
async function withExtras(view) {
  const [m] = await Promise.all([view, api.initExtras()]);
  return m;
}

/** A view made by a module loaded on first use: a placeholder, filled when it is there. */
function lazyView(load) {
  const holder = h('div', { class: 'lazy' }, h('p', { class: 'muted' }, 'Loading…'));
  load().then((el) => fill(holder, el)).catch((e) => {
    const t = errorText(e);
    fill(holder, h('div', { class: 'err' }, h('code', null, t.code), t.path ? [' at ', h('code', null, t.path)] : null, `: ${t.message}`));
  });
  return holder;
}

const resultFiles = () => resultFilesIn(state.files);
const runChoices = (folder = null) => choicesIn(state.files, folder);

/** The newest result file's key, or null. */
function newestRun() {
  return runChoices()[0]?.key ?? null;
}

function getRun(key) {
  if (key === null || key === undefined) return null;
  if (state.built.has(key)) return state.built.get(key);
  const results = resultsOf(key);
  if (!results.length) return null;
  const run = buildRun(results);
  state.built.set(key, run);
  return run;
}

function runPicker(id, label, key, onPick, choices = runChoices()) {
  const sel = h('select', { id }, choices.map((c) => h('option', { value: c.key, selected: c.key === key }, c.label)));
  sel.addEventListener('change', () => onPick(sel.value));
  return h('label', { class: 'picker' }, `${label} `, sel);
}

// ---------------------------------------------------------------- views

function filesView() {
  if (!state.files.length) return welcome();
  return h('section', null, h('h2', null, 'Files'),
    h('table', { class: 'grid files' },
      h('thead', null, h('tr', null, h('th', null, 'file'), h('th', null, 'kind'), h('th', null, 'contents'))),
      h('tbody', null, state.files.map((f) => h('tr', { class: f.kind === 'error' ? 'bad' : f.warnings?.length ? 'warned' : null },
        h('td', null, f.name), h('td', null, kindText(f)),
        h('td', null, describeFile(f), f.kind === 'evalset' ? h('a', { href: `#edit/${state.files.indexOf(f)}`, class: 'edit-link' }, f.draft ? 'Edit (edited) / export' : 'Edit / export') : null))))));
}

function kindText(f) {
  const kind = { result: 'result', evalset: 'eval set', config: 'config', labels: 'labels', traces: 'traces', error: 'error' }[f.kind];
  const n = f.warnings?.length ?? 0;
  return n ? [kind, h('div', { class: 'warn' }, `loaded with ${n} warning${n === 1 ? '' : 's'}`)] : kind;
}

function describeFile(f) {
  if (f.kind === 'error') {
    const x = f.excerpt;
    return h('div', { class: 'err' }, h('code', null, f.error.code), f.error.path ? [' at ', h('code', null, f.error.path)] : null, ': ', h('span', null, f.error.message.length > 2000 ? `${f.error.message.slice(0, 2000)}…` : f.error.message),
      x ? h('div', { class: 'json excerpt', 'aria-label': `line ${x.line} of the file` }, x.text.slice(0, x.caret), h('mark', { class: 'arg-diff' }, x.text.slice(x.caret, x.caret + 1) || ' '), x.text.slice(x.caret + 1),
        '\n', `${' '.repeat(x.caret)}^ line ${x.line}, column ${x.column}`) : null);
  }
  if (f.kind === 'labels') return `${f.count} label${f.count === 1 ? '' : 's'} of judged verdicts (see Labels)`;
  if (f.kind === 'traces') return h('a', { href: '#traces' }, `${f.value.sessions.length} recorded session${f.value.sessions.length === 1 ? '' : 's'}, ${f.value.sessions.reduce((a, x) => a + x.invocations.length, 0)} invocations (see Traces)`);
  if (f.kind === 'result') {
    const label = labelOf(f.value);
    return [label ? [h('strong', { class: 'run-label' }, label), ': '] : null,
      `${f.value.eval_set_id}: ${f.value.eval_case_results.length} case results${f.value.creation_timestamp ? `, ${when(f.value.creation_timestamp)}` : ''}`];
  }
  if (f.kind === 'evalset') {
    const cases = f.value.eval_cases || [];
    return h('div', null, `${f.value.eval_set_id}: ${cases.length} cases`,
      h('details', null, h('summary', null, 'cases'), h('ul', null, cases.slice(0, 1000).map((c) => h('li', null,
        c.eval_id, h('span', { class: 'muted' }, c.conversation ? ` — ${c.conversation.length} turn${c.conversation.length === 1 ? '' : 's'}` : ' — conversation scenario'))))));
  }
  const criteria = f.value.criteria || {};
  return h('div', null, h('ul', null, Object.entries(criteria).map(([k, v]) => h('li', null, h('code', null, k),
    typeof v?.threshold === 'number' ? ` threshold ${fmt(v.threshold)}` : ''))),
  (f.warnings || []).map((w) => h('div', { class: 'warn' }, h('code', null, w.code), w.path ? [' at ', h('code', null, w.path)] : null, `: ${w.message}`)));
}

function welcome() {
  return h('section', { class: 'welcome' },
    h('h2', null, 'Open eval results'),
    h('p', null, 'Open ADK result files (', h('code', null, '*.evalset_result.json'), '), eval sets and eval configs with the buttons above, drop them (or a whole ',
      h('code', null, '.adk/eval_history'), ' folder) anywhere on the page, or list same-origin files in the URL: ', h('code', null, '?file=a.json&file=b.json'),
      ', or a run an evaluation endpoint keeps: ', h('code', null, '?run=https://evals.example.com/v1/runs/r_…'), '.'),
    h('p', { class: 'muted' }, 'Everything stays in this page: files are read by the evalcore WebAssembly module and nothing is uploaded.'));
}

let table = null;

function runView() {
  if (!resultFiles().length) return welcome();
  if (state.runKey === null || !getRun(state.runKey)) state.runKey = newestRun();
  const run = getRun(state.runKey);
  const f = state.filters;
  let regex = null;
  let regexError = null;
  if (f.text) {
    try { regex = new RegExp(f.text, 'i'); } catch (e) { regexError = e.message; }
  }
  const rows = sortRows(filterRows(run.rows, { ...f, regex }), state.sort.key, state.sort.desc);
  const total = (k) => run.rows.reduce((a, r) => a + r[k], 0);

  const report = h('button', { type: 'button', id: 'export-html' }, 'Export HTML report');
  report.addEventListener('click', () => exportReport(state.runKey));
  const summary = h('section', { class: 'summary' },
    h('div', { class: 'filters' }, runPicker('run-pick', 'Run', state.runKey, (k) => { state.runKey = k; render(); }), report),
    h('div', { class: 'cards' },
      card('cases', run.rows.length, run.repeated ? `${run.caseResults} results` : null),
      STATUSES.filter((s) => run.counts[s] > 0).map((s) => card(s, run.counts[s], null, `st-${s}`)),
      run.repeated ? card('flaky', run.rows.filter((r) => r.flips > 0).length, 'status flips across runs') : null,
      run.hasUsage ? [card('tokens', fmt(Math.round(total('tokens'))), 'total (mean over runs)'),
        card('inference calls', fmt(Math.round(total('inferenceCalls')))),
        card('duration', `${fmt(total('seconds'), 2)} s`)] : null),
    statusBar(run.counts));

  const reasons = run.reasons.size ? h('section', { class: 'reasons' }, h('h3', null, 'Why metrics were NOT_EVALUATED'),
    h('table', { class: 'grid' }, h('thead', null, h('tr', null, h('th', null, 'metric'), h('th', null, 'count'), h('th', null, 'reason'))),
      h('tbody', null, [...run.reasons].flatMap(([m, per]) => [...per].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([r, n]) =>
        h('tr', null, h('td', null, m), h('td', null, String(n)), h('td', null, r))))))) : null;

  const charts = h('section', { class: 'charts' }, run.metrics.map((m) => {
    const hist = histogram(run.rows, m);
    return hist ? histogramCard(m, hist) : null;
  }));

  const columns = [
    { label: 'eval id', width: 'minmax(12em, 2fr)', sortKey: 'id' },
    { label: 'status', width: '9em', sortKey: 'status' },
    ...run.metrics.map((m) => ({ label: m, width: 'minmax(7em, 1fr)', sortKey: `metric:${m}` })),
    ...(run.repeated ? [{ label: 'flips', width: '5em', sortKey: 'flips' }] : []),
    ...(run.hasUsage ? [{ label: 'tokens', width: '6em', sortKey: 'tokens', numeric: true }, { label: 'seconds', width: '6em', sortKey: 'seconds', numeric: true }] : []),
  ];
  table = virtualTable({
    label: 'Cases', columns, sort: state.sort,
    onSort: (key) => { state.sort = { key, desc: state.sort.key === key ? !state.sort.desc : key !== 'id' }; render(); },
    onOpen: (row) => { location.hash = `#case/${encodeURIComponent(row.id)}`; },
    renderCells: (row) => [
      h('div', { role: 'cell', class: 'id', title: row.id }, row.id),
      h('div', { role: 'cell' }, badge(row.status)),
      ...run.metrics.map((m) => {
        const c = row.metrics.get(m);
        if (!c) return h('div', { role: 'cell', class: 'muted' }, '–');
        return h('div', { role: 'cell', class: `score st-${c.status}`, title: c.statuses.join(', ') },
          c.mean === null ? c.status.replace('_', ' ').toLowerCase() : fmt(c.mean), c.spread > 0 ? h('span', { class: 'spread' }, ` ±${fmt(c.spread / 2, 2)}`) : null);
      }),
      ...(run.repeated ? [h('div', { role: 'cell', class: row.flips ? 'flaky' : 'muted' }, String(row.flips))] : []),
      ...(run.hasUsage ? [h('div', { role: 'cell', class: 'num' }, fmt(Math.round(row.tokens))), h('div', { role: 'cell', class: 'num' }, fmt(row.seconds, 2))] : []),
    ],
  });
  table.setItems(rows);

  const filters = filterBar(run, regexError, rows.length);
  const view = h('div', null, summary, rescoreFor(state.runKey), reasons, charts, filters, table.root);
  requestAnimationFrame(() => table.refresh());
  return view;
}

/** The rescore panel of a run (made once per run, so its edits survive re-renders). */
function rescoreFor(key) {
  if (state.panels.has(key)) return state.panels.get(key);
  const results = resultsOf(key);
  const source = mergedOf(key) ? `all runs of ${keyName(state.files, key, { folder: true })}` : keyName(state.files, key);
  const links = h('div', { class: 'filters', id: 'rescore-links' });
  const panel = rescorePanel(api, {
    results,
    configs: state.files.filter((f) => f.kind === 'config'),
    onResult: (outcome) => {
      const entry = { name: `rescored: ${source}`, kind: 'result', derived: true, value: mergeResults(outcome.results) };
      let at = state.files.findIndex((f) => f.derived && f.name === entry.name);
      if (at < 0) { state.files.push(entry); at = state.files.length - 1; } else state.files[at] = entry;
      state.built.delete(String(at));
      state.panels.delete(String(at));
      const show = h('button', { type: 'button', id: 'show-rescored' }, 'Show the rescored run');
      show.addEventListener('click', () => { state.runKey = String(at); render(); });
      const cmp = h('button', { type: 'button', id: 'compare-rescored' }, 'Compare: original → rescored');
      cmp.addEventListener('click', () => { state.baseKey = key; state.candKey = String(at); location.hash = '#compare'; });
      fill(links, show, cmp);
    },
  });
  panel.appendChild(links);
  state.panels.set(key, panel);
  return panel;
}

/** The run as one self-contained HTML file (the same report as `evalcore eval --format html`). */
async function exportReport(key) {
  // Loaded on first use: the report writer is not needed to show a run.
  const { toHtml } = await import('../pkg/lib/report/reports.js');
  const results = resultsOf(key);
  const name = fileStem(key);
  let html;
  try {
    html = toHtml(results, { generated: `From ${name}, exported by the evalcore viewer.` });
  } catch (e) {
    const t = errorText(e);
    say(`The report could not be made: ${t.code}: ${t.message}`, true);
    return;
  }
  const url = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
  const a = h('a', { href: url, download: `${name.replace(/[^\w.-]+/g, '_')}.report.html` });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A run key's name for a file written from it: a merged run's eval set id, else the file's name without its folder and `.json`. */
function fileStem(key) {
  return mergedOf(key) ? keyName(state.files, key) : keyName(state.files, key).replace(/^.*\//, '').replace(/\.json$/, '');
}

/** Several results of one eval set as one (a merged run rescored). */
function mergeResults(list) {
  if (list.length === 1) return list[0];
  return { ...list[0], eval_case_results: list.flatMap((r) => r.eval_case_results) };
}

function card(label, value, sub, cls) {
  return h('div', { class: `card ${cls || ''}` }, h('div', { class: 'value' }, String(value)), h('div', { class: 'label' }, label), sub ? h('div', { class: 'muted' }, sub) : null);
}

function filterBar(run, regexError, shown) {
  const f = state.filters;
  const status = h('select', { id: 'f-status' }, h('option', { value: '' }, 'any status'), STATUSES.map((s) => h('option', { value: s, selected: f.status === s }, s)));
  const metric = h('select', { id: 'f-metric' }, h('option', { value: '' }, 'any metric'), run.metrics.map((m) => h('option', { value: m, selected: f.metric === m }, m)));
  const min = h('input', { id: 'f-min', type: 'number', step: 'any', placeholder: 'min', value: Number.isFinite(f.min) ? f.min : '' });
  const max = h('input', { id: 'f-max', type: 'number', step: 'any', placeholder: 'max', value: Number.isFinite(f.max) ? f.max : '' });
  const text = h('input', { id: 'f-text', type: 'search', placeholder: 'regex over ids and texts', value: f.text, spellcheck: 'false' });
  const flips = h('input', { id: 'f-flips', type: 'checkbox', checked: f.flipsOnly });
  const apply = () => {
    Object.assign(f, { status: status.value, metric: metric.value, min: min.value === '' ? NaN : Number(min.value), max: max.value === '' ? NaN : Number(max.value), text: text.value, flipsOnly: flips.checked });
    render(document.activeElement?.id);
  };
  for (const el of [status, metric, flips]) el.addEventListener('change', apply);
  let timer = 0;
  for (const el of [min, max, text]) el.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(apply, 150); });
  return h('section', { class: 'filters', role: 'search' },
    h('label', null, 'Status ', status), h('label', null, 'Metric ', metric), h('label', null, 'Score ', min, ' – ', max),
    h('label', null, 'Text ', text), h('label', null, flips, ' flips only'),
    h('span', { class: 'count', id: 'shown' }, `${shown.toLocaleString('en-US')} of ${run.rows.length.toLocaleString('en-US')} cases`),
    regexError ? h('span', { class: 'error' }, `invalid regex: ${regexError}`) : null);
}

function caseRoute(id) {
  const run = getRun(state.runKey);
  const row = run && run.rows.find((r) => r.id === id);
  if (!row) return h('section', null, h('p', null, 'No case ', h('code', null, id), ' in the selected run.'), h('a', { href: '#run' }, 'Back to the run'));
  let rep = 0;
  const holder = h('div');
  const show = () => fill(holder, caseView(api, row, rep, (i) => { rep = i; show(); }), promoteBar(row, rep));
  show();
  return h('div', null, h('nav', { class: 'crumbs' }, h('a', { href: '#run' }, '← all cases')), holder);
}

/** Promote this repetition's actual invocations to the expected ones of a loaded eval set. */
function promoteBar(row, rep) {
  const sets = state.files.map((f, i) => ({ f, i })).filter(({ f }) => f.kind === 'evalset');
  if (!sets.length) return null;
  const invs = row.reps[rep].result.eval_metric_result_per_invocation || [];
  if (!invs.length || invs.some((i) => !i.actual_invocation)) return null;
  sets.sort((a, b) => (b.f.value.eval_set_id === row.evalSetId) - (a.f.value.eval_set_id === row.evalSetId));
  const sel = h('select', { id: 'promote-target', 'aria-label': 'eval set' }, sets.map(({ f, i }) => h('option', { value: String(i) }, `${f.value.eval_set_id} (${f.name})`)));
  const go = h('button', { type: 'button', id: 'promote' }, 'Use these actual invocations as the expected ones');
  go.addEventListener('click', () => {
    const file = state.files[Number(sel.value)];
    if (!file.draft) file.draft = structuredClone(file.value);
    promote(file.draft, row.id, invs.map((i) => i.actual_invocation));
    location.hash = `#edit/${sel.value}`;
  });
  return h('section', { class: 'filters promote' }, 'Eval set ', sel, go);
}

// The comparison's drawing is loaded when first shown (the empty page stays small).
let compareUi = null;

function compareView() {
  if (!compareUi) {
    import('./compare.js').then((m) => { compareUi = m; if (currentRoute().view === 'compare') render(); },
      (e) => say(`The comparison could not be loaded: ${errorText(e).message}`, true));
    return h('p', { class: 'muted' }, 'Loading the comparison…');
  }
  const { compareCards, compareTable, incomparableList } = compareUi;
  const choices = runChoices();
  if (choices.length < 2) return h('section', null, h('h2', null, 'Compare runs'), h('p', null, 'Open at least two result files to compare a baseline with a candidate.'));
  const known = (k) => k !== null && choices.some((c) => c.key === k);
  if (!known(state.baseKey) || !known(state.candKey)) {
    ({ base: state.baseKey, cand: state.candKey, baseFolder: state.baseFolder, candFolder: state.candFolder } = defaultPair(state.files));
  }
  const cmp = compareRuns(getRun(state.baseKey), getRun(state.candKey));
  const table = compareTable(cmp, (r) => { if (r.kind !== 'removed') { state.runKey = state.candKey; location.hash = `#case/${encodeURIComponent(r.id)}`; } });
  return h('div', null, h('h2', null, 'Compare runs'),
    h('div', { class: 'filters' }, sidePicker('base', 'Baseline'), sidePicker('cand', 'Candidate')),
    lazyView(async () => (await withExtras(import('./stats.js'))).statsPanel(resultsOf(state.baseKey), resultsOf(state.candKey))),
    compareCards(cmp.tally, card), table, incomparableList(cmp.rows));
}

/**
 * One side of Compare: with results from several folders, the folder (picking one shows its
 * newest run) and that folder's runs; else every run. A run from elsewhere (a rescored one)
 * shows every run.
 */
function sidePicker(side, label) {
  const keyOf = `${side}Key`, folderField = `${side}Folder`;
  const folders = resultFolders(state.files);
  let inFolder = folders.includes(state[folderField]) ? runChoices(state[folderField]) : null;
  if (inFolder && !inFolder.some((c) => c.key === state[keyOf])) inFolder = null;
  const pick = runPicker(`${side}-pick`, label, state[keyOf], (k) => { state[keyOf] = k; render(); }, inFolder ?? runChoices());
  if (folders.length < 2) return pick;
  const sel = h('select', { id: `${side}-folder`, 'aria-label': `${label} folder` },
    h('option', { value: '', selected: inFolder === null }, 'any folder'),
    folders.map((dir, i) => h('option', { value: String(i), selected: inFolder !== null && dir === state[folderField] },
      `${dir || '(no folder)'}/ (${runChoices(dir).filter((c) => !mergedOf(c.key)).length} results)`)));
  sel.addEventListener('change', () => {
    const dir = sel.value === '' ? null : folders[Number(sel.value)];
    state[folderField] = dir;
    if (dir !== null) state[keyOf] = runChoices(dir)[0].key;
    render();
  });
  return h('span', { class: 'side' }, h('label', { class: 'picker' }, `${label} folder `, sel), pick);
}

/** A folder of runs as a trend per metric over time (each eval set with several result files in a folder). */
function trendView() {
  const many = runChoices().filter((c) => mergedOf(c.key));
  if (!many.length) return h('section', null, h('h2', null, 'Trend'), h('p', null, 'Open a folder of runs (several result files of one eval set, such as an ', h('code', null, '.adk/eval_history'), ' folder) to see each metric over time.'));
  const several = resultFolders(state.files).length > 1;
  return h('div', null, h('h2', null, 'Trend'), many.map(({ key }) => {
    const list = resultsOf(key);
    const { id } = mergedOf(key);
    return h('section', { class: 'trend-set', dataset: { set: id } },
      h('h3', null, `${keyName(state.files, key, { folder: several })} — ${list.length} runs`), lazyView(async () => (await withExtras(import('./stats.js'))).trendView(list)));
  }));
}

/** Judged verdicts of a run to label, and the calibration of its judges against the labels. */
function labelsRoute() {
  if (!resultFiles().length) return welcome();
  if (state.runKey === null || !resultsOf(state.runKey).length) state.runKey = String(resultFiles()[0].i);
  const key = state.runKey;
  const info = new Map(api.metricsInfo().map((m) => [m.name, m]));
  const name = fileStem(key);
  return h('div', null, h('h2', null, 'Label judged verdicts'), lazyView(async () => (await withExtras(import('./labels.js'))).labelsView({
    results: resultsOf(key), judged: (m) => info.get(m)?.needs_judge === true, name,
    picker: runPicker('label-run-pick', 'Run', key, (k) => { state.runKey = k; render(); }),
  })));
}

// ---------------------------------------------------------------- routing

function currentRoute() {
  const hash = location.hash.slice(1);
  if (hash.startsWith('case/')) return { view: 'case', id: decodeURIComponent(hash.slice(5)) };
  if (hash.startsWith('edit/')) return { view: 'edit', index: Number(hash.slice(5)) };
  if (['files', 'compare', 'run', 'trend', 'labels', 'traces'].includes(hash)) return { view: hash };
  return { view: resultFiles().length ? 'run' : state.files.some((f) => f.kind === 'traces') ? 'traces' : 'files' };
}

function render(refocus) {
  const r = currentRoute();
  for (const a of document.querySelectorAll('#tabs a')) {
    if (a.dataset.view === (r.view === 'case' ? 'run' : r.view === 'edit' ? 'files' : r.view)) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  let view;
  try {
    const file = r.view === 'edit' ? state.files[r.index] : null;
    view = r.view === 'edit' ? (file && file.kind === 'evalset' ? editView(api, file) : h('p', null, 'No such eval set.'))
      : r.view === 'case' ? caseRoute(r.id) : r.view === 'compare' ? compareView() : r.view === 'files' ? filesView()
        : r.view === 'trend' ? trendView() : r.view === 'labels' ? labelsRoute() : r.view === 'traces' ? tracesRoute() : runView();
  } catch (e) {
    const t = errorText(e);
    view = h('div', { class: 'err' }, h('code', null, t.code), t.path ? [' at ', h('code', null, t.path)] : null, `: ${t.message}`);
  }
  fill(main, view);
  main.dataset.view = r.view;
  if (refocus) document.getElementById(refocus)?.focus();
}
const route = () => render();

// ---------------------------------------------------------------- start

function wire() {
  const pick = document.getElementById('open-files');
  const folder = document.getElementById('open-folder');
  pick.addEventListener('change', () => { openFiles(pick.files); pick.value = ''; });
  folder.addEventListener('change', () => {
    openFiles([...folder.files].filter((f) => /\.(json|jsonl|pb)$/.test(f.name)));
    folder.value = '';
  });
  document.addEventListener('dragover', (e) => { e.preventDefault(); document.body.classList.add('dropping'); });
  document.addEventListener('dragleave', (e) => { if (e.target === document.documentElement || e.clientX <= 0) document.body.classList.remove('dropping'); });
  document.addEventListener('drop', async (e) => {
    e.preventDefault();
    document.body.classList.remove('dropping');
    openFiles(await droppedFiles(e.dataTransfer));
  });
  window.addEventListener('hashchange', route);
}

async function start() {
  const t0 = performance.now();
  wire();
  // The URL's files download while the module compiles: the first row waits for both, not one
  // after the other.
  const fetched = new URLSearchParams(location.search).has('file') ? urlFiles(location.search, location.href) : null;
  try {
    await api.init();
  } catch (e) {
    const t = errorText(e);
    say(`The evalcore module did not load: ${t.code}: ${t.message}`, true);
    return;
  }
  const init = performance.now() - t0;
  document.body.dataset.ready = 'true';
  route();
  // performance.now() counts from navigation start: the page is usable from here.
  const usable = performance.now();
  await openFromUrl(fetched);
  document.body.dataset.loaded = 'true';
  // For the browser tests: the module's start-up and the URL's files opened (ms since start).
  window.__viewerTimings = { init, usable, opened: performance.now() - t0 };
}
start();
