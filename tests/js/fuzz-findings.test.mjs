// Regression tests for what the JS fuzzer (tests/fuzz/fuzz.mjs) found, each reduced by hand to
// the input's shape. (The bad-argument sweep's findings are in contract.test.mjs.)
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { EvalError } from '../../pkg/index.js';
import { readEvalSetResult, readEvalSetResultFile } from '../../pkg/lib/node/history.js';
import { toJUnit, toJson, toMarkdown } from '../../pkg/lib/report/reports.js';

const caseResult = (over = {}) => ({
  eval_set_id: 's', eval_id: 'c', final_eval_status: 'FAILED',
  overall_eval_metric_results: [{ metric_name: 'm', threshold: 0.5, score: 0.2, eval_status: 'FAILED' }],
  eval_metric_result_per_invocation: [{ eval_metric_results: [{ metric_name: 'm', score: 0.2, eval_status: 'FAILED' }] }],
  ...over,
});

// Reports read results through the core's model: what is not results is an EvalError (code
// `schema`) with the path of the offending value.
const documented = (e) => e instanceof EvalError && e.code === 'schema';

test('reports: null or non-object entries in the metric lists are an EvalError with their path (seed 3: 711, 990, 566)', () => {
  const bad = [
    [caseResult({ overall_eval_metric_results: [null] }), '[0].overall_eval_metric_results[0]'],
    [caseResult({ overall_eval_metric_results: 7 }), '[0].overall_eval_metric_results'],
    [caseResult({ eval_metric_result_per_invocation: [{ eval_metric_results: [null] }] }), '[0].eval_metric_result_per_invocation[0].eval_metric_results[0]'],
    [caseResult({ eval_metric_result_per_invocation: [3] }), '[0].eval_metric_result_per_invocation[0]'],
  ];
  for (const report of [toJUnit, toJson, toMarkdown]) {
    for (const [r, where] of bad) {
      assert.throws(() => report([r]), (e) => documented(e) && e.path === `$${where}`, `${report.name}: ${JSON.stringify(r).slice(0, 120)}`);
      assert.throws(() => report({ eval_set_result_id: 'x', eval_set_id: 's', eval_case_results: [r] }),
        (e) => documented(e) && e.path === `$.eval_case_results${where}`);
    }
  }
});

test('reports: holes in sparse arrays are not skipped (seed 3: 834, 817)', () => {
  const holes = [];
  holes.length = 1;
  const withHole = caseResult();
  withHole.overall_eval_metric_results = [, { metric_name: 'm', eval_status: 'PASSED' }]; // eslint-disable-line no-sparse-arrays
  for (const report of [toJUnit, toJson, toMarkdown]) {
    assert.throws(() => report(holes), documented);
    assert.throws(() => report([withHole]), documented);
    assert.equal(typeof report([caseResult()]), 'string', 'a well-formed result still reports');
  }
});

test('history: result text is parsed by the core first (deep nesting is invalid_json at once), and only regular files are read', () => {
  const t0 = performance.now();
  assert.throws(() => readEvalSetResult('['.repeat(5e6)), (e) => e instanceof EvalError && e.code === 'invalid_json');
  assert.ok(performance.now() - t0 < 2000);
  const doubled = JSON.stringify(JSON.stringify({ eval_set_result_id: 'r', eval_set_id: 's', eval_case_results: [] }));
  assert.equal(readEvalSetResult(doubled).eval_set_id, 's', "ADK 1.x's double-encoded files still read");
  if (process.platform === 'win32' || spawnSync('mkfifo', ['--version']).status !== 0) return;
  const dir = mkdtempSync(join(tmpdir(), 'evalcore-history-fifo-'));
  try {
    const fifo = join(dir, 'x.evalset_result.json');
    execFileSync('mkfifo', [fifo]);
    assert.throws(() => readEvalSetResultFile(fifo), (e) => e instanceof EvalError && e.code === 'not_a_file' && /a FIFO/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('convertOpenAIMessages: a hole in the message list is an EvalError, not a TypeError (seed 4, target openaiMessages)', async () => {
  const { convertOpenAIMessages } = await import('../../pkg/lib/adapters/generic.js');
  const log = [{ role: 'user', content: 'hi' }, , { role: 'assistant', content: 'hello' }]; // eslint-disable-line no-sparse-arrays
  assert.throws(() => convertOpenAIMessages(log), (e) => e instanceof EvalError && e.code === 'agent_reply' && e.path === '$[1]');
  assert.ok(convertOpenAIMessages([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }]));
});
