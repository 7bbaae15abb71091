// compareRuns and calibrate on the built package (evalcore/reports): the numbers of the
// generated scenarios in tests/data/compare (scipy and statsmodels, tools/compare-oracle) through
// every input form, errors with the argument's path, and the renderers of the result.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EvalError } from '../../pkg/index.js';
import {
  calibrate, calibrationText, compareRuns, comparisonAnnotations, comparisonJUnit, comparisonMarkdown, comparisonText,
} from '../../pkg/lib/report/reports_node.js';
import { DATA, ROOT, readJsonl } from './helpers.mjs';
import { elements, HOSTILE, HOSTILE_LINE, htmlText, noRenderer, renderGfm, tables, workflowCommands } from './support/hostile-output.mjs';

const SCENARIOS = readJsonl(join(DATA, 'compare', 'scenarios.jsonl'));
const CALIBRATIONS = readJsonl(join(DATA, 'compare', 'calibration.jsonl'));
const EPS = 2 ** -52;

/** `got` against `want` as tests/compare_stats.rs compares them (numbers within what double precision allows). */
function same(got, want, path = '$', pLike = false) {
  if (typeof want === 'number') {
    assert.equal(typeof got, 'number', `${path}: ${got}`);
    if (got === want) return;
    const ok = pLike
      ? want > 0 && Math.abs(got - want) / want / (EPS * Math.max(1, Math.abs(Math.log(want)))) < 256
      : Math.abs(got - want) <= 1e-13 * Math.max(1, Math.abs(want));
    assert.ok(ok, `${path}: ${got} vs ${want}`);
    return;
  }
  if (Array.isArray(want)) {
    assert.ok(Array.isArray(got) && got.length === want.length, `${path}: ${JSON.stringify(got)?.slice(0, 200)}`);
    want.forEach((w, i) => same(got[i], w, `${path}[${i}]`, pLike));
    return;
  }
  if (want !== null && typeof want === 'object') {
    for (const [k, w] of Object.entries(want)) same(got?.[k], w, `${path}.${k}`, k.startsWith('p_'));
    return;
  }
  assert.deepEqual(got, want, path);
}

test('compareRuns gives the numbers scipy and statsmodels give (every generated scenario)', () => {
  for (const s of SCENARIOS) {
    const got = compareRuns(s.baseline, s.candidate, { alpha: s.alpha });
    same(got, s.expected, s.name);
  }
});

/** A Python with scipy, statsmodels and mpmath: EVALCORE_PYTHON, the oracle's or the benchmarks' venv, or python3. */
function oraclePython() {
  const cands = [process.env.EVALCORE_PYTHON, join(ROOT, 'tools', 'compare-oracle', '.venv', 'bin', 'python'),
    join(ROOT, 'benches', '.venv', 'bin', 'python'), 'python3'].filter(Boolean);
  return cands.find((py) => (py === 'python3' || existsSync(py))
    && spawnSync(py, ['-c', 'import scipy, statsmodels, mpmath'], { stdio: 'ignore' }).status === 0);
}

