// Checking an evalcore verdict against a judge_oracles.jsonl line (shared/judge_oracles.md,
// "Semantics that matter when comparing"): final status, then every expected metric's status
// and score overall and per invocation (scores as doubles, exact; null vs null), then the call
// accounting of the server the line was served from.

const fmt = (v) => (v === undefined ? 'undefined' : Object.is(v, -0) ? '-0.0' : JSON.stringify(v));

function compareMetrics(expList, gotList, where, out) {
  if (!Array.isArray(gotList)) {
    out.push(`${where}: expected a list of ${expList.length} metric results, got ${fmt(gotList)}`);
    return;
  }
  const names = (l) => l.map((m) => m?.metric_name).join(', ');
  if (gotList.length !== expList.length) {
    out.push(`${where}: expected ${expList.length} metrics [${names(expList)}], got ${gotList.length} [${names(gotList)}]`);
  }
  for (let i = 0; i < Math.min(expList.length, gotList.length); i++) {
    const exp = expList[i];
    const got = gotList[i];
    if (got?.metric_name !== exp.metric_name) {
      out.push(`${where}[${i}].metric_name: expected ${exp.metric_name}, got ${fmt(got?.metric_name)}`);
      continue;
    }
    if (got.eval_status !== exp.eval_status) {
      const why = got.details?.reason ?? got.details?.error;
      out.push(`${where}(${exp.metric_name}).eval_status: expected ${exp.eval_status}, got ${fmt(got.eval_status)}${why ? ` (${typeof why === 'string' ? why : JSON.stringify(why)})` : ''}`);
    }
    // Scores are parsed from the shortest round-trip repr ADK wrote: compare as doubles, exactly.
    const want = exp.score ?? null;
    const have = got.score === undefined ? undefined : got.score;
    if (!(want === null ? have === null : typeof have === 'number' && Object.is(have, want))) {
      out.push(`${where}(${exp.metric_name}).score: expected ${fmt(want)}, got ${fmt(have)}`);
    }
  }
}

/** Differences between a line's `expected_result` and an EvalCaseResult (empty when equal). */
export function compareJudgeResult(expected, got) {
  const out = [];
  if (got?.final_eval_status !== expected.final_eval_status) {
    out.push(`final_eval_status: expected ${expected.final_eval_status}, got ${fmt(got?.final_eval_status)}`);
  }
  compareMetrics(expected.overall, got?.overall_eval_metric_results, 'overall', out);
  const per = got?.eval_metric_result_per_invocation;
  if (!Array.isArray(per) || per.length !== expected.per_invocation.length) {
    out.push(`per_invocation: expected ${expected.per_invocation.length} invocations, got ${Array.isArray(per) ? per.length : fmt(per)}`);
  } else {
    expected.per_invocation.forEach((list, i) => compareMetrics(list, per[i]?.eval_metric_results, `per_invocation[${i}]`, out));
  }
  return out;
}

/** Rejects after `ms` so a hung judge call fails one line instead of the whole file. */
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Loads `row` into `server`, runs `ec.evaluateInvocations` with `judge` (baseUrl filled in),
 * and returns `{ diffs, result, report }`: the verdict's differences followed by the
 * accounting's problems (an unroutable request, a key asked more often than ADK asked, an
 * answer never asked for).
 */
export async function checkRow(ec, server, row, judge = { provider: 'openai', model: 'm' }, { timeoutMs = 120_000 } = {}) {
  server.load(row);
  let result;
  const diffs = [];
  try {
    result = await withTimeout(ec.evaluateInvocations({
      evalCase: row.eval_case,
      actual: row.actual_invocations,
      config: row.config,
      judge: { ...judge, baseUrl: server.baseUrl },
    }), timeoutMs, row.id);
  } catch (e) {
    diffs.push(`evaluateInvocations threw: ${e?.code ? `${e.code}: ` : ''}${e?.message ?? e}`);
  }
  if (result !== undefined) diffs.push(...compareJudgeResult(row.expected_result, result));
  const report = server.report();
  diffs.push(...report.problems.map((p) => `calls: ${p}`));
  return { diffs, result, report };
}
