// Issue 9 item 6, the JS half: every error the public API throws for bad input is an EvalError,
// type checks come before any copying, and calls after free() are EvalErrors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as api from '../../pkg/index.js';
import { MINIMAL_SET, actualFor } from './helpers.mjs';

const { EvalError } = api;

const cyclic = () => {
  const o = { eval_set_id: 's' };
  o.self = o;
  return o;
};
const BAD = {
  undefined, null: null, number: 42, nan: NaN, string: 'x', emptyString: '', boolean: true, bigint: 10n,
  symbol: Symbol('s'), fn: () => {}, array: [1, 2], cyclic: cyclic(), deepArray: JSON.parse(`${'['.repeat(2000)}${']'.repeat(2000)}`),
  loneSurrogate: '\uD800', longString: 'x'.repeat(1e6), date: new Date(0), map: new Map([[1, 2]]), typed: new Float32Array(3),
  badUtf8: new Uint8Array([0x7b, 0xff, 0x7d]), proxy: new Proxy({}, { ownKeys() { throw new Error('trap in ownKeys'); } }),
};

async function outcome(f) {
  try {
    await f();
    return null;
  } catch (e) {
    return e;
  }
}

test('every public function answers bad arguments with an EvalError (or a value), never another error', async () => {
  const evalCase = MINIMAL_SET.eval_cases[0];
  const calls = {
    loadEvalSet: (v) => api.loadEvalSet(v),
    'loadEvalSet options': (v) => api.loadEvalSet(MINIMAL_SET, v),
    validateEvalSet: (v) => api.validateEvalSet(v),
    loadEvalConfig: (v) => api.loadEvalConfig(v),
    'rouge1 candidate': (v) => api.rouge1(v, 'a'),
    'rouge1 reference': (v) => api.rouge1('a', v),
    rouge1Batch: (v) => api.rouge1Batch(v),
    'rouge1Batch pair': (v) => api.rouge1Batch([v]),
    evaluateInvocations: (v) => api.evaluateInvocations(v),
    'evaluateInvocations evalCase': (v) => api.evaluateInvocations({ evalCase: v, actual: actualFor() }),
    'evaluateInvocations actual': (v) => api.evaluateInvocations({ evalCase, actual: v }),
    'evaluateInvocations config': (v) => api.evaluateInvocations({ evalCase, actual: actualFor(), config: v }),
    'evaluateInvocations judge': (v) => api.evaluateInvocations({ evalCase, actual: actualFor(), judge: v }),
    'evaluateInvocations customMetrics': (v) => api.evaluateInvocations({ evalCase, actual: actualFor(), customMetrics: v }),
    prepareCase: (v) => api.prepareCase(v),
    'PreparedCase.evaluate config': (v) => api.prepareCase({ evalCase, actual: actualFor() }).evaluate(v),
    'PreparedCase.evaluate options': (v) => api.prepareCase({ evalCase, actual: actualFor() }).evaluate(null, v),
    formatReport: (v) => api.formatReport(v),
    'formatReport options': (v) => api.formatReport([], v),
    planJudgeCalls: (v) => api.planJudgeCalls(v),
    'planJudgeCalls judge': (v) => api.planJudgeCalls({ evalCase, actual: actualFor(), judge: v }),
    evaluate: (v) => api.evaluate(v),
    'evaluate evalSet': (v) => api.evaluate({ evalSet: v, agent: async () => 'x' }),
    'evaluate agent': (v) => api.evaluate({ evalSet: MINIMAL_SET, agent: v }),
    'evaluate config': (v) => api.evaluate({ evalSet: MINIMAL_SET, agent: async () => 'x', config: v }),
    'evaluate numRuns': (v) => api.evaluate({ evalSet: MINIMAL_SET, agent: async () => 'x', numRuns: v }),
    'evaluate evalIds': (v) => api.evaluate({ evalSet: MINIMAL_SET, agent: async () => 'x', evalIds: v }),
    'evaluate judge': (v) => api.evaluate({ evalSet: MINIMAL_SET, agent: async () => 'x', judge: v }),
    'evaluate signal': (v) => api.evaluate({ evalSet: MINIMAL_SET, agent: async () => 'x', signal: v }),
    setMemoryCeiling: (v) => api.setMemoryCeiling(v),
  };
  const wrong = [];
  for (const [name, call] of Object.entries(calls)) {
    for (const [kind, v] of Object.entries(BAD)) {
      const e = await outcome(() => call(v));
      if (e !== null && !(e instanceof EvalError)) wrong.push(`${name}(${kind}): ${e.name}: ${e.message}`);
    }
  }
  api.setMemoryCeiling(64 * 2 ** 20);
  assert.deepEqual(wrong, []);
});

