// The evaluation endpoint in Node (`evalcore serve`), Deno (Deno.serve) and workerd (the module
// worker of examples/worker) on 127.0.0.1, configured from the same environment, asked the same
// requests: every answer (status, content type, body) must be the same in the three, and equal
// to what the library gives for the same input in this process (the shared case oracles,
// validation, the metric registry, an agent run, a judged metric). Also: errors with
// code/path/message for bad input, a hostile eval set that leaves the server answering, the
// ndjson stream's order and completeness, a client abort that stops the evaluation, and no key
// in anything a server emits.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import * as api from '../../pkg/index.js';
import { startJudgeServer } from '../js/support/judge-server.mjs';
import {
  DENO, WORKERD, call, rawCall, callNdjson, evalIdOf, oracleRequest, oracleRows, removeWork, stable, startAgentServer,
  startDeno, startNode, startWorkerd, workDir,
} from './support.mjs';

const TOKEN = 'tok-7f3a9c2e51d84b06';
const KEY = 'sk-test-DO-NOT-LEAK-4c1e8f2a9b7d';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const rows = oracleRows();

// Replies of the loopback HTTP agent: three cases, their turns answered as an agent would.
const AGENT_SET = {
  eval_set_id: 'agent_set',
  eval_cases: [
    { eval_id: 'dice', conversation: [
      { invocation_id: 'd1', user_content: { role: 'user', parts: [{ text: 'Roll a die' }] }, final_response: { role: 'model', parts: [{ text: 'You rolled a 4' }] },
        intermediate_data: { tool_uses: [{ name: 'roll_die', args: { sides: 6 } }], tool_responses: [] } },
      { invocation_id: 'd2', user_content: { role: 'user', parts: [{ text: 'Is it prime?' }] }, final_response: { role: 'model', parts: [{ text: '4 is not prime' }] },
        intermediate_data: { tool_uses: [{ name: 'check_prime', args: { nums: [4] } }], tool_responses: [] } },
    ] },
    { eval_id: 'hello', conversation: [
      { invocation_id: 'h1', user_content: { role: 'user', parts: [{ text: 'Hi' }] }, final_response: { role: 'model', parts: [{ text: 'Hello, how can I help?' }] } },
    ] },
    { eval_id: 'wrong_tool', conversation: [
      { invocation_id: 'w1', user_content: { role: 'user', parts: [{ text: 'Roll twice' }] }, final_response: { role: 'model', parts: [{ text: 'You rolled 2 and 5' }] },
        intermediate_data: { tool_uses: [{ name: 'roll_die', args: { sides: 6 } }, { name: 'roll_die', args: { sides: 6 } }], tool_responses: [] } },
    ] },
  ],
};
const AGENT_REPLIES = {
  dice: [{ finalResponse: 'You rolled a 4', toolCalls: [{ name: 'roll_die', args: { sides: 6 } }] }, { finalResponse: 'Four is not a prime', toolCalls: [{ name: 'check_prime', args: { nums: [4] } }] }],
  hello: ['Hello! How can I help?'],
  wrong_tool: [{ finalResponse: 'You rolled 2', toolCalls: [{ name: 'roll_die', args: { sides: 20 } }] }],
};
const SLOW_CASES = Array.from({ length: 8 }, (_, i) => `slow_${i}`);
const SLOW_SET = { eval_set_id: 'slow', eval_cases: SLOW_CASES.map((id) => ({ eval_id: id, conversation: [{ invocation_id: `${id}-1`, user_content: { role: 'user', parts: [{ text: 'hi' }] }, final_response: { role: 'model', parts: [{ text: 'hello' }] } }] })) };

const work = workDir();
const servers = {};
let judge;
let agentServer;
let slowAgent;
let env;

