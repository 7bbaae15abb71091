// evalcore/testing: AgentEvaluator as ADK's (SPEC §4.6, §5.1, §5.2) — discovery of *.test.json /
// *.evalset.json with the test_config.json beside each, numRuns with verdicts on the score
// averaged over every invocation of every run, and node:assert's AssertionError with a
// readable summary of what failed.
import assert from 'node:assert/strict';
import { AssertionError } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { EvalError, loadEvalSet } from '../../pkg/index.js';
import { AgentEvaluator, judgeEvalSetResult } from '../../pkg/lib/testing/agent_evaluator.js';
import { agent as replayAgent } from '../../examples/hello_world/agent.mjs';
import { ROOT } from './helpers.mjs';

const EXAMPLE = join(ROOT, 'examples', 'hello_world');
const SET = join(EXAMPLE, 'hello_world.evalset.json');
const work = mkdtempSync(join(tmpdir(), 'evalcore-testing-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Fails as an assertion with `pattern` in the message; returns the error. */
async function rejectsWith(promise, pattern) {
  let err;
  try {
    await promise;
  } catch (e) {
    err = e;
  }
  assert.ok(err, 'expected a rejection');
  assert.ok(err instanceof AssertionError, `expected an AssertionError, got ${err && err.name}: ${err && err.message}`);
  assert.equal(err.code, 'ERR_ASSERTION');
  assert.match(err.message, pattern);
  return err;
}

describe('AgentEvaluator.evaluate on the hello_world example', () => {
  test('fails with the metric, threshold, averaged score and the invocation that failed', async () => {
    const err = await rejectsWith(AgentEvaluator.evaluate(replayAgent, EXAMPLE), /1 of 4 eval cases failed in hello_world/);
    const lines = err.message.split('\n');
    assert.ok(lines[0].startsWith('AgentEvaluator: 1 of 4 eval cases failed in hello_world ('), lines[0]);
    assert.ok(lines[0].endsWith('hello_world.evalset.json, 2 runs)'), 'numRuns defaults to 2, as ADK');
    assert.match(err.message, /✗ check_listed_numbers\n {4}metric {21}threshold {2}score {3}status\n/);
    assert.match(err.message, /\n {4}tool_trajectory_avg_score {2}1 {10}0 {7}FAILED\n {4}response_match_score {7}0\.5 {8}0\.8333 {2}PASSED\n/);
    assert.match(err.message, /runs 1, 2, invocation 1 of 1\n {6}prompt: {14}Which of 4, 7 and 9 are prime\?/, 'identical runs are listed once');
    assert.match(err.message, /expected_tool_calls: check_prime\(nums=\[4, 7, 9\]\)\n {6}actual_tool_calls: {3}check_prime\(nums=\[4, 7\]\)/);
    assert.ok(!/greeting|roll_and_check/.test(err.message), 'passing cases are not listed');
    assert.deepEqual(err.failures, ['tool_trajectory_avg_score for check_listed_numbers Failed. Expected 1.0, but got 0.0.']);
    assert.equal(err.results.length, 1);
    assert.equal(err.results[0].run_summary.num_runs, 2);
  });

  test('passes (resolves to the results) when every selected case passes; numRuns is honoured', async () => {
    const results = await AgentEvaluator.evaluate(replayAgent, SET, { numRuns: 3, evalIds: ['greeting', 'roll_and_check'] });
    assert.equal(results.length, 1);
    assert.equal(results[0].eval_case_results.length, 6);
    assert.deepEqual([...new Set(results[0].eval_case_results.map((r) => r.run))].sort(), [0, 1, 2]);
  });

  test('the agent can be given as a module path; test_config.json beside the file is used', async () => {
    // The example's config has response_match_score 0.5; the default 0.8 would fail greeting (0.7556).
    const [r] = await AgentEvaluator.evaluate(join(EXAMPLE, 'agent.mjs'), SET, { numRuns: 1, evalIds: ['greeting'] });
    assert.equal(r.eval_case_results[0].overall_eval_metric_results.find((m) => m.metric_name === 'response_match_score').threshold, 0.5);
  });

  test('configPath / config replace the discovered config', async () => {
    writeFileSync(join(work, 'strict.json'), JSON.stringify({ criteria: { response_match_score: 0.8 } }));
    await rejectsWith(AgentEvaluator.evaluate(replayAgent, SET, { numRuns: 1, evalIds: ['greeting'], configPath: join(work, 'strict.json') }),
      /response_match_score {2}0\.8 {8}0\.7556 {2}FAILED/);
    await AgentEvaluator.evaluate(replayAgent, SET, { numRuns: 1, evalIds: ['greeting'], config: { criteria: { response_match_score: 0.7 } } });
  });

  test('every *.test.json and *.evalset.json under a folder, each with its own test_config.json', async () => {
    const root = join(work, 'tree');
    mkdirSync(join(root, 'a', 'deeper'), { recursive: true });
    mkdirSync(join(root, 'node_modules', 'x'), { recursive: true });
    // a/: the example set with its config (one failing case); a/deeper: a legacy file, default criteria.
    cpSync(SET, join(root, 'a', 'hello.evalset.json'));
    cpSync(join(EXAMPLE, 'test_config.json'), join(root, 'a', 'test_config.json'));
    writeFileSync(join(root, 'a', 'deeper', 'greet.test.json'), JSON.stringify([{ query: 'Hi, who are you?', expected_tool_use: [], reference: 'Hi' }]));
    writeFileSync(join(root, 'node_modules', 'x', 'ignored.test.json'), '[]');
    writeFileSync(join(root, 'a', 'notes.json'), '{}');
    // The legacy case's id is "greet", which the replay agent has no recording for: the
    // agent fails, which is reported as such.
    const err = await rejectsWith(AgentEvaluator.evaluate(replayAgent, root, { numRuns: 1 }), /failed in greet/);
    assert.equal(err.results.length, 2);
    assert.deepEqual(err.results.map((r) => r.eval_set_id), ['greet', 'hello_world'], 'sorted, recursive, node_modules skipped');
    assert.match(err.message, /greet run 1: the agent did not complete the conversation \([^)]*recorded_turns\.json has no turns for eval case greet/);
    assert.match(err.message, /1 of 4 eval cases failed in hello_world/);
  });

  test('a dangling symlink named like an eval file is skipped, not a crash', async () => {
    const root = join(work, 'dangling');
    mkdirSync(root, { recursive: true });
    cpSync(SET, join(root, 'hello.evalset.json'));
    cpSync(join(EXAMPLE, 'test_config.json'), join(root, 'test_config.json'));
    symlinkSync(join(root, 'gone.json'), join(root, 'broken.test.json'));
    const results = await AgentEvaluator.evaluate(replayAgent, root, { numRuns: 1, evalIds: ['greeting'] });
    assert.deepEqual(results.map((r) => r.eval_set_id), ['hello_world']);
  });

  test('nothing to evaluate, or a bad numRuns, is an EvalError', async () => {
    mkdirSync(join(work, 'empty'), { recursive: true });
    await assert.rejects(AgentEvaluator.evaluate(replayAgent, join(work, 'empty')), (e) => e instanceof EvalError && /nothing to evaluate/.test(e.message));
    await assert.rejects(AgentEvaluator.evaluate(replayAgent, join(work, 'absent')), (e) => e instanceof EvalError && e.code === 'not_found');
    await assert.rejects(AgentEvaluator.evaluate(replayAgent, SET, { numRuns: 0 }), (e) => e instanceof EvalError && /numRuns/.test(e.message));
    await assert.rejects(AgentEvaluator.evaluate(42, SET), (e) => e instanceof EvalError && /Agent callback/.test(e.message));
  });
});

describe('AgentEvaluator.evaluateEvalSet', () => {
  test('an eval set object with default criteria', async () => {
    const set = loadEvalSet(readFileSync(SET));
    const one = { ...set, eval_cases: set.eval_cases.filter((c) => c.eval_id === 'roll_and_check') };
    const result = await AgentEvaluator.evaluateEvalSet(replayAgent, one, { numRuns: 2 });
    assert.equal(result.eval_case_results.length, 2);
    await rejectsWith(AgentEvaluator.evaluateEvalSet(replayAgent, set, { numRuns: 1 }), /2 of 4 eval cases failed in hello_world/);
  });

  test('a metric with no score fails as "not evaluated", not as a regression', async () => {
    const set = loadEvalSet(readFileSync(SET));
    const one = { ...set, eval_cases: set.eval_cases.filter((c) => c.eval_id === 'greeting') };
    const err = await rejectsWith(AgentEvaluator.evaluateEvalSet(replayAgent, one, { numRuns: 2, config: { criteria: { final_response_match_v2: 0.5 } } }),
      /final_response_match_v2 {2}0\.5 {8}n\/a {4}NOT_EVALUATED/);
    assert.deepEqual(err.failures, ['final_response_match_v2 for greeting was not evaluated: no score was produced, so the threshold of 0.5 was never checked '
      + '(needs_judge: final_response_match_v2 is judged by an LLM: pass a `judge` ({provider, model, baseUrl?, fetch?}) to evaluate it).'],
    'the reason and the error of the NOT_EVALUATED result, in the assertion message');
    assert.match(err.message, /\(needs_judge: final_response_match_v2 is judged by an LLM/);
  });

  test('strict: a misspelt metric in the config is an EvalError with its path, before any turn', async () => {
    let turns = 0;
    const agent = (t) => { turns++; return replayAgent(t); };
    await assert.rejects(AgentEvaluator.evaluateEvalSet(agent, readFileSync(SET), { numRuns: 1, strict: true, config: { criteria: { respone_match_score: 0.5 } } }),
      (e) => e instanceof EvalError && e.path === '$.criteria.respone_match_score' && /did you mean "response_match_score"/.test(e.message));
    assert.equal(turns, 0);
    // Without strict, ADK's behaviour: the run goes on and the metric is not evaluated.
    const err = await rejectsWith(AgentEvaluator.evaluateEvalSet(agent, readFileSync(SET), { numRuns: 1, config: { criteria: { respone_match_score: 0.5 } } }), /respone_match_score/);
    assert.match(err.failures[0], /was not evaluated: .*\(unknown_metric: unknown metric "respone_match_score"; did you mean "response_match_score"\?/);
  });
});

describe('an eval set with no cases is an error, as in ADK (issue 10)', () => {
  const noCases = (e) => e instanceof EvalError && e.code === 'schema' && e.path === '$.eval_cases'
    && /eval set "empty".* has no eval cases, so nothing was evaluated/.test(e.message) && /add_eval_case/.test(e.message);
  test('evaluateEvalSet rejects with an EvalError that says what to do', async () => {
    let called = false;
    const agent = async () => { called = true; return 'hi'; };
    await assert.rejects(AgentEvaluator.evaluateEvalSet(agent, { eval_set_id: 'empty', eval_cases: [] }), noCases);
    await assert.rejects(AgentEvaluator.evaluateEvalSet(agent, '{"eval_set_id": "empty", "eval_cases": []}', { numRuns: 1 }), noCases);
    assert.equal(called, false, 'the agent is never run');
  });
  test('evaluate on a file with no cases names the file', async () => {
    const dir = join(work, 'empty-set');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'empty.evalset.json');
    writeFileSync(file, JSON.stringify({ eval_set_id: 'empty', eval_cases: [] }));
    await assert.rejects(AgentEvaluator.evaluate(replayAgent, file), (e) => noCases(e) && e.message.includes(file));
  });
});

describe('judgeEvalSetResult (the verdicts, from the run summary)', () => {
  const metricResult = (score, status) => ({ metric_name: 'm', threshold: 0.7, score, eval_status: status });
  const perInv = (scores) => scores.map((s) => ({
    actual_invocation: { user_content: { parts: [{ text: 'q' }] }, final_response: { parts: [{ text: `a${s}` }] } },
    expected_invocation: { user_content: { parts: [{ text: 'q' }] }, final_response: { parts: [{ text: 'a' }] } },
    eval_metric_results: [metricResult(s, s >= 0.7 ? 'PASSED' : 'FAILED')],
  }));
  const run = (r, scores, status) => ({
    eval_set_id: 's', eval_id: 'c', run: r, final_eval_status: status,
    overall_eval_metric_results: [metricResult(scores.reduce((a, b) => a + b) / scores.length, status)],
    eval_metric_result_per_invocation: perInv(scores),
  });
  const summary = (passed, mean) => ({
    num_runs: 2,
    cases: [{ eval_id: 'c', statuses: ['PASSED', 'FAILED'], flipped: true, metrics: [
      { metric_name: 'm', threshold: 0.7, informational: false, case_scores: [0.8, 0.6], min: 0.6, mean: 0.7, max: 0.8, stddev: 0.1, invocation_mean: mean, lower_is_better: false, passed },
      { metric_name: 'token_usage_v1', threshold: null, informational: true, case_scores: [1, 2], min: 1, mean: 1.5, max: 2, stddev: 0.5, invocation_mean: 1.5, lower_is_better: false, passed: null },
    ] }],
  });
  const results = [run(0, [1.0, 0.6], 'PASSED'), run(1, [0.6, 0.6], 'FAILED')];

  test("the run summary's averaged verdict decides, not each run's status", () => {
    const ok = judgeEvalSetResult({ eval_set_id: 's', eval_case_results: results, run_summary: summary(true, 0.7) });
    assert.deepEqual(ok.failures, [], 'one run failed, but the invocation mean 0.7 meets the threshold');
    const bad = judgeEvalSetResult({ eval_set_id: 's', eval_case_results: results, run_summary: summary(false, 0.65) });
    assert.deepEqual(bad.failures, ['m for c Failed. Expected 0.7, but got 0.65.']);
    assert.match(bad.report, /^1 of 1 eval case failed in s \(2 runs\)/);
    assert.match(bad.report, /\n {4}metric {2}threshold {2}score {17}status\n {4}m {7}0\.7 {8}0\.65 \(runs 0\.8, 0\.6\) {2}FAILED\n/);
    assert.ok(!bad.report.includes('token_usage_v1'), 'informational metrics never fail and are not listed');
    assert.match(bad.report, /\n {4}runs 1, 2, invocation 2 of 2\n[^]*actual_response: {5}a0\.6/, 'the same failure in both runs, once');
    assert.match(bad.report, /\n {4}run 2, invocation 1 of 2\n/);
    assert.ok(!/run 1, invocation 1/.test(bad.report), 'invocation 1 passed in run 1');
  });

  test('without a run summary (one run): the case result decides', () => {
    assert.deepEqual(judgeEvalSetResult({ eval_set_id: 's', eval_case_results: [run(0, [0.9, 0.8], 'PASSED')] }).failures, []);
    assert.deepEqual(judgeEvalSetResult({ eval_set_id: 's', eval_case_results: [run(0, [0.9, 0.4], 'FAILED')] }).failures,
      ['m for c Failed. Expected 0.7, but got 0.65.']);
  });
});

test('AgentEvaluator.migrateEvalDataToNewSchema writes the full eval set', async () => {
  const old = join(work, 'legacy.test.json');
  writeFileSync(old, JSON.stringify([{ query: 'Hi', expected_tool_use: [{ tool_name: 't', tool_input: { a: 1 } }], reference: 'Hello' }]));
  writeFileSync(join(work, 'session.json'), JSON.stringify({ app_name: 'app', user_id: 'u' }));
  const out = join(work, 'legacy.evalset.json');
  const set = await AgentEvaluator.migrateEvalDataToNewSchema(old, out, join(work, 'session.json'));
  assert.equal(set.eval_set_id, 'legacy');
  const written = JSON.parse(readFileSync(out, 'utf8'));
  assert.deepEqual(written.eval_cases[0].session_input, { app_name: 'app', user_id: 'u', session_id: null, state: {} });
  assert.equal(written.eval_cases[0].conversation[0].intermediate_data.tool_uses[0].name, 't');
  assert.equal(written.description, null);
  await assert.rejects(AgentEvaluator.migrateEvalDataToNewSchema(old, ''), EvalError);
});

test('the failure message keeps hostile ids and reasons as data: a CI runner reads no command in it', async () => {
  const { HOSTILE, workflowCommands } = await import('./support/hostile-output.mjs');
  const set = loadEvalSet(readFileSync(SET));
  const one = { ...set, eval_cases: set.eval_cases.filter((c) => c.eval_id === 'roll_and_check').map((c) => ({ ...c, eval_id: HOSTILE })) };
  const hostileAgent = async (turn) => { const r = await replayAgent(turn); return r; };
  const err = await rejectsWith(AgentEvaluator.evaluateEvalSet(hostileAgent, one, { numRuns: 1, config: { criteria: { response_match_score: 1.01 } } }), /eval case/);
  assert.deepEqual(workflowCommands(err.message), [], err.message);
  assert.ok(err.failures.some((f) => f.includes(HOSTILE)), 'the failures list keeps the id as it is');
});
