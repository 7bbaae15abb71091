// Compares evalcore (the built pkg/) with google-adk 2.13's answers on the same lines.
//   node compare.mjs eval  LINES ADK_ANSWERS   -> statuses, thresholds and scores of every metric
//   node compare.mjs parse LINES ADK_ANSWERS   -> accept/reject of the eval case and the invocations
import { readFileSync } from 'node:fs';
import * as ec from '../../pkg/index.js';

const [mode, linesFile, adkFile] = process.argv.slice(2);
const read = (f) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const lines = read(linesFile);
const adk = read(adkFile);
const accepts = (f) => { try { f(); return true; } catch { return false; } };

let bad = 0;
for (let i = 0; i < lines.length; i++) {
  const l = lines[i];
  const a = adk[i];
  let same;
  let got;
  if (mode === 'parse') {
    got = [
      accepts(() => ec.loadEvalSet({ eval_set_id: 's', eval_cases: [l.eval_case] })),
      accepts(() => ec.loadEvalSet({ eval_set_id: 's', eval_cases: [{ eval_id: 'x', conversation: l.actual }] })),
    ];
    same = got[0] === a[0] && got[1] === a[1];
  } else {
    try {
      const r = await ec.evaluateInvocations({ evalCase: l.eval_case, actual: l.actual, config: l.config });
      got = { final: r.final_eval_status, overall: r.overall_eval_metric_results.map((m) => [m.metric_name, m.threshold, m.score, m.eval_status]) };
    } catch (e) {
      got = { error: `${e.code}: ${e.message}` };
    }
    same = a.error ? 'error' in got : !('error' in got) && a.final === got.final && JSON.stringify(a.overall) === JSON.stringify(got.overall);
  }
  if (!same) {
    bad++;
    if (bad <= 10) console.log(`line ${i + 1}: adk ${JSON.stringify(a).slice(0, 300)}\n        evalcore ${JSON.stringify(got).slice(0, 300)}`);
  }
}
console.log(`${mode}: ${lines.length - bad}/${lines.length} agree with google-adk 2.13`);
process.exit(bad === 0 ? 0 : 1);
