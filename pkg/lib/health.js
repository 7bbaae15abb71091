// What a run could not do, read from results in the core's model (what `evaluate` returns and
// `loadEvalSetResult` reads): metrics that came back NOT_EVALUATED, with their reasons, the
// invocations a metric could not evaluate in a case it scored on the others (the core lists
// them in `not_evaluated_invocations`), and cases whose conversation could not be completed.
// ADK's status rule lets all three pass silently (a NOT_EVALUATED metric does not fail its case,
// an unjudged turn leaves the mean of the others); every surface reports them from here.


const TOO_MANY = 5;

/** The case results of one EvalSetResult, a list of them, or a list of case results. */
function casesOf(results) {
  const list = Array.isArray(results) ? results : [results];
  return list.flatMap((x) => (x && Array.isArray(x.eval_case_results) ? x.eval_case_results : [x])).filter(Boolean);
}

const label = (r) => (Number.isInteger(r.run) && r.run > 0 ? `${r.eval_id} (run ${r.run + 1})` : r.eval_id);

/** The invocations the core listed as not evaluated in a case its metric scored (well-formed entries only). */
const unevaluatedOf = (r) => (Array.isArray(r.not_evaluated_invocations) ? r.not_evaluated_invocations : [])
  .filter((u) => u !== null && typeof u === 'object' && typeof u.metric_name === 'string' && Number.isSafeInteger(u.invocation_index));

/**
 * Informational (efficiency) figures a case could not give, and why (the core's `details.reason`
 * on an INFORMATIONAL result: no usage reported, no model/tool timings, ...), grouped by metric
 * and reason: `{ metric, reason, count, example }`. They fail nothing; they say why a figure is
 * `n/a` or partial instead of leaving it silent.
 */
function unreportedOf(cases) {
  const groups = new Map();
  for (const r of cases) {
    for (const m of r.overall_eval_metric_results ?? []) {
      if (m.eval_status !== 'INFORMATIONAL' || typeof m.details?.reason !== 'string') continue;
      const key = `${m.metric_name}\u0000${m.details.reason}`;
      const g = groups.get(key) ?? { metric: m.metric_name, reason: m.details.reason, count: 0, example: m.details.error ?? null };
      g.count++;
      groups.set(key, g);
    }
  }
  return [...groups.values()];
}

/**
 * `{ count, evaluated, agentErrors, byReason, items, caseErrors, unreported, unreportedLines, lines,
 * summary }`: `unreported` lists the efficiency figures the agent did not report (see
 * `unreportedOf`), `unreportedLines` says them (not part of `lines`: they are informational);
 * `items` has one entry
 * per NOT_EVALUATED case-level metric result and one per invocation a metric left NOT_EVALUATED
 * in a case it scored (`{ evalId, run, metric, invocation, of, reason, error }`: `invocation` is
 * the 0-based index, null for a case-level result; `of` the case's invocations when known),
 * `byReason` groups them (`{ reason, count, metrics, example }`, most frequent first),
 * `caseErrors` lists the cases the agent or the simulated user could not complete, and `lines`
 * says all of it in a few lines of text (empty when there is nothing to say); `summary` says the
 * NOT_EVALUATED part on one line. The lines hold the data as it is: what prints them to a
 * console a CI runner reads writes each through `textLine` (workflow.js).
 */
