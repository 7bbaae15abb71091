//! Reports over eval results for machines and people: JUnit XML for CI, JSON with a summary,
//! and a Markdown summary for pull-request comments (and, in report_html.js, a self-contained
//! HTML page). They render results in the core's model, as results_view.js reads them.
import {
  contentText, counts, decisive, explainCase, failureLines, formatScore, formatToolCall, groupResults,
  invocationLines, invocationView, isObject, metricLine, toolCalls, unevaluated,
} from './results_view.js';
import { runHealth } from '../health.js';
import { mdHtml, mdPre, mdText } from './markdown.js';
import { jsonText } from './workflow.js';
import { escapeXmlAttr, escapeXmlText } from './xml.js';

export { escapeXmlAttr, escapeXmlText } from './xml.js';
export { contentText, explainCase, formatScore, formatToolCall, groupResults, invocationLines, invocationView, runHealth, toolCalls };

// ---------------------------------------------------------------------------------------------
// JUnit XML

const attrs = (o) => Object.entries(o).filter(([, v]) => v !== undefined && v !== null)
  .map(([k, v]) => ` ${k}="${escapeXmlAttr(v)}"`).join('');

/** `<properties>` of a suite: how many metric results were NOT_EVALUATED, in all and per reason. */
function healthProperties(cases) {
  const h = runHealth(cases.map((x) => x.result));
  const props = [['evalcore.not_evaluated_metrics', h.count], ...h.byReason.map((g) => [`evalcore.not_evaluated.${g.reason}`, g.count])];
  return `    <properties>\n${props.map(([n, v]) => `      <property${attrs({ name: n, value: v })}/>`).join('\n')}\n    </properties>\n`;
}

/**
 * JUnit XML: one `<testsuite>` per eval set, one `<testcase>` per eval case (per case and run
 * when there are several runs). FAILED → `<failure>`, NOT_EVALUATED → `<failure
 * type="NOT_EVALUATED">` (it fails `adk eval` too), an agent error → `<error>`. Each suite's
 * `<properties>` count the NOT_EVALUATED metric results; with `strict`, a case with one fails.
 */
