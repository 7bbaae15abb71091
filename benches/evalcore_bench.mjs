// Times evalcore (the built package in pkg/) on the data gen_data.py wrote; prints JSON.
//
//   node benches/evalcore_bench.mjs [--data benches/.data] [--runs 5] [--launches 11]
//
// Every measurement is min / median of --runs (and the first run alone), in seconds, on the same
// text and pairs that adk_bench.py uses; the process is fresh, so the first big call also pays
// for growing the wasm memory. js-rouge (npm, benches/node_modules) is timed on the same ROUGE-1 pairs.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const opt = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : dflt;
};
const dataDir = path.resolve(opt('data', path.join(here, '.data')));
const runs = Number(opt('runs', 5));
const launches = Number(opt('launches', 11));
const pkgEntry = path.join(root, 'pkg', 'index.js');
const wasmFile = path.join(root, 'pkg', 'wasm', 'evalcore_core_bg.wasm');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function timed(fn) {
  const times = [];
  let value;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    value = await fn();
    times.push((performance.now() - t0) / 1000);
  }
  return [{ min: Math.min(...times), median: median(times), first: times[0], runs }, value];
}

const texts = (content) => (content?.parts ?? []).map((p) => p.text).filter((t) => t).join('\n');
const score = (result, name) => result.overall_eval_metric_results.find((m) => m.metric_name === name)?.score ?? null;

// Cold start: a fresh node process imports the package and computes one score.
function coldStart() {
  const code = `
    const t0 = performance.now();
    const m = await import(${JSON.stringify(pathToFileURL(pkgEntry).href)});
    m.rouge1('the cat sat', 'the cat sat down');
    const t1 = performance.now();
    console.log(JSON.stringify({ importToScore: t1 - t0, processToScore: t1 }));`;
  const samples = [];
  for (let i = 0; i < launches; i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    samples.push(JSON.parse(out));
  }
  const pick = (k) => samples.map((s) => s[k] / 1000);
  return {
    import_to_first_score: { min: Math.min(...pick('importToScore')), median: median(pick('importToScore')), runs: launches },
    process_start_to_first_score: { min: Math.min(...pick('processToScore')), median: median(pick('processToScore')), runs: launches },
  };
}