test('fresh scenarios from a random seed agree with scipy and statsmodels (when a Python has them)', (t) => {
  const py = oraclePython();
  if (!py) {
    t.skip('no Python with scipy, statsmodels and mpmath (tools/compare-oracle/refresh.sh makes one; or set EVALCORE_PYTHON)');
    return;
  }
  const seed = Number(process.env.EVALCORE_ORACLE_SEED ?? Math.floor(Math.random() * 1e6));
  const r = spawnSync(py, [join(ROOT, 'tools', 'compare-oracle', 'oracle.py'), 'scenarios', '--seed', String(seed), '--count', '12'],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.equal(r.status, 0, r.stderr);
  const fresh = r.stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  for (const s of fresh) {
    try {
      same(compareRuns(s.baseline, s.candidate, { alpha: s.alpha }), s.expected, s.name);
    } catch (e) {
      e.message = `seed ${seed} (EVALCORE_ORACLE_SEED=${seed} repeats it): ${e.message}`;
      throw e;
    }
  }
  t.diagnostic(`12 scenarios from seed ${seed} agree (${py})`);
});

test('each side as objects, JSON text, bytes, or one result rather than an array', () => {
  const s = SCENARIOS.find((x) => x.baseline.length === 1 && x.candidate.length === 1 && x.expected.metrics.length > 1);
  const enc = new TextEncoder();
  const asText = (r) => (typeof r === 'string' ? r : JSON.stringify(r));
  const forms = [
    [s.baseline[0], s.candidate[0]],
    [s.baseline.map(asText), s.candidate.map(asText)],
    [enc.encode(asText(s.baseline[0])), [enc.encode(asText(s.candidate[0])).buffer]],
  ];
  for (const [b, c] of forms) same(compareRuns(b, c), s.expected, s.name);
});

test('bad input throws EvalError with the path of the argument it is in', () => {
  const s = SCENARIOS[0];
  const broken = JSON.parse(JSON.stringify(s.candidate));
  const at = broken.findIndex((r) => typeof r === 'object');
  const cases = broken[at].eval_case_results ?? broken[at].evalCaseResults;
  cases[0].final_eval_status = 'MAYBE';
  delete cases[0].finalEvalStatus;
  assert.throws(() => compareRuns(s.baseline, broken), (e) => e instanceof EvalError && e.code === 'schema'
    && e.path.startsWith(`$candidate[${at}].eval_case_results[0]`) && /eval status/.test(e.message));
  assert.throws(() => compareRuns('{"eval_set_id": ', s.candidate), (e) => e.code === 'invalid_json' && e.path === '$baseline');
  assert.throws(() => compareRuns([], s.candidate), (e) => e.code === 'schema' && e.path === '$baseline');
  assert.throws(() => compareRuns(s.baseline, s.candidate, { alpha: 1.5 }), (e) => e.code === 'schema' && e.path === '$options.alpha');
  assert.throws(() => compareRuns(s.baseline, s.candidate, { alfa: 0.1 }), (e) => e.code === 'schema' && /alfa/.test(e.message));
  assert.throws(() => compareRuns(42, s.candidate), (e) => e.code === 'schema' && e.path === '$baseline');
  // The instance is still usable.
  same(compareRuns(s.baseline, s.candidate), s.expected);
});

test('a stricter alpha makes fewer metrics significant, and the verdict follows', () => {
  const s = SCENARIOS.find((x) => x.expected.metrics.some((m) => m.p_adjusted > 1e-4 && m.p_adjusted < 0.05));
  const loose = compareRuns(s.baseline, s.candidate);
  const strict = compareRuns(s.baseline, s.candidate, { alpha: 1e-4 });
  assert.ok(strict.metrics.filter((m) => m.significant).length < loose.metrics.filter((m) => m.significant).length);
  assert.equal(strict.alpha, 1e-4);
});

test('calibrate gives the agreement, Wilson intervals and kappas statsmodels gives', () => {
  for (const s of CALIBRATIONS) {
    const got = calibrate(s.labels, s.results);
    same(got.metrics, s.expected.metrics, `${s.name}.metrics`);
    assert.equal(got.used, s.expected.used, s.name);
    assert.deepEqual(got.skipped.map((x) => x.reason).sort(), s.expected.skipped_reasons, s.name);
    for (const x of got.skipped) assert.match(x.path, /^\$labels\.labels\[\d+\]$/);
  }
  const s = CALIBRATIONS[0];
  const text = calibrate(JSON.stringify(s.labels), s.results.map((r) => JSON.stringify(r)), { kappaThreshold: 0.99, judgeModel: 'openai:gpt-4o' });
  assert.ok(text.metrics.every((g) => g.judge_model === 'openai:gpt-4o'));
  assert.ok(text.metrics.every((g) => g.flagged === (g.kappa === null || g.kappa < 0.99)));
});

test('a labels file with a mistake is refused with its path', () => {
  const s = CALIBRATIONS[0];
  const bad = JSON.parse(JSON.stringify(s.labels));
  bad.labels[2] = { ...bad.labels[2], label: 'agree', judge_verdict: undefined };
  assert.throws(() => calibrate(bad, s.results), (e) => e.code === 'schema' && e.path === '$labels.labels[2].judge_verdict');
  assert.throws(() => calibrate({ ...s.labels, version: 2 }, s.results), (e) => e.code === 'unsupported' && e.path === '$labels.version');
  assert.throws(() => calibrate({ ...s.labels, kind: 'other' }, s.results), (e) => e.code === 'schema' && e.path === '$labels.kind');
  const twice = { ...s.labels, labels: [s.labels.labels[0], { ...s.labels.labels[0] }] };
  assert.throws(() => calibrate(twice, s.results), (e) => e.code === 'duplicate_id' && e.path === '$labels.labels[1]');
  assert.throws(() => calibrate(s.labels, s.results, { kappaThreshold: 2 }), (e) => e.path === '$options.kappaThreshold');
});

test('the renderers say the verdict first and every number the comparison holds', () => {
  const s = SCENARIOS.find((x) => x.expected.verdict === 'regressed' && x.expected.cases.some((c) => c.change === 'regressed'));
  const cmp = compareRuns(s.baseline, s.candidate);
  const md = comparisonMarkdown(cmp);
  assert.match(md.split('\n')[0], /^### ❌ evalcore compare: regressed$/);
  const sig = cmp.metrics.find((m) => m.significant);
  if (sig) assert.ok(md.indexOf(sig.metric_name) < md.indexOf('<details>'), 'significant metrics before the details');
  assert.match(md, /\*\*Regressed cases \(\d+\)\*\*/);
  assert.match(comparisonText(cmp), /^evalcore compare: REGRESSED/);
  const xml = comparisonJUnit(cmp);
  assert.match(xml, /<property name="evalcore.verdict" value="regressed"\/>/);
  assert.match(xml, new RegExp(`<property name="evalcore.pass_fail.b" value="${cmp.pass_fail.b}"/>`));
  assert.ok(xml.includes('type="regressed"'));
  const ann = comparisonAnnotations(cmp);
  assert.match(ann, /^::error title=evalcore%3A /m);
  assert.equal(comparisonAnnotations(cmp, { failOn: 'never' }).includes('::error'), false);
  const cal = calibrate(CALIBRATIONS[0].labels, CALIBRATIONS[0].results);
  assert.match(calibrationText(cal), /^judge calibration: \d+ of \d+ label\(s\) counted/);
  assert.match(calibrationText(cal, { markdown: true }), /^### /);
});

test('10,000 cases x 5 runs a side compare (how fast: benches/compare_runs.mjs)', () => {
  const side = (shift) => Array.from({ length: 5 }, (_, run) => ({
    eval_set_result_id: `s_${run}`, eval_set_id: 's',
    eval_case_results: Array.from({ length: 10_000 }, (__, i) => {
      const score = Math.min(1, Math.max(0, ((i * 7919 + run * 104729) % 1000) / 1000 + shift));
      return { eval_id: `c${i}`, final_eval_status: score >= 0.5 ? 'PASSED' : 'FAILED',
        overall_eval_metric_results: [{ metric_name: 'response_match_score', threshold: 0.5, score, eval_status: score >= 0.5 ? 'PASSED' : 'FAILED' }] };
    }),
  }));
  const cmp = compareRuns(side(0), side(-0.01));
  assert.equal(cmp.cases.length, 10_000);
  assert.equal(cmp.metrics[0].n, 10_000);
  assert.equal(cmp.verdict, 'regressed');
});

test('notes say why a case was not scored; added, removed and a metric named __proto__', () => {
  const m = (score, status, details) => ({ metric_name: '__proto__', threshold: 0.5, score, eval_status: status, ...(details ? { details } : {}) });
  const base = { eval_set_result_id: 'b', eval_set_id: 's', eval_case_results: [
    { eval_id: 'a', final_eval_status: 'PASSED', overall_eval_metric_results: [m(1, 'PASSED')] },
    { eval_id: 'b', final_eval_status: 'PASSED', overall_eval_metric_results: [m(0.9, 'PASSED')] },
    { eval_id: 'gone', final_eval_status: 'PASSED', overall_eval_metric_results: [] }] };
  const cand = { eval_set_result_id: 'c', eval_set_id: 's', eval_case_results: [
    { eval_id: 'a', final_eval_status: 'NOT_EVALUATED', overall_eval_metric_results: [m(0.2, 'NOT_EVALUATED', { reason: 'judge_error', error: 'HTTP 503 from the judge' })] },
    { eval_id: 'b', final_eval_status: 'FAILED', overall_eval_metric_results: [m(0.4, 'FAILED')] },
    { eval_id: 'new', final_eval_status: 'FAILED', error: { code: 'agent_timeout', message: 'turn 1 took longer than 300 s' }, overall_eval_metric_results: [] }] };
  const cmp = compareRuns(base, cand);
  const byId = Object.fromEntries(cmp.cases.map((c) => [c.eval_id, c]));
  assert.deepEqual(cmp.cases.map((c) => [c.eval_id, c.change]), [['a', 'not_comparable'], ['b', 'regressed'], ['gone', 'removed'], ['new', 'added']]);
  assert.deepEqual(byId.a.notes, [{ side: 'candidate', run: 0, metric_name: '__proto__', reason: 'judge_error', error: 'HTTP 503 from the judge' }]);
  assert.deepEqual(byId.new.notes, [{ side: 'candidate', run: 0, metric_name: null, reason: 'agent_timeout', error: 'turn 1 took longer than 300 s' }]);
  assert.ok(Object.hasOwn(byId.b.metrics, '__proto__'));
  assert.equal(byId.b.metrics.__proto__.delta, 0.4 - 0.9);
  assert.equal(Object.getPrototypeOf(byId.b.metrics), Object.prototype);
  // The NOT_EVALUATED score (0.2) is left out: case a has no candidate score.
  assert.deepEqual(byId.a.metrics.__proto__, { baseline: 1, candidate: null, delta: null, baseline_status: 'PASSED', candidate_status: 'NOT_EVALUATED' });
  assert.equal(cmp.metrics[0].n, 1);
  assert.deepEqual(cmp.pass_fail, { n: 2, baseline_passed: 2, candidate_passed: 0, b: 2, c: 0, p_value: 0.5 });
  assert.match(comparisonMarkdown(cmp), /judge_error: HTTP 503 from the judge/);
  assert.match(comparisonText(cmp), /__proto__ 0\.9 → 0\.4/);
});

test('loadEvalSetResult({ caseLevel: true }) leaves the per-invocation results out', async () => {
  const { loadEvalSetResult } = await import('../../pkg/index.js');
  const s = CALIBRATIONS[0].results[0];
  assert.ok(loadEvalSetResult(s).eval_case_results.every((c) => Array.isArray(c.eval_metric_result_per_invocation)));
  const lean = loadEvalSetResult(s, { caseLevel: true });
  assert.ok(lean.eval_case_results.every((c) => !('eval_metric_result_per_invocation' in c)));
  assert.equal(lean.eval_case_results.length, s.eval_case_results.length);
});

/** A comparison whose metric, case ids and NOT_EVALUATED reason are all HOSTILE. */
function hostileComparison() {
  const m = (score, status, details) => ({ metric_name: HOSTILE, threshold: 0.5, score, eval_status: status, ...(details ? { details } : {}) });
  const side = (id, cases) => ({ eval_set_result_id: id, eval_set_id: HOSTILE, eval_case_results: cases });
  const c = (id, status, metric) => ({ eval_id: id, final_eval_status: status, overall_eval_metric_results: [metric] });
  return compareRuns(
    side('b', [c(HOSTILE, 'PASSED', m(1, 'PASSED')), c(`${HOSTILE}2`, 'PASSED', m(1, 'PASSED'))]),
    side('c', [c(HOSTILE, 'FAILED', m(0.25, 'FAILED')), c(`${HOSTILE}2`, 'NOT_EVALUATED', m(null, 'NOT_EVALUATED', { reason: 'judge_error', error: HOSTILE }))]),
  );
}

test('data is data in every comparison report: Markdown as GitHub renders it, text, JUnit, annotations', async (t) => {
  const cmp = hostileComparison();
  assert.deepEqual(cmp.cases.map((c) => c.change), ['regressed', 'not_comparable']);
  const text = comparisonText(cmp);
  const md = comparisonMarkdown(cmp);
  for (const [what, out] of [['text', text], ['Markdown', md], ['JUnit', comparisonJUnit(cmp)]]) {
    assert.deepEqual(workflowCommands(out), [], `${what}: the runner reads no command`);
    for (const line of out.split(/\r\n|\r|\n/)) assert.doesNotMatch(line, /^\s*(::|### Verdict)/, `${what}: ${JSON.stringify(line)}`);
  }
  const plain = comparisonText(JSON.parse(JSON.stringify(cmp).replaceAll(JSON.stringify(HOSTILE).slice(1, -1), 'x')));
  assert.equal(text.split('\n').length, plain.split('\n').length, 'the text has the lines of a comparison with plain ids');
  // The annotations: ours only, their title and message read back as the data.
  const ann = workflowCommands(comparisonAnnotations(cmp));
  assert.deepEqual(ann.map((a) => a.name), ['error', 'error', 'warning']);
  assert.equal(ann[0].props.title, `evalcore: ${HOSTILE} dropped`);
  assert.equal(ann[1].props.title, `evalcore: ${HOSTILE} regressed`);
  assert.ok(ann[1].data.startsWith(`${HOSTILE}: PASSED -> FAILED: ${HOSTILE} 1 → 0.25`));
  if (noRenderer) return t.skip(noRenderer);
  const html = await renderGfm(md);
  const allowed = new Set(['h3', 'p', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'strong', 'details', 'summary', 'code', 'sub']);
  assert.deepEqual(elements(html).filter((e) => !allowed.has(e)), [], html);
  assert.equal(elements(html).filter((e) => e === 'h3').length, 1);
  const cases = tables(html).filter((tb) => tb[0].join() === 'case,status,why');
  assert.deepEqual(cases[0], [['case', 'status', 'why'], [HOSTILE_LINE, '✅ PASSED → ❌ FAILED', `${HOSTILE_LINE} 1 → 0.25`]]);
  assert.deepEqual(cases[1][1], [`${HOSTILE_LINE}2`, '✅ PASSED → ⚠️ NOT_EVALUATED', `candidate: ${HOSTILE_LINE} 1 → n/a (NOT_EVALUATED); candidate: ${HOSTILE_LINE}: judge_error: ${HOSTILE_LINE}`]);
  assert.ok(html.includes('<td><code>e ::error::forged'), 'the case id is shown as code');
  const metrics = tables(html).find((tb) => tb[0][0] === 'metric');
  assert.equal(metrics[1][0], `🔻 ${HOSTILE_LINE}`, 'one case with no spread: a significant drop');
  assert.ok(htmlText(html).includes(`candidate: 1 run(s) of eval set ${HOSTILE_LINE}; α`), 'the set id as it is');
});

test('calibration text and Markdown keep a hostile metric name and label path as data', async (t) => {
  const cal = {
    used: 1, labels: 2, kappa_threshold: 0.6,
    metrics: [{ metric_name: HOSTILE, rubric_id: null, judge_model: HOSTILE, n: 1, agreement: 1, agreement_ci95: [0.2, 1], kappa: null,
      confusion: { judge_pass_human_pass: 1, judge_pass_human_fail: 0, judge_fail_human_pass: 0, judge_fail_human_fail: 0 }, flagged: false }],
    skipped: [{ path: HOSTILE, reason: 'unknown_case', message: HOSTILE }],
  };
  for (const markdown of [false, true]) {
    const out = calibrationText(cal, { markdown });
    assert.deepEqual(workflowCommands(out), [], `markdown: ${markdown}`);
    for (const line of out.split(/\r\n|\r|\n/)) assert.doesNotMatch(line, /^\s*(::|### Verdict)/, JSON.stringify(line));
  }
  if (noRenderer) return t.skip(noRenderer);
  const html = await renderGfm(calibrationText(cal, { markdown: true }));
  assert.deepEqual(elements(html).filter((e) => !['h3', 'p', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'em', 'ul', 'li'].includes(e)), [], html);
  assert.deepEqual(tables(html)[0][1].slice(0, 3), [HOSTILE_LINE, HOSTILE_LINE, '1']);
  assert.equal(htmlText(/<li>([\s\S]*?)<\/li>/.exec(html)[1]), `${HOSTILE_LINE}: unknown_case: ${HOSTILE_LINE}`);
});
