// Runs the shared vectors through whichever evalcore entry it is given and returns every number
// the core produced as exact float bits, so runtimes can be compared bit for bit. Plain ESM with
// no imports: the same file runs in Node, Deno and workerd.

const view = new DataView(new ArrayBuffer(8));

/** Exact bits of a float (distinguishes -0, keeps every ulp); non-numbers as JSON. */
function bits(x) {
  if (typeof x !== 'number') return JSON.stringify(x ?? null);
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, '0');
}

function metricLines(prefix, list, out) {
  for (const m of list ?? []) {
    out.push(`${prefix} ${m.metric_name} ${m.eval_status} score=${bits(m.score)} threshold=${bits(m.threshold)}`);
    const d = m.details ?? {};
    for (const group of ['token_usage_details', 'duration_details']) {
      if (!d[group]) continue;
      for (const key of Object.keys(d[group]).sort()) out.push(`${prefix} ${m.metric_name} ${group}.${key}=${bits(d[group][key])}`);
    }
  }
}

/**
 * The vectors from the two JSONL texts (shared/rouge1_vectors.jsonl, shared/case_oracles.jsonl).
 * Every runtime parses the raw text itself: a JSON round trip on the way would turn the
 * configs' -0.0 thresholds into 0.
 */
export function parseVectors(rougeText, casesText) {
  const jsonl = (text) => text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  return {
    rouge: jsonl(rougeText).map(({ candidate, reference }) => ({ candidate, reference })),
    cases: jsonl(casesText).map(({ id, eval_case, actual_invocations, config }) => ({ id, eval_case, actual_invocations, config })),
  };
}

/**
 * `data` = `{ rouge: [{candidate, reference}], cases: [{id, eval_case, actual_invocations, config}] }`.
 * Returns `{ lines, digest }`: one line per number (rouge1 p/r/f, every metric score, threshold
 * and efficiency detail, final statuses and error codes) and a SHA-256 over them.
 */
export async function runVectors(api, data) {
  const lines = [];
  data.rouge.forEach((v, n) => {
    const r = api.rouge1(v.candidate, v.reference);
    lines.push(`rouge#${n} ${bits(r.precision)} ${bits(r.recall)} ${bits(r.fmeasure)}`);
  });
  for (const c of data.cases) {
    try {
      const r = await api.evaluateInvocations({
        evalCase: c.eval_case, actual: c.actual_invocations, config: c.config, evalSetId: 'case_oracles',
      });
      lines.push(`${c.id} ${r.final_eval_status}`);
      metricLines(`${c.id} overall`, r.overall_eval_metric_results, lines);
      (r.eval_metric_result_per_invocation ?? []).forEach((p, i) => metricLines(`${c.id} inv${i}`, p.eval_metric_results, lines));
    } catch (e) {
      lines.push(`${c.id} error ${e && e.code} ${e && e.path}`);
    }
  }
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(lines.join('\n')));
  const digest = [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return { lines, digest, version: api.coreVersion() };
}
