// The endpoint's limits and configuration on a real Node http server (createHandler + the Node
// bridge, in this process so agents can be functions): judge calls per request (refused when
// planned, budget_exhausted when run), requests in flight (429), agent turn timeout, a client
// disconnect aborting the request's judge calls, the request log, and configuration errors
// (environment variables, createHandler options, `evalcore serve` flags).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EvalError, getLimits, setLimits } from '../../pkg/index.js';
import { DEFAULT_LIMITS, createHandler, optionsFromEnv } from '../../pkg/lib/server/index.js';
import { serveNode } from '../../pkg/lib/server/node.js';
import { SERVER_ENV } from '../../pkg/lib/server/config.js';
import { startJudgeServer } from '../js/support/judge-server.mjs';
import { readFileSync } from 'node:fs';
import { evaluate } from '../../pkg/index.js';
import { PKG, ROOT, call, callNdjson, stable, startNode } from './support.mjs';

const KEY = 'sk-limits-secret-93b1d7e0c4';
const VALID = '{"reasoning": "The answers agree.", "is_the_agent_response_valid": "valid"}';
const JUDGED = { criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } };

const caseOf = (id, text = 'hi', answer = 'hello') => ({
  eval_id: id,
  conversation: [{ invocation_id: `${id}-1`, user_content: { role: 'user', parts: [{ text }] }, final_response: { role: 'model', parts: [{ text: answer }] } }],
});
const setOf = (n, prefix = 'c') => ({ eval_set_id: 'limits', eval_cases: Array.from({ length: n }, (_, i) => caseOf(`${prefix}${i}`, `question ${i}`, `answer ${i}`)) });
const recorded = (set) => Object.fromEntries(set.eval_cases.map((c) => [c.eval_id, [{ invocation_id: 'a', user_content: c.conversation[0].user_content, final_response: c.conversation[0].final_response }]]));

let judge;
const logs = [];
const open = [];

async function serve(options) {
  const s = await serveNode(createHandler({
    judge: { provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl, headers: { authorization: `Bearer ${KEY}` } },
    log: (e) => logs.push(e),
    ...options,
  }), { port: 0 });
  open.push(s);
  return s;
}

before(async () => {
  judge = await startJudgeServer();
});
after(async () => {
  await Promise.all(open.map((s) => s.close()));
  await judge.close();
});

