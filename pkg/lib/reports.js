//! Reports over eval results for machines and people: JUnit XML for CI, JSON with a summary,
//! and a Markdown summary for pull-request comments. Results are read through the core's model
//! first (`loadEvalSetResult`: ADK's files, camelCase, integer statuses, all normalised), so the
//! renderers below only see its shape.
import { EvalError } from './errors.js';
import { loadEvalSetResult } from './api.js';
import { stringifyWellFormed } from './wire.js';
import { pythonRepr } from './adk_text.js';
import { runHealth } from './health.js';

export { runHealth };

// ---------------------------------------------------------------------------------------------
// Looking into results

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The text of a Content: its text parts joined with newlines (thoughts included, as ADK does). */
export function contentText(content) {
  if (!isObject(content) || !Array.isArray(content.parts)) return '';
  return content.parts.filter((p) => isObject(p) && typeof p.text === 'string').map((p) => p.text).join('\n');
}

/** The tool calls of an invocation (in the core's model), from either intermediate-data shape. */
export function toolCalls(invocation) {
  const data = invocation?.intermediate_data;
  if (!isObject(data)) return [];
  if (Array.isArray(data.tool_uses)) return data.tool_uses;
  return (data.invocation_events ?? []).flatMap((e) => e.content?.parts ?? []).map((p) => p.function_call).filter(isObject);
}

/** `name(key=value, ...)` with the values in Python's form, as ADK's detailed output writes them (`city='Paris'`). */
export function formatToolCall(call) {
  const args = isObject(call.args) ? Object.entries(call.args).map(([k, v]) => `${k}=${pythonRepr(v)}`) : [];
  return `${call.name ?? 'None'}(${args.join(', ')})`;
}

/** A score for people: up to 4 decimals (`0.7556`), `n/a` when there is none. */
export function formatScore(score) {
  if (typeof score !== 'number' || !Number.isFinite(score)) return score === null || score === undefined ? 'n/a' : String(score);
  return String(Number(score.toFixed(4)));
}

/**
 * What one invocation of a case did, side by side with what was expected: prompt, responses,
 * tool calls, and each metric's score/threshold/status on it.
 */
export function invocationView(entry) {
  const actual = entry?.actual_invocation ?? null;
  const expected = entry?.expected_invocation ?? null;
  return {
    prompt: contentText(actual?.user_content ?? expected?.user_content),
    expectedResponse: expected ? contentText(expected.final_response) : null,
    actualResponse: actual ? contentText(actual.final_response) : '',
    expectedToolCalls: expected ? toolCalls(expected).map(formatToolCall) : null,
    actualToolCalls: actual ? toolCalls(actual).map(formatToolCall) : [],
    metrics: (entry?.eval_metric_results ?? []).map((m) => ({
      metric_name: m.metric_name, score: m.score ?? null, threshold: m.threshold ?? null, eval_status: m.eval_status,
      mismatch: mismatchLines(m),
    })),
  };
}

/**
 * One invocation of a {@link invocationView} as text lines: prompt, responses, tool calls, then
 * `metrics` (default: all of the view's) with score and threshold.
 */
export function invocationLines(view, metrics = view.metrics) {
  const lines = [`prompt:              ${view.prompt}`];
  if (view.expectedResponse !== null) lines.push(`expected_response:   ${view.expectedResponse}`);
  lines.push(`actual_response:     ${view.actualResponse}`);
  if (view.expectedToolCalls !== null) lines.push(`expected_tool_calls: ${view.expectedToolCalls.join(', ') || '(none)'}`);
  lines.push(`actual_tool_calls:   ${view.actualToolCalls.join(', ') || '(none)'}`);
  for (const m of metrics) {
    lines.push(`${m.metric_name}: ${m.eval_status} (score ${formatScore(m.score)}, threshold ${formatScore(m.threshold)})`);
    for (const l of m.mismatch ?? mismatchLines(m)) lines.push(`  ${l}`);
  }
  return lines;
}

/** A trajectory metric's explanation of an invocation below 1, as the core wrote it (`details.trajectory.lines`). */
function mismatchLines(m) {
  const lines = m?.details?.trajectory?.lines;
  return Array.isArray(lines) ? lines.filter((l) => typeof l === 'string') : [];
}

