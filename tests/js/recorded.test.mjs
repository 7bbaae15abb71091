// evaluate() over recorded replies (`actual`), locally, and its `remote` option's checks and
// failure handling against endpoints that are createHandler() in this process (the real
// workerd fan-out is tests/server/shard.test.mjs): results in the eval set's order and equal to
// evaluateInvocations case by case; every refusal with its path; a shard an endpoint answers
// wrongly sent elsewhere; an abort keeping what completed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as api from '../../pkg/index.js';
import { createHandler } from '../../pkg/lib/server/index.js';

function corpus(n) {
  const evalCases = [];
  const actual = {};
  for (let i = 0; i < n; i++) {
    const id = `c${i}`;
    const user = { role: 'user', parts: [{ text: `question ${i}` }] };
    evalCases.push({ eval_id: id, conversation: [{ invocation_id: `${id}-e`, user_content: user, final_response: { role: 'model', parts: [{ text: `answer ${i} is ${i % 3}` }] } }] });
    actual[id] = [{ invocation_id: `${id}-a`, user_content: user, final_response: { role: 'model', parts: [{ text: `answer ${i} is ${i % 2}` }] } }];
  }
  return { evalSet: { eval_set_id: 'rec', eval_cases: evalCases }, actual };
}

const { evalSet, actual } = corpus(12);
const config = { criteria: { response_match_score: 0.9 } };
const handler = createHandler({});
const inProcess = (h) => (url, init) => h(new Request(url, init));

describe('evaluate({evalSet, actual}) here', () => {
  test('each case scored as evaluateInvocations scores it, in the eval set\'s order', async () => {
    const seen = [];
    const r = await api.evaluate({ evalSet, actual, config, concurrency: 5, onCaseResult: (c) => seen.push(c.eval_id) });
    assert.deepEqual(r.eval_case_results.map((c) => c.eval_id), evalSet.eval_cases.map((c) => c.eval_id));
    assert.equal(seen.length, 12);
    for (const [i, c] of evalSet.eval_cases.entries()) {
      const one = await api.evaluateInvocations({ evalCase: c, actual: actual[c.eval_id], config, evalSetId: 'rec' });
      assert.deepEqual(r.eval_case_results[i], one);
    }
    assert.match(r.eval_set_result_id, /^evalcore_rec_\d+(\.\d+)?$/);
    assert.ok(r.eval_case_results.some((c) => c.final_eval_status === 'PASSED') && r.eval_case_results.some((c) => c.final_eval_status === 'FAILED'));
    const some = await api.evaluate({ evalSet, actual, config, evalIds: ['c7', 'c2'] });
    assert.deepEqual(some.eval_case_results.map((c) => c.eval_id), ['c2', 'c7']);
  });

  test('refusals name their path', async () => {
    const code = (p) => p.then(() => null, (e) => ({ code: e.code, path: e.path }));
    assert.deepEqual(await code(api.evaluate({ evalSet, actual: { c0: [] } })), { code: 'schema', path: '$.actual.c1' });
    assert.deepEqual(await code(api.evaluate({ evalSet, actual: { ...actual, c3: 'x' } })), { code: 'schema', path: '$.actual.c3' });
    assert.deepEqual(await code(api.evaluate({ evalSet, actual, evalIds: ['c1', 'nope'] })), { code: 'schema', path: '$.evalIds' });
    assert.deepEqual(await code(api.evaluate({ evalSet, actual, concurrency: 0 })), { code: 'schema', path: '$.concurrency' });
    assert.deepEqual(await code(api.evaluate({ evalSet: { eval_cases: 3 }, actual })), { code: 'schema', path: '$.evalSet.eval_cases' });
    assert.deepEqual(await code(api.evaluate({ evalSet, actual, judge: { provider: 'openai', model: 'm', cassette: { path: 'x.json' } } })),
      { code: 'unsupported', path: '$.judge.cassette.path' });
    assert.deepEqual(await code(api.evaluate({ evalSet, actual, strict: 'yes' })), { code: 'schema', path: '$.strict' });
  });

  test('a listener that throws does not stop the run: AggregateError with the whole result, here and remote', async () => {
    for (const remote of [undefined, { endpoints: ['http://a.test'], fetch: inProcess(handler) }]) {
      const err = await api.evaluate({ evalSet, actual, config, remote, onCaseResult: (r) => { if (r.eval_id === 'c4') throw new Error('listener bug'); } })
        .then(() => null, (e) => e);
      assert.ok(err instanceof AggregateError, String(err));
      assert.equal(err.errors[0].message, 'listener bug');
      assert.equal(err.result.eval_case_results.length, 12);
    }
  });

  test('an abort keeps the cases that completed', async () => {
    const controller = new AbortController();
    let n = 0;
    const err = await api.evaluate({
      evalSet, actual, config, concurrency: 1, signal: controller.signal,
      onCaseResult: () => { if (++n === 3) controller.abort(); },
    }).then(() => null, (e) => e);
    assert.equal(err?.name, 'AbortError');
    assert.deepEqual(err.partialResult.eval_case_results.map((c) => c.eval_id), ['c0', 'c1', 'c2']);
  });
});

