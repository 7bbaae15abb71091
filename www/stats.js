// The statistics of the Compare and Trend views, from the package's own functions (the numbers
// `evalcore compare` prints): compareRuns's verdict, each metric's difference with its 95%
// interval and p-values, the pass/fail flips; and runTrend's course of each metric over a
// folder of runs, with intervals. Loaded on first use (the empty viewer does not need it).
import { h, s, fmt, when } from './dom.js';
import { compareRuns, runTrend } from '../pkg/lib/wasm/compare.js';

const pText = (p) => (typeof p !== 'number' ? '–' : p === 0 ? '0' : p >= 0.001 ? fmt(p, 3) : p.toExponential(1));
const signed = (x) => (typeof x === 'number' && x > 0 ? `+${fmt(x, 4)}` : fmt(x, 4));
const VERDICT = { regressed: 'Regressed', improved: 'Improved', no_significant_change: 'No significant change' };

/** A difference and its interval on an axis around 0 (the same scale for every row: `span`). */
function intervalBar(m, span) {
  const W = 160, H = 18, mid = W / 2;
  const x = (v) => mid + (v / span) * (mid - 4);
  const [lo, hi] = m.ci95;
  const cls = m.significant ? (m.mean_delta < 0 ? 'down' : 'up') : 'flat';
  return s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: `ci ${cls}`, role: 'img', 'aria-label': `difference ${signed(m.mean_delta)}, 95% interval ${signed(lo)} to ${signed(hi)}` },
    s('line', { class: 'zero', x1: mid, x2: mid, y1: 0, y2: H }),
    s('line', { class: 'range', x1: x(lo), x2: x(hi), y1: H / 2, y2: H / 2 }),
    s('rect', { class: 'point', x: x(m.mean_delta) - 3, y: H / 2 - 3, width: 6, height: 6 }),
    s('title', null, `Δ ${signed(m.mean_delta)} [${signed(lo)}, ${signed(hi)}]`));
}

/**
 * The comparison of two runs (each a list of loaded results) as the Compare view's head: the
 * verdict, a table of metrics (n, means, Δ with its 95% interval, p, Holm-adjusted p), the
 * pass/fail flips with McNemar's exact p.
 */
export function statsPanel(base, cand, { alpha = 0.05 } = {}) {
  const cmp = compareRuns(base, cand, { alpha });
  const span = Math.max(1e-9, ...cmp.metrics.flatMap((m) => m.ci95.map(Math.abs)));
  const pf = cmp.pass_fail;
  const rows = cmp.metrics.map((m) => h('tr', { class: m.significant ? (m.mean_delta < 0 ? 'sig down' : 'sig up') : null },
    h('td', null, m.metric_name), h('td', { class: 'num' }, String(m.n)), h('td', { class: 'num' }, fmt(m.baseline_mean, 4)),
    h('td', { class: 'num' }, fmt(m.candidate_mean, 4)), h('td', { class: 'num' }, signed(m.mean_delta)),
    h('td', { class: 'num' }, `[${signed(m.ci95[0])}, ${signed(m.ci95[1])}]`), h('td', null, intervalBar(m, span)),
    h('td', { class: 'num' }, pText(m.p_value)), h('td', { class: 'num' }, pText(m.p_adjusted)),
    h('td', null, m.significant ? (m.mean_delta < 0 ? 'worse' : 'better') : '')));
  return h('section', { class: 'stats', id: 'compare-stats', dataset: { verdict: cmp.verdict } },
    h('p', { class: `verdict v-${cmp.verdict}`, id: 'verdict' }, VERDICT[cmp.verdict],
      h('span', { class: 'muted' }, ` (α = ${alpha}; p-values Holm-adjusted across ${cmp.metrics.length} metric${cmp.metrics.length === 1 ? '' : 's'})`)),
    cmp.metrics.length
      ? h('table', { class: 'grid stats-table', id: 'metric-stats' },
        h('thead', null, h('tr', null, ['metric', 'n', 'baseline', 'candidate', 'Δ mean', '95% CI', '', 'p', 'p (Holm)', ''].map((t) => h('th', null, t)))),
        h('tbody', null, rows))
      : h('p', { class: 'muted' }, 'No metric was scored on both sides.'),
    h('p', { id: 'flips' }, `Pass/fail: ${pf.baseline_passed} → ${pf.candidate_passed} of ${pf.n} cases on both sides passed; ${pf.b} passed only in the baseline, ${pf.c} only in the candidate (exact McNemar p = ${pText(pf.p_value)}).`),
    cmp.eval_set_ids.baseline.join() !== cmp.eval_set_ids.candidate.join()
      ? h('p', { class: 'warn' }, `The sides hold different eval sets (${cmp.eval_set_ids.baseline.join(', ')} vs ${cmp.eval_set_ids.candidate.join(', ')}).`) : null);
}

