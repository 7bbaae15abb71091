// Memory is bounded before it is spent (issue 9): inputs whose parse would not fit are refused
// with `too_large` at once, judge and agent answers over maxReplyBytes become judge_error /
// agent_error, and the module keeps answering afterwards. Also the linear long conversation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as api from '../../pkg/index.js';
import { assertHealthy } from './api-suite.mjs';
import { MINIMAL_SET, actualFor, clone } from './helpers.mjs';

const MB = 1024 * 1024;

test('limits: defaults, partial updates, and bad values refused with a path', () => {
  const defaults = api.getLimits();
  assert.deepEqual(defaults, { maxTextBytes: 512 * MB, maxParseBytes: 2048 * MB, maxReplyBytes: 32 * MB, maxIdBytes: 1024 });
  try {
    assert.deepEqual(api.setLimits({ maxReplyBytes: 4 * MB }), { ...defaults, maxReplyBytes: 4 * MB });
    assert.equal(api.getLimits().maxReplyBytes, 4 * MB);
    for (const [bad, path] of [
      [{ maxReplyBytes: 12 }, '$options.maxReplyBytes'],
      [{ maxParseBytes: 8 * 1024 * MB }, '$options.maxParseBytes'],
      [{ maxTextBytes: 1.5e6 + 0.5 }, '$options.maxTextBytes'],
      [{ maxtextbytes: 1e6 }, '$options'],
      [{ maxIdBytes: 0 }, '$options.maxIdBytes'],
    ]) {
      assert.throws(() => api.setLimits(bad), (e) => e instanceof api.EvalError && e.code === 'schema' && e.path.startsWith(path), JSON.stringify(bad));
    }
    assert.throws(() => api.setLimits('big'), api.EvalError);
    assert.equal(api.getLimits().maxReplyBytes, 4 * MB, 'a refused update changes nothing');
  } finally {
    api.setLimits(defaults);
  }
});

test('identifiers are bounded (maxIdBytes): a long eval_set_id or eval_id is too_large with its path, on every way in', () => {
  const long = 'x'.repeat(1025);
  const caseOf = (id) => ({ eval_id: id, conversation: [] });
  for (const [set, path] of [
    [{ eval_set_id: long, eval_cases: [caseOf('a')] }, '$.eval_set_id'],
    [{ eval_set_id: 's', eval_cases: [caseOf('a'), caseOf(long)] }, '$.eval_cases[1].eval_id'],
    [{ eval_set_id: 's', eval_cases: [{ evalId: long, conversation: [] }] }, '$.eval_cases[0].eval_id'],
  ]) {
    for (const input of [set, JSON.stringify(set), Buffer.from(JSON.stringify(set))]) {
      assert.throws(() => api.loadEvalSet(input), (e) => e instanceof api.EvalError && e.code === 'too_large' && e.path === path
        && /1025 bytes, over `maxIdBytes` \(1024; setLimits raises it\)/.test(e.message), path);
    }
    // validateEvalSet's quick scan does not say yes to it either.
    const report = api.validateEvalSet(JSON.stringify(set));
    assert.equal(report.ok, false, path);
    assert.deepEqual(report.errors.map((e) => [e.code, e.path]), [['too_large', path]]);
  }
  assert.equal(api.loadEvalSet({ eval_set_id: 'x'.repeat(1024), eval_cases: [caseOf('y'.repeat(1024))] }).eval_cases.length, 1, 'at the limit');
  // A legacy list's ids are the same ids.
  assert.throws(() => api.loadEvalSet([{ name: long, data: [] }]), (e) => e.code === 'too_large');
  const before = api.getLimits();
  try {
    api.setLimits({ maxIdBytes: 4096 });
    assert.equal(api.loadEvalSet({ eval_set_id: long, eval_cases: [] }).eval_set_id, long, 'raised');
  } finally {
    api.setLimits(before);
  }
});

test('a 96 MiB eval set whose parse would outgrow wasm memory is too_large, at once', () => {
  // 32 million `{}` invocations: each costs a tree node, about 4 GiB in all.
  const text = `{"eval_set_id":"s","eval_cases":[{"eval_id":"c","conversation":[${'{},'.repeat(32 * MB - 1)}{}]}]}`;
  const bytes = Buffer.from(text);
  assert.ok(bytes.length > 96 * MB);
  const t0 = Date.now();
  for (const call of [() => api.loadEvalSet(bytes), () => api.loadEvalSet(text)]) {
    assert.throws(call, (e) => e instanceof api.EvalError && e.code === 'too_large' && /maxParseBytes/.test(e.message));
  }
  const report = api.validateEvalSet(bytes);
  assert.equal(report.ok, false);
  assert.equal(report.errors[0].code, 'too_large');
  assert.ok(Date.now() - t0 < 20000);
  assertHealthy(api);
});

