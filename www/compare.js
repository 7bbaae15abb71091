// The comparison of a baseline run with a candidate: the counts by case status (regressed,
// improved, unchanged, not comparable, new, removed) and one row per case with each metric's
// change. What counts as which comes from model.js (compareRuns); this file only draws it.
import { h, fmt } from './dom.js';
import { virtualTable } from './vlist.js';
import { badge } from './case.js';

const KIND_LABEL = { regressed: 'regressed', improved: 'improved', same: 'same', added: 'added', removed: 'removed', incomparable: 'not comparable' };

/** Why a row is not comparable, in words (a title and the text under the table's cell). */
export function whyText(r) {
  return r.why.map((w) => (w.name ? `${w.name} NOT_EVALUATED in the ${w.side}: ${w.reason}` : `${w.side}: ${w.reason}`)).join('; ');
}

function changeCell(r) {
  const label = KIND_LABEL[r.kind] + (r.scoreDown ? ', score ↓' : r.scoreUp ? ', score ↑' : '');
  return h('div', { role: 'cell', class: `kind k-${r.kind}`, title: r.kind === 'incomparable' ? whyText(r) : null }, label);
}

const SHORT = { PASSED: 'passed', FAILED: 'failed', NOT_EVALUATED: 'not evaluated', INFORMATIONAL: 'informational' };

function metricCell(r, name) {
  const x = r.metrics.find((q) => q.name === name);
  if (!x) return h('div', { role: 'cell', class: 'num muted' }, '–');
  const change = `${x.beforeStatus ?? '—'} → ${x.afterStatus ?? '—'}`;
  if (x.delta === null) {
    // No number to subtract: a metric on one side only, evaluated on one side only, or on neither.
    const text = !x.beforeStatus ? 'only in candidate' : !x.afterStatus ? 'only in baseline' : !x.comparable ? 'not comparable'
      : x.beforeStatus === x.afterStatus ? SHORT[x.beforeStatus] ?? x.beforeStatus : `${SHORT[x.beforeStatus] ?? x.beforeStatus} → ${SHORT[x.afterStatus] ?? x.afterStatus}`;
    return h('div', { role: 'cell', class: 'num muted', title: change }, text);
  }
  const cls = x.delta < -1e-12 ? 'down' : x.delta > 1e-12 ? 'up' : 'muted';
  return h('div', { role: 'cell', class: `num ${cls}`, title: `${change}: ${fmt(x.before)} → ${fmt(x.after)}` }, `${x.delta > 0 ? '+' : ''}${fmt(x.delta)}`);
}

/** The counts as cards: what changed by the cases' final status. */
export function compareCards(t, card) {
  return h('div', { class: 'cards' },
    card('regressed', t.regressed, 'passed → failed', 'st-FAILED'),
    card('improved', t.improved, 'failed → passed', 'st-PASSED'),
    card('unchanged', t.same, t.scoreDown ? `${t.scoreDown} with a lower score` : null),
    card('not comparable', t.incomparable, t.incomparable ? 'NOT_EVALUATED on a side' : null, t.incomparable ? 'st-NOT_EVALUATED' : null),
    card('new', t.added), card('removed', t.removed));
}

/** The comparison table; `onOpen(row)` opens a case. */
export function compareTable(cmp, onOpen) {
  const vt = virtualTable({
    label: 'Comparison',
    columns: [{ label: 'eval id', width: 'minmax(12em, 2fr)' }, { label: 'change', width: '11em' }, { label: 'status', width: '16em' },
      ...cmp.names.map((m) => ({ label: `Δ ${m}`, width: 'minmax(9em, 1fr)', numeric: true }))],
    onOpen,
    renderCells: (r) => [
      h('div', { role: 'cell', class: 'id', title: r.id }, r.id),
      changeCell(r),
      h('div', { role: 'cell' }, r.before ? badge(r.before) : '—', ' → ', r.after ? badge(r.after) : '—'),
      ...cmp.names.map((m) => metricCell(r, m)),
    ],
  });
  vt.setItems(cmp.rows);
  requestAnimationFrame(() => vt.refresh());
  return vt.root;
}

/** The cases that are not comparable and why, in the page (a title alone is seen by no one). */
export function incomparableList(rows) {
  const list = rows.filter((r) => r.kind === 'incomparable');
  if (!list.length) return null;
  return h('section', { class: 'reasons', id: 'incomparable' }, h('h3', null, 'Why cases are not comparable'),
    h('table', { class: 'grid' }, h('thead', null, h('tr', null, h('th', null, 'eval id'), h('th', null, 'why'))),
      h('tbody', null, list.slice(0, 200).map((r) => h('tr', null, h('td', null, r.id), h('td', null, whyText(r)))))),
    list.length > 200 ? h('p', { class: 'muted' }, `… and ${list.length - 200} more.`) : null);
}