/** Metrics that decide a verdict (not the always-on informational ones). */
const decisive = (m) => m.eval_status !== 'INFORMATIONAL';

/** `name: STATUS, score S, threshold T`. */
const metricLine = (m) => `${m.metric_name}: ${m.eval_status}${m.eval_status === 'NOT_EVALUATED' && m.details?.reason ? ` (${m.details.reason})` : ''}, score ${formatScore(m.score)}, threshold ${formatScore(m.threshold)}`;

/** A case with a metric that came back NOT_EVALUATED (which fails it only under `strict`). */
const unevaluated = (result) => (result.overall_eval_metric_results ?? []).some((m) => m.eval_status === 'NOT_EVALUATED');

/** A result object (or text, or bytes) in the core's model; any text it holds can be shown. */
const load = (v) => loadEvalSetResult(isObject(v) ? stringifyWellFormed(v, 'results', true) : v ?? null);

const isCase = (v) => isObject(v) && !('eval_case_results' in v || 'evalCaseResults' in v)
  && ('final_eval_status' in v || 'finalEvalStatus' in v);

/**
 * Results in any of the shapes evalcore hands out (one EvalSetResult, a list of them, or a list
 * of EvalCaseResults), in any shape `loadEvalSetResult` reads, as EvalSetResults in the core's
 * model. Bad input is an EvalError with the path of the offending value.
 */
function readSets(input) {
  if (Array.isArray(input) && input.length > 0 && isCase(input[0])) {
    const evalSetId = input[0].eval_set_id ?? input[0].evalSetId ?? '';
    try {
      return [load({ eval_set_result_id: '', eval_set_id: evalSetId, eval_case_results: input })];
    } catch (e) {
      if (!(e instanceof EvalError)) throw e;
      throw new EvalError(e.code, e.path.replace(/^\$\.eval_case_results/, '$'), e.message, { cause: e });
    }
  }
  // Array.from, not map: a hole in a sparse array is read (as undefined), not skipped.
  return Array.from(Array.isArray(input) ? input : [input], (set, i) => {
    try {
      // A report needs no result id: a set built by hand may leave it out.
      return load(isObject(set) && !('eval_set_result_id' in set || 'evalSetResultId' in set) ? { eval_set_result_id: '', ...set } : set);
    } catch (e) {
      if (!(e instanceof EvalError) || !Array.isArray(input)) throw e;
      throw new EvalError(e.code, `$[${i}]${e.path.replace(/^\$/, '')}`, e.message, { cause: e });
    }
  });
}

/**
 * Results as `[{ evalSetId, runs, cases: [{ evalId, run, result }] }]`, one entry per eval set
 * in first-seen order. A case's run is its `run` field, else the position of its EvalSetResult
 * among those of the same set.
 */
export function groupResults(input) {
  const groups = new Map();
  for (const set of readSets(input)) {
    const ordinal = new Map();
    for (const r of set.eval_case_results) {
      const id = r.eval_set_id || set.eval_set_id || '';
      if (!groups.has(id)) groups.set(id, { evalSetId: id, seen: 0, cases: [], runs: new Set(), runSummary: null });
      const g = groups.get(id);
      if (!ordinal.has(id)) ordinal.set(id, g.seen++);
      const run = Number.isInteger(r.run) ? r.run : ordinal.get(id);
      g.runs.add(run);
      g.cases.push({ evalId: r.eval_id ?? '', run, result: r });
    }
    if (isObject(set.run_summary) && groups.has(set.eval_set_id)) groups.get(set.eval_set_id).runSummary = set.run_summary;
  }
  return [...groups.values()].map(({ evalSetId, cases, runs, runSummary }) => ({ evalSetId, runs: runs.size, cases, runSummary }));
}

function counts(cases) {
  const c = { total: cases.length, passed: 0, failed: 0, not_evaluated: 0 };
  for (const { result } of cases) {
    const s = result.final_eval_status;
    if (s === 'PASSED') c.passed++;
    else if (s === 'NOT_EVALUATED') c.not_evaluated++;
    else c.failed++;
  }
  return c;
}