async function main() {
  const evalsetText = readFileSync(path.join(dataDir, 'evalset.json'), 'utf8');
  const actualText = readFileSync(path.join(dataDir, 'actual.json'), 'utf8');
  const evalSetObj = JSON.parse(evalsetText);
  const evalCase = evalSetObj.eval_cases[0];
  const actual = JSON.parse(actualText);
  const expected = evalCase.conversation;
  const pairs = expected.map((e, i) => [texts(actual[i].final_response), texts(e.final_response)]);
  const caseText = JSON.stringify(evalCase);

  const ec = await import(pathToFileURL(pkgEntry).href);
  const { n: jsRougeN } = await import('js-rouge');
  const out = { implementation: 'evalcore', version: ec.coreVersion(), node: process.version, n: expected.length, times: {}, scores: {} };
  // Words ROUGE reads (both sides, split on whitespace), for the per-word cost.
  out.words = pairs.reduce((n, [a, b]) => n + a.split(/\s+/).filter(Boolean).length + b.split(/\s+/).filter(Boolean).length, 0);
  // The floor of any ROUGE-1: lower-case, split into words, count them per side (no stemming,
  // no Unicode rules). What a word costs at the least in JS, for comparison.
  [out.times.tokenize_and_count] = await timed(() => {
    let total = 0;
    for (const [a, b] of pairs) {
      for (const side of [a, b]) {
        const counts = new Map();
        for (const w of side.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (w) counts.set(w, (counts.get(w) ?? 0) + 1);
        total += counts.size;
      }
    }
    return total;
  });

  // ROUGE-1 alone, through the public rouge1(): one boundary crossing per pair.
  [out.times.rouge1_pairs] = await timed(() => {
    let sum = 0;
    for (const [c, r] of pairs) sum += ec.rouge1(c, r).fmeasure;
    return sum;
  });
  let sum = 0;
  for (const [c, r] of pairs) sum += ec.rouge1(c, r).fmeasure;
  out.scores.rouge1_mean = sum / pairs.length;

  // ROUGE-1 alone, all pairs in one call across the boundary.
  let batch;
  [out.times.rouge1_batch, batch] = await timed(() => ec.rouge1Batch(pairs));
  out.scores.rouge1_batch_mean = batch.fmeasure.reduce((a, b) => a + b, 0) / pairs.length;

  // The case parsed once, then scored per metric: case-level results only, as ADK's evaluator
  // timing covers the metric computation and not the writing of per-invocation results.
  let prepared;
  [out.times.prepare_case] = await timed(() => {
    prepared?.free();
    prepared = ec.prepareCase({ evalCase: caseText, actual: actualText, evalSetId: 'bench' });
  });
  const configs = {
    rouge: { criteria: { response_match_score: 0.8 } },
    traj_exact: { criteria: { tool_trajectory_avg_score: { threshold: 1.0, match_type: 'EXACT' } } },
    traj_in_order: { criteria: { tool_trajectory_avg_score: { threshold: 1.0, match_type: 'IN_ORDER' } } },
    traj_any_order: { criteria: { tool_trajectory_avg_score: { threshold: 1.0, match_type: 'ANY_ORDER' } } },
  };
  // The first trajectory run of a prepared case also interns its tool calls (later runs reuse them).
  {
    const fresh = ec.prepareCase({ evalCase: caseText, actual: actualText, evalSetId: 'bench' });
    const t0 = performance.now();
    fresh.evaluate(configs.traj_exact, { perInvocation: false, efficiencyMetrics: false });
    out.times.traj_exact_first = { runs: 1, median: (performance.now() - t0) / 1000, min: (performance.now() - t0) / 1000 };
    fresh.free();
  }
  for (const [key, config] of Object.entries(configs)) {
    const metric = key === 'rouge' ? 'response_match_score' : 'tool_trajectory_avg_score';
    // ADK's figure times the metric's evaluator alone: leave out the always-on efficiency metrics.
    const [t, result] = await timed(() => prepared.evaluate(config, { perInvocation: false, efficiencyMetrics: false }));
    out.times[key] = t;
    out.scores[key] = score(result, metric);
    [out.times[`${key}_per_invocation`]] = await timed(() => prepared.evaluate(config, { includeInvocations: false }));
    [out.times[`${key}_with_efficiency`]] = await timed(() => prepared.evaluate(config, { perInvocation: false }));
  }
  // Trajectory alone with per-invocation results echoing their invocations, as ADK's evaluator
  // returns them (a prepared case's results refer to the invocations its first run carried),
  // without and with evalcore's mismatch explanations.
  prepared.evaluate(configs.traj_exact, { efficiencyMetrics: false });
  [out.times.traj_exact_rows_plain] = await timed(() => prepared.evaluate(configs.traj_exact, { efficiencyMetrics: false, explain: false }));
  [out.times.traj_exact_rows] = await timed(() => prepared.evaluate(configs.traj_exact, { efficiencyMetrics: false }));
  prepared.free();

  // ROUGE on the pairs whose final response texts differ: identical texts are scored without
  // counting their tokens, so this is the whole per-word work, beside ADK on the same pairs.
  {
    const differing = expected.flatMap((e, i) => (texts(actual[i].final_response) !== texts(e.final_response) ? [i] : []));
    out.n_differing = differing.length;
    out.words_differing = differing.reduce((n, i) => n + pairs[i].join(' ').split(/\s+/).filter(Boolean).length, 0);
    const sub = ec.prepareCase({
      evalCase: JSON.stringify({ ...evalCase, conversation: differing.map((i) => expected[i]) }),
      actual: JSON.stringify(differing.map((i) => actual[i])),
      evalSetId: 'bench',
    });
    let result;
    [out.times.rouge_differing, result] = await timed(() => sub.evaluate(configs.rouge, { perInvocation: false, efficiencyMetrics: false }));
    out.scores.rouge_differing = score(result, 'response_match_score');
    sub.free();
  }

  // End to end: evaluateInvocations under ADK's default criteria (trajectory 1.0 + ROUGE 0.8).
  [out.times.e2e_text_no_invocations, ] = await timed(() =>
    ec.evaluateInvocations({ evalCase: caseText, actual: actualText, evalSetId: 'bench', includeInvocations: false }));
  let full;
  [out.times.e2e_objects_full_result, full] = await timed(() =>
    ec.evaluateInvocations({ evalCase, actual, evalSetId: 'bench' }));
  out.scores.e2e_final_eval_status = full.final_eval_status;
  out.scores.e2e_rouge = score(full, 'response_match_score');
  out.scores.e2e_traj_exact = score(full, 'tool_trajectory_avg_score');

  // Parse + validate the eval set text (ADK: EvalSet.model_validate_json on the same text).
  let report;
  [out.times.validate_evalset, report] = await timed(() => ec.validateEvalSet(evalsetText));
  out.scores.validate_ok = report.ok;
  [out.times.load_evalset] = await timed(() => ec.loadEvalSet(evalsetText));
  // The same from the file's bytes, as fs.readFileSync(path) gives them (no UTF-16 round trip).
  const evalsetBytes = readFileSync(path.join(dataDir, 'evalset.json'));
  [out.times.validate_evalset_bytes] = await timed(() => ec.validateEvalSet(evalsetBytes));

  // js-rouge ROUGE-1 F on the same pairs (its own tokenizer, no stemming: a speed reference only).
  [out.times.js_rouge_pairs] = await timed(() => {
    let s = 0;
    for (const [c, r] of pairs) s += jsRougeN(c, r, { n: 1, caseSensitive: false });
    return s;
  });
  let js = 0;
  for (const [c, r] of pairs) js += jsRougeN(c, r, { n: 1, caseSensitive: false });
  out.scores.js_rouge_mean = js / pairs.length;

  Object.assign(out.times, coldStart());
  const wasm = readFileSync(wasmFile);
  out.size = { wasm_bytes: statSync(wasmFile).size, wasm_gzip9_bytes: gzipSync(wasm, { level: 9 }).length };
  console.log(JSON.stringify(out, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
