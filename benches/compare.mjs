// Prints the benchmark table: evalcore vs google-adk 2.13 (and js-rouge), ratios against the
// project's targets, and whether the scores agree.
//
//   node benches/compare.mjs ADK.json EVALCORE.json
// Exits 0 whatever the ratios are (a benchmark reports, it does not gate), 1 if scores disagree.
import { readFileSync } from 'node:fs';

const [adkFile, ecFile] = process.argv.slice(2);
if (!adkFile || !ecFile) {
  console.error('usage: node benches/compare.mjs ADK.json EVALCORE.json');
  process.exit(2);
}
const adk = JSON.parse(readFileSync(adkFile, 'utf8'));
const ec = JSON.parse(readFileSync(ecFile, 'utf8'));
// Best of N runs on both sides: this 2-core VM's speed drifts by tens of percent between runs
// (seen natively too), and the fastest run is the one least disturbed by it.
const med = (t) => (t ? t.min : null);
const sum = (...ts) => (ts.every(Boolean) ? ts.reduce((a, t) => a + t.median, 0) : null);

const fmtTime = (s) => {
  if (s === null || s === undefined) return 'n/a';
  if (s >= 1) return `${s.toFixed(2)} s`;
  if (s >= 1e-3) return `${(s * 1e3).toFixed(1)} ms`;
  return `${(s * 1e6).toFixed(0)} µs`;
};
const fmtRatio = (r) => (r === null || !Number.isFinite(r) ? 'n/a' : r >= 100 ? `${r.toFixed(0)}x` : `${r.toFixed(1)}x`);

// [label, ADK seconds, evalcore seconds, minimum speed-up or null for information only]
const speed = [
  ['response_match_score (prepared case, metric alone, case-level result)', med(adk.times.rouge), med(ec.times.rouge), 200],
  ['  same + the 4 always-on efficiency metrics', med(adk.times.rouge), med(ec.times.rouge_with_efficiency), null],
  ['  same + efficiency + per-invocation results', med(adk.times.rouge), med(ec.times.rouge_per_invocation), null],
  [`  rouge1Batch(), ${ec.n.toLocaleString('en-US')} pairs in one call`, med(adk.times.rouge), med(ec.times.rouge1_batch), null],
  [`  rouge1() per pair, ${ec.n.toLocaleString('en-US')} calls`, med(adk.times.rouge), med(ec.times.rouge1_pairs), null],
  ['tool_trajectory_avg_score EXACT (metric alone, case-level result)', med(adk.times.traj_exact), med(ec.times.traj_exact), 20],
  ['tool_trajectory_avg_score IN_ORDER', med(adk.times.traj_in_order), med(ec.times.traj_in_order), 20],
  ['tool_trajectory_avg_score ANY_ORDER', med(adk.times.traj_any_order), med(ec.times.traj_any_order), 20],
  ['  EXACT, first run of a prepared case (interns its tool calls)', med(adk.times.traj_exact), med(ec.times.traj_exact_first), null],
  ['  EXACT + the 4 always-on efficiency metrics', med(adk.times.traj_exact), med(ec.times.traj_exact_with_efficiency), null],
  // ADK's evaluate_invocations returns per-invocation results that hold its invocation objects.
  ['EXACT with per-invocation results and their invocations (as ADK returns them)', med(adk.times.traj_exact), med(ec.times.traj_exact_rows_plain), 50],
  ['  same + evalcore\'s mismatch explanations (details.trajectory, the default)', med(adk.times.traj_exact), med(ec.times.traj_exact_rows), null],
  ['  EXACT + efficiency + per-invocation results (no invocations)', med(adk.times.traj_exact), med(ec.times.traj_exact_per_invocation), null],
  ['parse + validate eval set (validateEvalSet, the file as bytes)', med(adk.times.parse_evalset), med(ec.times.validate_evalset_bytes), 50],
  ['  same from a JS string (plus the UTF-16 -> UTF-8 copy)', med(adk.times.parse_evalset), med(ec.times.validate_evalset), null],
  ['  loadEvalSet (parse + normalise + return)', med(adk.times.parse_evalset), med(ec.times.load_evalset), null],
  ['prepareCase: parse case + actual (steady)', sum(adk.times.parse_evalset, adk.times.parse_actual), med(ec.times.prepare_case), null],
  ['  first call in a fresh process', sum(adk.times.parse_evalset, adk.times.parse_actual), ec.times.prepare_case?.first ?? null, null],
  ['end to end, default criteria (JSON text in, no invocations out)',
    sum(adk.times.parse_evalset, adk.times.parse_actual, adk.times.rouge, adk.times.traj_exact),
    med(ec.times.e2e_text_no_invocations), null],
  ['end to end, default criteria (objects in, full result out)',
    sum(adk.times.parse_evalset, adk.times.parse_actual, adk.times.rouge, adk.times.traj_exact),
    med(ec.times.e2e_objects_full_result), 100],
];

