// The judge transport of the built package, through its real `fetch`, against the loopback judge
// server in scripted mode: each provider's request shape and reply parsing, samples per
// invocation, bounded concurrency, per-call timeouts, retries with backoff and Retry-After,
// NOT_EVALUATED reasons, cassettes, dry runs, call budgets, and hostile `fetch` functions.
//
// The option names (judge.concurrency, timeoutMs, maxRetries, retryInitialDelayMs,
// retryMaxDelayMs, cassette, maxCalls; planJudgeCalls) are the contract of the judge work.
// Times are asserted as lower bounds (a loaded machine only makes waits longer) or with
// generous upper bounds that only an unbounded or uncapped implementation would exceed.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as ec from '../../pkg/index.js';
import { requestText, startJudgeServer } from './support/judge-server.mjs';

const METRIC = 'final_response_match_v2';
const VALID = '{"reasoning": "The answers agree.", "is_the_agent_response_valid": "valid"}';
const INVALID = '{"reasoning": "The answers differ.", "is_the_agent_response_valid": "invalid"}';
const marker = (k) => `[inv-0000000${k}]`;
const qtag = (k) => `[q-0000000${k}]`;

/** A static case of `n` turns and the actual invocations answering it. */
function fixture(n = 2) {
  const turns = Array.from({ length: n }, (_, i) => i + 1);
  const user = (k) => ({ role: 'user', parts: [{ text: `${marker(k)} What is ${k} plus ${k}? ${qtag(k)}` }] });
  return {
    evalCase: {
      eval_id: 'transport',
      conversation: turns.map((k) => ({
        invocation_id: `e-${k}`,
        user_content: user(k),
        final_response: { role: 'model', parts: [{ text: `${2 * k}` }] },
      })),
    },
    actual: turns.map((k) => ({
      invocation_id: `a-${k}`,
      user_content: user(k),
      final_response: { role: 'model', parts: [{ text: `${marker(k)} ${k} plus ${k} is ${2 * k}.` }] },
      intermediate_data: { invocation_events: [] },
    })),
  };
}

const frm = (numSamples, extra = {}) => ({
  criteria: { [METRIC]: { threshold: 0.5, judge_model_options: { num_samples: numSamples }, ...extra } },
});