test('planJudgeCalls({ judge: "x".repeat(1e6) }) is rejected at once with a clear EvalError', async () => {
  // At once: before anything is encoded for the core (every JSON.stringify it makes is watched).
  const stringify = JSON.stringify;
  let encoded = 0;
  JSON.stringify = function watched(...args) {
    const text = stringify.apply(this, args);
    encoded = Math.max(encoded, typeof text === 'string' ? text.length : 0);
    return text;
  };
  let e;
  try {
    e = await outcome(() => api.planJudgeCalls({
      evalCase: MINIMAL_SET.eval_cases[0], actual: actualFor(), judge: 'x'.repeat(1e6),
    }));
  } finally {
    JSON.stringify = stringify;
  }
  assert.ok(e instanceof EvalError, String(e));
  assert.equal(e.code, 'schema');
  assert.equal(e.path, '$.judge');
  assert.match(e.message, /judge must be an object .* found string/);
  assert.ok(encoded < 1e6, `JSON.stringify was given the 1 MB judge (${encoded} characters encoded)`);
  for (const judge of [[1, 2], 42, true]) {
    await assert.rejects(api.planJudgeCalls({ evalCase: MINIMAL_SET.eval_cases[0], actual: actualFor(), judge }),
      (err) => err instanceof EvalError && err.path === '$.judge');
  }
});

test('a throwing cassette onRecord never unwinds through the core: the call reports it as an EvalError', async () => {
  const evalCase = MINIMAL_SET.eval_cases[0];
  const fetch = async () => new Response(JSON.stringify({ choices: [{ message: { content: 'Label: valid' } }] }), { status: 200 });
  const e = await outcome(() => api.evaluateInvocations({
    evalCase, actual: actualFor(), config: { criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } },
    judge: { provider: 'openai', model: 'm', fetch, cassette: { mode: 'record', onRecord: () => { throw new Error('disk full'); } } },
  }));
  assert.ok(e instanceof EvalError, String(e));
  assert.equal(e.code, 'callback_error');
  assert.match(e.message, /onRecord threw: disk full/);
  assert.equal(api.rouge1('a', 'a').fmeasure, 1, 'the instance is still usable');
  assert.equal(api.coreMemory().replacements >= 0, true);
});

test('a judge fetch that ignores its signal, or a body that never ends, still times out and is retried', { timeout: 30_000 }, async () => {
  const criteria = { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } };
  const never = () => new Promise(() => {});
  const stuckBody = async () => ({ status: 200, headers: new Headers(), text: never });
  for (const [name, fetch] of [['fetch', never], ['body', stuckBody]]) {
    let calls = 0;
    const t0 = performance.now();
    const r = await api.evaluateInvocations({
      evalCase: MINIMAL_SET.eval_cases[0], actual: actualFor(), config: { criteria },
      judge: { provider: 'openai', model: 'm', fetch: (...a) => { calls++; return fetch(...a); }, timeoutMs: 150, maxRetries: 1 },
    });
    const m = r.overall_eval_metric_results[0];
    assert.equal(m.eval_status, 'NOT_EVALUATED', name);
    assert.equal(m.details.reason, 'judge_error', name);
    assert.match(m.details.error, /timeout/, name);
    assert.equal(calls, 2, `${name}: the timeout is retried once (maxRetries: 1)`);
    assert.ok(performance.now() - t0 < 10_000, `${name}: ${Math.round(performance.now() - t0)} ms`);
  }
});

test('a judged evaluation does not keep the process alive after it ends (the losing timeout sleep is ended)', async () => {
  const { spawnSync } = await import('node:child_process');
  const script = `
import * as api from ${JSON.stringify(new URL('../../pkg/index.js', import.meta.url).href)};
import { MINIMAL_SET, actualFor } from ${JSON.stringify(new URL('./helpers.mjs', import.meta.url).href)};
const fetch = async () => new Response(JSON.stringify({ choices: [{ message: { content: '{"is_the_agent_response_valid": "valid"}' } }] }), { status: 200 });
const r = await api.evaluateInvocations({ evalCase: MINIMAL_SET.eval_cases[0], actual: actualFor(),
  config: { criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } },
  judge: { provider: 'openai', model: 'm', timeoutMs: 30000, fetch } });
const e = await api.evaluate({ evalSet: MINIMAL_SET, agent: () => 'It is sunny in Paris.',
  config: { criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } },
  judge: { provider: 'openai', model: 'm', timeoutMs: 30000, fetch } });
console.log(r.overall_eval_metric_results[0].eval_status, e.eval_case_results[0].final_eval_status);
`;
  const t0 = performance.now();
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  const ms = performance.now() - t0;
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /^PASSED PASSED/);
  assert.ok(ms < 10_000, `the process ended ${Math.round(ms)} ms after it started (judge timeoutMs 30000)`);
});