/** Why a case is not PASSED, one line per deciding metric (or the agent's error), what went wrong first. */
function failureLines(result) {
  const lines = [];
  if (isObject(result.error)) lines.push(`agent error (${result.error.code ?? 'error'}): ${result.error.message ?? ''}`);
  const metrics = (result.overall_eval_metric_results ?? []).filter(decisive);
  const order = { FAILED: 0, NOT_EVALUATED: 1 };
  metrics.sort((a, b) => (order[a.eval_status] ?? 2) - (order[b.eval_status] ?? 2));
  for (const m of metrics) {
    const reason = m.eval_status === 'NOT_EVALUATED' && m.details?.error ? ` — ${m.details.error}` : '';
    lines.push(`${metricLine(m)}${reason}`);
  }
  if (lines.length === 0) lines.push('no metric was evaluated');
  return lines;
}

/** The invocations of a case on which a deciding metric did not pass, for failure details. */
function failingInvocations(result) {
  const per = result.eval_metric_result_per_invocation ?? [];
  const out = [];
  per.forEach((entry, i) => {
    const bad = (entry.eval_metric_results ?? []).filter((m) => decisive(m) && m.eval_status !== 'PASSED');
    if (bad.length > 0) out.push({ index: i, of: per.length, view: invocationView(entry), bad });
  });
  return out;
}

/** A readable explanation of why a case did not pass: metrics, then the failing invocations. */
export function explainCase(result) {
  const lines = failureLines(result);
  for (const { index, of, view, bad } of failingInvocations(result)) {
    lines.push('', `invocation ${index + 1} of ${of}`, ...invocationLines(view, bad).map((l) => `  ${l}`));
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// JUnit XML

// XML 1.0 cannot carry these at all, not even as character references: written as `\uXXXX`.
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const visible = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

export function escapeXmlText(s) {
  return String(s).replace(XML_INVALID, visible).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeXmlAttr(s) {
  return escapeXmlText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

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
  return `${JSON.stringify({ ok, summary: { ...summary, eval_sets: evalSets }, eval_set_results: list }, null, indent)}\n`;
}

// ---------------------------------------------------------------------------------------------
// Markdown

const mdCell = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  .replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const mdHtml = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\s*\r?\n\s*/g, ' ');
const ICON = { PASSED: '✅', FAILED: '❌', NOT_EVALUATED: '⚠️' };
const icon = (s) => ICON[s] ?? '❌';

function fence(text) {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}text\n${text}\n${f}`;
}

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
  const out = [`### ${ok ? '✅' : '❌'} ${mdCell(title)}: ${headline}`, ''];
  if (groups.length === 0) return `${out.join('\n')}No eval cases ran.\n`;
  if (h.count > 0) {
    out.push(`> ⚠️ ${h.count} metric result${h.count === 1 ? ' was' : 's were'} NOT_EVALUATED: ${h.byReason.map((g) => `${mdCell(g.reason)} ×${g.count} (${g.metrics.map(mdCell).join(', ')})`).join(', ')}`, '');
  }

  out.push('| eval set | passed | failed | not evaluated | runs |', '|---|---:|---:|---:|---:|');
  for (const g of groups) {
    const k = counts(g.cases);
    out.push(`| ${mdCell(g.evalSetId)} | ${k.passed} | ${k.failed} | ${k.not_evaluated} | ${g.runs} |`);
  }

  let details = 0;
  for (const g of groups) {
    out.push('', `#### ${mdCell(g.evalSetId)}`, '');
    const cols = metricColumns(g.cases);
    const summary = g.runs > 1 && Array.isArray(g.runSummary?.cases) ? g.runSummary : null;
    const head = ['', 'eval case', ...(summary ? ['runs'] : []), ...[...cols].map(([n, t]) => `${n} (${t === null ? 'no threshold' : `≥ ${formatScore(t)}`})`)];
    out.push(`| ${head.map(mdCell).join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);

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
        fence(explainCase(x.result)), '', '</details>');
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
  return { status: s, evalId, run, cells: [icon(s), mdCell(label), ...[...cols.keys()].map((n) => scoreCell(byName.get(n)))] };
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
    return { status: s, evalId: sc.eval_id, run: 0, cells: [icon(s), mdCell(sc.eval_id), runsCell, ...cells] };
  });
}

export { toHtml } from './report_html.js';