before(async () => {
  for (const [tool, path] of [['deno', DENO], ['workerd', WORKERD]]) {
    if (!existsSync(path)) throw new Error(`${tool} not found at ${path}: run scripts/setup.sh`);
  }
  judge = await startJudgeServer();
  judge.script(() => ({ text: '{"reasoning": "The answers agree.", "is_the_agent_response_valid": "valid"}' }));
  agentServer = await startAgentServer(AGENT_REPLIES);
  slowAgent = await startAgentServer(Object.fromEntries(SLOW_CASES.map((id) => [id, ['hello']])), { delayMs: 300 });
  env = {
    EVALCORE_TOKEN: TOKEN,
    EVALCORE_JUDGE: 'openai:judge-model',
    EVALCORE_JUDGE_BASE_URL: judge.baseUrl,
    OPENAI_API_KEY: KEY,
    EVALCORE_AGENTS: JSON.stringify({ replay: agentServer.url, slow: slowAgent.url }),
    EVALCORE_MAX_BODY_BYTES: '300000',
    EVALCORE_MAX_CASES: '40',
    EVALCORE_CASE_CONCURRENCY: '2',
    EVALCORE_MAX_PARSE_BYTES: String(16 * 1024 * 1024),
    EVALCORE_MAX_CONCURRENT: '2',
    EVALCORE_LOG: '1',
    EVALCORE_CORS_ORIGINS: 'https://app.example, http://localhost:5173',
  };
  // One at a time: the machine is small and startup is not what is measured.
  servers.node = await startNode(env, work);
  servers.deno = await startDeno(env, work);
  servers.workerd = await startWorkerd(env, work);
});

after(async () => {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
  await judge?.close();
  await agentServer?.close();
  await slowAgent?.close();
  removeWork(work);
});

const RUNTIMES = ['node', 'deno', 'workerd'];

/** Asks every runtime; asserts they answered alike; returns Node's answer. */
async function same(path, options, normalize = (x) => x) {
  const answers = {};
  for (const name of RUNTIMES) answers[name] = await call(servers[name].url, path, options);
  const view = (a) => ({ status: a.status, type: a.headers['content-type'], body: normalize(a.body) });
  for (const name of RUNTIMES.slice(1)) {
    assert.deepEqual(view(answers[name]), view(answers.node), `${name} answered ${path} differently from node`);
  }
  return answers.node;
}

const libraryError = (e) => ({ code: e.code, path: e.path });
/** A library value as it reads after a trip through JSON text (what HTTP carries: -0 is 0). */
const asJson = (v) => JSON.parse(JSON.stringify(v));