export function runHealth(results) {
  const items = [];
  const caseErrors = [];
  let evaluated = 0;
  for (const r of casesOf(results)) {
    if (r.error) caseErrors.push({ evalId: r.eval_id, run: r.run ?? 0, label: label(r), ...r.error });
    for (const m of r.overall_eval_metric_results ?? []) {
      if (m.eval_status !== 'NOT_EVALUATED') {
        if (m.eval_status !== 'INFORMATIONAL') evaluated++;
        continue;
      }
      items.push({
        evalId: r.eval_id, run: r.run ?? 0, label: label(r), metric: m.metric_name, invocation: null, of: null,
        reason: m.details?.reason ?? 'unknown', error: m.details?.error ?? null,
      });
    }
    const of = Array.isArray(r.eval_metric_result_per_invocation) && r.eval_metric_result_per_invocation.length > 0
      ? r.eval_metric_result_per_invocation.length : null;
    for (const u of unevaluatedOf(r)) {
      items.push({
        evalId: r.eval_id, run: r.run ?? 0, label: label(r), metric: u.metric_name, invocation: u.invocation_index, of,
        reason: typeof u.reason === 'string' && u.reason !== '' ? u.reason : 'unknown', error: typeof u.error === 'string' ? u.error : null,
      });
    }
  }
  // Completion order is not the user's: list by case, then run (then a case's own results
  // before those of its invocations, in turn order).
  const byCase = (a, b) => (a.evalId < b.evalId ? -1 : a.evalId > b.evalId ? 1 : a.run - b.run);
  items.sort((a, b) => byCase(a, b) || (a.invocation ?? -1) - (b.invocation ?? -1));
  caseErrors.sort(byCase);
  const groups = new Map();
  for (const it of items) {
    const g = groups.get(it.reason) ?? { reason: it.reason, count: 0, metrics: [], example: null };
    g.count++;
    if (!g.metrics.includes(it.metric)) g.metrics.push(it.metric);
    g.example ??= it.error;
    groups.set(it.reason, g);
  }
  const byReason = [...groups.values()].sort((a, b) => b.count - a.count);
  const head = `${items.length} metric result${items.length === 1 ? ' was' : 's were'} NOT_EVALUATED${onInvocations(items)}`;
  const lines = [];
  if (items.length > 0) {
    lines.push(`${head} (ADK's rule does not fail a case for it; --strict / strict: true does):`);
    for (const g of byReason) {
      lines.push(`  ${g.reason} x${g.count} (${g.metrics.join(', ')})${g.example ? `: ${g.example}` : ''}`);
    }
  }
  if (caseErrors.length > 0) {
    lines.push(`${caseErrors.length} case run${caseErrors.length === 1 ? '' : 's'} could not be completed:`);
    for (const e of caseErrors.slice(0, TOO_MANY)) lines.push(`  ${e.label}: ${e.code}: ${e.message}`);
    if (caseErrors.length > TOO_MANY) lines.push(`  ... and ${caseErrors.length - TOO_MANY} more`);
  }
  const unreported = unreportedOf(casesOf(results));
  // The model / tool split is a detail of the duration most agents do not time: listed in
  // `unreported`, not said. The rest is said in `unreportedLines`, apart from `lines`: the figures
  // are informational, so a plain run's summary stays quiet about them (the metric's details and
  // a detailed report say why each is n/a).
  const said = unreported.filter((u) => !u.reason.startsWith('model_tool_time_'));
  const unreportedLines = said.length === 0 ? [] : ['Figures the agent did not report (informational; they fail nothing):',
    ...said.map((u) => `  ${u.metric} in ${u.count} case run${u.count === 1 ? '' : 's'}: ${u.reason}${u.example ? `: ${u.example}` : ''}`)];
  if (evaluated === 0 && (items.length > 0 || casesOf(results).length > 0) && caseErrors.length < casesOf(results).length) {
    lines.push('No metric was evaluated: check the config (its metric names, a judge for judged metrics).');
  }
  const summary = items.length === 0 ? ''
    : `${head}: ${byReason.map((g) => `${g.reason} x${g.count} (${g.metrics.join(', ')})${g.example ? `: ${g.example}` : ''}`).join('; ')}`;
  return { count: items.length, evaluated, agentErrors: caseErrors.length, byReason, items, caseErrors, unreported, unreportedLines, lines, summary };
}

/** `, on N invocations of cases scored on their other invocations` when some items are invocations. */
function onInvocations(items) {
  const k = items.filter((it) => it.invocation !== null).length;
  if (k === 0) return '';
  const where = k === 1 ? '1 invocation of a case scored on its other invocations' : `${k} invocations of cases scored on their other invocations`;
  return k === items.length ? `, on ${where}` : `, ${k} of them on ${where}`;
}

