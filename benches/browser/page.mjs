// The benchmark page's workloads (benches/browser/run.mjs serves it and drives Chromium): the
// same calls as benches/evalcore_bench.mjs makes in Node, on the same files, through the
// package's browser entry. Best of `runs` per workload, in seconds; the result goes to
// `window.benchResult` (or `window.benchError`).
import * as ec from '/pkg/web.js';

async function best(runs, fn) {
  let min = Infinity;
  let value;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    value = await fn();
    min = Math.min(min, (performance.now() - t0) / 1000);
  }
  return [min, value];
}

async function main() {
  const params = new URLSearchParams(location.search);
  const runs = Number(params.get('runs') ?? 7);
  await ec.init();
  const [evalsetBytes, actualText] = await Promise.all([
    fetch('/data/evalset.json').then((r) => r.arrayBuffer()).then((b) => new Uint8Array(b)),
    fetch('/data/actual.json').then((r) => r.text()),
  ]);
  const evalsetText = new TextDecoder().decode(evalsetBytes);
  const evalCase = JSON.parse(evalsetText).eval_cases[0];
  const actual = JSON.parse(actualText);
  const caseText = JSON.stringify(evalCase);
  const times = {};
  const scores = {};
  const prepared = ec.prepareCase({ evalCase: caseText, actual: actualText, evalSetId: 'bench' });
  const rouge = { criteria: { response_match_score: 0.8 } };
  const exact = { criteria: { tool_trajectory_avg_score: { threshold: 1.0, match_type: 'EXACT' } } };
  const alone = { perInvocation: false, efficiencyMetrics: false };
  let r;
  [times.rouge, r] = await best(runs, () => prepared.evaluate(rouge, alone));
  scores.rouge = r.overall_eval_metric_results[0].score;
  prepared.evaluate(exact, alone);
  [times.traj_exact, r] = await best(runs, () => prepared.evaluate(exact, alone));
  scores.traj_exact = r.overall_eval_metric_results[0].score;
  prepared.evaluate(exact, { efficiencyMetrics: false });
  [times.traj_exact_rows_plain] = await best(runs, () => prepared.evaluate(exact, { efficiencyMetrics: false, explain: false }));
  prepared.free();
  // The pairs whose final response texts differ, as benches/evalcore_bench.mjs picks them.
  const texts = (c) => (c?.parts ?? []).map((p) => p.text).filter((t) => t).join('\n');
  const differing = evalCase.conversation.filter((e, i) => texts(actual[i].final_response) !== texts(e.final_response));
  const differingActual = actual.filter((a, i) => texts(a.final_response) !== texts(evalCase.conversation[i].final_response));
  const sub = ec.prepareCase({ evalCase: JSON.stringify({ ...evalCase, conversation: differing }), actual: JSON.stringify(differingActual), evalSetId: 'bench' });
  [times.rouge_differing, r] = await best(runs, () => sub.evaluate(rouge, alone));
  scores.rouge_differing = r.overall_eval_metric_results[0].score;
  sub.free();
  [times.validate_evalset_bytes] = await best(runs, () => ec.validateEvalSet(evalsetBytes));
  [times.prepare_case] = await best(Math.min(runs, 3), () => ec.prepareCase({ evalCase: caseText, actual: actualText, evalSetId: 'bench' }).free());
  [times.e2e_objects_full_result, r] = await best(Math.min(runs, 3), () => ec.evaluateInvocations({ evalCase, actual, evalSetId: 'bench' }));
  scores.e2e_rouge = r.overall_eval_metric_results.find((m) => m.metric_name === 'response_match_score').score;
  window.benchResult = { userAgent: navigator.userAgent, n: actual.length, times, scores };
}

main().catch((e) => { window.benchError = String(e?.stack ?? e); });