describe('evaluate({..., remote}) checks and failures', () => {
  test('the remote option is read strictly', async () => {
    const code = (remote, extra = {}) => api.evaluate({ evalSet, actual, remote, ...extra }).then(() => null, (e) => ({ code: e.code, path: e.path }));
    assert.deepEqual(await code('http://x'), { code: 'schema', path: '$.remote' });
    assert.deepEqual(await code({ endpoints: [] }), { code: 'schema', path: '$.remote.endpoints' });
    assert.deepEqual(await code({ endpoints: ['http://a', 'nope'] }), { code: 'schema', path: '$.remote.endpoints[1]' });
    assert.deepEqual(await code({ endpoints: ['http://a'], shard: 2 }), { code: 'schema', path: '$.remote.shard' });
    assert.deepEqual(await code({ endpoints: ['http://a'], shards: 0 }), { code: 'schema', path: '$.remote.shards' });
    assert.deepEqual(await code({ endpoints: ['http://a'], token: 5 }), { code: 'schema', path: '$.remote.token' });
    assert.deepEqual(await code({ endpoints: ['http://a'] }, { numRuns: 2 }), { code: 'schema', path: '$.numRuns' });
    assert.deepEqual(await code({ endpoints: ['http://a'] }, { config: { criteria: { response_match_score: 'high' } } }).then((e) => e.path.startsWith('$.config')), true);
  });

  test('endpoints as a comma-separated string; the same result as here', async () => {
    const here = await api.evaluate({ evalSet, actual, config });
    // An endpoint under a path prefix keeps it: /base/v1/evaluate.
    const urls = new Set();
    const fetchFn = (u, init) => {
      urls.add(u);
      return handler(new Request(u.replace('/base/', '/'), init));
    };
    const there = await api.evaluate({ evalSet, actual, config, remote: { endpoints: 'http://a.test, http://b.test/base/', fetch: fetchFn, shards: 5 } });
    assert.deepEqual([...urls].sort(), ['http://a.test/v1/evaluate', 'http://b.test/base/v1/evaluate']);
    assert.deepEqual({ ...there, eval_set_result_id: 0, eval_set_result_name: 0, creation_timestamp: 0 }, { ...here, eval_set_result_id: 0, eval_set_result_name: 0, creation_timestamp: 0 });
  });

  test('an endpoint that answers wrongly (a case it was not sent, a line that is no result, a 500) loses its shard to another', async () => {
    const bad = {
      'http://stranger.test': async (req) => new Response('{"eval_id":"zz","final_eval_status":"PASSED"}\n', { status: 200 }),
      'http://garbage.test': async () => new Response('[1,2]\n', { status: 200 }),
      'http://broken.test': async () => new Response('{"error":{"code":"internal","path":"","message":"boom"}}', { status: 500 }),
    };
    for (const [url, h] of Object.entries(bad)) {
      const events = [];
      const fetchFn = (u, init) => (u.startsWith(url) ? h(new Request(u, init)) : handler(new Request(u, init)));
      const r = await api.evaluate({ evalSet, actual, config, remote: { endpoints: [url, 'http://good.test'], fetch: fetchFn, perEndpoint: 1 }, onProgress: (p) => events.push(p) });
      assert.equal(r.eval_case_results.length, 12, url);
      const done = events.at(-1);
      assert.equal(done.endpoints.find((e) => e.url === url).cases, 0);
      assert.ok(events.some((e) => e.phase === 'shard_retry' && e.endpoint === url), url);
    }
  });

  test('a request the endpoints refuse fails the run with their error; maxAttempts bounds retries', async () => {
    const refusing = createHandler({ token: 'secret-token-1' });
    const err = await api.evaluate({ evalSet, actual, remote: { endpoints: ['http://a.test'], fetch: inProcess(refusing) } }).then(() => null, (e) => e);
    assert.equal(err?.code, 'unauthorized');
    assert.match(err.message, /endpoint http:\/\/a\.test refused shard \d/);
    let calls = 0;
    const flaky = async () => {
      calls++;
      return new Response('no', { status: 503 });
    };
    const many = ['http://a.test', 'http://b.test', 'http://c.test', 'http://d.test'];
    const e2 = await api.evaluate({ evalSet, actual, remote: { endpoints: many, fetch: flaky, shards: 1, maxAttempts: 2 } }).then(() => null, (e) => e);
    assert.equal(e2?.code, 'remote_failed');
    assert.equal(calls, 2);
    assert.equal(e2.partialResult.eval_case_results.length, 0);
  });
});