export function toJUnit(results, { name = 'evalcore', strict = false } = {}) {
  const groups = groupResults(results);
  const suites = [];
  const total = { tests: 0, failures: 0, errors: 0 };
  for (const g of groups) {
    const cases = [];
    let failures = 0;
    let errors = 0;
    for (const { evalId, run, result } of g.cases) {
      const s = strict && result.final_eval_status === 'PASSED' && unevaluated(result) ? 'NOT_EVALUATED' : result.final_eval_status;
      const caseName = g.runs > 1 ? `${evalId} (run ${run + 1})` : evalId;
      const head = `    <testcase${attrs({ name: caseName, classname: g.evalSetId })}`;
      const out = escapeXmlText(metricSummary(result));
      if (s === 'PASSED') {
        cases.push(`${head}>\n      <system-out>${out}</system-out>\n    </testcase>`);
        continue;
      }
      const lines = failureLines(result);
      const body = escapeXmlText(explainCase(result));
      if (isObject(result.error)) {
        errors++;
        cases.push(`${head}>\n      <error${attrs({ message: lines[0], type: result.error.code ?? 'agent_error' })}>${body}</error>\n    </testcase>`);
      } else {
        failures++;
        const message = s === 'NOT_EVALUATED'
          ? `not evaluated: ${lines.filter((l) => / NOT_EVALUATED/.test(l)).join('; ') || lines.join('; ')}`
          : lines.filter((l) => /: FAILED,/.test(l)).join('; ') || lines[0];
        cases.push(`${head}>\n      <failure${attrs({ message, type: s })}>${body}</failure>\n      <system-out>${out}</system-out>\n    </testcase>`);
      }
    }
    total.tests += g.cases.length;
    total.failures += failures;
    total.errors += errors;
    suites.push(`  <testsuite${attrs({ name: g.evalSetId, tests: g.cases.length, failures, errors, skipped: 0 })}>\n${healthProperties(g.cases)}${cases.join('\n')}\n  </testsuite>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attrs({ name, ...total })}>\n${suites.join('\n')}${suites.length ? '\n' : ''}</testsuites>\n`;
}

function metricSummary(result) {
  return (result.overall_eval_metric_results ?? []).map(metricLine).join('\n');
}

// ---------------------------------------------------------------------------------------------
// JSON

/** NOT_EVALUATED metric results of some cases: `{ not_evaluated_metrics, not_evaluated_reasons }`. */
function healthCounts(cases) {
  const h = runHealth(cases.map((x) => x.result));
  return { not_evaluated_metrics: h.count, not_evaluated_reasons: Object.fromEntries(h.byReason.map((g) => [g.reason, g.count])) };
}

/**
 * `{ ok, summary: { total, passed, failed, not_evaluated, not_evaluated_metrics,
 * not_evaluated_reasons, eval_sets: [...] }, eval_set_results }` as pretty JSON. `ok` is what
 * `evalcore eval`'s exit code says: every case PASSED and at least one ran (and, with `strict`,
 * no metric result was NOT_EVALUATED).
 */
export function toJson(results, { indent = 2, strict = false } = {}) {
  const groups = groupResults(results);
  const evalSets = groups.map((g) => ({ eval_set_id: g.evalSetId, runs: g.runs, ...counts(g.cases), ...healthCounts(g.cases) }));
  const summary = { total: 0, passed: 0, failed: 0, not_evaluated: 0 };
  for (const s of evalSets) for (const k of Object.keys(summary)) summary[k] += s[k];
  Object.assign(summary, healthCounts(groups.flatMap((g) => g.cases)));
  const ok = summary.total > 0 && summary.passed === summary.total && !(strict && summary.not_evaluated_metrics > 0);
  const list = Array.isArray(results) ? results : [results];
  return `${jsonText({ ok, summary: { ...summary, eval_sets: evalSets }, eval_set_results: list }, indent)}\n`;
}

// ---------------------------------------------------------------------------------------------
// Markdown

const ICON = { PASSED: '✅', FAILED: '❌', NOT_EVALUATED: '⚠️' };
const icon = (s) => ICON[s] ?? '❌';

/** Deciding metric columns of a set, in first-seen order, with the threshold each one uses. */
function metricColumns(cases) {
  const cols = new Map();
  for (const { result } of cases) {
    for (const m of result.overall_eval_metric_results ?? []) {
      if (decisive(m) && !cols.has(m.metric_name)) cols.set(m.metric_name, m.threshold ?? null);
    }
  }
  return cols;
}

const rank = { FAILED: 0, NOT_EVALUATED: 1, PASSED: 2 };

/**
 * A pull-request comment: an overall verdict, a table of eval sets with pass/fail counts, then
 * per set a table of cases (failing first) with each metric's score against its threshold, and
 * a collapsible block per failing case with what went wrong. Several runs of a set with a run
 * summary show the averaged score per metric and each run's status.
 */
export function toMarkdown(results, { title = 'evalcore', maxDetails = 20, strict = false } = {}) {
  const groups = groupResults(results);
  const all = groups.flatMap((g) => g.cases);
  const c = counts(all);
  const h = runHealth(all.map((x) => x.result));
  const ok = c.total > 0 && c.passed === c.total && !(strict && h.count > 0);
  // Several runs: a case passes when it passed in every run.
  const byCase = new Map();
  for (const x of all) byCase.set(x.evalId, (byCase.get(x.evalId) ?? true) && x.result.final_eval_status === 'PASSED');
  const runs = Math.max(1, ...groups.map((g) => g.runs));
  const cases = byCase.size;
  const passedCases = [...byCase.values()].filter(Boolean).length;
  const headline = runs > 1
    ? `${passedCases} of ${cases} eval case${cases === 1 ? '' : 's'} passed in all ${runs} runs (${c.passed} of ${c.total} case runs passed)`
    : `${c.passed} of ${c.total} eval case${c.total === 1 ? '' : 's'} passed`;
  const out = [`### ${ok ? '✅' : '❌'} ${mdText(title)}: ${headline}`, ''];
  if (groups.length === 0) return `${out.join('\n')}No eval cases ran.\n`;
  if (h.count > 0) {
    out.push(`> ⚠️ ${h.count} metric result${h.count === 1 ? ' was' : 's were'} NOT_EVALUATED: ${h.byReason.map((g) => `${mdText(g.reason)} ×${g.count} (${g.metrics.map(mdText).join(', ')})`).join(', ')}`, '');
  }

  out.push('| eval set | passed | failed | not evaluated | runs |', '|---|---:|---:|---:|---:|');
  for (const g of groups) {
    const k = counts(g.cases);
    out.push(`| ${mdText(g.evalSetId)} | ${k.passed} | ${k.failed} | ${k.not_evaluated} | ${g.runs} |`);
  }

  let details = 0;
  for (const g of groups) {
    out.push('', `#### ${mdText(g.evalSetId)}`, '');
    const cols = metricColumns(g.cases);
    const summary = g.runs > 1 && Array.isArray(g.runSummary?.cases) ? g.runSummary : null;
    const head = ['', 'eval case', ...(summary ? ['runs'] : []), ...[...cols].map(([n, t]) => `${n} (${t === null ? 'no threshold' : `≥ ${formatScore(t)}`})`)];
    out.push(`| ${head.map(mdText).join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);

    const rows = summary ? summaryRows(g, summary, cols) : g.cases.map((x) => caseRow(x, g.runs, cols));
    // Failing first; then a case's runs together, in the order the cases first appeared.
    const firstSeen = new Map();
    for (const x of g.cases) if (!firstSeen.has(x.evalId)) firstSeen.set(x.evalId, firstSeen.size);
    rows.sort((a, b) => (rank[a.status] ?? 0) - (rank[b.status] ?? 0)
      || firstSeen.get(a.evalId) - firstSeen.get(b.evalId) || a.run - b.run);
    for (const r of rows) out.push(`| ${r.cells.join(' | ')} |`);

    for (const x of g.cases) {
      const s = x.result.final_eval_status;
      if (s === 'PASSED') continue;
      if (details++ >= maxDetails) continue;
      const label = g.runs > 1 ? `${x.evalId} (run ${x.run + 1})` : x.evalId;
      out.push('', `<details><summary>${icon(s)} ${mdHtml(label)}: ${mdHtml(failureLines(x.result)[0])}</summary>`, '',
        mdPre(explainCase(x.result)), '', '</details>');
    }
  }
  if (details > maxDetails) out.push('', `_${details - maxDetails} more failing case(s) not shown._`);
  return `${out.join('\n')}\n`;
}

function scoreCell(m) {
  if (!m) return '–';
  const s = m.eval_status;
  const text = formatScore(m.score);
  return s === 'FAILED' ? `**${text}** ❌` : s === 'NOT_EVALUATED' ? `${text} ⚠️` : text;
}

function caseRow({ evalId, run, result }, runs, cols) {
  const s = result.final_eval_status;
  const byName = new Map((result.overall_eval_metric_results ?? []).map((m) => [m.metric_name, m]));
  const label = runs > 1 ? `${evalId} (run ${run + 1})` : evalId;
  return { status: s, evalId, run, cells: [icon(s), mdText(label), ...[...cols.keys()].map((n) => scoreCell(byName.get(n)))] };
}

function summaryRows(g, summary, cols) {
  return summary.cases.map((sc) => {
    const statuses = sc.statuses ?? [];
    const s = statuses.every((x) => x === 'PASSED') && statuses.length > 0 ? 'PASSED'
      : statuses.includes('FAILED') ? 'FAILED' : 'NOT_EVALUATED';
    const byName = new Map((sc.metrics ?? []).map((m) => [m.metric_name, m]));
    const cells = [...cols.keys()].map((n) => {
      const m = byName.get(n);
      if (!m) return '–';
      const score = m.invocation_mean ?? m.mean ?? null;
      const text = `${formatScore(score)}${m.stddev ? ` ±${formatScore(m.stddev)}` : ''}`;
      return m.passed === false ? `**${text}** ❌` : m.passed === null && !m.informational ? `${text} ⚠️` : text;
    });
    const runsCell = `${statuses.map(icon).join('')}${sc.flipped ? ' flaky' : ''}`;
    return { status: s, evalId: sc.eval_id, run: 0, cells: [icon(s), mdText(sc.eval_id), runsCell, ...cells] };
  });
}

export { toHtml } from './report_html.js';
export { compareRuns, calibrate, runTrend } from '../wasm/compare.js';
export { calibrationText, comparisonAnnotations, comparisonJUnit, comparisonMarkdown, comparisonText } from './compare_report.js';
