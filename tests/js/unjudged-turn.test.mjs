// Issue 32, "nothing passes silently, per turn": a two-turn case whose judged metric is judged
// on one turn and not on the other (the judge answers 500, or the cassette has no answer for
// it). ADK scores the case on the judged turn and lets it pass; evalcore keeps that score and
// counts the unjudged turn wherever a NOT_EVALUATED metric counts: runHealth, the stderr
// summary, --strict, the JUnit properties, evaluate's and AgentEvaluator's `strict`, and the
// judge summary, which accounts for every call asked for. Against the loopback judge.
import assert from 'node:assert/strict';
import { AssertionError } from 'node:assert';
import { getEventListeners } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as ec from '../../pkg/index.js';
import { runHealth } from '../../pkg/lib/health.js';
import { readEvalSetResultFile } from '../../pkg/lib/node/history.js';
import { AgentEvaluator } from '../../pkg/lib/testing/agent_evaluator.js';
import { cliAsync } from './helpers.mjs';
import { requestText, startJudgeServer } from './support/judge-server.mjs';

const REPLY = 'Hello, I am the echo agent.';
const VALID = '{"reasoning": "same answer", "is_the_agent_response_valid": "valid"}';
const U = (text) => ({ role: 'user', parts: [{ text }] });
const M = (text) => ({ role: 'model', parts: [{ text }] });

/** One case of two turns; the judge is told them apart by their user text. */
const evalSet = (second = 'second question') => ({
  eval_set_id: 'turns',
  eval_cases: [{
    eval_id: 'two_turns',
    conversation: [
      { invocation_id: 'i1', user_content: U('first question'), final_response: M(REPLY) },
      { invocation_id: 'i2', user_content: U(second), final_response: M(REPLY) },
    ],
  }],
});
const CONFIG = { criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } };

let server;
let work;
before(async () => {
  server = await startJudgeServer();
  work = mkdtempSync(join(tmpdir(), 'evalcore-unjudged-'));
});
after(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

/** The judge answers the first turn and fails the second with HTTP 500. */
const failSecondTurn = () => server.script((req) => (requestText(req.wire, req.body).includes('second question')
  ? { status: 500, error: 'the judge fell over' } : { text: VALID }));

const judge = (extra = {}) => ({ provider: 'openai', model: 'judge-m', baseUrl: `${server.baseUrl}/v1`, maxRetries: 0, ...extra });

/** An app folder with the echo agent, the eval set and the config. */
function app(name, set = evalSet()) {
  const dir = join(work, name, 'echo');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'agent.mjs'), `export async function agent() { return { finalResponse: ${JSON.stringify(REPLY)} }; }\n`);
  writeFileSync(join(dir, 's.evalset.json'), JSON.stringify(set));
  writeFileSync(join(dir, 'test_config.json'), JSON.stringify(CONFIG));
  return dir;
}

/** The CLI as a child process (asynchronously: the loopback judge answers from this process). */
const cli = (args) => cliAsync(args, { cwd: work, env: { OPENAI_API_KEY: '' } });

/** The judge line's numbers: asked = answered + failed + not sent, each part named. */
function judgeLine(stderr) {
  const line = stderr.split('\n').find((l) => l.startsWith('judge: '));
  assert.ok(line, `a judge line expected in:\n${stderr}`);
  const m = /^judge: (\d+) call\(s\) asked for: (\d+) answered(?: \([^)]*\))?, (\d+) failed(?:, (\d+) not sent \(([^)]*)\))?; (\d+) sent in (\d+) attempt\(s\)/.exec(line);
  assert.ok(m, line);
  const [asked, answered, failed, notSent, sent, attempts] = [m[1], m[2], m[3], m[4] ?? '0', m[6], m[7]].map(Number);
  assert.equal(asked, answered + failed + notSent, `every call asked for is accounted for: ${line}`);
  assert.ok(attempts >= sent, `a sent call took an attempt: ${line}`);
  return { line, asked, answered, failed, notSent, why: m[5] ?? '', sent, attempts };
}

