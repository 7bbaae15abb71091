// The viewer's data model (www/model.js) without a browser: rows, flips, reasons, filters,
// sorting, histograms and the baseline/candidate comparison.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildRun, filterRows, sortRows, histogram, compareRuns, worse, runLabel, newestFirst } from '../../www/model.js';

const m = (metric_name, score, eval_status, details = {}) => ({ metric_name, score, eval_status, threshold: 0.5, details });
const cr = (eval_id, final_eval_status, metrics) => ({ eval_id, eval_set_id: 's', final_eval_status, overall_eval_metric_results: metrics });

const run1 = { eval_set_id: 's', eval_case_results: [
  cr('a', 'PASSED', [m('rms', 0.9, 'PASSED'), m('token_usage_v1', 100, 'INFORMATIONAL')]),
  cr('b', 'FAILED', [m('rms', 0.2, 'FAILED')]),
  cr('c', 'NOT_EVALUATED', [m('rms', null, 'NOT_EVALUATED', { error: 'needs a judge' })]),
] };
const run2 = { eval_set_id: 's', eval_case_results: [
  cr('a', 'FAILED', [m('rms', 0.4, 'FAILED'), m('token_usage_v1', 300, 'INFORMATIONAL')]),
  cr('b', 'FAILED', [m('rms', 0.2, 'FAILED')]),
  cr('d', 'PASSED', [m('rms', 1, 'PASSED')]),
] };

test('buildRun: one row per eval id over repetitions, worst status, flips, spread, usage means, reasons', () => {
  const run = buildRun([run1, run2]);
  assert.deepEqual(run.rows.map((r) => [r.id, r.status, r.flips]), [['a', 'FAILED', 2], ['b', 'FAILED', 0], ['c', 'NOT_EVALUATED', 0], ['d', 'PASSED', 0]]);
  const a = run.rows[0];
  assert.equal(a.tokens, 200);
  assert.ok(Math.abs(a.metrics.get('rms').mean - 0.65) < 1e-12);
  assert.ok(Math.abs(a.spread - 0.5) < 1e-12);
  assert.deepEqual(run.metrics, ['rms'], 'informational usage metrics are not matrix columns');
  assert.deepEqual([...run.reasons.get('rms')], [['needs a judge', 1]]);
  assert.equal(run.repeated, true);
  assert.equal(worse('PASSED', 'NOT_EVALUATED'), 'NOT_EVALUATED');
  assert.equal(worse('FAILED', 'NOT_EVALUATED'), 'FAILED');
});

test('filterRows and sortRows', () => {
  const { rows } = buildRun([run1]);
  const ids = (xs) => xs.map((r) => r.id);
  assert.deepEqual(ids(filterRows(rows, { status: 'FAILED' })), ['b']);
  assert.deepEqual(ids(filterRows(rows, { metric: 'rms', min: 0.5, max: 1 })), ['a']);
  assert.deepEqual(ids(filterRows(rows, { min: 0, max: 0.3 })), ['b']);
  assert.deepEqual(ids(filterRows(rows, { regex: /^[ac]$/m })), ['a', 'c']);
  assert.deepEqual(ids(sortRows([...rows], 'metric:rms', true)), ['a', 'b', 'c']);
  assert.deepEqual(ids(sortRows([...rows], 'status', true)), ['b', 'c', 'a']);
  const h = histogram(rows, 'rms', 10);
  assert.deepEqual([h.lo, h.hi, h.n, h.threshold], [0, 1, 2, 0.5]);
  assert.equal(h.counts[9], 1);
  assert.deepEqual(h.byStatus[2], { FAILED: 1 });
});

test('compareRuns: regressions first, then new and removed; a metric on one side only decides nothing', () => {
  const cmp = compareRuns(buildRun([run1]), buildRun([run2]));
  assert.deepEqual(cmp.rows.map((r) => [r.id, r.kind]), [['a', 'regressed'], ['d', 'added'], ['c', 'removed'], ['b', 'same']]);
  assert.ok(Math.abs(cmp.rows[0].metrics[0].delta + 0.5) < 1e-12);
  assert.deepEqual(cmp.tally, { regressed: 1, improved: 0, same: 1, added: 1, removed: 1, incomparable: 0, scoreDown: 0 });
  const onlyBefore = { eval_set_id: 's', eval_case_results: [cr('a', 'PASSED', [m('rms', 0.9, 'PASSED'), m('extra', 1, 'PASSED')])] };
  const onlyAfter = { eval_set_id: 's', eval_case_results: [cr('a', 'PASSED', [m('rms', 0.9, 'PASSED')])] };
  assert.equal(compareRuns(buildRun([onlyBefore]), buildRun([onlyAfter])).rows[0].kind, 'same');
});

