// The scoring path never loads the extras module (STYLE.md §19, issue 33): with its .wasm
// removed from a copy of the package (its small glue stays: the Node entry imports it at start,
// so a later call can compile the module synchronously), `evalcore eval` (the summary and the detailed tables),
// `evaluate`, `AgentEvaluator` and the endpoint's `/v1/evaluate` score an ADK eval set as they
// do with it; what does need the extras module (the trace import) says so.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { PKG, ROOT } from './helpers.mjs';

const work = mkdtempSync(join(tmpdir(), 'evalcore-scoring-path-'));
after(() => rmSync(work, { recursive: true, force: true }));
const copy = join(work, 'evalcore');
cpSync(PKG, copy, { recursive: true, filter: (src) => !src.includes('node_modules') && !src.endsWith('evalcore_extras_bg.wasm') });
if (existsSync(join(PKG, 'node_modules'))) symlinkSync(join(PKG, 'node_modules'), join(copy, 'node_modules'));
const EX = join(ROOT, 'examples', 'hello_world');

const run = (args, cwd = work) => spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 120_000 });

test('the copy really has no extras module', () => {
  assert.equal(existsSync(join(copy, 'wasm-extras', 'evalcore_extras_bg.wasm')), false);
  assert.equal(existsSync(join(copy, 'wasm', 'evalcore_core_bg.wasm')), true);
});

test('evalcore eval scores an ADK eval set and prints ADK\'s summary and detailed tables without it', () => {
  const out = run([join(copy, 'bin', 'evalcore.js'), 'eval', join(EX, 'agent.mjs'), join(EX, 'hello_world.evalset.json'),
    '--config_file_path', join(EX, 'test_config.json'), '--print_detailed_results', '--results_dir', join(work, 'results')]);
  // One case of the example fails on purpose: exit code 1 is a finished run with a failure.
  assert.ok(out.status === 0 || out.status === 1, `exit ${out.status}: ${out.stderr}`);
  assert.doesNotMatch(out.stderr, /initExtras|not_initialised|extras module|wasm-extras/);
  assert.match(out.stdout, /Eval Run Summary/);
  assert.match(out.stdout, /Tests passed: \d+/);
  assert.match(out.stdout, /tool_trajectory_avg_score/);
});

test('evaluate, AgentEvaluator and the endpoint\'s /v1/evaluate score without it; the trace import names it', () => {
  const script = join(work, 'score.mjs');
  writeFileSync(script, `
import { readFileSync } from 'node:fs';
import * as e from ${JSON.stringify(join(copy, 'index.js'))};
import { AgentEvaluator } from ${JSON.stringify(join(copy, 'lib', 'testing', 'agent_evaluator.js'))};
import { createHandler } from ${JSON.stringify(join(copy, 'lib', 'server', 'index.js'))};
import { agent } from ${JSON.stringify(join(EX, 'agent.mjs'))};
const evalSet = JSON.parse(readFileSync(${JSON.stringify(join(EX, 'hello_world.evalset.json'))}, 'utf8'));
const config = JSON.parse(readFileSync(${JSON.stringify(join(EX, 'test_config.json'))}, 'utf8'));
const out = {};
const result = await e.evaluate({ agent, evalSet, config });
out.evaluate = result.eval_case_results.map((r) => r.final_eval_status);
out.report = e.formatReport(result, { detailed: true }).includes('Eval Run Summary');
const lines = [];
const verdict = await AgentEvaluator.evaluateEvalSet(agent, evalSet, { config, numRuns: 1, printDetailedResults: true, log: (s) => lines.push(s) })
  .then(() => 'passed', (err) => err.name);
out.agentEvaluatorReport = lines.join('').includes('Eval Run Summary');
out.agentEvaluator = verdict;
const actual = Object.fromEntries(result.eval_case_results.map((r) => [r.eval_id, r.eval_metric_result_per_invocation.map((p) => p.actual_invocation)]));
const res = await createHandler({})(new Request('http://127.0.0.1/v1/evaluate', {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ evalSet, actual, config }),
}));
out.endpoint = [res.status, (await res.json()).eval_case_results?.length];
try { e.loadTraces('{"resourceSpans": []}'); out.traces = 'loaded'; } catch (err) { out.traces = err.code; }
console.log(JSON.stringify(out));
`);
  const r = run([script]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop());
  assert.equal(out.evaluate.length, evalSet().eval_cases.length);
  assert.ok(out.evaluate.every((s) => s === 'PASSED' || s === 'FAILED'), JSON.stringify(out.evaluate));
  assert.equal(out.report, true);
  assert.ok(['passed', 'AssertionError'].includes(out.agentEvaluator), out.agentEvaluator);
  assert.equal(out.agentEvaluatorReport, true);
  assert.deepEqual(out.endpoint, [200, out.evaluate.length]);
  // What needs the extras module fails with an error a person can act on, not a crash.
  assert.notEqual(out.traces, 'loaded');
  assert.equal(typeof out.traces, 'string');
});

function evalSet() {
  return JSON.parse(readFileSync(join(EX, 'hello_world.evalset.json'), 'utf8'));
}
