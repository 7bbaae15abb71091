// A bounded load test of `evalcore serve` (a real Node server process): 200 requests, 32 in
// flight at a time, each scoring one case of its own with a judged metric against a loopback
// judge that answers after 100 ms. Half ask for JSON, half for ndjson. Reports p50/p99 latency
// and throughput (figures, not assertions: the machine is shared); asserts that every request
// got exactly its own case back once, scored, with one judge call each: nothing lost or
// duplicated.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, test } from 'node:test';
import { startJudgeServer } from '../js/support/judge-server.mjs';
import { call, callNdjson, startNode } from './support.mjs';

const REQUESTS = Number(process.env.EVALCORE_LOAD_REQUESTS ?? 200);
const CONCURRENCY = Number(process.env.EVALCORE_LOAD_CONCURRENCY ?? 32);
const JUDGE_LATENCY_MS = 100;
const KEY = 'sk-load-secret-0a8e6c';
const CONFIG = { criteria: { response_match_score: 0.5, final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } };

let judge;
let server;

before(async () => {
  judge = await startJudgeServer({ latencyMs: JUDGE_LATENCY_MS });
  judge.script(() => '{"reasoning": "The answers agree.", "is_the_agent_response_valid": "valid"}');
  server = await startNode({
    EVALCORE_JUDGE: 'openai:judge-model', EVALCORE_JUDGE_BASE_URL: judge.baseUrl, OPENAI_API_KEY: KEY,
  }, null, ['--quiet']);
});

after(async () => {
  await server?.stop();
  await judge?.close();
});

function requestBody(i) {
  const id = `load_${i}`;
  const text = `Order ${i} ships on day ${i % 7}`;
  const turn = { user_content: { role: 'user', parts: [{ text: `When does order ${i} ship?` }] }, final_response: { role: 'model', parts: [{ text }] } };
  return {
    evalSet: { eval_set_id: `set_${i}`, eval_cases: [{ eval_id: id, conversation: [{ invocation_id: `${id}-e`, ...turn }] }] },
    config: CONFIG,
    actual: { [id]: [{ invocation_id: `${id}-a`, ...turn }] },
  };
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

test(`${REQUESTS} requests, ${CONCURRENCY} in flight, judge latency ${JUDGE_LATENCY_MS} ms: nothing lost or duplicated`, async (t) => {
  judge.reset();
  const latencies = [];
  const got = new Map();
  const problems = [];
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < REQUESTS) {
      const i = next++;
      const start = performance.now();
      let results;
      try {
        if (i % 2 === 0) {
          const a = await call(server.url, '/v1/evaluate', { body: requestBody(i) });
          if (a.status !== 200) throw new Error(`HTTP ${a.status}: ${a.text.slice(0, 200)}`);
          results = a.body.eval_case_results;
        } else {
          const r = await callNdjson(server.url, '/v1/evaluate', requestBody(i));
          if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${r.text.slice(0, 200)}`);
          if (!r.lines.at(-1)?.summary) throw new Error('no summary line');
          results = r.lines.slice(0, -1);
        }
      } catch (e) {
        problems.push(`request ${i}: ${e.message}`);
        continue;
      }
      latencies.push(performance.now() - start);
      for (const r of results) got.set(r.eval_id, [...(got.get(r.eval_id) ?? []), { request: i, r }]);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const wall = performance.now() - t0;
  assert.deepEqual(problems, []);
  // Exactly one result per request, its own, scored by the judge.
  assert.equal(got.size, REQUESTS);
  for (let i = 0; i < REQUESTS; i++) {
    const list = got.get(`load_${i}`);
    assert.equal(list?.length, 1, `load_${i}: ${list?.length ?? 0} results`);
    assert.equal(list[0].request, i);
    const { r } = list[0];
    assert.equal(r.eval_set_id, `set_${i}`);
    const judged = r.overall_eval_metric_results.find((m) => m.metric_name === 'final_response_match_v2');
    assert.equal(judged.eval_status, 'PASSED', `load_${i}: ${JSON.stringify(judged.details)}`);
    assert.equal(r.final_eval_status, 'PASSED');
  }
  assert.equal(judge.requests.length, REQUESTS, 'one judge call per request');
  assert.ok(judge.requests.every((q) => q.headers.authorization === `Bearer ${KEY}`));
  assert.ok(!server.output().includes(KEY));
  const sorted = [...latencies].sort((a, b) => a - b);
  const figures = `${REQUESTS} requests, ${CONCURRENCY} concurrent, judge ${JUDGE_LATENCY_MS} ms: p50 ${quantile(sorted, 0.5).toFixed(0)} ms, p99 ${quantile(sorted, 0.99).toFixed(0)} ms, max ${sorted.at(-1).toFixed(0)} ms; wall ${(wall / 1000).toFixed(2)} s, ${(REQUESTS / (wall / 1000)).toFixed(1)} req/s; judge calls ${judge.requests.length} (max ${judge.maxInFlight} in flight); 0 lost, 0 duplicated`;
  t.diagnostic(figures);
});