describe('judge counters (judge_stats) of recorded and remote runs', () => {
  const judged = { criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 2 } } } };
  /** A judge that answers every call valid, but the `busy`-th with 429 (Retry-After 0). */
  const fakeJudge = (busy = 0) => {
    let n = 0;
    return async () => {
      n++;
      if (n === busy) return new Response('{"error":{"message":"slow down"}}', { status: 429, headers: { 'retry-after': '0', 'content-type': 'application/json' } });
      const content = JSON.stringify({ reasoning: 'ok', is_the_agent_response_valid: 'valid' });
      return new Response(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }), { status: 200, headers: { 'content-type': 'application/json' } });
    };
  };
  const judgeOf = (fetch) => ({ provider: 'openai', model: 'judge-model', baseUrl: 'http://judge.test', fetch });
  const counters = (calls, retries = 0) => ({ requests: calls, sent: calls, attempts: calls + retries, retries, cassette_hits: 0, deduplicated: 0, answered: calls, failures: 0, not_sent: {}, budget_exhausted: false });

  test('evaluateInvocations tells each case\'s counters (onJudgeStats), checked and guarded', async () => {
    const c = evalSet.eval_cases[0];
    let got = null;
    await api.evaluateInvocations({ evalCase: c, actual: actual[c.eval_id], config: judged, judge: judgeOf(fakeJudge(1)), onJudgeStats: (s) => { got = s; } });
    assert.deepEqual(got, counters(2, 1), 'two samples, the first answered 429 and retried');
    await assert.rejects(api.evaluateInvocations({ evalCase: c, actual: actual[c.eval_id], config: judged, judge: judgeOf(fakeJudge()), onJudgeStats: 'yes' }),
      (e) => e instanceof api.EvalError && e.code === 'schema' && e.path === '$.onJudgeStats');
    await assert.rejects(api.evaluateInvocations({ evalCase: c, actual: actual[c.eval_id], config: judged, judge: judgeOf(fakeJudge()), onJudgeStats: () => { throw new Error('boom'); } }),
      (e) => e instanceof api.EvalError && e.code === 'callback_error' && e.path === '$.onJudgeStats' && /boom/.test(e.message));
    // Without a judge there is nothing to count.
    const plain = await api.evaluate({ evalSet, actual, config });
    assert.equal(plain.judge_stats, undefined);
  });

  test('the recorded run sums its cases\' counters; a remote run the counters the endpoints stream with the cases it keeps', async () => {
    const here = await api.evaluate({ evalSet, actual, config: judged, judge: judgeOf(fakeJudge(3)) });
    assert.deepEqual(here.judge_stats, counters(24, 1));
    const endpoint = createHandler({ judge: judgeOf(fakeJudge()) });
    const there = await api.evaluate({ evalSet, actual, config: judged, remote: { endpoints: ['http://a.test', 'http://b.test'], fetch: inProcess(endpoint) } });
    assert.deepEqual(there.judge_stats, counters(24));
    const { judge_stats: a, ...hereRest } = here;
    const { judge_stats: b, ...thereRest } = there;
    assert.deepEqual(thereRest.eval_case_results, hereRest.eval_case_results);
    // Every line sent twice: each case and its counters kept once.
    const twice = async (url, init) => {
      const res = await inProcess(endpoint)(url, init);
      const text = await res.text();
      return new Response(text.split('\n').filter((l) => l !== '').map((l) => `${l}\n${l}\n`).join(''), { status: res.status, headers: res.headers });
    };
    const doubled = await api.evaluate({ evalSet, actual, config: judged, remote: { endpoints: ['http://a.test'], fetch: twice } });
    assert.deepEqual(doubled.judge_stats, counters(24));
    // Counters an endpoint gets wrong are not added.
    const wrong = async (url, init) => {
      const res = await inProcess(endpoint)(url, init);
      const text = (await res.text()).replace(/"sent":2/g, '"sent":-7').replace(/"requests":2/g, '"requests":"many"');
      return new Response(text, { status: res.status, headers: res.headers });
    };
    const odd = await api.evaluate({ evalSet, actual, config: judged, remote: { endpoints: ['http://a.test'], fetch: wrong } });
    assert.deepEqual(odd.judge_stats, { ...counters(24), requests: 0, sent: 0 });
  });
});