describe('limits', () => {
  test('judge calls per request: a recorded request planned over maxCalls is refused before any call', async () => {
    judge.script(() => VALID);
    const s = await serve({ limits: { maxCalls: 3 } });
    const set = setOf(4);
    const a = await call(s.url, '/v1/evaluate', { body: { evalSet: set, config: JUDGED, actual: recorded(set) } });
    assert.equal(a.status, 413, a.text);
    assert.equal(a.body.error.code, 'too_many_judge_calls');
    assert.match(a.body.error.message, /4 judge calls.*at most 3/);
    assert.equal(judge.requests.length, 0, 'no judge call was made');
    const ok = await call(s.url, '/v1/evaluate', { body: { evalSet: setOf(3), config: JUDGED, actual: recorded(setOf(3)) } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(judge.requests.length, 3);
    assert.ok(ok.body.eval_case_results.every((r) => r.final_eval_status === 'PASSED'));
  });

  test('judge pace per request: judgeConcurrency (never above the server\'s), judgeCallsPerMinute, and a 429 pausing the instance', async () => {
    const s = await serve({ limits: { judgeConcurrency: 4, caseConcurrency: 8 } });
    const set = setOf(12);
    const over = await call(s.url, '/v1/evaluate', { body: { evalSet: set, config: JUDGED, actual: recorded(set), judgeConcurrency: 5 } });
    assert.equal(over.status, 400, over.text);
    assert.equal(over.body.error.path, '$.judgeConcurrency');
    assert.match(over.body.error.message, /judgeConcurrency is 5; .* at most 4/);
    for (const [v, path] of [[0, '$.judgeConcurrency'], [1.5, '$.judgeCallsPerMinute']]) {
      const bad = await call(s.url, '/v1/evaluate', { body: { evalSet: set, config: JUDGED, actual: recorded(set), [path.slice(2)]: v } });
      assert.equal(bad.status, 400, bad.text);
      assert.equal(bad.body.error.path, path);
    }
    judge.script(() => ({ text: VALID, delayMs: 100 }));
    // Eight cases scored at once, their judge calls two at a time.
    const two = await call(s.url, '/v1/evaluate', { body: { evalSet: set, config: JUDGED, actual: recorded(set), judgeConcurrency: 2 } });
    assert.equal(two.status, 200, two.text);
    assert.equal(judge.requests.length, 12);
    assert.equal(judge.maxInFlight, 2);
    judge.script(() => ({ text: VALID, delayMs: 100 }));
    const four = await call(s.url, '/v1/evaluate', { body: { evalSet: set, config: JUDGED, actual: recorded(set) } });
    assert.equal(four.status, 200, four.text);
    assert.equal(judge.maxInFlight, 4, 'the server\'s own limit when the request names none');
    // 600 calls a minute: one start every 100 ms at least, on the pace's own clock. Each start is
    // timed by the Date.now() the pace read as it let the call go (the last one read before it
    // calls the judge's fetch, synchronously): a clock read anywhere else includes a delay load
    // stretches for one call and not the next (at the judge, gaps of 30-85 ms were seen; even
    // read inside that fetch, 68 ms once, the process preempted between the two reads).
    judge.script(() => VALID);
    const sent = [];
    const realNow = Date.now;
    let lastRead = 0;
    const timed = await serve({
      limits: { judgeConcurrency: 4, caseConcurrency: 8 },
      judge: { provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl, headers: { authorization: `Bearer ${KEY}` }, fetch: (input, init) => { sent.push(lastRead); return fetch(input, init); } },
    });
    const paced = setOf(5);
    const before = judge.requests.length;
    let pacedRun;
    Date.now = () => (lastRead = realNow());
    try {
      pacedRun = await call(timed.url, '/v1/evaluate', { body: { evalSet: paced, config: JUDGED, actual: recorded(paced), judgeCallsPerMinute: 600 } });
    } finally {
      Date.now = realNow;
    }
    assert.equal(pacedRun.status, 200, pacedRun.text);
    assert.equal(sent.length, 5, 'one judge call per case, each started by the pace');
    assert.equal(judge.requests.length - before, 5, 'and each reached the judge');
    const gaps = sent.slice(1).map((t, i) => t - sent[i]);
    gaps.forEach((gap, i) => assert.ok(gap >= 100, `call ${i + 1} started ${gap} ms after the one before (gaps ${gaps.join(', ')} ms)`));
    // The judge says 429 once (Retry-After 1 s): the stream reports it, and no call of any
    // request of this instance starts for that second.
    let first = true;
    judge.script(() => {
      if (!first) return VALID;
      first = false;
      return { status: 429, error: 'slow down', retryAfter: 1 };
    });
    const t0 = judge.requests.length;
    const [a, b] = await Promise.all([
      callNdjson(s.url, '/v1/evaluate', { evalSet: setOf(3, 'a'), config: JUDGED, actual: recorded(setOf(3, 'a')), judgeConcurrency: 1 }),
      (async () => {
        await new Promise((r) => setTimeout(r, 150));
        return callNdjson(s.url, '/v1/evaluate', { evalSet: setOf(3, 'b'), config: JUDGED, actual: recorded(setOf(3, 'b')), judgeConcurrency: 1 });
      })(),
    ]);
    assert.deepEqual(a.lines.filter((l) => l.judge_throttled).map((l) => l.judge_throttled), [{ retry_after_ms: 1000 }]);
    assert.ok(a.lines.at(-1).summary && b.lines.at(-1).summary);
    assert.ok([...a.lines, ...b.lines].filter((l) => l.eval_id).every((r) => r.final_eval_status === 'PASSED'));
    const calls = judge.requests.slice(t0);
    const throttledAt = calls[0].arrivedAt;
    const next = calls.slice(1).map((r) => r.arrivedAt - throttledAt);
    assert.ok(next.every((ms) => ms >= 950), `after the 429 the next calls came ${next.map((m) => m.toFixed(0)).join(', ')} ms later`);
  });

  test('judge calls per request: an agent run stops at maxCalls (budget_exhausted, named in the summary)', async () => {
    judge.script(() => VALID);
    const s = await serve({ limits: { maxCalls: 2 }, agents: { echo: async (turn) => `answer ${turn.text.split(' ')[1]}` } });
    const r = await callNdjson(s.url, '/v1/evaluate', { evalSet: setOf(5), agent: 'echo', config: JUDGED });
    assert.equal(r.status, 200, r.text);
    assert.ok(judge.requests.length <= 2, `${judge.requests.length} judge calls`);
    const summary = r.lines.at(-1).summary;
    // Every case is accounted for: a result line, or listed as skipped (the core runs no case
    // once the budget is spent).
    const streamed = r.lines.slice(0, -1).map((l) => l.eval_id);
    const skipped = summary.skipped.map((x) => x.eval_id);
    assert.deepEqual([...streamed, ...skipped].sort(), ['c0', 'c1', 'c2', 'c3', 'c4']);
    assert.equal(summary.counts.cases + summary.counts.skipped, 5);
    assert.ok(summary.skipped.every((x) => x.reason === 'budget_exhausted'));
    assert.equal(summary.judge_calls, 2);
    assert.equal(summary.judge_stats.budget_exhausted, true);
    const reasons = summary.run_health.byReason.map((g) => g.reason);
    assert.deepEqual(reasons, ['budget_exhausted']);
    assert.equal(summary.counts.passed, 2);
    assert.equal(summary.run_health.count, summary.counts.not_evaluated);
  });

  test('judge prompt size: a prompt_template filled past maxPromptBytes is NOT_EVALUATED and never sent; the limit is configurable', async () => {
    // A 0.2 MB request whose template repeats {agent_data}: filled, it would be ~96 MiB.
    const answer = 'a'.repeat(200_000);
    const set = { eval_set_id: 'prompt', eval_cases: [caseOf('big', 'question', answer)] };
    const metric = (times) => ({ criteria: { rated: { threshold: 0.5, prompt_template: `Rate this. ${'{agent_data}\n'.repeat(times)}` } } });
    const sentBytes = () => judge.requests.reduce((n, r) => n + Buffer.byteLength(r.rawBody), 0);
    const rated = (body) => body.eval_case_results[0].overall_eval_metric_results.find((m) => m.metric_name === 'rated');
    judge.script(() => '{"score": 1, "explanation": "fine"}');
    const s = await serve({});
    judge.requests.length = 0;
    const big = await call(s.url, '/v1/evaluate', { body: { evalSet: set, config: metric(480), actual: recorded(set) } });
    assert.equal(big.status, 200, big.text.slice(0, 500));
    assert.equal(judge.requests.length, 0, 'no judge call was made');
    assert.equal(rated(big.body).eval_status, 'NOT_EVALUATED');
    assert.equal(rated(big.body).details.reason, 'prompt_too_large');
    assert.match(rated(big.body).details.error, new RegExp(`over \`judge.maxPromptBytes\` \\(${DEFAULT_LIMITS.maxPromptBytes}\\)`));
    // Below the bound the prompt is sent, whole; configured lower, the same prompt is refused.
    const fits = await call(s.url, '/v1/evaluate', { body: { evalSet: set, config: metric(2), actual: recorded(set) } });
    assert.equal(rated(fits.body).eval_status, 'PASSED', fits.text.slice(0, 500));
    assert.equal(judge.requests.length, 1);
    assert.ok(sentBytes() > 400_000 && sentBytes() < DEFAULT_LIMITS.maxPromptBytes, `${sentBytes()} bytes sent`);
    const low = await serve({ limits: { maxPromptBytes: 300_000 } });
    judge.requests.length = 0;
    const refused = await call(low.url, '/v1/evaluate', { body: { evalSet: set, config: metric(2), actual: recorded(set) } });
    assert.equal(rated(refused.body).details.reason, 'prompt_too_large', refused.text.slice(0, 500));
    assert.equal(judge.requests.length, 0);
    // A built-in metric's prompt is bounded too: final_response_match_v2 on the 200 KB answer.
    const frm = await call(low.url, '/v1/evaluate', { body: { evalSet: { eval_set_id: 'p', eval_cases: [caseOf('b2', 'q', 'b'.repeat(400_000))] }, config: JUDGED, actual: recorded({ eval_cases: [caseOf('b2', 'q', 'b'.repeat(400_000))] }) } });
    const m = frm.body.eval_case_results[0].overall_eval_metric_results.find((x) => x.metric_name === 'final_response_match_v2');
    assert.equal(m.details.reason, 'prompt_too_large', frm.text.slice(0, 500));
    assert.equal(judge.requests.length, 0);
  });

  test('requests in flight: over maxConcurrent is 429 with Retry-After; the slot comes back', async () => {
    let release;
    const gate = new Promise((r) => { release = r; });
    const s = await serve({ limits: { maxConcurrent: 1 }, agents: { wait: async () => { await gate; return 'hello'; } } });
    const first = call(s.url, '/v1/evaluate', { body: { evalSet: setOf(1), agent: 'wait', config: { criteria: { response_match_score: 0.5 } } } });
    await new Promise((r) => setTimeout(r, 200));
    const second = await call(s.url, '/v1/evaluate', { body: { evalSet: setOf(1), agent: 'wait' } });
    assert.equal(second.status, 429, second.text);
    assert.equal(second.body.error.code, 'too_many_requests');
    assert.equal(second.headers['retry-after'], '1');
    release();
    assert.equal((await first).status, 200);
    const third = await call(s.url, '/v1/evaluate', { body: { evalSet: setOf(1), agent: 'wait' } });
    assert.equal(third.status, 200, third.text);
    // A stream gives its slot back when it ends, and so does a refused request.
    for (let i = 0; i < 3; i++) {
      const streamed = await callNdjson(s.url, '/v1/evaluate', { evalSet: setOf(1), agent: 'wait' });
      assert.equal(streamed.status, 200, streamed.text);
      const refused = await call(s.url, '/v1/evaluate', { body: { evalSet: setOf(1), agent: 'nobody' } });
      assert.equal(refused.status, 400, refused.text);
    }
    assert.equal((await call(s.url, '/v1/evaluate', { body: { evalSet: setOf(1), agent: 'wait' } })).status, 200);
  });

  test('agent turn timeout: a turn that never answers fails its case (agent_timeout), the others complete', async () => {
    const s = await serve({ limits: { agentTimeoutMs: 300 }, agents: { stuck: (turn) => (turn.evalId === 'c1' ? new Promise(() => {}) : 'answer') } });
    const a = await call(s.url, '/v1/evaluate', { body: { evalSet: setOf(3), agent: 'stuck', config: { criteria: { response_match_score: 0.1 } } } });
    assert.equal(a.status, 200, a.text);
    const byId = Object.fromEntries(a.body.eval_case_results.map((r) => [r.eval_id, r]));
    assert.equal(byId.c1.final_eval_status, 'FAILED');
    assert.equal(byId.c1.error.code, 'agent_timeout');
    assert.equal(byId.c0.final_eval_status, 'PASSED');
  });

  test('a client disconnect aborts the request\'s judge calls', async () => {
    judge.script(() => ({ fault: 'hang' }));
    const s = await serve({ agents: { echo: async () => 'answer' } });
    const controller = new AbortController();
    const pending = fetch(`${s.url}/v1/evaluate`, {
      method: 'POST', signal: controller.signal, headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify({ evalSet: setOf(2), agent: 'echo', config: JUDGED }),
    }).then((res) => res.text()).catch((e) => e.name);
    const deadline = Date.now() + 10_000;
    while (judge.requests.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(judge.requests.length, 2, 'both judge calls are in flight');
    controller.abort();
    assert.equal(await pending, 'AbortError');
    while (judge.requests.some((r) => r.finishedAt === null) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(judge.requests.every((r) => r.clientAborted), 'the server dropped both judge calls');
  });

  test('a client that leaves a JSON (not streamed) request stops its agent turns too', async () => {
    const turns = [];
    const s = await serve({ limits: { caseConcurrency: 1 }, agents: { slow: async (turn) => { turns.push(turn.evalId); await new Promise((r) => setTimeout(r, 150)); return 'answer'; } } });
    const controller = new AbortController();
    const pending = fetch(`${s.url}/v1/evaluate`, {
      method: 'POST', signal: controller.signal, headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ evalSet: setOf(10), agent: 'slow' }),
    }).catch((e) => e.name);
    while (turns.length < 2) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    assert.equal(await pending, 'AbortError');
    await new Promise((r) => setTimeout(r, 400));
    const atAbort = turns.length;
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(turns.length, atAbort, 'no turn started after the client left');
    assert.ok(atAbort < 10, `${atAbort} of 10 turns ran`);
  });

  test('a body or case count over its limit names the limit; defaults are documented values', async () => {
    assert.deepEqual({ ...DEFAULT_LIMITS }, {
      maxBodyBytes: 10 * 1024 * 1024, maxCases: 100, maxRuns: 5, maxCalls: 200, maxConcurrent: 64, agentTimeoutMs: 60_000, caseConcurrency: 4,
      judgeConcurrency: 16, maxParseBytes: 128 * 1024 * 1024, maxAnswerBytes: 32 * 1024 * 1024, bodyTimeoutMs: 60_000,
      maxPromptBytes: 1024 * 1024,
      // /v1/traces (docs/traces.md)
      maxTraceBytes: 32 * 1024 * 1024, maxTraceInflations: 4, maxSessionSpans: 10_000, maxTraceSessions: 1_000, maxHeldTraceBytes: 256 * 1024 * 1024,
      traceIdleMs: 300_000, traceRetentionMs: 30 * 24 * 3600 * 1000,
      // The run limits (docs/runs.md).
      maxRunCases: 10_000, maxRunBodyBytes: 64 * 1024 * 1024, runConcurrency: 8, maxActiveRuns: 16,
    });
    const s = await serve({ limits: { maxCases: 2, maxBodyBytes: 5000 } });
    const many = await call(s.url, '/v1/evaluate', { body: { evalSet: setOf(3), actual: recorded(setOf(3)) } });
    assert.equal(many.status, 413);
    assert.equal(many.body.error.code, 'too_many_cases');
    assert.match(many.body.error.message, /3 cases.*at most 2 per request \(maxCases\)/);
    const big = await call(s.url, '/v1/validate', { body: { config: { criteria: {}, pad: 'x'.repeat(6000) } } });
    assert.equal(big.status, 413);
    assert.match(big.body.error.message, /limit is 5000/);
  });

  test('the parse budget: the core refuses a body of tiny values before parsing it (413), the server lowers it, never raises it', async () => {
    const before = getLimits().maxParseBytes;
    try {
      const s = await serve({ limits: { maxParseBytes: 4 * 1024 * 1024 } });
      assert.equal(getLimits().maxParseBytes, 4 * 1024 * 1024);
      const tiny = await call(s.url, '/v1/evaluate', { raw: `{"evalSet": {"eval_set_id": "t", "eval_cases": [${'0,'.repeat(100_000)}0]}, "actual": {}}` });
      assert.equal(tiny.status, 413, tiny.text);
      assert.equal(tiny.body.error.code, 'too_large');
      assert.match(tiny.body.error.message, /100007 values\) would take about [\d.]+ MiB .*over the limit of 4.0 MiB/);
      const fine = await call(s.url, '/v1/evaluate', { body: { evalSet: setOf(2), actual: recorded(setOf(2)) } });
      assert.equal(fine.status, 200, fine.text);
      createHandler({ limits: { maxParseBytes: 64 * 1024 * 1024 } });
      assert.equal(getLimits().maxParseBytes, 4 * 1024 * 1024, 'a second handler does not raise it');
    } finally {
      setLimits({ maxParseBytes: before });
    }
  });

  test('a case the core refuses: 400 with the case\'s path as JSON; as ndjson, the results so far and an error line', async () => {
    const s = await serve({ limits: { caseConcurrency: 1 } });
    const set = setOf(3);
    const actual = recorded(set);
    actual.c2 = [...actual.c2, ...actual.c2];
    const a = await call(s.url, '/v1/evaluate', { body: { evalSet: set, actual } });
    assert.equal(a.status, 400, a.text);
    assert.equal(a.body.error.code, 'count_mismatch');
    assert.equal(a.body.error.path, '$.actual.c2');
    const r = await callNdjson(s.url, '/v1/evaluate', { evalSet: set, actual });
    assert.equal(r.status, 200);
    assert.deepEqual(r.lines.slice(0, -1).map((l) => l.eval_id), ['c0', 'c1']);
    assert.deepEqual(r.lines.at(-1).error, { code: 'count_mismatch', path: '$.actual.c2', message: a.body.error.message });
    // The same with a judged metric: the planning of the judge calls refuses it the same way.
    const judged = await call(s.url, '/v1/evaluate', { body: { evalSet: set, actual, config: JUDGED } });
    assert.equal(judged.status, 400, judged.text);
    assert.deepEqual(judged.body.error, a.body.error);
  });

  test('node: a body refused by its declared length is answered at once and its connection closed, not left hanging', async () => {
    const s = await serve({ limits: { maxBodyBytes: 1000 } });
    const { port } = new URL(s.url);
    const started = Date.now();
    const got = await new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/v1/evaluate', headers: { 'content-length': 5_000_000, 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (d) => { text += d; });
        res.socket.on('close', () => resolve({ status: res.statusCode, connection: res.headers.connection, text, ms: Date.now() - started }));
      });
      req.on('error', reject);
      req.write('x'.repeat(100_000));
    });
    assert.equal(got.status, 413);
    assert.equal(got.connection, 'close');
    assert.equal(JSON.parse(got.text).error.code, 'too_large');
    assert.ok(got.ms < 5_000, `the connection closed after ${got.ms} ms`);
  });

  test('the request log: method, path, status, time and error code, never a key', async () => {
    const s = await serve({ token: 'log-token-5d2c' });
    logs.length = 0;
    await call(s.url, '/v1/metrics', { method: 'GET', headers: { authorization: 'Bearer wrong' } });
    await call(s.url, '/healthz', { method: 'GET' });
    assert.deepEqual(logs.map((e) => [e.method, e.path, e.status, e.code]), [['GET', '/v1/metrics', 401, 'unauthorized'], ['GET', '/healthz', 200, undefined]]);
    assert.ok(logs.every((e) => typeof e.ms === 'number'));
    assert.ok(!JSON.stringify(logs).includes(KEY) && !JSON.stringify(logs).includes('log-token-5d2c'));
  });
});