const rows = [['measurement', 'google-adk 2.13', 'evalcore', 'ratio', 'target', '']];
for (const [label, a, e, target] of speed) {
  const ratio = a !== null && e ? a / e : null;
  const verdict = target === null ? '' : ratio !== null && ratio >= target ? 'ok' : 'MISS';
  rows.push([label, fmtTime(a), fmtTime(e), fmtRatio(ratio), target === null ? '(info)' : `>= ${target}x`, verdict]);
}
// Per word: what each implementation spends on one word of ROUGE input, and the JS floor of
// lower-casing, splitting and counting it (no stemming, no Unicode tables).
if (ec.words) {
  const perWord = (t) => (t ? `${((t / ec.words) * 1e9).toFixed(0)} ns/word` : 'n/a');
  rows.push([`  per word (${ec.words.toLocaleString('en-US')} words)`, perWord(med(adk.times.rouge)), perWord(med(ec.times.rouge)), '', '(info)', '']);
  rows.push(['  floor: lower-case + split + count in JS (no stemming)', '', perWord(med(ec.times.tokenize_and_count)),
    fmtRatio(med(ec.times.tokenize_and_count) && med(ec.times.rouge) ? med(ec.times.tokenize_and_count) / med(ec.times.rouge) : null), '(info)', '']);
}
if (ec.n_differing) {
  const a = med(adk.times.rouge_differing);
  const e = med(ec.times.rouge_differing);
  rows.push([`  only the ${ec.n_differing.toLocaleString('en-US')} pairs whose texts differ (identical ones skip the count)`,
    fmtTime(a), fmtTime(e), fmtRatio(a && e ? a / e : null), '(info)', '']);
  const perWord = (t) => (t ? `${((t / ec.words_differing) * 1e9).toFixed(0)} ns/word` : 'n/a');
  rows.push([`  per word of those pairs (${ec.words_differing.toLocaleString('en-US')} words)`, perWord(a), perWord(e), '', '(info)', '']);
}
const js = med(ec.times.js_rouge_pairs);
rows.push(['js-rouge ROUGE-1 on the same pairs (vs rouge1())', `js-rouge ${fmtTime(js)}`, fmtTime(med(ec.times.rouge1_pairs)),
  fmtRatio(js && med(ec.times.rouge1_pairs) ? js / med(ec.times.rouge1_pairs) : null), '(info)', '']);
const gz = ec.size.wasm_gzip9_bytes;
rows.push(['.wasm size, gzip -9', '', `${(gz / 1024).toFixed(1)} KiB (raw ${(ec.size.wasm_bytes / 1024).toFixed(0)} KiB)`,
  '', '<= 350 KiB', gz <= 350 * 1024 ? 'ok' : 'MISS']);
// Cold start is a latency a user meets once per process: the median of the launches, not the best.
const cold = ec.times.import_to_first_score.median;
rows.push(['cold start: import to first score (fresh node)', adk.times.cold_import ? `import ${fmtTime(med(adk.times.cold_import))}` : '',
  fmtTime(cold), adk.times.cold_import ? fmtRatio(med(adk.times.cold_import) / cold) : '', '<= 30 ms', cold <= 0.030 ? 'ok' : 'MISS']);
rows.push(['  process start to first score (incl. node boot)', '', fmtTime(ec.times.process_start_to_first_score.median), '', '(info)', '']);

const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
const line = (r) => `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
console.log(`N = ${ec.n} invocations; google-adk ${adk.version} on Python ${adk.python}; evalcore ${ec.version} on Node ${ec.node}`);
console.log(`times are the best of N runs (ADK of ${adk.times.rouge?.runs ?? adk.times.traj_exact.runs} runs, evalcore of ${ec.times.rouge.runs}); ratio = ADK / evalcore\n`);
console.log(line(rows[0]));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows.slice(1)) console.log(line(r));

// Scores: the same data must give the same floats.
const agree = [
  ['response_match_score', adk.scores.rouge, ec.scores.rouge],
  ['  rouge1() mean', adk.scores.rouge, ec.scores.rouge1_mean],
  ['  rouge1Batch() mean', adk.scores.rouge, ec.scores.rouge1_batch_mean],
  ['  end to end', adk.scores.rouge, ec.scores.e2e_rouge],
  ['  the pairs whose texts differ', adk.scores.rouge_differing, ec.scores.rouge_differing],
  ['tool_trajectory_avg_score EXACT', adk.scores.traj_exact, ec.scores.traj_exact],
  ['tool_trajectory_avg_score IN_ORDER', adk.scores.traj_in_order, ec.scores.traj_in_order],
  ['tool_trajectory_avg_score ANY_ORDER', adk.scores.traj_any_order, ec.scores.traj_any_order],
];
console.log('\nscores (must be equal floats)');
let bad = 0;
for (const [label, a, e] of agree) {
  const same = a === e || (a === undefined && e !== undefined);
  if (a !== undefined && a !== e) bad++;
  console.log(`  ${label.padEnd(38)} adk ${String(a).padEnd(20)} evalcore ${String(e).padEnd(20)} ${a === undefined ? '(adk not run)' : same ? 'equal' : 'DIFFERENT'}`);
}
console.log(`  js-rouge mean (no stemming, for reference): ${ec.scores.js_rouge_mean}`);
process.exit(bad ? 1 : 0);