/** judge.concurrency when not given (the Judge type's documented default). */
const DEFAULT_CONCURRENCY = 8;
const PREFIX = { openai: '/v1', gemini: '/v1beta', anthropic: '/v1' };
let server;
let work;
before(async () => {
  server = await startJudgeServer();
  work = mkdtempSync(join(tmpdir(), 'evalcore-judge-transport-'));
});
after(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Judge options pointing at the server; fast retries unless a test says otherwise. */
const judgeFor = (provider = 'openai', extra = {}) => ({
  provider, model: 'judge-m', baseUrl: server.baseUrl + PREFIX[provider], retryInitialDelayMs: 1, retryMaxDelayMs: 20, ...extra,
});

async function run({ n = 2, config = frm(3), judge = judgeFor(), evalCase, actual } = {}) {
  const f = fixture(n);
  return ec.evaluateInvocations({ evalCase: evalCase ?? f.evalCase, actual: actual ?? f.actual, config, judge });
}

const overall = (res, name = METRIC) => res.overall_eval_metric_results.find((m) => m.metric_name === name);
const perInv = (res, name = METRIC) => res.eval_metric_result_per_invocation.map((p) => p.eval_metric_results.find((m) => m.metric_name === name));
const reasonOf = (m) => m?.details?.reason;
const messageOf = (m) => String(m?.details?.error ?? m?.details?.message ?? '');

/** The invocation (1-based) a request is about, from its marker. */
function turnOf(req) {
  const m = /\[inv-0000000(\d)\]/.exec(requestText(req.wire, req.body));
  return m ? Number(m[1]) : null;
}

/** Answers VALID for the turns in `valid`, INVALID otherwise. */
const byTurn = (valid, extra = {}) => (req) => ({ text: valid.includes(turnOf(req)) ? VALID : INVALID, ...extra });

/** Asserts the metric is NOT_EVALUATED for `reason` overall or, when given, in invocation `i`. */
function assertNotEvaluated(res, reason, { invocation } = {}) {
  const m = invocation === undefined ? overall(res) : perInv(res)[invocation];
  const where = invocation === undefined ? 'overall' : `invocation ${invocation}`;
  assert.equal(m.eval_status, 'NOT_EVALUATED', `${where}: ${JSON.stringify(m)}`);
  assert.equal(m.score ?? null, null);
  const reasons = [reasonOf(m), ...(invocation === undefined ? perInv(res).map(reasonOf) : [])];
  assert.ok(reasons.includes(reason), `${where}: expected details.reason ${reason}, got ${JSON.stringify(reasons)} (${messageOf(m)})`);
}

// ---------------------------------------------------------------------------------------------

describe('request shape and reply parsing per provider', () => {
  for (const provider of ['openai', 'gemini', 'anthropic']) {
    test(`${provider}: URL, method, headers, body; replies parsed into verdicts`, async () => {
      server.script(byTurn([1]));
      const res = await run({ config: frm(3), judge: judgeFor(provider, { headers: { 'x-team': 'evals', authorization: 'Bearer secret' } }) });
      const reqs = server.requests;
      assert.ok(reqs.length > 0, 'no judge request reached the server');
      for (const r of reqs) {
        assert.equal(r.method, 'POST');
        assert.equal(r.wire, provider, `${r.path} is not a ${provider} path`);
        assert.equal(r.headers['x-team'], 'evals');
        assert.equal(r.headers.authorization, 'Bearer secret');
        assert.match(r.headers['content-type'] ?? '', /^application\/json/);
        const text = requestText(provider, r.body);
        const k = turnOf(r);
        assert.ok(k === 1 || k === 2, 'one marker per request');
        // final_response_match_v2's prompt: user prompt, response, reference.
        assert.ok(text.includes(qtag(k)), 'the user prompt is in the request');
        assert.ok(text.includes(`${k} plus ${k} is ${2 * k}.`), 'the response is in the request');
        if (provider === 'openai') {
          assert.equal(r.path, '/v1/chat/completions');
          assert.equal(r.body.model, 'judge-m');
          assert.equal(r.body.messages.length, 1);
          assert.equal(r.body.messages[0].role, 'user');
        } else if (provider === 'gemini') {
          assert.equal(r.path, '/v1beta/models/judge-m:generateContent');
          assert.equal(r.body.contents.length, 1);
          assert.equal(r.body.contents[0].role, 'user');
          assert.equal(r.body.contents[0].parts.length, 1);
        } else {
          assert.equal(r.path, '/v1/messages');
          assert.equal(r.body.model, 'judge-m');
          assert.ok(r.headers['anthropic-version'], 'anthropic-version header');
          assert.ok(Number.isInteger(r.body.max_tokens) && r.body.max_tokens > 0);
          assert.equal(r.body.messages.length, 1);
          assert.equal(r.body.messages[0].role, 'user');
        }
      }
      // Samples: separate calls, or one call asking for n answers; 3 answers per invocation.
      const asked = (k) => reqs.filter((r) => turnOf(r) === k)
        .reduce((s, r) => s + (provider === 'openai' ? r.body.n ?? 1 : provider === 'gemini' ? r.body.generationConfig?.candidateCount ?? 1 : 1), 0);
      assert.deepEqual([asked(1), asked(2)], [3, 3]);
      assert.deepEqual(perInv(res).map((m) => [m.eval_status, m.score]), [['PASSED', 1], ['FAILED', 0]]);
      assert.equal(overall(res).score, 0.5);
      assert.equal(overall(res).eval_status, 'PASSED');
    });
  }

  test('num_samples calls per invocation: 1, 4, and 5 when not given (bare threshold)', async () => {
    for (const [config, want] of [[frm(1), 1], [frm(4), 4], [{ criteria: { [METRIC]: 0.5 } }, 5]]) {
      server.script(byTurn([1, 2]));
      const res = await run({ n: 2, config });
      const per = [1, 2].map((k) => server.requests.filter((r) => turnOf(r) === k).reduce((s, r) => s + (r.body.n ?? 1), 0));
      assert.deepEqual(per, [want, want], JSON.stringify(config));
      assert.equal(overall(res).eval_status, 'PASSED');
    }
  });

  // A request's identity is its content plus its sample index (the rule): the samples of
  // one invocation are separate calls, but the same (request, sample) met again in a run, here a
  // second invocation identical to the first, is sent once and its answers reused. (Lines of
  // judge_oracles.jsonl never repeat a request: each invocation carries its own marker.)
  test('identical invocations share their judge calls: num_samples calls in all, same verdicts', async () => {
    server.script({}, { fallback: VALID });
    const user = { role: 'user', parts: [{ text: 'hi' }] };
    const turn = (id) => ({ invocation_id: id, user_content: user, final_response: { role: 'model', parts: [{ text: 'Hello!' }] } });
    const res = await run({ evalCase: { eval_id: 'same', conversation: [turn('e-1'), turn('e-2')] }, actual: [turn('a-1'), turn('a-2')], config: frm(2) });
    assert.equal(server.requests.reduce((s, r) => s + (r.body.n ?? 1), 0), 2, 'one call per sample index, shared by both invocations');
    const samples = server.requests.map((r) => JSON.stringify(r.body));
    assert.equal(new Set(samples).size, 1, 'both calls carry the same prompt');
    const per = res.eval_metric_result_per_invocation.map((p) => p.eval_metric_results[0].score);
    assert.deepEqual(per, [1, 1]);
    assert.equal(overall(res).score, 1);
  });

  test('hallucinations_v1: identical step texts are separate segmenter and validator calls', async () => {
    const validator = 'sentence: Same text.\nlabel: supported\nrationale: r\nsupporting_excerpt: null\ncontradicting_excerpt: null';
    server.script((req) => (requestText(req.wire, req.body).includes(qtag(1)) ? validator : '<sentence>Same text.</sentence>'));
    const f = fixture(1);
    const event = { author: 'root_agent', content: { role: 'model', parts: [{ text: `${marker(1)} Same text.` }] } };
    f.actual[0].intermediate_data = { invocation_events: [event, event] };
    const res = await run({ evalCase: f.evalCase, actual: f.actual, config: { criteria: { hallucinations_v1: { threshold: 0.5, evaluate_intermediate_nl_responses: true } } } });
    // Two intermediate steps and the final response: a segmenter and a validator call each.
    assert.equal(server.requests.length, 6);
    assert.equal(overall(res, 'hallucinations_v1').score, 1);
  });

  test('majority vote over the samples of an invocation (ties negative)', async () => {
    const answers = { 1: [VALID, VALID, INVALID], 2: [VALID, INVALID, 'no verdict here', INVALID] };
    const seen = { 1: 0, 2: 0 };
    server.script((req) => { const k = turnOf(req); return answers[k][seen[k]++ % answers[k].length]; });
    const res = await run({ config: frm(3) });
    assert.deepEqual(perInv(res).map((m) => m.score), [1, 0], 'VVI -> valid; V, I, no verdict -> a tie -> invalid');
    server.script((req) => { const k = turnOf(req); return [VALID, INVALID][seen[k]++ % 2]; });
    seen[1] = 0;
    seen[2] = 0;
    const tie = await run({ config: frm(2) });
    assert.deepEqual(perInv(tie).map((m) => m.score), [0, 0]);
  });
});

describe('concurrency', () => {
  test('judge.concurrency bounds the calls in flight (explicit 1, 2 and 4)', async () => {
    for (const concurrency of [1, 2, 4]) {
      server.script(byTurn([1, 2, 3], { delayMs: 250 }));
      await run({ n: 3, config: frm(4), judge: judgeFor('openai', { concurrency }) });
      assert.equal(server.requests.length, 12);
      assert.equal(server.maxInFlight, concurrency, `concurrency ${concurrency}: the server saw ${server.maxInFlight} in flight`);
      if (concurrency === 1) {
        const r = server.requests;
        for (let i = 1; i < r.length; i++) assert.ok(r[i].arrivedAt >= r[i - 1].finishedAt, 'sequential calls overlap');
      }
    }
  });

  test('many calls in flight trip no Node warning (e.g. MaxListenersExceededWarning)', async () => {
    const warnings = [];
    const onWarning = (w) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      // Each reply waits 1 s, so all 30 calls are in flight together even on a loaded machine.
      server.script(byTurn([1, 2, 3, 4, 5, 6], { delayMs: 1000 }));
      await run({ n: 6, config: frm(5), judge: judgeFor('openai', { concurrency: 30 }) });
      assert.equal(server.maxInFlight, 30);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(warnings, []);
  });

  test('the default: 8 calls in flight', async () => {
    // 500 ms per reply: time enough for 8 calls to be in flight together on a loaded machine.
    server.script(byTurn([1, 2, 3, 4, 5, 6], { delayMs: 500 }));
    await run({ n: 6, config: frm(5) });
    assert.equal(server.requests.length, 30);
    assert.equal(server.maxInFlight, DEFAULT_CONCURRENCY, `the server saw ${server.maxInFlight} calls in flight`);
  });

  test("a criterion's parallelism_limit bounds that metric's calls (ADK's JudgeModelOptions)", async () => {
    server.script(byTurn([1, 2, 3], { delayMs: 250 }));
    await run({ n: 3, config: { criteria: { [METRIC]: { threshold: 0.5, judge_model_options: { num_samples: 4, parallelism_limit: 2 } } } }, judge: judgeFor('openai', { concurrency: 8 }) });
    assert.equal(server.requests.length, 12);
    assert.equal(server.maxInFlight, 2);
  });
});

describe('timeouts and retries', () => {
  test('judge.timeoutMs: a reply that never comes makes the metric NOT_EVALUATED (judge_error)', async () => {
    server.script({ '*': [{ fault: 'hang' }] }, { fallback: { fault: 'hang' } });
    const t0 = performance.now();
    const res = await run({ n: 1, config: frm(1), judge: judgeFor('openai', { timeoutMs: 300, maxRetries: 0 }) });
    const took = performance.now() - t0;
    assertNotEvaluated(res, 'judge_error');
    assert.equal(server.requests.length, 1);
    assert.ok(took >= 280, `gave up after ${took} ms, before the timeout`);
    assert.ok(took < 20_000, `took ${took} ms for a 300 ms timeout`);
    for (let k = 0; k < 100 && server.inFlight > 0; k++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(server.requests[0].clientAborted, true, 'the timed-out request was not aborted');
  });

  test('a timed-out call is retried like a network error', async () => {
    server.script({ '*': [{ text: VALID, delayMs: 20_000 }] }, { fallback: VALID });
    const res = await run({ n: 1, config: frm(1), judge: judgeFor('openai', { timeoutMs: 300, maxRetries: 1 }) });
    assert.equal(server.requests.length, 2);
    assert.equal(overall(res).eval_status, 'PASSED');
  });

  const faults = [
    ['408', { status: 408 }], ['429', { status: 429 }], ['500', { status: 500 }], ['502', { status: 502 }],
    ['503', { status: 503 }], ['504', { status: 504 }], ['connection reset', { fault: 'reset' }],
  ];
  for (const [name, fault] of faults) {
    test(`retried: ${name} (maxRetries 2 recovers after two, maxRetries 1 gives up after two calls)`, async () => {
      server.script({ '*': [fault, fault] }, { fallback: VALID });
      const ok = await run({ n: 1, config: frm(1), judge: judgeFor('openai', { maxRetries: 2 }) });
      assert.equal(server.requests.length, 3);
      assert.equal(overall(ok).eval_status, 'PASSED');
      server.script({ '*': [fault, fault] }, { fallback: VALID });
      const failed = await run({ n: 1, config: frm(1), judge: judgeFor('openai', { maxRetries: 1 }) });
      assert.equal(server.requests.length, 2);
      assertNotEvaluated(failed, 'judge_error');
    });
  }

  for (const status of [400, 401, 403, 404]) {
    test(`not retried: ${status}`, async () => {
      server.script({ '*': [{ status, error: `scripted ${status}` }] }, { fallback: VALID });
      const res = await run({ n: 1, config: frm(1), judge: judgeFor('openai', { maxRetries: 3 }) });
      assert.equal(server.requests.length, 1);
      assertNotEvaluated(res, 'judge_error');
      const m = overall(res).details?.reason === 'judge_error' ? overall(res) : perInv(res)[0];
      assert.match(messageOf(m), new RegExp(`${status}|scripted ${status}`), 'the message names the status or the provider message');
    });
  }

  // The delay before retry i (from 0) is b = min(retryMaxDelayMs, retryInitialDelayMs * 2^i), with
  // jitter at most halving it (equal jitter: b/2 + random * b/2), so b/2 is a lower bound.
  test('backoff: exponential from retryInitialDelayMs', async () => {
    server.script({ '*': [{ status: 503 }, { status: 503 }, { status: 503 }] }, { fallback: VALID });
    const res = await run({ n: 1, config: frm(1), judge: judgeFor('openai', { maxRetries: 3, retryInitialDelayMs: 200, retryMaxDelayMs: 10_000 }) });
    assert.equal(overall(res).eval_status, 'PASSED');
    const r = server.requests;
    assert.equal(r.length, 4);
    const gaps = r.slice(1).map((x, i) => x.arrivedAt - r[i].finishedAt);
    // A constant 200 ms delay would make the third wait <= ~200 ms; doubling makes it >= 400.
    gaps.forEach((g, i) => assert.ok(g >= 100 * 2 ** i * 0.95, `retry ${i + 1} came ${g.toFixed(0)} ms after the failure; expected >= ${100 * 2 ** i} (half of ${200 * 2 ** i})`));
  });

  test('backoff: capped at retryMaxDelayMs', async () => {
    server.script({ '*': Array.from({ length: 5 }, () => ({ status: 500 })) }, { fallback: VALID });
    await run({ n: 1, config: frm(1), judge: judgeFor('openai', { maxRetries: 5, retryInitialDelayMs: 400, retryMaxDelayMs: 400 }) });
    const r = server.requests;
    assert.equal(r.length, 6);
    const gaps = r.slice(1).map((x, i) => x.arrivedAt - r[i].finishedAt);
    gaps.forEach((g, i) => assert.ok(g >= 190, `retry ${i + 1}: ${g.toFixed(0)} ms < half the 400 ms delay`));
    // Uncapped, the fifth wait would be at least 3200 ms (half of 400 * 2^4).
    assert.ok(gaps[4] < 2_500, `retry 5 waited ${gaps[4].toFixed(0)} ms; retryMaxDelayMs is 400`);
  });

  test('Retry-After (seconds) is honoured', async () => {
    server.script({ '*': [{ status: 429, retryAfter: 1 }] }, { fallback: VALID });
    const res = await run({ n: 1, config: frm(1), judge: judgeFor('openai', { maxRetries: 2, retryInitialDelayMs: 10 }) });
    assert.equal(overall(res).eval_status, 'PASSED');
    const [a, b] = server.requests;
    assert.ok(b.arrivedAt - a.finishedAt >= 950, `retried ${(b.arrivedAt - a.finishedAt).toFixed(0)} ms after a Retry-After: 1`);
  });
});

describe('NOT_EVALUATED reasons', () => {
  test('unparsable_answer: no sample carries a verdict', async () => {
    server.script({}, { fallback: 'I would rather not say.' });
    const res = await run({ n: 1, config: frm(3) });
    assert.equal(server.requests.length, 3);
    assertNotEvaluated(res, 'unparsable_answer');
  });

  test('judge_error: a failed sample makes its invocation NOT_EVALUATED whatever the others said', async () => {
    let k = 0;
    server.script(() => (k++ === 1 ? { status: 400, error: 'bad sample' } : VALID));
    const res = await run({ n: 1, config: frm(3, {}), judge: judgeFor('openai', { concurrency: 1 }) });
    assertNotEvaluated(res, 'judge_error', { invocation: 0 });
  });

  for (const [name, fault] of [['malformed JSON', { fault: 'malformed' }], ['empty choices', { fault: 'empty' }], ['a 200 with an error body', { fault: 'errorBody' }]]) {
    for (const provider of ['openai', 'gemini', 'anthropic']) {
      test(`judge_error: ${name} (${provider})`, async () => {
        server.script({}, { fallback: fault });
        const res = await run({ n: 1, config: frm(1), judge: judgeFor(provider, { maxRetries: 0 }) });
        assert.equal(server.requests.length, 1);
        // An empty Anthropic content list is an empty answer: no verdict rather than a failure.
        const reasons = provider === 'anthropic' && fault.fault === 'empty' ? ['judge_error', 'unparsable_answer'] : ['judge_error'];
        const m = overall(res);
        assert.equal(m.eval_status, 'NOT_EVALUATED');
        const got = [reasonOf(m), ...perInv(res).map(reasonOf)];
        assert.ok(got.some((r) => reasons.includes(r)), `expected ${reasons.join(' or ')}, got ${JSON.stringify(got)}`);
      });
    }
  }
});

describe('cassettes', () => {
  test('record, then replay with the server stopped: identical results; a miss names the request', async () => {
    const path = join(work, 'record.json');
    const recorder = await startJudgeServer();
    let results;
    try {
      recorder.script(byTurn([1]));
      const judge = { provider: 'openai', model: 'judge-m', baseUrl: `${recorder.baseUrl}/v1`, cassette: { path, mode: 'record' } };
      results = await run({ config: frm(3), judge });
      assert.equal(recorder.requests.length, 6);
      assert.ok(existsSync(path), 'record mode wrote no cassette file');
      assert.ok(readFileSync(path, 'utf8').length > 0);
    } finally {
      await recorder.close();
    }
    let fetched = 0;
    const spy = (...a) => { fetched++; return globalThis.fetch(...a); };
    const judge = { provider: 'openai', model: 'judge-m', baseUrl: `${recorder.baseUrl}/v1`, fetch: spy, cassette: { path, mode: 'replay' } };
    const replayed = await run({ config: frm(3), judge });
    assert.equal(fetched, 0, 'replay called fetch');
    assert.deepEqual(replayed, results);
    // A request the cassette does not hold: the second invocation answers differently.
    const f = fixture(2);
    f.actual[1].final_response.parts[0].text = `${marker(2)} A different answer.`;
    const miss = await run({ config: frm(3), judge, actual: f.actual });
    assert.equal(fetched, 0);
    assert.equal(perInv(miss)[0].eval_status, 'PASSED', 'the recorded invocation still replays');
    assertNotEvaluated(miss, 'cassette_miss', { invocation: 1 });
    assert.match(messageOf(perInv(miss)[1]), /final_response_match_v2/);
  });

  test('auto: records what is missing, replays what is there', async () => {
    const path = join(work, 'auto.json');
    const live = await startJudgeServer();
    try {
      live.script(byTurn([1, 2]));
      const judge = { provider: 'openai', model: 'judge-m', baseUrl: `${live.baseUrl}/v1`, cassette: { path, mode: 'auto' } };
      const first = await run({ config: frm(2), judge });
      assert.equal(live.requests.length, 4);
      const second = await run({ config: frm(2), judge });
      assert.equal(live.requests.length, 4, 'auto mode fetched an entry it had recorded');
      assert.deepEqual(second, first);
      const third = await run({ n: 3, config: frm(2), judge });
      assert.equal(live.requests.length, 6, 'only the new invocation is fetched');
      assert.equal(overall(third).eval_status, 'PASSED');
    } finally {
      await live.close();
    }
  });
});

describe('dry run and budget', () => {
  test('planJudgeCalls lists the calls without sending any', async () => {
    assert.equal(typeof ec.planJudgeCalls, 'function', 'planJudgeCalls is not exported');
    server.script({}, { fallback: VALID });
    const f = fixture(2);
    const plan = await ec.planJudgeCalls({ evalCase: f.evalCase, actual: f.actual, config: frm(3), judge: judgeFor('gemini') });
    assert.equal(server.requests.length, 0);
    assert.equal(plan.count, 6);
    assert.equal(plan.calls.length, 6);
    const keys = plan.calls.map((c) => `${c.metric}/${c.invocationIndex}/${c.sample}/${c.kind}/${c.provider}`).sort();
    assert.deepEqual(keys, [0, 1].flatMap((i) => [0, 1, 2].map((s) => `${METRIC}/${i}/${s}/judge/gemini`)).sort());
    for (const c of plan.calls) assert.ok(Number.isInteger(c.estimatedTokens) && c.estimatedTokens > 0);
    assert.equal(plan.estimatedTokens, plan.calls.reduce((s, c) => s + c.estimatedTokens, 0));
  });

  test('judge.maxCalls: calls beyond it are not sent; those invocations are NOT_EVALUATED (budget_exhausted)', async () => {
    server.script({}, { fallback: VALID });
    const res = await run({ n: 2, config: frm(3), judge: judgeFor('openai', { maxCalls: 4, concurrency: 1 }) });
    assert.equal(server.requests.length, 4);
    const per = perInv(res);
    assert.ok(per.some((m) => m.eval_status === 'NOT_EVALUATED' && reasonOf(m) === 'budget_exhausted'),
      JSON.stringify(per.map((m) => [m.eval_status, m.details])));
    server.script({}, { fallback: VALID });
    const none = await run({ n: 2, config: frm(3), judge: judgeFor('openai', { maxCalls: 0 }) });
    assert.equal(server.requests.length, 0);
    assertNotEvaluated(none, 'budget_exhausted');
  });
});

describe('judge.fetch that misbehaves', () => {
  const variants = {
    'throws synchronously': () => { throw new Error('sync boom'); },
    rejects: async () => { throw new Error('async boom'); },
    'returns a non-Response': async () => ({ hello: 'world' }),
    'returns undefined': () => undefined,
  };
  const messages = {};
  for (const [name, fetch] of Object.entries(variants)) {
    test(`a fetch that ${name}: NOT_EVALUATED (judge_error), never a throw`, async () => {
      let calls = 0;
      const counted = (...a) => { calls++; return fetch(...a); };
      const res = await run({ n: 1, config: frm(1), judge: judgeFor('openai', { fetch: counted, maxRetries: 0 }) });
      assert.ok(calls >= 1);
      assertNotEvaluated(res, 'judge_error');
      const m = reasonOf(overall(res)) === 'judge_error' ? overall(res) : perInv(res)[0];
      messages[name] = messageOf(m);
      if (name === 'throws synchronously') assert.match(messages[name], /sync boom/);
      if (name === 'rejects') assert.match(messages[name], /async boom/);
    });
  }

  test('the three failures are told apart', () => {
    const m = [messages['throws synchronously'], messages.rejects, messages['returns a non-Response']];
    assert.ok(m.every((x) => typeof x === 'string' && x !== ''), JSON.stringify(messages));
    assert.equal(new Set(m).size, 3, JSON.stringify(messages));
  });

  test('a host fetch receives (url, init) and its Response is used', async () => {
    server.script({}, { fallback: VALID });
    const seen = [];
    const wrapped = (url, init) => { seen.push({ url: String(url), method: init?.method, body: init?.body }); return globalThis.fetch(url, init); };
    const res = await run({ n: 1, config: frm(2), judge: judgeFor('openai', { fetch: wrapped }) });
    assert.equal(seen.length, 2);
    assert.equal(seen[0].url, `${server.baseUrl}/v1/chat/completions`);
    assert.equal(seen[0].method, 'POST');
    assert.equal(typeof seen[0].body, 'string');
    assert.equal(overall(res).eval_status, 'PASSED');
  });
});