test('a lower maxParseBytes refuses what the default accepts, naming the limit', () => {
  const set = clone(MINIMAL_SET);
  set.eval_cases[0].conversation[0].intermediate_data.tool_uses[0].args.list = Array.from({ length: 5000 }, (_, i) => i);
  assert.equal(api.loadEvalSet(set).eval_cases.length, 1);
  const before = api.getLimits();
  try {
    api.setLimits({ maxParseBytes: 1 * MB });
    assert.throws(() => api.loadEvalSet(set), (e) => e.code === 'too_large' && /1\.0 MiB/.test(e.message));
    assert.throws(() => api.loadEvalSet(Buffer.from(JSON.stringify(set))), (e) => e.code === 'too_large');
  } finally {
    api.setLimits(before);
  }
  assert.equal(api.loadEvalSet(set).eval_cases.length, 1);
});

test('an 80 MB judge reply is a judge_error that says it is too large; the run completes', async () => {
  const huge = JSON.stringify({ choices: [{ message: { content: `Is the answer valid: "valid" ${'x'.repeat(80 * 1000 * 1000)}` } }] });
  let calls = 0;
  const fetch = async () => {
    calls += 1;
    return new Response(huge, { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const res = await api.evaluateInvocations({
    evalCase: MINIMAL_SET.eval_cases[0],
    actual: actualFor(),
    config: { criteria: { final_response_match_v2: 0.5, response_match_score: 0.5 } },
    judge: { provider: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:9', fetch, maxRetries: 0 },
  });
  const judged = res.overall_eval_metric_results.find((m) => m.metric_name === 'final_response_match_v2');
  assert.equal(judged.eval_status, 'NOT_EVALUATED');
  assert.equal(judged.details.reason, 'judge_error');
  assert.match(judged.details.error, /too large/);
  const rouge = res.overall_eval_metric_results.find((m) => m.metric_name === 'response_match_score');
  assert.equal(rouge.eval_status, 'PASSED', 'the metrics that could run are kept');
  assert.ok(calls >= 1);
  assertHealthy(api);
});

test('a 70 MB agent reply fails its case with agent_error; the other cases complete', async () => {
  const set = clone(MINIMAL_SET);
  set.eval_cases.push({ ...clone(set.eval_cases[0]), eval_id: 'case_2' });
  const res = await api.evaluate({
    evalSet: set,
    agent: (turn) => (turn.evalId === 'case_1' ? 'y'.repeat(70 * 1000 * 1000) : 'It is sunny in Paris.'),
    config: { criteria: { response_match_score: 0.5 } },
  });
  const byId = Object.fromEntries(res.eval_case_results.map((r) => [r.eval_id, r]));
  assert.equal(byId.case_1.final_eval_status, 'FAILED');
  assert.equal(byId.case_1.error.code, 'agent_error');
  assert.match(byId.case_1.error.message, /too large/);
  assert.equal(byId.case_2.final_eval_status, 'PASSED');
  assertHealthy(api);
});

test('a long conversation costs linear work: 2,000 turns, each agent turn sees the whole history', async () => {
  const n = 2000;
  const conversation = Array.from({ length: n }, (_, i) => ({
    invocation_id: `t${i}`,
    user_content: { role: 'user', parts: [{ text: `question ${i}` }] },
    final_response: { role: 'model', parts: [{ text: `answer ${i}` }] },
  }));
  const set = { eval_set_id: 'long', eval_cases: [{ eval_id: 'long', conversation }] };
  const lengths = [];
  const res = await api.evaluate({
    evalSet: set,
    agent: (turn) => {
      lengths.push(turn.history.length);
      if (turn.turnIndex > 0) assert.equal(turn.history.at(-1).user_content.parts[0].text, `question ${turn.turnIndex - 1}`);
      return `answer ${turn.turnIndex}`;
    },
    config: { criteria: { response_match_score: 0.5 } },
  });
  assert.deepEqual(lengths, Array.from({ length: n }, (_, i) => i));
  assert.equal(res.eval_case_results[0].final_eval_status, 'PASSED');
});

test('no timer outlives its judge call: the core cancels its timeout timer when the answer comes first', async () => {
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const before = timers();
  let most = 0;
  let calls = 0;
  const fetch = async () => {
    calls += 1;
    most = Math.max(most, timers() - before);
    return new Response(JSON.stringify({ choices: [{ message: { content: '{"is_the_agent_response_valid": "valid"}' } }] }), { status: 200 });
  };
  const set = clone(MINIMAL_SET);
  set.eval_cases = Array.from({ length: 30 }, (_, i) => ({ ...clone(MINIMAL_SET.eval_cases[0]), eval_id: `c${i}` }));
  const res = await api.evaluate({
    evalSet: set, concurrency: 1, agent: (t) => `It is sunny in Paris (${t.evalId}).`,
    config: { criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } },
    judge: { provider: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:9', fetch, concurrency: 1, timeoutMs: 60_000 },
  });
  assert.equal(calls, 30);
  assert.ok(res.eval_case_results.every((r) => r.final_eval_status === 'PASSED'));
  // One call in flight at a time: its own timers only (the host's and the core's), never the
  // finished calls' 60 s timers piling up.
  assert.ok(most <= 4, `${most} timers were pending during a call`);
});