/** One metric's course as an SVG line over runs, its 95% interval as a band. */
function trendChart(name, points, labels, caption = 'mean case score per run, 95% interval shaded') {
  const W = 480, H = 140, L = 36, R = 8, T = 8, B = 22;
  const present = points.filter(Boolean);
  let lo = Math.min(...present.map((p) => p.ci95[0])), hi = Math.max(...present.map((p) => p.ci95[1]));
  if (lo >= 0 && hi <= 1) { lo = 0; hi = 1; }
  if (hi - lo < 1e-9) { lo -= 0.5; hi += 0.5; }
  const n = points.length;
  const x = (i) => L + (n === 1 ? (W - L - R) / 2 : (i / (n - 1)) * (W - L - R));
  const y = (v) => T + (1 - (v - lo) / (hi - lo)) * (H - T - B);
  const band = [...present.map((p) => `${x(p.run)},${y(p.ci95[1])}`), ...present.slice().reverse().map((p) => `${x(p.run)},${y(p.ci95[0])}`)];
  const line = present.map((p, i) => `${i ? 'L' : 'M'}${x(p.run)},${y(p.mean)}`).join(' ');
  return h('figure', { class: 'chart trend', dataset: { metric: name } },
    s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': `${name} over ${n} runs with 95% intervals` },
      s('line', { class: 'axis', x1: L, x2: W - R, y1: H - B, y2: H - B }),
      s('text', { class: 'tick', x: L - 4, y: y(hi) + 3, 'text-anchor': 'end' }, fmt(hi, 2)),
      s('text', { class: 'tick', x: L - 4, y: y(lo) + 3, 'text-anchor': 'end' }, fmt(lo, 2)),
      present.length > 1 ? s('path', { class: 'band', d: `M${band.join(' L')} Z` }) : null,
      s('path', { class: 'line', d: line }),
      present.map((p) => s('rect', { class: 'dot', x: x(p.run) - 3, y: y(p.mean) - 3, width: 6, height: 6 },
        s('title', null, `${labels[p.run]}: mean ${fmt(p.mean, 4)} [${fmt(p.ci95[0], 4)}, ${fmt(p.ci95[1], 4)}] over ${p.n} cases`))),
      labels.map((t, i) => (n <= 12 || i % Math.ceil(n / 12) === 0 ? s('text', { class: 'tick', x: x(i), y: H - 6, 'text-anchor': 'middle' }, String(i + 1)) : null))),
    h('figcaption', null, name, h('span', { class: 'muted' }, ` — ${caption}`)));
}

/** The Trend view of one eval set's runs (loaded results): per metric a chart and the numbers, and the pass rate. */
export function trendView(results) {
  const t = runTrend(results);
  const labels = t.runs.map((r, i) => `run ${i + 1}${r.creation_timestamp ? ` (${when(r.creation_timestamp)})` : ''}`);
  const passPoints = t.runs.map((r, i) => (r.pass_rate === null ? null : { run: i, n: r.cases, mean: r.pass_rate, ci95: r.pass_rate_ci95 }));
  const table = h('table', { class: 'grid', id: 'trend-table' },
    h('thead', null, h('tr', null, h('th', null, 'run'), h('th', null, 'result'), h('th', null, 'passed'),
      t.metrics.map((m) => h('th', null, m.metric_name)))),
    h('tbody', null, t.runs.map((r, i) => h('tr', null, h('td', null, labels[i]), h('td', null, r.eval_set_result_id),
      h('td', { class: 'num' }, `${r.passed}/${r.cases} (${fmt(100 * (r.pass_rate ?? 0), 1)}%)`),
      t.metrics.map((m) => {
        const p = m.points[i];
        return h('td', { class: 'num' }, p ? `${fmt(p.mean, 4)} [${fmt(p.ci95[0], 3)}, ${fmt(p.ci95[1], 3)}]` : '–');
      })))));
  return h('section', { class: 'trend-view' },
    h('div', { class: 'charts' }, passPoints.some(Boolean) ? trendChart('cases passed', passPoints, labels, 'share of cases passed per run, 95% Wilson interval shaded') : null,
      t.metrics.map((m) => trendChart(m.metric_name, m.points, labels))),
    table);
}
