//! A self-contained HTML report of a run: one file with no scripts and no outside requests (its
//! CSP allows only its own inline style), the verdict, per eval set a case x metric table
//! (failing first) and per failing case what went wrong, invocation by invocation. Every text
//! from the results is escaped; `evalcore eval --format html` and the viewer write the same.
import { EvalError } from '../errors.js';
import { evalStatusName } from '../wasm/adk_text.js';
import { groupResults, invocationView, formatScore } from './results_view.js';

// Line breaks as references too (CR LF and CR read as LF, as an HTML parser reads them; a `<pre>`
// shows a reference alike): text from data never starts a line of the file, nor carries `##[`
// (a CI runner's older workflow command form) as it is.
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
  .replace(/\r\n?|\n/g, '&#10;').replace(/##\[/g, '##&#91;');
const CAP = 20_000; // characters of one text shown; the rest is cut (a report stays readable)
const cut = (s) => (s.length > CAP ? `${s.slice(0, CAP)}… (${s.length - CAP} more characters)` : s);
const text = (s) => esc(cut(String(s ?? '')));

function status(v) {
  try {
    return evalStatusName(v);
  } catch (e) {
    if (e instanceof EvalError) return String(v);
    throw e;
  }
}
const RANK = { FAILED: 0, NOT_EVALUATED: 1, PASSED: 2, INFORMATIONAL: 3 };
const badge = (s) => `<span class="b ${esc(s)}">${esc(s)}</span>`;

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;color:#1f2328;margin:24px;max-width:1200px}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-size:12px}.b{font-size:11px;font-weight:600;padding:0 6px;border-radius:10px;color:#fff;background:#57606a}
.PASSED{background:#1a7f37}.FAILED{background:#cf222e}.NOT_EVALUATED{background:#9a6700}td.PASSED,td.FAILED,td.NOT_EVALUATED{background:none}
td.FAILED{color:#cf222e;font-weight:600}td.NOT_EVALUATED{color:#9a6700}pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;padding:6px;margin:2px 0}
.muted{color:#57606a}details{margin:6px 0}summary{cursor:pointer}
.verdict{font-size:.7em;font-weight:700;letter-spacing:.04em;padding:2px 10px;border-radius:6px;color:#fff;vertical-align:middle}`;

/**
 * The HTML report of `results` (an EvalSetResult, a list of them, or EvalCaseResults) as text.
 * `title` names it; `maxDetails` bounds the failing cases written out in full (default 200).
 */
export function toHtml(results, { title = 'evalcore', maxDetails = 200, generated = null } = {}) {
  const groups = groupResults(results);
  const all = groups.flatMap((g) => g.cases);
  const passed = all.filter((c) => status(c.result.final_eval_status) === 'PASSED').length;
  const failed = all.filter((c) => status(c.result.final_eval_status) === 'FAILED').length;
  // In words on a coloured badge: an emoji verdict needs a font many machines lack.
  const verdict = all.length > 0 && passed === all.length ? 'PASSED' : failed > 0 || all.length === 0 ? 'FAILED' : 'NOT_EVALUATED';
  const out = [`<!doctype html><html lang="en"><head><meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>${esc(title)}: ${passed} of ${all.length} passed</title><style>${STYLE}</style></head><body>`,
    `<h1><span class="verdict ${verdict}">${verdict.replace('_', ' ')}</span> ${esc(title)}: ${passed} of ${all.length} eval case${all.length === 1 ? '' : 's'} passed</h1>`];
  if (generated) out.push(`<p class="muted">${esc(generated)}</p>`);
  let details = 0;
  for (const g of groups) {
    const metrics = [];
    for (const { result } of g.cases) {
      for (const m of result.overall_eval_metric_results ?? []) {
        // ADK's always-on efficiency metrics (informational, no criterion) stay out of the table;
        // a configured informational metric (an LLM metric without a threshold) is shown.
        if ((status(m.eval_status) !== 'INFORMATIONAL' || m.criterion) && !metrics.includes(m.metric_name)) metrics.push(m.metric_name);
      }
    }
    const cases = [...g.cases].sort((a, b) => (RANK[status(a.result.final_eval_status)] ?? 9) - (RANK[status(b.result.final_eval_status)] ?? 9)
      || String(a.evalId).localeCompare(String(b.evalId)) || a.run - b.run);
    out.push(`<h2>${esc(g.evalSetId)}</h2><p class="muted">${g.cases.length} case result${g.cases.length === 1 ? '' : 's'}, ${g.runs} run${g.runs === 1 ? '' : 's'}</p>`);
    out.push(`<table><thead><tr><th>eval id</th>${g.runs > 1 ? '<th>run</th>' : ''}<th>status</th>${metrics.map((m) => `<th>${esc(m)}</th>`).join('')}</tr></thead><tbody>`);
    for (const { evalId, run, result } of cases) {
      const byName = new Map((result.overall_eval_metric_results ?? []).map((m) => [m.metric_name, m]));
      out.push(`<tr><td>${text(evalId)}</td>${g.runs > 1 ? `<td>${run + 1}</td>` : ''}<td>${badge(status(result.final_eval_status))}</td>${metrics.map((name) => {
        const m = byName.get(name);
        if (!m) return '<td class="muted">–</td>';
        const s = status(m.eval_status);
        return `<td class="${esc(s)}" title="${esc(s)}, threshold ${esc(formatScore(m.threshold))}">${esc(formatScore(m.score))}</td>`;
      }).join('')}</tr>`);
    }
    out.push('</tbody></table>');
    for (const { evalId, run, result } of cases) {
      if (status(result.final_eval_status) === 'PASSED' || details >= maxDetails) continue;
      details++;
      out.push(`<details><summary>${badge(status(result.final_eval_status))} ${text(evalId)}${g.runs > 1 ? ` (run ${run + 1})` : ''}</summary>`);
      for (const m of result.overall_eval_metric_results ?? []) {
        const s = status(m.eval_status);
        if (s === 'INFORMATIONAL') continue;
        const why = m.details?.error ?? m.details?.reason ?? m.details?.rationale;
        out.push(`<p>${badge(s)} <b>${esc(m.metric_name)}</b> score ${esc(formatScore(m.score))}, threshold ${esc(formatScore(m.threshold))}${why ? `<pre>${text(why)}</pre>` : ''}</p>`);
      }
      (result.eval_metric_result_per_invocation ?? []).forEach((entry, i, list) => {
        const v = invocationView(entry);
        out.push(`<h4>Invocation ${i + 1} of ${list.length}</h4><table><tbody>`,
          `<tr><th>prompt</th><td><pre>${text(v.prompt)}</pre></td></tr>`,
          v.expectedResponse !== null ? `<tr><th>expected response</th><td><pre>${text(v.expectedResponse)}</pre></td></tr>` : '',
          `<tr><th>actual response</th><td><pre>${text(v.actualResponse)}</pre></td></tr>`,
          v.expectedToolCalls !== null ? `<tr><th>expected tool calls</th><td><pre>${text(v.expectedToolCalls.join('\n') || '(none)')}</pre></td></tr>` : '',
          `<tr><th>actual tool calls</th><td><pre>${text(v.actualToolCalls.join('\n') || '(none)')}</pre></td></tr>`,
          ...v.metrics.filter((m) => m.eval_status !== 'INFORMATIONAL').map((m) => `<tr><th>${esc(m.metric_name)}</th><td>${badge(m.eval_status)} score ${esc(formatScore(m.score))}, threshold ${esc(formatScore(m.threshold))}</td></tr>`),
          '</tbody></table>');
      });
      out.push('</details>');
    }
  }
  if (details >= maxDetails) out.push(`<p class="muted">Details are shown for the first ${maxDetails} cases that did not pass.</p>`);
  out.push('</body></html>\n');
  return out.join('\n');
}
