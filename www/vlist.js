// A virtualised ARIA table: only the rows in view (plus a margin) exist in the DOM, each with
// role="row" and aria-rowindex, so 10,000 cases scroll as smoothly as ten. Rows have one fixed
// height; the keyboard moves a roving focus (arrows, Page Up/Down, Home/End, Enter opens).
import { h } from './dom.js';

const ROW = 30;
const MARGIN = 10;

/**
 * `columns`: [{label, width, sortKey?, numeric?}] (numeric: the header is right-aligned, as the
 * numbers under it); `renderCells(item, index)` returns the cell elements
 * of one row; `onOpen(item)` runs on click or Enter; `onSort(key)` on a header click.
 */
export function virtualTable({ label, columns, renderCells, onOpen, onSort, sort }) {
  let items = [];
  let active = 0;
  const template = columns.map((c) => c.width || 'minmax(8em, 1fr)').join(' ');
  const header = h('div', { role: 'row', class: 'vrow vhead', 'aria-rowindex': 1 },
    columns.map((c) => {
      const sorted = sort && c.sortKey && sort.key === c.sortKey;
      const cell = h('div', {
        role: 'columnheader', class: [c.sortKey ? 'sortable' : '', c.numeric ? 'num' : ''].join(' ').trim() || null, tabindex: c.sortKey ? 0 : null,
        'aria-sort': sorted ? (sort.desc ? 'descending' : 'ascending') : c.sortKey ? 'none' : null,
      }, c.label, sorted ? (sort.desc ? ' ▼' : ' ▲') : '');
      if (c.sortKey) {
        const go = () => onSort && onSort(c.sortKey);
        cell.addEventListener('click', go);
        cell.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); } });
      }
      return cell;
    }));
  header.style.gridTemplateColumns = template;
  const spacer = h('div', { class: 'vspacer', role: 'presentation' });
  const body = h('div', { role: 'rowgroup', class: 'vbody' }, spacer);
  const viewport = h('div', { class: 'viewport' }, body);
  const table = h('div', { role: 'table', class: 'vtable', 'aria-label': label }, h('div', { role: 'rowgroup' }, header), viewport);
  const empty = h('p', { class: 'empty', hidden: true }, 'No rows match.');
  const root = h('div', { class: 'vwrap' }, table, empty);
  let rendered = new Map();
  let frame = 0;

  function rowEl(i) {
    const item = items[i];
    const row = h('div', {
      role: 'row', class: 'vrow', 'aria-rowindex': i + 2, tabindex: i === active ? 0 : -1, dataset: { index: i },
    }, renderCells(item, i));
    row.style.gridTemplateColumns = template;
    row.style.transform = `translateY(${i * ROW}px)`;
    row.addEventListener('click', () => { setActive(i, false); onOpen && onOpen(item); });
    return row;
  }

  function render() {
    frame = 0;
    // The body's scrollbar takes width from its rows: the header gives up the same, so the
    // columns of both stay on one grid.
    const bar = viewport.offsetWidth - viewport.clientWidth;
    header.style.paddingRight = bar > 0 ? `${8 + bar}px` : '';
    const top = viewport.scrollTop;
    const height = viewport.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / ROW) - MARGIN);
    const last = Math.min(items.length, Math.ceil((top + height) / ROW) + MARGIN);
    const next = new Map();
    for (let i = first; i < last; i++) {
      let el = rendered.get(i);
      if (!el) { el = rowEl(i); body.appendChild(el); }
      else el.tabIndex = i === active ? 0 : -1;
      next.set(i, el);
    }
    for (const [i, el] of rendered) if (!next.has(i)) el.remove();
    rendered = next;
  }
  const schedule = () => { if (!frame) frame = requestAnimationFrame(render); };
  viewport.addEventListener('scroll', schedule, { passive: true });

  function setActive(i, focus = true) {
    if (!items.length) return;
    active = Math.max(0, Math.min(items.length - 1, i));
    const top = active * ROW;
    if (top < viewport.scrollTop) viewport.scrollTop = top;
    else if (top + ROW > viewport.scrollTop + viewport.clientHeight) viewport.scrollTop = top + ROW - viewport.clientHeight;
    render();
    if (focus) rendered.get(active)?.focus({ preventScroll: true });
  }

  viewport.addEventListener('keydown', (e) => {
    const page = Math.max(1, Math.floor(viewport.clientHeight / ROW) - 1);
    const moves = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    if (e.key in moves) setActive(active + moves[e.key]);
    else if (e.key === 'Home') setActive(0);
    else if (e.key === 'End') setActive(items.length - 1);
    else if (e.key === 'Enter' && items[active] !== undefined) onOpen && onOpen(items[active]);
    else return;
    e.preventDefault();
  });
  viewport.addEventListener('focusin', (e) => {
    const i = Number(e.target?.dataset?.index);
    if (Number.isInteger(i)) active = i;
  });

  return {
    root,
    setItems(list) {
      items = list;
      active = Math.min(active, Math.max(0, items.length - 1));
      table.setAttribute('aria-rowcount', String(items.length + 1));
      spacer.style.height = `${items.length * ROW}px`;
      empty.hidden = items.length > 0;
      for (const el of rendered.values()) el.remove();
      rendered = new Map();
      render();
    },
    refresh() { schedule(); },
    focusRow(i) { setActive(i); },
  };
}