const JUDGE_COUNTERS = ['requests', 'sent', 'attempts', 'retries', 'cassette_hits', 'deduplicated', 'answered', 'failures'];
/** A not-sent reason as the core names them; at most this many distinct ones are kept. */
const REASON = /^[a-z][a-z0-9_]{0,63}$/;
const MAX_REASONS = 32;

/** `not_sent` of two counters summed (a reason is a code of the core's; anything else is not added). */
function addNotSent(into, from) {
  const sum = new Map(Object.entries(into ?? {}));
  if (from !== null && typeof from === 'object' && !Array.isArray(from)) {
    for (const [k, v] of Object.entries(from)) {
      if (!REASON.test(k) || !Number.isSafeInteger(v) || v < 0 || (!sum.has(k) && sum.size >= MAX_REASONS)) continue;
      sum.set(k, (sum.get(k) ?? 0) + v);
    }
  }
  // Own data properties (never a prototype's), in the core's order: by name.
  return Object.fromEntries([...sum].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * The judge counters of many scorings summed (`judge_stats`: the calls the metrics asked for,
 * sent, attempts, retries, cassette hits, deduplicated, answered, failures, those not sent by
 * reason; `budget_exhausted` if any was):
 * the recorded run's cases, an endpoint's shard, a sharded run's shards. Counters that are not
 * whole numbers >= 0 (an endpoint that answers wrongly) are not added.
 */
export function addJudgeStats(into, from) {
  const out = into ?? {
    requests: 0, sent: 0, attempts: 0, retries: 0, cassette_hits: 0, deduplicated: 0, answered: 0, failures: 0, not_sent: {}, budget_exhausted: false,
  };
  if (from === null || typeof from !== 'object') return out;
  for (const k of JUDGE_COUNTERS) if (Number.isSafeInteger(from[k]) && from[k] >= 0) out[k] += from[k];
  out.not_sent = addNotSent(out.not_sent, from.not_sent);
  if (from.budget_exhausted === true) out.budget_exhausted = true;
  return out;
}

/**
 * The judge calls of many dry runs listed in one plan (`judge_plan`: `{count, estimatedTokens,
 * calls}`): the recorded run's cases, the calls that completed after a trap. Null when none.
 */
export function addJudgePlans(plans) {
  const calls = plans.flatMap((p) => (p !== null && typeof p === 'object' && Array.isArray(p.calls) ? p.calls : []));
  if (calls.length === 0) return null;
  const estimatedTokens = calls.reduce((n, c) => n + (Number.isFinite(c?.estimatedTokens) ? c.estimatedTokens : 0), 0);
  return { count: calls.length, estimatedTokens, calls };
}

/**
 * The judge counters as one line of text (the CLI prints it on stderr after a judged run): every
 * call asked for, as answered (and from where), failed, or not sent (by reason), then what was
 * sent to the judge.
 */
export function judgeStatsLine(stats) {
  const s = addJudgeStats(null, stats);
  const from = [];
  if (s.cassette_hits > 0) from.push(`${s.cassette_hits} from the cassette`);
  if (s.deduplicated > 0) from.push(`${s.deduplicated} by an identical call of the run`);
  const parts = [`${s.answered} answered${from.length > 0 ? ` (${from.join(', ')})` : ''}`, `${s.failures} failed`];
  const notSent = Object.entries(s.not_sent);
  const unsent = notSent.reduce((n, [, v]) => n + v, 0);
  if (unsent > 0) parts.push(`${unsent} not sent (${notSent.map(([k, v]) => `${k} x${v}`).join(', ')})`);
  return `judge: ${s.requests} call(s) asked for: ${parts.join(', ')}; ${s.sent} sent in ${s.attempts} attempt(s) (${s.retries} retried)`
    + `${s.budget_exhausted ? '; the call budget ran out (later calls NOT_EVALUATED)' : ''}`;
}
