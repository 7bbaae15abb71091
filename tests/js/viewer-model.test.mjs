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

test('stepsOf: what the agent said beside its tool calls, in the order of its events; older files\' intermediate responses too', async () => {
  const { stepsOf } = await import('../../www/model.js');
  const inv = { intermediate_data: { invocation_events: [
    { author: 'root', content: { role: 'model', parts: [{ text: 'Let me ask the expert.' }, { function_call: { name: 'transfer_to_agent', args: { agent_name: 'expert' } } }] } },
    { author: 'root', content: { role: 'user', parts: [{ function_response: { name: 'transfer_to_agent', response: {} } }] } },
    { author: 'expert', content: { role: 'model', parts: [{ text: 'thinking…', thought: true }, { text: '  ' }, { function_call: { name: 'check', args: { n: 7 } } }] } },
    { author: 'expert', usage_metadata: { total_token_count: 3 } },
  ] } };
  assert.deepEqual(stepsOf(inv), [
    { kind: 'said', author: 'root', text: 'Let me ask the expert.' },
    { kind: 'call', author: 'root', name: 'transfer_to_agent', args: { agent_name: 'expert' } },
    { kind: 'call', author: 'expert', name: 'check', args: { n: 7 } },
  ]);
  const older = { intermediate_data: { tool_uses: [{ name: 'roll_die', args: { sides: 6 } }], intermediate_responses: [['helper', [{ text: 'Rolling.' }]]] } };
  assert.deepEqual(stepsOf(older), [{ kind: 'said', author: 'helper', text: 'Rolling.' }, { kind: 'call', author: '', name: 'roll_die', args: { sides: 6 } }]);
  assert.deepEqual(stepsOf({}), []);
  assert.deepEqual(stepsOf({ intermediate_data: { invocation_events: [null, { content: { parts: [7, null] } }] } }), []);
});

test('the runs offered: a file keeps its folder; merged runs are per folder; Compare\'s default is each folder\'s newest', async () => {
  const runs = await import('../../www/model.js');
  const result = (ts, id = 's') => ({ eval_set_id: id, creation_timestamp: ts, eval_case_results: [] });
  const files = [
    { name: 'base/a.json', kind: 'result', value: result(1) },
    { name: 'base/b.json', kind: 'result', value: result(2) },
    { name: 'base/s.evalset.json', kind: 'evalset', value: {} },
    { name: 'cand/c.json', kind: 'result', value: result(3) },
    { name: 'cand/d.json', kind: 'result', value: result(4) },
    { name: 'rescored: cand/d.json', kind: 'result', derived: true, value: result(5) },
  ];
  assert.equal(runs.folderOf('base/x/a.json'), 'base/x');
  assert.equal(runs.folderOf('a.json'), '');
  assert.deepEqual(runs.resultFolders(files), ['base', 'cand']);
  assert.deepEqual(runs.defaultPair(files), { base: '1', cand: '4', baseFolder: 'base', candFolder: 'cand' });
  assert.deepEqual(runs.runChoices(files, 'base').map((c) => c.key), ['1', '0', runs.runChoices(files, 'base')[2].key]);
  const merged = runs.runChoices(files).filter((c) => runs.mergedOf(c.key));
  assert.deepEqual(merged.map((c) => runs.mergedOf(c.key)), [{ folder: 'base', id: 's' }, { folder: 'cand', id: 's' }]);
  assert.match(merged[0].label, /^all 2 runs of s in base\//);
  assert.deepEqual(runs.resultsOf(files, merged[1].key), [files[3].value, files[4].value]);
  assert.equal(runs.keyName(files, merged[1].key, { folder: true }), 'cand/s');
  assert.deepEqual(runs.resultsOf(files, 'set:not json'), []);
  // One folder: the newest against the newest before it of the same eval set, no folders.
  const one = files.slice(0, 3);
  assert.deepEqual(runs.defaultPair(one), { base: '0', cand: '1', baseFolder: null, candFolder: null });
  // The newest of another eval set: the next newest, there being none of its own before it.
  assert.deepEqual(runs.defaultPair([...one, { name: 'base/other.json', kind: 'result', value: result(9, 'other') }]), { base: '1', cand: '3', baseFolder: null, candFolder: null });
});

test('urlFileNames: a URL file is named by its path from the folder common to all', async () => {
  const { urlFileNames } = await import('../../www/open.js');
  const names = (...paths) => urlFileNames(paths.map((p) => new URL(p, 'http://x/www/index.html')));
  assert.deepEqual(names('/files/base/a.json', '/files/cand/b.json'), ['base/a.json', 'cand/b.json']);
  assert.deepEqual(names('/runs/base/a.json', '/runs/base/b.json'), ['a.json', 'b.json']);
  assert.deepEqual(names('/files/a%2Fb%20c.json'), ['a/b c.json']);
  assert.deepEqual(names('/files/x/%E0%A4%A.json'), ['%E0%A4%A.json'], 'a malformed escape is kept as it is');
  assert.deepEqual(names(), []);
});

test('readFile: the reader the file\'s first bytes name is tried first, whatever the file is called', async () => {
  const { readFile } = await import('../../www/open.js');
  const calls = [];
  const fail = (kind) => () => { calls.push(kind); throw Object.assign(new Error(`not a ${kind}`), { code: 'schema' }); };
  const api = { loadEvalSetResult: fail('result'), loadEvalSet: fail('evalset'), validateEvalConfig: () => { calls.push('config'); return { ok: false, errors: [{ code: 'schema', message: 'no' }] }; } };
  const tried = (name, text) => { calls.length = 0; readFile(api, name, new TextEncoder().encode(text)); return [...calls]; };
  const result = JSON.stringify({ eval_set_result_id: 'r', eval_set_result_name: 'r', eval_set_id: 's', eval_case_results: [] }, null, 2);
  assert.deepEqual(tried('run.json', result), ['result', 'evalset', 'config']);
  assert.deepEqual(tried('run.json', JSON.stringify(result)), ['result', 'evalset', 'config'], 'ADK 1.x: the result as a JSON string');
  assert.deepEqual(tried('my_results.json', '{"eval_set_id": "s", "eval_cases": []}'), ['evalset', 'result', 'config']);
  // Nothing to go by in the text: the name decides, as before.
  assert.deepEqual(tried('test_config.json', '{"criteria": {}}'), ['config', 'result', 'evalset']);
  assert.deepEqual(tried('a.evalset_result.json', '[1]'), ['result', 'evalset', 'config']);
  assert.deepEqual(tried('a.json', '[{"query": "hi"}]'), ['evalset', 'result', 'config']);
});