describe('configuration', () => {
  test('optionsFromEnv: judge, key per provider, token, agents, limits; errors name the variable, not its value', () => {
    const o = optionsFromEnv({ EVALCORE_JUDGE: 'anthropic:claude-x', ANTHROPIC_API_KEY: 'ak-1', OPENAI_API_KEY: 'ok-2', EVALCORE_TOKEN: 't', EVALCORE_MAX_CASES: '7', EVALCORE_AGENTS: '{"a": "https://agent.example/turn"}' });
    assert.deepEqual(o, { limits: { maxCases: 7 }, token: 't', judge: { provider: 'anthropic', model: 'claude-x', headers: { 'x-api-key': 'ak-1' } }, agents: { a: { url: 'https://agent.example/turn' } } });
    assert.deepEqual(optionsFromEnv({ EVALCORE_JUDGE: 'gemini:g', GOOGLE_API_KEY: 'gk' }).judge.headers, { 'x-goog-api-key': 'gk' });
    assert.equal(optionsFromEnv({ EVALCORE_JUDGE: 'openai:m' }).judge.headers, undefined);
    assert.equal(optionsFromEnv({ EVALCORE_JUDGE: 'openai:m', EVALCORE_JUDGE_MEDIA: '1' }).judge.media, true);
    assert.equal(optionsFromEnv({ EVALCORE_JUDGE: 'openai:m', EVALCORE_JUDGE_MEDIA: '0' }).judge.media, undefined);
    assert.equal(typeof optionsFromEnv({ EVALCORE_LOG: '1' }).log, 'function');
    assert.equal(optionsFromEnv({ EVALCORE_LOG: '0' }).log, undefined);
    for (const [env, path] of [
      [{ EVALCORE_JUDGE: 'secret-looking-value' }, 'EVALCORE_JUDGE'],
      [{ EVALCORE_JUDGE_BASE_URL: 'http://x' }, 'EVALCORE_JUDGE_BASE_URL'],
      [{ EVALCORE_AGENTS: '{"a": "file:///etc/passwd"}' }, 'EVALCORE_AGENTS.a'],
      [{ EVALCORE_AGENTS: 'not json' }, 'EVALCORE_AGENTS'],
      [{ EVALCORE_MAX_CASES: '0' }, 'EVALCORE_MAX_CASES'],
      [{ EVALCORE_MAX_BODY_BYTES: '1e9' }, 'EVALCORE_MAX_BODY_BYTES'],
      [{ EVALCORE_LOG: 'yes' }, 'EVALCORE_LOG'],
      [{ EVALCORE_JUDGE: 'openai:m', EVALCORE_JUDGE_MEDIA: 'yes' }, 'EVALCORE_JUDGE_MEDIA'],
      [{ EVALCORE_JUDGE_MEDIA: '1' }, 'EVALCORE_JUDGE_MEDIA'],
      [{ EVALCORE_CORS_ORIGINS: 'https://a.example/path' }, 'EVALCORE_CORS_ORIGINS'],
    ]) {
      assert.throws(() => optionsFromEnv(env), (e) => e instanceof EvalError && e.code === 'config' && e.path === path && !e.message.includes('secret-looking-value'), JSON.stringify(env));
    }
  });

  test('createHandler: unknown limits, bad agents and a bad judge are refused at creation', () => {
    assert.throws(() => createHandler({ limits: { maxCase: 3 } }), /unknown limit "maxCase"/);
    assert.throws(() => createHandler({ tokens: 'x' }), /unknown option "tokens"/);
    assert.throws(() => createHandler({ cors: ['app.example'] }), /cors must be/);
    assert.equal(optionsFromEnv({ EVALCORE_CORS_ORIGINS: ' https://a.example , * ' }).cors.join(' '), 'https://a.example *');
    assert.throws(() => createHandler({ limits: { maxCases: 0 } }), /at least 1/);
    assert.throws(() => createHandler({ agents: { a: { url: 'ftp://x' } } }), /function or \{url/);
    assert.throws(() => createHandler({ judge: { provider: 'openai' } }), /judge must be/);
  });

  test('evalcore serve: --help, a bad flag and a bad environment are usage errors (exit 2, one line)', () => {
    const bin = join(PKG, 'bin', 'evalcore.js');
    const help = spawnSync(process.execPath, [bin, 'serve', '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /EVALCORE_MAX_JUDGE_CALLS \(default 200\)/);
    // Every route it answers and every variable it reads, the trace receiver's included.
    for (const route of ['POST /v1/evaluate', 'POST /v1/validate', 'GET /v1/metrics', 'GET /healthz', '/v1/runs', 'POST /v1/traces', 'POST /v1/logs', 'GET /v1/traces/sessions', 'GET /v1/traces/sessions/ID', 'POST /v1/traces/flush']) {
      assert.ok(help.stdout.includes(route), `--help names ${route}`);
    }
    for (const name of SERVER_ENV) assert.match(help.stdout, new RegExp(`\\b${name}\\b`), `--help names ${name}`);
    assert.match(help.stdout, /EVALCORE_TRACE_IDLE_MS\s+\(default 300000\)/);
    const port = spawnSync(process.execPath, [bin, 'serve', '--port', 'x'], { encoding: 'utf8' });
    assert.equal(port.status, 2);
    assert.match(port.stderr, /^evalcore serve: --port must be a whole number/);
    const env = spawnSync(process.execPath, [bin, 'serve', '--port', '0'], { encoding: 'utf8', env: { PATH: process.env.PATH, EVALCORE_JUDGE: 'bogus' } });
    assert.equal(env.status, 2);
    assert.equal(env.stderr.trim().split('\n').length, 1);
    assert.match(env.stderr, /EVALCORE_JUDGE must be provider:model/);
  });
});

test('evalcore serve --agent NAME=MODULE runs an agent module as `evalcore eval` would load it, and as evaluate() runs it', async () => {
  const dir = join(ROOT, 'examples', 'hello_world');
  const server = await startNode({}, null, ['--agent', `hello=${join(dir, 'agent.mjs')}`, '--quiet']);
  try {
    const evalSet = readFileSync(join(dir, 'hello_world.evalset.json'), 'utf8');
    const config = JSON.parse(readFileSync(join(dir, 'test_config.json'), 'utf8'));
    const a = await call(server.url, '/v1/evaluate', { body: { evalSet, config, agent: 'hello' } });
    assert.equal(a.status, 200, a.text.slice(0, 400));
    const { agent } = await import(join(dir, 'agent.mjs'));
    const library = await evaluate({ evalSet, config, agent, concurrency: 4, agentTimeoutMs: 60_000 });
    const view = (r) => {
      const s = stable(r);
      for (const c of s.eval_case_results) {
        c.overall_eval_metric_results = c.overall_eval_metric_results.filter((m) => m.metric_name !== 'invocation_duration_v1');
        for (const p of c.eval_metric_result_per_invocation ?? []) p.eval_metric_results = p.eval_metric_results.filter((m) => m.metric_name !== 'invocation_duration_v1');
      }
      s.eval_case_results.sort((x, y) => (x.eval_id < y.eval_id ? -1 : 1));
      return s;
    };
    assert.deepEqual(view(a.body), view(JSON.parse(JSON.stringify(library))));
    assert.ok(a.body.eval_case_results.length >= 2);
    const bad = spawnSync(process.execPath, [join(PKG, 'bin', 'evalcore.js'), 'serve', '--agent', 'x'], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--agent takes NAME=MODULE pairs/);
  } finally {
    await server.stop();
  }
});
