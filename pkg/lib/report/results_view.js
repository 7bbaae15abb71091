//! Results in the core's model, looked into: each one read through the core first
//! (`loadEvalSetResult`: ADK's files, camelCase, integer statuses, all normalised), grouped per
//! eval set and run, counted, and explained (an invocation next to what was expected, why a case
//! did not pass). What every report (reports.js, report_html.js) renders.
import { EvalError } from '../errors.js';
import { loadEvalSetResult } from '../wasm/api.js';
import { stringifyWellFormed } from '../wasm/wire.js';
import { pythonRepr } from '../wasm/adk_text.js';

export const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

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
export const decisive = (m) => m.eval_status !== 'INFORMATIONAL';

/** `name: STATUS, score S, threshold T`. */
export const metricLine = (m) => `${m.metric_name}: ${m.eval_status}${m.eval_status === 'NOT_EVALUATED' && m.details?.reason ? ` (${m.details.reason})` : ''}, score ${formatScore(m.score)}, threshold ${formatScore(m.threshold)}`;

/**
 * A case with a metric that came back NOT_EVALUATED, or one its metric could not evaluate on an
 * invocation while scoring the others (either fails it only under `strict`).
 */
export const unevaluated = (result) => (result.overall_eval_metric_results ?? []).some((m) => m.eval_status === 'NOT_EVALUATED')
  || (Array.isArray(result.not_evaluated_invocations) && result.not_evaluated_invocations.length > 0);

/**
 * `read(set)` (the core's loadEvalSetResult of a parsed EvalSetResult) for a result whose answer
 * would pass the core's maxReplyBytes: read again in halves and the cases joined back in their
 * order (a case reads on its own; only a run summary ties cases together, and a result with one
 * is never split). An error in a later half keeps its case's index in the whole.
 */
export function readInParts(set, read) {
  try {
    return read(set);
  } catch (e) {
    const cases = isObject(set) ? set.eval_case_results : undefined;
    if (!(e instanceof EvalError) || e.code !== 'too_large' || !Array.isArray(cases) || cases.length < 2 || 'run_summary' in set) throw e;
    const half = Math.ceil(cases.length / 2);
    const head = readInParts({ ...set, eval_case_results: cases.slice(0, half) }, read);
    let tail;
    try {
      tail = readInParts({ ...set, eval_case_results: cases.slice(half) }, read);
    } catch (err) {
      const at = err instanceof EvalError ? /^\$\.eval_case_results\[(\d+)\]/.exec(err.path) : null;
      if (at === null) throw err;
      throw new EvalError(err.code, `$.eval_case_results[${Number(at[1]) + half}]${err.path.slice(at[0].length)}`, err.message, { cause: err });
    }
    return { ...head, eval_case_results: head.eval_case_results.concat(tail.eval_case_results) };
  }
}

/** A result object (or text, or bytes) in the core's model; any text it holds can be shown. */
const load = (v) => (isObject(v) ? readInParts(v, (part) => loadEvalSetResult(stringifyWellFormed(part, 'results', true))) : loadEvalSetResult(v ?? null));

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

export function counts(cases) {
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
export function failureLines(result) {
  const lines = [];
  if (isObject(result.error)) lines.push(`agent error (${result.error.code ?? 'error'}): ${result.error.message ?? ''}`);
  const metrics = (result.overall_eval_metric_results ?? []).filter(decisive);
  const order = { FAILED: 0, NOT_EVALUATED: 1 };
  metrics.sort((a, b) => (order[a.eval_status] ?? 2) - (order[b.eval_status] ?? 2));
  for (const m of metrics) {
    const reason = m.eval_status === 'NOT_EVALUATED' && m.details?.error ? ` — ${m.details.error}` : '';
    lines.push(`${metricLine(m)}${reason}`);
  }
  for (const u of Array.isArray(result.not_evaluated_invocations) ? result.not_evaluated_invocations : []) {
    if (typeof u?.metric_name !== 'string' || !Number.isSafeInteger(u.invocation_index)) continue;
    lines.push(`${u.metric_name}: NOT_EVALUATED on invocation ${u.invocation_index + 1} (${u.reason || 'unknown'})${typeof u.error === 'string' ? ` — ${u.error}` : ''}`);
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