test('compareRuns counts by the case status: a metric switched off is no regression, one evaluated on one side only is not comparable', () => {
  const set = (...cases) => buildRun([{ eval_set_id: 's', eval_case_results: cases }]);
  const judged = 'final_response_match_v2';
  const noJudge = { error: 'final_response_match_v2 needs a judge' };
  const base = set(
    cr('judged_pass', 'PASSED', [m('rms', 0.9, 'PASSED'), m(judged, 1, 'PASSED')]),
    cr('judged_fail', 'FAILED', [m('rms', 0.9, 'PASSED'), m(judged, 0, 'FAILED')]),
    cr('only_judged', 'PASSED', [m(judged, 1, 'PASSED')]),
    cr('switched_off', 'FAILED', [m('rms', 0.9, 'PASSED'), m('traj', 0, 'FAILED')]),
    cr('off_to_nothing', 'PASSED', [m('traj', 1, 'PASSED')]),
    cr('lower_score', 'PASSED', [m('rms', 0.95, 'PASSED')]),
    cr('both_unjudged', 'PASSED', [m('rms', 0.9, 'PASSED'), m(judged, null, 'NOT_EVALUATED', noJudge)]),
    cr('fails_anyway', 'PASSED', [m('rms', 0.9, 'PASSED'), m(judged, 1, 'PASSED')]),
    cr('failed_both', 'FAILED', [m('rms', 0.1, 'FAILED'), m(judged, 1, 'PASSED')]),
  );
  // The same run rescored without a judge and without `traj`.
  const cand = set(
    cr('judged_pass', 'PASSED', [m('rms', 0.9, 'PASSED'), m(judged, null, 'NOT_EVALUATED', noJudge)]),
    cr('judged_fail', 'PASSED', [m('rms', 0.9, 'PASSED'), m(judged, null, 'NOT_EVALUATED', noJudge)]),
    cr('only_judged', 'NOT_EVALUATED', [m(judged, null, 'NOT_EVALUATED', noJudge)]),
    cr('switched_off', 'PASSED', [m('rms', 0.9, 'PASSED')]),
    cr('off_to_nothing', 'NOT_EVALUATED', []),
    cr('lower_score', 'PASSED', [m('rms', 0.6, 'PASSED')]),
    cr('both_unjudged', 'PASSED', [m('rms', 0.9, 'PASSED'), m(judged, null, 'NOT_EVALUATED', noJudge)]),
    // Failed by a metric both sides evaluated: the missing judge could not have passed it.
    cr('fails_anyway', 'FAILED', [m('rms', 0.2, 'FAILED'), m(judged, null, 'NOT_EVALUATED', noJudge)]),
    cr('failed_both', 'FAILED', [m('rms', 0.1, 'FAILED'), m(judged, null, 'NOT_EVALUATED', noJudge)]),
  );
  const cmp = compareRuns(base, cand);
  const kind = Object.fromEntries(cmp.rows.map((r) => [r.id, r.kind]));
  assert.deepEqual(kind, {
    judged_pass: 'incomparable', judged_fail: 'incomparable', only_judged: 'incomparable', off_to_nothing: 'incomparable',
    switched_off: 'improved', lower_score: 'same', both_unjudged: 'same', fails_anyway: 'regressed', failed_both: 'same',
  });
  assert.deepEqual(cmp.tally, { regressed: 1, improved: 1, same: 3, added: 0, removed: 0, incomparable: 4, scoreDown: 1 });
  const row = (id) => cmp.rows.find((r) => r.id === id);
  // The reason is the core's, where the user looks (the page lists it under the table).
  assert.deepEqual(row('judged_fail').why, [{ name: judged, side: 'candidate', reason: 'final_response_match_v2 needs a judge' }]);
  assert.deepEqual(row('off_to_nothing').why, [{ name: null, side: 'candidate', reason: 'the case was NOT_EVALUATED' }]);
  assert.equal(row('judged_fail').metrics.find((x) => x.name === judged).comparable, false);
  assert.equal(row('judged_fail').metrics.find((x) => x.name === judged).delta, null);
  assert.equal(row('lower_score').scoreDown, true);
  assert.ok(Math.abs(row('lower_score').metrics[0].delta + 0.35) < 1e-12);
  // A real regression sorts first.
  assert.equal(cmp.rows[0].id, 'fails_anyway');
});

test('runLabel: a name other than the id\'s own is the run\'s label; newestFirst orders runs by creation time', () => {
  assert.equal(runLabel({ eval_set_result_id: 'app_s_1.5', eval_set_result_name: 'app_s_1.5' }), null);
  assert.equal(runLabel({ eval_set_result_id: 'a/b_s_1.5', eval_set_result_name: 'a_b_s_1.5' }), null);
  assert.equal(runLabel({ eval_set_result_id: 'app_s_1.5', eval_set_result_name: null }), null);
  assert.equal(runLabel({ eval_set_result_id: 'app_s_1.5', eval_set_result_name: 'prompt v2' }), 'prompt v2');
  const runs = [{ creation_timestamp: 10 }, { creation_timestamp: 30 }, {}, { creation_timestamp: 30 }, { creation_timestamp: 20 }];
  assert.deepEqual(newestFirst(runs), [3, 1, 4, 0, 2]);
});

test('excerptAt: the line the core stopped at, cut around it, the caret counted in characters from the core\'s byte column', async () => {
  const { excerptAt } = await import('../../www/open.js');
  const bytes = (s) => new TextEncoder().encode(s);
  assert.deepEqual(excerptAt(bytes('{\n  "a": 1,\n  "b": }\n'), 3, 8), { line: 3, column: 8, text: '  "b": }', caret: 7 });
  // "é" is two bytes: x is byte column 8, the seventh character.
  const e = excerptAt(bytes('{"é": x}'), 1, 8);
  assert.equal(e.caret, 6);
  assert.equal(e.text[e.caret], 'x');
  // Windows line ends are not shown; a line past the end is null.
  assert.equal(excerptAt(bytes('{\r\n  oops\r\n}'), 2, 3).text, '  oops');
  assert.equal(excerptAt(bytes('{}'), 5, 1), null);
  // A 1 MB line is cut to the characters around the column.
  const long = excerptAt(bytes(`[${'1,'.repeat(500_000)}x]`), 1, 1_000_002);
  assert.ok(long.text.length <= 2 * 60 + 2, String(long.text.length));
  assert.equal(long.text[long.caret], 'x');
  assert.ok(long.text.startsWith('…'));
});