describe('the same answers in node, deno and workerd', () => {
  test('GET /healthz needs no token; GET /v1/metrics lists the core registry (metricsInfo)', async () => {
    const h = await same('/healthz', { method: 'GET' });
    assert.deepEqual(h.body, { ok: true, version: api.coreVersion() });
    const m = await same('/v1/metrics', { method: 'GET', headers: AUTH });
    assert.equal(m.status, 200);
    assert.deepEqual(m.body, { metrics: api.metricsInfo() });
    const judged = m.body.metrics.filter((x) => x.needs_judge).map((x) => x.name);
    assert.ok(judged.includes('final_response_match_v2') && !judged.includes('response_match_score'));
  });

  test('token, routes and methods: 401, 404, 405 with code, path and message', async () => {
    const missing = await same('/v1/metrics', { method: 'GET' });
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error.code, 'unauthorized');
    assert.equal(missing.headers['www-authenticate'], 'Bearer');
    const wrong = await same('/v1/evaluate', { body: {}, headers: { authorization: 'Bearer nope' } });
    assert.equal(wrong.status, 401);
    const notFound = await same('/v2/evaluate', { method: 'GET', headers: AUTH });
    assert.equal(notFound.status, 404);
    assert.equal(notFound.body.error.code, 'not_found');
    const method = await same('/v1/evaluate', { method: 'GET', headers: AUTH });
    assert.equal(method.status, 405);
    assert.equal(method.headers.allow, 'POST');
    for (const a of [missing, wrong, notFound, method]) assert.deepEqual(Object.keys(a.body.error), ['code', 'path', 'message']);
  });

  test('CORS for the configured origins: preflight without the token, Access-Control-Allow-Origin on every answer', async () => {
    const cors = (a) => ({ status: a.status, origin: a.headers['access-control-allow-origin'], methods: a.headers['access-control-allow-methods'],
      allow: a.headers['access-control-allow-headers'], expose: a.headers['access-control-expose-headers'], vary: a.headers.vary });
    const preflight = { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } };
    for (const name of RUNTIMES) {
      const pre = await call(servers[name].url, '/v1/evaluate', preflight);
      assert.deepEqual(cors(pre), { status: 204, origin: 'https://app.example', methods: 'POST', allow: 'authorization, content-type, accept', expose: 'retry-after', vary: 'Origin' }, name);
      const other = await call(servers[name].url, '/v1/metrics', { method: 'GET', headers: { ...AUTH, origin: 'https://evil.example' } });
      assert.deepEqual(cors(other), { status: 200, origin: undefined, methods: undefined, allow: undefined, expose: undefined, vary: 'Origin' }, name);
    }
    const ok = await same('/v1/metrics', { method: 'GET', headers: { ...AUTH, origin: 'http://localhost:5173' } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers['access-control-allow-origin'], 'http://localhost:5173');
    const denied = await same('/v1/metrics', { method: 'GET', headers: { origin: 'https://app.example' } });
    assert.equal(denied.status, 401);
    assert.equal(denied.headers['access-control-allow-origin'], 'https://app.example', 'a browser can read the 401');
    const other = await same('/v1/metrics', { method: 'GET', headers: { ...AUTH, origin: 'https://evil.example' } });
    assert.equal(other.status, 200);
    assert.equal(other.headers['access-control-allow-origin'], undefined);
    assert.equal(other.headers.vary, 'Origin');
  });

  test('pages of other origins: a cross-site or untyped POST is refused alike; a foreign Host where the server knows its names (Node, Deno), not by a deployed worker', async () => {
    for (const name of RUNTIMES) {
      const { port } = new URL(servers[name].url);
      const host = `127.0.0.1:${port}`;
      const form = await rawCall(servers[name].url, '/v1/validate', { method: 'POST', body: '{"config": {}}', headers: { host, ...AUTH, origin: 'https://evil.example', 'content-type': 'text/plain' } });
      assert.deepEqual([form.status, form.body.error?.code], [403, 'origin_not_allowed'], `${name}: ${form.text}`);
      const untyped = await rawCall(servers[name].url, '/v1/validate', { method: 'POST', body: '{"config": {}}', headers: { host, ...AUTH, 'content-type': 'text/plain' } });
      assert.deepEqual([untyped.status, untyped.body.error?.code], [415, 'unsupported_media_type'], `${name}: ${untyped.text}`);
      const listed = await rawCall(servers[name].url, '/v1/validate', { method: 'POST', body: '{"config": {}}', headers: { host, ...AUTH, origin: 'https://app.example', 'content-type': 'application/json' } });
      assert.equal(listed.status, 200, `${name}: ${listed.text}`);
      const rebound = await rawCall(servers[name].url, '/healthz', { headers: { host: `rebound.attacker.example:${port}` } });
      assert.equal(rebound.status, name === 'workerd' ? 200 : 403, `${name}: ${rebound.text}`);
    }
  });

  test('bad bodies: not JSON, empty, not an object, unknown field, missing evalSet, both actual and agent', async () => {
    const cases = [
      [{ raw: '{"evalSet": ' }, 400, 'invalid_json'],
      [{ raw: '' }, 400, 'invalid_json'],
      [{ raw: '[1, 2]' }, 400, 'schema'],
      [{ body: { evalSet: AGENT_SET, actual: {}, agents: 'x' } }, 400, 'schema', '$.agents'],
      [{ body: { actual: {} } }, 400, 'schema', '$.evalSet'],
      [{ body: { evalSet: AGENT_SET, actual: {}, agent: 'replay' } }, 400, 'schema', '$'],
      [{ body: { evalSet: AGENT_SET, agent: 'https://evil.example/agent' } }, 400, 'unknown_agent', '$.agent'],
      [{ body: { evalSet: AGENT_SET, agent: 'replay', numRuns: 50 } }, 413, 'too_many_runs', '$.numRuns'],
      [{ body: { evalSet: AGENT_SET, actual: { dice: [], hello: [] } } }, 400, 'schema', '$.actual.wrong_tool'],
      [{ body: { evalSet: AGENT_SET, actual: { dice: [], hello: [], wrong_tool: [], other: [] } } }, 400, 'schema', '$.actual.other'],
      [{ body: { evalSet: AGENT_SET, agent: 'replay', config: { criteria: { response_match_score: 'high' } } } }, 400, 'schema'],
    ];
    for (const [options, status, code, path] of cases) {
      const a = await same('/v1/evaluate', { ...options, headers: AUTH });
      assert.equal(a.status, status, `${JSON.stringify(options).slice(0, 120)} -> ${a.text}`);
      assert.equal(a.body.error.code, code, a.text);
      if (path !== undefined) assert.equal(a.body.error.path, path, a.text);
      assert.ok(a.body.error.message.length > 10, a.text);
    }
  });

  test('an oversized body is 413 too_large, declared or streamed', async () => {
    const big = JSON.stringify({ evalSet: { eval_set_id: 'big', eval_cases: [] }, actual: {}, pad: 'x'.repeat(400_000) });
    const a = await same('/v1/evaluate', { raw: big, headers: AUTH });
    assert.equal(a.status, 413);
    assert.equal(a.body.error.code, 'too_large');
    assert.match(a.body.error.message, /300000/);
    // Without a declared length (a streamed body) the server stops reading at the limit.
    for (const name of RUNTIMES) {
      const chunks = [new TextEncoder().encode(big.slice(0, 200_000)), new TextEncoder().encode(big.slice(200_000))];
      const body = new ReadableStream({ pull(c) { const next = chunks.shift(); if (next) c.enqueue(next); else c.close(); } });
      const res = await fetch(`${servers[name].url}/v1/evaluate`, { method: 'POST', body, duplex: 'half', headers: { ...AUTH, 'content-type': 'application/json' } });
      assert.equal(res.status, 413, name);
      assert.equal((await res.json()).error.code, 'too_large', name);
    }
  });

  test('hostile eval sets are refused with a path, and the server keeps answering', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const hostile = [
      [{ raw: `{"evalSet": ${deep}, "actual": {}}` }, 400, 'invalid_json'],
      [{ body: { evalSet: { eval_set_id: 'h', eval_cases: 'all of them' }, actual: {} } }, 400, 'schema', '$.evalSet.eval_cases'],
      // Under the body limit, over the parse budget: 145,000 tiny values would take ~40 MiB to parse.
      [{ raw: `{"evalSet": {"eval_set_id": "h", "eval_cases": [${'0,'.repeat(145_000)}0]}, "actual": {}}` }, 413, 'too_large'],
      [{ body: { evalSet: { eval_set_id: 'h', eval_cases: Array.from({ length: 41 }, (_, i) => ({ eval_id: `c${i}`, conversation: [] })) }, actual: {} } }, 413, 'too_many_cases'],
      [{ body: { evalSet: { eval_set_id: 'h', eval_cases: [{ eval_id: 'a', conversation: [] }, { eval_id: 'a', conversation: [] }] }, actual: {} } }, 400, 'duplicate_id'],
      [{ raw: '{"evalSet": {"eval_set_id": "h", "eval_cases": [{"eval_id": "__proto__", "conversation": []}]}, "actual": {"__proto__": []}}' }, 200],
      [{ raw: `{"evalSet": {"eval_set_id": "${'\\ud800'.repeat(10)}", "eval_cases": []}, "actual": {}}` }, 400, 'invalid_json'],
      [{ body: { evalSet: { eval_set_id: 'h', eval_cases: [{ eval_id: 'n', conversation: [{ invocation_id: 'x', user_content: { role: 'user', parts: [{ text: 1e308 }] } }] }] }, actual: { n: [] } } }, 400, 'schema'],
    ];
    for (const [options, status, code, path] of hostile) {
      const a = await same('/v1/evaluate', { ...options, headers: AUTH }, stable);
      assert.equal(a.status, status, `${JSON.stringify(options).slice(0, 160)} -> ${a.text.slice(0, 400)}`);
      if (code !== undefined) assert.equal(a.body.error.code, code, a.text);
      if (path !== undefined) assert.equal(a.body.error.path, path, a.text);
    }
    const h = await same('/healthz', { method: 'GET' });
    assert.equal(h.status, 200);
  });

  test('POST /v1/validate: the problems validateEvalSet and validateEvalConfig find, with their paths', async () => {
    const evalSet = { eval_set_id: 's', eval_cases: [{ eval_id: 'a', conversation: [{ invocation_id: 'i' }] }, { eval_id: 'a', conversation: 3 }] };
    const config = { criterias: {}, criteria: { respone_match_score: 0.8, tool_trajectory_avg_score: { threshold: 1, match_type: 'INORDER' } } };
    const a = await same('/v1/validate', { body: { evalSet, config }, headers: AUTH });
    assert.equal(a.status, 200);
    const vs = api.validateEvalSet(evalSet);
    const vc = api.validateEvalConfig(config);
    const plain = (e) => ({ code: e.code, path: e.path, message: e.message });
    assert.deepEqual(a.body, {
      ok: false,
      evalSet: { ok: vs.ok, errors: vs.errors.map(plain) },
      config: { ok: vc.ok, errors: vc.errors.map(plain), warnings: vc.warnings.map(plain) },
    });
    assert.ok(a.body.evalSet.errors.length >= 2 && a.body.config.warnings.length >= 2);
    const good = await same('/v1/validate', { body: { config: { criteria: { response_match_score: 0.5 } } }, headers: AUTH });
    assert.deepEqual(good.body, { ok: true, config: { ok: true, errors: [], warnings: [] } });
  });

  test('recorded invocations: every 6th case oracle scores as evaluateInvocations scores it (or fails where it throws)', async () => {
    let scored = 0;
    let refused = 0;
    for (const row of rows.filter((_, i) => i % 6 === 0)) {
      const a = await same('/v1/evaluate', { body: oracleRequest(row), headers: AUTH }, stable);
      let expected;
      try {
        expected = await api.evaluateInvocations({ evalCase: row.eval_case, actual: row.actual_invocations, config: row.config, evalSetId: 'oracles' });
      } catch (e) {
        expected = libraryError(e);
      }
      if (expected.code !== undefined) {
        assert.equal(a.status, 400, `${row.id}: ${a.text.slice(0, 300)}`);
        assert.equal(a.body.error.code, expected.code, row.id);
        refused++;
        continue;
      }
      assert.equal(a.status, 200, `${row.id}: ${a.text.slice(0, 300)}`);
      assert.equal(a.body.eval_set_id, 'oracles');
      assert.deepEqual(a.body.eval_case_results, [asJson(expected)], row.id);
      assert.equal(a.body.eval_case_results[0].final_eval_status, row.expected_result.final_eval_status ?? a.body.eval_case_results[0].final_eval_status, row.id);
      scored++;
    }
    assert.ok(scored >= 30 && refused >= 1, `scored ${scored}, refused ${refused}`);
  });

  test('ndjson: each case result on its own line as scored, then one summary line; none lost or repeated', async () => {
    const picked = rows.filter((r) => !(r.tags ?? []).some((t) => t.startsWith('err:'))).slice(0, 30);
    const usable = [];
    for (const r of picked) {
      try {
        usable.push({ row: r, expected: await api.evaluateInvocations({ evalCase: r.eval_case, actual: r.actual_invocations, evalSetId: 'stream' }) });
      } catch {
        // a case the library refuses under the default config is left out of the set
      }
      if (usable.length === 12) break;
    }
    assert.equal(usable.length, 12);
    const body = {
      evalSet: { eval_set_id: 'stream', eval_cases: usable.map((u) => u.row.eval_case) },
      actual: Object.fromEntries(usable.map((u) => [evalIdOf(u.row.eval_case), u.row.actual_invocations])),
    };
    const views = {};
    for (const name of RUNTIMES) {
      const r = await callNdjson(servers[name].url, '/v1/evaluate', body, AUTH);
      assert.equal(r.status, 200, `${name}: ${r.text.slice(0, 300)}`);
      assert.match(r.headers['content-type'], /^application\/x-ndjson/);
      const cases = r.lines.slice(0, -1);
      const last = r.lines.at(-1);
      assert.ok(last.summary, `${name}: the last line is the summary`);
      assert.equal(cases.length, 12, name);
      assert.ok(cases.every((c) => c.eval_id !== undefined && c.summary === undefined && c.error === undefined), name);
      const ids = cases.map((c) => c.eval_id);
      assert.equal(new Set(ids).size, 12, `${name}: a case result was repeated`);
      const byId = new Map(usable.map((u) => [evalIdOf(u.row.eval_case), u.expected]));
      for (const c of cases) assert.deepEqual(c, asJson(byId.get(c.eval_id)), `${name}: ${c.eval_id}`);
      const counts = { cases: 12, passed: 0, failed: 0, not_evaluated: 0, skipped: 0 };
      for (const u of usable) counts[u.expected.final_eval_status === 'PASSED' ? 'passed' : u.expected.final_eval_status === 'FAILED' ? 'failed' : 'not_evaluated']++;
      assert.deepEqual(last.summary.counts, counts, name);
      assert.equal(last.summary.eval_set_id, 'stream');
      assert.equal(typeof last.summary.run_health.count, 'number');
      views[name] = { cases: [...cases].sort((a, b) => (a.eval_id < b.eval_id ? -1 : 1)), summary: stable(last.summary) };
    }
    for (const name of RUNTIMES.slice(1)) assert.deepEqual(views[name], views.node, `${name} streamed differently from node`);
  });

  test('agent: a server-configured HTTP agent run as evaluate() runs the same agent in this process', async () => {
    const body = { evalSet: AGENT_SET, agent: 'replay', config: { criteria: { tool_trajectory_avg_score: 1, response_match_score: 0.5 } } };
    const dropDurations = (r) => {
      const s = stable(r);
      for (const c of s.eval_case_results ?? []) {
        c.overall_eval_metric_results = c.overall_eval_metric_results.filter((m) => m.metric_name !== 'invocation_duration_v1');
        for (const p of c.eval_metric_result_per_invocation ?? []) p.eval_metric_results = p.eval_metric_results.filter((m) => m.metric_name !== 'invocation_duration_v1');
      }
      s.eval_case_results?.sort((a, b) => (a.eval_id < b.eval_id ? -1 : 1));
      return s;
    };
    const a = await same('/v1/evaluate', { body, headers: AUTH }, dropDurations);
    assert.equal(a.status, 200, a.text.slice(0, 400));
    const library = await api.evaluate({
      evalSet: AGENT_SET, config: body.config, concurrency: 2, agentTimeoutMs: 60_000,
      judge: { provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl, maxCalls: 200 },
      agent: async (turn) => AGENT_REPLIES[turn.evalId][turn.turnIndex] });
    assert.deepEqual(dropDurations(a.body), dropDurations(asJson(library)));
    const statuses = Object.fromEntries(a.body.eval_case_results.map((c) => [c.eval_id, c.final_eval_status]));
    assert.deepEqual(statuses, { dice: 'PASSED', hello: 'PASSED', wrong_tool: 'FAILED' });
  });

  test('judge: the server\'s own judge and key; the same verdicts as the library; the key in no answer', async () => {
    const row = rows.find((r) => !(r.tags ?? []).some((t) => t.startsWith('err:')) && r.actual_invocations.length === (r.eval_case.conversation?.length ?? -1));
    const config = { criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } };
    const body = { ...oracleRequest(row, 'judged'), config };
    judge.reset();
    const a = await same('/v1/evaluate', { body, headers: AUTH }, stable);
    assert.equal(a.status, 200, a.text.slice(0, 400));
    const served = judge.requests.length;
    assert.ok(served >= 3, `each runtime called the judge (${served} calls)`);
    for (const r of judge.requests) assert.equal(r.headers.authorization, `Bearer ${KEY}`, 'the key reached the judge');
    const library = await api.evaluateInvocations({
      evalCase: row.eval_case, actual: row.actual_invocations, config, evalSetId: 'judged',
      judge: { provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl, headers: { authorization: `Bearer ${KEY}` } },
    });
    assert.deepEqual(a.body.eval_case_results, [asJson(library)]);
    const m = library.overall_eval_metric_results.find((x) => x.metric_name === 'final_response_match_v2');
    assert.equal(m.eval_status, 'PASSED');
    // A client cannot bring its own judge.
    const own = await same('/v1/evaluate', { body: { ...body, judge: { provider: 'openai', model: 'x', baseUrl: 'http://evil.example' } }, headers: AUTH });
    assert.equal(own.status, 400);
    assert.equal(own.body.error.path, '$.judge');
  });

  test('client abort mid-stream stops that request\'s agent turns', async () => {
    for (const name of RUNTIMES) {
      const before = slowAgent.turns.length;
      const controller = new AbortController();
      const res = await fetch(`${servers[name].url}/v1/evaluate`, {
        method: 'POST', signal: controller.signal,
        headers: { ...AUTH, 'content-type': 'application/json', accept: 'application/x-ndjson' },
        body: JSON.stringify({ evalSet: SLOW_SET, agent: 'slow' }),
      });
      assert.equal(res.status, 200);
      const reader = res.body.getReader();
      let text = '';
      while (!text.includes('\n')) {
        const { value, done } = await reader.read();
        assert.ok(!done, `${name}: the stream ended before its first line`);
        text += new TextDecoder().decode(value);
      }
      assert.ok(JSON.parse(text.slice(0, text.indexOf('\n'))).eval_id.startsWith('slow_'), name);
      controller.abort();
      await new Promise((r) => setTimeout(r, 800));
      const atAbort = slowAgent.turns.length - before;
      await new Promise((r) => setTimeout(r, 1200));
      const later = slowAgent.turns.length - before;
      assert.equal(later, atAbort, `${name}: agent turns went on after the client left (${atAbort} -> ${later})`);
      assert.ok(later < SLOW_CASES.length, `${name}: all ${SLOW_CASES.length} turns ran although the client left after the first result`);
    }
  });

  test('requests in flight are counted across requests of the module worker (429 past EVALCORE_MAX_CONCURRENT)', async () => {
    for (const name of RUNTIMES) {
      const body = { evalSet: { ...SLOW_SET, eval_cases: SLOW_SET.eval_cases.slice(0, 2) }, agent: 'slow' };
      const pending = [];
      for (let i = 0; i < 3; i++) {
        pending.push(call(servers[name].url, '/v1/evaluate', { body, headers: AUTH }));
        await new Promise((r) => setTimeout(r, 60));
      }
      const answers = await Promise.all(pending);
      assert.deepEqual(answers.map((a) => a.status), [200, 200, 429], `${name}: ${answers.map((a) => a.text.slice(0, 120)).join(' | ')}`);
      assert.equal(answers[2].body.error.code, 'too_many_requests');
      assert.equal(answers[2].headers['retry-after'], '1');
      assert.equal((await call(servers[name].url, '/v1/evaluate', { body, headers: AUTH })).status, 200, `${name}: the slots came back`);
    }
  });

  test('no key or token in anything a server answered or printed', async () => {
    for (const name of RUNTIMES) {
      const answered = [
        await call(servers[name].url, '/v1/metrics', { method: 'GET', headers: AUTH }),
        await call(servers[name].url, '/v1/evaluate', { body: { evalSet: AGENT_SET, agent: 'replay', config: { criteria: { final_response_match_v2: 0.5 } } }, headers: AUTH }),
        await call(servers[name].url, '/v1/evaluate', { body: { evalSet: AGENT_SET, agent: 'nope' }, headers: AUTH }),
      ];
      for (const a of answered) {
        const all = `${JSON.stringify(a.headers)}\n${a.text}`;
        assert.ok(!all.includes(KEY) && !all.includes(KEY.slice(3)), `${name} answered with the key`);
        assert.ok(!all.includes(TOKEN), `${name} answered with the token`);
      }
      const printed = servers[name].output();
      assert.ok(!printed.includes(KEY) && !printed.includes(TOKEN), `${name} printed a secret`);
      // It did print its request log (so the check above read something).
      assert.match(printed, name === 'node' ? /POST \/v1\/evaluate 400 unknown_agent \d+ms/ : /"evalcore":"request","method":"POST","path":"\/v1\/evaluate","status":400,"ms":\d+,"code":"unknown_agent"/, `${name}'s output: ${printed.slice(-600)}`);
    }
  });
});
