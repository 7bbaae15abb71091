// Score distributions as small SVG bar charts: a histogram needs rectangles and a few labels,
// which is less code than adapting a chart library (and nothing to allow in the CSP).
import { h, s, fmt } from './dom.js';

const W = 240, H = 90, PAD = 16;

/** A histogram card for one metric: bars per bin, the threshold as a line, counts in titles. */
export function histogramCard(name, hist) {
  const { lo, hi, counts, n, threshold } = hist;
  const peak = Math.max(1, ...counts);
  const bw = (W - 2 * PAD) / counts.length;
  const x = (v) => PAD + ((v - lo) / (hi - lo)) * (W - 2 * PAD);
  const order = ['PASSED', 'NOT_EVALUATED', 'FAILED', 'INFORMATIONAL'];
  const bars = counts.flatMap((c, i) => {
    const from = lo + ((hi - lo) * i) / counts.length, to = lo + ((hi - lo) * (i + 1)) / counts.length;
    const label = `${fmt(from, 2)}–${fmt(to, 2)}: ${c} case${c === 1 ? '' : 's'}`
      + Object.entries(hist.byStatus[i]).map(([k, v]) => `, ${v} ${k}`).join('');
    let y = H - PAD;
    return order.filter((k) => hist.byStatus[i][k]).map((k) => {
      const bh = (hist.byStatus[i][k] / peak) * (H - 2 * PAD);
      y -= bh;
      return s('rect', { class: `bar st-${k}`, x: PAD + i * bw + 1, y, width: Math.max(1, bw - 2), height: bh }, s('title', null, label));
    });
  });
  const parts = [
    s('line', { class: 'axis', x1: PAD, x2: W - PAD, y1: H - PAD, y2: H - PAD }),
    ...bars,
    s('text', { class: 'tick', x: PAD, y: H - 3, 'text-anchor': 'start' }, fmt(lo, 2)),
    s('text', { class: 'tick', x: W - PAD, y: H - 3, 'text-anchor': 'end' }, fmt(hi, 2)),
  ];
  if (threshold !== null && threshold >= lo && threshold <= hi) {
    parts.push(s('line', { class: 'threshold', x1: x(threshold), x2: x(threshold), y1: 4, y2: H - PAD },
      s('title', null, `threshold ${fmt(threshold)}`)));
  }
  return h('figure', { class: 'chart' },
    s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': `${name}: distribution of ${n} scores` }, parts),
    h('figcaption', null, name, h('span', { class: 'muted' }, ` (${n} scored${threshold !== null ? `, threshold ${fmt(threshold)}` : ''})`)));
}

/** A stacked bar of status counts. */
export function statusBar(counts) {
  const total = Object.values(counts).reduce((a, b) => a + b, 0) || 1;
  return h('div', { class: 'statusbar', role: 'img', 'aria-label': Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ') },
    Object.entries(counts).filter(([, v]) => v > 0).map(([k, v]) => {
      const seg = h('span', { class: `seg st-${k}`, title: `${k}: ${v}` });
      seg.style.flexGrow = String(v / total);
      return seg;
    }));
}