describe('a turn the judge answered 500 on', () => {
  test('evaluate: ADK\'s score of the judged turn, the other turn counted with its reason; strict rejects', async () => {
    failSecondTurn();
    const res = await ec.evaluate({ evalSet: evalSet(), agent: () => REPLY, config: CONFIG, judge: judge() });
    const [c] = res.eval_case_results;
    assert.equal(c.final_eval_status, 'PASSED', 'ADK: the mean over the judged turns');
    assert.equal(c.overall_eval_metric_results[0].score, 1);
    const per = c.eval_metric_result_per_invocation.map((p) => p.eval_metric_results[0]);
    assert.deepEqual(per.map((m) => m.eval_status), ['PASSED', 'NOT_EVALUATED']);
    assert.equal(c.not_evaluated_invocations.length, 1);
    assert.deepEqual({ ...c.not_evaluated_invocations[0], error: undefined },
      { metric_name: 'final_response_match_v2', invocation_index: 1, reason: 'judge_error', error: undefined });
    assert.match(c.not_evaluated_invocations[0].error, /HTTP 500/);
    const h = runHealth(res);
    assert.equal(h.count, 1);
    assert.deepEqual(h.byReason.map((g) => [g.reason, g.count, g.metrics]), [['judge_error', 1, ['final_response_match_v2']]]);
    assert.equal(h.items[0].invocation, 1);
    assert.match(h.lines[0], /^1 metric result was NOT_EVALUATED/);
    const s = res.judge_stats;
    assert.equal(s.requests, 2);
    assert.equal(s.requests, s.answered + s.failures + Object.values(s.not_sent).reduce((a, b) => a + b, 0));
    assert.deepEqual([s.answered, s.failures, s.sent, s.attempts], [1, 1, 2, 2]);
    // With case-level results only, the count is the same: the core counted it when it scored.
    const caseLevel = await ec.evaluate({ evalSet: evalSet(), agent: () => REPLY, config: CONFIG, judge: judge(), perInvocation: false });
    assert.equal(caseLevel.eval_case_results[0].eval_metric_result_per_invocation, undefined);
    assert.equal(runHealth(caseLevel).count, 1);
    const err = await ec.evaluate({ evalSet: evalSet(), agent: () => REPLY, config: CONFIG, judge: judge(), strict: true }).then(() => null, (e) => e);
    assert.ok(err instanceof ec.EvalError, 'strict: true rejects');
    assert.equal(err.code, 'strict');
    assert.match(err.message, /judge_error x1 \(final_response_match_v2\)/);
    assert.equal(err.result.eval_case_results[0].final_eval_status, 'PASSED');
  });

  test('AgentEvaluator passes it as ADK does; with strict: true it fails, naming the turn and why', async () => {
    failSecondTurn();
    const opts = { numRuns: 1, config: CONFIG, judge: judge() };
    await AgentEvaluator.evaluateEvalSet(() => REPLY, evalSet(), opts);
    let err;
    try {
      await AgentEvaluator.evaluateEvalSet(() => REPLY, evalSet(), { ...opts, strict: true });
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof AssertionError, `an AssertionError expected, got ${err}`);
    assert.match(err.message, /1 of 1 eval case failed in turns/);
    assert.match(err.message, /final_response_match_v2 for two_turns was not evaluated on 1 invocation \(run 1, invocation 2 of 2: judge_error: .*HTTP 500/);
    assert.equal(err.failures.length, 1);
  });

  test('the CLI: exit 0 as adk eval, the turn on stderr; --strict exits 1; JUnit counts it; the judge line adds up', async () => {
    failSecondTurn();
    const dir = app('http500');
    const flags = ['--judge', 'openai:judge-m', '--judge_base_url', `${server.baseUrl}/v1`, '--judge_retries', '0'];
    const r = await cli(['eval', dir, join(dir, 's.evalset.json'), ...flags]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Tests passed: 1\n {2}Tests failed: 0\n$/);
    assert.match(r.stderr, /^1 metric result was NOT_EVALUATED, on 1 invocation of a case scored on its other invocations \(ADK's rule does not fail a case for it; --strict \/ strict: true does\):\n {2}judge_error x1 \(final_response_match_v2\): .*HTTP 500/m);
    assert.doesNotMatch(r.stderr, /after 1 attempts/);
    const j = judgeLine(r.stderr);
    assert.deepEqual([j.asked, j.answered, j.failed, j.notSent, j.sent, j.attempts], [2, 1, 1, 0, 2, 2]);
    // The result file (ADK's format) keeps the count.
    const history = join(dir, '.adk', 'eval_history');
    const [file] = readdirSync(history);
    assert.equal(runHealth(readEvalSetResultFile(join(history, file))).count, 1);

    const strict = await cli(['eval', dir, join(dir, 's.evalset.json'), ...flags, '--strict', '--print_detailed_results', '--no_save']);
    assert.equal(strict.code, 1);
    assert.match(strict.stderr, /^NOT_EVALUATED, each:\n {2}two_turns: final_response_match_v2 \(invocation 2 of 2\): judge_error: /m);
    assert.match(strict.stderr, /^error: --strict: 1 metric result\(s\) were NOT_EVALUATED$/m);

    const xml = join(work, 'http500.xml');
    const junit = await cli(['eval', dir, join(dir, 's.evalset.json'), ...flags, '--strict', '--format', 'junit', '--output', xml, '--no_save']);
    assert.equal(junit.code, 1);
    const text = readFileSync(xml, 'utf8');
    assert.match(text, /<property name="evalcore\.not_evaluated_metrics" value="1"\/>/);
    assert.match(text, /<property name="evalcore\.not_evaluated\.judge_error" value="1"\/>/);
    assert.match(text, /<testsuite name="turns" tests="1" failures="1"/, 'strict: the case fails');
  });
});

describe('a turn the cassette has no answer for', () => {
  test('replay: the recorded turn answered, the other not sent (cassette_miss); --strict exits 1', async () => {
    server.script(() => ({ text: VALID }));
    const cassette = join(work, 'cassette.json');
    const recorded = app('record');
    const rec = await cli(['eval', recorded, join(recorded, 's.evalset.json'), '--judge', 'openai:judge-m', '--judge_base_url', `${server.baseUrl}/v1`,
      '--judge_cassette', cassette, '--judge_mode', 'record', '--no_save']);
    assert.equal(rec.code, 0, rec.stderr);
    // The second turn's question changed: its prompt is not in the cassette.
    const dir = app('replay', evalSet('a changed second question'));
    server.reset();
    const flags = ['--judge', 'openai:judge-m', '--judge_cassette', cassette, '--judge_mode', 'replay', '--no_save'];
    const r = await cli(['eval', dir, join(dir, 's.evalset.json'), ...flags]);
    assert.equal(server.requests.length, 0, 'a replay sends nothing');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^ {2}cassette_miss x1 \(final_response_match_v2\): /m);
    const j = judgeLine(r.stderr);
    assert.deepEqual([j.asked, j.answered, j.failed, j.notSent, j.sent], [2, 1, 0, 1, 0]);
    assert.equal(j.why, 'cassette_miss x1');
    assert.match(j.line, /1 answered \(1 from the cassette\)/);
    const strict = await cli(['eval', dir, join(dir, 's.evalset.json'), ...flags, '--strict']);
    assert.equal(strict.code, 1);
    assert.match(strict.stderr, /^error: --strict: 1 metric result\(s\) were NOT_EVALUATED$/m);
  });
});

describe('recorded replies with a signal', () => {
  test('evaluate({ actual, signal }) leaves no abort listener behind, whatever the number of cases', async () => {
    server.script(() => ({ text: VALID }));
    const set = { eval_set_id: 'many', eval_cases: [] };
    const actual = {};
    for (let i = 0; i < 12; i++) {
      const id = `c${i}`;
      set.eval_cases.push({ eval_id: id, conversation: [{ invocation_id: 'e', user_content: U(`question ${i}`), final_response: M(REPLY) }] });
      actual[id] = [{ invocation_id: 'a', user_content: U(`question ${i}`), final_response: M(REPLY) }];
    }
    const ac = new AbortController();
    const warnings = [];
    const onWarning = (w) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const res = await ec.evaluate({ evalSet: set, actual, config: CONFIG, judge: judge(), signal: ac.signal, concurrency: 2 });
      assert.equal(res.eval_case_results.length, 12);
      assert.equal(getEventListeners(ac.signal, 'abort').length, 0, 'every case removed its listener');
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(warnings.filter((w) => w.name === 'MaxListenersExceededWarning'), []);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
